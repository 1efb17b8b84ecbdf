/**
 * Well-formed UTF-16: a string with no lone surrogate, the strings that UTF-8 can hold exactly
 * (a lone surrogate has no UTF-8 form; `TextEncoder` writes U+FFFD for it).
 *
 * @module
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");
const NATIVE =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function" &&
  typeof (String.prototype as { toWellFormed?: unknown }).toWellFormed === "function";

/**
 * Whether a string has no lone surrogate (`String.prototype.isWellFormed`, also where the
 * runtime lacks it).
 *
 * @param s The string.
 * @returns True when every surrogate of `s` is half of a pair.
 *
 * @example
 * ```ts
 * import { isWellFormed } from "@assay/assay/engine";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isWellFormed("caf\u00e9 \ud83d\ude00"), true);
 * strictEqual(isWellFormed("half \ud83d"), false);
 * ```
 */
export function isWellFormed(s: string): boolean {
  return NATIVE ? s.isWellFormed() : !LONE_SURROGATE.test(s);
}

/**
 * A string with each lone surrogate replaced by U+FFFD (`String.prototype.toWellFormed`, also
 * where the runtime lacks it).
 *
 * @param s The string.
 * @returns `s`, well-formed.
 *
 * @example
 * ```ts
 * import { toWellFormed } from "@assay/assay/engine";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(toWellFormed("a\udc00b\ud83d\ude00"), "a\ufffdb\ud83d\ude00");
 * ```
 */
export function toWellFormed(s: string): string {
  return NATIVE ? s.toWellFormed() : s.replace(LONE_SURROGATES, "\uFFFD");
}
