/**
 * The deterministic agent-trace metrics of a metric suite: `schema_membership`,
 * `expected_view_recall`, `reference_value_match`, `step_efficiency`, `hit_limit` and
 * `trajectory_match`.
 *
 * Each metric is a pure function `(golden, trace, catalog, params?) => CriterionScore`; the
 * registry {@linkcode DETERMINISTIC_METRICS} maps a suite's `type:` to it. The metrics that read
 * the agent's SQL are in `sql_metrics.ts`, the one that reads its final rows in
 * `result_metrics.ts`, and those that read its steps in `step_metrics.ts`; see
 * `docs/trace_metrics.md` for the exact rules and the best-effort cases.
 *
 * @module
 */
import type { CriterionScore, RunContext } from "./types.ts";
export type {
  CatalogView,
  CriterionScore,
  Golden,
  RunContext,
  SchemaCatalog,
  Trace,
  TraceToolCall,
} from "./types.ts";
import type { DeterministicMetricName, MetricParams } from "./_metric_args.ts";
import { expectedViewRecall, schemaMembership } from "./sql_metrics.ts";
import { referenceValueMatch } from "./result_metrics.ts";
import { hitLimit, stepEfficiency, trajectoryMatchMetric } from "./step_metrics.ts";

export {
  DETERMINISTIC_METRIC_NAMES,
  DETERMINISTIC_METRIC_PARAMS,
  type DeterministicMetricName,
  type MetricParams,
} from "./_metric_args.ts";

/**
 * A deterministic metric: scores one run from its golden, trace and the schema catalog. It checks
 * only what it reads (a `RunInputError` or a `TypeError` naming the field), not the whole golden,
 * trace and catalog against their schemas: `runSuite` checks those once, before any metric runs,
 * as the file readers check a file's lines. A run built in memory and scored by a metric alone is
 * not so checked; give it to `runSuite` for that.
 */
export type DeterministicMetric = (run: RunContext, params?: MetricParams) => CriterionScore;

/**
 * The registry of deterministic metrics, by suite `type:` name.
 *
 * @example Look a metric up by name
 * ```ts
 * import { DETERMINISTIC_METRICS, DETERMINISTIC_METRIC_NAMES } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(Object.keys(DETERMINISTIC_METRICS), [...DETERMINISTIC_METRIC_NAMES]);
 * const trace = {
 *   golden_id: "q1", arm: "base", repeat: 0, tool_calls: [], sql: [], final_rows: null,
 *   final_answer: "42", submitted: true, hit_turn_limit: false,
 * };
 * const golden = { id: "q1", question: "?" };
 * assertEquals(DETERMINISTIC_METRICS.hit_limit({ golden, trace, catalog: { views: [] } }).score, 1);
 * ```
 */
export const DETERMINISTIC_METRICS: Readonly<Record<DeterministicMetricName, DeterministicMetric>> =
  Object.freeze({
    schema_membership: schemaMembership,
    expected_view_recall: expectedViewRecall,
    reference_value_match: referenceValueMatch,
    step_efficiency: stepEfficiency,
    hit_limit: hitLimit,
    trajectory_match: trajectoryMatchMetric,
  });
