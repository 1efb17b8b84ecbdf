// Each metric of scoreStructuredJsonl on each output row alone, and its totals. A bad field is
// refused at its row: the metrics of @assay/assay/structured number the examples of their call,
// here only that row. A row's inputs are read from its canonical texts when its figures are
// computed, and dropped after; the totals are the rows' results added up (_totals.ts), so no
// metric's inputs are ever held for every row at once.
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
  LinearRegex,
  requiredFieldAccuracy,
  type RetentionConversation,
  toolArgumentAccuracy,
  toolCallF1,
  type ToolCallsEntry,
  toolSelectionAccuracy,
} from "../structured/mod.ts";
import { xmlValidity } from "../xml/mod.ts";
import type { StructuredMetric, StructuredMetricResult } from "./report/mod.ts";
import type { MetricInputs } from "./_metrics.ts";
import { Totals } from "./_totals.ts";
import type { ScoreStructuredJsonlOptions } from "./score_structured_jsonl.ts";
import { type Predicted, rowReasons, undecoded } from "./_reasons.ts";
import {
  expectedFields,
  outputText,
  rowAt,
  rowError,
  toolCallsField,
  valueField,
} from "./_rows.ts";

function oneOf<T extends string>(name: string, value: T | undefined, allowed: readonly T[]): T {
  const v = value ?? allowed[0]!;
  if (!allowed.includes(v)) {
    throw new RangeError(`Unknown ${name} ${JSON.stringify(v)}: expected ${allowed.join(", ")}`);
  }
  return v;
}

/**
 * Checks the options of how rows are scored (`mode`, `numbers`, `match`, `metrics`, `format`),
 * before any is read; returns the first three, defaults filled in.
 */
export function checkScoringOptions(options: ScoreStructuredJsonlOptions): {
  mode: ExtractionMode;
  numbers: "exact" | "numeric";
  match: "exact" | "name" | "subset";
} {
  const mode = oneOf("mode", options.mode, ["strict", "fenced", "lenient"]);
  const numbers = oneOf("numbers", options.numbers, ["exact", "numeric"]);
  const match = oneOf("match", options.match, ["exact", "name", "subset"]);
  if (options.metrics !== undefined && !Array.isArray(options.metrics)) {
    throw new TypeError("Option metrics must be an array of metric names");
  }
  if (options.metrics?.length === 0) {
    // An empty report would read as a score.
    throw new RangeError("Option metrics names no metric: leave it out for every metric");
  }
  if (options.format !== undefined) {
    // A RegExp object failed inside the regex reader ("this.src.charCodeAt is not a function").
    if (typeof options.format !== "string") {
      throw new TypeError("Option format must be a regex's source text, a string");
    }
    new LinearRegex(options.format);
  }
  return { mode, numbers, match };
}

/**
 * Checks the decoder option: left out, or a call decoder (getDecoder's). A name or forScoring's
 * decoder is a TypeError naming the option, as engineOf's, not an error blamed on the first row.
 */
export function checkCallDecoder(decoder: unknown): void {
  const d = Object(decoder);
  if (decoder !== undefined && typeof d.decode != "function") {
    const type = decoder === null ? "null" : typeof decoder;
    throw new TypeError(
      "decoder must be a call decoder from getDecoder(name), got " +
        (d.predict
          ? `a scoring decoder from forScoring(); pass getDecoder(${
            JSON.stringify(/^(.+)@/.exec(String(d.id))?.[1]) ?? "name"
          })`
          : type === "null"
          ? type
          : `a${type === "object" ? "n" : ""} ${type}`),
    );
  }
}

/** One number of each row: counts (whole numbers below 2^32) in four bytes, else eight. */
export class RowNumbers {
  #values: Uint32Array | Float64Array;

  constructor(n: number) {
    this.#values = new Uint32Array(n);
  }

  set(i: number, v: number): void {
    if (this.#values instanceof Uint32Array && (v >>> 0 !== v || Object.is(v, -0))) {
      this.#values = Float64Array.from(this.#values);
    }
    this.#values[i] = v;
  }

