// Python's decimal digits with CPython 3.11's Unicode (14.0) on every runtime: the value
// `unicodedata.decimal()` gives, which `int()` and `float()` read (`int("١٢")` is 12), for the
// rooms that imitate Python (BFCL's type converters).
import { DECIMAL_RUNS_14 } from "./unicode14.generated.ts";

// Made on first use: the first code point of each run of decimal digits, and its last.
let starts: number[] | undefined;
let ends: number[] | undefined;

function runs(): [number[], number[]] {
  if (!starts || !ends) {
    starts = [];
    ends = [];
    let last = -1;
    for (const p of DECIMAL_RUNS_14.split(" ")) {
      const [gap, length] = p.split(".").map((x) => parseInt(x, 36));
      const a = last + 1 + gap!;
      last = a + length!;
      starts.push(a);
      ends.push(last);
    }
  }
  return [starts, ends];
}

/**
 * The value of a decimal digit (`unicodedata.decimal(chr(cp))`: category Nd of Unicode 14.0, as
 * CPython 3.11 holds it), or -1 for any other code point.
 *
 * @param cp A code point.
 * @returns The digit's value, 0 to 9, or -1.
 * @throws {never} Never.
 *
 * @example ASCII, Arabic-Indic and mathematical digits
 * ```ts
 * import { pyDecimalValue } from "./mod.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual([0x37, 0x662, 0x1d7d0, 0x41].map(pyDecimalValue), [7, 2, 2, -1]);
 * ```
 */
export function pyDecimalValue(cp: number): number {
  const [s, e] = runs();
  let lo = 0, hi = s.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < s[mid]!) hi = mid - 1;
    else if (cp > e[mid]!) lo = mid + 1;
    else return (cp - s[mid]!) % 10;
  }
  return -1;
}
