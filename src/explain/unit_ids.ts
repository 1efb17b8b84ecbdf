/**
 * The ids a gate writes for the units of a BFCL or suite run report, in its verdict, text, JUnit
 * and Markdown, which `assay show --id` takes as well as its own: one formatter for both, so that
 * an id pasted from a CI summary selects what the gate meant.
 *
 * @module
 */

/**
 * A BFCL entry as a gate names it: its category and its 1-based position in the category's file
 * (BFCL's score-file id), `simple#14`.
 *
 * @example
 * ```ts
 * import { bfclGateId } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(bfclGateId("simple", 14), "simple#14");
 * ```
 */
export const bfclGateId = (category: string, id: string | number): string => `${category}#${id}`;

/**
 * A suite run's unit as a gate names it: a golden within an arm, its repeats pooled, `g1@base`.
 *
 * @example
 * ```ts
 * import { suiteGateId } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(suiteGateId("g1", "base"), "g1@base");
 * ```
 */
export const suiteGateId = (golden: string, arm: string): string => `${golden}@${arm}`;
