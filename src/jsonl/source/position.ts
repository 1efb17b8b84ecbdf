// Where an offset lies in a text, for the messages of readers of whole JSON files (a report, a
// schema, a catalog) that the engine's parser places by offset.

/**
 * The 1-based line and column of an offset into a text: lines end at `\n`, columns count UTF-16
 * code units (the offsets' unit), so a `\r` before a `\n` ends its line's columns.
 *
 * @param text The text.
 * @param offset An offset into it, from 0 to its length.
 * @returns Its line and column, both from 1.
 *
 * @example
 * ```ts
 * import { textPosition } from "./mod.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(textPosition('{\n  "a": }', 9), { line: 2, column: 8 });
 * ```
 */
export function textPosition(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}
