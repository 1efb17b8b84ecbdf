// `assay structured`: structured-output, tool and instruction metrics over a JSONL of outputs.
import { engineFromFlag, parseOptions } from "./_options.ts";
import { InputError, quote, UsageError } from "./_errors.ts";
import * as nodeCrypto from "node:crypto";
import { writeAtomic } from "./_atomic.ts";
import { checkPaths, reportKind } from "./_paths.ts";
import { rate, table } from "./_table.ts";
import { decodeCanonicalString, type ExactField, readExactObject } from "../src/engine/mod.ts";
import { materialize, parseJson } from "../src/engine/mod.ts";
import { canonicalLiteral, lookupCanonical } from "../src/structured/mod.ts";
import { decodeUtf8, formatLocation, LineSplitter } from "../src/jsonl/mod.ts";
import { TOOL } from "../src/engine/mod.ts";
import type { MetricValue } from "../src/stats/mod.ts";
import {
  extraContentRate,
  type ExtractionMode,
  jsonSchemaCompliance,
  jsonValidity,
  requiredFieldAccuracy,
} from "../src/structured/mod.ts";
import { compileSchema, SchemaError } from "../src/json_schema/mod.ts";
import { xmlValidity } from "../src/xml/mod.ts";
import {
  type ApiCallResult,
  apiCallSuccessRate,
  toolArgumentAccuracy,
  toolCallF1,
  type ToolCallsEntry,
  toolSelectionAccuracy,
} from "../src/structured/mod.ts";
import {
  constraintSatisfactionRate,
  formatCompliance,
  instructionComplianceRate,
  instructionRetention,
  LinearRegex,
  type RetentionConversation,
} from "../src/structured/mod.ts";
import type { Engine } from "../src/engine/mod.ts";
import { printableText } from "../src/explain/mod.ts";
import { type DecodeStatus, getDecoder, type ToolCallDecoder } from "../src/formats/mod.ts";

const HELP =
  `Usage: deno task assay structured --outputs O.jsonl [--schema S.json] [--expected E.jsonl]
                                   [--metrics NAME,...] [--mode strict|fenced|lenient] [options]

Scores structured outputs, tool calls and instruction checks. Each line of O.jsonl is an object:

  {"id": "q1", "output": "<raw model output>",          // JSON, XML and format metrics
   "tool_calls": [{"name": ..., "arguments": {...}}],    // predicted calls (arguments may be a JSON string)
   "api_results": [200, true, {"error": "timeout"}],     // outcomes of the calls that were made
   "checks": [true, false],                              // pass/fail of each verifiable instruction
   "retention": [true, [true, false]]}                   // multi-turn: first turn, then later turns

Lines of E.jsonl give what was expected, joined by "id" (or "example_id"; by line order when
neither file has ids). An id names one line of a file, with or without --expected:

  {"id": "q1", "fields": {"answer": 18, "user.name": "Ada"},   // required_field_accuracy
   "tool_calls": [{"name": "search", "arguments": {"q": "x"}}]} // tool_* metrics

Metrics (default: every metric the inputs allow):
  json_validity, json_schema_compliance (needs --schema), extra_content_rate,
  required_field_accuracy (needs --expected fields), xml_validity, format_compliance (needs --format),
  tool_selection_accuracy, tool_argument_accuracy, tool_call_f1 (need tool_calls on both sides),
  api_call_success_rate, instruction_compliance_rate, constraint_satisfaction_rate,
  instruction_retention

Options:
  --outputs FILE        the outputs JSONL (required; '-' for stdin)
  --expected FILE       the expected JSONL
  --schema FILE         a JSON Schema (draft 2020-12) for json_schema_compliance
  --format REGEX        the format an output must fully match (linear-time engine, ECMAScript syntax)
  --metrics LIST        comma-separated metric names
  --mode MODE           where JSON is found: strict (default), fenced or lenient
  --format-assertion    make the schema's "format" keyword assert instead of annotate
  --numbers MODE        required fields: exact (default; 1 and 1.0 differ) or numeric
  --ordered             tool selection compares names in order, not as a multiset
  --match MODE          tool-call matching: exact (default), name or subset
  --call-format NAME    read the predicted calls of the tool_* metrics from each "output" with
                        this decoder (sommelier, openai-chat, openai-responses, anthropic, hermes,
                        llama3, mistral, pythonic, json-list; see docs/formats.md) instead of
                        from "tool_calls"; an output that does not decode is one invalid call
  --engine NAME         auto (default), wasm or ts
  --out FILE            write the assay.structured.v1 report to FILE (atomically); FILE may
                        not be an input, and an existing FILE must be such a report (or empty)
  --force               let --out replace a file that is not a structured report
  --json                print the report to stdout instead of the table
  --quiet               no notes on stderr
  -h, --help            show this help

Exit codes: 0 on success, 2 on bad usage or bad input, 1 on an internal error.
`;

