/**
 * The vocabulary of the linear-time regex engine: flags, parsed-tree node types, and the
 * ECMAScript character sets (`\\d`, `\\s`, `\\w`, line terminators) as sorted code point ranges.
 *
 * @module
 */

/** The flags that change matching. `d`, `g` and `y` are accepted and ignored. */
export interface RegexFlags {
  /** Case-insensitive. */
  i: boolean;
  /** Multiline `^` and `$`. */
  m: boolean;
  /** `.` matches line terminators too. */
  s: boolean;
  /** Code points instead of UTF-16 code units; strict syntax. */
  u: boolean;
}

/** A set of characters as sorted, disjoint, inclusive `[lo, hi]` pairs, maybe negated. */
export interface CharClass {
  /** Flat `[lo0, hi0, lo1, hi1, ...]`. */
  ranges: number[];
  /** Match characters not in `ranges` (a `[^...]` class). */
  negate: boolean;
}

/** Assertion kinds. */
export const BOL = 0, EOL = 1, WORD_BOUNDARY = 2, NOT_WORD_BOUNDARY = 3;

/** A parsed pattern. */
export type RegexNode =
  | { t: "set"; set: CharClass }
  | { t: "seq"; items: RegexNode[] }
  | { t: "alt"; items: RegexNode[] }
  | { t: "rep"; body: RegexNode; min: number; max: number }
  | { t: "assert"; kind: number };

/** The deepest group nesting the parser accepts. */
export const MAX_NESTING = 500;

/** Parses a flags string as `new RegExp` would; `v` is unsupported. */
export function parseFlags(flags: string): RegexFlags {
  const seen = new Set<string>();
  for (const f of flags) {
    if (f === "v") throw new SyntaxError("Unsupported regex flag 'v' (unicode sets)");
    if (!"dgimsuy".includes(f) || seen.has(f)) {
      throw new SyntaxError(`Invalid regex flags ${JSON.stringify(flags)}`);
    }
    seen.add(f);
  }
  return { i: seen.has("i"), m: seen.has("m"), s: seen.has("s"), u: seen.has("u") };
}

/** Line terminators: LF, CR, LS, PS. */
export const LINE_TERMINATORS = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];
/** `\\d`. */
export const DIGITS = [0x30, 0x39];
const WORD = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
// With `iu`, ECMAScript's word characters also hold U+017F and U+212A, which fold to s and k.
const WORD_IU = [...WORD, 0x17f, 0x17f, 0x212a, 0x212a];
/** `\\s`: ECMAScript WhiteSpace and LineTerminator. */
export const SPACE = [
  0x09,
  0x0d,
  0x20,
  0x20,
  0xa0,
  0xa0,
  0x1680,
  0x1680,
  0x2000,
  0x200a,
  0x2028,
  0x2029,
  0x202f,
  0x202f,
  0x205f,
  0x205f,
  0x3000,
  0x3000,
  0xfeff,
  0xfeff,
];

/** ECMAScript's word characters under these flags (the `\w` and `\b` set). */
export function wordRanges(flags: RegexFlags): number[] {
  return flags.i && flags.u ? WORD_IU : WORD;
}

/** Sorts and merges `[lo, hi]` pairs. */
export function normalizeRanges(pairs: number[]): number[] {
  const idx: number[] = [];
  for (let k = 0; k < pairs.length; k += 2) idx.push(k);
  idx.sort((x, y) => pairs[x]! - pairs[y]!);
  const out: number[] = [];
  for (const k of idx) {
    const lo = pairs[k]!, hi = pairs[k + 1]!;
    if (out.length > 0 && lo <= out[out.length - 1]! + 1) {
      if (hi > out[out.length - 1]!) out[out.length - 1] = hi;
    } else out.push(lo, hi);
  }
  return out;
}

/** The complement of normalized ranges within `[0, max]`. */
export function complementRanges(ranges: number[], max: number): number[] {
  const out: number[] = [];
  let next = 0;
  for (let k = 0; k < ranges.length; k += 2) {
    if (ranges[k]! > next) out.push(next, ranges[k]! - 1);
    next = ranges[k + 1]! + 1;
  }
  if (next <= max) out.push(next, max);
  return out;
}
