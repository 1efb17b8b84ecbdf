// Invalid UTF-8 in a line of JSON: where it is, and whether it lies only inside the string values
// of the fields that hold model output (read with U+FFFD replacements) or elsewhere (an input
// error). Byte-level: every byte of a JSON text's structure is ASCII, and every byte of an invalid
// sequence is not, so the structure can be walked on the raw bytes.
import { decodeCanonicalString } from "../engine/mod.ts";
import { InputError } from "./errors.ts";

/** A line that is not valid UTF-8 where it must be (an {@linkcode InputError}). */
export class InvalidUtf8Error extends InputError {
  /** The source's name. */
  declare readonly source: string;
  /** The 1-based line number. */
  declare readonly line: number;
  /** The 0-based offset of the first invalid byte in its line. */
  readonly lineOffset: number;
  /** The 0-based offset of that byte in the source. */
  readonly offset: number;

  /**
   * Creates the error.
   *
   * @param source The source's name.
   * @param line The 1-based line number.
   * @param lineOffset The 0-based offset of the first invalid byte in the line.
   * @param offset Its 0-based offset in the source.
   * @param bytes Its first bytes: gzip's magic number or UTF-16's byte order mark adds a hint.
   */
  constructor(
    source: string,
    line: number,
    lineOffset: number,
    offset: number,
    bytes?: Uint8Array,
  ) {
    super(
      `${source}:${line}: invalid UTF-8 at byte ${lineOffset} of the line (byte ${offset} of ` +
        `the file)${
          offset === 1 && bytes?.[0] === 31 && bytes[1] === 139
            ? ": it is gzip data: decompress it first"
            // FF FE or FE FF, the only two bytes that add up to 509.
            : offset === 0 && bytes !== undefined && bytes[0]! + bytes[1]! === 509
            ? ": it is UTF-16: save it as UTF-8"
            : ""
        }`,
      { at: { source, line } },
    );
    this.name = "InvalidUtf8Error";
    this.lineOffset = lineOffset;
    this.offset = offset;
  }
}

/**
 * The offset of the first byte of `bytes[from, to)` that is not part of a valid UTF-8 sequence
 * (as the WHATWG decoder reads it: no overlong forms, surrogates or code points above U+10FFFF),
 * or -1 when the range is valid.
 *
 * @param bytes The bytes.
 * @param from Where to start.
 * @param to Where to stop.
 * @returns The offset, or -1.
 */
export function firstInvalidUtf8(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let i = from;
  while (i < to) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) n = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      n = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    if (i + n >= to) return i; // cut short
    const c = bytes[i + 1]!;
    if (c < lo || c > hi) return i;
    for (let k = 2; k <= n; k++) {
      const d = bytes[i + k]!;
      if (d < 0x80 || d > 0xbf) return i;
    }
    i += n + 1;
  }
  return -1;
}

/**
 * The byte ranges inside the quotes of the string values of the top-level members of the JSON
 * object in `bytes` whose names are in `names` (every such member, duplicates included). A text
 * that is not such an object gives the ranges found before the walk lost its way.
 *
 * @param bytes A line's bytes.
 * @param names The member names.
 * @returns The ranges, as [start, end) pairs in order.
 */
export function stringValueRanges(bytes: Uint8Array, names: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  if (names.length === 0) return out;
  let depth = 0;
  let i = 0;
  let key: string | undefined; // the name of the member whose value comes next, at depth 1
  let expectKey = false;
  while (i < bytes.length) {
    const c = bytes[i]!;
    if (c === 0x22) {
      const end = stringEnd(bytes, i);
      if (end < 0) return out;
      if (depth === 1 && expectKey) {
        key = keyText(bytes, i, end);
        expectKey = false;
      } else if (depth === 1 && key !== undefined) {
        if (names.includes(key)) out.push([i + 1, end - 1]);
        key = undefined;
      }
      i = end;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth === 1) expectKey = c === 0x7b;
      key = depth === 2 ? undefined : key;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && depth === 1) {
      expectKey = true;
      key = undefined;
    } else if (c !== 0x3a && c > 0x20 && depth === 1) key = undefined; // a scalar value
    i++;
  }
  return out;
}

// The offset after the closing quote of the string literal whose opening quote is at `q`, or -1.
function stringEnd(bytes: Uint8Array, q: number): number {
  for (let i = q + 1; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x5c) i++;
    else if (c === 0x22) return i + 1;
  }
  return -1;
}

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// A key literal's text (undefined when it is not valid JSON or not UTF-8). decodeCanonicalString
// reads any JSON string literal so: its inside when it has no backslash, else JSON.parse's value.
function keyText(bytes: Uint8Array, q: number, end: number): string | undefined {
  try {
    return decodeCanonicalString(strict.decode(bytes.subarray(q, end)));
  } catch {
    return undefined;
  }
}

/**
 * Where a line's invalid UTF-8 is not allowed: the offset of its first invalid byte outside the
 * string values of the members named in `modelFields`, or -1 when every invalid byte is inside
 * them (or there is none).
 *
 * @param bytes A line's bytes.
 * @param modelFields The names of the members whose string values are model output.
 * @returns The offset, or -1.
 */
export function invalidUtf8Outside(bytes: Uint8Array, modelFields: readonly string[]): number {
  let from = 0;
  for (const [start, end] of stringValueRanges(bytes, modelFields)) {
    const bad = firstInvalidUtf8(bytes, from, start);
    if (bad >= 0) return bad;
    from = end;
  }
  return firstInvalidUtf8(bytes, from, bytes.length);
}

const fatal = new TextDecoder("utf-8", { fatal: true });

/**
 * A user file's text: its bytes decoded as UTF-8 (a BOM at the start dropped), or an
 * {@linkcode InvalidUtf8Error} at the first byte that is not UTF-8, with its line.
 *
 * @param bytes The file's bytes.
 * @param source The file's name, for the error.
 * @returns The text.
 * @throws {InvalidUtf8Error} If the bytes are not UTF-8.
 * @throws {InputError} If they are, but more text than a string can hold.
 *
 * @example
 * ```ts
 * import { decodeUtf8 } from "@assay/assay/jsonl";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * strictEqual(decodeUtf8(new Uint8Array([0x68, 0x69]), "a.txt"), "hi");
 * throws(
 *   () => decodeUtf8(new Uint8Array([0x61, 0x0a, 0x62, 0xff]), "a.txt"),
 *   /a.txt:2: invalid UTF-8 at byte 1 of the line \(byte 3 of the file\)/,
 * );
 * ```
 */
export function decodeUtf8(bytes: Uint8Array, source: string): string {
  try {
    return fatal.decode(bytes);
  } catch (e) {
    const at = firstInvalidUtf8(bytes);
    // Valid UTF-8 that no string can hold (V8's strings end at 2^29 - 24 code units).
    if (at < 0) {
      throw new InputError(`${source} is too large to read as one text (${bytes.length} bytes)`, {
        cause: e,
      });
    }
    let line = 1;
    let start = 0;
    for (let i = bytes.indexOf(10); i >= 0 && i < at; i = bytes.indexOf(10, i + 1)) {
      line++;
      start = i + 1;
    }
    throw new InvalidUtf8Error(source, line, at - start, at, bytes);
  }
}
