/**
 * Statistics shared by every report: {@linkcode MetricValue} (a rate with its exact counts),
 * bootstrap settings and percentiles, exact arithmetic on doubles, and the reducers of repeated
 * runs (pass@k, pass^k, at least k).
 *
 * @example A rate with its counts
 * ```ts
 * import { metricValue } from "@assay/assay/stats";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(metricValue(3, 4), { value: 0.75, numerator: 3, denominator: 4 });
 * ```
 *
 * @module
 */
export * from "./metric_value.ts";
export * from "./bootstrap.ts";
export * from "./exact.ts";
export * from "./repeats.ts";
