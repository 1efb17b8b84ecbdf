// Python's string functions that BFCL's converters and checker call, over JS strings:
// `str.strip()`, `int(s)` (with its 4,300-digit limit), `float(s)`, and `re`'s str patterns:
// `\d`, `\w` and `\s` are Unicode's (CPython 3.11's, Unicode 14.0), and `$` is the end or before
// a final newline.
import { MAX_INT_DIGITS } from "../engine/mod.ts";
import { alnum14, decimal14, pyDecimalValue } from "../pytext/mod.ts";
import { PyFloat, PyInt, type PyValue } from "./py_value.ts";

/** The characters `str.isspace()` accepts. */
const PY_SPACE =
  "\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const SPACE = new RegExp(`[${PY_SPACE}]`);

/**
 * A Python `re` str pattern as a `u`-flag RegExp: `\d` is a decimal digit (`str.isdecimal()`),
 * `\w` an alphanumeric (`str.isalnum()`) or `_`, `\s` what `str.isspace()` accepts (U+001C to
 * U+001F and U+0085 among them, U+FEFF not), as Python's are; JavaScript's are other sets. The
 * pattern writes `.` as `[^\n]` (`[^]` with DOTALL) and `$` as `\n?$` itself.
 */
export function pyRegExp(pattern: string, flags = ""): RegExp {
  const classes: Record<string, string> = {
    d: decimal14(),
    w: `(?:${alnum14()}|_)`,
    s: `[${PY_SPACE}]`,
  };
  return new RegExp(pattern.replace(/\\([dws])/g, (_, c: string) => classes[c]!), flags + "u");
}

/** Whether the code unit at `i` is whitespace to `int()` once spaces past ASCII are " ". */
const numberSpace = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
};

/**
 * What `int()` and `float()` read of a string: each decimal digit made its ASCII digit, each
 * space past ASCII a space (U+001C to U+001F stay: `int("\x1c5")` fails), the ends stripped of
 * ASCII whitespace; undefined when another character past ASCII is there.
 */
function numberText(s: string): string | undefined {
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out += ch;
    else if (SPACE.test(ch)) out += " ";
    else {
      const d = pyDecimalValue(cp);
      if (d < 0) return undefined;
      out += String(d);
    }
  }
  let a = 0, b = out.length;
  while (a < b && numberSpace(out, a)) a++;
  while (b > a && numberSpace(out, b - 1)) b--;
  return out.slice(a, b);
}

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

/**
 * How many digits a decimal integer's digits hold for Python's limit on integer string
 * conversion (sys.get_int_max_str_digits(), 4,300 by default) when past it, else 0. Underscores
 * are no digits; leading zeros are (`int("0" * 4301)` is refused).
 */
export function intDigitsPastLimit(digits: string): number {
  let n = 0;
  for (let i = 0; i < digits.length; i++) if (digits[i] !== "_") n++;
  return n > MAX_INT_DIGITS ? n : 0;
}

/**
 * `int(s)`, or undefined where Python raises ValueError: not an integer, or past the limit on
 * integer string conversion (digits counted without sign, spaces and underscores).
 */
export function pyIntOf(s: string): PyInt | undefined {
  const t = numberText(s);
  if (t === undefined) return undefined;
  const sign = signed(t);
  return digitsEnd(t, sign) === t.length && !intDigitsPastLimit(t.slice(sign))
    ? new PyInt(BigInt(t.replaceAll("_", "").replace(/^\+/, "")))
    : undefined;
}

/** `float(s)`, or undefined where Python raises ValueError. */
export function pyFloatOf(s: string): PyFloat | undefined {
  const t = numberText(s);
  if (t === undefined) return undefined;
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
