/**
 * Declarative metric suites over agent traces: a YAML or JSONC file that names its metrics, the
 * deterministic trace metrics, LLM judges with prompt and rubric hashes, clustered-bootstrap
 * scorecards, paired arm comparisons and judge calibration.
 *
 * @example Load a suite
 * ```ts
 * import { loadSuite } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const suite = loadSuite('{"metrics": [{"type": "hit_limit"}]}', { format: "jsonc" });
 * strictEqual(suite.metrics.length, 1);
 * ```
 *
 * @module
 */
export * from "./suite.ts";
export * from "./types.ts";
export * from "./schemas.ts";
export * from "./inputs.ts";
export * from "./labels.ts";
export * from "./run.ts";
export * from "./trace_metrics.ts";
export * from "./sql_metrics.ts";
export * from "./result_metrics.ts";
export * from "./step_metrics.ts";
export * from "./trajectory_match.ts";
export * from "./repeats.ts";
export * from "./uncertainty.ts";
export * from "./repeats_report.ts";
export * from "./stored_run.ts";
export * from "./kept_run.ts";
export * from "./scorecard.ts";
export * from "./arm_comparison.ts";
export * from "./calibration.ts";
export * from "./run_report.ts";
export * from "./judge/mod.ts";
