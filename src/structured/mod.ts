/**
 * Structured-output, tool and instruction metrics: JSON validity, schema compliance, extra
 * content and required fields; tool selection, arguments, call F1 and API-call success with
 * optimal one-to-one matching; instruction compliance, constraint satisfaction, format
 * compliance (a linear-time regex engine) and instruction retention.
 *
 * @example JSON validity in strict mode
 * ```ts
 * import { jsonValidity } from "@assay/assay/structured";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(jsonValidity(['{"a": 1}', "no"], { mode: "strict" }).value, 0.5);
 * ```
 *
 * @module
 */
export * from "./json_output.ts";
export * from "./required_fields.ts";
export * from "./tool_metrics.ts";
export * from "./tool_calls.ts";
export * from "./instruction_metrics.ts";
export * from "./assignment.ts";
export * from "./canonical_path.ts";
export { LinearRegex } from "../regex/mod.ts";
export type { KnownIssue } from "../regex/mod.ts";
