/**
 * `MetricValue`, the shape of every rate Assay reports: the value with its exact counts.
 *
 * @module
 */

/** A rate with its exact counts: `value = numerator / denominator`, or 0 when the denominator is 0. */
export interface MetricValue {
  /** The rate. */
  value: number;
  /** The count on top. */
  numerator: number;
  /** The count below. */
  denominator: number;
}

/**
 * Builds a MetricValue from its counts.
 *
 * @param numerator The count on top.
 * @param denominator The count below.
 * @returns `{value, numerator, denominator}`, with value 0 when the denominator is 0.
 *
 * @example
 * ```ts
 * import { metricValue } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(metricValue(3, 4), { value: 0.75, numerator: 3, denominator: 4 });
 * assertEquals(metricValue(0, 0), { value: 0, numerator: 0, denominator: 0 });
 * ```
 */
export function metricValue(numerator: number, denominator: number): MetricValue {
  return { value: denominator === 0 ? 0 : numerator / denominator, numerator, denominator };
}
