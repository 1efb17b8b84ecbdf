/**
 * Exact pooled means and the bootstrap clustered by unit: behind the suite's scorecard and arm
 * comparisons (a unit is a golden, its repeats' runs pooled) and the gate's comparative rules on
 * fractional scores (a unit is an example, or a golden within an arm).
 *
 * Every statistic is a ratio of pooled sums: Σ values / count over the runs of some
 * units (scores of applicable runs, run overall scores, passes as 0/1). Sums are kept exact:
 * a non-negative double is m·2^e with an integer m < 2^53, so a column's values, scaled by
 * 2^-E (E the least exponent among them), are integers, and their sums are exact integers (held
 * as 24-bit limbs in doubles while resampling, as BigInt otherwise). The ratio is then rounded
 * once, to the nearest double (ties to even). So a statistic does not depend on the order of
 * summation, a resample that draws every unit once gives the point estimate bit for bit, and
 * a column of one constant c gives exactly c in every resample (a degenerate interval).
 *
 * A resample draws G units with replacement from the G units in their given order: G bounded
 * draws from one sfc32 stream (Sfc32.fillBelow, Lemire's method), as the paired bootstrap of the
 * compare room draws rows. Each drawn unit brings all its values; every column is recomputed from
 * the same draw.
 *
 * This room is outside the root (its budget is spent); `suite` and `gate` import it.
 *
 * @module
 */
import { decompose, percentileSorted, roundRatio } from "../mod.ts";
import type { Sfc32 } from "../../engine/mod.ts";

const TWO_24 = 0x1000000;
const TWO_53 = 2 ** 53;
const LIMB_BITS = 24n;
const LIMB_MASK = 0xffffffn;

const bitLength = (x: bigint): number => (x === 0n ? 0 : x.toString(2).length);

// m·2^e of a value that may be pooled; decompose() drops the sign, so a negative value (or one
// that is not finite) would be pooled as another: refused.
function part(v: number): [number, number] {
  if (!(v >= 0 && v < Infinity)) {
    throw new RangeError(`A pooled value must be finite and ≥ 0, got ${v}`);
  }
  return decompose(v);
}

/** Sum of non-negative doubles, exact, as p·2^e. */
export function exactSum(values: readonly number[]): { p: bigint; e: number } {
  const parts: [number, number][] = [];
  let e = Infinity;
  for (const v of values) {
    const d = part(v);
    if (d[0] === 0) continue;
    parts.push(d);
    if (d[1] < e) e = d[1];
  }
  if (parts.length === 0) return { p: 0n, e: 0 };
  let p = 0n;
  for (const [m, x] of parts) p += BigInt(m) << BigInt(x - e);
  return { p, e };
}

/**
 * The mean of non-negative doubles, exact then rounded once; null for no values.
 *
 * @param values Finite values ≥ 0.
 * @returns The correctly rounded mean, or null.
 */
export function exactMean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const { p, e } = exactSum(values);
  return roundRatio(p, BigInt(values.length), e);
}

/** One statistic's values per golden, ready to be pooled over any draw of goldens. */
export class PooledColumn {
  /** Goldens. */
  readonly goldens: number;
  /** Limbs per golden sum. */
  readonly #limbs: number;
  /** Scale: golden sums are integers times 2^#exp. */
  readonly #exp: number;
  /** Goldens × limbs: each golden's sum, 24 bits per limb, least significant first. */
  readonly #table: Float64Array;
  /** Values per golden. */
  readonly #counts: Float64Array;
  readonly #acc: Float64Array;

