// Streaming line reader: bounded by the longest line (and the read size), never by the file; a
// line longer than the limit is an input error, found as soon as its bytes pass the limit.
import { InputError } from "./errors.ts";
import { InvalidUtf8Error, invalidUtf8Outside } from "./utf8.ts";
import { checkOptions } from "../engine/mod.ts";

/** One input line. */
export interface Line {
  /** The decoded text, without its line break (a trailing `\r` is dropped too). */
  text: string;
  /** 1-based line number. */
  lineNo: number;
  /**
   * Bytes inside a model-output field were not valid UTF-8 and were decoded with U+FFFD
   * replacements (see LineOptions.modelFields).
   */
  invalidUtf8: boolean;
}

/** Consecutive lines: `texts[i]` is line `first + i`. */
export interface LineRun {
  /** The decoded lines, without their line breaks (a trailing `\r` is dropped too). */
  texts: string[];
  /** The 1-based number of the first line. */
  first: number;
  /**
   * Indexes into `texts` of the lines with invalid UTF-8 inside a model-output field, decoded
   * with U+FFFD replacements.
   */
  invalid: number[] | undefined;
}

/** The longest line a reader takes by default: 64 MiB (67,108,864 bytes). */
export const DEFAULT_MAX_LINE_BYTES: number = 64 << 20;

/** Options of a line reader. */
export interface LineOptions {
  /** The longest line taken: its bytes before its `\n` (default 64 MiB). */
  maxLineBytes?: number;
  /** The source's name in messages, such as a file name (default `<input>`). */
  source?: string;
  /**
   * The top-level members whose string values are model output (such as `output`): invalid
   * UTF-8 inside them is read with U+FFFD replacements, as TextDecoder reads it, and the line is
   * flagged. Invalid UTF-8 anywhere else is an {@linkcode InvalidUtf8Error} at its file, line and
   * byte. None by default: every line must be UTF-8.
   */
  modelFields?: readonly string[];
}

/** A line longer than the reader's limit (an {@linkcode InputError}). */
export class LineTooLongError extends InputError {
  /** The source's name. */
  declare readonly source: string;
  /** The 1-based number of the line. */
  declare readonly line: number;
  /** The limit it passed, in bytes. */
  readonly limit: number;

  /**
   * Creates the error.
   *
   * @param source The source's name.
   * @param line The 1-based line number.
   * @param limit The limit in bytes.
   */
  constructor(source: string, line: number, limit: number) {
    super(`${source}:${line}: line longer than the limit of ${sizeText(limit)}`, {
      at: { source, line },
    });
    this.name = "LineTooLongError";
    this.limit = limit;
  }
}

function sizeText(bytes: number): string {
  const mib = bytes / (1 << 20);
  return Number.isInteger(mib) ? `${bytes} bytes (${mib} MiB)` : `${bytes} bytes`;
}

/**
 * Checks a line limit option: a whole number of bytes, at least 1.
 *
 * @param value The option's value, or undefined for the default.
 * @returns The limit in bytes.
 * @throws {RangeError} If it is not a positive safe integer.
 */
export function maxLineBytesOf(value: number | undefined): number {
  return value === undefined ? DEFAULT_MAX_LINE_BYTES : wholeBytes(value, "maxLineBytes");
}

function wholeBytes(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(
      `${what} must be a whole number of bytes, at least 1; got ${
        typeof value === "string" ? JSON.stringify(value) : value
      }`,
    );
  }
  return value;
}

/**
 * Checks that a chunk of a byte source is a Uint8Array.
 *
 * @param chunk The chunk.
 * @param source The source's name in the message.
 * @returns The chunk.
 * @throws {TypeError} If it is not a Uint8Array (a string, say).
 */
export function bytesChunk(chunk: unknown, source: string): Uint8Array {
  if (!(chunk instanceof Uint8Array)) {
    // An ArrayBuffer or another view (Node's readableWebStream gives ArrayBuffers) is named, with
    // the way to its bytes.
    const kind = chunk === null || typeof chunk !== "object"
      ? typeof chunk
      : `${Object.prototype.toString.call(chunk).slice(8, -1)} (wrap it: new Uint8Array(chunk))`;
    throw new TypeError(`${source}: expected chunks of bytes (Uint8Array), got ${kind}`);
  }
  return chunk;
}

