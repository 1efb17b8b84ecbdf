/**
 * Benchmark of the paired bootstrap against SciPy doing the same work, in one run.
 *
 * The work: the five metric deltas of two paired arms (adapter − base), 10,000 resamples, 95%
 * percentile intervals, every metric recomputed from the pooled counts of each resample
 * (argument_f1 = 2·Σmatched / (Σpredicted + Σgold)). The data: simulated records with
 * realistic flattened-pair counts (tests/stats/_bootstrap_sim.ts), 1,000 examples, then 100,000.
 *
 * - Assay, in this process: `pairedBootstrap(base, adapter)` (packing the records included)
 *   and `bootstrapPacked` on packed counts, on the default engine (`auto`: the Wasm kernel),
 *   and `pairedBootstrap` on the `ts` engine (the pure-TS twin, what hosts without WebAssembly
 *   run). One warm-up call, then the median of `--reps`. Both engines' intervals must be
 *   identical.
 * - SciPy (`/usr/bin/python3 bench/_scipy_bench.py`, same data through int32 files): one
 *   `scipy.stats.bootstrap` call per run computing all five deltas, with the 14 per-example
 *   count columns as paired samples, `paired=True, vectorized=True, method="percentile"`.
 *   To be fair to SciPy, its batch size and dtype are tuned: at 1,000 examples every variant
 *   in `--scipy-variants` is timed and the fastest is the one compared; at 100,000 examples
 *   the fastest variant's dtype runs with the batch scaled to the same elements per batch
 *   (memory is O(batch · n); the whole 10,000 × 100,000 index array alone would be 8 GB).
 *   SciPy's default (int64, no batch) is also reported at 1,000 examples.
 *   Only the call is timed, not Python's start, imports or reading the data.
 *
 * Both sides' intervals are checked to agree within Monte-Carlo error (they use different
 * PRNGs), so both did the same work. Times are wall-clock on a shared machine: the ratio is
 * the figure to read.
 *
 * Usage: `deno run -A bench/bootstrap_bench.ts [--n 1000] [--big 100000] [--resamples 10000]
 *         [--reps 5] [--big-reps 1] [--scipy-variants int64:all,int64:1000,...] [--no-big]
 *         [--no-scipy-big] [--json FILE]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  bootstrapPacked,
  createEngine,
  type Engine,
  type ExampleRecord,
  METRIC_NAMES,
  packRecords,
  pairedBootstrap,
  Sfc32,
} from "../mod.ts";
import { simulateArms } from "../tests/stats/_bootstrap_sim.ts";
import { ensureScipy, PYTHON } from "../tests/_debian_python.ts";
import { median } from "./_median.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    n: { type: "string", default: "1000" },
    big: { type: "string", default: "100000" },
    resamples: { type: "string", default: "10000" },
    reps: { type: "string", default: "5" },
    "big-reps": { type: "string", default: "1" },
    "scipy-reps": { type: "string", default: "3" },
    "scipy-variants": {
      type: "string",
      default: "int64:all,int64:1000,int64:100,int64:20,int8:all,int8:100,int8:20",
    },
    "no-big": { type: "boolean", default: false },
    "no-scipy-big": { type: "boolean", default: false },
    seed: { type: "string", default: "20240601" },
    json: { type: "string" },
  },
});
const N = Number(values.n);
const BIG = Number(values.big);
const B = Number(values.resamples);
const REPS = Number(values.reps);
const BIG_REPS = Number(values["big-reps"]);
const SCIPY_REPS = Number(values["scipy-reps"]);
const SEED = Number(values.seed);
const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
const SCIPY_BENCH = `${ROOT}/bench/_scipy_bench.py`;
const dec = new TextDecoder();

const fmt = (s: number) => (s < 1 ? `${(s * 1000).toFixed(0)} ms` : `${s.toFixed(2)} s`);

interface ScipyVariant {
  dtype: string;
  batch: string;
  seconds: number[];
  ci: [number, number][];
  se: number[];
}

interface Side {
  seconds: number[];
  ci: [number, number][];
}

function timeAssay(
  base: ExampleRecord[],
  adapter: ExampleRecord[],
  reps: number,
  warm: boolean,
  engine?: Engine,
): { paired: Side; packed: Side | undefined } {
  const run = () => pairedBootstrap(base, adapter, { seed: SEED, resamples: B, engine });
  if (warm) run();
  const seconds: number[] = [];
  let r: ReturnType<typeof run> | undefined;
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    r = run();
    seconds.push((performance.now() - t) / 1000);
  }
  const paired = { seconds, ci: METRIC_NAMES.map((m) => r![m].ci) };
  if (!warm) return { paired, packed: undefined };
  const bp = packRecords(base);
  const ap = packRecords(adapter);
  const idx = Int32Array.from(base, (_, i) => i);
  const packedSeconds: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    bootstrapPacked(bp, idx, ap, idx, new Sfc32(SEED), B, 0.95);
    packedSeconds.push((performance.now() - t) / 1000);
  }
  return { paired, packed: { seconds: packedSeconds, ci: paired.ci } };
}

async function timeScipy(
  base: ExampleRecord[],
  adapter: ExampleRecord[],
  variants: string,
  reps: number,
): Promise<{ versions: { scipy: string; numpy: string }; variants: ScipyVariant[] }> {
  const dir = await Deno.makeTempDir({ prefix: "assay_bootstrap_bench_" });
  try {
    const n = base.length;
    await Deno.writeFile(`${dir}/base.i32`, new Uint8Array(packRecords(base).buffer));
    await Deno.writeFile(`${dir}/adapter.i32`, new Uint8Array(packRecords(adapter).buffer));
    const out = await new Deno.Command(PYTHON, {
      args: [
        SCIPY_BENCH,
        `${dir}/base.i32`,
        `${dir}/adapter.i32`,
        String(n),
        String(B),
        String(SEED),
        String(reps),
        variants,
      ],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!out.success) throw new Error(`${SCIPY_BENCH} failed (exit ${out.code})`);
    return JSON.parse(dec.decode(out.stdout));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Largest endpoint difference, and whether all are within Monte-Carlo error. */
