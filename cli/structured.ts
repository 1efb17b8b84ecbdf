// `assay structured`: structured-output, tool and instruction metrics over a JSONL of outputs.
// The scoring is the library's (scoreStructuredJsonl); this opens the files, reads the flags,
// writes the report and prints.
import { createHash } from "node:crypto";
import { engineFromFlag, oneOf, parseOptions } from "./_options.ts";
import { quote, UsageError } from "./_errors.ts";
import { writeAtomic } from "./_atomic.ts";
import { asDecompressed, inputName, readChunks, readHead, sizeOf } from "./_io.ts";
import { Progress } from "./_progress.ts";
import { checkPaths, reportKind } from "./_paths.ts";
import { rate, table } from "./_table.ts";
import type { Engine } from "../src/engine/mod.ts";
import type { JsonlSource } from "../src/evaluation/mod.ts";
import type { MetricValue } from "../src/stats/mod.ts";
import { type ExtractionMode, LinearRegex } from "../src/structured/mod.ts";
import {
  scoreStructuredJsonlParts,
  STRUCTURED_METRICS,
  StructuredMetricError,
  type StructuredNeed,
  type StructuredReportParts,
  type StructuredSkip,
} from "../src/structured_jsonl/mod.ts";
import { printableText } from "../src/explain/text/mod.ts";
import { getDecoder, suggestDecoder, type ToolCallDecoder } from "../src/formats/mod.ts";

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
neither file has ids). An id names one line of a file, and a file's lines all have an id or
none (then each is named by its line, "line N"), with or without --expected:

  {"id": "q1", "fields": {"answer": 18, "user.name": "Ada"},   // required_field_accuracy
   "tool_calls": [{"name": "search", "arguments": {"q": "x"}}]} // tool_* metrics

"output" may also be a whole JSON response (an object or array, as API clients log it),
read exactly as its canonical JSON text.

A call in "tool_calls" is {"name", "arguments"}, OpenAI's {"type": "function", "function":
{"name", "arguments"}} or an Anthropic {"type": "tool_use", "name", "input"} block ("id"
optional in the last two); a list may be an Anthropic message's "content", whose text,
thinking, redacted_thinking and *_tool_result blocks are no calls.

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
  --quiet               nothing on stderr: no progress bar (shown on a terminal for 8 MiB of
                        inputs and more) and no notes (the engine's fallback, and tool_*
                        metrics left out because the outputs have no "tool_calls" the
                        expected rows have)
  -h, --help            show this help