/** Every metric the command knows, in report order. */
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
type StructuredMetric = (typeof STRUCTURED_METRICS)[number];

interface Row {
  line: number;
  id: string | undefined;
  fields: Map<string, ExactField>;
}

interface Loaded {
  name: string;
  rows: Row[];
  sha256: string;
  /** Rows whose model output held invalid UTF-8, read with U+FFFD replacements. */
  invalidUtf8: number;
}

async function readAllBytes(path: string): Promise<{ name: string; bytes: Uint8Array }> {
  if (path === "-") {
    return {
      name: "<stdin>",
      bytes: new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer()),
    };
  }
  try {
    return { name: path, bytes: await Deno.readFile(path) };
  } catch (e) {
    throw new InputError(`Cannot read ${path}: ${e instanceof Error ? e.message : e}`, {
      cause: e,
    });
  }
}

/**
 * Reads a JSONL file of rows. Invalid UTF-8 is an input error at its line and byte, except inside
 * the string values of `modelFields`, which are model output: read with U+FFFD replacements,
 * and counted.
 */
async function loadRows(path: string, modelFields: readonly string[] = []): Promise<Loaded> {
  const { name, bytes } = await readAllBytes(path);
  const sha256 = nodeCrypto.createHash("sha256").update(bytes).digest("hex");
  const splitter = new LineSplitter({ source: name, modelFields });
  const lines: string[] = [];
  let invalidUtf8 = 0;
  for (const run of [splitter.push(bytes), splitter.end()]) {
    if (!run) continue;
    for (const text of run.texts) lines.push(text);
    invalidUtf8 += run.invalid?.length ?? 0;
  }
  const rows: Row[] = [];
  for (let i = 0; i < lines.length; i++) {
    const lineText = lines[i]!;
    if (lineText.trim() === "") continue;
    const at = { source: name, line: i + 1 };
    const fields = readExactObject(lineText);
    if (fields === null) {
      throw new InputError(`${formatLocation(at)}: expected a JSON object, got ${quote(lineText)}`);
    }
    if (!(fields instanceof Map)) {
      throw new InputError(
        `${formatLocation(at)}: malformed JSON line (${fields.code} at ${fields.offset}): ` +
          quote(lineText),
      );
    }
    let id: string | undefined;
    for (const key of ["id", "example_id"]) {
      const f = fields.get(key);
      if (f === undefined) continue;
      if (f.kind !== "string" && f.kind !== "number") {
        throw new InputError(`${formatLocation(at)}: field "${key}" must be a string or a number`);
      }
      id = f.kind === "string" ? decodeCanonicalString(f.canonical) : f.canonical;
      break;
    }
    rows.push({ line: i + 1, id, fields });
  }
  return { name, rows, sha256, invalidUtf8 };
}

function where(file: Loaded, row: Row): string {
  return formatLocation({
    source: file.name,
    line: row.line,
    ...(row.id !== undefined && { id: row.id }),
  });
}

/**
 * Checks that no id is on two rows of a file (rows without an id are not compared).
 *
 * @throws {InputError} Naming the file, the id and both lines.
 */
function checkUniqueIds(file: Loaded): void {
  const seen = new Map<string, Row>();
  for (const r of file.rows) {
    if (r.id === undefined) continue;
    const prev = seen.get(r.id);
    if (prev) {
      throw new InputError(
        `${file.name}: duplicate id ${JSON.stringify(r.id)} on lines ${prev.line} and ${r.line}`,
      );
    }
    seen.set(r.id, r);
  }
}

