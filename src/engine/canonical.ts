/**
 * Canonical JSON (`assay.canonical.v1`): byte-identical to Python's
 * `json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=True)`.
 *
 * @module
 */
import { checkOptions, engineOf, type WithEngine } from "./engine.ts";
import type { CanonicalResult } from "./types.ts";

/**
 * Canonicalizes one JSON text (CONTRACT §2).
 *
 * Acceptance is Python's `json.loads` (NaN and Infinity accepted, raw control
 * characters rejected, last duplicate key wins), with nesting capped at 512.
 * Keys sort by code point; integers keep their digits; floats print as Python's `repr`.
 *
 * @param text A JSON text.
 * @param options The engine to use.
 * @returns `{ok: true, canonical}`, or `{ok: false, error}` with the first error's code and offset.
 * @throws {TypeError} If `text` is not a string.
 *
 * @example
 * ```ts
 * import { canonicalize } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(canonicalize('{"é": 1.0, "a": 10000000000000000000001}'), {
 *   ok: true,
 *   canonical: '{"a":10000000000000000000001,"\\u00e9":1.0}',
 * });
 * assertEquals(canonicalize("[1,]"), { ok: false, error: { code: "expecting_value", offset: 3 } });
 * ```
 */
export function canonicalize(text: string, options?: WithEngine): CanonicalResult {
  return canonicalizeBatch([text], options)[0]!;
}

/**
 * The batch form of {@linkcode canonicalize}.
 *
 * @param texts JSON texts.
 * @param options The engine to use.
 * @returns One result per text, in order.
 * @throws {TypeError} If `texts` is not an array of strings.
 *
 * @example
 * ```ts
 * import { canonicalizeBatch } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const rs = canonicalizeBatch(["-0", "1E400", "NaN"]);
 * assertEquals(rs.map((r) => r.ok && r.canonical), ["0", "Infinity", "NaN"]);
 * ```
 */
export function canonicalizeBatch(
  texts: readonly string[],
  options?: WithEngine,
): CanonicalResult[] {
  checkOptions(options);
  return engineOf(options?.engine).canonicalizeBatch(texts);
}
