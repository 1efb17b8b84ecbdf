// Python's str methods and `re` character classes, as the IFEval checkers and nltk use them.
//
// JavaScript's `\s`, `\w`, `\b`, `\d` and `.` differ from Python's on Unicode text: Python's
// `\w` is a letter, a number or `_` (combining marks are not word characters), `\d` is any
// decimal digit, `\s` is what `str.isspace()` accepts (with U+001C..U+001F and U+0085, without
// U+FEFF), and `.` excludes only "\n". These fragments are spliced into `u`-flag regexes.
//
// Python's Unicode is CPython 3.11's (14.0); the host's `\p{...}` is newer, and not the same on
// every runtime. A code point assigned since is no letter, number or cased character to Python,
// so each class here leaves out the code points 14.0 leaves unassigned (NEW).
import { unassigned14 } from "../pytext/mod.ts";

const NEW = unassigned14();

/** Python's `\s` (str.isspace) as a class body. */
export const S_BODY =
  "\\t-\\r\\x1c- \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
/** Python's `\s`. */
export const S = `[${S_BODY}]`;
/** Python's `\S`. */
export const NS = `[^${S_BODY}]`;
/** Python's `\w`. */
export const W = `(?:(?!${NEW})[\\p{L}\\p{N}_])`;
/** Python's `\d`. */
export const D = `(?:(?!${NEW})\\p{Nd})`;
/** Python's `[^\d]`. */
export const ND = `(?:${NEW}|[^\\p{Nd}])`;
/** Python's `[^\W\d]`: a word character that is not a decimal digit. */
export const ALPHA = `(?:(?!${NEW}|\\p{Nd})[\\p{L}\\p{N}_])`;
/** Python's `\b`. */
export const B = `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`;
/** Python's `.` without DOTALL. */
export const DOT = "[^\\n]";
/** Python's `$` without MULTILINE: the end, or before a final "\n". */
export const END = "(?=\\n?$)";

const SPACE_RUN = new RegExp(`${S}+`, "u");

/** Whether a UTF-16 code unit is whitespace for Python's `str.isspace()` (all such are BMP). */
function isSpaceUnit(c: number): boolean {
  return c <= 0x20
    ? (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20)
    : c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** Whether one character is whitespace for Python's `str.isspace()`. */
export function isSpace(ch: string): boolean {
  return ch.length === 1 && isSpaceUnit(ch.charCodeAt(0));
}

// Stripping scans by hand: a regex such as /\s+$/ backtracks quadratically on long runs of
// whitespace that do not reach the end.

/** Python's `str.strip()` with no argument. */
export function pyStrip(s: string): string {
  let a = 0, b = s.length;
  while (a < b && isSpaceUnit(s.charCodeAt(a))) a++;
  while (b > a && isSpaceUnit(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/** Python's `str.rstrip()` with no argument. */
export function pyRstrip(s: string): string {
  let b = s.length;
  while (b > 0 && isSpaceUnit(s.charCodeAt(b - 1))) b--;
  return s.slice(0, b);
}

/** Python's `str.split()` with no argument. */
export function pySplit(s: string): string[] {
  return pyStrip(s).split(SPACE_RUN).filter((p) => p !== "");
}

/** Python's `str.strip(chars)`, `lstrip(chars)` or `rstrip(chars)` for BMP `chars`. */
export function stripChars(s: string, chars: string, side: "both" | "left" | "right"): string {
  let a = 0, b = s.length;
  if (side !== "right") { while (a < b && chars.includes(s[a]!)) a++; }
  if (side !== "left") { while (b > a && chars.includes(s[b - 1]!)) b--; }
  return s.slice(a, b);
}

// Five modifier letters became Lowercase after Unicode 14 (CPython 3.11's version): not for Python.
// U+0295 is Lowercase in 14 (and 16) but not in the 15.1 tables of Node 20 and Bun: it is for Python.
const LOWER = new RegExp(
  `(?:(?![\\u10fc\\ua7f2-\\ua7f4\\uab69]|${NEW})\\p{Lowercase}|\\u0295)`,
  "u",
);
const UPPER = new RegExp(`(?!${NEW})\\p{Uppercase}`, "u");
const TITLE = new RegExp(`(?!${NEW})\\p{Lt}`, "u");

export { pyLower } from "../pytext/mod.ts";

/** Python's `str.isupper()`: no lowercase or titlecase character and at least one uppercase one. */
export function isUpper(s: string): boolean {
  let cased = false;
  for (const ch of s) {
    if (LOWER.test(ch) || TITLE.test(ch)) return false;
    if (!cased && UPPER.test(ch)) cased = true;
  }
  return cased;
}

/** Python's `str.islower()`: no uppercase or titlecase character and at least one lowercase one. */
export function isLower(s: string): boolean {
  let cased = false;
  for (const ch of s) {
    if (UPPER.test(ch) || TITLE.test(ch)) return false;
    if (!cased && LOWER.test(ch)) cased = true;
  }
  return cased;
}

/** Escapes a literal for a `u`-flag regex. */
export function escapeRegex(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}
