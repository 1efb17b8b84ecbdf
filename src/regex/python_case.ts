// Python's `str.lower()`, with CPython 3.11's Unicode (14.0) on every runtime, for the rooms that
// imitate Python (IFEval's checkers, BFCL's string standardization).
import { UNASSIGNED_14 } from "./unicode14.generated.ts";

// Made on first use, so that a bundle without pyLower has no Unicode table.
let newRuns: RegExp | undefined;

/**
 * Python's `str.lower()`: JavaScript's, but a code point new since Unicode 14 stays as it is (to
 * Python it is unassigned, so it has no case; nor is it cased for a final sigma before it).
 *
 * @param s Any text.
 * @returns `s` lowercased as CPython 3.11 lowercases it.
 * @throws {never} Never.
 */
export function pyLower(s: string): string {
  let out = "";
  let from = 0;
  newRuns ??= new RegExp(`${UNASSIGNED_14}+`, "gu");
  for (const m of s.matchAll(newRuns)) {
    out += s.slice(from, m.index).toLowerCase() + m[0];
    from = m.index + m[0].length;
  }
  return from === 0 ? s.toLowerCase() : out + s.slice(from).toLowerCase();
}
