/**
 * Assay: exact, reproducible scoring for LLM evaluations.
 *
 * This module is the engine core: it turns raw model outputs into parse
 * statuses, tool calls, canonical JSON and flattened argument pairs, exactly
 * as Python's `json` module would, on a WebAssembly engine or its pure-TS twin.
 *
 * @example Parse a tool call from a raw model output
 * ```ts
 * import { parseToolCall } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const r = parseToolCall('Sure! {"name": "search", "arguments": {"q": "assay", "k": 5.0}}', {
 *   pairs: true,
 * });
 * assertEquals(r.status, "ok");
 * assertEquals(r.canonicalArguments, '{"k":5.0,"q":"assay"}');
 * assertEquals(r.pairs?.length, 2);
 * ```
 *
 * @module
 */
export { createEngine, Engine, getDefaultEngine, setDefaultEngine } from "./src/engine.ts";
export type {
  EngineChoice,
  EngineOptions,
  ParseToolCallOptions,
  WithEngine,
} from "./src/engine.ts";
export { extractSpan, extractSpanBatch } from "./src/span.ts";
export { parseToolCall, parseToolCallBatch } from "./src/tool_call.ts";
export type { ToolCallOptions } from "./src/tool_call.ts";
export { canonicalize, canonicalizeBatch } from "./src/canonical.ts";
export { flattenArguments, flattenArgumentsBatch, formatPath } from "./src/flatten.ts";
export { canonicalFloat, pyFloatRepr } from "./src/float_repr.ts";
export { CANONICAL_ID, PARSER_ID } from "./src/ids.ts";
export type * from "./src/types.ts";
export {
  argumentExactMatch,
  argumentF1,
  countRecords,
  fullCallExactMatch,
  functionNameAccuracy,
  METRIC_NAMES,
  metricsFromCounts,
  metricValue,
  toolCallMetrics,
  validJsonRate,
} from "./src/metrics.ts";
export type {
  ExampleRecord,
  MetricCounts,
  MetricName,
  MetricValue,
  ToolCallMetrics,
} from "./src/metrics.ts";
export { scoreToolCalls, ToolCallScorer } from "./src/evaluation.ts";
export type {
  DropSummary,
  EvaluationReport,
  ExampleInput,
  GenerationInput,
  InputDigest,
  PromptInput,
  ScoreOptions,
} from "./src/evaluation.ts";
export { formatLocation, InputError, InvariantViolation } from "./src/errors.ts";
export type { Location, Violation } from "./src/errors.ts";
export { formatReport } from "./src/report_json.ts";
export { sha256Hex } from "./src/sha256.ts";
export { TOOL } from "./src/version.ts";
export { DRAW_NAME, PRNG_NAME, Sfc32 } from "./src/prng.ts";
export {
  bootstrapPacked,
  bootstrapSettings,
  packRecords,
  pairedBootstrap,
  percentileSorted,
} from "./src/bootstrap.ts";
export type { BootstrapOptions, BootstrapSettings, MetricDelta } from "./src/bootstrap.ts";
export { compareReports, ComparisonGateError, gateDifferences } from "./src/comparison.ts";
export type { ComparisonReport, GateDifference, MetricDeltas } from "./src/comparison.ts";
export { languageGaps, pairSetSha256 } from "./src/gaps.ts";
export type { GapOptions, GapReport, LanguageGap, MarginalDelta, PairedGap } from "./src/gaps.ts";
export { renderComparisonHtml } from "./src/html_report.ts";
export type { HtmlReportOptions } from "./src/html_report.ts";
// Structured output, tools and instructions.
export * from "./src/json_output.ts";
export * from "./src/json_schema.ts";
export * from "./src/xml.ts";
export * from "./src/tool_metrics.ts";
export * from "./src/instruction_metrics.ts";
// Metric suites: traces, judges, scorecards and calibration.
export * from "./src/suite_types.ts";
export * from "./src/suite_schemas.ts";
export * from "./src/suite.ts";
export * from "./src/trace_metrics.ts";
export * from "./src/judge.ts";
export * from "./src/scorecard.ts";
export * from "./src/arm_comparison.ts";
export * from "./src/calibration.ts";
export * from "./src/suite_run.ts";
