/**
 * {@linkcode scoreStructuredJsonl}: structured-output, tool and instruction metrics over the bytes
 * of an outputs JSONL (and, optionally, an expected JSONL and a JSON Schema), to the
 * `assay.structured.v1` report and its exact bytes, as `assay structured --out` writes them
 * (docs/tool_metrics.md, docs/json_output.md). Web APIs only: it runs in edge functions as it
 * does in the CLI.
 *
 * @module
 */
import {
  canonicalize,
  checkOptions,
  type Engine,
  engineOf,
  parseJson,
  sha256Hex,
  TOOL,
} from "../engine/mod.ts";
import { compileSchema, SchemaError } from "../json_schema/mod.ts";
import { decodeUtf8, maxLineBytesOf } from "../jsonl/mod.ts";
import { type ByteHasher, type JsonlSource, readWhole, textPosition } from "../jsonl/source/mod.ts";
import type { ExtractionMode } from "../structured/mod.ts";
import { StructuredInputError, type StructuredNeed } from "./errors.ts";
import type { StructuredMetric, StructuredReport, StructuredReportRow } from "./report/mod.ts";
import { chooseMetrics, type MetricInputs, skippedMetrics } from "./_metrics.ts";
import { checkCallDecoder, checkScoringOptions, computeMetrics } from "./_compute.ts";
import { checkIdPattern, checkUniqueIds, join, loadRows } from "./_rows.ts";
import { reportBytes, reportChunks, reportRows } from "./_report_text.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** The inputs of {@linkcode scoreStructuredJsonl}. */
export interface StructuredSources {
  /**
   * The outputs: per line `{id?, output?, tool_calls?, api_results?, checks?, retention?}`
   * (`example_id` may stand for `id`).
   */
  outputs: JsonlSource;
  /**
   * What was expected, joined to the outputs by id (by line order when neither has ids): per
   * line `{id?, fields?, tool_calls?}`.
   */
  expected?: JsonlSource;
  /** A JSON Schema (draft 2020-12) document, for `json_schema_compliance`. */
  schema?: JsonlSource;
}

/**
 * A decoder of raw outputs into calls, for the tool metrics: `getDecoder(name)` of
 * `@assay/assay/formats` is one.
 */
export interface StructuredCallDecoder {
  /** Its versioned id, which the report records, such as `hermes@2`. */
  readonly id: string;
  /**
   * Decodes one raw output; a bad output is a status, never an exception.
   *
   * @param text The raw model output.
   * @param options The engine that reads JSON exactly.
   * @returns `ok` and the calls (arguments as canonical JSON text), or another status and why
   *   (the `reason` a report's row gives: getDecoder's decoders give one with every failure).
   */
  decode(
    text: string,
    options?: { engine?: Engine },
  ): { status: string; calls: unknown[]; reason?: string };
}

/** Options for {@linkcode scoreStructuredJsonl}. */
export interface ScoreStructuredJsonlOptions {
  /** The engine (from `createEngine`); the default engine when absent. */
  engine?: Engine;
  /** Names of the sources in messages and errors, such as file names. */
  names?: { outputs?: string; expected?: string; schema?: string };
  /**
   * The metrics to compute, in report order whatever the order given (the names of
   * `STRUCTURED_METRICS`); every metric the inputs allow when absent.
   */
  metrics?: readonly string[];
  /** Where JSON is found in an output: `strict` (default), `fenced` or `lenient`. */
  mode?: ExtractionMode;
  /** The regex an output must fully match, for `format_compliance` (linear-time engine). */
  format?: string;
  /** Makes the schema's `format` keyword assert instead of annotate. */
  formatAssertion?: boolean;
  /** Required fields compare numbers `exact` (default; 1 and 1.0 differ) or `numeric`. */
  numbers?: "exact" | "numeric";
  /** Tool selection compares names in order, not as a multiset. */
  ordered?: boolean;
  /** Tool-call matching: `exact` (default), `name` or `subset`. */
  match?: "exact" | "name" | "subset";
  /**
   * Reads the predicted calls of the tool metrics from each `output` with this decoder (from
   * `getDecoder`; anything else is a TypeError), instead of from `tool_calls`; an output that does
   * not decode is one invalid call.
   */
  decoder?: StructuredCallDecoder;
  /**
   * Makes the incremental SHA-256 of a source read in chunks (such as `() =>
   * createHash("sha256")` from `node:crypto`). A source given as one Uint8Array is digested with
   * Web Crypto when there is no hasher.
   */
  sha256?: () => ByteHasher;
  /** The longest line read, in bytes before its `\n` (default 64 MiB). */
  maxLineBytes?: number;
}

