/**
 * The seeded paired bootstrap behind every interval (CONTRACT §6).
 *
 * Each resample draws example identities with replacement; both arms use the
 * same draw, and every metric, `argument_f1` included, is recomputed from the
 * pooled per-example counts of the draw. Intervals are percentile intervals,
 * interpolated linearly between order statistics exactly as NumPy's default
 * `percentile` does (so they line up with `scipy.stats.bootstrap`). The work is
 * done on packed typed arrays with no allocation per resample.
 *
 * @module
 */
import {
  type ExampleRecord,
  METRIC_NAMES,
  type MetricName,
  type MetricValue,
  metricValue,
} from "./metrics.ts";
import { PRNG_NAME, Sfc32 } from "./prng.ts";

/** Per-example counts packed per record: ok, name, args, full, matched, predicted, gold. */
const STRIDE = 7;

/** Options for {@linkcode pairedBootstrap}. */
export interface BootstrapOptions {
  /** The PRNG seed, an integer in [0, 2^32) (default 0). */
  seed?: number;
  /** Resamples (default 10,000). */
  resamples?: number;
  /** Interval level (default 0.95). */
  level?: number;
}

/** How the intervals were made, as recorded in reports. */
export interface BootstrapSettings {
  /** The PRNG. */
  prng: string;
  /** Its seed. */
  seed: number;
  /** Resamples per interval. */
  resamples: number;
  /** Interval level. */
  level: number;
  /** Always `percentile`. */
  interval: "percentile";
}

/** One metric's paired comparison: both sides, the difference and its interval. */
export interface MetricDelta {
  /** The first arm (base, or the reference language). */
  base: MetricValue;
  /** The second arm (adapter, or the target language). */
  adapter: MetricValue;
  /** `adapter.value − base.value`. */
  delta: number;
  /** The percentile interval of the delta. */
  ci: [number, number];
}

/** Checks and fills in bootstrap options. */
export function bootstrapSettings(options: BootstrapOptions = {}): BootstrapSettings {
  const seed = options.seed ?? 0;
  const resamples = options.resamples ?? 10_000;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`seed must be an integer in [0, 2^32), got ${seed}`);
  }
  if (!Number.isInteger(resamples) || resamples < 1 || resamples > 10_000_000) {
    throw new RangeError(`resamples must be an integer in [1, 10^7], got ${resamples}`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  return { prng: PRNG_NAME, seed, resamples, level, interval: "percentile" };
}

/**
 * Packs records into a typed array of per-example counts.
 *
 * @param records Per-example records.
 * @returns Seven counts per record.
 */
export function packRecords(records: readonly ExampleRecord[]): Int32Array {
  const out = new Int32Array(records.length * STRIDE);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const o = i * STRIDE;
    out[o] = r.status === "ok" ? 1 : 0;
    out[o + 1] = r.name_match ? 1 : 0;
    out[o + 2] = r.arguments_match ? 1 : 0;
    out[o + 3] = r.name_match && r.arguments_match ? 1 : 0;
    out[o + 4] = r.matched_pairs;
    out[o + 5] = r.predicted_pairs;
    out[o + 6] = r.gold_pairs;
  }
  return out;
}

function ratio(num: number, den: number): number {
  return den === 0 ? 0 : num / den;
}

