// Unit tests of the PRNG and the paired bootstrap (CONTRACT §6–7): the published sfc32 vector,
// unbiased bounded draws (Lemire's multiply-shift, checked against a BigInt reference) and their
// rejection boundary, the bootstrap against a naive reference implementation, reproducibility,
// the stream order of comparisons and gaps, degenerate intervals, NumPy's linear percentile,
// and argument validation. tests/engine/resample_test.ts checks the two engines' kernels against
// each other.
import { deepStrictEqual, notDeepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  bootstrapPacked,
  bootstrapSettings,
  compareReports,
  createEngine,
  DRAW_NAME,
  type ExampleRecord,
  languageGaps,
  METRIC_NAMES,
  packRecords,
  pairedBootstrap,
  percentileSorted,
  PRNG_NAME,
  scoreToolCalls,
  Sfc32,
  toolCallMetrics,
} from "../../mod.ts";
import { simulateArms } from "./_bootstrap_sim.ts";

/**
 * Lemire's draw of output `x` below `n` in exact BigInt arithmetic, the reference: the high
 * word of x·n, or -1 when the low word is below 2^32 mod n (x is rejected).
 */
function lemire(x: number, n: number): number {
  const m = BigInt(x) * BigInt(n);
  if (m % 2n ** 32n < 2n ** 32n % BigInt(n)) return -1;
  return Number(m >> 32n);
}

/** Draws below `n` from `rng` by the reference mapping. */
function referenceBelow(rng: Sfc32, n: number): number {
  for (;;) {
    const j = lemire(rng.nextUint32(), n);
    if (j >= 0) return j;
  }
}

/** The ts engine: its kernel draws through `rng.fillBelow`, so scripted streams work. */
const TS = createEngine({ engine: "ts" });

/** An Sfc32 whose nextUint32 returns `script` in order; `used()` counts the calls. */
function scripted(script: number[]): { rng: Sfc32; used: () => number } {
  const rng = new Sfc32(0);
  let i = 0;
  rng.nextUint32 = () => {
    if (i >= script.length) throw new Error("script exhausted");
    return script[i++]!;
  };
  // The reference mapping, on the scripted outputs.
  rng.fillBelow = (n, out) => {
    for (let k = 0; k < out.length; k++) out[k] = referenceBelow(rng, n);
  };
  return { rng, used: () => i };
}

/** Pearson's chi-square statistic of observed counts against equal expected counts. */
function chiSquare(counts: number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const e = total / counts.length;
  return counts.reduce((s, c) => s + (c - e) ** 2 / e, 0);
}

// Upper 1e-4 quantiles of chi-square: df 2 and df 9.
const CHI2_DF2 = 18.42;
const CHI2_DF9 = 33.72;

Deno.test("sfc32: the published vector for seed 42", () => {
  const rng = new Sfc32(42);
  deepStrictEqual(
    [rng.nextUint32(), rng.nextUint32(), rng.nextUint32(), rng.nextUint32()],
    [1028872839, 2516511472, 400437680, 853279530],
  );
  strictEqual(PRNG_NAME, "sfc32 (seeded by splitmix32)");
  strictEqual(
    DRAW_NAME,
    "lemire: floor(x*n / 2^32), x redrawn while x*n mod 2^32 < 2^32 mod n",
  );
});

