/**
 * Writing reports: deterministic JSON text (two-space indentation, one record per line) and the
 * comparison as one self-contained HTML page.
 *
 * @example
 * ```ts
 * import { formatReport } from "@assay/assay/report";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(formatReport({ n: 0, records: [] }), '{\n  "n": 0,\n  "records": []\n}\n');
 * ```
 *
 * @module
 */
export * from "./report_json.ts";
export * from "./html_report.ts";
