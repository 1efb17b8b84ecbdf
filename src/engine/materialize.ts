// Turns canonical JSON text (our own output: ASCII, no whitespace, depth <= 512)
// into plain JS values. Keys are defined with defineProperty, so a `__proto__`
// key becomes an own property and no prototype is ever changed.
import type { JsonValue } from "./types.ts";
import { scalarEnd, stringEnd } from "./_canonical_scan.ts";
import { decodeCanonicalString } from "./exact_fields.ts";

// Without recursion, so that a text of any depth is read (parseJson reads user JSON with it).
function read(t: string): JsonValue {
  // The open containers, innermost last, each with the key its next value goes under.
  const open: [JsonValue[] | { [key: string]: JsonValue }, string][] = [];
  let pos = 0;
  const literal = () => {
    const start = pos;
    pos = stringEnd(t, start);
    return decodeCanonicalString(t.slice(start, pos));
  };
  for (;;) {
    let c = t.charCodeAt(pos);
    let v: JsonValue;
    if (c === 0x7b || c === 0x5b) {
      const container = c === 0x7b ? {} : [];
      if (t.charCodeAt(++pos) !== c + 2) {
        // A key, or the first item: read the value that comes next into this container.
        const key = c === 0x7b ? literal() : "";
        if (c === 0x7b) pos++; // ':'
        open.push([container, key]);
        continue;
      }
      pos++;
      v = container;
    } else if (c === 0x22) v = literal();
    else {
      const end = scalarEnd(t, pos);
      const token = t.slice(pos, end);
      pos = end;
      v = token === "null"
        ? null
        : token === "true"
        ? true
        : token === "false"
        ? false
        : Number(token);
    }
    // Put the value in its container; close every container that ends after it.
    for (;;) {
      const top = open.at(-1);
      if (!top) return v;
      const [container, key] = top;
      if (Array.isArray(container)) container.push(v);
      else {
        Object.defineProperty(container, key, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      c = t.charCodeAt(pos++);
      if (c === 0x2c) {
        if (!Array.isArray(container)) {
          top[1] = literal();
          pos++; // ':'
        }
        break;
      }
      open.pop();
      v = container;
    }
  }
}

/** Materialises canonical JSON text produced by an engine. */
export function materialize(canonical: string): JsonValue {
  // Not JSON.parse, though it is faster: Deno 2.9.6's V8 can misread escaped keys (parse_json.ts).
  return read(canonical);
}

/**
 * A value's JSON type as messages name it: `null`, `an array`, `an object`, `a string`,
 * `a number`, `a boolean` (`undefined` for a missing value).
 *
 * @param x Any value.
 * @returns Its kind, with its article.
 */
export function jsonKind(x: unknown): string {
  if (x === null || x === undefined) return String(x);
  if (Array.isArray(x)) return "an array";
  return typeof x === "object" ? "an object" : `a ${typeof x}`;
}
