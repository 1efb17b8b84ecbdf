/**
 * The `assay.structured.v1` report's shape and its rules (the metrics in their order, which count
 * a bad thing, and whether a row counts against a metric), apart from the scoring, so that what
 * reads a report (`assay show`, the gate) loads no JSON Schema, XML or structured metrics.
 * `structured_jsonl`'s `mod.ts` re-exports it.
 *
 * @example
 * ```ts
 * import { countsAgainst, LOWER_IS_BETTER_STRUCTURED_METRICS } from "@assay/assay/structured-jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * // A row whose output has extra content (1 of 1) counts against extra_content_rate.
 * const lower = LOWER_IS_BETTER_STRUCTURED_METRICS.includes("extra_content_rate");
 * strictEqual(countsAgainst(1, 1, lower), true);
 * ```
 *
 * @module
 */
export * from "./report.ts";
