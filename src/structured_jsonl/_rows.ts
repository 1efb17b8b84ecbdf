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
import type { ByteHasher, JsonlSource } from "../evaluation/mod.ts";
import { formatLocation, LineSplitter, type Location, quote } from "../jsonl/mod.ts";
import { StructuredInputError } from "./errors.ts";
import { readSource } from "./_read.ts";

/** One row of a JSONL source. */
export interface Row {
  line: number;
  id: string | undefined;
  fields: Map<string, ExactField>;
}

/** A JSONL source read: its rows, its digest, and its outputs read with replacements. */
export interface Loaded {
  name: string;
  rows: Row[];
  sha256: string;
  /** Rows whose model output held invalid UTF-8, read with U+FFFD replacements. */
  invalidUtf8: number;
}

/** How to read a JSONL source. */
export interface ReadOptions {
  maxLineBytes: number;
  sha256: (() => ByteHasher) | undefined;
  /** The fields whose string values are model output (read with U+FFFD replacements). */
  modelFields?: readonly string[];
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
  const rows: Row[] = [];
  let invalidUtf8 = 0;
  const take = (run: ReturnType<LineSplitter["push"]>) => {
    if (!run) return;
    invalidUtf8 += run.invalid?.length ?? 0;
    for (let i = 0; i < run.texts.length; i++) {
      const row = readRow(run.texts[i]!, { source: name, line: run.first + i });
      if (row) rows.push(row);
    }
  };
  const sha256 = await readSource(source, name, options.sha256, (c) => take(splitter.push(c)));
  take(splitter.end());
  return { name, rows, sha256, invalidUtf8 };
}

function readRow(text: string, at: { source: string; line: number }): Row | undefined {
  if (text.trim() === "") return undefined;
  const fields = readExactObject(text);
  if (fields === null) {
    throw new StructuredInputError(
      `${formatLocation(at)}: expected a JSON object, got ${quote(text)}`,
      [at],
    );
  }
  if (!(fields instanceof Map)) {
    throw new StructuredInputError(
      `${formatLocation(at)}: malformed JSON line (${fields.code} at ${fields.offset}): ` +
        quote(text),
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
    id = f.kind === "string" ? decodeCanonicalString(f.canonical) : f.canonical;
    break;
  }
  return { line: at.line, id, fields };
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
  const seen = new Map<string, Row>();
  for (const r of file.rows) {
    if (r.id === undefined) continue;
    const prev = seen.get(r.id);
    if (prev) {
      throw new StructuredInputError(
        `${file.name}: duplicate id ${JSON.stringify(r.id)} on lines ${prev.line} and ${r.line}`,
        [locate(file, prev), locate(file, r)],
      );
    }
    seen.set(r.id, r);
  }
}

function unjoined(file: Loaded, rows: Row[], what: string): StructuredInputError {
  const at = rows.map((r) => locate(file, r));
  return new StructuredInputError(
    `${rows.length} ${what}: ${at.slice(0, 5).map(formatLocation).join(", ")}`,
    at,
  );
}

/**
 * Pairs expected rows with output rows: by id when the files have ids, else by line order.
 *
 * @returns The expected row of each output row, in the outputs' order.
 */
export function join(outputs: Loaded, expected: Loaded): Row[] {
  const withIds = outputs.rows.some((r) => r.id !== undefined) ||
    expected.rows.some((r) => r.id !== undefined);
  if (!withIds) {
    if (outputs.rows.length !== expected.rows.length) {
      throw new StructuredInputError(
        `${outputs.name} has ${outputs.rows.length} rows and ${expected.rows.length} are expected ` +
          `in ${expected.name}; without ids, rows are joined by line order`,
        [{ source: outputs.name }, { source: expected.name }],
      );
    }
    return expected.rows;
  }
  for (const file of [outputs, expected]) {
    for (const r of file.rows) {
      if (r.id === undefined) throw rowError(file, r, 'missing field "id"');
    }
    checkUniqueIds(file);
  }
  const byId = new Map(expected.rows.map((r) => [r.id!, r]));
  const missing = outputs.rows.filter((r) => !byId.has(r.id!));
  if (missing.length > 0) {
    throw unjoined(outputs, missing, `output(s) have no expected row in ${expected.name}`);
  }
  const outIds = new Set(outputs.rows.map((r) => r.id!));
  const orphans = expected.rows.filter((r) => !outIds.has(r.id!));
  if (orphans.length > 0) {
    throw unjoined(expected, orphans, `expected row(s) have no output in ${outputs.name}`);
  }
  return outputs.rows.map((r) => byId.get(r.id!)!);
}

function field(file: Loaded, row: Row, key: string): ExactField {
  const f = row.fields.get(key);
  if (f === undefined) throw rowError(file, row, `missing field "${key}"`);
  return f;
}

/** A string field, decoded. */
export function stringField(file: Loaded, row: Row, key: string): string {
  const f = field(file, row, key);
  if (f.kind !== "string") throw rowError(file, row, `field "${key}" must be a string`);
  return decodeCanonicalString(f.canonical);
}

/**
 * A call or a list of calls; their arguments stay exact: an object becomes its canonical text. A
 * predicted entry that is neither (`null`, a string) is the metrics' one invalid call, as in the
 * library (OpenAI's `"tool_calls": null` among them); an expected one is refused at its row.
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
    const inner = typeof fn === "object" && fn !== null && !Array.isArray(fn);
    const path = [...(inner ? ["function"] : []), "arguments"];
    const args = (inner ? (fn as Record<string, unknown>) : c).arguments;
    if (typeof args !== "object" || args === null) return call;
    const exact = lookupCanonical(texts[i]!, path, path.map(canonicalLiteral));
    const copy = { ...(inner ? (fn as Record<string, unknown>) : c), arguments: exact };
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