Exit codes: 0 on success, 2 on bad usage or bad input, 1 on an internal error.
`;

/**
 * A file the library opens and reads once, chunk by chunk (`-` is stdin, but for a schema, which
 * checkPaths refuses to read from stdin).
 */
function fileSource(path: string, onRead?: (bytes: number) => void): JsonlSource {
  return asDecompressed(() => readChunks(path, onRead));
}

/** What a metric needs, in the words of the flags and fields. */
function neededText(needs: StructuredNeed, metric: string | undefined, decoded: boolean): string {
  switch (needs) {
    case "schema":
      return "--schema";
    case "format":
      return "--format";
    case "output":
      return metric === "json_validity" ? 'an "output" on every line' : '"output" fields';
    case "expected_fields":
      return '--expected with "fields" and "output" fields';
    case "tool_calls":
      return decoded ? 'tool_calls in --expected and "output" fields' : "tool_calls on both sides";
    default:
      return `"${needs}" fields`;
  }
}

/** A choice of metrics the inputs do not allow, as the command line's usage error. */
function metricUsage(e: StructuredMetricError, decoded: boolean): UsageError {
  const where = e.where === undefined ? "" : `: ${e.where}`;
  if (e.problem === "none") {
    return new UsageError(
      `No metric can be computed from these inputs${where} (see --help for the fields)`,
    );
  }
  if (e.problem === "unavailable") {
    return new UsageError(
      `Metric ${e.metric} needs ${neededText(e.needs!, e.metric, decoded)}${where}`,
    );
  }
  return new UsageError(e.message);
}

/** The values of --mode. */
const MODES: readonly ExtractionMode[] = ["strict", "fenced", "lenient"];

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
  const mode = oneOf("--mode", values.mode ?? "strict", MODES);
  const numbers = oneOf("--numbers", values.numbers ?? "exact", ["exact", "numeric"] as const);
  const match = oneOf("--match", values.match ?? "exact", ["exact", "name", "subset"] as const);
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
  const asked = values.metrics?.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (asked?.length === 0) {
    throw new UsageError(`--metrics names no metric (got ${quote(values.metrics!)})`);
  }
  for (const name of asked ?? []) oneOf("--metrics", name, STRUCTURED_METRICS);
  checkPaths(
    [
      ["--outputs", values.outputs, true],
      ["--expected", values.expected, true],
      ["--schema", values.schema],
    ],
    [{ flag: "--out", path: values.out, kind: reportKind("assay.structured.v1") }],
    { force: values.force },
  );
  const engine: Engine = engineFromFlag(values.engine, values.quiet === true);
  const schemaPath = values.schema;
  // The report's rows and bytes are made as they are written, never held whole. The rows are
  // scored as the outputs (and expected rows) are read: the bar counts their bytes.
  const progress = new Progress(
    sizeOf(values.outputs) + (values.expected === undefined ? 0 : sizeOf(values.expected)),
    "scoring",
    values.quiet !== true,
  );
  const onRead = (bytes: number) => progress.add(bytes);
  let scored: StructuredReportParts;
  try {
    scored = await scoreStructuredJsonlParts(
      {
        outputs: fileSource(values.outputs, onRead),
        expected: values.expected === undefined ? undefined : fileSource(values.expected, onRead),
        schema: schemaPath === undefined ? undefined : fileSource(schemaPath),
      },
      {
        engine,
        names: {
          outputs: inputName(values.outputs),
          expected: values.expected === undefined ? undefined : inputName(values.expected),
          schema: schemaPath,
        },
        metrics: asked,
        mode,
        format: values.format,
        formatAssertion: values["format-assertion"] === true,
        numbers,
        ordered: values.ordered === true,
        match,
        decoder,
        sha256: () => createHash("sha256"),
      },
    );
  } catch (e) {
    if (e instanceof StructuredMetricError) throw metricUsage(e, decoder !== undefined);
    throw e;
  } finally {
    progress.done();
  }
  const report = scored.head;
  if (values.quiet !== true && values.expected !== undefined) {
    const note = await toolCallsNote(scored.skipped, values.outputs, engine, decoder === undefined);
    if (note !== undefined) console.error(note);
  }
  const metrics = Object.keys(report.metrics) as (keyof typeof report.metrics)[];
  const results = report.metrics;
  if (values.out !== undefined) await writeAtomic(values.out, scored.chunks());
  if (values.json) {
    // Each chunk is whole lines, the last ending with the report's line break.
    const dec = new TextDecoder();
    for (const chunk of scored.chunks()) console.log(dec.decode(chunk).slice(0, -1));
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
  console.log(`\n${report.n} outputs, mode ${mode}, engine ${engine.name}${decoded}`);
  if (values.out !== undefined) console.log(`Report written to ${values.out}`);
}

/**
 * The note of a run whose expected rows have tool calls and whose outputs lack what the tool_*
 * metrics read, so that they were left out: where, and without --call-format, that it reads the
 * calls from the outputs, naming the decoder that reads most of them when one reads an API's
 * responses or a template the engine's parser does not (suggestDecoder, on the file's first 100
 * rows within its first MiB).
 */
async function toolCallsNote(
  skipped: readonly StructuredSkip[],
  outputs: string,
  engine: Engine,
  suggest: boolean,
): Promise<string | undefined> {
  const skip = skipped.find((s) => s.needs === "tool_calls" && s.file === inputName(outputs));
  if (skip?.at === undefined) return undefined;
  const note = `note: no tool_* metric: ${skip.at} (the expected rows have "tool_calls")`;
  if (!suggest) return note;
  const found = outputs === "-"
    ? undefined
    : suggestDecoder(await readHead(outputs, 1 << 20), { engine });
  if (found?.best === undefined) {
    return `${note}; --call-format NAME reads the calls from each output instead`;
  }
  const { best, sampled } = found;
  return `${note}; --call-format ${best.format} reads ${best.ok} of the first ${sampled} ` +
    "outputs as calls";
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
