/**
 * The seeded paired bootstrap of the five tool-call metrics behind every comparison interval
 * (CONTRACT §6).
 *
 * Each resample draws example identities with replacement; both arms use the
 * same draw, and every metric, `argument_f1` included, is recomputed from the
 * pooled per-example counts of the draw. Intervals are percentile intervals,
 * interpolated linearly between order statistics exactly as NumPy's default
 * `percentile` does (so they line up with `scipy.stats.bootstrap`).
 *
 * The resampling runs on an engine's kernel: the `engine` option, or the
 * default engine (`auto`: the Wasm kernel where WebAssembly is available,
 * otherwise its pure-TS twin). Column sums are exact integers and both kernels
 * take the deltas with the same IEEE operations, so intervals are
 * bit-identical on either engine and every runtime.
 *
 * @module
 */
import { COLUMNS, type Engine, engineOf, makeJob, Sfc32 } from "../engine/mod.ts";
import {
  type ExampleRecord,
  isRecordCount,
  METRIC_NAMES,
  type MetricName,
  RECORD_STATUSES,
  recordProblem,
} from "../evaluation/mod.ts";
import { type MetricValue, metricValue } from "../stats/mod.ts";
import { type BootstrapOptions, bootstrapSettings, percentileSorted } from "../stats/mod.ts";

/** Per-example counts packed per record: ok, name, args, full, matched, predicted, gold. */
const STRIDE = 7;

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

/** What {@linkcode packRecords} counts of a record: its status, matches and pairs. */
export type CountedFields = Pick<
  ExampleRecord,
  "status" | "name_match" | "arguments_match" | "matched_pairs" | "predicted_pairs" | "gold_pairs"
>;

const PAIRS = ["matched_pairs", "predicted_pairs", "gold_pairs"] as const;

/**
 * Packs records into a typed array of per-example counts.
 *
 * @param records Per-example records (only the fields it counts are read).
 * @returns Seven counts per record.
 * @throws {RangeError} If a record's pair count is not a whole number below 2^31
 *   ({@linkcode isRecordCount}): packed, it would be cut or wrap, in silence.
 */
export function packRecords(records: readonly CountedFields[]): Int32Array {
  const out = new Int32Array(records.length * STRIDE);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const o = i * STRIDE;
    out[o] = r.status === "ok" ? 1 : 0;
    out[o + 1] = r.name_match ? 1 : 0;
    out[o + 2] = r.arguments_match ? 1 : 0;
    out[o + 3] = r.name_match && r.arguments_match ? 1 : 0;
    PAIRS.forEach((k, c) => {
      if (!isRecordCount(r[k])) {
        throw new RangeError(`records[${i}].${k} is not a count below 2^31, got ${r[k]}`);
      }
      out[o + 4 + c] = r[k];
    });
  }
  return out;
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

/** Writes row `at` of `packed` as six job columns at `rows[o]`. */
function putArm(rows: Float64Array, o: number, packed: Int32Array, at: number): void {
  const p = at * STRIDE;
  rows[o] = packed[p]!;
  rows[o + 1] = packed[p + 1]!;
  rows[o + 2] = packed[p + 2]!;
  rows[o + 3] = packed[p + 3]!;
  rows[o + 4] = packed[p + 4]!;
  rows[o + 5] = packed[p + 5]! + packed[p + 6]!;
}

/**
 * The rows of the bootstrap job: per pair, base then adapter, each ok, name, args, full,
 * matched, and predicted + gold (only their sum enters argument_f1).
 */
function jobRows(
  base: Int32Array,
  baseIdx: Int32Array,
  adapter: Int32Array,
  adapterIdx: Int32Array,
): Float64Array {
  const rows = new Float64Array(baseIdx.length * COLUMNS);
  for (let k = 0, o = 0; k < baseIdx.length; k++, o += COLUMNS) {
    putArm(rows, o, base, baseIdx[k]!);
    putArm(rows, o + COLUMNS / 2, adapter, adapterIdx[k]!);
  }
  return rows;
}

