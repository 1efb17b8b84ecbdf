/**
 * Exact reading of a JSON object's top-level fields, for rows of user data: each field's JSON
 * type and canonical text (exact digits, `1.0` kept apart from `1`), from raw JSON text or from
 * an engine's canonical output.
 *
 * @module
 */
import { forEachMember } from "./_canonical_scan.ts";
import { nodeText, ObjectNode } from "./_nodes.ts";
import { isError, parseWhole } from "./_ts_parser.ts";
import type { JsonError } from "./types.ts";

/**
 * Decodes a canonical string literal (pure ASCII, so JSON.parse is exact here).
 *
 * @param literal A string literal of canonical JSON text, quotes included.
 * @returns The decoded string.
 *
 * @example
 * ```ts
 * import { decodeCanonicalString } from "@assay/assay/engine";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(decodeCanonicalString('"caf\\u00e9"'), "café");
 * ```
 */
export function decodeCanonicalString(literal: string): string {
  return literal.indexOf("\\") < 0 ? literal.slice(1, -1) : JSON.parse(literal) as string;
}

/** A field of a JSON object, read with the exact parser. */
export interface ExactField {
  /** The JSON type of the value. */
  kind: "string" | "number" | "boolean" | "null" | "object" | "array";
  /** The value's canonical text: exact digits, `1.0` kept apart from `1`. */
  canonical: string;
}

/**
 * Reads one JSON text that should be an object (a JSONL line of user data) with the exact
 * parser. Returns its fields by decoded key, the first error, or `null` for valid JSON that is
 * not an object.
 */
export function readExactObject(text: string): Map<string, ExactField> | JsonError | null {
  const r = parseWhole(text);
  if (isError(r)) return r;
  if (!(r instanceof ObjectNode)) return null;
  const fields = new Map<string, ExactField>();
  for (let i = 0; i < r.keys.length; i++) {
    const canonical = nodeText(r.vals[i]!);
    fields.set(decodeCanonicalString(r.keys[i]!), { kind: kindOfCanonical(canonical), canonical });
  }
  return fields;
}

// The kind of a canonical value, from its first character.
function kindOfCanonical(text: string): ExactField["kind"] {
  const c = text.charCodeAt(0);
  if (c === 0x7b) return "object";
  if (c === 0x5b) return "array";
  if (c === 0x22) return "string";
  if (c === 0x6e) return "null";
  if (c === 0x74 || c === 0x66) return "boolean";
  return "number";
}

/**
 * The top-level fields of a canonical JSON object text (an engine's own output: no whitespace,
 * ASCII, keys unique), or `null` when the text is not an object. Cheaper than re-parsing.
 */
export function fieldsOfCanonical(canonical: string): Map<string, ExactField> | null {
  if (canonical.charCodeAt(0) !== 0x7b) return null;
  const fields = new Map<string, ExactField>();
  forEachMember(canonical, 0, (key, start, end) => {
    const value = canonical.slice(start, end);
    fields.set(decodeCanonicalString(canonical.slice(key, start - 1)), {
      kind: kindOfCanonical(value),
      canonical: value,
    });
  });
  return fields;
}