/** What {@linkcode scoreStructuredJsonl} returns. */
export interface ScoreStructuredJsonlResult {
  /** The report. */
  report: StructuredReport;
  /** The report file's exact bytes, what `assay structured --out` writes. */
  bytes: Uint8Array;
  /** The metrics the inputs did not allow, when none was asked for by name (see StructuredSkip). */
  skipped: StructuredSkip[];
}

/**
 * A metric left out of a run that asked for no metric by name, because the inputs lack what it
 * needs (a run that names it is refused instead, with a StructuredMetricError saying so).
 */
export interface StructuredSkip {
  /** The metric. */
  metric: StructuredMetric;
  /** What it needs that the inputs lack. */
  needs: StructuredNeed;
  /** The file that lacks it first (the expected rows before the outputs), when a file does. */
  file?: string;
  /** Where: that file's first row without it, or that the file has no rows. */
  at?: string;
}

/**
 * What {@linkcode scoreStructuredJsonlParts} returns: the report with its rows' figures held
 * compactly, each row and the report's bytes made when read.
 */
export interface StructuredReportParts {
  /** The report without its rows (`rows` is empty): the inputs, the totals and the statuses. */
  head: StructuredReport;
  /**
   * Each output row's own figures and reasons, in the outputs' order, one object at a time (the
   * figures of a walk's rows are frozen objects, shared by the rows that have the same ones; the
   * reasons are frozen lists).
   */
  rows(): IterableIterator<StructuredReportRow>;
  /**
   * The report file's exact bytes, what `assay structured --out` writes, in parts of whole lines
   * (about 1 MiB each, each ending with a line break), made as they are read.
   */
  chunks(): IterableIterator<Uint8Array>;
  /** The same bytes in one array (made twice over: to measure them, then to write them). */
  bytes(): Uint8Array;
  /** The metrics the inputs did not allow, when none was asked for by name. */
  skipped: StructuredSkip[];
}