  /**
   * Decomposes every value once, so that pooled sums are exact.
   *
   * @param perGolden Per golden (in draw order), its values: finite, ≥ 0.
   * @param counts Per golden, the count its values pool over, when it is not how many values it
   *   has (a unit whose scores come summed): whole numbers ≥ 0.
   */
  constructor(perGolden: readonly (readonly number[])[], counts?: readonly number[]) {
    this.goldens = perGolden.length;
    const parts = perGolden.map((vs) => vs.map(part));
    let exp = 0;
    for (const ps of parts) for (const [m, e] of ps) if (m !== 0 && e < exp) exp = e;
    const sums = parts.map((ps) => {
      let s = 0n;
      for (const [m, e] of ps) if (m !== 0) s += BigInt(m) << BigInt(e - exp);
      return s;
    });
    let limbs = 1;
    for (const s of sums) limbs = Math.max(limbs, Math.ceil(bitLength(s) / 24));
    this.#limbs = limbs;
    this.#exp = exp;
    this.#table = new Float64Array(this.goldens * limbs);
    this.#counts = Float64Array.from(perGolden, (vs, g) => counts?.[g] ?? vs.length);
    this.#acc = new Float64Array(limbs);
    sums.forEach((s, g) => {
      for (let l = 0; l < limbs; l++, s >>= LIMB_BITS) {
        this.#table[g * limbs + l] = Number(s & LIMB_MASK);
      }
    });
  }

  /**
   * Pools the goldens drawn `weights[g]` times each.
   *
   * @returns [sum, count, mean]: the sum rounded once, the count, the mean rounded once (NaN
   *   when the count is 0).
   */
  pool(weights: Int32Array): [number, number, number] {
    const L = this.#limbs;
    const acc = this.#acc;
    const table = this.#table;
    acc.fill(0);
    let count = 0;
    // Σ weights ≤ 2^29 and limbs < 2^24, so each limb's sum stays below 2^53: exact.
    for (let g = 0; g < this.goldens; g++) {
      const w = weights[g]!;
      if (w === 0) continue;
      count += w * this.#counts[g]!;
      for (let l = 0, o = g * L; l < L; l++, o++) acc[l]! += w * table[o]!;
    }
    let small = acc[0]! + (L > 1 ? acc[1]! * TWO_24 : 0);
    for (let l = 2; l < L; l++) if (acc[l] !== 0) small = Infinity;
    if (small < TWO_53 && this.#exp >= -960) {
      // Both operands are exact integers: one rounding in the division, exact scaling.
      const sum = small * 2 ** this.#exp;
      return [sum, count, count === 0 ? NaN : (small / count) * 2 ** this.#exp];
    }
    let p = 0n;
    for (let l = L - 1; l >= 0; l--) p = (p << LIMB_BITS) + BigInt(acc[l]!);
    const sum = roundRatio(p, 1n, this.#exp);
    return [sum, count, count === 0 ? NaN : roundRatio(p, BigInt(count), this.#exp)];
  }
}

/**
 * Resamples goldens: per resample, `goldens` draws from `rng` (Sfc32.fillBelow), and every
 * column pooled over the draw.
 *
 * @param columns The statistics, all over the same goldens.
 * @param goldens The number of goldens (at least 1).
 * @param rng The stream; left advanced past every draw.
 * @param resamples Resamples.
 * @returns Per column, the resampled means (NaN where a resample pooled no values).
 */
export function clusterResample(
  columns: readonly PooledColumn[],
  goldens: number,
  rng: Sfc32,
  resamples: number,
): Float64Array[] {
  const out = columns.map(() => new Float64Array(resamples));
  const draws = new Int32Array(goldens);
  const weights = new Int32Array(goldens);
  for (let r = 0; r < resamples; r++) {
    rng.fillBelow(goldens, draws);
    weights.fill(0);
    for (let k = 0; k < goldens; k++) weights[draws[k]!]!++;
    columns.forEach((c, i) => out[i]![r] = c.pool(weights)[2]);
  }
  return out;
}

/**
 * The percentile interval of resampled values at `level`, NumPy's linear rule; resamples
 * where the statistic is undefined (NaN) are left out.
 *
 * @returns The interval (null when every resample is undefined) and how many were left out.
 */
export function percentileInterval(
  values: Float64Array,
  level: number,
): { ci: [number, number] | null; undefined_resamples: number } {
  const sorted = Float64Array.from(values).sort();
  let defined = sorted.length;
  while (defined > 0 && Number.isNaN(sorted[defined - 1]!)) defined--;
  const undefinedResamples = sorted.length - defined;
  if (defined === 0) return { ci: null, undefined_resamples: undefinedResamples };
  const q = (1 - level) / 2;
  const d = sorted.subarray(0, defined);
  return {
    ci: [percentileSorted(d, q), percentileSorted(d, 1 - q)],
    undefined_resamples: undefinedResamples,
  };
}
