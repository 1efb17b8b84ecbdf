// Python's string functions that BFCL's converters and checker call, over JS strings:
// `str.strip()`, `int(s)`, `float(s)`, and the `$` of `re` (end, or before a final newline).
import { PyFloat, PyInt, type PyValue } from "./py_value.ts";

/** The characters `str.isspace()` accepts. */
const PY_SPACE =
  "\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");

/** `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(STRIP, "");
}

const INT = /^[+-]?\d(?:_?\d)*$/;
const DIGITS = "\\d(?:_?\\d)*";
const FLOAT = new RegExp(
  `^[+-]?(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.?)(?:[eE][+-]?${DIGITS})?$`,
);
const SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;

/** `int(s)`, or undefined where Python raises ValueError. */
export function pyIntOf(s: string): PyInt | undefined {
  const t = pyStrip(s);
  return INT.test(t) ? new PyInt(BigInt(t.replaceAll("_", "").replace(/^\+/, ""))) : undefined;
}

/** `float(s)`, or undefined where Python raises ValueError. */
export function pyFloatOf(s: string): PyFloat | undefined {
  const t = pyStrip(s);
  if (SPECIAL.test(t)) {
    const neg = t.startsWith("-");
    return new PyFloat(/nan/i.test(t) ? NaN : neg ? -Infinity : Infinity);
  }
  return FLOAT.test(t) ? new PyFloat(Number(t.replaceAll("_", ""))) : undefined;
}

/** `int(s)`, else `float(s)`, else `s`: how the converters read an untyped literal. */
export function pyNumberOrText(s: string): PyValue {
  return pyIntOf(s) ?? pyFloatOf(s) ?? s;
}
