/**
 * BFCL's AST checker (`bfcl.ast@2024-08`), reproduced verdict for verdict: decoding of
 * function-calling and prompting models' results, Python-typed checks of each call against the
 * possible answers, the categories' dispatch (with BFCL's greedy or an optimal matching of
 * parallel calls), BFCL's score files, and the paired comparison of two models' reports.
 *
 * @example Checking one entry
 * ```ts
 * import { checkBfcl } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const run = checkBfcl(
 *   { results: { name: "r.json", text: '{"id": "relevance_0", "result": "None fits."}\n' } },
 *   { category: "relevance" },
 * );
 * strictEqual(run.accuracy, 1);
 * ```
 *
 * @module
 */
export * from "./py_value.ts";
export * from "./decode.ts";
export * from "./models.ts";
export * from "./python_expression.ts";
export * from "./checker.ts";
export * from "./files.ts";
export * from "./score_file.ts";
export * from "./comparison.ts";
export type { BootstrapOptions, MetricValue } from "../stats/mod.ts";
export { type DigestedSource, digestSource, type FileDigest } from "../report_check/mod.ts";
export { ComparisonGateError, type GateDifference } from "../compare/mod.ts";
