// Assay's paired bootstrap against `scipy.stats.bootstrap` on the demo data (CONTRACT §6–7).
//
// Both arms of samples/demo are scored with the CLI (so gold floats such as `150.0` keep their
// literals). Assay's intervals come from `compareReports` (overall and per language) and from
// `languageGaps` of each report (target − en over joined pairs). SciPy runs the same paired
// percentile bootstrap (tests/stats/_scipy_bootstrap.py): `scipy.stats.bootstrap` over the 14
// per-example count columns of both arms, `paired=True, vectorized=True, method="percentile",
// n_resamples=10000, random_state=SEED`, with a statistic that recomputes all five metrics
// from the pooled counts of each resample (argument_f1 = 2·Σmatched / (Σpredicted + Σgold)).
//
// The two use different PRNGs, so intervals can only agree within Monte-Carlo error:
//
// - Point deltas agree exactly (the same IEEE operations on the same integer sums).
// - 95% endpoints agree in value: |Δ| ≤ K·√2·SE_q + h, where SE_q is the Monte-Carlo SE of a
//   2.5% / 97.5% sample quantile of B resamples, sqrt(p(1−p)/B) / φ(z_p) · σ (σ: the SD of
//   SciPy's bootstrap distribution, normal density at the quantile), √2 because both sides are
//   noisy, and h is the lattice step of the statistic: 1/n for the four rates, whose deltas
//   are multiples of 1/n (a quantile that lies near a lattice point's CDF jump lands on one
//   side or the other, a whole step apart: 0.0172 for ja, n = 58), 0 for argument_f1. At
//   B = 10,000, K·√2·sqrt(p(1−p)/B)/φ(z_p) = 0.151·σ for K = 4: 0.003 overall, ≤ 0.011 for the
//   smallest slices; with h this is tighter than a flat 0.01 overall and on argument_f1, and
//   looser on the small slices' rates, where a one-step jump is expected, not an error.
// - Lattice-free: each Assay endpoint, at levels 0.50, 0.80, 0.90, 0.95 and 0.99, must sit at
//   the right rank of SciPy's bootstrap distribution: the interval [share below, share at or
//   below] must come within K·sqrt(2p(1−p)/B) + 1/B of p = (1 − level)/2 (or 1 − p). This
//   checks the shape of the whole resampling distribution, not two points of it.
//
// K = 4.5 for the rank checks (770 of them; a 4.5σ excursion has probability 7e-6 each) and 4
// for the 70 value checks. Seeds are fixed, so the test is deterministic; the bounds are what
// any seed should pass.
//
// Needs --allow-run (deno, /usr/bin/python3, apt-get), --allow-read, --allow-write (temp dir)
// and --allow-sys (uid, for ensureScipy).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  compareReports,
  type EvaluationReport,
  type ExampleRecord,
  languageGaps,
  METRIC_NAMES,
  type MetricName,
  packRecords,
} from "../../mod.ts";
import { ensureScipy, PYTHON } from "../_debian_python.ts";

const SEED = 20240601;
const RESAMPLES = 10_000;
const LEVELS = [0.5, 0.8, 0.9, 0.95, 0.99];
const K_VALUE = 4;
const K_RANK = 4.5;

const ROOT = decodeURIComponent(new URL("../../", import.meta.url).pathname).replace(/\/$/, "");
const CLI = `${ROOT}/cli/main.ts`;
const DEMO = `${ROOT}/samples/demo`;
const SCRIPT = `${ROOT}/tests/stats/_scipy_bootstrap.py`;
const dec = new TextDecoder();

/** The standard normal density. */
const phi = (z: number) => Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
/** z_{0.975}. */
const Z975 = 1.959963984540054;

async function score(arm: "base" | "adapter", dir: string): Promise<EvaluationReport> {
  const out = `${dir}/${arm}.json`;
  const r = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      CLI,
      "score",
      "--examples",
      `${DEMO}/examples.jsonl`,
      "--prompts",
      `${DEMO}/prompts.jsonl`,
      "--generations",
      `${DEMO}/generations.${arm}.jsonl`,
      "--out",
      out,
      "--quiet",
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!r.success) throw new Error(`assay score (${arm}) failed: ${dec.decode(r.stderr)}`);
  return JSON.parse(await Deno.readTextFile(out)) as EvaluationReport;
}

