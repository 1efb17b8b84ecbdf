/**
 * The five tool-call metrics (CONTRACT §4), computed from per-example records.
 *
 * Every metric is a ratio of sums over records, so the metrics of any slice
 * are exactly the pooled sums of its records: overall equals the sum of the
 * language slices, and a bootstrap resample is scored by summing its draws.
 *
 * @module
 */
import type { ArgumentPair, ParseStatus } from "../engine/mod.ts";
import { type MetricValue, metricValue } from "../stats/mod.ts";

/** The five metric names, in report order. */
export const METRIC_NAMES = [
  "valid_json_rate",
  "function_name_accuracy",
  "argument_exact_match",
  "argument_f1",
  "full_call_exact_match",
] as const;

/** One of the five tool-call metrics. */
export type MetricName = (typeof METRIC_NAMES)[number];

/**
 * Each metric's name in words, the one place pages and tables take it from; reports, the
 * command line's tables and the page all show the metric's id beside it.
 */
export const METRIC_LABELS: Readonly<Record<MetricName, string>> = {
  valid_json_rate: "Valid JSON",
  function_name_accuracy: "Function name",
  argument_exact_match: "Argument exact match",
  argument_f1: "Argument F1",
  full_call_exact_match: "Full-call exact match",
};

/** The metrics that are right or wrong per example (all but `argument_f1`, which pools pairs). */
export const BINARY_METRIC_NAMES = [
  "valid_json_rate",
  "function_name_accuracy",
  "argument_exact_match",
  "full_call_exact_match",
] as const;

/** A metric that is right or wrong per example. */
export type BinaryMetricName = (typeof BINARY_METRIC_NAMES)[number];

/**
 * Whether one example counts in a per-example metric's numerator.
 *
 * @param metric The metric.
 * @param r The example's record.
 * @returns Whether it is right.
 *
 * @example
 * ```ts
 * import { exampleRight } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(exampleRight("valid_json_rate", { status: "ok" } as never), true);
 * ```
 */
export function exampleRight(metric: BinaryMetricName, r: ExampleRecord): boolean {
  switch (metric) {
    case "valid_json_rate":
      return r.status === "ok";
    case "function_name_accuracy":
      return r.name_match;
    case "argument_exact_match":
      return r.arguments_match;
    case "full_call_exact_match":
      return r.name_match && r.arguments_match;
  }
}

/** The five metrics of one slice. */
export type ToolCallMetrics = Record<MetricName, MetricValue>;

/** What one evaluated example contributes to every metric. */
export interface ExampleRecord {
  /** The example's id. */
  example_id: string;
  /** Its language slice. */
  language: string;
  /** The English (reference) row it translates, or null. */
  root_id: string | null;
  /** The parse status of the model output; a decoder's statuses besides (see `OutputDecoder`). */
  status: RecordStatus;
  /** Parsed `ok` and named the gold function. */
  name_match: boolean;
  /** Parsed `ok` and the canonical arguments equal the gold's. */
  arguments_match: boolean;
  /** Predicted pairs whose path and value are among the gold pairs. */
  matched_pairs: number;
  /** Flattened pairs of the predicted arguments (0 unless `ok`). */
  predicted_pairs: number;
  /** Flattened pairs of the gold arguments. */
  gold_pairs: number;
  /** Why the output is not one valid call: set by a decoder (never by the default parser). */
  reason?: string;
  /** What a person needs to see why it scored so, when the run asked for details. */
  detail?: ExampleDetail;
}

/** One example's detail: the output, the gold and predicted calls, and where they differ. */
export interface ExampleDetail {
  /** The raw output: its first characters, its length in UTF-16 code units, its SHA-256. */
  output: { text: string; length: number; sha256: string };
  /** The gold call, arguments in canonical JSON. */
  gold: { name: string; arguments: string };
  /** The predicted call, arguments in canonical JSON; null unless the status is `ok`. */
  predicted: { name: string; arguments: string } | null;
  /** Where the output's JSON was rejected, for `invalid_json`. */
  error: { code: string; offset: number } | null;
  /** The argument paths (canonical JSON arrays of keys) on one side only, or on both but different. */
  paths: {
    /** Gold paths the prediction lacks, with the gold value. */
    missing: { path: string; gold: string }[];
    /** Predicted paths the gold lacks, with the predicted value. */
    extra: { path: string; predicted: string }[];
    /** Paths on both sides with different values. */
    different: { path: string; gold: string; predicted: string }[];
  };
}

/** Writes an example's detail from its output, gold call and parse (`@assay/assay/explain`). */
export type DetailWriter = (input: {
  output: string;
  gold: { name: string; canonical: string; pairs: readonly ArgumentPair[] };
  call: {
    status: string;
    name?: string;
    canonicalArguments?: string;
    pairs?: readonly ArgumentPair[];
    error?: { code: string; offset: number };
  };
}) => ExampleDetail;

/**
 * A record's status: the parser's, or under a decoder also `invalid_syntax` (not the decoder's
 * syntax), `no_call` (it decoded to no call) and `multiple_calls` (to several: the score takes one).
 */
export type RecordStatus = ParseStatus | "invalid_syntax" | "no_call" | "multiple_calls";

/** Every {@linkcode RecordStatus}, in the order a report counts them: the parser's four first. */
export const RECORD_STATUSES: readonly RecordStatus[] = [
  "ok",
  "no_json",
  "invalid_json",
  "invalid_shape",
  "invalid_syntax",
  "no_call",
  "multiple_calls",
];