/**
 * The paired bootstrap on packed counts: rows `baseIdx[k]` of `base` pair with rows
 * `adapterIdx[k]` of `adapter`. Draws come from `rng`, so callers control the stream: each
 * resample takes `baseIdx.length` draws, as {@linkcode Sfc32.fillBelow} would.
 *
 * @param base Packed counts ({@linkcode packRecords}) of the first arm.
 * @param baseIdx The rows of `base` to pair.
 * @param adapter Packed counts of the second arm (may be `base` itself).
 * @param adapterIdx The rows of `adapter`, one per entry of `baseIdx`.
 * @param rng The stream; left advanced past every draw.
 * @param resamples Resamples.
 * @param level Interval level.
 * @param engine The engine whose kernel resamples (default: the default engine). The `ts`
 *   kernel draws through `rng.fillBelow`; the `wasm` kernel runs sfc32 from `rng.getState()`.
 * @returns Per metric: both MetricValues, the delta and its percentile interval.
 * @throws {RangeError} If the index arrays differ in length, or a count is negative or so
 *   large that a column's sum could reach 2^53.
 *
 * @example The bootstrap of one pair of rows is its point delta
 * ```ts
 * import { bootstrapPacked, packRecords, Sfc32 } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const rec = { example_id: "1", language: "en", root_id: null, name_match: true,
 *   arguments_match: false, matched_pairs: 1, predicted_pairs: 2, gold_pairs: 2 } as const;
 * const base = packRecords([{ ...rec, status: "no_json" }]);
 * const adapter = packRecords([{ ...rec, status: "ok" }]);
 * const idx = Int32Array.of(0);
 * const r = bootstrapPacked(base, idx, adapter, idx, new Sfc32(1), 100, 0.95);
 * assertEquals(r.valid_json_rate.ci, [1, 1]);
 * ```
 */
export function bootstrapPacked(
  base: Int32Array,
  baseIdx: Int32Array,
  adapter: Int32Array,
  adapterIdx: Int32Array,
  rng: Sfc32,
  resamples: number,
  level: number,
  engine?: Engine,
): Record<MetricName, MetricDelta> {
  const n = baseIdx.length;
  if (adapterIdx.length !== n) throw new RangeError("Both arms need the same number of rows");
  const b = pooled(base, baseIdx);
  const a = pooled(adapter, adapterIdx);
  let deltas: Float64Array | undefined;
  if (n > 0) {
    const job = makeJob(jobRows(base, baseIdx, adapter, adapterIdx), n, resamples);
    deltas = engineOf(engine).resample(job, rng);
  }
  const q = (1 - level) / 2;
  const out = {} as Record<MetricName, MetricDelta>;
  METRIC_NAMES.forEach((name, m) => {
    const delta = a[m]!.value - b[m]!.value;
    let ci: [number, number] = [delta, delta];
    if (deltas !== undefined) {
      const sorted = deltas.subarray(m * resamples, (m + 1) * resamples).sort();
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
 * @param options Seed (default 0), resamples (default 10,000), level (default 0.95) and the
 *   engine that resamples (default: the default engine).
 * @returns Per metric: both MetricValues, the delta and its percentile interval.
 * @throws {RangeError} If the arms differ in length, an option is out of range, or a record is
 *   one `compareReports` refuses in a report (`recordProblem`: a count that is not a whole number
 *   below 2^31, more matched pairs than predicted or gold pairs, a field missing or mistyped),
 *   or its status is not one of `RECORD_STATUSES`:
 *   naming its arm, index, example id, field and value, as
 *   `base[0] (example_id "x").matched_pairs is not a count below 2^31, got 0.9`.
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
  // A record a report would be refused for (recordProblem, compareReports' check) is refused here:
  // packed, its counts would wrap or be truncated, and an interval would be wrong in silence.
  [base, adapter].forEach((records, arm) =>
    records.forEach((r, i) => {
      // An unknown status ("OK") would count as a parse failure in silence.
      const problem = recordProblem(r) ??
        (RECORD_STATUSES.includes(r.status) ? undefined : ".status is unknown");
      if (problem) {
        // The field the problem names (`.gold_pairs is …`), or the record itself (` is not an
        // object`).
        const field = /^\.(\w+)/.exec(problem)?.[1] as keyof ExampleRecord | undefined;
        const v: unknown = field === undefined ? r : r[field];
        throw new RangeError(
          `${arm ? "adapter" : "base"}[${i}] (example_id ${
            JSON.stringify(r?.example_id)
          })${problem}, got ${typeof v == "string" ? JSON.stringify(v) : v}`,
        );
      }
    })
  );
  const idx = Int32Array.from({ length: base.length }, (_, i) => i);
  return bootstrapPacked(
    packRecords(base),
    idx,
    packRecords(adapter),
    idx,
    new Sfc32(s.seed),
    s.resamples,
    s.level,
    options.engine,
  );
}
