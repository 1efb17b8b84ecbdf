// The rows of scoreStructuredJsonl's JSONL sources, read with exact fields; the unique ids, the
// join of expected rows to outputs; and each field as a metric takes it. Every bad row is a
// StructuredInputError at its file, line and id.
import {
  decodeCanonicalString,
  type ExactField,
  forEachItem,
  lookupCanonical,
  materialize,
  readExactObject,
} from "../engine/mod.ts";
import { canonicalLiteral } from "../structured/mod.ts";
import { formatLocation, jsonArrayHint, LineSplitter, type Location, quote } from "../jsonl/mod.ts";
import { type ByteHasher, type JsonlSource, readOnce } from "../jsonl/source/mod.ts";
import { StructuredInputError } from "./errors.ts";
import { ByteStore, TextColumn } from "./_columns.ts";

/** A row's fields, as a `Map` of them is read (a row of a {@linkcode Loaded} file is a view). */
export interface RowFields {
  get(key: string): ExactField | undefined;
  has(key: string): boolean;
}

/** One row of a JSONL source. */
export interface Row {
  line: number;
  id: string | undefined;
  fields: RowFields;
}

/**
 * A JSONL source read: its rows, its digest, and its outputs read with replacements. The rows are
 * kept by column, each field a metric reads as its canonical text's bytes; `rowAt(file, i)` is a
 * view of row `i`.
 */
export interface Loaded {
  name: string;
  /** How many rows. */
  size: number;
  /** Each row's 1-based line. */
  lines: number[];
  /** Each row's id, if it has one. */
  ids: (string | undefined)[];
  /** The fields kept, each row's canonical text (none where a row has no such field). */
  columns: Map<string, TextColumn>;
  sha256: string;
  /** Rows whose model output held invalid UTF-8, read with U+FFFD replacements. */
  invalidUtf8: number;
}

/** How to read a JSONL source. */
export interface ReadOptions {
  maxLineBytes: number;
  sha256: (() => ByteHasher) | undefined;
  /** The fields kept: those a metric reads (the ids are read apart). */
  keep: readonly string[];
  /** The fields whose string values are model output (read with U+FFFD replacements). */
  modelFields?: readonly string[];
}

const KINDS: Record<string, ExactField["kind"]> = {
  "{": "object",
  "[": "array",
  '"': "string",
  n: "null",
  t: "boolean",
  f: "boolean",
};

/** Row `i` of a file's columns, read as its fields. */
class ColumnFields implements RowFields {
  constructor(readonly columns: Map<string, TextColumn>, readonly i: number) {}
  get(key: string): ExactField | undefined {
    const canonical = this.columns.get(key)?.get(this.i);
    if (canonical === undefined) return undefined;
    return { kind: KINDS[canonical[0]!] ?? "number", canonical };
  }
  has(key: string): boolean {
    return this.columns.get(key)?.has(this.i) === true;
  }
}

/** A view of row `i` of a file. */
export function rowAt(file: Loaded, i: number): Row {
  return { line: file.lines[i]!, id: file.ids[i], fields: new ColumnFields(file.columns, i) };
}

/** Whether every row of a file (which has rows) has field `key`. */
export function everyRowHas(file: Loaded | undefined, key: string): boolean {
  return file !== undefined && file.size > 0 && file.columns.get(key)?.present === file.size;
}

/** The most bytes handed to the line splitter at once. */
const RUN = 1 << 20;

/** A copy of `s` that holds nothing else alive (the slice flattens the concatenation). */
function own(s: string): string {
  return (" " + s).slice(1);
}

/**
 * Reads a JSONL source of rows. Invalid UTF-8 is an input error at its line and byte, except
 * inside the string values of `modelFields`, which are model output: read with U+FFFD
 * replacements, and counted.
 */
export async function loadRows(
  source: JsonlSource,
  name: string,
  options: ReadOptions,
): Promise<Loaded> {
  const splitter = new LineSplitter({
    source: name,
    modelFields: options.modelFields ?? [],
    maxLineBytes: options.maxLineBytes,
  });
  const store = new ByteStore();
  const file: Loaded = {
    name,
    size: 0,
    lines: [],
    ids: [],
    columns: new Map(options.keep.map((key) => [key, new TextColumn(store)])),
    sha256: "",
    invalidUtf8: 0,
  };
  const take = (run: ReturnType<LineSplitter["push"]>) => {
    if (!run) return;
    file.invalidUtf8 += run.invalid?.length ?? 0;
    for (let i = 0; i < run.texts.length; i++) {
      readRow(file, run.texts[i]!, { source: name, line: run.first + i });
    }
  };
  // A source given whole is split in runs of at most 1 MiB of lines, not all of them at once.
  file.sha256 = await readOnce(source, name, options.sha256, (c) => {
    for (let at = 0; at < c.length; at += RUN) take(splitter.push(c.subarray(at, at + RUN)));
  });
  take(splitter.end());
  return file;
}

