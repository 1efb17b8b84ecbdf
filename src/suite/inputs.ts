/**
 * Reading a suite run's input files, from their bytes or text: the goldens JSONL, the traces
 * JSONL and the schema catalog JSON, each line checked against its schema
 * ({@linkcode GOLDEN_SCHEMA}, {@linkcode TRACE_SCHEMA}, {@linkcode CATALOG_SCHEMA}) and the
 * files against each other (a golden id given twice, a trace whose golden is missing, a run given
 * twice), and a golden's or trace's key that misspells a field the line does not give (such a
 * key would otherwise pass as the user's metadata and the field's metric skip the row). Every
 * problem is a {@linkcode SuiteInputError} naming the file, line and id, as
 * `assay suite run` prints it; so is a run's golden or trace that a metric cannot read
 * ({@linkcode locateRunInputError}). `runSuite` checks goldens, traces and a catalog given in
 * memory by the same rules (one implementation of each), with the same messages naming the list
 * and index (`goldens[2]`) instead of the file and line.
 *
 * @module
 */
import { checkOptions, createEngine, parseJson } from "../engine/mod.ts";
import { jsonArrayHint } from "../jsonl/mod.ts";
import { textPosition } from "../jsonl/source/mod.ts";
import type { Golden, RunInputError, SchemaCatalog, Trace } from "./types.ts";
import { rememberExact } from "./_exact_values.ts";
import { inputText, jsonLines, refuseRepeatedKeys, SuiteInputError } from "./_input_lines.ts";
import {
  checkCatalog,
  checkGoldenIds,
  checkRow,
  checkRuns,
  fileRows,
  GOLDEN_ROW,
  type RowKind,
  type RowPlaces,
  TRACE_ROW,
} from "./_input_checks.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

export { SuiteInputError, type SuiteInputErrorOptions } from "./_input_lines.ts";

/** A file's bytes (decoded as UTF-8) or its text. */
export type SuiteInputText = Uint8Array | string;

/** Options of the suite's input readers. */
export interface ReadInputOptions {
  /** The file's name in messages (default `<input>`). */
  source?: string;
}

/** Options of {@linkcode readTraces}. */
export interface ReadTracesOptions extends ReadInputOptions {
  /** The goldens the traces are runs of: a trace whose `golden_id` is none of theirs is refused. */
  goldens: readonly Golden[];
  /** The goldens' file name, for that message (default `the goldens`). */
  goldensSource?: string;
}

/** A row of a JSONL file and the line it is on. */
export interface InputRow<T> {
  /** The row, valid against its schema. */
  value: T;
  /** Its 1-based line in the file. */
  line: number;
}

/** The rows of a JSONL text, each checked as a row of `kind`, each problem named at its line. */
function readRows<T>(
  input: SuiteInputText,
  source: string,
  kind: RowKind,
  callFields: readonly string[],
): { rows: InputRow<T>[]; places: RowPlaces } {
  const rows: InputRow<T>[] = [];
  const lines: number[] = [];
  const places = fileRows(source, lines);
  const text = inputText(input, source).replace(/^\uFEFF/, "");
  for (const { value, line, text: lineText } of jsonLines(text, source, kind.idField)) {
    lines.push(line);
    try {
      checkRow(value, kind, places, rows.length);
    } catch (e) {
      // A first line that opens an array (the file is one JSON array): what JSONL wants.
      if (e instanceof SuiteInputError) e.message += jsonArrayHint(lineText, line);
      throw e;
    }
    rememberExact(value, lineText, callFields);
    rows.push({ value: value as T, line });
  }
  return { rows, places };
}

/**
 * Reads a goldens JSONL file: one {@linkcode Golden} a line, valid against
 * {@linkcode GOLDEN_SCHEMA}, each id given once. A byte order mark, `\r\n` line ends and blank
 * lines are allowed. The reference calls' arguments keep the file's number lexemes for
 * `trajectory_match` (`1.0` ≠ `1`), as long as they are not edited.
 *
 * @param input The file's bytes or text.
 * @param options `source`, the file's name in messages.
 * @returns The goldens with their lines, in file order.
 * @throws {SuiteInputError} At the first line that is not UTF-8 or JSON, repeats a key, has a key
 * that misspells a field it does not give (`expected_view`, `refrence_trajectory`,
 * `ReferenceValues`: see "A misspelt field is refused" in docs/suite.md), breaks the schema or
 * repeats an earlier line's id.
 *
 * @example
 * ```ts
 * import { readGoldens } from "@assay/assay/suite";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 *
 * const text = '{"id": "g1", "question": "Revenue in May?"}\n\n{"id": "g2", "question": "Top view?"}\n';
 * deepStrictEqual(readGoldens(text, { source: "goldens.jsonl" }).map((r) => [r.value.id, r.line]), [
 *   ["g1", 1],
 *   ["g2", 3],
 * ]);
 * throws(
 *   () => readGoldens('{"id": "g1", "question": 7}', { source: "goldens.jsonl" }),
 *   { name: "SuiteInputError", line: 1, id: "g1", message: 'goldens.jsonl:1 (id "g1"): /question: Expected string, got integer' },
 * );
 * ```
 */