/**
 * Where a line of `chunk` longer than `max` bytes is, when there is one: the number of line
 * breaks before it in `chunk`. The first line of `chunk` continues `carried` bytes read
 * earlier; a last line without its break counts as a line. One pass over the chunk's line breaks.
 *
 * @param chunk The bytes.
 * @param carried Bytes of the first line that came before `chunk`.
 * @param max The limit.
 * @returns The index of the first long line, or -1.
 */
export function longLineIn(chunk: Uint8Array, carried: number, max: number): number {
  if (carried + chunk.length <= max) return -1;
  let start = -carried;
  let k = 0;
  for (;;) {
    const nl = chunk.indexOf(10, Math.max(start, 0));
    const end = nl < 0 ? chunk.length : nl;
    if (end - start > max) return k;
    if (nl < 0) return -1;
    start = nl + 1;
    if (chunk.length - start <= max) return -1;
    k++;
  }
}

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Decodes line `lineNo` of `source`, which starts at byte `offset`, onto `texts`; false when it
 * was not UTF-8 (inside its model-output fields only: else it throws). A function, not a private
 * method: the bundler keeps a class member's docs, in the root's budget.
 */
function decodeLine(
  bytes: Uint8Array,
  lineNo: number,
  offset: number,
  texts: string[],
  source: string,
  modelFields: readonly string[],
): boolean {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 13) end--;
  let start = 0;
  if (lineNo === 1 && end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    start = 3;
  }
  const view = bytes.subarray(start, end);
  try {
    texts.push(fatal.decode(view));
    return true;
  } catch {
    const bad = invalidUtf8Outside(view, modelFields);
    if (bad >= 0) {
      throw new InvalidUtf8Error(source, lineNo, start + bad, offset + start + bad, bytes);
    }
    texts.push(lenient.decode(view));
    return false;
  }
}

/**
 * A file's text without the byte order mark (U+FEFF) at its start, which every reader of user
 * files drops (the line splitters, and the readers of a file's whole text).
 *
 * @param text The file's text.
 * @returns The text, its first character dropped when it is U+FEFF.
 *
 * @example
 * ```ts
 * import { withoutBom } from "@assay/assay/jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(withoutBom("\ufeff{}"), "{}");
 * strictEqual(withoutBom("{}\ufeff"), "{}\ufeff");
 * ```
 */
export function withoutBom(text: string): string {
  return text.startsWith("\ufeff") ? text.slice(1) : text;
}

/**
 * Splits a byte stream into lines, a chunk at a time; a UTF-8 BOM at the very start is dropped.
 * The complete lines of each chunk are decoded at once; only a run with invalid UTF-8 is decoded
 * line by line, to flag exactly the lines that were replaced (`#offset` counts the bytes of the
 * source before the next line, to place an invalid byte in the file).
 */
export class LineSplitter {
  #pending: Uint8Array[] = [];
  #pendingLen = 0;
  #lineNo = 0;
  #offset = 0;
  readonly #max: number;
  readonly #source: string;
  readonly #modelFields: readonly string[];

  /**
   * Creates a splitter.
   *
   * @param options The line limit (64 MiB by default), the source's name for errors and the
   *   fields that hold model output.
   * @throws {RangeError} If the limit is not a positive whole number.
   */
  constructor(options: LineOptions = {}) {
    checkOptions(options);
    this.#max = maxLineBytesOf(options.maxLineBytes);
    this.#source = options.source ?? "<input>";
    this.#modelFields = options.modelFields ?? [];
  }