/** Pairs expected rows with output rows: by id when the files have ids, else by line order. */
function join(outputs: Loaded, expected: Loaded): Row[] {
  const withIds = outputs.rows.some((r) => r.id !== undefined) ||
    expected.rows.some((r) => r.id !== undefined);
  if (!withIds) {
    if (outputs.rows.length !== expected.rows.length) {
      throw new InputError(
        `${outputs.name} has ${outputs.rows.length} rows and ${expected.rows.length} are expected ` +
          `in ${expected.name}; without ids, rows are joined by line order`,
      );
    }
    return expected.rows;
  }
  for (const file of [outputs, expected]) {
    for (const r of file.rows) {
      if (r.id === undefined) throw new InputError(`${where(file, r)}: missing field "id"`);
    }
    checkUniqueIds(file);
  }
  const byId = new Map(expected.rows.map((r) => [r.id!, r]));
  const missing = outputs.rows.filter((r) => !byId.has(r.id!));
  if (missing.length > 0) {
    throw new InputError(
      `${missing.length} output(s) have no expected row in ${expected.name}: ` +
        missing.slice(0, 5).map((r) => where(outputs, r)).join(", "),
    );
  }
  const outIds = new Set(outputs.rows.map((r) => r.id!));
  const orphans = expected.rows.filter((r) => !outIds.has(r.id!));
  if (orphans.length > 0) {
    throw new InputError(
      `${orphans.length} expected row(s) have no output in ${outputs.name}: ` +
        orphans.slice(0, 5).map((r) => where(expected, r)).join(", "),
    );
  }
  return outputs.rows.map((r) => byId.get(r.id!)!);
}

function stringField(file: Loaded, row: Row, key: string): string {
  const f = row.fields.get(key);
  if (f === undefined) throw new InputError(`${where(file, row)}: missing field "${key}"`);
  if (f.kind !== "string") {
    throw new InputError(`${where(file, row)}: field "${key}" must be a string`);
  }
  return decodeCanonicalString(f.canonical);
}

// Tool calls keep their arguments exact: an object becomes its canonical JSON text.
function toolCallsField(file: Loaded, row: Row, key: string): unknown[] {
  const f = row.fields.get(key);
  if (f === undefined) throw new InputError(`${where(file, row)}: missing field "${key}"`);
  if (f.kind !== "array" && f.kind !== "object") {
    throw new InputError(`${where(file, row)}: field "${key}" must be a call or a list of calls`);
  }
  const value = materialize(f.canonical);
  const calls = Array.isArray(value) ? value : [value];
  const prefix = Array.isArray(value) ? (i: number) => [String(i)] : () => [];
  return calls.map((call, i) => {
    if (typeof call !== "object" || call === null || Array.isArray(call)) return call;
    const c = call as Record<string, unknown>;
    const fn = c.function;
    const inner = typeof fn === "object" && fn !== null && !Array.isArray(fn);
    const path = [...prefix(i), ...(inner ? ["function"] : []), "arguments"];
    const args = (inner ? (fn as Record<string, unknown>) : c).arguments;
    if (typeof args !== "object" || args === null) return call;
    const exact = lookupCanonical(f.canonical, path, path.map(canonicalLiteral));
    const copy = { ...(inner ? (fn as Record<string, unknown>) : c), arguments: exact };
    return inner ? { ...c, function: copy } : copy;
  });
}

function valueField(file: Loaded, row: Row, key: string): unknown {
  const f = row.fields.get(key);
  if (f === undefined) throw new InputError(`${where(file, row)}: missing field "${key}"`);
  return materialize(f.canonical);
}

