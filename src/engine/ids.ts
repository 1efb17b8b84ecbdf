/**
 * The identifiers that reports record, so that results made under different
 * contracts are never compared.
 *
 * @module
 */

/**
 * The parser contract: CONTRACT §1.
 *
 * @example
 * ```ts
 * import { PARSER_ID } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(PARSER_ID, "assay.parser.v1");
 * ```
 */
export const PARSER_ID = "assay.parser.v1";

/**
 * The canonical JSON contract: CONTRACT §2.
 *
 * @example
 * ```ts
 * import { CANONICAL_ID } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(CANONICAL_ID, "assay.canonical.v1");
 * ```
 */
export const CANONICAL_ID = "assay.canonical.v1";
