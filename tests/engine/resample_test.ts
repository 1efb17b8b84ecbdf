// The bootstrap's resampling kernel on both engines (src/engine/resample.ts, assembly/bootstrap.ts):
// the Wasm kernel and its pure-TS twin must return bit-identical deltas and leave the stream at
// the same place, on seeded random jobs in both layouts, with every lane width, both strides
// and short flush intervals; and the public functions must give deep-equal results on either
// engine. Also: job layout choices and the checks on counts.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  bootstrapPacked,
  compareReports,
  createEngine,
  type ExampleRecord,
  languageGaps,
  packRecords,
  pairedBootstrap,
  scoreToolCalls,
  Sfc32,
} from "../../mod.ts";
import {
  COLUMNS,
  DIRECT_MAX_ROWS,
  makeJob,
  NARROW_STRIDE,
  type ResampleJob,
  WIDE_STRIDE,
} from "../../src/engine/resample.ts";
import { simulateArms } from "../stats/_bootstrap_sim.ts";

const WASM = createEngine({ engine: "wasm" });
const TS = createEngine({ engine: "ts" });
const wasmCore = WASM;
const tsCore = TS;

/** Runs `job` on both kernels from the same seed; requires identical deltas and streams. */
function same(job: ResampleJob, seed: number, what: string): Float64Array {
  const a = new Sfc32(seed);
  const b = new Sfc32(seed);
  const fromWasm = wasmCore.resample(job, a);
  const fromTs = tsCore.resample(job, b);
  strictEqual(fromWasm.length, 5 * job.resamples, what);
  // Bit for bit: compare the raw words, so that -0 and NaN would count too.
  deepStrictEqual(
    new Uint32Array(fromWasm.buffer, fromWasm.byteOffset, fromWasm.length * 2),
    new Uint32Array(fromTs.buffer, fromTs.byteOffset, fromTs.length * 2),
    what,
  );
  deepStrictEqual(a.getState(), b.getState(), `${what}: stream position`);
  return fromWasm;
}

/** Random rows: binary columns, small counts, or, with `big`, counts up to `big`. */
function randomRows(rng: Sfc32, n: number, big: number): Float64Array {
  const rows = new Float64Array(n * COLUMNS);
  for (let k = 0; k < n; k++) {
    for (let c = 0; c < COLUMNS; c++) {
      const count = c % 6 >= 4;
      rows[k * COLUMNS + c] = !count ? rng.nextBelow(2) : rng.nextBelow(big + 1);
    }
  }
  return rows;
}

Deno.test("resample() gives bit-identical deltas on the wasm and ts kernels, both layouts", () => {
  const rng = new Sfc32(2024);
  // Count ranges: 8-bit lanes only, 16-bit lanes with a long and a short flush interval,
  // 32-bit lanes (the wide stride, flushing every row or two), and pairs sums near 2^32.
  const ranges = [1, 30, 257, 4095, 70_000, 2 ** 31 - 1, 2 ** 32 - 2];
  let cases = 0;
  for (const big of ranges) {
    for (const n of [1, 2, 3, 17, 250]) {
      const rows = randomRows(rng, n, big);
      for (const layout of ["direct", "grouped"] as const) {
        const job = makeJob(rows, n, 37, layout);
        same(job, rng.nextUint32(), `range ${big}, n ${n}, ${layout}`);
        cases++;
      }
    }
  }
  strictEqual(cases, ranges.length * 5 * 2);
  // A job exactly at the default switch, and one past it.
  for (const n of [DIRECT_MAX_ROWS, DIRECT_MAX_ROWS + 1]) {
    const job = makeJob(randomRows(rng, n, 12), n, 3);
    strictEqual(job.kind, n <= DIRECT_MAX_ROWS ? "direct" : "grouped");
    same(job, 99, `n ${n}`);
  }
});

Deno.test("resample() layouts: lane widths, strides and flush intervals", () => {
  const rows = (values: number[], n = 4) =>
    Float64Array.from({ length: n * COLUMNS }, (_, i) => values[i % COLUMNS]!);
  // Binary columns in 8-bit lanes, counts up to 257 in 16-bit lanes: 16 bytes; 255 rows
  // between flushes (257 × 255 < 2^16), at most n.
  const small = [1, 1, 0, 1, 12, 257, 0, 1, 1, 1, 3, 8];
  let job = makeJob(rows(small), 4, 1, "direct");
  ok(job.kind === "direct");
  strictEqual(job.stride, NARROW_STRIDE);
  strictEqual(job.flush, 4);
  job = makeJob(rows(small, 1000), 1000, 1, "direct");
  ok(job.kind === "direct");
  strictEqual(job.flush, 255);
  // Counts up to 4095 still fit 16 bits, flushing every 16 rows.
  job = makeJob(rows([1, 1, 1, 1, 4095, 4095, 1, 1, 1, 1, 0, 0], 100), 100, 1, "direct");
  ok(job.kind === "direct");
  strictEqual(job.stride, NARROW_STRIDE);
  strictEqual(job.flush, 16);
  // One column past 4095 needs a 32-bit lane: 4 + 2·2 + 9 bytes, the wide stride.
  job = makeJob(rows([1, 1, 1, 1, 4096, 4095, 1, 1, 1, 1, 0, 4095]), 4, 1, "direct");
  ok(job.kind === "direct");
  strictEqual(job.stride, WIDE_STRIDE);
  // Grouped: equal rows share a group.
  const g = makeJob(rows([1, 0, 0, 0, 2, 3, 1, 1, 1, 1, 2, 4]), 4, 1, "grouped");
  ok(g.kind === "grouped");
  strictEqual(g.groups, 1);
  deepStrictEqual([...g.groupOf], [0, 0, 0, 0]);
});

