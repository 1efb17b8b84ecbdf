/**
 * Deterministic JSON text for reports: two-space indentation, one record per line.
 *
 * @module
 */

/**
 * Writes a report as JSON text with its `records` array one record per line, so that large
 * reports stay readable and diffable. The output is the same on every runtime.
 *
 * @param report Any report object; a top-level `records` array, if present, is written compactly.
 * @returns The JSON text, ending with a newline.
 *
 * @example
 * ```ts
 * import { formatReport } from "@assay/assay/evaluation";
 * import { strictEqual } from "node:assert/strict";
 *
 * const text = formatReport({ schema: "x", records: [{ a: 1 }, { a: 2 }] });
 * strictEqual(text, '{\n  "schema": "x",\n  "records": [\n    {"a":1},\n    {"a":2}\n  ]\n}\n');
 * ```
 */
export function formatReport(report: object): string {
  const { records, ...head } = report as { records?: unknown };
  if (!Array.isArray(records)) return JSON.stringify(report, null, 2) + "\n";
  const marker = "\u0000records\u0000";
  const headText = JSON.stringify({ ...head, records: marker }, null, 2);
  const body = records.length === 0
    ? "[]"
    : "[\n" + records.map((r) => "    " + JSON.stringify(r)).join(",\n") + "\n  ]";
  return headText.replace(JSON.stringify(marker), () => body) + "\n";
}