// Expected fields as exact JSON texts.
function expectedFields(file: Loaded, row: Row): Record<string, string> {
  const f = row.fields.get("fields");
  if (f === undefined) throw new InputError(`${where(file, row)}: missing field "fields"`);
  if (f.kind !== "object") {
    throw new InputError(`${where(file, row)}: field "fields" must be an object of dotted paths`);
  }
  const out: Record<string, string> = {};
  const obj = materialize(f.canonical) as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    Object.defineProperty(out, key, {
      value: lookupCanonical(f.canonical, [key], [canonicalLiteral(key)]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

type Result = MetricValue & { details?: unknown };

/** A value computed on first use and kept. */
function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}

/** Runs `assay structured`. */
export async function runStructured(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, {
    outputs: { type: "string" },
    expected: { type: "string" },
    schema: { type: "string" },
    format: { type: "string" },
    metrics: { type: "string" },
    mode: { type: "string" },
    "format-assertion": { type: "boolean" },
    numbers: { type: "string" },
    ordered: { type: "boolean" },
    match: { type: "string" },
    "call-format": { type: "string" },
    engine: { type: "string" },
    out: { type: "string" },
    force: { type: "boolean" },
    json: { type: "boolean" },
    quiet: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
  if (!values.outputs) throw new UsageError("--outputs is required");
  const mode = (values.mode ?? "strict") as ExtractionMode;
  if (!["strict", "fenced", "lenient"].includes(mode)) {
    throw new UsageError(`--mode must be strict, fenced or lenient (got "${values.mode}")`);
  }
  const numbers = (values.numbers ?? "exact") as "exact" | "numeric";
  if (numbers !== "exact" && numbers !== "numeric") {
    throw new UsageError(`--numbers must be exact or numeric (got "${numbers}")`);
  }
  const match = (values.match ?? "exact") as "exact" | "name" | "subset";
  if (match !== "exact" && match !== "name" && match !== "subset") {
    throw new UsageError(`--match must be exact, name or subset (got "${match}")`);
  }
  let decoder: ToolCallDecoder | undefined;
  if (values["call-format"] !== undefined) {
    try {
      decoder = getDecoder(values["call-format"]);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      throw new UsageError(`--call-format: ${e.message}`);
    }
  }
  if (values.format !== undefined) {
    try {
      new LinearRegex(values.format);
    } catch (e) {
      if (!(e instanceof SyntaxError || e instanceof RangeError)) throw e;
      throw new UsageError(`--format ${quote(values.format)}: ${e.message}`);
    }
  }
  checkPaths(
    [
      ["--outputs", values.outputs],
      ["--expected", values.expected],
      ["--schema", values.schema],
    ],
    [{ flag: "--out", path: values.out, kind: reportKind("assay.structured.v1") }],
    { force: values.force },
  );
  const engine: Engine = engineFromFlag(values.engine, values.quiet === true);

  const outputs = await loadRows(values.outputs, ["output"]);
  const expected = values.expected === undefined ? undefined : await loadRows(values.expected);
  // The report's rows are keyed by id, joined or not: an id may name one row only.
  if (!expected) checkUniqueIds(outputs);
  const joined = expected ? join(outputs, expected) : undefined;
  let schemaText: string | undefined;
  let schema: unknown;
  if (values.schema !== undefined) {
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(values.schema);
    } catch (e) {
      throw new InputError(`Cannot read ${values.schema}: ${e instanceof Error ? e.message : e}`);
    }
    schemaText = decodeUtf8(bytes, values.schema);
    try {
      schema = parseJson(schemaText);
    } catch (e) {
      throw new InputError(
        `${values.schema}: not valid JSON (${e instanceof Error ? e.message : e})`,
      );
    }
  }

  const has = (file: Loaded | undefined, key: string) =>
    file !== undefined && file.rows.length > 0 && file.rows.every((r) => r.fields.has(key));
  // With --call-format the predicted calls are decoded from each "output".
  const toolNeeds = () =>
    has(expected, "tool_calls") && has(outputs, decoder ? "output" : "tool_calls")
      ? undefined
      : decoder
      ? 'tool_calls in --expected and "output" fields'
      : "tool_calls on both sides";
  const needs: Record<StructuredMetric, () => string | undefined> = {
    json_validity: () => has(outputs, "output") ? undefined : 'an "output" on every line',
    json_schema_compliance: () =>
      schema === undefined ? "--schema" : has(outputs, "output") ? undefined : '"output" fields',
    extra_content_rate: () => has(outputs, "output") ? undefined : '"output" fields',
    required_field_accuracy: () =>
      has(expected, "fields") && has(outputs, "output")
        ? undefined
        : '--expected with "fields" and "output" fields',
    xml_validity: () => has(outputs, "output") ? undefined : '"output" fields',
    format_compliance: () =>
      values.format === undefined
        ? "--format"
        : has(outputs, "output")
        ? undefined
        : '"output" fields',
    tool_selection_accuracy: () => toolNeeds(),
    tool_argument_accuracy: () => toolNeeds(),
    tool_call_f1: () => toolNeeds(),
    api_call_success_rate: () => has(outputs, "api_results") ? undefined : '"api_results" fields',
    instruction_compliance_rate: () => has(outputs, "checks") ? undefined : '"checks" fields',
    constraint_satisfaction_rate: () => has(outputs, "checks") ? undefined : '"checks" fields',
    instruction_retention: () => has(outputs, "retention") ? undefined : '"retention" fields',
  };
  let metrics: StructuredMetric[];
  if (values.metrics !== undefined) {
    metrics = [];
    for (const name of values.metrics.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
      if (!(STRUCTURED_METRICS as readonly string[]).includes(name)) {
        throw new UsageError(
          `Unknown metric "${name}" (metrics: ${STRUCTURED_METRICS.join(", ")})`,
        );
      }
      const missing = needs[name as StructuredMetric]();
      if (missing) throw new UsageError(`Metric ${name} needs ${missing}`);
      if (!metrics.includes(name as StructuredMetric)) metrics.push(name as StructuredMetric);
    }
  } else {
    metrics = STRUCTURED_METRICS.filter((m) => needs[m]() === undefined);
    if (metrics.length === 0) {
      throw new UsageError(
        `No metric can be computed from these inputs (see --help for the fields)`,
      );
    }
  }

  // Each field is read once, by the first metric that needs it.
  const texts = once(() => outputs.rows.map((r) => stringField(outputs, r, "output")));
  const exp = once(() =>
    joined!.map((r) => toolCallsField(expected!, r, "tool_calls") as ToolCallsEntry)
  );
  const decodeStatuses: Partial<Record<DecodeStatus, number>> = {};
  const pred = once(() =>
    decoder === undefined
      ? outputs.rows.map((r) => toolCallsField(outputs, r, "tool_calls"))
      : texts().map((text) => {
        // A call's arguments are canonical JSON text, which the metrics read exactly; an output
        // that does not decode counts as one invalid predicted call.
        const d = decoder.decode(text, { engine });
        decodeStatuses[d.status] = (decodeStatuses[d.status] ?? 0) + 1;
        return d.status === "ok" ? d.calls : [null];
      })
  );
  const withEngine = { engine };
  // The rows each metric reads: all of them, or (for the per-example rows) the one at `only`.
  let only: number | undefined;
  function sel<T>(all: T[]): T[] {
    return only === undefined ? all : [all[only]!];
  }
  const compiled = once(() => {
    try {
      return compileSchema(schema, { formatAssertion: values["format-assertion"] === true });
    } catch (e) {
      if (e instanceof SchemaError) throw new InputError(`${values.schema}: ${e.message}`);
      throw e;
    }
  });
  function computeMetric(m: StructuredMetric): Result {
    let r: Result;
    switch (m) {
      case "json_validity":
        r = jsonValidity(sel(texts()), { mode, ...withEngine });
        break;
      case "json_schema_compliance":
        r = jsonSchemaCompliance(sel(texts()), compiled(), { mode, ...withEngine });
        break;
      case "extra_content_rate":
        r = extraContentRate(sel(texts()), withEngine);
        break;
      case "required_field_accuracy":
        r = requiredFieldAccuracy(
          sel(joined!).map((row) => expectedFields(expected!, row)),
          sel(texts()),
          { mode, numbers, valuesAsJson: true, ...withEngine },
        );
        break;
      case "xml_validity":
        r = xmlValidity(sel(texts()));
        break;
      case "format_compliance":
        r = formatCompliance(sel(texts()), values.format!);
        break;
      case "tool_selection_accuracy":
        r = toolSelectionAccuracy(sel(exp()), sel(pred()), {
          ordered: values.ordered === true,
          ...withEngine,
        });
        break;
      case "tool_argument_accuracy":
        // `--match name` ignores arguments, which argument accuracy cannot: it stays exact.
        r = toolArgumentAccuracy(sel(exp()), sel(pred()), {
          match: match === "subset" ? "subset" : "exact",
          ...withEngine,
        });
        break;
      case "tool_call_f1":
        r = toolCallF1(sel(exp()), sel(pred()), { match, ...withEngine });
        break;
      case "api_call_success_rate":
        r = apiCallSuccessRate(
          sel(outputs.rows).flatMap((row) => {
            const v = valueField(outputs, row, "api_results");
            return (Array.isArray(v) ? v : [v]) as ApiCallResult[];
          }),
        );
        break;
      case "instruction_compliance_rate":
        r = instructionComplianceRate(
          sel(outputs.rows).map((row) => valueField(outputs, row, "checks") as boolean[]),
        );
        break;
      case "constraint_satisfaction_rate":
        r = constraintSatisfactionRate(
          sel(outputs.rows).map((row) => valueField(outputs, row, "checks") as boolean[]),
        );
        break;
      case "instruction_retention":
        r = instructionRetention(
          sel(outputs.rows).map((row) =>
            valueField(outputs, row, "retention") as RetentionConversation
          ),
        );
        break;
    }
    return r;
  }

  // Each example's own figures: every metric on that row alone. They come first, so that a bad
  // field is reported at its row: file, line and id.
  const rows = outputs.rows.map((row, i) => {
    only = i;
    const figures: Record<string, { numerator: number; denominator: number }> = {};
    for (const m of metrics) {
      let r: Result;
      try {
        r = computeMetric(m);
      } catch (e) {
        throw rowError(e, m, i);
      }
      figures[m] = { numerator: r.numerator, denominator: r.denominator };
    }
    return { line: row.line, id: row.id ?? null, metrics: figures };
  });
  only = undefined;
  const results: Partial<Record<StructuredMetric, Result>> = {};
  for (const m of metrics) {
    try {
      results[m] = computeMetric(m);
    } catch (e) {
      if (!(e instanceof TypeError || e instanceof RangeError)) throw e;
      // The library names the example's index; say which line of the outputs that is.
      const message = e.message.replace(/index (\d+)/, (all, i) => {
        const row = outputs.rows[Number(i)];
        return row ? `${all} (${where(outputs, row)})` : all;
      });
      throw new InputError(`${m}: ${message}`, { cause: e });
    }
  }

  /**
   * A metric's TypeError or RangeError on row `i` alone, as an InputError at that row of the
   * outputs, or of the expected file when the message is about an expected value. The library
   * numbers the examples of its call, here only this one: the index goes, and the field is named.
   */
  function rowError(e: unknown, m: StructuredMetric, i: number): unknown {
    if (!(e instanceof TypeError || e instanceof RangeError)) return e;
    const ofExpected = expected !== undefined &&
      /^Expected (call|an object of dotted paths|a JSON (text|value) for)\b/.test(e.message);
    const at = ofExpected ? where(expected!, joined![i]!) : where(outputs, outputs.rows[i]!);
    const message = e.message
      .replace(/^checks\[0\]/, 'field "checks"')
      .replace(/^conversations\[0\]/, 'field "retention"')
      .replace(/^Result (\d+)/, 'field "api_results" item $1')
      .replace(/ of example 0\b/, "")
      .replace(/ at index 0\b/, "");
    return new InputError(`${at}: ${m}: ${message}`, { cause: e });
  }

  const report = {
    schema: "assay.structured.v1",
    tool: TOOL,
    engine: engine.name,
    mode,
    inputs: {
      outputs: {
        sha256: outputs.sha256,
        rows: outputs.rows.length,
        invalid_utf8_outputs: outputs.invalidUtf8,
      },
      expected: expected ? { sha256: expected.sha256, rows: expected.rows.length } : null,
      schema: schemaText === undefined
        ? null
        : { sha256: nodeCrypto.createHash("sha256").update(schemaText).digest("hex") },
    },
    n: outputs.rows.length,
    ...(decoder && { call_format: { decoder: decoder.id, statuses: decodeStatuses } }),
    metrics: results,
    rows,
  };
  const text = JSON.stringify(report, null, 2) + "\n";
  if (values.out !== undefined) await writeAtomic(values.out, text);
  if (values.json) {
    console.log(text.trimEnd());
    return;
  }
  const lines = table(["metric", "value (n/d)"], metrics.map((m) => [m, rate(results[m]!)])).split(
    "\n",
  );
  const notes = ["details", "-------", ...metrics.map((m) => summary(results[m]!.details))];
  console.log(
    lines.map((l, i) => `${l.padEnd(lines[1]!.length)}  ${notes[i]}`.trimEnd()).join("\n"),
  );
  const decoded = decoder ? `, calls decoded by ${printableText(decoder.id)}` : "";
  console.log(`\n${outputs.rows.length} outputs, mode ${mode}, engine ${engine.name}${decoded}`);
  if (values.out !== undefined) console.log(`Report written to ${values.out}`);
}

// A one-line summary of a metric's details: counts and nested rates, not per-field tables.
function summary(details: unknown): string {
  if (typeof details !== "object" || details === null) return "";
  const parts: string[] = [];
  for (const [k, v] of Object.entries(details)) {
    if (typeof v === "number") {
      if (v !== 0) parts.push(`${printableText(k)} ${v}`);
    } else if (typeof v === "object" && v !== null && "denominator" in v && "numerator" in v) {
      parts.push(`${printableText(k)} ${rate(v as MetricValue)}`);
    }
  }
  return parts.join(", ");
}
