// The paired bootstrap's resampling kernel: its job layout and the pure-TS twin of the Wasm
// kernel (assembly/bootstrap.ts). Private: src/stats/bootstrap.ts builds jobs, engines run them.
//
// A job has n rows, one per pair, each with 12 columns: per arm (base, then adapter) ok, name,
// args, full, matched, and predicted + gold. A resample draws n rows with replacement (n bounded
// draws from the stream, Sfc32.fillBelow's mapping); the column sums of the drawn rows give the
// five metric deltas. Sums are exact integers (jobs whose sums could pass 2^53 are refused), so
// any way of adding them up gives the same sums, and both kernels then take the deltas with
// the same IEEE operations in the same order: their deltas are bit-identical.
//
// Two layouts, chosen by the job, run by both kernels:
//
// - direct (up to DIRECT_MAX_ROWS rows): each row is packed into `stride` 32-bit words of
//   narrow lanes (8, 16 or 32 bits per column). A resample adds the packed words of its drawn
//   rows, `flush` rows at a time, few enough that no lane can overflow; then each lane is
//   added to its column's sum. One add per word per draw, no per-resample pass over the rows.
// - grouped (more rows): rows with equal columns form a group; a resample counts draws per
//   group, then sums count × column over the groups. The row table would not fit in cache.
import type { Sfc32 } from "./prng.ts";

/** Columns per row. */
export const COLUMNS = 12;

/** Rows up to which a job uses the direct layout. */
export const DIRECT_MAX_ROWS = 32768;

/** Stride (32-bit words per row) of the direct layout's fast path; otherwise WIDE_STRIDE. */
export const NARROW_STRIDE = 4;
/** The direct layout's stride when the lanes do not fit NARROW_STRIDE words. */
export const WIDE_STRIDE = 12;

/** A job in the direct layout. */
export interface DirectJob {
  /** The layout. */
  kind: "direct";
  /** Rows, and draws per resample. */
  n: number;
  /** Resamples. */
  resamples: number;
  /** n rows of `stride` words, lanes packed little-end first within each word. */
  table: Int32Array;
  /** Words per row: NARROW_STRIDE or WIDE_STRIDE. */
  stride: number;
  /** Rows added between flushes: no lane can overflow in this many. */
  flush: number;
  /** Per column: word, bit shift and mask of its lane (mask 0xffffffff for a whole word). */
  lanes: Uint32Array;
}

/** A job in the grouped layout. */
export interface GroupedJob {
  /** The layout. */
  kind: "grouped";
  /** Rows, and draws per resample. */
  n: number;
  /** Resamples. */
  resamples: number;
  /** The group of each row. */
  groupOf: Int32Array;
  /** Groups. */
  groups: number;
  /** The COLUMNS values of each group. */
  values: Float64Array;
}

/** A resampling job. */
export type ResampleJob = DirectJob | GroupedJob;

/**
 * The deltas of resample `r` from its column sums `s`, into `out` (metric-major: metric m of
 * resample r at m·resamples + r). The same operations, in the same order, as
 * assembly/bootstrap.ts `deltas`.
 */
function deltas(s: Float64Array, n: number, out: Float64Array, r: number, resamples: number) {
  out[r] = s[6]! / n - s[0]! / n;
  out[resamples + r] = s[7]! / n - s[1]! / n;
  out[2 * resamples + r] = s[8]! / n - s[2]! / n;
  const fa = s[11]! === 0 ? 0 : 2 * s[10]! / s[11]!;
  const fb = s[5]! === 0 ? 0 : 2 * s[4]! / s[5]!;
  out[3 * resamples + r] = fa - fb;
  out[4 * resamples + r] = s[9]! / n - s[3]! / n;
}

/** Adds each lane of the packed words `x` to its column's sum. */
function flushLanes(x: Int32Array, lanes: Uint32Array, s: Float64Array): void {
  for (let c = 0, l = 0; c < COLUMNS; c++, l += 3) {
    s[c]! += ((x[lanes[l]!]! >>> lanes[l + 1]!) & lanes[l + 2]!) >>> 0;
  }
}

function resampleDirect(job: DirectJob, rng: Sfc32, out: Float64Array): void {
  const { n, resamples, table, stride, flush, lanes } = job;
  const draws = new Int32Array(n);
  const x = new Int32Array(stride);
  const s = new Float64Array(COLUMNS);
  for (let r = 0; r < resamples; r++) {
    rng.fillBelow(n, draws);
    s.fill(0);
    for (let k = 0; k < n;) {
      const end = Math.min(k + flush, n);
      if (stride === NARROW_STRIDE) {
        // Lanes never overflow, so each word's wrapping 32-bit sum is exact.
        let x0 = 0, x1 = 0, x2 = 0, x3 = 0;
        for (; k < end; k++) {
          const o = draws[k]! << 2;
          x0 = (x0 + table[o]!) | 0;
          x1 = (x1 + table[o + 1]!) | 0;
          x2 = (x2 + table[o + 2]!) | 0;
          x3 = (x3 + table[o + 3]!) | 0;
        }
        x[0] = x0;
        x[1] = x1;
        x[2] = x2;
        x[3] = x3;
      } else {
        x.fill(0);
        for (; k < end; k++) {
          const o = draws[k]! * stride;
          for (let w = 0; w < stride; w++) x[w] = (x[w]! + table[o + w]!) | 0;
        }
      }
      flushLanes(x, lanes, s);
    }
    deltas(s, n, out, r, resamples);
  }
}

