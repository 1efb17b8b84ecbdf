// Which metrics the inputs of scoreStructuredJsonl allow (the figures are computed in
// _compute.ts).
import type { Engine } from "../engine/mod.ts";
import type { CompiledSchema } from "../json_schema/mod.ts";
import type { ExtractionMode } from "../structured/mod.ts";
import { StructuredMetricError, type StructuredNeed } from "./errors.ts";
import type { StructuredCallDecoder, StructuredSkip } from "./score_structured_jsonl.ts";
import { STRUCTURED_METRICS, type StructuredMetric } from "./report/mod.ts";
import { everyRowHas, type Loaded } from "./_rows.ts";

/** What the metrics read: the rows, joined, and the options. */
export interface MetricInputs {
  outputs: Loaded;
  expected: Loaded | undefined;
  /** The index of the expected row of each output row. */
  joined: number[] | undefined;
  /** The schema, compiled when first used; undefined without a schema. */
  schema: (() => CompiledSchema) | undefined;
  format: string | undefined;
  decoder: StructuredCallDecoder | undefined;
  engine: Engine;
  mode: ExtractionMode;
  numbers: "exact" | "numeric";
  match: "exact" | "name" | "subset";
  ordered: boolean;
}

/** What metric `m` needs that the inputs lack, if anything. */
function need(inp: MetricInputs, m: StructuredMetric): StructuredNeed | undefined {
  const output = everyRowHas(inp.outputs, "output") ? undefined : "output";
  switch (m) {
    case "json_validity":
    case "extra_content_rate":
    case "xml_validity":
      return output;
    case "json_schema_compliance":
      return inp.schema === undefined ? "schema" : output;
    case "format_compliance":
      return inp.format === undefined ? "format" : output;
    case "required_field_accuracy":
      return everyRowHas(inp.expected, "fields") && output === undefined
        ? undefined
        : "expected_fields";
    case "tool_selection_accuracy":
    case "tool_argument_accuracy":
    case "tool_call_f1":
      // With a decoder the predicted calls are decoded from each "output".
      return everyRowHas(inp.expected, "tool_calls") &&
          everyRowHas(inp.outputs, inp.decoder ? "output" : "tool_calls")
        ? undefined
        : "tool_calls";
    case "api_call_success_rate":
      return everyRowHas(inp.outputs, "api_results") ? undefined : "api_results";
    case "instruction_compliance_rate":
    case "constraint_satisfaction_rate":
      return everyRowHas(inp.outputs, "checks") ? undefined : "checks";
    case "instruction_retention":
      return everyRowHas(inp.outputs, "retention") ? undefined : "retention";
  }
}

function needText(needs: StructuredNeed, decoded: boolean): string {
  switch (needs) {
    case "schema":
      return "a schema";
    case "format":
      return "a format";
    case "output":
      return 'an "output" on every row';
    case "expected_fields":
      return 'expected rows with "fields", and "output" fields';
    case "tool_calls":
      return decoded ? '"tool_calls" in the expected rows, and "output" fields' : (
        '"tool_calls" on both sides'
      );
    default:
      return `"${needs}" fields`;
  }
}

/** Where `file` first lacks `key`: its first row without it, or that it has no rows. */
function lackingAt(file: Loaded | undefined, key: string): Lack | undefined {
  if (file === undefined) return undefined;
  if (file.size === 0) return { file: file.name, at: `${file.name} has no rows` };
  const column = file.columns.get(key);
  for (let i = 0; i < file.size; i++) {
    if (column?.has(i)) continue;
    const id = file.ids[i];
    return {
      file: file.name,
      at: `${file.name}:${file.lines[i]}${
        id === undefined ? "" : ` (id ${JSON.stringify(id)})`
      } has no "${key}"`,
    };
  }
  return undefined;
}

/** A file that lacks what a metric needs, and where (a row, or that it has no rows). */
interface Lack {
  file: string;
  at: string;
}

/** Where the inputs first lack what a metric `needs` (the expected rows before the outputs). */
function missingAt(inp: MetricInputs, needs: StructuredNeed): Lack | undefined {
  switch (needs) {
    case "schema":
    case "format":
      return undefined;
    case "expected_fields":
      return lackingAt(inp.expected, "fields") ?? lackingAt(inp.outputs, "output");
    case "tool_calls":
      return lackingAt(inp.expected, "tool_calls") ??
        lackingAt(inp.outputs, inp.decoder ? "output" : "tool_calls");
    default:
      return lackingAt(inp.outputs, needs);
  }
}

/**
 * Each metric not in `chosen` and what it needs that the inputs lack, with the file that lacks it
 * first and where.
 */
export function skippedMetrics(
  inp: MetricInputs,
  chosen: readonly StructuredMetric[],
): StructuredSkip[] {
  return STRUCTURED_METRICS.filter((m) => !chosen.includes(m)).flatMap((metric) => {
    const needs = need(inp, metric);
    return needs === undefined ? [] : [{ metric, needs, ...missingAt(inp, needs) }];
  });
}

/**
 * The metrics to compute: those asked for, in their order (once each), or every metric the
 * inputs allow.
 *
 * @throws {StructuredMetricError} For an unknown metric, one asked for that the inputs do not
 *   allow, or none allowed.
 */
export function chooseMetrics(
  inp: MetricInputs,
  asked: readonly string[] | undefined,
): StructuredMetric[] {
  if (asked === undefined) {
    const metrics = STRUCTURED_METRICS.filter((m) => need(inp, m) === undefined);
    if (metrics.length === 0) {
      const where = inp.outputs.size === 0 ? `${inp.outputs.name} has no rows` : undefined;
      throw new StructuredMetricError(
        `No metric can be computed from these inputs${where ? `: ${where}` : ""}`,
        "none",
        undefined,
        undefined,
        where,
      );
    }
    return metrics;
  }
  const metrics: StructuredMetric[] = [];
  for (const name of asked) {
    if (!(STRUCTURED_METRICS as readonly string[]).includes(name)) {
      throw new StructuredMetricError(
        `Unknown metric "${name}" (metrics: ${STRUCTURED_METRICS.join(", ")})`,
        "unknown",
        name,
      );
    }
    const m = name as StructuredMetric;
    const missing = need(inp, m);
    if (missing) {
      const where = missingAt(inp, missing)?.at;
      throw new StructuredMetricError(
        `Metric ${m} needs ${needText(missing, inp.decoder !== undefined)}${
          where ? `: ${where}` : ""
        }`,
        "unavailable",
        m,
        missing,
        where,
      );
    }
    if (!metrics.includes(m)) metrics.push(m);
  }
  return metrics;
}
