// Which metrics the inputs of scoreStructuredJsonl allow, and each one's totals and per-row
// figures. The rows' figures come first, so that a bad field is refused at its row: the metrics
// of @assay/assay/structured number the examples of their call, here only that row.
import type { Engine } from "../engine/mod.ts";
import type { CompiledSchema } from "../json_schema/mod.ts";
import {
  type ApiCallResult,
  apiCallSuccessRate,
  constraintSatisfactionRate,
  extraContentRate,
  type ExtractionMode,
  formatCompliance,
  instructionComplianceRate,
  instructionRetention,
  jsonSchemaCompliance,
  jsonValidity,
  requiredFieldAccuracy,
  type RetentionConversation,
  toolArgumentAccuracy,
  toolCallF1,
  type ToolCallsEntry,
  toolSelectionAccuracy,
} from "../structured/mod.ts";
import { xmlValidity } from "../xml/mod.ts";
import { StructuredMetricError, type StructuredNeed } from "./errors.ts";
import type { StructuredCallDecoder } from "./score_structured_jsonl.ts";
import {
  STRUCTURED_METRICS,
  type StructuredMetric,
  type StructuredMetricResult,
  type StructuredReportRow,
} from "./report.ts";
import {
  expectedFields,
  type Loaded,
  type Row,
  rowError,
  stringField,
  toolCallsField,
  valueField,
} from "./_rows.ts";

/** What the metrics read: the rows, joined, and the options. */
export interface MetricInputs {
  outputs: Loaded;
  expected: Loaded | undefined;
  /** The expected row of each output row. */
  joined: Row[] | undefined;
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

function has(file: Loaded | undefined, key: string): boolean {
  return file !== undefined && file.rows.length > 0 && file.rows.every((r) => r.fields.has(key));
}

/** What metric `m` needs that the inputs lack, if anything. */
function need(inp: MetricInputs, m: StructuredMetric): StructuredNeed | undefined {
  const output = has(inp.outputs, "output") ? undefined : "output";
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
      return has(inp.expected, "fields") && output === undefined ? undefined : "expected_fields";
    case "tool_selection_accuracy":
    case "tool_argument_accuracy":
    case "tool_call_f1":
      // With a decoder the predicted calls are decoded from each "output".
      return has(inp.expected, "tool_calls") &&
          has(inp.outputs, inp.decoder ? "output" : "tool_calls")
        ? undefined
        : "tool_calls";
    case "api_call_success_rate":
      return has(inp.outputs, "api_results") ? undefined : "api_results";
    case "instruction_compliance_rate":
    case "constraint_satisfaction_rate":
      return has(inp.outputs, "checks") ? undefined : "checks";
    case "instruction_retention":
      return has(inp.outputs, "retention") ? undefined : "retention";
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
      throw new StructuredMetricError("No metric can be computed from these inputs", "none");
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
      throw new StructuredMetricError(
        `Metric ${m} needs ${needText(missing, inp.decoder !== undefined)}`,
        "unavailable",
        m,
        missing,
      );
    }
    if (!metrics.includes(m)) metrics.push(m);
  }
  return metrics;
}

/** A value computed on first use and kept. */
function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}

/** What {@linkcode computeMetrics} gives: the totals, each row's figures, the decode statuses. */
export interface Computed {
  results: Partial<Record<StructuredMetric, StructuredMetricResult>>;
  rows: StructuredReportRow[];
  statuses: Record<string, number>;
}

/**
 * Computes each metric on each output row alone, then on all of them.
 *
 * @throws {StructuredInputError} At the row of a missing or mistyped field, or of a value a
 *   metric refuses (an expected value at its row of the expected file).
 */