function agreement(a: [number, number][], s: ScipyVariant, n: number) {
  let worst = 0;
  let ok = true;
  METRIC_NAMES.forEach((m, i) => {
    const lattice = m === "argument_f1" ? 0 : 1 / n;
    // 4·√2 Monte-Carlo SDs of a 2.5% quantile (see tests/stats/scipy_agreement_test.ts), plus one
    // lattice step.
    const tol = 4 * Math.SQRT2 * Math.sqrt(0.025 * 0.975 / B) / 0.05844 * s.se[i]! + lattice;
    const d = Math.max(Math.abs(a[i]![0] - s.ci[i]![0]), Math.abs(a[i]![1] - s.ci[i]![1]));
    worst = Math.max(worst, d);
    if (d > tol) ok = false;
  });
  return { worst, ok };
}

const versions = await ensureScipy();
console.log(
  `Paired bootstrap, 5 metrics, ${B.toLocaleString("en")} resamples, both arms; ` +
    `Deno ${Deno.version.deno} (V8 ${Deno.version.v8}), SciPy/NumPy ${versions}, ` +
    `${navigator.hardwareConcurrency} cores\n`,
);
const result: Record<string, unknown> = { resamples: B, seed: SEED, versions };

const TS_ENGINE = createEngine({ engine: "ts" });
const same = (a: Side, b: Side) => JSON.stringify(a.ci) === JSON.stringify(b.ci);

