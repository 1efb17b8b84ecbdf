// JSON.parse with one result on every runtime. V8 15.0 (the V8 of Deno 2.9.6; not Node 20's, nor
// Bun's JavaScriptCore, nor workerd's) can misread an object key that holds an escape: when an
// earlier call read an object of the same shape with, at the same place, a key whose text is the
// escaped key's first characters as written, it takes that key. `{"p":1,"\\":1}` and then
// `{"p":1,"\u0041":1}` read the second key as `\`, not `A`. A key misread so holds a backslash
// (it is the raw text of an escape), which keys seldom do: a text whose keys hold none was read
// right, and one whose keys do is read again, its whitespace taken out, by materialize's reader,
// which reads any JSON text without whitespace (keys in order, the last value of a repeated key,
// -0 and all).
import { stringEnd } from "./_canonical_scan.ts";
import { materialize } from "./materialize.ts";
import { isJsonSpace } from "./limits.ts";

/** Whether a key of any object inside `value` holds a backslash. */
function backslashKey(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push(v[i]);
      continue;
    }
    for (const k in v) {
      if (k.includes("\\")) return true;
      stack.push((v as Record<string, unknown>)[k]);
    }
  }
  return false;
}

/**
 * Parses a JSON text as `JSON.parse` does, but with the same result on every runtime (V8 15.0
 * can misread an escaped object key as an earlier key of the same shape of object; such texts
 * are read again without it).
 *
 * @param text A JSON text.
 * @returns Its value.
 * @throws {SyntaxError} If `text` is not JSON.
 *
 * @example
 * ```ts
 * import { parseJson } from "@assay/assay";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * parseJson(String.raw`{"p": 1, "\\": 1}`);
 * deepStrictEqual(Object.keys(parseJson(String.raw`{"p": 1, "\u0041": 1}`) as object), ["p", "A"]);
 * ```
 */
export function parseJson(text: string): unknown {
  const value = JSON.parse(text);
  if (!text.includes("\\") || !backslashKey(value)) return value;
  let compact = "";
  for (let i = 0, from = 0; i <= text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i) - 1;
    } else if (isJsonSpace(c) || i === text.length) {
      compact += text.slice(from, i);
      from = i + 1;
    }
  }
  return materialize(compact);
}