function resampleGrouped(job: GroupedJob, rng: Sfc32, out: Float64Array): void {
  const { n, resamples, groupOf, groups, values } = job;
  const draws = new Int32Array(n);
  const counts = new Int32Array(groups);
  const s = new Float64Array(COLUMNS);
  for (let r = 0; r < resamples; r++) {
    rng.fillBelow(n, draws);
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[groupOf[draws[k]!]!]!++;
    s.fill(0);
    for (let g = 0, o = 0; g < groups; g++, o += COLUMNS) {
      const m = counts[g]!;
      if (m === 0) continue;
      for (let c = 0; c < COLUMNS; c++) s[c]! += m * values[o + c]!;
    }
    deltas(s, n, out, r, resamples);
  }
}

/**
 * Runs a job on the pure-TS kernel, drawing from `rng` with `fillBelow` (so any stream with
 * Sfc32's interface works, e.g. a scripted one in tests).
 *
 * @returns The deltas, metric-major: metric m of resample r at m·resamples + r.
 */
export function resampleTs(job: ResampleJob, rng: Sfc32): Float64Array {
  const out = new Float64Array(5 * job.resamples);
  if (job.kind === "direct") resampleDirect(job, rng, out);
  else resampleGrouped(job, rng, out);
  return out;
}

/** The lane width, in bits, for a column whose values are at most `max`. */
function laneBits(max: number): number {
  return max <= 1 ? 8 : max <= 4095 ? 16 : 32;
}

/**
 * Lays out `n` rows of COLUMNS values (`rows[k·COLUMNS + c]`) for `resamples` resamples.
 * `layout` forces a layout (tests); by default it follows n.
 *
 * @throws {RangeError} If a value is not an integer in [0, 2^32), or a column's sum could
 *   reach 2^53 (max × n ≥ 2^53: only with millions of rows of counts near 2^32).
 */
export function makeJob(
  rows: Float64Array,
  n: number,
  resamples: number,
  layout?: "direct" | "grouped",
): ResampleJob {
  const max = new Float64Array(COLUMNS);
  for (let k = 0, o = 0; k < n; k++, o += COLUMNS) {
    for (let c = 0; c < COLUMNS; c++) {
      const v = rows[o + c]!;
      if (!(v >= 0 && v < 2 ** 32 && Number.isInteger(v))) {
        throw new RangeError(`Counts must be integers in [0, 2^32), got ${v} (row ${k})`);
      }
      if (v > max[c]!) max[c] = v;
    }
  }
  for (let c = 0; c < COLUMNS; c++) {
    if (max[c]! * n >= 2 ** 53) {
      throw new RangeError(`Counts too large for exact sums: ${max[c]} × ${n} rows ≥ 2^53`);
    }
  }
  const kind = layout ?? (n <= DIRECT_MAX_ROWS ? "direct" : "grouped");
  return kind === "direct" ? directJob(rows, n, resamples, max) : groupedJob(rows, n, resamples);
}

function directJob(rows: Float64Array, n: number, resamples: number, max: Float64Array) {
  // Widest lanes first, so that no lane straddles a 32-bit word.
  const bits = Array.from(max, laneBits);
  const order = [...bits.keys()].sort((p, q) => bits[q]! - bits[p]! || p - q);
  const lanes = new Uint32Array(3 * COLUMNS);
  let flush = n;
  let at = 0;
  for (const c of order) {
    const b = bits[c]!;
    lanes[3 * c] = at >>> 5;
    lanes[3 * c + 1] = at & 31;
    lanes[3 * c + 2] = b === 32 ? 0xffffffff : (1 << b) - 1;
    at += b;
    if (max[c]! > 0) flush = Math.min(flush, Math.floor((2 ** b - 1) / max[c]!));
  }
  const stride = at <= 32 * NARROW_STRIDE ? NARROW_STRIDE : WIDE_STRIDE;
  const table = new Int32Array(n * stride);
  for (let k = 0; k < n; k++) {
    for (let c = 0; c < COLUMNS; c++) {
      const w = k * stride + lanes[3 * c]!;
      table[w] = table[w]! | (rows[k * COLUMNS + c]! << lanes[3 * c + 1]!);
    }
  }
  return { kind: "direct", n, resamples, table, stride, flush: Math.max(1, flush), lanes } as const;
}

function groupedJob(rows: Float64Array, n: number, resamples: number): GroupedJob {
  const groupOf = new Int32Array(n);
  const ids = new Map<string, number>();
  const values: number[] = [];
  for (let k = 0, o = 0; k < n; k++, o += COLUMNS) {
    const row = rows.subarray(o, o + COLUMNS);
    const key = row.join(",");
    let g = ids.get(key);
    if (g === undefined) {
      g = ids.size;
      ids.set(key, g);
      values.push(...row);
    }
    groupOf[k] = g;
  }
  return {
    kind: "grouped",
    n,
    resamples,
    groupOf,
    groups: ids.size,
    values: Float64Array.from(values),
  };
}
