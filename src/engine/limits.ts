/**
 * The two limits of JSON acceptance (CONTRACT §1), and its whitespace and digits.
 *
 * @module
 */

/**
 * Nesting deeper than this many containers is rejected (CONTRACT §1's one deliberate deviation
 * from Python, whose own limit depends on its call stack).
 *
 * @example
 * ```ts
 * import { canonicalize, MAX_DEPTH } from "@assay/assay/engine";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(canonicalize("[".repeat(MAX_DEPTH + 1) + "]".repeat(MAX_DEPTH + 1)).ok, false);
 * ```
 */
export const MAX_DEPTH = 512;

/**
 * Integer literals with more digits than this are rejected (Python's int limit).
 *
 * @example
 * ```ts
 * import { canonicalize, MAX_INT_DIGITS } from "@assay/assay/engine";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(canonicalize("1".repeat(MAX_INT_DIGITS)).ok, true);
 * strictEqual(canonicalize("1".repeat(MAX_INT_DIGITS + 1)).ok, false);
 * ```
 */
export const MAX_INT_DIGITS = 4300;

/**
 * Whether a UTF-16 code unit is JSON whitespace: space, tab, LF or CR, as RFC 8259 and Python's
 * `json.loads` read it (not U+00A0 nor the other whitespace `trim()` removes).
 *
 * @example
 * ```ts
 * import { isJsonSpace } from "@assay/assay/engine";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isJsonSpace("\t".charCodeAt(0)), true);
 * strictEqual(isJsonSpace(0xa0), false);
 * ```
 */
export function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Whether a UTF-16 code unit is an ASCII digit, `0` to `9` (JSON's digits; not the other digits
 * `\d` or `Number()` may read).
 *
 * @example
 * ```ts
 * import { isDigit } from "@assay/assay/engine";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(isDigit("7".charCodeAt(0)), true);
 * strictEqual(isDigit("\u0667".charCodeAt(0)), false);
 * ```
 */
export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
