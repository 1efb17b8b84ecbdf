// Escapes: the class escapes (`\d \s \w`, `\p{...}` under `u`, and their complements), character
// escapes (control, hex, Unicode, identity) and `\u` escapes with surrogate pairs under `u`;
// legacy Annex B forms that are usually mistakes are refused by name.
import { complementRanges, DIGITS, normalizeRanges, SPACE, wordRanges } from "./_sets.ts";
import { isDigit } from "../engine/mod.ts";
import type { PatternCursor } from "./_pattern_cursor.ts";

const SYNTAX_CHARS = "^$\\.*+?()[]{}|/";
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isAsciiLetter = (c: number) => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/** `\d \D \s \S \w \W`, and `\p{...} \P{...}` under `u` (after the backslash), or undefined. */
export function classEscape(r: PatternCursor): number[] | undefined {
  const c = r.peek();
  let base: number[];
  switch (c | 0x20) {
    case 0x64:
      base = DIGITS;
      break;
    case 0x73:
      base = SPACE;
      break;
    case 0x77:
      base = wordRanges(r.flags);
      break;
    case 0x70:
      if (!r.flags.u) return undefined;
      base = propertyEscape(r);
      break;
    default:
      return undefined;
  }
  r.pos++;
  return c >= 0x61 ? base : complementRanges(base, r.max);
}

const propertySets = new Map<string, number[]>();

/**
 * The code points of a Unicode property escape's `{...}` (at `p` or `P`, after the backslash), as
 * sorted ranges. The host's `RegExp`, whose Unicode tables are the runtime's, classifies each code
 * point once: a block of 256 code points all in or all out of the set takes one test of a single
 * repeated class (linear time), a mixed block one test per code point. Sets are cached by name.
 */
function propertyEscape(r: PatternCursor): number[] {
  const start = r.pos - 1;
  const end = r.peek(1) === 0x7b ? r.src.indexOf("}", r.pos + 2) : -1;
  const body = end < 0 ? "" : r.src.slice(r.pos + 2, end);
  let one: RegExp;
  try {
    one = new RegExp(`^\\p{${body}}$`, "u");
  } catch {
    r.fail("invalid Unicode property escape", start);
  }
  r.pos = end;
  let ranges = propertySets.get(body);
  if (ranges !== undefined) return ranges;
  const all = new RegExp(`^\\p{${body}}+$`, "u");
  const none = new RegExp(`^\\P{${body}}+$`, "u");
  const pairs: number[] = [];
  const block: number[] = [];
  for (let lo = 0; lo <= 0x10ffff; lo += 256) {
    block.length = 0;
    for (let cp = lo; cp < lo + 256; cp++) block.push(cp);
    // Aligned blocks never put a high and a low surrogate side by side, so each stays one.
    const text = String.fromCodePoint(...block);
    if (all.test(text)) pairs.push(lo, lo + 255);
    else if (!none.test(text)) {
      for (const cp of block) if (one.test(String.fromCodePoint(cp))) pairs.push(cp, cp);
    }
  }
  ranges = normalizeRanges(pairs);
  propertySets.set(body, ranges);
  return ranges;
}

/** A CharacterEscape after the backslash at `start`; returns its code point. */
export function characterEscape(r: PatternCursor, start: number, inClass: boolean): number {
  const u = r.flags.u;
  const c = r.peek();
  const simple: Record<number, number> = { 0x66: 12, 0x6e: 10, 0x72: 13, 0x74: 9, 0x76: 11 };
  if (simple[c] !== undefined) {
    r.pos++;
    return simple[c]!;
  }
  if (c === 0x63 /* c */) {
    const l = r.peek(1);
    if (!isAsciiLetter(l)) r.unsupported("'\\c' not followed by a letter", start);
    r.pos += 2;
    return l % 32;
  }
  if (c === 0x30 /* 0 */) {
    if (isDigit(r.peek(1))) r.unsupported("legacy octal escape", start);
    r.pos++;
    return 0;
  }
  if (c >= 0x31 && c <= 0x39) r.unsupported("octal escape or backreference", start);
  if (c === 0x78 /* x */ && isHex(r.peek(1)) && isHex(r.peek(2))) {
    const v = parseInt(r.src.slice(r.pos + 1, r.pos + 3), 16);
    r.pos += 3;
    return v;
  }
  if (c === 0x75 /* u */) {
    const v = unicodeEscape(r);
    if (v !== undefined) return v;
  }
  if (u) {
    if (SYNTAX_CHARS.includes(String.fromCharCode(c)) || (inClass && c === 0x2d)) {
      r.pos++;
      return c;
    }
    r.fail("invalid escape", start);
  }
  if (isAsciiLetter(c) || isDigit(c)) {
    r.unsupported(
      `escape '\\${String.fromCharCode(c)}' (ECMAScript reads it as a plain '${
        String.fromCharCode(c)
      }' without the u flag)`,
      start,
    );
  }
  r.pos++;
  return c;
}

/** `\uXXXX` (a surrogate pair of them with `u`) or `\u{...}` with `u`; after the backslash. */
export function unicodeEscape(r: PatternCursor): number | undefined {
  const hex4 = (p: number): number | undefined => {
    const s = r.src.slice(p, p + 4);
    return /^[0-9a-fA-F]{4}$/.test(s) ? parseInt(s, 16) : undefined;
  };
  if (r.flags.u && r.peek(1) === 0x7b /* { */) {
    const end = r.src.indexOf("}", r.pos + 2);
    const digits = end < 0 ? "" : r.src.slice(r.pos + 2, end);
    if (!/^[0-9a-fA-F]+$/.test(digits) || parseInt(digits, 16) > 0x10ffff) {
      r.fail("invalid Unicode escape", r.pos - 1);
    }
    r.pos = end + 1;
    return parseInt(digits, 16);
  }
  const v = hex4(r.pos + 1);
  if (v === undefined) {
    if (r.flags.u) r.fail("invalid Unicode escape", r.pos - 1);
    return undefined;
  }
  r.pos += 5;
  if (r.flags.u && v >= 0xd800 && v <= 0xdbff && r.src.startsWith("\\u", r.pos)) {
    const lo = hex4(r.pos + 2);
    if (lo !== undefined && lo >= 0xdc00 && lo <= 0xdfff) {
      r.pos += 6;
      return 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
    }
  }
  return v;
}
