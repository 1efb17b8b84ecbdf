/**
 * CI verdicts over evaluation reports: gate rules (a minimum, non-inferiority or superiority on the
 * paired-bootstrap interval, a cap on regressions), the exact McNemar test on discordant pairs with
 * Holm's correction, and the verdict that drives the exit code, its plain text, JUnit and Markdown.
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
export * from "./rules.ts";
export * from "./verdict.ts";
export * from "./junit.ts";
export * from "./markdown.ts";
export * from "./outputs.ts";
export * from "./text.ts";
export * from "./sources.ts";
export * from "./rule_fit.ts";