/**
 * Scores structured outputs, tool calls and instruction checks from JSONL bytes: reads the rows
 * exactly (a `1.0` stays a float, big integers keep their digits), joins the expected rows by id,
 * computes every metric asked for (or every one the inputs allow) overall and on each row alone,
 * and returns the `assay.structured.v1` report with its exact bytes.
 *
 * A source is a `Uint8Array`, a `ReadableStream<Uint8Array>`, an async iterable of chunks, or a
 * function that opens one; each is read once, in the order outputs, expected, schema. A source
 * whose first two bytes are gzip's magic number is read decompressed (with `DecompressionStream`,
 * which reads one member on Deno, every member on Node), and its digest is the decompressed
 * bytes'.
 *
 * While scoring it keeps of each row the fields a metric reads (their canonical texts' bytes) and
 * then its figures, not its objects; the report it returns holds every row as an object and its
 * bytes whole, which {@linkcode scoreStructuredJsonlParts} makes only when they are read.
 *
 * @param sources The outputs and, optionally, the expected rows and a JSON Schema.
 * @param options The metrics, the extraction mode, the metrics' options, a decoder, the engine,
 *   the sources' names and a SHA-256 hasher.
 * @returns The report and its bytes.
 * @throws {StructuredInputError} If a line is not a JSON object, a field is missing or mistyped
 *   or refused by its metric, an id is on two rows, a file has ids on some rows only (a row
 *   without one is named `line N`), the rows do not join, or the schema is not
 *   JSON or not a schema: naming the file, line and id, which it carries as `source`, `line` and
 *   `id`.
 * @throws {StructuredMetricError} If a metric asked for is unknown or its inputs are missing, or
 *   the inputs allow no metric.
 * @throws {InputError} If a line is longer than the line limit (a `LineTooLongError`) or not
 *   UTF-8 outside an output (an `InvalidUtf8Error`), or a source is gzip that DecompressionStream
 *   does not read (a second member on Deno, corrupt or cut short data, or no DecompressionStream).
 * @throws {TypeError} If a source is not bytes, a stream, an iterable or a function, or
 *   `decoder` is not a call decoder from `getDecoder` (a name, or `forScoring`'s decoder, among
 *   others).
 * @throws {RangeError} If an option is out of its range (a mode, a match, `maxLineBytes`, an empty
 *   `metrics`).
 * @throws {SyntaxError} If `format` is not a regex the linear-time engine reads.
 * @throws {TypeError} If `format` is not a string (a RegExp object, say).
 *
 * @example Score outputs against expected calls
 * ```ts
 * import { scoreStructuredJsonl } from "@assay/assay/structured-jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const jsonl = (rows: unknown[]) =>
 *   new TextEncoder().encode(rows.map((r) => JSON.stringify(r) + "\n").join(""));
 * const call = { name: "search", arguments: { q: "assay" } };
 * const { report, bytes } = await scoreStructuredJsonl({
 *   outputs: jsonl([
 *     { id: "a", output: '{"answer": 1}', tool_calls: [call] },
 *     { id: "b", output: "no JSON here", tool_calls: [] },
 *   ]),
 *   expected: jsonl([{ id: "b", tool_calls: [call] }, { id: "a", tool_calls: [call] }]),
 * });
 * strictEqual(report.metrics.json_validity?.numerator, 1);
 * strictEqual(report.metrics.tool_call_f1?.value, 2 / 3);
 * strictEqual(report.rows[1]!.metrics.tool_call_f1!.numerator, 0);
 * strictEqual(JSON.parse(new TextDecoder().decode(bytes)).schema, "assay.structured.v1");
 * ```
 *
 * @example A bad field names its file, line and id
 * ```ts
 * import { scoreStructuredJsonl, StructuredInputError } from "@assay/assay/structured-jsonl";
 * import { ok, rejects, strictEqual } from "node:assert/strict";
 *
 * const outputs = new TextEncoder().encode('{"id": "a", "checks": [true]}\n{"id": "b", "checks": "yes"}\n');
 * await rejects(scoreStructuredJsonl({ outputs }, { names: { outputs: "o.jsonl" } }), (e) => {
 *   ok(e instanceof StructuredInputError);
 *   strictEqual(e.message, 'o.jsonl:2 (id "b"): instruction_compliance_rate: field "checks" must be an array of booleans');
 *   strictEqual(e.line, 2);
 *   strictEqual(e.id, "b");
 *   return true;
 * });
 * ```
 */
export async function scoreStructuredJsonl(
  sources: StructuredSources,
  options: ScoreStructuredJsonlOptions = {},
): Promise<ScoreStructuredJsonlResult> {
  const parts = await scoreStructuredJsonlParts(sources, options);
  const report = { ...parts.head, rows: Array.from(parts.rows()) };
  return { report, bytes: parts.bytes(), skipped: parts.skipped };
}

/**
 * Scores as {@linkcode scoreStructuredJsonl} does, holding each row's figures compactly instead
 * of as the report's objects: the report's rows and bytes are made when read, so that a caller
 * that writes them out (as `assay structured` does) never holds the whole report. The bytes are
 * those {@linkcode scoreStructuredJsonl} returns.
 *
 * @param sources The outputs and, optionally, the expected rows and a JSON Schema.
 * @param options As for {@linkcode scoreStructuredJsonl}.
 * @returns The report without its rows, and its rows and bytes when read.
 * @throws As {@linkcode scoreStructuredJsonl} does.
 *
 * @example Write a report in parts
 * ```ts
 * import { scoreStructuredJsonlParts } from "@assay/assay/structured-jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const outputs = new TextEncoder().encode('{"id": "a", "output": "{}"}\n{"id": "b", "output": "x"}\n');
 * const parts = await scoreStructuredJsonlParts({ outputs }, { metrics: ["json_validity"] });
 * strictEqual(parts.head.metrics.json_validity?.value, 0.5);
 * strictEqual([...parts.rows()][1]!.id, "b");
 * const text = [...parts.chunks()].map((c) => new TextDecoder().decode(c)).join("");
 * strictEqual(JSON.parse(text).rows.length, 2);
 * ```
 */
