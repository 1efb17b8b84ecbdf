/**
 * The exact McNemar test on the discordant pairs of two paired binary outcomes, and Holm's
 * step-down correction across several tests.
 *
 * @module
 */
import { roundRatio } from "../stats/mod.ts";

/** The exact McNemar test of one binary metric between a base and a candidate. */
export interface McNemarResult {
  /** Examples right in base and wrong in candidate. */
  regressions: number;
  /** Examples wrong in base and right in candidate. */
  improvements: number;
  /** The two-sided p-value: the exact binomial test of `regressions` among the discordant pairs at 1/2. */
  pValue: number;
}

function checkCount(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`${what} must be a non-negative whole number, got ${n}`);
  }
}

/** Coefficients past this many bits keep their top bits only (see {@linkcode binomialHalfCdf}). */
const TOP = 1n << 192n;

/**
 * P(X ≤ k) for X ~ Binomial(n, 1/2) when 2k < n, as `[sum, e]` with the tail sum · 2^e: C(n, k),
 * then C(n, i - 1) = C(n, i) · i / (n - i + 1) summed downwards until the rest cannot reach the
 * 64th bit of the sum. Exact integers while C(n, k) stays below 2^192; past that, the integer keeps
 * its top 128 to 192 bits and `e` the rest, so each step costs the same whatever n.
 */
function lowerTail(k: number, n: number): [bigint, number] {
  let e = -n;
  let term = 1n;
  for (let i = 0; i < k; i++) {
    term = (term * BigInt(n - i)) / BigInt(i + 1);
    if (term >= TOP) {
      term >>= 64n;
      e += 64;
    }
  }
  let sum = 0n;
  for (let i = k; i >= 0; i--) {
    sum += term;
    // At most i terms remain, each below this one.
    if (term * BigInt(i) < sum >> 70n) break;
    if (i > 0) term = (term * BigInt(i)) / BigInt(n - i + 1);
  }
  return [sum, e];
}

/**
 * P(X ≤ k) for X ~ Binomial(n, 1/2), in integers, then rounded once to a double: the sum of
 * C(n, i) for i ≤ k over 2^n, summed down from i = k until the rest cannot reach the 64th bit of
 * the sum (for k above n/2, one minus the other tail). While C(n, k) is below 2^192 the sum is
 * exact; past that, each coefficient keeps its top 128 bits or more, so the sum is within
 * (k + 1)·2^-127 of exact, relatively, before its rounding, and the time is linear in n (600,000
 * discordant pairs in milliseconds, where exact coefficients of n bits took seconds).
 *
 * @param k The bound, 0 ≤ k ≤ n.
 * @param n The number of trials.
 * @returns The lower tail.
 * @throws {RangeError} If `k` or `n` is not a whole number in range.
 *
 * @example Two discordant pairs out of ten
 * ```ts
 * import { binomialHalfCdf } from "@assay/assay/gate";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(binomialHalfCdf(2, 10), 56 / 1024);
 * ```
 */
export function binomialHalfCdf(k: number, n: number): number {
  checkCount(n, "n");
  checkCount(k, "k");
  if (k > n) throw new RangeError(`k must be at most n (${n}), got ${k}`);
  if (k === n) return 1;
  if (2 * k < n) {
    const [sum, e] = lowerTail(k, n);
    return Math.min(1, roundRatio(sum, 1n, e));
  }
  // P(X ≤ k) = 1 − P(X ≤ n − k − 1), the other tail being at most 1/2.
  const [sum, e] = lowerTail(n - k - 1, n);
  return Math.min(1, roundRatio((1n << BigInt(-e)) - sum, 1n, e));
}

