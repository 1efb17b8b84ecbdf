// The gate reads each metric in its direction: on seeded pairs of structured reports scored from
// outputs that gain or lose extra content, the regressions, improvements, McNemar counts, failing
// rows and comparative verdicts of `extra_content_rate` (lower is better) and of `json_validity`
// (higher is better) are those computed here, independently, from the two reports' own rows.
// Until the gate read directions, a candidate with more extra content counted as an improvement.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { evaluateGate, metricSource, parseGateRules, verdictText } from "../../src/gate/mod.ts";
import { scoreStructuredJsonl, type StructuredReport } from "../../src/structured_jsonl/mod.ts";
import { calibrationReport } from "../../src/suite/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";

const gate = (yaml: string) => parseGateRules(`seed: 5\nresamples: 400\nrules:\n${yaml}`, "g.yaml");

// An output without extra content, or one of the ways to add some (prose, a fence, a trailer).
const payload = (i: number) => `{"a": ${i}}`;
const EXTRA = [
  (p: string) => `Sure: ${p}`,
  (p: string) => "```json\n" + p + "\n```",
  (p: string) => `${p}\nHope this helps.`,
];

async function structured(
  rng: Rng,
  n: number,
  extra: (i: number) => boolean,
): Promise<StructuredReport> {
  const lines = Array.from({ length: n }, (_, i) => {
    const output = extra(i) ? EXTRA[rng.int(EXTRA.length)]!(payload(i)) : payload(i);
    return JSON.stringify({ id: `r${i}`, output }) + "\n";
  });
  const { report } = await scoreStructuredJsonl(
    { outputs: new TextEncoder().encode(lines.join("")) },
    { metrics: ["extra_content_rate", "json_validity"] },
  );
  return report;
}

// The oracle: a row is right in a metric when it holds none of a fault (extra content) or all of
// what is right (valid JSON); the direction is the metric's meaning, stated here.
const LOWER = new Set(["extra_content_rate"]);
function expected(base: StructuredReport, candidate: StructuredReport, metric: string) {
  const right = (r: StructuredReport["rows"][number]) => {
    const f = r.metrics[metric]!;
    return f.denominator > 0 &&
      (LOWER.has(metric) ? f.numerator === 0 : f.numerator === f.denominator);
  };
  const regressions = base.rows.filter((r, i) => right(r) && !right(candidate.rows[i]!)).map((r) =>
    r.id!
  );
  const improvements = base.rows.filter((r, i) => !right(r) && right(candidate.rows[i]!)).length;
  const value = (r: StructuredReport) =>
    r.rows.reduce((s, x) => s + x.metrics[metric]!.numerator, 0) /
    r.rows.reduce((s, x) => s + x.metrics[metric]!.denominator, 0);
  const wrong = candidate.rows.filter((r) => !right(r)).map((r) => r.id!);
  return { regressions, improvements, delta: value(candidate) - value(base), wrong };
}