export async function scoreStructuredJsonlParts(
  sources: StructuredSources,
  options: ScoreStructuredJsonlOptions = {},
): Promise<StructuredReportParts> {
  checkOptions(options);
  checkOptionNames("scoreStructuredJsonl", options, {
    match: 1,
    numbers: 1,
    engine: 1,
    metrics: 1,
    sha256: 1,
    decoder: 1,
    mode: 1,
    format: 1,
    names: 1,
    formatAssertion: 1,
    ordered: 1,
    maxLineBytes: 1,
  });
  if (typeof sources !== "object" || sources === null) {
    throw new TypeError("Expected the sources { outputs, expected?, schema? }");
  }
  const engine = engineOf(options.engine);
  checkCallDecoder(options.decoder);
  const names = options.names ?? {};
  const { mode, numbers, match } = checkScoringOptions(options);
  const read = {
    maxLineBytes: maxLineBytesOf(options.maxLineBytes),
    sha256: options.sha256,
  };
  // Only the fields a metric reads are kept, as their canonical texts' bytes.
  const outputs = await loadRows(sources.outputs, names.outputs ?? "outputs", {
    ...read,
    keep: ["output", "tool_calls", "api_results", "checks", "retention"],
    modelFields: ["output"],
  });
  const expected = sources.expected === undefined
    ? undefined
    : await loadRows(sources.expected, names.expected ?? "expected", {
      ...read,
      keep: ["fields", "tool_calls"],
    });
  // The report's rows are keyed by id (`line N` without one), joined or not: an id may name one
  // row only, and a file's rows have ids all or none.
  checkIdPattern(outputs);
  if (expected) checkIdPattern(expected);
  else checkUniqueIds(outputs);
  const joined = expected ? join(outputs, expected) : undefined;

  const schemaName = names.schema ?? "schema";
  let schemaText: string | undefined;
  let schema: unknown;
  if (sources.schema !== undefined) {
    schemaText = decodeUtf8(await readWhole(sources.schema, schemaName), schemaName);
    try {
      schema = parseJson(schemaText);
    } catch (e) {
      // The exact parser's code and offset: JSON.parse words its errors by runtime.
      const r = canonicalize(schemaText, { engine });
      const at = r.ok ? undefined : textPosition(schemaText, r.error.offset);
      const why = r.ok
        ? (e instanceof Error ? e.message : String(e))
        : `${r.error.code} at ${r.error.offset}, line ${at!.line}, column ${at!.column}`;
      throw new StructuredInputError(
        `${schemaName}: not valid JSON (${why})`,
        [{ source: schemaName }],
        { cause: e },
      );
    }
  }
  let compiled: ReturnType<typeof compileSchema> | undefined;
  const inputs: MetricInputs = {
    outputs,
    expected,
    joined,
    schema: schemaText === undefined ? undefined : () => {
      try {
        return compiled ??= compileSchema(schema, {
          formatAssertion: options.formatAssertion === true,
        });
      } catch (e) {
        if (!(e instanceof SchemaError)) throw e;
        throw new StructuredInputError(`${schemaName}: ${e.message}`, [{ source: schemaName }], {
          cause: e,
        });
      }
    },
    format: options.format,
    decoder: options.decoder,
    engine,
    mode,
    numbers,
    match,
    ordered: options.ordered === true,
  };
  const metrics = chooseMetrics(inputs, options.metrics);
  const { results, figures, statuses, reasons } = computeMetrics(inputs, metrics);
  const decoder = options.decoder;
  const head: StructuredReport = {
    schema: "assay.structured.v1",
    tool: TOOL,
    engine: engine.name,
    mode,
    settings: {
      numbers,
      match,
      ordered: options.ordered === true,
      format: options.format ?? null,
      format_assertion: options.formatAssertion === true,
    },
    inputs: {
      outputs: {
        sha256: outputs.sha256,
        rows: outputs.size,
        invalid_utf8_outputs: outputs.invalidUtf8,
      },
      expected: expected ? { sha256: expected.sha256, rows: expected.size } : null,
      schema: schemaText === undefined ? null : { sha256: sha256Hex(schemaText) },
    },
    n: outputs.size,
    ...(decoder && { call_format: { decoder: decoder.id, statuses } }),
    metrics: results,
    rows: [],
  };
  // What the parts hold of the rows: their lines, ids, figures and reasons, not their fields.
  const rows = { lines: outputs.lines, ids: outputs.ids, figures, reasons };
  return {
    head,
    rows: () => reportRows(rows),
    chunks: () => reportChunks(head, rows),
    bytes: () => reportBytes(head, rows),
    skipped: options.metrics === undefined ? skippedMetrics(inputs, metrics) : [],
  };
}