/** NumPy's default (linear) percentile of sorted values, with its two-sided lerp. */
export function percentileSorted(sorted: Float64Array, q: number): number {
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const t = pos - lo;
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/** Pooled metric values of rows `idx` of packed counts. */
function pooled(packed: Int32Array, idx: Int32Array): MetricValue[] {
  const s = new Float64Array(STRIDE);
  for (let k = 0; k < idx.length; k++) {
    const o = idx[k]! * STRIDE;
    for (let c = 0; c < STRIDE; c++) s[c]! += packed[o + c]!;
  }
  const n = idx.length;
  return [
    metricValue(s[0]!, n),
    metricValue(s[1]!, n),
    metricValue(s[2]!, n),
    metricValue(2 * s[4]!, s[5]! + s[6]!),
    metricValue(s[3]!, n),
  ];
}

/**
 * The paired bootstrap on packed counts: rows `baseIdx[k]` of `base` pair with rows
 * `adapterIdx[k]` of `adapter`. Draws come from `rng`, so callers control the stream.
 */
export function bootstrapPacked(
  base: Int32Array,
  baseIdx: Int32Array,
  adapter: Int32Array,
  adapterIdx: Int32Array,
  rng: Sfc32,
  resamples: number,
  level: number,
): Record<MetricName, MetricDelta> {
  const n = baseIdx.length;
  if (adapterIdx.length !== n) throw new RangeError("Both arms need the same number of rows");
  const b = pooled(base, baseIdx);
  const a = pooled(adapter, adapterIdx);
  const deltas = METRIC_NAMES.map(() => new Float64Array(resamples));
  const [d0, d1, d2, d3, d4] = deltas as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  if (n > 0) {
    // Rows with the same 14 counts are interchangeable: a resample only needs how often each
    // group was drawn. Sums are integers, so grouping leaves every result bit-identical.
    const groupOf = new Int32Array(n);
    const ids = new Map<string, number>();
    const rows: number[] = [];
    for (let k = 0; k < n; k++) {
      const ob = baseIdx[k]! * STRIDE;
      const oa = adapterIdx[k]! * STRIDE;
      const row = [...base.subarray(ob, ob + STRIDE), ...adapter.subarray(oa, oa + STRIDE)];
      const key = row.join(",");
      let g = ids.get(key);
      if (g === undefined) {
        g = ids.size;
        ids.set(key, g);
        rows.push(...row);
      }
      groupOf[k] = g;
    }
    const groups = ids.size;
    const table = Float64Array.from(rows);
    const counts = new Float64Array(groups);
    const draws = new Uint32Array(n);
    const s = new Float64Array(2 * STRIDE);
    for (let r = 0; r < resamples; r++) {
      rng.fillBelow(n, draws);
      counts.fill(0);
      for (let k = 0; k < n; k++) counts[groupOf[draws[k]!]!]!++;
      s.fill(0);
      for (let g = 0; g < groups; g++) {
        const m = counts[g]!;
        if (m === 0) continue;
        const o = g * 2 * STRIDE;
        for (let c = 0; c < 2 * STRIDE; c++) s[c]! += m * table[o + c]!;
      }
      d0[r] = s[7]! / n - s[0]! / n;
      d1[r] = s[8]! / n - s[1]! / n;
      d2[r] = s[9]! / n - s[2]! / n;
      d3[r] = ratio(2 * s[11]!, s[12]! + s[13]!) - ratio(2 * s[4]!, s[5]! + s[6]!);
      d4[r] = s[10]! / n - s[3]! / n;
    }
  }
  const q = (1 - level) / 2;
  const out = {} as Record<MetricName, MetricDelta>;
  METRIC_NAMES.forEach((name, m) => {
    const delta = a[m]!.value - b[m]!.value;
    let ci: [number, number] = [delta, delta];
    if (n > 0) {
      const sorted = deltas[m]!.sort();
      ci = [percentileSorted(sorted, q), percentileSorted(sorted, 1 - q)];
    }
    out[name] = { base: b[m]!, adapter: a[m]!, delta, ci };
  });
  return out;
}

/**
 * A paired bootstrap of the five metrics' deltas (adapter − base) over aligned records.
 *
 * @param base The base arm's records.
 * @param adapter The adapter arm's records, aligned with `base` (same examples, same order).
 * @param options Seed (default 0), resamples (default 10,000) and level (default 0.95).
 * @returns Per metric: both MetricValues, the delta and its percentile interval.
 * @throws {RangeError} If the arms differ in length or an option is out of range.
 *
 * @example Constant scores give a degenerate interval
 * ```ts
 * import { type ExampleRecord, pairedBootstrap } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const rec = (ok: boolean): ExampleRecord => ({
 *   example_id: "x", language: "en", root_id: null, status: ok ? "ok" : "no_json",
 *   name_match: ok, arguments_match: ok, matched_pairs: ok ? 1 : 0, predicted_pairs: ok ? 1 : 0, gold_pairs: 1,
 * });
 * const r = pairedBootstrap([rec(false), rec(false)], [rec(true), rec(true)], { seed: 1, resamples: 200 });
 * assertEquals(r.valid_json_rate.delta, 1);
 * assertEquals(r.valid_json_rate.ci, [1, 1]);
 * ```
 */
export function pairedBootstrap(
  base: readonly ExampleRecord[],
  adapter: readonly ExampleRecord[],
  options: BootstrapOptions = {},
): Record<MetricName, MetricDelta> {
  const s = bootstrapSettings(options);
  if (base.length !== adapter.length) {
    throw new RangeError(`Both arms need the same examples (${base.length} vs ${adapter.length})`);
  }
  const idx = Int32Array.from({ length: base.length }, (_, i) => i);
  return bootstrapPacked(
    packRecords(base),
    idx,
    packRecords(adapter),
    idx,
    new Sfc32(s.seed),
    s.resamples,
    s.level,
  );
}