Deno.test("resample() refuses counts that are negative or not below 2^32", () => {
  for (const bad of [-1, 0.5, 2 ** 32, NaN]) {
    const rows = new Float64Array(2 * COLUMNS);
    rows[13] = bad;
    throws(() => makeJob(rows, 2, 1), RangeError, `${bad}`);
  }
  const rows = new Float64Array(2 * COLUMNS);
  rows[5] = 2 ** 32 - 1;
  strictEqual(makeJob(rows, 2, 1).kind, "direct");
  // Through the public API: a negative count in packed records.
  const p = Int32Array.of(1, 1, 1, 1, -2, 1, 1);
  const idx = Int32Array.of(0);
  throws(() => bootstrapPacked(p, idx, p, idx, new Sfc32(1), 10, 0.95), RangeError);
});

Deno.test("pairedBootstrap() and bootstrapPacked() are identical on both engines", () => {
  for (const [seed, n] of [[1, 1], [2, 5], [3, 120], [4, 1000]]) {
    const { base, adapter } = simulateArms(new Sfc32(seed!), n!);
    const o = { seed: seed! * 7, resamples: 300, level: 0.9 };
    deepStrictEqual(
      pairedBootstrap(base, adapter, { ...o, engine: WASM }),
      pairedBootstrap(base, adapter, { ...o, engine: TS }),
      `n ${n}`,
    );
  }
  // Several jobs from one stream, with different row sets: the stream goes on identically.
  const { base, adapter } = simulateArms(new Sfc32(9), 300);
  const bp = packRecords(base);
  const ap = packRecords(adapter);
  const rows = (step: number) => Int32Array.from({ length: 300 / step }, (_, i) => i * step);
  const run = (engine: typeof WASM) => {
    const rng = new Sfc32(31);
    return [1, 2, 3, 5].map((step) =>
      bootstrapPacked(bp, rows(step), ap, rows(step).reverse(), rng, 200, 0.95, engine)
    );
  };
  deepStrictEqual(run(WASM), run(TS));
});

Deno.test("compareReports() and languageGaps() are identical on both engines", () => {
  const langs = ["en", "de", "fr"];
  const examples = [];
  const baseGen = [];
  const adapterGen = [];
  for (let i = 0; i < 300; i++) {
    const lang = langs[i % 3]!;
    const id = `${lang}-${i}`;
    const call = (x: number) => JSON.stringify({ name: "f", arguments: { x, y: [x, x + 1] } });
    examples.push({
      example_id: id,
      language: lang,
      root_id: lang === "en" ? null : `en-${i - (i % 3)}`,
      target: { name: "f", arguments: { x: i, y: [i, i + 1] } },
    });
    baseGen.push({ example_id: id, output: i % 4 === 0 ? "no" : call(i % 5 === 0 ? -1 : i) });
    adapterGen.push({ example_id: id, output: i % 7 === 0 ? "{" : call(i % 6 === 0 ? -1 : i) });
  }
  const base = scoreToolCalls(examples, baseGen);
  const adapter = scoreToolCalls(examples, adapterGen);
  const o = { seed: 5, resamples: 500 };
  deepStrictEqual(
    compareReports(base, adapter, { ...o, engine: WASM }),
    compareReports(base, adapter, { ...o, engine: TS }),
  );
  deepStrictEqual(
    languageGaps(adapter, { ...o, engine: WASM }),
    languageGaps(adapter, { ...o, engine: TS }),
  );
});

Deno.test("resample() runs a large grouped job, then small ones, on one wasm instance", () => {
  // The instance's memory grows for the large job and is reused: same results as the ts kernel
  // each time.
  const rng = new Sfc32(4);
  const rows = randomRows(rng, 200_000, 40);
  same(makeJob(rows, 200_000, 2), 8, "200,000 rows");
  same(makeJob(rows.subarray(0, 50 * COLUMNS), 50, 100), 8, "then 50 rows");
  const rec: ExampleRecord = {
    example_id: "x",
    language: "en",
    root_id: null,
    status: "ok",
    name_match: true,
    arguments_match: true,
    matched_pairs: 1,
    predicted_pairs: 1,
    gold_pairs: 1,
  };
  deepStrictEqual(
    pairedBootstrap([rec], [rec], { engine: WASM, resamples: 10 }).argument_f1.ci,
    [0, 0],
  );
});
