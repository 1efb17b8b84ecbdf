/**
 * Flattened argument pairs, the unit of argument F1 (CONTRACT §3).
 *
 * @module
 */
import { checkOptions, engineOf, type WithEngine } from "./engine.ts";
import type { FlattenResult } from "./types.ts";

/**
 * Flattens one JSON text into canonical path/value pairs.
 *
 * A leaf is a scalar, an empty object or an empty array. Paths are canonical
 * JSON arrays of segments, so `{"a.b": 1}` and `{"a": {"b": 1}}` never collide.
 *
 * @param text A JSON text, usually an arguments object.
 * @param options The engine to use.
 * @returns `{ok: true, pairs}` in canonical order, or `{ok: false, error}`.
 * @throws {TypeError} If `text` is not a string.
 *
 * @example
 * ```ts
 * import { flattenArguments, formatPath } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const r = flattenArguments('{"city": "Paris", "filters": {"tags": ["quiet"]}, "options": {}}');
 * assertEquals(r.ok && r.pairs.map((p) => `${formatPath(p.path)} = ${p.value}`), [
 *   'city = "Paris"',
 *   'filters.tags[0] = "quiet"',
 *   "options = {}",
 * ]);
 * ```
 */
export function flattenArguments(text: string, options?: WithEngine): FlattenResult {
  return flattenArgumentsBatch([text], options)[0]!;
}

/**
 * The batch form of {@linkcode flattenArguments}.
 *
 * @param texts JSON texts.
 * @param options The engine to use.
 * @returns One result per text, in order.
 * @throws {TypeError} If `texts` is not an array of strings.
 *
 * @example
 * ```ts
 * import { flattenArgumentsBatch } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const [a, b] = flattenArgumentsBatch(['{"a.b": 1}', '{"a": {"b": 1}}']);
 * assertEquals(a, { ok: true, pairs: [{ path: '["a.b"]', value: "1" }] });
 * assertEquals(b, { ok: true, pairs: [{ path: '["a","b"]', value: "1" }] });
 * ```
 */
export function flattenArgumentsBatch(
  texts: readonly string[],
  options?: WithEngine,
): FlattenResult[] {
  checkOptions(options);
  return engineOf(options?.engine).flattenArgumentsBatch(texts);
}

/**
 * Writes a pair's path for display: `.key` between segments, `[i]` for
 * indices, the first key without its dot, and `<root>` for the empty path.
 * The display form is for people; match pairs on `path` itself.
 *
 * @param path A pair's `path`: the canonical JSON array of segments.
 * @returns The display form, e.g. `filters.tags[0]`.
 * @throws {TypeError} If `path` is not a JSON array of strings and integers.
 *
 * @example
 * ```ts
 * import { formatPath } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(formatPath('["filters","tags",0]'), "filters.tags[0]");
 * assertEquals(formatPath("[]"), "<root>");
 * assertEquals(formatPath('[0,"a"]'), "[0].a");
 * ```
 */
export function formatPath(path: string): string {
  let out = "";
  let segments = [];
  try {
    segments = JSON.parse(path);
    if (!Array.isArray(segments)) throw 0;
    for (const s of segments) {
      if (Number.isInteger(s)) out += `[${s}]`;
      else if (typeof s === "string") out += out === "" ? s : `.${s}`;
      else throw 0;
    }
  } catch (e) {
    // The cause is JSON.parse's error, if any.
    throw new TypeError(`Not a path: ${path.slice(0, 80)}`, e ? { cause: e } : {});
  }
  return segments.length === 0 ? "<root>" : out;
}
