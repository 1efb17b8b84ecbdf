/**
 * Python's `repr(float)` in TypeScript, the way canonical JSON writes floats
 * (CONTRACT §2).
 *
 * JavaScript's `Number#toExponential()` with no argument yields the shortest
 * digits that round-trip, the same digits Python's `repr` picks; only the
 * layout differs. Python writes fixed notation when the decimal exponent is in
 * [-4, 16) and keeps `.0` on integral values, and scientific notation
 * otherwise, with a signed exponent of at least two digits.
 *
 * @module
 */

/**
 * Formats a double exactly as Python's `json.dumps` does.
 *
 * @param x The double.
 * @returns `repr(x)` as Python writes it, with `NaN`, `Infinity` and `-Infinity` for the specials.
 *
 * @example Fixed and scientific layouts
 * ```ts
 * import { pyFloatRepr } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(pyFloatRepr(1e15), "1000000000000000.0");
 * assertEquals(pyFloatRepr(1e16), "1e+16");
 * assertEquals(pyFloatRepr(0.00001), "1e-05");
 * assertEquals(pyFloatRepr(-0), "-0.0");
 * ```
 */
export function pyFloatRepr(x: number): string {
  if (x !== x) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const exp = (x < 0 ? -x : x).toExponential();
  const e = exp.indexOf("e");
  const mantissa = exp.slice(0, e);
  const exponent = Number(exp.slice(e + 1));
  const digits = mantissa.length > 1 ? mantissa[0] + mantissa.slice(2) : mantissa;
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return sign + "0." + "0".repeat(-exponent - 1) + digits;
    const intLen = exponent + 1;
    if (digits.length <= intLen) return sign + digits + "0".repeat(intLen - digits.length) + ".0";
    return sign + digits.slice(0, intLen) + "." + digits.slice(intLen);
  }
  const abs = exponent < 0 ? -exponent : exponent;
  return sign + mantissa + (exponent < 0 ? "e-" : "e+") + (abs < 10 ? "0" : "") + abs;
}

/**
 * The canonical form of a JSON float literal: `repr(float(lexeme))`.
 *
 * @param lexeme A JSON number literal with a fraction or an exponent.
 * @returns Its canonical form, e.g. `"1e+400"` gives `"Infinity"`.
 * @throws {RangeError} If `lexeme` is not a JSON number literal (`"abc"`, `""`, `"0x10"`, `"1."`).
 *
 * @example Rounding and overflow
 * ```ts
 * import { canonicalFloat } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(canonicalFloat("1.50E3"), "1500.0");
 * assertEquals(canonicalFloat("-1e-400"), "-0.0");
 * assertEquals(canonicalFloat("1e400"), "Infinity");
 * ```
 *
 * @example What is not a JSON number is refused
 * ```ts
 * import { canonicalFloat } from "@assay/assay";
 * import { throws } from "node:assert/strict";
 *
 * throws(() => canonicalFloat("abc"), RangeError);
 * throws(() => canonicalFloat(".5"), RangeError);
 * ```
 */
export function canonicalFloat(lexeme: string): string {
  // Number() would read "abc" as NaN, "" as 0 and "0x10" as 16.
  if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(lexeme)) {
    throw new RangeError(`Not a JSON number: ${String(lexeme).slice(0, 80)}`);
  }
  return pyFloatRepr(Number(lexeme));
}