export function readGoldens(
  input: SuiteInputText,
  options: ReadInputOptions = {},
): InputRow<Golden>[] {
  checkOptions(options);
  checkOptionNames("readGoldens", options, { source: 1 });
  const source = options.source ?? "<input>";
  const { rows, places } = readRows<Golden>(input, source, GOLDEN_ROW, ["reference_trajectory"]);
  checkGoldenIds(rows.map((r) => r.value), places);
  return rows;
}

/**
 * Reads a traces JSONL file: one {@linkcode Trace} a line, one (golden, arm, repeat) run each,
 * valid against {@linkcode TRACE_SCHEMA}. The file must have a run; each run's golden must be one
 * of `goldens`, its arm a usable name (not `overall`), and no run may be given twice. A byte order
 * mark, `\r\n` line ends and blank lines are allowed. The calls' arguments keep the file's
 * number lexemes for `trajectory_match` and `step_efficiency` (`1.0` ≠ `1`), as long as they are
 * not edited.
 *
 * @param input The file's bytes or text.
 * @param options `goldens`, the goldens the runs are of; `source` and `goldensSource`, the two
 * files' names in messages.
 * @returns The traces with their lines, in file order.
 * @throws {SuiteInputError} At the first line that is not UTF-8 or JSON, repeats a key, has a key
 * that misspells a field it does not give (`Messages`, `hit_turn_limt`) or breaks the schema; then for a file with no run; then at the first trace of no golden, of arm
 * `overall`, or of a run given on an earlier line.
 *
 * @example
 * ```ts
 * import { readTraces } from "@assay/assay/suite";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * const run = (repeat: number) =>
 *   JSON.stringify({
 *     golden_id: "g1", arm: "base", repeat, tool_calls: [], sql: [], final_rows: null,
 *     final_answer: "42", submitted: true, hit_turn_limit: false,
 *   });
 * const goldens = [{ id: "g1", question: "Revenue in May?" }];
 * const options = { source: "traces.jsonl", goldens, goldensSource: "goldens.jsonl" };
 * strictEqual(readTraces(`${run(0)}\r\n${run(1)}\r\n`, options).length, 2);
 * throws(() => readTraces(`${run(0)}\n${run(0)}\n`, options), {
 *   name: "SuiteInputError",
 *   message: 'traces.jsonl:2 (golden_id "g1"): run (arm "base", repeat 0) already on line 1',
 * });
 * ```
 */
export function readTraces(input: SuiteInputText, options: ReadTracesOptions): InputRow<Trace>[] {
  checkOptions(options);
  checkOptionNames("readTraces", options, { source: 1, goldens: 1, goldensSource: 1 });
  const source = options.source ?? "<input>";
  const { rows, places } = readRows<Trace>(input, source, TRACE_ROW, ["tool_calls", "messages"]);
  const ids = new Set(options.goldens.map((g) => g.id));
  checkRuns(rows.map((r) => r.value), places, ids, options.goldensSource ?? "the goldens");
  return rows;
}

/**
 * Reads a schema catalog file: one JSON {@linkcode SchemaCatalog}, valid against
 * {@linkcode CATALOG_SCHEMA}, no key repeated in an object. A byte order mark is allowed.
 *
 * @param input The file's bytes or text.
 * @param options `source`, the file's name in messages.
 * @returns The catalog.
 * @throws {SuiteInputError} For a file that is not UTF-8 (at its line) or JSON (at the line and
 * column of its first syntax error, saying what is wrong there), that repeats a key (at its line
 * and column), or that breaks the schema.
 *
 * @example
 * ```ts
 * import { readCatalog } from "@assay/assay/suite";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 *
 * const text = '{"views": [{"name": "orders", "columns": ["id", "total"]}]}';
 * deepStrictEqual(readCatalog(new TextEncoder().encode(text)).views[0]!.columns, ["id", "total"]);
 * throws(() => readCatalog('{"views": [{"name": "orders"}]}', { source: "catalog.json" }), {
 *   name: "SuiteInputError",
 *   message: 'catalog.json: /views/0: Missing required property "columns"',
 * });
 * ```
 */
