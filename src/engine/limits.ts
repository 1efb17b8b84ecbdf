/**
 * The two limits of JSON acceptance (CONTRACT §1).
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
