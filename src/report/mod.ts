/**
 * The comparison as one self-contained HTML page: a forest plot of every adapter − base delta
 * with its interval, the language gaps of both models, and the tables behind them. (The JSON text
 * of reports is `formatReport`, in `@assay/assay/evaluation`.)
 *
 * @example A page for a comparison
 * ```ts
 * import { renderComparisonHtml } from "@assay/assay/report";
 * import { compareReports } from "@assay/assay/compare";
 * import { scoreToolCalls } from "@assay/assay/evaluation";
 * import { strictEqual } from "node:assert/strict";
 *
 * const examples = [{ example_id: "1", language: "en", target: { name: "f", arguments: {} } }];
 * const base = scoreToolCalls(examples, [{ example_id: "1", output: "no" }]);
 * const adapter = scoreToolCalls(examples, [{ example_id: "1", output: '{"name":"f","arguments":{}}' }]);
 * const html = renderComparisonHtml(compareReports(base, adapter, { resamples: 100 }));
 * strictEqual(html.startsWith("<!DOCTYPE html>"), true);
 * ```
 *
 * @module
 */
export * from "./html_report.ts";
