/**
 * Span extraction: the first balanced `{…}` or `[…]` in a raw model output.
 *
 * @module
 */
import { checkOptions, engineOf, type WithEngine } from "./engine.ts";
import type { SpanResult } from "./types.ts";

/**
 * Finds the first balanced JSON span in a text (CONTRACT §1).
 *
 * The span starts at the first `{` or `[`; a string-aware bracket stack finds
 * where it ends. Nothing is repaired and no other start is tried.
 *
 * @param text A raw model output.
 * @param options The engine to use.
 * @returns `found` with `start`/`end`, `no_json`, or `invalid_json` with an error.
 * @throws {TypeError} If `text` is not a string.
 *
 * @example Brackets inside strings are ignored
 * ```ts
 * import { extractSpan } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const text = 'Sure: {"q": "a}b"} ok';
 * const span = extractSpan(text);
 * assertEquals(span, { status: "found", start: 6, end: 18 });
 * assertEquals(text.slice(span.start, span.end), '{"q": "a}b"}');
 * assertEquals(extractSpan("no brackets").status, "no_json");
 * ```
 */
export function extractSpan(text: string, options?: WithEngine): SpanResult {
  return extractSpanBatch([text], options)[0]!;
}

/**
 * The batch form of {@linkcode extractSpan}: one engine call for many texts.
 *
 * @param texts Raw model outputs.
 * @param options The engine to use.
 * @returns One result per text, in order.
 * @throws {TypeError} If `texts` is not an array of strings.
 *
 * @example
 * ```ts
 * import { extractSpanBatch } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const spans = extractSpanBatch(["[1]", "{", "x"]);
 * assertEquals(spans.map((s) => s.status), ["found", "invalid_json", "no_json"]);
 * ```
 */
export function extractSpanBatch(texts: readonly string[], options?: WithEngine): SpanResult[] {
  checkOptions(options);
  return engineOf(options?.engine).extractSpanBatch(texts);
}