  /**
   * Takes the next chunk of bytes (which the caller may reuse afterwards) and returns the lines
   * it completes, or `undefined` when it completes none.
   *
   * @throws {LineTooLongError} When a line passes the limit: as soon as its bytes do, so a
   *   reader never holds more than the limit and a chunk.
   * @throws {InvalidUtf8Error} When a line is not UTF-8 outside its model-output fields.
   * @throws {TypeError} If the chunk is not a Uint8Array.
   */
  push(chunk: Uint8Array): LineRun | undefined {
    bytesChunk(chunk, this.#source);
    const long = longLineIn(chunk, this.#pendingLen, this.#max);
    if (long >= 0) throw new LineTooLongError(this.#source, this.#lineNo + 1 + long, this.#max);
    const last = chunk.lastIndexOf(10);
    if (last < 0) {
      if (chunk.length > 0) {
        this.#pending.push(chunk.slice());
        this.#pendingLen += chunk.length;
      }
      return undefined;
    }
    let region = chunk.subarray(0, last);
    if (this.#pendingLen > 0) {
      this.#pending.push(region);
      region = concat(this.#pending, this.#pendingLen + region.length);
      this.#pending = [];
      this.#pendingLen = 0;
    }
    const run = this.#lines(region);
    if (last + 1 < chunk.length) {
      this.#pending.push(chunk.slice(last + 1));
      this.#pendingLen += chunk.length - last - 1;
    }
    return run;
  }

  /** The last line, when the input does not end with a line break. */
  end(): LineRun | undefined {
    if (this.#pendingLen === 0) return undefined;
    const bytes = concat(this.#pending, this.#pendingLen);
    this.#pending = [];
    this.#pendingLen = 0;
    const first = ++this.#lineNo;
    const texts: string[] = [];
    const invalid = decodeLine(bytes, first, this.#offset, texts, this.#source, this.#modelFields)
      ? undefined
      : [0];
    this.#offset += bytes.length;
    return { texts, first, invalid };
  }

  #lines(region: Uint8Array): LineRun {
    // Decodes `region`, whole lines separated by `\n` (a comment here, not a member's docs, which
    // the bundler keeps, in the root's budget).
    const first = this.#lineNo + 1;
    let text: string | undefined;
    try {
      text = fatal.decode(region);
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const texts = text.split("\n");
      for (let i = 0; i < texts.length; i++) {
        const l = texts[i]!;
        if (l.charCodeAt(l.length - 1) === 13) texts[i] = l.slice(0, -1);
      }
      if (first === 1) texts[0] = withoutBom(texts[0]!);
      this.#lineNo += texts.length;
      this.#offset += region.length + 1;
      return { texts, first, invalid: undefined };
    }
    const texts: string[] = [];
    let invalid: number[] | undefined;
    let start = 0;
    const offset = this.#offset;
    for (;;) {
      const nl = region.indexOf(10, start);
      const lineNo = ++this.#lineNo;
      const line = region.subarray(start, nl < 0 ? region.length : nl);
      if (!decodeLine(line, lineNo, offset + start, texts, this.#source, this.#modelFields)) {
        (invalid ??= []).push(texts.length - 1);
      }
      if (nl < 0) break;
      start = nl + 1;
    }
    this.#offset += region.length + 1;
    return { texts, first, invalid };
  }
}

/**
 * Splits a byte stream into lines; a UTF-8 BOM at the very start is dropped. A chunk that is not a
 * Uint8Array is a TypeError.
 */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
  options?: LineOptions,
): AsyncGenerator<Line> {
  const splitter = new LineSplitter(options);
  const emit = function* (run: LineRun | undefined): Generator<Line> {
    if (!run) return;
    const invalid = new Set(run.invalid);
    for (let i = 0; i < run.texts.length; i++) {
      yield { text: run.texts[i]!, lineNo: run.first + i, invalidUtf8: invalid.has(i) };
    }
  };
  for await (const chunk of stream) yield* emit(splitter.push(chunk));
  yield* emit(splitter.end());
}

/**
 * Reads a file (or stdin) in chunks of `size` bytes, hands each chunk to `tap`, and yields the
 * lines the chunks complete, a run at a time. A `size` that is not a whole number of bytes, at
 * least 1, is a RangeError (when the first run is asked for).
 */
export async function* readLineRuns(
  reader: { read(p: Uint8Array): Promise<number | null>; readSync?(p: Uint8Array): number | null },
  tap?: (chunk: Uint8Array) => void,
  size = 1 << 20,
  options?: LineOptions,
): AsyncGenerator<LineRun> {
  const splitter = new LineSplitter(options);
  const buffer = new Uint8Array(wholeBytes(size, "size"));
  for (;;) {
    const n = reader.readSync ? reader.readSync(buffer) : await reader.read(buffer);
    if (n === null) break;
    if (n === 0) continue;
    const chunk = buffer.subarray(0, n);
    tap?.(chunk);
    const run = splitter.push(chunk);
    if (run) yield run;
  }
  const run = splitter.end();
  if (run) yield run;
}
