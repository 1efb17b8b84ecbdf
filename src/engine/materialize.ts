// Turns canonical JSON text (our own output: ASCII, no whitespace, depth <= 512)
// into plain JS values. Keys are defined with defineProperty, so a `__proto__`
// key becomes an own property and no prototype is ever changed.
import type { JsonValue } from "./types.ts";
import { scalarEnd, stringEnd } from "./_canonical_scan.ts";
import { decodeCanonicalString } from "./exact_fields.ts";

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  value(): JsonValue {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 0x22) return decodeCanonicalString(this.stringLiteral());
    if (c === 0x7b) {
      const obj: { [key: string]: JsonValue } = {};
      this.pos++;
      if (t.charCodeAt(this.pos) === 0x7d) {
        this.pos++;
        return obj;
      }
      for (;;) {
        const key = decodeCanonicalString(this.stringLiteral());
        this.pos++; // ':'
        Object.defineProperty(obj, key, {
          value: this.value(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        if (t.charCodeAt(this.pos++) === 0x7d) return obj;
      }
    }
    if (c === 0x5b) {
      const arr: JsonValue[] = [];
      this.pos++;
      if (t.charCodeAt(this.pos) === 0x5d) {
        this.pos++;
        return arr;
      }
      for (;;) {
        arr.push(this.value());
        if (t.charCodeAt(this.pos++) === 0x5d) return arr;
      }
    }
    const end = scalarEnd(t, this.pos);
    const token = t.slice(this.pos, end);
    this.pos = end;
    if (token === "null") return null;
    if (token === "true") return true;
    if (token === "false") return false;
    return Number(token);
  }

  stringLiteral(): string {
    const start = this.pos;
    this.pos = stringEnd(this.text, start);
    return this.text.slice(start, this.pos);
  }
}

/** Materialises canonical JSON text produced by an engine. */
export function materialize(canonical: string): JsonValue {
  // Not JSON.parse, though it is faster: Deno 2.9.6's V8 can misread escaped keys (parse_json.ts).
  return new Reader(canonical).value();
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
