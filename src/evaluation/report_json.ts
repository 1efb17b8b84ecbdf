/**
 * Deterministic JSON text for reports: two-space indentation, one record per line.
 *
 * @module
 */
import { RECORDS_CLOSE, RECORDS_EMPTY, RECORDS_OPEN, reportFrame } from "./_report_frame.ts";

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
  let text = "";
  for (const part of formatReportParts(report)) text += part;
  return text;
}

/**
 * The text of {@linkcode formatReport} in parts, made as they are read: the head, then the
 * records `perPart` at a time, then the tail. Writing the parts one after the other gives
 * formatReport's bytes while holding one part of the text at a time.
 *
 * @param report Any report object; a top-level `records` array, if present, is written compactly.
 * @param perPart Records per part (default 4096).
 * @returns The parts, which join to formatReport's text.
 *
 * @example
 * ```ts
 * import { formatReport, formatReportParts } from "@assay/assay/evaluation";
 * import { strictEqual } from "node:assert/strict";
 *
 * const report = { schema: "x", records: [{ a: 1 }, { a: 2 }, { a: 3 }] };
 * strictEqual([...formatReportParts(report, 2)].join(""), formatReport(report));
 * ```
 */
export function* formatReportParts(report: object, perPart = 4096): Generator<string> {
  const { records, ...head } = report as { records?: unknown };
  if (!Array.isArray(records)) {
    yield JSON.stringify(report, null, 2) + "\n";
    return;
  }
  const { before, after } = reportFrame(head);
  if (records.length === 0) {
    yield before + RECORDS_EMPTY + after + "\n";
    return;
  }
  yield before + RECORDS_OPEN;
  for (let i = 0; i < records.length; i += perPart) {
    const lines = records.slice(i, i + perPart).map((r) => "    " + JSON.stringify(r));
    yield (i > 0 ? ",\n" : "") + lines.join(",\n");
  }
  yield RECORDS_CLOSE + after + "\n";
}
