/**
 * Why each example scored as it did: `explainScore`, the detail a run writes into its records on
 * request, `diffPairs`, `selectExamples`, the records a person asks to see, and `formatExample`,
 * a record as text; and `displayWidth`, the columns a terminal gives a text, for the tables that
 * show ids and slices in any script; and `textHead`, where a long text is cut for display.
 *
 * @example
 * ```ts
 * import { DETAIL_OUTPUT_CHARS } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(DETAIL_OUTPUT_CHARS, 2000);
 * ```
 *
 * @module
 */
export * from "./explain.ts";
export * from "./detail_shape.ts";
export * from "./examples_section.ts";
export * from "./select_examples.ts";
export * from "./text/mod.ts";
export * from "./show_selection.ts";
export * from "./bfcl_entries.ts";
export * from "./ifeval_prompts.ts";
export * from "./structured_rows.ts";
export * from "./suite_runs.ts";
export * from "./unit_ids.ts";
export * from "./bfcl_score_file.ts";
export * from "./ifeval_results_file.ts";