  get(i: number): number {
    return this.#values[i]!;
  }
}

/** Each row's numerator and denominator of one metric. */
export interface Figures {
  metric: StructuredMetric;
  numerators: RowNumbers;
  denominators: RowNumbers;
}

/**
 * What {@linkcode computeMetrics} gives: the totals, each row's figures, the decode statuses and
 * the reasons of the rows with invalid predicted calls.
 */
export interface Computed {
  results: Partial<Record<StructuredMetric, StructuredMetricResult>>;
  /** Each metric's figures on each row, in the metrics' order. */
  figures: Figures[];
  statuses: Record<string, number>;
  /** Why the predicted calls of a row (by its index) are invalid, for the rows that have one. */
  reasons: Map<number, readonly string[]>;
}

/** The inputs the metrics take of one row (as lists of one). */
interface Selection {
  /** The output row's index, in a list of one. */
  rows: number[];
  texts(): string[];
  exp(): ToolCallsEntry[];
  pred(): unknown[];
}

/** The inputs read from every row, which are checked on every row when first needed. */
type Column = "texts" | "exp" | "pred";

/**
 * Computes each metric on each output row alone, and its totals: the rows' results added up.
 *
 * @throws {StructuredInputError} At the row of a missing or mistyped field, or of a value a
 *   metric refuses (an expected value at its row of the expected file).
 */
