// The suite's input files as text and as JSON lines: what every reader of a goldens, traces,
// catalog or labels file shares (UTF-8, BOM, CRLF, blank lines, malformed JSON, repeated keys),
// each problem a SuiteInputError whose message names the file and line.
import { decodeUtf8, InputError, jsonArrayHint, quote } from "../jsonl/mod.ts";
import { parseJson, readExactObject } from "../engine/mod.ts";
import { repeatedKeys } from "../config/mod.ts";

/** Where a {@linkcode SuiteInputError} is, and what caused it. */
export interface SuiteInputErrorOptions extends ErrorOptions {
  /** The file (or source) name. */
  source: string;
  /** The 1-based line, where the error is about one. */
  line?: number;
  /** The row's id (a golden's `id`, a trace's `golden_id`), where the row has one. */
  id?: string;
  /** The row's 0-based index in the list `runSuite` was given (`source` names the list). */
  index?: number;
}

/**
 * A suite run's input that cannot be read: a goldens, traces, catalog or labels file that is not
 * UTF-8, not JSON, repeats a key, breaks its schema, or does not fit the other files. Its message
 * names the file, and the line and id where the problem has them (`traces.jsonl:3 (golden_id
 * "g01"): ...`); it carries them as `source`, `line` and `id`. The same rules refuse goldens,
 * traces and a catalog given to `runSuite` in memory, where there is no file or line: the message
 * names the list and the row's index instead (`traces[2] (golden_id "g01"): ...`), carried as
 * `source` (`goldens`, `traces` or `catalog`) and `index`. An {@linkcode InputError}.
 */
export class SuiteInputError extends InputError {
  /** The file (or source) name; in memory, the list's (`goldens`, `traces`, `catalog`). */
  declare readonly source: string;
  /** The row's 0-based index in the list `runSuite` was given, where the error is about one. */
  declare readonly index: number | undefined;

  /**
   * Creates the error.
   *
   * @param message What is wrong, naming the file, line and id.
   * @param options The place (`source`, `line` or `index`, `id`) and the cause.
   */
  constructor(message: string, options: SuiteInputErrorOptions) {
    const { source, line, id, index, ...rest } = options;
    super(message, { ...rest, at: { source, line, id } });
    this.name = "SuiteInputError";
    this.index = index;
  }
}

/**
 * A file's text: a string as it is, bytes decoded as UTF-8; a byte order mark at the start is
 * dropped either way. Bytes that are not UTF-8 are an error at their line and byte.
 */
export function inputText(input: Uint8Array | string, source: string): string {
  if (typeof input === "string") return input.replace(/^\uFEFF/, "");
  if (!(input instanceof Uint8Array)) {
    throw new TypeError(`${source}: expected the file's bytes (a Uint8Array) or its text`);
  }
  try {
    return decodeUtf8(input, source);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    throw new SuiteInputError(e.message, {
      source,
      ...(e.line !== undefined && { line: e.line }),
      cause: e,
    });
  }
}

/** One JSON line of a file: its value, number and text, and its id for messages. */
export interface JsonLine {
  /** The parsed value. */
  value: unknown;
  /** The 1-based line number. */
  line: number;
  /** The line's text, without its line break. */
  text: string;
  /** The value of the id field, when it is a string. */
  id: string | undefined;
  /** ` (field "id")` when the id is a string, else empty: what follows `file:line` in messages. */
  named: string;
}

/**
 * The JSON lines of a JSONL text, one at a time: a trailing `\r` is dropped and blank lines are
 * skipped; a line that is not JSON or repeats a key in one object is an error at its line.
 */
export function* jsonLines(text: string, source: string, idField?: string): Generator<JsonLine> {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, "");
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = parseJson(line);
    } catch (e) {
      const hint = jsonArrayHint(line, i + 1);
      // Where and how it is malformed, as the exact parser words it (each runtime's JSON.parse
      // words it differently), as the scoring readers say it.
      const at = readExactObject(line);
      const why = at instanceof Map
        ? " (NaN and Infinity are not JSON)"
        : at !== null
        ? ` (${at.code} at ${at.offset})`
        : "";
      throw new SuiteInputError(
        `${source}:${i + 1}: malformed JSON line ${quote(line)}${why}${hint}`,
        {
          source,
          line: i + 1,
          cause: e,
        },
      );
    }
    const raw = idField !== undefined && typeof value === "object" && value !== null
      ? (value as Record<string, unknown>)[idField]
      : undefined;
    const id = typeof raw === "string" ? raw : undefined;
    const named = id === undefined ? "" : ` (${idField} ${JSON.stringify(id)})`;
    refuseRepeatedKeys(
      line,
      source,
      i + 1,
      id === undefined ? undefined : { idField: idField!, id },
    );
    yield { value, line: i + 1, text: line, id, named };
  }
}

/**
 * Refuses a key repeated in one object of `text` (a JSONL line, or a whole JSON file), which
 * JSON.parse reads as its last value: `source:line:column`, where `line` is the text's first line
 * in the file, then the row's id (unless the id's key is the one repeated: which value was meant
 * is the question), then the key and where it was first.
 */
export function refuseRepeatedKeys(
  text: string,
  source: string,
  line = 1,
  row?: { idField: string; id: string },
): void {
  const r = repeatedKeys(text)[0];
  if (r === undefined) return;
  const at = (p: { line: number; column: number }) => `${line + p.line - 1}:${p.column}`;
  const named = row === undefined || r.key === row.idField
    ? ""
    : ` (${row.idField} ${JSON.stringify(row.id)})`;
  throw new SuiteInputError(
    `${source}:${at(r.at)}${named}: Duplicate key ${quote(r.key)} (first at ${at(r.first)})`,
    {
      source,
      line: line + r.at.line - 1,
      ...(named !== "" && { id: row!.id }),
    },
  );
}
