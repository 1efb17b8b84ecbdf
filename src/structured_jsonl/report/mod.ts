/**
 * The `assay.structured.v1` report's shape and its rules (the metrics in their order, which count
 * a bad thing, and whether a row counts against a metric), apart from the scoring, so that what
 * reads a report (`assay show`, the gate) loads no JSON Schema, XML or structured metrics.
 * `structured_jsonl`'s `mod.ts` re-exports it.
 *
 * @example
 * ```ts
 * import { LOWER_IS_BETTER_STRUCTURED_METRICS } from "@assay/assay/structured-jsonl";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(LOWER_IS_BETTER_STRUCTURED_METRICS, ["extra_content_rate"]);
 * ```
 *
 * @module
 */
export * from "./report.ts";