export function computeMetrics(inp: MetricInputs, metrics: StructuredMetric[]): Computed {
  const { outputs, expected, joined, decoder, engine, mode } = inp;
  const n = outputs.size;
  const out = (i: number) => rowAt(outputs, i);
  const exp = (i: number) => rowAt(expected!, joined![i]!);
  const text = (i: number) => outputText(outputs, out(i));
  const expCalls = (i: number) => toolCallsField(expected!, exp(i), "tool_calls") as ToolCallsEntry;
  const statuses: Record<string, number> = {};
  function predCalls(i: number, text: () => string): Predicted {
    if (decoder === undefined) {
      const row = out(i);
      const listed = row.fields.get("tool_calls")?.kind === "array";
      return { calls: toolCallsField(outputs, row, "tool_calls", true), listed };
    }
    // A call's arguments are canonical JSON text, which the metrics read exactly; an output that
    // does not decode counts as one invalid predicted call.
    const d = decoder.decode(text(), { engine });
    statuses[d.status] = (statuses[d.status] ?? 0) + 1;
    return d.status === "ok" ? { calls: d.calls } : {
      calls: [null],
      undecoded: undecoded(d.status, d.reason),
    };
  }
  const withEngine = { engine };
  const field = (key: string) => (i: number) => valueField(outputs, out(i), key);
  function compute(m: StructuredMetric, s: Selection): StructuredMetricResult {
    switch (m) {
      case "json_validity":
        return jsonValidity(s.texts(), { mode, ...withEngine });
      case "json_schema_compliance":
        return jsonSchemaCompliance(s.texts(), inp.schema!(), { mode, ...withEngine });
      case "extra_content_rate":
        return extraContentRate(s.texts(), withEngine);
      case "required_field_accuracy":
        return requiredFieldAccuracy(
          s.rows.map((i) => expectedFields(expected!, exp(i))),
          s.texts(),
          { mode, numbers: inp.numbers, valuesAsJson: true, ...withEngine },
        );
      case "xml_validity":
        return xmlValidity(s.texts());
      case "format_compliance":
        return formatCompliance(s.texts(), inp.format!);
      case "tool_selection_accuracy":
        return toolSelectionAccuracy(s.exp(), s.pred(), { ordered: inp.ordered, ...withEngine });
      case "tool_argument_accuracy":
        // `match: "name"` ignores arguments, which argument accuracy cannot: it stays exact.
        return toolArgumentAccuracy(s.exp(), s.pred(), {
          match: inp.match === "subset" ? "subset" : "exact",
          ...withEngine,
        });
      case "tool_call_f1":
        return toolCallF1(s.exp(), s.pred(), { match: inp.match, ...withEngine });
      case "api_call_success_rate":
        return apiCallSuccessRate(
          s.rows.flatMap((i) => {
            const v = valueField(outputs, out(i), "api_results");
            return (Array.isArray(v) ? v : [v]) as ApiCallResult[];
          }),
        );
      case "instruction_compliance_rate":
        return instructionComplianceRate(s.rows.map(field("checks")) as boolean[][]);
      case "constraint_satisfaction_rate":
        return constraintSatisfactionRate(s.rows.map(field("checks")) as boolean[][]);
      case "instruction_retention":
        return instructionRetention(s.rows.map(field("retention")) as RetentionConversation[]);
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
        requiredFieldAccuracy([expectedFields(expected, exp(i))], ["{}"], {
          valuesAsJson: true,
          ...withEngine,
        });
      } else if (m.startsWith("tool_")) toolCallF1([expCalls(i)], [[]], withEngine);
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
    const listed = expected !== undefined &&
      exp(i).fields.get("tool_calls")?.kind === "array";
    const message = e.message
      .replace(/^checks\[0\]/, 'field "checks"')
      .replace(/^conversations\[0\]/, 'field "retention"')
      .replace(/^Result (\d+)/, 'field "api_results"[$1]')
      .replace(/^Expected call (\d+)/, listed ? 'field "tool_calls"[$1]' : 'field "tool_calls"')
      .replace(/ of example 0\b/, "")
      .replace(/ at index 0\b/, "");
    const [file, row] = ofExpected ? [expected!, exp(i)] : [outputs, out(i)];
    return rowError(file, row, `${m}: ${message}`, { metric: m, cause: e });
  }

  // Each column is checked on every row when a metric first needs it, as when it was read whole
  // then: its first bad row is refused before any metric refuses a later field of row 0. The
  // predicted calls refuse nothing (a value that is no call is an invalid call); decoded, they
  // read the outputs.
  const checked = new Set<Column>();
  function check(c: Column): void {
    if (checked.has(c)) return;
    checked.add(c);
    if (c === "pred" && decoder !== undefined) check("texts");
    for (let i = 0; i < n && c !== "pred"; i++) {
      if (c === "texts") text(i);
      else expCalls(i);
    }
  }

  const figures: Figures[] = metrics.map((metric) => ({
    metric,
    numerators: new RowNumbers(n),
    denominators: new RowNumbers(n),
  }));
  const totals = metrics.map((m) => new Totals(m));
  const reasons = new Map<number, readonly string[]>();
  for (let i = 0; i < n; i++) {
    let t: string | undefined;
    let e: ToolCallsEntry | undefined;
    let p: Predicted | undefined;
    const texts = () => (check("texts"), [t ??= text(i)]);
    const one: Selection = {
      rows: [i],
      texts,
      exp: () => (check("exp"), [e ??= expCalls(i)]),
      pred: () => (check("pred"), [(p ??= predCalls(i, () => texts()[0]!)).calls]),
    };
    for (const [k, f] of figures.entries()) {
      let r: StructuredMetricResult;
      try {
        r = compute(f.metric, one);
      } catch (e) {
        throw refusal(e, f.metric, i);
      }
      f.numerators.set(i, r.numerator);
      f.denominators.set(i, r.denominator);
      totals[k]!.add(r);
      // A tool metric counts the row's invalid predicted calls: the row says why, once.
      const invalid = (r.details as { invalidCalls?: number } | undefined)?.invalidCalls;
      if (p !== undefined && invalid !== undefined && invalid > 0 && !reasons.has(i)) {
        // Frozen: the report's rows hand out this list, which its bytes are made from too.
        reasons.set(i, Object.freeze(rowReasons(p, decoder !== undefined, engine)));
      }
    }
  }

  // Each metric's totals: its rows' results added up, as its function adds its examples (which
  // tests/structured_jsonl/totals_test.ts checks against the function on whole batches).
  const results: Computed["results"] = {};
  for (const [k, m] of metrics.entries()) results[m] = totals[k]!.result();
  return { results, figures, statuses, reasons };
}