Deno.test("nextBelow() and fillBelow() follow the BigInt reference of Lemire's mapping", () => {
  // Bounds on both sides of 2^21 (above it the product is taken in 16-bit halves), the
  // extremes, and random ones; outputs at the ends of the range and random ones.
  const pick = new Sfc32(77);
  const bounds = [1, 2, 3, 7, 10, 1000, 2 ** 21 - 1, 2 ** 21, 2 ** 21 + 1, 3 * 2 ** 30];
  bounds.push(2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 1, 2 ** 32);
  for (let i = 0; i < 40; i++) bounds.push(1 + pick.nextBelow(2 ** 21));
  for (let i = 0; i < 40; i++) bounds.push(2 ** 21 + pick.nextBelow(2 ** 32 - 2 ** 21) + 1);
  const outputs = [0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
  for (let i = 0; i < 60; i++) outputs.push(pick.nextUint32());
  for (const n of bounds) {
    const accepted = outputs.filter((x) => lemire(x, n) >= 0);
    // nextBelow on a script of every output: rejected ones are skipped.
    const s = scripted(outputs);
    for (const x of accepted) strictEqual(s.rng.nextBelow(n), lemire(x, n), `n ${n}, x ${x}`);
    // fillBelow on the real stream, against the reference on a twin stream.
    const a = new Sfc32(n % 1000);
    const b = new Sfc32(n % 1000);
    const out = new Uint32Array(50);
    a.fillBelow(n, out);
    deepStrictEqual([...out], Array.from({ length: 50 }, () => referenceBelow(b, n)), `n ${n}`);
    strictEqual(a.nextUint32(), b.nextUint32(), `n ${n}: both streams at the same place`);
  }
});

Deno.test("getState() and setState() save and restore the stream", () => {
  const rng = new Sfc32(123);
  rng.nextUint32();
  const saved = rng.getState();
  ok(saved.every((w) => Number.isInteger(w) && w >= 0 && w < 2 ** 32));
  const ahead = [rng.nextUint32(), rng.nextBelow(1000), rng.nextUint32()];
  const other = new Sfc32(5);
  other.setState(saved);
  deepStrictEqual([other.nextUint32(), other.nextBelow(1000), other.nextUint32()], ahead);
  deepStrictEqual(other.getState(), rng.getState());
  for (
    const bad of [[1, 2, 3], [1, 2, 3, 4, 5], [1, 2, 3, -1], [1, 2, 3, 2 ** 32], [0.5, 0, 0, 0]]
  ) {
    throws(() => other.setState(bad), RangeError, `${bad}`);
  }
});

Deno.test("sfc32: seeds are integers in [0, 2^32)", () => {
  for (const bad of [-1, 1.5, 2 ** 32, NaN, Infinity]) {
    throws(() => new Sfc32(bad), RangeError, `seed ${bad}`);
  }
  const lo = new Sfc32(0).nextUint32();
  const hi = new Sfc32(2 ** 32 - 1).nextUint32();
  ok(Number.isInteger(lo) && lo >= 0 && lo < 2 ** 32);
  ok(Number.isInteger(hi) && hi >= 0 && hi < 2 ** 32);
  notDeepStrictEqual(lo, hi);
});

Deno.test("nextBelow: bounds are integers in [1, 2^32]", () => {
  const rng = new Sfc32(1);
  for (const bad of [0, -1, 1.5, 2 ** 32 + 1, NaN]) {
    throws(() => rng.nextBelow(bad), RangeError, `bound ${bad}`);
  }
  for (let i = 0; i < 100; i++) strictEqual(rng.nextBelow(1), 0);
  // 2^32 takes every output as it is.
  const a = new Sfc32(7);
  const b = new Sfc32(7);
  for (let i = 0; i < 100; i++) strictEqual(a.nextBelow(2 ** 32), b.nextUint32());
});

Deno.test("nextBelow: unbiased for a small bound (chi-square, bound 3 and bound 1000)", () => {
  const rng = new Sfc32(2024);
  const three = [0, 0, 0];
  for (let i = 0; i < 300_000; i++) three[rng.nextBelow(3)]!++;
  const x3 = chiSquare(three);
  ok(x3 < CHI2_DF2, `bound 3: chi-square ${x3} (counts ${three})`);
  const deciles = new Array<number>(10).fill(0);
  for (let i = 0; i < 200_000; i++) deciles[Math.floor(rng.nextBelow(1000) / 100)]!++;
  const x10 = chiSquare(deciles);
  ok(x10 < CHI2_DF9, `bound 1000: chi-square ${x10} (counts ${deciles})`);
});

Deno.test("nextBelow: unbiased for a large non-power-of-two bound (3·2^30)", () => {
  // Without rejection, x % (3·2^30) would put half the mass in the first third: the outputs
  // in [3·2^30, 2^32) would wrap onto [0, 2^30). Thirds must be equally likely.
  const n = 3 * 2 ** 30;
  const rng = new Sfc32(99);
  const thirds = [0, 0, 0];
  for (let i = 0; i < 60_000; i++) {
    const x = rng.nextBelow(n);
    ok(x >= 0 && x < n && Number.isInteger(x));
    thirds[Math.floor(x / 2 ** 30)]!++;
  }
  const x2 = chiSquare(thirds);
  ok(x2 < CHI2_DF2, `chi-square ${x2} (counts ${thirds})`);
  // A bound just over 2^31 rejects almost half of all outputs; halves stay equally likely.
  const m = 2 ** 31 + 1;
  const halves = [0, 0];
  for (let i = 0; i < 40_000; i++) halves[rng.nextBelow(m) < m / 2 ? 0 : 1]!++;
  ok(Math.abs(halves[0]! - halves[1]!) < 4.5 * Math.sqrt(40_000), `halves ${halves}`);
});

Deno.test("nextBelow: the rejection boundary", () => {
  // Bound 3: 2^32 mod 3 = 1, so only an output with 3x ≡ 0 (mod 2^32), x = 0, is drawn again.
  let s = scripted([0, 0xffffffff]);
  strictEqual(s.rng.nextBelow(3), 2);
  strictEqual(s.used(), 2);
  s = scripted([1, 0x55555555, 0x55555556, 0xaaaaaaab]);
  deepStrictEqual([0, 1, 2, 3].map(() => s.rng.nextBelow(3)), [0, 0, 1, 2]);
  strictEqual(s.used(), 4);
  // Bound 3·2^30: 2^32 mod n = 2^30, and x·3·2^30 mod 2^32 is below it exactly when x ≡ 0
  // (mod 4): a quarter of all outputs are drawn again. The top output maps to n − 1.
  const n = 3 * 2 ** 30;
  s = scripted([0, 4, 0xfffffffc, 0xffffffff]);
  strictEqual(s.rng.nextBelow(n), n - 1);
  strictEqual(s.used(), 4);
  s = scripted([1]);
  strictEqual(s.rng.nextBelow(n), 0);
  // Bound 2^31 + 1: 2^32 mod n = 2^31 − 1. x = 2 has low word 2 and is drawn again; x = 1 has
  // low word 2^31 + 1 and maps to 0; 0xffffffff has low word exactly 2^31 − 1, kept, giving n − 1.
  s = scripted([2, 1, 0xffffffff]);
  strictEqual(s.rng.nextBelow(2 ** 31 + 1), 0);
  strictEqual(s.rng.nextBelow(2 ** 31 + 1), 2 ** 31);
  strictEqual(s.used(), 3);
  // Powers of two never reject: the high bits, as they are.
  s = scripted([0, 0xffffffff]);
  strictEqual(s.rng.nextBelow(256), 0);
  strictEqual(s.rng.nextBelow(256), 255);
  strictEqual(s.used(), 2);
});

Deno.test("bootstrapPacked: rejects the same outputs as nextBelow", () => {
  // Three rows; one resample on the ts engine, whose kernel draws through the scripted
  // fillBelow. Output 0 is rejected for bound 3 and must be drawn again, so the resample is
  // rows 0, 1, 2 (the data itself), not 0, 0, 1.
  const rec = (okay: boolean, gold: number): ExampleRecord => ({
    example_id: "x",
    language: "en",
    root_id: null,
    status: okay ? "ok" : "no_json",
    name_match: okay,
    arguments_match: okay,
    matched_pairs: okay ? gold : 0,
    predicted_pairs: okay ? gold : 0,
    gold_pairs: gold,
  });
  const base = packRecords([rec(false, 1), rec(false, 2), rec(false, 3)]);
  const adapter = packRecords([rec(true, 1), rec(false, 2), rec(true, 3)]);
  const idx = Int32Array.of(0, 1, 2);
  const s = scripted([0, 1, 0x55555556, 0, 0xffffffff]);
  const r = bootstrapPacked(base, idx, adapter, idx, s.rng, 1, 0.95, TS);
  strictEqual(s.used(), 5);
  for (const m of METRIC_NAMES) deepStrictEqual(r[m].ci, [r[m].delta, r[m].delta], m);
  strictEqual(r.argument_f1.delta, 8 / 10);
});

/** The bootstrap as the contract states it, written plainly. */
function naiveBootstrap(
  base: ExampleRecord[],
  adapter: ExampleRecord[],
  seed: number,
  resamples: number,
  level: number,
) {
  const rng = new Sfc32(seed);
  const n = base.length;
  const dist = METRIC_NAMES.map(() => [] as number[]);
  for (let r = 0; r < resamples; r++) {
    const b: ExampleRecord[] = [];
    const a: ExampleRecord[] = [];
    for (let k = 0; k < n; k++) {
      const j = referenceBelow(rng, n);
      b.push(base[j]!);
      a.push(adapter[j]!);
    }
    const mb = toolCallMetrics(b);
    const ma = toolCallMetrics(a);
    METRIC_NAMES.forEach((m, i) => dist[i]!.push(ma[m].value - mb[m].value));
  }
  const q = (1 - level) / 2;
  return Object.fromEntries(METRIC_NAMES.map((m, i) => {
    const sorted = Float64Array.from(dist[i]!).sort();
    return [m, [percentileSorted(sorted, q), percentileSorted(sorted, 1 - q)]];
  }));
}

Deno.test("pairedBootstrap equals a naive implementation of the contract, bit for bit", () => {
  const engines = [createEngine({ engine: "wasm" }), TS];
  for (const [seed, n] of [[1, 60], [2, 7], [3, 2]]) {
    const { base, adapter } = simulateArms(new Sfc32(seed!), n!);
    for (const [level, engine] of [[0.95, engines[0]!], [0.8, engines[1]!]] as const) {
      const r = pairedBootstrap(base, adapter, {
        seed: seed! + 100,
        resamples: 400,
        level,
        engine,
      });
      const expected = naiveBootstrap(base, adapter, seed! + 100, 400, level);
      const mb = toolCallMetrics(base);
      const ma = toolCallMetrics(adapter);
      for (const m of METRIC_NAMES) {
        deepStrictEqual(r[m].ci, expected[m], `${m}, n ${n}, level ${level}, ${engine.name}`);
        deepStrictEqual(r[m].base, mb[m]);
        deepStrictEqual(r[m].adapter, ma[m]);
        strictEqual(r[m].delta, ma[m].value - mb[m].value);
        ok(r[m].ci[0] <= r[m].ci[1]);
      }
    }
  }
});

Deno.test("pairedBootstrap: same seed, same intervals; another seed, other intervals", () => {
  const { base, adapter } = simulateArms(new Sfc32(5), 150);
  const a = pairedBootstrap(base, adapter, { seed: 11, resamples: 1000 });
  const b = pairedBootstrap(base, adapter, { seed: 11, resamples: 1000 });
  deepStrictEqual(a, b);
  const c = pairedBootstrap(base, adapter, { seed: 12, resamples: 1000 });
  for (const m of METRIC_NAMES) strictEqual(c[m].delta, a[m].delta);
  notDeepStrictEqual(
    METRIC_NAMES.map((m) => c[m].ci),
    METRIC_NAMES.map((m) => a[m].ci),
  );
  // The default seed is 0.
  deepStrictEqual(
    pairedBootstrap(base, adapter, { resamples: 300 }),
    pairedBootstrap(base, adapter, { seed: 0, resamples: 300 }),
  );
});

Deno.test("pairedBootstrap: wider levels give nested intervals", () => {
  const { base, adapter } = simulateArms(new Sfc32(8), 120);
  const at = (level: number) => pairedBootstrap(base, adapter, { seed: 3, resamples: 2000, level });
  const [l50, l95, l99] = [at(0.5), at(0.95), at(0.99)];
  for (const m of METRIC_NAMES) {
    ok(l99[m].ci[0] <= l95[m].ci[0] && l95[m].ci[0] <= l50[m].ci[0], m);
    ok(l50[m].ci[1] <= l95[m].ci[1] && l95[m].ci[1] <= l99[m].ci[1], m);
  }
});

Deno.test("pairedBootstrap: the arms share every draw (identical arms give [0, 0])", () => {
  // Varied records, the same in both arms: every resample's delta is exactly 0. An unpaired
  // bootstrap (independent draws per arm) would give a wide interval.
  const { base } = simulateArms(new Sfc32(21), 80);
  const r = pairedBootstrap(base, base.map((x) => ({ ...x })), { seed: 4, resamples: 500 });
  for (const m of METRIC_NAMES) {
    strictEqual(r[m].delta, 0);
    deepStrictEqual(r[m].ci, [0, 0], m);
  }
});

Deno.test("pairedBootstrap: degenerate intervals", () => {
  const rec = (okay: boolean): ExampleRecord => ({
    example_id: "x",
    language: "en",
    root_id: null,
    status: okay ? "ok" : "no_json",
    name_match: okay,
    arguments_match: okay,
    matched_pairs: okay ? 2 : 0,
    predicted_pairs: okay ? 2 : 0,
    gold_pairs: 2,
  });
  const fail = Array.from({ length: 30 }, () => rec(false));
  const pass = Array.from({ length: 30 }, () => rec(true));
  // Constant scores: every resample gives the point delta.
  const up = pairedBootstrap(fail, pass, { seed: 1, resamples: 500 });
  for (const m of METRIC_NAMES) deepStrictEqual([up[m].delta, up[m].ci], [1, [1, 1]], m);
  const same = pairedBootstrap(pass, pass, { seed: 1, resamples: 500 });
  for (const m of METRIC_NAMES) deepStrictEqual([same[m].delta, same[m].ci], [0, [0, 0]], m);
  // One example: the only resample is itself.
  const one = pairedBootstrap([rec(false)], [rec(true)], { seed: 1, resamples: 50 });
  for (const m of METRIC_NAMES) deepStrictEqual(one[m].ci, [1, 1], m);
  // No examples: a zero delta with a degenerate interval, and every value 0/0 = 0.
  const none = pairedBootstrap([], [], { seed: 1, resamples: 50 });
  for (const m of METRIC_NAMES) {
    deepStrictEqual(none[m], {
      base: { value: 0, numerator: 0, denominator: 0 },
      adapter: { value: 0, numerator: 0, denominator: 0 },
      delta: 0,
      ci: [0, 0],
    });
  }
  // argument_f1 with no pairs at all in some resamples is 0, not NaN.
  const noPairs = (okay: boolean): ExampleRecord => ({
    ...rec(okay),
    matched_pairs: 0,
    predicted_pairs: 0,
    gold_pairs: 0,
  });
  const f1 = pairedBootstrap([noPairs(true), rec(true)], [noPairs(true), rec(false)], {
    seed: 2,
    resamples: 400,
  });
  ok(f1.argument_f1.ci.every((x) => Number.isFinite(x)));
  deepStrictEqual(f1.argument_f1.ci, [-1, 0]);
});

Deno.test("percentileSorted matches NumPy's linear percentile", () => {
  // Expected values from NumPy 1.24 `np.quantile(x, q)` (method "linear"), as exact doubles.
  const cases: [number[], number, number][] = [
    [[1, 2, 3, 4], 0.25, 1.75],
    [[0, 10], 0.025, 0.25],
    [[5], 0.3, 5],
    [[1, 2, 3, 4], 0, 1],
    [[1, 2, 3, 4], 1, 4],
    [[-3, -1, 0.5, 2, 7], 0.975, 6.5],
    [[-3, -1, 0.5, 2, 7], 0.025, -2.8],
    [[0.1, 0.7], 0.7, 0.5199999999999999],
    [[0.1, 0.2, 0.30000000000000004], 0.5, 0.2],
    // NumPy's two-sided lerp (b − (b − a)(1 − t) when t ≥ 0.5) differs from a + (b − a)t here.
    [[0.43276706790505337, 8.055567892484474], 0.5, 4.244167480194763],
    [[0.9221885624698875, 1.9221912734311593], 0.975, 1.8971912056571274],
    [[0.2187810373376886, 4.8148156947150245], 0.7, 3.4360052975018234],
    [[0.28415936669394815, 10.018673415574213], 0.75, 7.585044903354147],
  ];
  for (const [x, q, expected] of cases) {
    strictEqual(percentileSorted(Float64Array.from(x), q), expected, `${x} at ${q}`);
  }
  // 10,000 values, at the quantiles a 95% and a 99% interval use.
  const x = Float64Array.from({ length: 10_000 }, (_, i) => ((i * 7919) % 1000) / 997).sort();
  const big: [number, number][] = [
    [0.025, 0.025050150451354086],
    [(1 - 0.95) / 2, 0.025050150451354284],
    [1 - (1 - 0.95) / 2, 0.9769558676028081],
    [0.005, 0.005010030090270816],
    [0.995, 0.9969959879638909],
  ];
  for (const [q, expected] of big) strictEqual(percentileSorted(x, q), expected, `q ${q}`);
});

Deno.test("pairedBootstrap: arms of different lengths are a RangeError", () => {
  const { base, adapter } = simulateArms(new Sfc32(1), 10);
  throws(() => pairedBootstrap(base, adapter.slice(1)), RangeError);
  throws(() => pairedBootstrap([], adapter), RangeError);
  const p = packRecords(base);
  throws(
    () => bootstrapPacked(p, Int32Array.of(0, 1), p, Int32Array.of(0), new Sfc32(1), 10, 0.95),
    RangeError,
  );
});

Deno.test("bootstrap options: defaults and validation", () => {
  deepStrictEqual(bootstrapSettings(), {
    prng: PRNG_NAME,
    draw: DRAW_NAME,
    seed: 0,
    resamples: 10_000,
    level: 0.95,
    interval: "percentile",
  });
  deepStrictEqual(bootstrapSettings({ seed: 2 ** 32 - 1, resamples: 1, level: 0.5 }), {
    prng: PRNG_NAME,
    draw: DRAW_NAME,
    seed: 2 ** 32 - 1,
    resamples: 1,
    level: 0.5,
    interval: "percentile",
  });
  const { base, adapter } = simulateArms(new Sfc32(1), 5);
  const bad = [
    { seed: -1 },
    { seed: 1.5 },
    { seed: 2 ** 32 },
    { seed: NaN },
    { resamples: 0 },
    { resamples: 2.5 },
    { resamples: 10_000_001 },
    { resamples: Infinity },
    { level: 0 },
    { level: 1 },
    { level: 1.5 },
    { level: -0.5 },
    { level: NaN },
  ];
  for (const o of bad) {
    throws(() => bootstrapSettings(o), RangeError, JSON.stringify(o));
    throws(() => pairedBootstrap(base, adapter, o), RangeError, JSON.stringify(o));
  }
});

Deno.test("compareReports and languageGaps: one stream, in the documented order", () => {
  const t = (x: number) => ({ name: "f", arguments: { x } });
  const out = (x: number) => JSON.stringify({ name: "f", arguments: { x } });
  const langs = ["fr", "en", "de"];
  const examples = [];
  const baseGen = [];
  const adapterGen = [];
  for (let i = 0; i < 60; i++) {
    const lang = langs[i % 3]!;
    const id = `${lang}-${i}`;
    examples.push({
      example_id: id,
      language: lang,
      target: t(i),
      root_id: lang === "en" ? null : `en-${i - (i % 3) + 1}`,
    });
    baseGen.push({ example_id: id, output: i % 4 === 0 ? "no" : out(i % 5 === 0 ? -1 : i) });
    adapterGen.push({ example_id: id, output: i % 7 === 0 ? "no" : out(i % 6 === 0 ? -1 : i) });
  }
  const base = scoreToolCalls(examples, baseGen);
  const adapter = scoreToolCalls(examples, adapterGen);
  const seed = 77;
  const B = 300;
  const cmp = compareReports(base, adapter, { seed, resamples: B });
  deepStrictEqual(cmp.slices, ["de", "en", "fr"]);
  deepStrictEqual(cmp.bootstrap, {
    ...bootstrapSettings({ seed, resamples: B }),
    streams: "one stream: overall, then slices in sorted order",
  });

  // Replay: overall, then de, en, fr, from one stream.
  const bp = packRecords(base.records);
  const ap = packRecords(adapter.records);
  const rng = new Sfc32(seed);
  const rows = (lang?: string) =>
    Int32Array.from(
      base.records.flatMap((r, i) => (lang === undefined || r.language === lang ? [i] : [])),
    );
  deepStrictEqual(cmp.deltas.overall, bootstrapPacked(bp, rows(), ap, rows(), rng, B, 0.95));
  for (const lang of ["de", "en", "fr"]) {
    deepStrictEqual(
      cmp.deltas.by_language[lang],
      bootstrapPacked(bp, rows(lang), ap, rows(lang), rng, B, 0.95),
      lang,
    );
  }
  // Adapter records in another order: the same comparison.
  const shuffled = { ...adapter, records: [...adapter.records].reverse() };
  deepStrictEqual(compareReports(base, shuffled, { seed, resamples: B }).deltas, cmp.deltas);

  // Gaps: targets de then fr, one stream, reference rows paired with target rows.
  const gaps = languageGaps(base, { seed, resamples: B });
  deepStrictEqual(gaps.targets, ["de", "fr"]);
  const g = new Sfc32(seed);
  const enRow = new Map(
    base.records.flatMap((r, i) => r.language === "en" ? [[r.example_id, i]] : []),
  );
  for (const lang of ["de", "fr"]) {
    const tIdx: number[] = [];
    const rIdx: number[] = [];
    base.records.forEach((r, i) => {
      if (r.language === lang && r.root_id !== null && enRow.has(r.root_id)) {
        tIdx.push(i);
        rIdx.push(enRow.get(r.root_id)!);
      }
    });
    const replay = bootstrapPacked(
      bp,
      Int32Array.from(rIdx),
      bp,
      Int32Array.from(tIdx),
      g,
      B,
      0.95,
    );
    const primary = gaps.gaps[lang]!.primary;
    strictEqual(primary.n_pairs, tIdx.length);
    for (const m of METRIC_NAMES) {
      deepStrictEqual(primary.metrics[m], {
        target: replay[m].adapter,
        reference: replay[m].base,
        delta: replay[m].delta,
        ci: replay[m].ci,
      });
    }
  }
});