/** Summed counts of a set of records, enough to compute all five metrics. */
export interface MetricCounts {
  /** Number of records. */
  n: number;
  /** Records with status `ok`. */
  ok: number;
  /** Records with `name_match`. */
  name: number;
  /** Records with `arguments_match`. */
  args: number;
  /** Records with both. */
  full: number;
  /** Σ matched pairs. */
  matched: number;
  /** Σ predicted pairs. */
  predicted: number;
  /** Σ gold pairs. */
  gold: number;
}

/**
 * Sums records into counts.
 *
 * @param records Per-example records.
 * @returns Their summed counts.
 *
 * @example
 * ```ts
 * import { countRecords } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(countRecords([]).n, 0);
 * ```
 */
export function countRecords(records: Iterable<ExampleRecord>): MetricCounts {
  const c: MetricCounts = {
    n: 0,
    ok: 0,
    name: 0,
    args: 0,
    full: 0,
    matched: 0,
    predicted: 0,
    gold: 0,
  };
  for (const r of records) {
    c.n++;
    if (r.status === "ok") c.ok++;
    if (r.name_match) c.name++;
    if (r.arguments_match) c.args++;
    if (r.name_match && r.arguments_match) c.full++;
    c.matched += r.matched_pairs;
    c.predicted += r.predicted_pairs;
    c.gold += r.gold_pairs;
  }
  return c;
}

/**
 * The five metrics from summed counts.
 *
 * @param c Summed counts.
 * @returns All five MetricValues, in report order.
 *
 * @example
 * ```ts
 * import { metricsFromCounts } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * const m = metricsFromCounts({ n: 4, ok: 3, name: 2, args: 2, full: 1, matched: 5, predicted: 6, gold: 8 });
 * strictEqual(m.argument_f1.numerator, 10);
 * strictEqual(m.argument_f1.denominator, 14);
 * ```
 */
export function metricsFromCounts(c: MetricCounts): ToolCallMetrics {
  return {
    valid_json_rate: metricValue(c.ok, c.n),
    function_name_accuracy: metricValue(c.name, c.n),
    argument_exact_match: metricValue(c.args, c.n),
    argument_f1: metricValue(2 * c.matched, c.predicted + c.gold),
    full_call_exact_match: metricValue(c.full, c.n),
  };
}

/**
 * All five metrics of a set of records, pooled.
 *
 * @param records Per-example records.
 * @returns The five MetricValues.
 *
 * @example The reference's worked example
 * ```ts
 * import { type ExampleRecord, toolCallMetrics } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const base = { language: "en", root_id: null, gold_pairs: 2 };
 * const records: ExampleRecord[] = [
 *   { ...base, example_id: "1", status: "ok", name_match: true, arguments_match: true, matched_pairs: 2, predicted_pairs: 2 },
 *   { ...base, example_id: "2", status: "ok", name_match: true, arguments_match: false, matched_pairs: 1, predicted_pairs: 2 },
 *   { ...base, example_id: "3", status: "ok", name_match: false, arguments_match: true, matched_pairs: 2, predicted_pairs: 2 },
 *   { ...base, example_id: "4", status: "no_json", name_match: false, arguments_match: false, matched_pairs: 0, predicted_pairs: 0 },
 * ];
 * const m = toolCallMetrics(records);
 * assertEquals(m.valid_json_rate, { value: 0.75, numerator: 3, denominator: 4 });
 * assertEquals(m.argument_f1, { value: 10 / 14, numerator: 10, denominator: 14 });
 * assertEquals(m.full_call_exact_match, { value: 0.25, numerator: 1, denominator: 4 });
 * ```
 */
export function toolCallMetrics(records: Iterable<ExampleRecord>): ToolCallMetrics {
  return metricsFromCounts(countRecords(records));
}

/**
 * `valid_json_rate`: the share of records whose output parsed into a tool call.
 *
 * @param records Per-example records.
 * @returns The MetricValue.
 *
 * @example
 * ```ts
 * import { validJsonRate } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(validJsonRate([]).value, 0);
 * ```
 */
export function validJsonRate(records: Iterable<ExampleRecord>): MetricValue {
  return toolCallMetrics(records).valid_json_rate;
}

/**
 * `function_name_accuracy`: the share of records that named the gold function.
 *
 * @param records Per-example records.
 * @returns The MetricValue.
 *
 * @example
 * ```ts
 * import { functionNameAccuracy } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(functionNameAccuracy([]).denominator, 0);
 * ```
 */
export function functionNameAccuracy(records: Iterable<ExampleRecord>): MetricValue {
  return toolCallMetrics(records).function_name_accuracy;
}

/**
 * `argument_exact_match`: the share of records whose canonical arguments equal the gold's.
 *
 * @param records Per-example records.
 * @returns The MetricValue.
 *
 * @example
 * ```ts
 * import { argumentExactMatch } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(argumentExactMatch([]).numerator, 0);
 * ```
 */
export function argumentExactMatch(records: Iterable<ExampleRecord>): MetricValue {
  return toolCallMetrics(records).argument_exact_match;
}

/**
 * `argument_f1`: micro F1 over flattened pairs, stored as `2·matched / (predicted + gold)`.
 *
 * @param records Per-example records.
 * @returns The MetricValue.
 *
 * @example
 * ```ts
 * import { argumentF1 } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(argumentF1([]).value, 0);
 * ```
 */
export function argumentF1(records: Iterable<ExampleRecord>): MetricValue {
  return toolCallMetrics(records).argument_f1;
}

/**
 * `full_call_exact_match`: the share of records with the right name and exactly the gold arguments.
 *
 * @param records Per-example records.
 * @returns The MetricValue.
 *
 * @example
 * ```ts
 * import { fullCallExactMatch } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(fullCallExactMatch([]).value, 0);
 * ```
 */
export function fullCallExactMatch(records: Iterable<ExampleRecord>): MetricValue {
  return toolCallMetrics(records).full_call_exact_match;
}
