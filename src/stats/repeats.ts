/**
 * Reducers of repeated runs (epochs) of one example: the unbiased pass@k estimator, pass^k and
 * at-least-k, computed exactly in integers and rounded once.
 *
 * @module
 */
import { roundRatio } from "./exact.ts";

function checkCounts(n: number, c: number, k: number): void {
  for (const [name, v] of [["n", n], ["c", c], ["k", k]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new RangeError(`${name} must be a non-negative whole number, got ${v}`);
    }
  }
  if (c > n) throw new RangeError(`c (${c}) must be at most n (${n})`);
}

function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

/**
 * The unbiased pass@k estimator over n runs with c correct: 1 − C(n − c, k) / C(n, k), the chance
 * that k runs drawn without replacement hold a correct one. Not computable when n < k.
 *
 * @param n Runs.
 * @param c Correct runs, at most n.
 * @param k Runs drawn.
 * @returns The estimate, correctly rounded; `null` when n < k.
 * @throws {RangeError} If a count is not a non-negative whole number, or c > n.
 *
 * @example
 * ```ts
 * import { passAtK } from "@assay/assay/stats";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(passAtK(4, 1, 2), 0.5); // 1 − C(3,2)/C(4,2)
 * strictEqual(passAtK(1, 1, 2), null);
 * ```
 */
export function passAtK(n: number, c: number, k: number): number | null {
  checkCounts(n, c, k);
  if (n < k) return null;
  const all = choose(n, k);
  return roundRatio(all - choose(n - c, k), all, 0);
}

/**
 * pass^k (τ-bench): C(c, k) / C(n, k), the chance that k runs drawn without replacement are all
 * correct. Not computable when n < k.
 *
 * @param n Runs.
 * @param c Correct runs, at most n.
 * @param k Runs drawn.
 * @returns The estimate, correctly rounded; `null` when n < k.
 * @throws {RangeError} If a count is not a non-negative whole number, or c > n.
 *
 * @example
 * ```ts
 * import { passHatK } from "@assay/assay/stats";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(passHatK(4, 2, 2), 1 / 6);
 * ```
 */
export function passHatK(n: number, c: number, k: number): number | null {
  checkCounts(n, c, k);
  if (n < k) return null;
  return roundRatio(choose(c, k), choose(n, k), 0);
}

/**
 * At least k: 1 when at least `k` of the runs' scores reach `threshold`, else 0.
 *
 * @param values The runs' scores.
 * @param k How many must reach the threshold.
 * @param threshold The score a run must reach (default 1).
 * @returns 1 or 0.
 * @throws {RangeError} If `k` is not a non-negative whole number, or a value is NaN.
 *
 * @example
 * ```ts
 * import { atLeastK } from "@assay/assay/stats";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(atLeastK([1, 0, 1], 2), 1);
 * ```
 */
export function atLeastK(values: readonly number[], k: number, threshold = 1): 0 | 1 {
  if (!Number.isSafeInteger(k) || k < 0) {
    throw new RangeError(`k must be a non-negative whole number, got ${k}`);
  }
  let reached = 0;
  for (const v of values) {
    if (Number.isNaN(v)) throw new RangeError("A run's score is NaN");
    if (v >= threshold) reached++;
  }
  return reached >= k ? 1 : 0;
}