/** Reads one line into the file's columns (a blank line is no row). */
function readRow(file: Loaded, text: string, at: { source: string; line: number }): void {
  if (text.trim() === "") return;
  const fields = readExactObject(text);
  if (fields === null) {
    throw new StructuredInputError(
      `${formatLocation(at)}: expected a JSON object, got ${quote(text)}` +
        jsonArrayHint(text, at.line),
      [at],
    );
  }
  if (!(fields instanceof Map)) {
    throw new StructuredInputError(
      `${formatLocation(at)}: malformed JSON line ${quote(text)} (${fields.code} at ` +
        `${fields.offset})${jsonArrayHint(text, at.line)}`,
      [at],
    );
  }
  let id: string | undefined;
  for (const key of ["id", "example_id"]) {
    const f = fields.get(key);
    if (f === undefined) continue;
    if (f.kind !== "string" && f.kind !== "number") {
      throw new StructuredInputError(
        `${formatLocation(at)}: field "${key}" must be a string or a number`,
        [at],
      );
    }
    id = own(f.kind === "string" ? decodeCanonicalString(f.canonical) : f.canonical);
    break;
  }
  file.lines.push(at.line);
  file.ids.push(id);
  for (const [key, column] of file.columns) column.push(fields.get(key)?.canonical);
  file.size++;
}

/** Where a row is: its file, line and id. */
export function locate(file: Loaded, row: Row): Location {
  return { source: file.name, line: row.line, ...(row.id !== undefined && { id: row.id }) };
}

/** An error at a row: the message starts with the row's `file:line (id "x")`. */
export function rowError(
  file: Loaded,
  row: Row,
  problem: string,
  options?: { metric?: string; cause?: unknown },
): StructuredInputError {
  const at = locate(file, row);
  return new StructuredInputError(`${formatLocation(at)}: ${problem}`, [at], options);
}

/**
 * Checks that no id is on two rows of a file (rows without an id are not compared).
 *
 * @throws {StructuredInputError} Naming the file, the id and both lines.
 */
export function checkUniqueIds(file: Loaded): void {
  const seen = new Map<string, number>();
  for (let i = 0; i < file.size; i++) {
    const id = file.ids[i];
    if (id === undefined) continue;
    const prev = seen.get(id);
    if (prev !== undefined) {
      throw new StructuredInputError(
        `${file.name}: duplicate id ${JSON.stringify(id)} on lines ${file.lines[prev]} and ` +
          `${file.lines[i]}`,
        [locate(file, rowAt(file, prev)), locate(file, rowAt(file, i))],
      );
    }
    seen.set(id, i);
  }
}

/**
 * Checks that every row of a file has an id or none does: a row without one is named by its line
 * (`line N`, in the report's readers), which another row's id could be.
 *
 * @throws {StructuredInputError} At the first row that breaks the first row's pattern, which it
 *   names too.
 */
export function checkIdPattern(file: Loaded): void {
  const withId = file.ids[0] !== undefined;
  const i = file.ids.findIndex((id) => (id !== undefined) !== withId);
  if (i < 0) return;
  const [first, row] = [rowAt(file, 0), rowAt(file, i)];
  const at = locate(file, row);
  const problem = withId
    ? `missing field "id" (line ${first.line} has one`
    : `an id, where line ${first.line} has none (`;
  throw new StructuredInputError(
    `${formatLocation(at)}: ${problem}${withId ? ": " : ""}the rows must all have an id, or none)`,
    [at, locate(file, first)],
  );
}

function unjoined(file: Loaded, rows: number[], what: string): StructuredInputError {
  const at = rows.map((i) => locate(file, rowAt(file, i)));
  return new StructuredInputError(
    `${rows.length} ${what}: ${at.slice(0, 5).map(formatLocation).join(", ")}`,
    at,
  );
}

/** The rows of a file whose ids `ids` lacks. */
function without(file: Loaded, ids: { has(id: string): boolean }): number[] {
  const out: number[] = [];
  for (let i = 0; i < file.size; i++) if (!ids.has(file.ids[i]!)) out.push(i);
  return out;
}

/**
 * Pairs expected rows with output rows: by id when the files have ids, else by line order. Each
 * file's rows all have an id or none ({@linkcode checkIdPattern}).
 *
 * @returns The index of the expected row of each output row, in the outputs' order.
 */
