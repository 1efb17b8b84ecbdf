// Python's string functions that BFCL's converters and checker call, over JS strings:
// `str.strip()`, `int(s)`, `float(s)`, and the `$` of `re` (end, or before a final newline).
import { PyFloat, PyInt, type PyValue } from "./py_value.ts";

/** The characters `str.isspace()` accepts. */
const PY_SPACE =
  "\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const SPACE = new RegExp(`[${PY_SPACE}]`);

/** `s.strip()`, by scanning from both ends (a regex `\s+$` retries from every space: quadratic). */
export function pyStrip(s: string): string {
  let a = 0, b = s.length;
  while (a < b && SPACE.test(s[a]!)) a++;
  while (b > a && SPACE.test(s[b - 1]!)) b--;
  return s.slice(a, b);
}

/** Whether the code unit at `i` is an ASCII decimal digit. */
const isDigit = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
};

/**
 * The end of the digits `\d(?:_?\d)*` (ASCII digits, single underscores between them) from
 * `i`, or -1 when no digit is there; with `digit`, of another radix's digits alike. Scanned by
 * hand: V8 runs that pattern with a backtracking stack that a run of some 8 million digits
 * overflows.
 */
export function digitsEnd(
  s: string,
  i: number,
  digit: (s: string, i: number) => boolean = isDigit,
): number {
  if (!digit(s, i)) return -1;
  let p = i + 1;
  for (;;) {
    if (digit(s, p)) p++;
    else if (s[p] === "_" && digit(s, p + 1)) p += 2;
    else return p;
  }
}

/**
 * The end of the decimal number `(?:(?:D)?\.D|D\.?)(?:[eE][+-]?D)?` (D: {@linkcode digitsEnd})
 * that the regex would match from `i`, or -1: the first alternative that matches, each part
 * greedy, an exponent only when digits follow it.
 */
export function decimalEnd(s: string, i: number): number {
  const whole = digitsEnd(s, i);
  const dot = whole < 0 ? i : whole;
  const fraction = s[dot] === "." ? digitsEnd(s, dot + 1) : -1;
  let end = fraction >= 0 ? fraction : whole < 0 ? -1 : s[whole] === "." ? whole + 1 : whole;
  if (end < 0) return -1;
  if (s[end] === "e" || s[end] === "E") {
    const sign = s[end + 1] === "+" || s[end + 1] === "-" ? 1 : 0;
    const exponent = digitsEnd(s, end + 1 + sign);
    if (exponent >= 0) end = exponent;
  }
  return end;
}

const signed = (t: string) => (t[0] === "+" || t[0] === "-" ? 1 : 0);

const SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;

/** `int(s)`, or undefined where Python raises ValueError. */
export function pyIntOf(s: string): PyInt | undefined {
  const t = pyStrip(s);
  return digitsEnd(t, signed(t)) === t.length
    ? new PyInt(BigInt(t.replaceAll("_", "").replace(/^\+/, "")))
    : undefined;
}

/** `float(s)`, or undefined where Python raises ValueError. */
export function pyFloatOf(s: string): PyFloat | undefined {
  const t = pyStrip(s);
  if (SPECIAL.test(t)) {
    const neg = t.startsWith("-");
    return new PyFloat(/nan/i.test(t) ? NaN : neg ? -Infinity : Infinity);
  }
  return decimalEnd(t, signed(t)) === t.length
    ? new PyFloat(Number(t.replaceAll("_", "")))
    : undefined;
}

/** `int(s)`, else `float(s)`, else `s`: how the converters read an untyped literal. */
export function pyNumberOrText(s: string): PyValue {
  return pyIntOf(s) ?? pyFloatOf(s) ?? s;
}