Deno.test("evaluateGate() counts regressions and improvements in each structured metric's direction, on 24 seeded pairs", async () => {
  let flippedBoth = 0;
  for (let seed = 1; seed <= 24; seed++) {
    const rng = makeRng(seed);
    const n = 6 + rng.int(40);
    const pBase = rng.float() * 0.6, pCandidate = rng.float() * 0.6;
    const baseExtra = Array.from({ length: n }, () => rng.float() < pBase);
    const candidateExtra = Array.from({ length: n }, () => rng.float() < pCandidate);
    const base = await structured(rng, n, (i) => baseExtra[i]!);
    const candidate = await structured(rng, n, (i) => candidateExtra[i]!);
    for (const metric of ["extra_content_rate", "json_validity"]) {
      const lower = LOWER.has(metric);
      const want = expected(base, candidate, metric);
      const margin = 0.05;
      const v = evaluateGate(
        gate(
          `  - metric: ${metric}\n    max_regressions: 0\n` +
            `  - metric: ${metric}\n    non_inferior: { margin: ${margin} }\n` +
            `  - metric: ${metric}\n    superior: true\n` +
            `  - metric: ${metric}\n    ${lower ? "max: 0" : "min: 1"}\n` +
            `  - metric: ${metric}\n    ${lower ? "min: 1" : "max: 0"}\n`,
        ),
        { base, candidate },
      );
      const [regressions, nonInferior, superior, worse, better] = v.rules;
      const at = `seed ${seed}, ${metric}`;
      deepStrictEqual(regressions!.failing, want.regressions, at);
      strictEqual(regressions!.pass, want.regressions.length === 0, at);
      for (const r of [regressions!, nonInferior!, superior!]) {
        strictEqual(r.mcnemar!.regressions, want.regressions.length, at);
        strictEqual(r.mcnemar!.improvements, want.improvements, at);
      }
      // Comparative rules: candidate − base either way, its interval bound checked on the side a
      // worse candidate moves it to (up for extra content).
      for (const r of [nonInferior!, superior!]) {
        ok(Math.abs(r.delta! - want.delta) < 1e-12, at);
        const [lo, hi] = r.ci!;
        ok(lo <= r.delta! + 1e-12 && r.delta! <= hi + 1e-12, at);
      }
      const [lo, hi] = nonInferior!.ci!;
      strictEqual(nonInferior!.pass, lower ? hi <= margin : lo >= -margin, at);
      strictEqual(superior!.pass, lower ? superior!.ci![1] < 0 : superior!.ci![0] > 0, at);
      deepStrictEqual(nonInferior!.failing, nonInferior!.pass ? [] : want.regressions, at);
      // The rule on the worse side lists the rows against the metric; the other lists none.
      deepStrictEqual(worse!.failing, worse!.pass ? [] : want.wrong, at);
      deepStrictEqual(better!.failing, [], at);
      strictEqual(metricSource(candidate).lowerIsBetter(metric), lower, at);
      if (want.regressions.length > 0 && want.improvements > 0) flippedBoth++;
    }
  }
  ok(flippedBoth >= 10, `only ${flippedBoth} cases flip rows both ways`);
});

Deno.test("a candidate with more extra content fails non_inferior and max_regressions, and the words say so", async () => {
  const rng = makeRng(99);
  const base = await structured(rng, 20, () => false);
  const candidate = await structured(rng, 20, (i) => i % 4 === 0);
  const v = evaluateGate(
    gate(
      "  - metric: extra_content_rate\n    max_regressions: 0\n" +
        "  - metric: extra_content_rate\n    non_inferior: { margin: 0.01 }\n" +
        "  - metric: extra_content_rate\n    superior: true\n",
    ),
    { base, candidate },
  );
  deepStrictEqual(v.rules.map((r) => r.pass), [false, false, false]);
  deepStrictEqual(v.rules[0]!.failing, ["r0", "r4", "r8", "r12", "r16"]);
  strictEqual(v.rules[1]!.delta, 0.25);
  const text = verdictText(v, "g.yaml");
  ok(text.includes("5 regressions, 0 improvements; at most 0 allowed"), text);
  ok(text.includes("needs an upper bound of at most 0.01 (lower is better)"), text);
  ok(text.includes("needs an upper bound below 0 (lower is better)"), text);
  // The other way round, the same rows are improvements and every rule holds.
  const back = evaluateGate(
    gate(
      "  - metric: extra_content_rate\n    max_regressions: 0\n" +
        "  - metric: extra_content_rate\n    superior: true\n",
    ),
    { base: candidate, candidate: base },
  );
  deepStrictEqual(back.rules.map((r) => [r.pass, r.mcnemar!.improvements]), [[true, 5], [
    true,
    5,
  ]]);
});

Deno.test("a calibration's mae is lower-is-better, its other statistics higher", () => {
  const report = calibrationReport(
    [{ judge: 0.5, human: 1 }, { judge: 1, human: 1 }, { judge: 0, human: 0 }],
    {},
  );
  const source = metricSource(report);
  deepStrictEqual(
    source.metrics.filter((m) => source.lowerIsBetter(m)),
    ["mae"],
  );
});
