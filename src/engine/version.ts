/**
 * The package's name and version, as recorded in reports.
 *
 * @module
 */

/**
 * The tool that wrote a report. Kept equal to deno.json by a test.
 *
 * @example
 * ```ts
 * import { TOOL } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(TOOL.name, "@assay/assay");
 * ```
 */
export const TOOL = { name: "@assay/assay", version: "0.1.0" } as const;
