/**
 * Tool-call evaluation: join examples and generations, check the invariants, score each example
 * and pool the five metrics overall and per language (CONTRACT §4–5).
 *
 * @example The reference's worked example
 * ```ts
 * import { scoreToolCalls } from "@assay/assay/evaluation";
 * import { strictEqual } from "node:assert/strict";
 *
 * const report = scoreToolCalls(
 *   [{ example_id: "1", language: "en", target: { name: "f", arguments: { a: 1 } } }],
 *   [{ example_id: "1", output: '{"name": "f", "arguments": {"a": 1}}' }],
 * );
 * strictEqual(report.metrics.overall.full_call_exact_match.value, 1);
 * ```
 *
 * @module
 */
export * from "./metrics.ts";
export * from "./scorer.ts";
export * from "./inputs.ts";
export * from "./score_jsonl.ts";
export * from "./report_json.ts";
export * from "./report_shape.ts";
