/**
 * CPython 3.11's text rules on every runtime, for the rooms that imitate Python (IFEval's checkers,
 * BFCL's checker, explain's escapes): its Unicode 14.0 sets (unassigned, identifier, non-printable,
 * cased and case-ignorable code points, decimal digits and alphanumerics), `str.lower()`,
 * re.IGNORECASE's equivalences and the decimal digits' values; and, from the same Unicode data,
 * the code points a terminal gives no column or two (explain's `displayWidth`).
 *
 * The root does not load this room: its tables are for the rooms behind their own subpaths.
 *
 * @example
 * ```ts
 * import { pyLower } from "./mod.ts";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(pyLower("ΟΔΟΣ"), "οδος");
 * ```
 *
 * @module
 */
export * from "./python_case.ts";
export * from "./python_digits.ts";
export * from "./unicode14.generated.ts";