/** Per-record count rows, as tests/stats/_scipy_bootstrap.py reads them. */
function rows(records: readonly ExampleRecord[]): number[][] {
  const p = packRecords(records);
  return records.map((_, i) => Array.from(p.subarray(i * 7, i * 7 + 7)));
}

interface AssayResult {
  delta: number;
  /** Per level (LEVELS order): the interval. */
  ci: [number, number][];
}

interface Case {
  name: string;
  base: readonly ExampleRecord[];
  adapter: readonly ExampleRecord[];
  assay: Record<MetricName, AssayResult>;
}

interface ScipyCase {
  name: string;
  n: number;
  delta: number[];
  ci: [number, number][];
  se: number[];
  probe_ranks: [number, number][][];
}

Deno.test("paired bootstrap agrees with scipy.stats.bootstrap on the demo data", async () => {
  const versions = await ensureScipy();
  const dir = await Deno.makeTempDir({ prefix: "assay_scipy_" });
  try {
    const [base, adapter] = await Promise.all([score("base", dir), score("adapter", dir)]);
    strictEqual(base.records.length, 395);
    strictEqual(adapter.records.length, 395);

    // Assay, at every level. The resamples do not depend on the level, only the quantiles.
    const opts = (level: number) => ({ seed: SEED, resamples: RESAMPLES, level });
    const comparisons = LEVELS.map((l) => compareReports(base, adapter, opts(l)));
    const gapsBase = LEVELS.map((l) => languageGaps(base, opts(l)));
    const gapsAdapter = LEVELS.map((l) => languageGaps(adapter, opts(l)));

    const byId = new Map(adapter.records.map((r) => [r.example_id, r]));
    const aligned = (rs: readonly ExampleRecord[]) => rs.map((r) => byId.get(r.example_id)!);
    const collect = (
      pick: (i: number) => Record<MetricName, { delta: number; ci: [number, number] }>,
    ): Record<MetricName, AssayResult> => {
      const out = {} as Record<MetricName, AssayResult>;
      for (const m of METRIC_NAMES) {
        const deltas = LEVELS.map((_, i) => pick(i)[m].delta);
        ok(deltas.every((d) => d === deltas[0]), `${m}: the delta depends on the level`);
        out[m] = { delta: deltas[0]!, ci: LEVELS.map((_, i) => pick(i)[m].ci) };
      }
      return out;
    };

    const cases: Case[] = [{
      name: "compare overall",
      base: base.records,
      adapter: aligned(base.records),
      assay: collect((i) => comparisons[i]!.deltas.overall),
    }];
    for (const lang of comparisons[0]!.slices) {
      const rs = base.records.filter((r) => r.language === lang);
      cases.push({
        name: `compare ${lang}`,
        base: rs,
        adapter: aligned(rs),
        assay: collect((i) => comparisons[i]!.deltas.by_language[lang]!),
      });
    }
    for (
      const [arm, report, reports] of [
        ["base", base, gapsBase],
        ["adapter", adapter, gapsAdapter],
      ] as const
    ) {
      const en = new Map(
        report.records.filter((r) => r.language === "en").map((r) => [r.example_id, r]),
      );
      for (const lang of reports[0]!.targets) {
        const targets = report.records.filter((r) =>
          r.language === lang && r.root_id !== null && en.has(r.root_id)
        );
        strictEqual(targets.length, reports[0]!.gaps[lang]!.primary.n_pairs);
        cases.push({
          name: `gaps ${arm} ${lang}−en`,
          base: targets.map((r) => en.get(r.root_id!)!),
          adapter: targets,
          assay: collect((i) => {
            const g = reports[i]!.gaps[lang]!.primary.metrics;
            const o = {} as Record<MetricName, { delta: number; ci: [number, number] }>;
            // The demo joins rows in every language: each gap has an estimate.
            for (const m of METRIC_NAMES) o[m] = { delta: g[m].delta!, ci: g[m].ci! };
            return o;
          }),
        });
      }
    }
    strictEqual(cases.length, 1 + 5 + 4 + 4);

    // SciPy.
    const request = {
      seed: SEED,
      resamples: RESAMPLES,
      level: 0.95,
      cases: cases.map((c) => ({
        name: c.name,
        base: rows(c.base),
        adapter: rows(c.adapter),
        probes: METRIC_NAMES.map((m) => c.assay[m].ci.flat()),
      })),
    };
    const child = new Deno.Command(PYTHON, {
      args: [SCRIPT],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify(request)));
    await writer.close();
    const res = await child.output();
    if (!res.success) throw new Error(`${SCRIPT} failed: ${dec.decode(res.stderr)}`);
    const scipy = (JSON.parse(dec.decode(res.stdout)) as { cases: ScipyCase[] }).cases;
    strictEqual(scipy.length, cases.length);

    // Compare.
    const failures: string[] = [];
    const worst: Record<string, { diff: number; tol: number; where: string }> = {};
    let rankChecks = 0;
    const lines: string[] = [];
    cases.forEach((c, ci) => {
      const s = scipy[ci]!;
      strictEqual(s.name, c.name);
      strictEqual(s.n, c.base.length);
      const cells: string[] = [];
      METRIC_NAMES.forEach((m, mi) => {
        const a = c.assay[m];
        // Point delta: exactly equal.
        if (a.delta !== s.delta[mi]) {
          failures.push(`${c.name} ${m}: delta ${a.delta} vs SciPy ${s.delta[mi]}`);
        }
        // 95% endpoints in value.
        const sigma = s.se[mi]!;
        const h = m === "argument_f1" ? 0 : 1 / s.n;
        const seq = Math.sqrt(0.025 * 0.975 / RESAMPLES) / phi(Z975) * sigma;
        const tol = K_VALUE * Math.SQRT2 * seq + h + 1e-12;
        const a95 = a.ci[LEVELS.indexOf(0.95)]!;
        const s95 = s.ci[mi]!;
        const d = Math.max(Math.abs(a95[0] - s95[0]), Math.abs(a95[1] - s95[1]));
        cells.push(`${d.toFixed(4)}/${tol.toFixed(4)}`);
        const w = (worst[m] ??= { diff: 0, tol: 0, where: "" });
        if (d >= w.diff) Object.assign(w, { diff: d, tol, where: c.name });
        if (d > tol) {
          failures.push(
            `${c.name} ${m}: Assay [${a95}] vs SciPy [${s95}], |Δ| ${d} > ${tol} (σ ${sigma})`,
          );
        }
        // Every level's endpoints by rank in SciPy's distribution.
        LEVELS.forEach((level, li) => {
          const p = (1 - level) / 2;
          for (const [end, target] of [[0, p], [1, 1 - p]] as const) {
            const [below, atOrBelow] = s.probe_ranks[mi]![2 * li + end]!;
            const miss = target < below!
              ? below! - target
              : target > atOrBelow!
              ? target - atOrBelow!
              : 0;
            const rtol = K_RANK * Math.sqrt(2 * p * (1 - p) / RESAMPLES) + 1 / RESAMPLES;
            rankChecks++;
            if (miss > rtol) {
              failures.push(
                `${c.name} ${m} level ${level}: Assay's ${end ? "upper" : "lower"} endpoint ` +
                  `${a.ci[li]![end]} is at SciPy ranks [${below}, ${atOrBelow}], ` +
                  `${miss.toFixed(4)} from ${target.toFixed(4)} (allowed ${rtol.toFixed(4)})`,
              );
            }
          }
        });
      });
      lines.push(`${c.name.padEnd(20)} n=${String(s.n).padStart(3)}  ${cells.join("  ")}`);
    });
    strictEqual(rankChecks, cases.length * 5 * LEVELS.length * 2);

    console.log(`SciPy/NumPy ${versions}; |Δ| of the 95% endpoints / tolerance per metric:`);
    console.log(`${"".padEnd(28)}${METRIC_NAMES.map((m) => m.slice(0, 13).padEnd(15)).join("")}`);
    for (const l of lines) console.log(l);
    for (const m of METRIC_NAMES) {
      const w = worst[m]!;
      console.log(`max |Δ| ${m}: ${w.diff.toFixed(4)} (${w.where}, tolerance ${w.tol.toFixed(4)})`);
    }
    deepStrictEqual(failures, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
