// A value read from a suite file, as a message quotes it. JSON.stringify writes NaN and ±Infinity
// as null, which is not what the file says: YAML's .nan is NaN, and a number too large for a
// double (1e400, in YAML or JSONC) or YAML's .inf reads as Infinity.

/** `x` as JSON, or what a non-finite number was written as. */
export function valueText(x: unknown): string {
  if (typeof x === "number" && !Number.isFinite(x)) {
    if (Number.isNaN(x)) return "NaN (.nan)";
    const sign = x > 0 ? "" : "-";
    return `${sign}Infinity (a number too large for a double, or ${sign}.inf)`;
  }
  return JSON.stringify(x) ?? String(x);
}
