/**
 * CI verdicts over reports: the exact McNemar test on discordant pairs and Holm's correction.
 *
 * @example A McNemar test
 * ```ts
 * import { mcnemarExact } from "@assay/assay/gate";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(mcnemarExact(0, 0).pValue, 1);
 * ```
 *
 * @module
 */
export * from "./mcnemar.ts";
