/**
 * The `assay.structured.v1` report: the metrics `assay structured` and `scoreStructuredJsonl`
 * compute, in their order, and the report's shape.
 *
 * @module
 */
import type { ExtractionMode } from "../../structured/mod.ts";
import type { MetricValue } from "../../stats/mod.ts";

/**
 * Every metric of a structured scoring, in report order.
 *
 * @example The first and the last
 * ```ts
 * import { STRUCTURED_METRICS } from "@assay/assay/structured-jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(STRUCTURED_METRICS[0], "json_validity");
 * strictEqual(STRUCTURED_METRICS.at(-1), "instruction_retention");
 * ```
 */
export const STRUCTURED_METRICS = [
  "json_validity",
  "json_schema_compliance",
  "extra_content_rate",
  "required_field_accuracy",
  "xml_validity",
  "format_compliance",
  "tool_selection_accuracy",
  "tool_argument_accuracy",
  "tool_call_f1",
  "api_call_success_rate",
  "instruction_compliance_rate",
  "constraint_satisfaction_rate",
  "instruction_retention",
] as const;

/** The name of a metric of a structured scoring. */
export type StructuredMetric = (typeof STRUCTURED_METRICS)[number];

/**
 * The metrics of a structured scoring that count a fault, so that lower is better:
 * `extra_content_rate`, the share of outputs with text beyond their payload. Every other metric
 * counts what is right. A gate (regressions, improvements, `non_inferior`, `superior`) and
 * `assay show` (which rows failed) read each metric's direction here.
 *
 * @example
 * ```ts
 * import { LOWER_IS_BETTER_STRUCTURED_METRICS } from "@assay/assay/structured-jsonl";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(LOWER_IS_BETTER_STRUCTURED_METRICS, ["extra_content_rate"]);
 * ```
 */
export const LOWER_IS_BETTER_STRUCTURED_METRICS: readonly StructuredMetric[] = [
  "extra_content_rate",
];

/**
 * Whether one unit's figures count against its metric: some of a lower-is-better metric (see
 * {@linkcode LOWER_IS_BETTER_STRUCTURED_METRICS}), less than all of any other. A unit the metric
 * does not apply to (0/0) never does. `assay show` lists a structured row as failing a metric by
 * this rule, and a gate counts a unit as wrong by it, for every metric it reads.
 *
 * @example
 * ```ts
 * import { countsAgainst } from "@assay/assay/structured-jsonl";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(countsAgainst(1, 2, false), true); // half right
 * deepStrictEqual(countsAgainst(1, 2, true), true); // some extra content
 * deepStrictEqual(countsAgainst(0, 0, false), false); // does not apply
 * ```
 */
export function countsAgainst(
  numerator: number,
  denominator: number,
  lowerIsBetter: boolean,
): boolean {
  return denominator > 0 && (lowerIsBetter ? numerator > 0 : numerator < denominator);
}

/** A metric's totals, with the details its function gives (see `@assay/assay/structured`). */
export type StructuredMetricResult = MetricValue & { details?: unknown };

/** One output row's own figures: every metric computed on that example alone. */
export interface StructuredReportRow {
  /** The row's 1-based line in the outputs. */
  line: number;
  /** The row's id, or `null` when it has none. */
  id: string | null;
  /**
   * Each metric's numerator and denominator on this row: frozen objects, which the rows of one
   * report that have the same two numbers share (so that 200,000 rows do not hold 2.6 million
   * copies of a few figures).
   */
  metrics: Record<string, Readonly<{ numerator: number; denominator: number }>>;
  /**
   * Why the row's predicted calls are invalid, on a row that has one (absent otherwise, and from
   * reports written before 2026-12-07): each invalid call's place and reason (`tool_calls[2]:
   * arguments are not JSON (unexpected_end at 6)`, `call 0: ...` for the calls a decoder read), at
   * most ten and then `and N more invalid calls`, or why the output did not decode (`the output
   * does not decode (invalid_json): ...`). A reason longer than 1000 characters is cut, with its
   * length.
   */
  reasons?: readonly string[];
}

/** The options a structured report's metrics were computed with, beyond the extraction mode. */
export interface StructuredSettings {
  /** required_field_accuracy's number comparison: `exact` or `numeric`. */
  numbers: "exact" | "numeric";
  /** The tool-call matching of tool_argument_accuracy and tool_call_f1. */
  match: "exact" | "name" | "subset";
  /** Whether tool_selection_accuracy compares names in order. */
  ordered: boolean;
  /** format_compliance's regex, or null without one. */
  format: string | null;
  /** Whether json_schema_compliance asserted the schema's `format` keyword. */
  format_assertion: boolean;
}

/** The `assay.structured.v1` report. */
export interface StructuredReport {
  /** `assay.structured.v1`. */
  schema: "assay.structured.v1";
  /** The package that wrote it. */
  tool: { readonly name: string; readonly version: string };
  /** The engine's name: `wasm` or `ts`. */
  engine: string;
  /** Where JSON is found in an output. */
  mode: ExtractionMode;
  /**
   * How the metrics compared, beyond the mode: the options a comparison of two reports needs to
   * be the same (absent from a report written before 2026-12-06).
   */
  settings?: StructuredSettings;
  /** What was read. */
  inputs: {
    /** The outputs: their SHA-256, rows, and rows whose output was not UTF-8. */
    outputs: { sha256: string; rows: number; invalid_utf8_outputs: number };
    /** The expected rows, when given. */
    expected: { sha256: string; rows: number } | null;
    /** The schema, when given: the SHA-256 of its text. */
    schema: { sha256: string } | null;
  };
  /** How many outputs. */
  n: number;
  /** With a decoder: its id and how many outputs ended in each status. */
  call_format?: { decoder: string; statuses: Record<string, number> };
  /** Each metric computed, in {@linkcode STRUCTURED_METRICS}' order. */
  metrics: Partial<Record<StructuredMetric, StructuredMetricResult>>;
  /** Each output row's own figures, which add up to the totals. */
  rows: StructuredReportRow[];
}