export function join(outputs: Loaded, expected: Loaded): number[] {
  const withIds = outputs.ids.some((id) => id !== undefined) ||
    expected.ids.some((id) => id !== undefined);
  if (!withIds) {
    if (outputs.size !== expected.size) {
      throw new StructuredInputError(
        `${outputs.name} has ${outputs.size} rows and ${expected.size} are expected ` +
          `in ${expected.name}; without ids, rows are joined by line order`,
        [{ source: outputs.name }, { source: expected.name }],
      );
    }
    return outputs.ids.map((_, i) => i);
  }
  for (const [file, other] of [[outputs, expected], [expected, outputs]] as const) {
    // Each file's rows all have an id or none (checkIdPattern): this one has none.
    if (file.size > 0 && file.ids[0] === undefined) {
      throw rowError(
        file,
        rowAt(file, 0),
        `missing field "id" (the rows of ${other.name} have ids: both files have them, or neither)`,
      );
    }
    checkUniqueIds(file);
  }
  const byId = new Map(expected.ids.map((id, i) => [id!, i]));
  const missing = without(outputs, byId);
  if (missing.length > 0) {
    throw unjoined(outputs, missing, `output(s) have no expected row in ${expected.name}`);
  }
  const orphans = without(expected, new Set(outputs.ids as string[]));
  if (orphans.length > 0) {
    throw unjoined(expected, orphans, `expected row(s) have no output in ${outputs.name}`);
  }
  return outputs.ids.map((id) => byId.get(id!)!);
}

function field(file: Loaded, row: Row, key: string): ExactField {
  const f = row.fields.get(key);
  if (f === undefined) throw rowError(file, row, `missing field "${key}"`);
  return f;
}

/**
 * A row's output: a string, decoded; or an object or an array (an API's whole response, as a
 * logger stores it) as its canonical JSON text, read exactly from the line (`1.0` stays a float).
 */
export function outputText(file: Loaded, row: Row): string {
  const f = field(file, row, "output");
  if (f.kind === "object" || f.kind === "array") return f.canonical;
  if (f.kind !== "string") {
    throw rowError(file, row, `field "output" must be a string, an object or an array`);
  }
  return decodeCanonicalString(f.canonical);
}

/**
 * A call or a list of calls; their arguments stay exact: an object `arguments`, or a `tool_use`
 * block's object `input`, becomes its canonical text. A predicted entry that is neither (`null`,
 * a string) is the metrics' one invalid call, as in the library (OpenAI's `"tool_calls": null`
 * among them); an expected one is refused at its row.
 */
export function toolCallsField(
  file: Loaded,
  row: Row,
  key: string,
  predicted = false,
): unknown[] | unknown {
  const f = field(file, row, key);
  if (f.kind !== "array" && f.kind !== "object") {
    if (predicted) return materialize(f.canonical);
    throw rowError(file, row, `field "${key}" must be a call or a list of calls`);
  }
  const value = materialize(f.canonical);
  const calls = Array.isArray(value) ? value : [value];
  // Each call's canonical text, the list split once: a lookup by index would scan the list from
  // its start for every call, quadratic in a row of many calls.
  const texts: string[] = [];
  if (Array.isArray(value)) {
    forEachItem(f.canonical, 0, (start, end) => void texts.push(f.canonical.slice(start, end)));
  } else texts.push(f.canonical);
  return calls.map((call, i) => {
    if (typeof call !== "object" || call === null || Array.isArray(call)) return call;
    const c = call as Record<string, unknown>;
    const fn = c.function;
    const block = c.type === "tool_use";
    const key = block ? "input" : "arguments";
    const inner = !block && typeof fn === "object" && fn !== null && !Array.isArray(fn);
    const path = [...(inner ? ["function"] : []), key];
    const args = (inner ? (fn as Record<string, unknown>) : c)[key];
    if (typeof args !== "object" || args === null) return call;
    const exact = lookupCanonical(texts[i]!, path, path.map(canonicalLiteral));
    const copy = { ...(inner ? (fn as Record<string, unknown>) : c), [key]: exact };
    return inner ? { ...c, function: copy } : copy;
  });
}

/** Any field, as a JavaScript value. */
export function valueField(file: Loaded, row: Row, key: string): unknown {
  return materialize(field(file, row, key).canonical);
}

/** The expected `fields`, each value as its exact JSON text. */
export function expectedFields(file: Loaded, row: Row): Record<string, string> {
  const f = field(file, row, "fields");
  if (f.kind !== "object") {
    throw rowError(file, row, 'field "fields" must be an object of dotted paths');
  }
  const out: Record<string, string> = {};
  const obj = materialize(f.canonical) as Record<string, unknown>;
  const index = new Map(); // the object is read once, for all of its keys
  for (const key of Object.keys(obj)) {
    Object.defineProperty(out, key, {
      value: lookupCanonical(f.canonical, [key], [canonicalLiteral(key)], index),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