export function computeMetrics(inp: MetricInputs, metrics: StructuredMetric[]): Computed {
  const { outputs, expected, joined, decoder, engine, mode } = inp;
  // Each field is read once, by the first metric that needs it.
  const texts = once(() => outputs.rows.map((r) => stringField(outputs, r, "output")));
  const exp = once(() =>
    joined!.map((r) => toolCallsField(expected!, r, "tool_calls") as ToolCallsEntry)
  );
  const statuses: Record<string, number> = {};
  const pred = once(() =>
    decoder === undefined
      ? outputs.rows.map((r) => toolCallsField(outputs, r, "tool_calls", true))
      : texts().map((text) => {
        // A call's arguments are canonical JSON text, which the metrics read exactly; an output
        // that does not decode counts as one invalid predicted call.
        const d = decoder.decode(text, { engine });
        statuses[d.status] = (statuses[d.status] ?? 0) + 1;
        return d.status === "ok" ? d.calls : [null];
      })
  );
  const withEngine = { engine };
  // The rows each metric reads: all of them, or (for the per-example rows) the one at `only`.
  let only: number | undefined;
  function sel<T>(all: T[]): T[] {
    return only === undefined ? all : [all[only]!];
  }
  const field = (key: string) => (row: Row) => valueField(outputs, row, key);
  function compute(m: StructuredMetric): StructuredMetricResult {
    switch (m) {
      case "json_validity":
        return jsonValidity(sel(texts()), { mode, ...withEngine });
      case "json_schema_compliance":
        return jsonSchemaCompliance(sel(texts()), inp.schema!(), { mode, ...withEngine });
      case "extra_content_rate":
        return extraContentRate(sel(texts()), withEngine);
      case "required_field_accuracy":
        return requiredFieldAccuracy(
          sel(joined!).map((row) => expectedFields(expected!, row)),
          sel(texts()),
          { mode, numbers: inp.numbers, valuesAsJson: true, ...withEngine },
        );
      case "xml_validity":
        return xmlValidity(sel(texts()));
      case "format_compliance":
        return formatCompliance(sel(texts()), inp.format!);
      case "tool_selection_accuracy":
        return toolSelectionAccuracy(sel(exp()), sel(pred()), {
          ordered: inp.ordered,
          ...withEngine,
        });
      case "tool_argument_accuracy":
        // `match: "name"` ignores arguments, which argument accuracy cannot: it stays exact.
        return toolArgumentAccuracy(sel(exp()), sel(pred()), {
          match: inp.match === "subset" ? "subset" : "exact",
          ...withEngine,
        });
      case "tool_call_f1":
        return toolCallF1(sel(exp()), sel(pred()), { match: inp.match, ...withEngine });
      case "api_call_success_rate":
        return apiCallSuccessRate(
          sel(outputs.rows).flatMap((row) => {
            const v = valueField(outputs, row, "api_results");
            return (Array.isArray(v) ? v : [v]) as ApiCallResult[];
          }),
        );
      case "instruction_compliance_rate":
        return instructionComplianceRate(sel(outputs.rows).map(field("checks")) as boolean[][]);
      case "constraint_satisfaction_rate":
        return constraintSatisfactionRate(sel(outputs.rows).map(field("checks")) as boolean[][]);
      case "instruction_retention":
        return instructionRetention(
          sel(outputs.rows).map(field("retention")) as RetentionConversation[],
        );
    }
  }

  /**
   * Whether metric `m` refuses row `i`'s expected value alone, scored against no output: the
   * expected side is then at fault, whatever the message says.
   */
  function refusesExpected(m: StructuredMetric, i: number): boolean {
    if (expected === undefined) return false;
    try {
      if (m === "required_field_accuracy") {
        requiredFieldAccuracy([expectedFields(expected, joined![i]!)], ["{}"], {
          valuesAsJson: true,
          ...withEngine,
        });
      } else if (m.startsWith("tool_")) toolCallF1([exp()[i]!], [[]], withEngine);
      else return false;
    } catch (e) {
      return e instanceof TypeError || e instanceof RangeError;
    }
    return false;
  }

  /**
   * A metric's TypeError or RangeError on row `i` alone, as a StructuredInputError at that row
   * of the outputs, or of the expected file when the expected value alone is refused. The
   * metric numbers the examples of its call, here only this one: the index goes, and the field
   * is named, its items indexed as `field "x"[k]`.
   */
  function refusal(e: unknown, m: StructuredMetric, i: number): unknown {
    if (!(e instanceof TypeError || e instanceof RangeError)) return e;
    const ofExpected = refusesExpected(m, i);
    // One call given alone, not in a list, is the field itself.
    const listed = joined?.[i]?.fields.get("tool_calls")?.kind === "array";
    const message = e.message
      .replace(/^checks\[0\]/, 'field "checks"')
      .replace(/^conversations\[0\]/, 'field "retention"')
      .replace(/^Result (\d+)/, 'field "api_results"[$1]')
      .replace(/^Expected call (\d+)/, listed ? 'field "tool_calls"[$1]' : 'field "tool_calls"')
      .replace(/ of example 0\b/, "")
      .replace(/ at index 0\b/, "");
    const [file, row] = ofExpected ? [expected!, joined![i]!] : [outputs, outputs.rows[i]!];
    return rowError(file, row, `${m}: ${message}`, { metric: m, cause: e });
  }

  const rows = outputs.rows.map((row, i): StructuredReportRow => {
    only = i;
    const figures: StructuredReportRow["metrics"] = {};
    for (const m of metrics) {
      let r: StructuredMetricResult;
      try {
        r = compute(m);
      } catch (e) {
        throw refusal(e, m, i);
      }
      figures[m] = { numerator: r.numerator, denominator: r.denominator };
    }
    return { line: row.line, id: row.id ?? null, metrics: figures };
  });
  // Every row passed each metric alone: all of them together pass too.
  only = undefined;
  const results: Computed["results"] = {};
  for (const m of metrics) results[m] = compute(m);
  return { results, rows, statuses };
}