/**
 * The exact McNemar test: under the null hypothesis each discordant pair is a regression or an
 * improvement with probability 1/2, so the two-sided p-value is min(1, 2 · P(X ≤ min(b, c)))
 * for X ~ Binomial(b + c, 1/2), as `scipy.stats.binomtest(b, b + c, 0.5)` computes it; 1 when
 * there is no discordant pair.
 *
 * @param regressions Examples right in base and wrong in candidate (b).
 * @param improvements Examples wrong in base and right in candidate (c).
 * @returns The counts and the p-value.
 * @throws {RangeError} If a count is not a non-negative whole number.
 *
 * @example Nine regressions and one improvement
 * ```ts
 * import { mcnemarExact } from "@assay/assay/gate";
 * import { strictEqual } from "node:assert/strict";
 *
 * // 2 · (C(10,0) + C(10,1)) / 2^10
 * strictEqual(mcnemarExact(9, 1).pValue, 22 / 1024);
 * ```
 */
export function mcnemarExact(regressions: number, improvements: number): McNemarResult {
  checkCount(regressions, "regressions");
  checkCount(improvements, "improvements");
  const n = regressions + improvements;
  const k = Math.min(regressions, improvements);
  if (n === 0 || 2 * k === n) return { regressions, improvements, pValue: 1 };
  // Doubled before its one rounding: 2 · (the rounded tail) loses the tail's last bits when it
  // is subnormal (2^-1074 doubled, not 0, for 0 against 1075).
  const [sum, e] = lowerTail(k, n);
  return { regressions, improvements, pValue: Math.min(1, roundRatio(sum, 1n, e + 1)) };
}

/** Holm's step-down correction of several p-values. */
export interface HolmResult {
  /** The adjusted p-values, in the order given: the running maximum of min(1, (m − j) · p_(j)). */
  adjusted: number[];
  /** Whether each hypothesis is rejected at the family-wise level `alpha`. */
  reject: boolean[];
}

/**
 * Holm's step-down correction, as statsmodels' `multipletests(p, alpha, method="holm")`: the
 * p-values sorted ascending (ties kept in their order) are compared in turn with alpha / (m − j);
 * the first that exceeds its level and every later one are not rejected.
 *
 * @param pValues The p-values, each in [0, 1].
 * @param alpha The family-wise error rate, in (0, 1); 0.05 by default.
 * @returns The adjusted p-values and the decisions, in the order given.
 * @throws {TypeError} If `pValues` is not an array, or it or `alpha` holds what is not a number.
 * @throws {RangeError} If a p-value or `alpha` is out of range.
 *
 * @example Three tests at 0.05
 * ```ts
 * import { holm } from "@assay/assay/gate";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const r = holm([0.01, 0.04, 0.03]);
 * deepStrictEqual(r.reject, [true, false, false]);
 * deepStrictEqual(r.adjusted, [0.03, 0.06, 0.06]);
 * ```
 */
export function holm(pValues: readonly number[], alpha = 0.05): HolmResult {
  // A string would pass the range checks (`"0.1" > 0`), and a string of p-values would be read
  // a character at a time.
  if (typeof alpha !== "number") throw new TypeError(`alpha must be a number, got ${typeof alpha}`);
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!Array.isArray(pValues)) {
    throw new TypeError(`Expected an array of p-values, got ${typeof pValues}`);
  }
  pValues.forEach((p, i) => {
    if (typeof p !== "number") {
      throw new TypeError(`p-value ${i} must be a number, got ${typeof p}`);
    }
    if (!(p >= 0 && p <= 1)) throw new RangeError(`A p-value must be in [0, 1], got ${p}`);
  });
  const m = pValues.length;
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a]! - pValues[b]! || a - b);
  const adjusted = new Array<number>(m);
  const reject = new Array<boolean>(m);
  let running = 0;
  let stopped = false;
  order.forEach((i, j) => {
    const p = pValues[i]!;
    running = Math.max(running, Math.min(1, p * (m - j)));
    adjusted[i] = running;
    if (p > alpha / (m - j)) stopped = true;
    reject[i] = !stopped;
  });
  return { adjusted, reject };
}