// ---------------------------------------------------------------- n = 1,000
{
  const { base, adapter } = simulateArms(new Sfc32(SEED), N);
  const assay = timeAssay(base, adapter, REPS, true);
  const assayTs = timeAssay(base, adapter, REPS, true, TS_ENGINE).paired;
  if (!same(assay.paired, assayTs)) throw new Error("The wasm and ts engines' intervals differ");
  const scipy = await timeScipy(base, adapter, values["scipy-variants"]!, SCIPY_REPS);
  const best = scipy.variants.reduce((a, b) => median(b.seconds) < median(a.seconds) ? b : a);
  const tA = median(assay.paired.seconds);
  const tP = median(assay.packed!.seconds);
  const tT = median(assayTs.seconds);
  const tS = median(best.seconds);
  const byDefault = scipy.variants.find((v) => v.dtype === "int64" && v.batch === "all");
  const agree = agreement(assay.paired.ci, best, N);
  console.log(`n = ${N.toLocaleString("en")} examples`);
  console.log(`  Assay pairedBootstrap      ${fmt(tA).padStart(9)}  (median of ${REPS}; wasm)`);
  console.log(`  Assay bootstrapPacked      ${fmt(tP).padStart(9)}  (median of ${REPS}; wasm)`);
  console.log(`  Assay pairedBootstrap, ts  ${fmt(tT).padStart(9)}  (median of ${REPS})`);
  for (const v of scipy.variants) {
    console.log(
      `  SciPy ${v.dtype.padEnd(5)} batch ${v.batch.padEnd(5)}    ${
        fmt(median(v.seconds)).padStart(9)
      }  (median of ${v.seconds.length})${v === best ? "  <- fastest" : ""}`,
    );
  }
  console.log(
    `  SciPy / Assay: ${(tS / tA).toFixed(2)}× (pairedBootstrap), ${
      (tS / tP).toFixed(2)
    }× (bootstrapPacked), ${(tS / tT).toFixed(2)}× (ts engine); target ≥ 10×`,
  );
  if (byDefault) {
    console.log(
      `  SciPy default (int64, no batch) / Assay: ${
        (median(byDefault.seconds) / tA).toFixed(2)
      }× (pairedBootstrap)`,
    );
  }
  console.log(
    `  intervals agree within Monte-Carlo error: ${agree.ok ? "yes" : "NO"} ` +
      `(max |Δ| ${agree.worst.toFixed(4)})\n`,
  );
  result.small = {
    n: N,
    assay_paired_seconds: assay.paired.seconds,
    assay_packed_seconds: assay.packed!.seconds,
    assay_ts_seconds: assayTs.seconds,
    scipy: scipy.variants,
    scipy_best: `${best.dtype}:${best.batch}`,
    ratio_paired: tS / tA,
    ratio_packed: tS / tP,
    ratio_ts: tS / tT,
    ratio_paired_scipy_default: byDefault ? median(byDefault.seconds) / tA : undefined,
    agree,
  };

  // -------------------------------------------------------------- n = 100,000
  if (!values["no-big"]) {
    const big = simulateArms(new Sfc32(SEED + 1), BIG);
    const a = timeAssay(big.base, big.adapter, BIG_REPS, false);
    const tBig = median(a.paired.seconds);
    const aTs = timeAssay(big.base, big.adapter, BIG_REPS, false, TS_ENGINE).paired;
    if (!same(a.paired, aTs)) throw new Error("The wasm and ts engines' intervals differ");
    const tBigTs = median(aTs.seconds);
    console.log(`n = ${BIG.toLocaleString("en")} examples`);
    console.log(
      `  Assay pairedBootstrap      ${fmt(tBig).padStart(9)}  (median of ${BIG_REPS}; wasm; ` +
        `${(tBig * 1e9 / (BIG * B)).toFixed(1)} ns per drawn example)`,
    );
    console.log(
      `  Assay pairedBootstrap, ts  ${fmt(tBigTs).padStart(9)}  (median of ${BIG_REPS}; ` +
        `${(tBigTs * 1e9 / (BIG * B)).toFixed(1)} ns per drawn example)`,
    );
    const bigResult: Record<string, unknown> = {
      n: BIG,
      assay_paired_seconds: a.paired.seconds,
      assay_ts_seconds: aTs.seconds,
    };
    if (!values["no-scipy-big"]) {
      // The fastest dtype, with as many elements per batch as the fastest batch had at n.
      const perBatch = best.batch === "all" ? B * N : Number(best.batch) * N;
      const batch = Math.max(1, Math.round(perBatch / BIG));
      const s = await timeScipy(big.base, big.adapter, `${best.dtype}:${batch}`, 1);
      const v = s.variants[0]!;
      const tSB = median(v.seconds);
      const ag = agreement(a.paired.ci, v, BIG);
      console.log(
        `  SciPy ${v.dtype.padEnd(5)} batch ${v.batch.padEnd(5)}    ${
          fmt(tSB).padStart(9)
        }  (1 run)`,
      );
      console.log(
        `  SciPy / Assay: ${(tSB / tBig).toFixed(2)}× (wasm), ${(tSB / tBigTs).toFixed(2)}× (ts)`,
      );
      console.log(
        `  intervals agree within Monte-Carlo error: ${ag.ok ? "yes" : "NO"} ` +
          `(max |Δ| ${ag.worst.toFixed(5)})`,
      );
      Object.assign(bigResult, { scipy: v, ratio_paired: tSB / tBig, agree: ag });
    }
    result.big = bigResult;
  }
}

if (values.json) await Deno.writeTextFile(values.json, JSON.stringify(result, null, 2) + "\n");