export function readCatalog(input: SuiteInputText, options: ReadInputOptions = {}): SchemaCatalog {
  checkOptions(options);
  checkOptionNames("readCatalog", options, { source: 1 });
  const source = options.source ?? "<input>";
  const text = inputText(input, source);
  let catalog: unknown;
  try {
    catalog = parseJson(text);
  } catch (e) {
    // JSON.parse's words differ by runtime: the engine's reader (the contract's, which takes NaN
    // and Infinity too) places the error, at a line and a column in UTF-16 code units.
    const r = createEngine({ engine: "ts" }).canonicalizeBatch([text])[0]!;
    if (r.ok) {
      const why = "NaN, Infinity and -Infinity are not JSON";
      throw new SuiteInputError(`${source}: not valid JSON: ${why}`, { source, cause: e });
    }
    const { line, column } = textPosition(text, r.error.offset);
    throw new SuiteInputError(`${source}:${line}:${column}: not valid JSON (${r.error.code})`, {
      source,
      line,
      cause: e,
    });
  }
  refuseRepeatedKeys(text, source);
  checkCatalog(catalog, source);
  return catalog as SchemaCatalog;
}

/** The rows `runSuite` was given, as the readers read them, with their files' names. */
export interface RunInputRows {
  /** The goldens, as {@linkcode readGoldens} read them. */
  goldens: readonly InputRow<Golden>[];
  /** The traces, as {@linkcode readTraces} read them. */
  traces: readonly InputRow<Trace>[];
  /** The goldens' file name in messages (default `<input>`). */
  goldensSource?: string;
  /** The traces' file name in messages (default `<input>`). */
  tracesSource?: string;
}

/**
 * A golden or trace that a metric of `runSuite` could not read, at its file's line: the
 * {@linkcode RunInputError}'s message after the file and the line of the run's golden (a golden's
 * error) or of the run's trace (a trace's), as `assay suite run` prints it. The line is left out
 * when the error names no run or the rows do not hold it.
 *
 * @param error What `runSuite` threw.
 * @param rows The goldens and traces it was given, with their lines and files' names.
 * @returns The error at its file and line, with `error` as its cause and the run's golden id.
 *
 * @example
 * ```ts
 * import { loadSuite, locateRunInputError, readGoldens, readTraces, runSuite } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const goldenText = '{"id": "g1", "question": "q"}\n' +
 *   '{"id": "g2", "question": "q", "reference_trajectory": [{"arguments": {}}]}\n';
 * const goldens = readGoldens(goldenText, { source: "goldens.jsonl" });
 * const trace = (golden_id: string) =>
 *   JSON.stringify({
 *     golden_id, arm: "base", repeat: 0, tool_calls: [], sql: [], final_rows: null,
 *     final_answer: null, submitted: false, hit_turn_limit: false,
 *   });
 * const values = goldens.map((r) => r.value);
 * const traces = readTraces(`${trace("g1")}\n${trace("g2")}\n`, { goldens: values });
 * const suite = loadSuite("- type: trajectory_match\n  params: {trajectory: unordered}\n");
 * const inputs = { goldens: values, traces: traces.map((r) => r.value), catalog: { views: [] } };
 * const error = await runSuite(suite, inputs, { noJudge: true }).catch((e) => e);
 * const located = locateRunInputError(error, { goldens, traces, goldensSource: "goldens.jsonl" });
 * strictEqual(located.line, 2);
 * strictEqual(
 *   located.message,
 *   'goldens.jsonl:2: Golden "g2" (arm base, repeat 0), metric "trajectory_match": ' +
 *     "reference_trajectory[0] must be a call: {name, arguments}, " +
 *     '{function: {name, arguments}}, {type: "tool_use", name, input} or {name, args}',
 * );
 * ```
 */
export function locateRunInputError(error: RunInputError, rows: RunInputRows): SuiteInputError {
  const run = error.run;
  const golden = error.input === "golden";
  const source = (golden ? rows.goldensSource : rows.tracesSource) ?? "<input>";
  const line = run === undefined
    ? undefined
    : golden
    ? rows.goldens.find((r) => r.value.id === run.golden_id)?.line
    : rows.traces.find(({ value: t }) =>
      t.golden_id === run.golden_id && t.arm === run.arm && t.repeat === run.repeat
    )?.line;
  return new SuiteInputError(`${source}${line === undefined ? "" : `:${line}`}: ${error.message}`, {
    source,
    ...(line !== undefined && { line }),
    ...(run !== undefined && { id: run.golden_id }),
    cause: error,
  });
}
