// The pure-TS engine's JSON parser: the reference reading of docs/engine.md.
//
// It never uses JSON.parse on model output: that would lose `1` versus `1.0`
// and the digits of big integers. Recursion is bounded by the 512-level depth
// limit, which is checked before descending. The tree it builds is in _nodes.ts.
import { escapeUnit, hex4 } from "./_canonical_string.ts";
import { pyFloatRepr } from "./float_repr.ts";
import { isDigit, isJsonSpace, MAX_DEPTH, MAX_INT_DIGITS } from "./limits.ts";
import { ArrayNode, buildObject, type Node, ObjectNode } from "./_nodes.ts";
import type { JsonError, JsonErrorCode } from "./types.ts";

/** The first syntax error of a parse, thrown to unwind the recursion. */
export class SyntaxFailure {
  constructor(readonly code: JsonErrorCode, readonly offset: number) {}
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/**
 * A recursive-descent parser over `text[pos, end)` that builds canonical
 * text bottom-up. Depth never exceeds MAX_DEPTH + 1 frames.
 *
 * `parseString(wantId)` scans a string at `pos` (on its `"`) and returns its canonical literal.
 * With `wantId`, it also sets `lastId` to the key identity: the decoded string when every code
 * point is below U+D800, otherwise U+FFFF followed by two code units per code point (high 16
 * bits, low 16 bits). (These docs are not on the members: the bundler keeps a class member's
 * docs, in the root's budget.)
 */
export class Parser {
  pos: number;
  lastId = "";

  constructor(readonly text: string, start: number, readonly end: number) {
    this.pos = start;
  }

  fail(code: JsonErrorCode, offset: number): never {
    throw new SyntaxFailure(code, offset);
  }

  skipWs(): void {
    const t = this.text;
    let p = this.pos;
    while (p < this.end) {
      const c = t.charCodeAt(p);
      if (!isJsonSpace(c)) break;
      p++;
    }
    this.pos = p;
  }

  parseDocument(): Node {
    this.skipWs();
    const node = this.parseValue(0);
    this.skipWs();
    if (this.pos < this.end) this.fail("extra_data", this.pos);
    return node;
  }

  parseValue(depth: number): Node {
    const t = this.text;
    const p = this.pos;
    if (p >= this.end) this.fail("expecting_value", p);
    const c = t.charCodeAt(p);
    switch (c) {
      case 0x22: // "
        return this.parseString(false);
      case 0x7b: // {
        return this.parseObject(depth + 1);
      case 0x5b: // [
        return this.parseArray(depth + 1);
      case 0x74: // t
        return this.literal("true", "true");
      case 0x66: // f
        return this.literal("false", "false");
      case 0x6e: // n
        return this.literal("null", "null");
      case 0x4e: // N
        return this.literal("NaN", "NaN");
      case 0x49: // I
        return this.literal("Infinity", "Infinity");
      case 0x2d: { // -
        const d = p + 1 < this.end ? t.charCodeAt(p + 1) : -1;
        if (d === 0x49) {
          if (p + 9 <= this.end && t.startsWith("Infinity", p + 1)) {
            this.pos = p + 9;
            return "-Infinity";
          }
          this.fail("expecting_value", p);
        }
        if (d < 0x30 || d > 0x39) this.fail("expecting_value", p);
        return this.parseNumber();
      }
    }
    if (isDigit(c)) return this.parseNumber();
    return this.fail("expecting_value", p);
  }

  literal(word: string, canonical: string): string {
    const p = this.pos;
    if (p + word.length <= this.end && this.text.startsWith(word, p)) {
      this.pos = p + word.length;
      return canonical;
    }
    return this.fail("expecting_value", p);
  }

  parseNumber(): string {
    const t = this.text;
    const end = this.end;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === 0x2d) p++;
    if (t.charCodeAt(p) === 0x30) {
      p++;
    } else {
      while (p < end) {
        const c = t.charCodeAt(p);
        if (c < 0x30 || c > 0x39) break;
        p++;
      }
    }
    let isFloat = false;
    if (p + 1 < end && t.charCodeAt(p) === 0x2e) {
      const d = t.charCodeAt(p + 1);
      if (isDigit(d)) {
        isFloat = true;
        p += 2;
        while (p < end) {
          const c = t.charCodeAt(p);
          if (c < 0x30 || c > 0x39) break;
          p++;
        }
      }
    }
    if (p < end) {
      const e = t.charCodeAt(p);
      if (e === 0x65 || e === 0x45) {
        let q = p + 1;
        if (q < end) {
          const s = t.charCodeAt(q);
          if (s === 0x2b || s === 0x2d) q++;
        }
        if (q < end) {
          const d = t.charCodeAt(q);
          if (isDigit(d)) {
            isFloat = true;
            q++;
            while (q < end) {
              const c = t.charCodeAt(q);
              if (c < 0x30 || c > 0x39) break;
              q++;
            }
            p = q;
          }
        }
      }
    }
    this.pos = p;
    const lexeme = t.slice(start, p);
    if (isFloat) return pyFloatRepr(Number(lexeme));
    const digits = lexeme.charCodeAt(0) === 0x2d ? lexeme.length - 1 : lexeme.length;
    if (digits > MAX_INT_DIGITS) this.fail("integer_too_long", start);
    return lexeme === "-0" ? "0" : lexeme;
  }

  parseString(wantId: boolean): string {
    const t = this.text;
    const end = this.end;
    const open = this.pos;
    let p = open + 1;
    // Fast path: printable ASCII with no escapes is already canonical.
    while (p < end) {
      const c = t.charCodeAt(p);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) break;
      p++;
    }
    if (p < end && t.charCodeAt(p) === 0x22) {
      this.pos = p + 1;
      if (wantId) this.lastId = t.slice(open + 1, p);
      return t.slice(open, p + 1);
    }
    let out = t.slice(open, p);
    // Key identities are built only for keys, two code units per code point.
    let wide = "";
    let isWide = false;
    // A lone high surrogate pairs with the next code unit only when both came
    // the same way: both raw (a JS surrogate pair) or both `\u` escapes.
    let pendingHigh = -1;
    let pendingEscaped = false;
    const pushCp = (cp: number, escaped: boolean) => {
      if (pendingHigh >= 0) {
        if (cp >= 0xdc00 && cp <= 0xdfff && escaped === pendingEscaped) {
          const astral = 0x10000 + ((pendingHigh - 0xd800) << 10) + (cp - 0xdc00);
          wide += String.fromCharCode(astral >> 16, astral & 0xffff);
          pendingHigh = -1;
          return;
        }
        wide += String.fromCharCode(0, pendingHigh);
        pendingHigh = -1;
      }
      if (cp >= 0xd800) isWide = true;
      if (cp >= 0xd800 && cp <= 0xdbff) {
        pendingHigh = cp;
        pendingEscaped = escaped;
        return;
      }
      wide += String.fromCharCode(0, cp);
    };
    if (wantId) { for (let i = open + 1; i < p; i++) wide += "\0" + t[i]; }
    for (;;) {
      if (p >= end) this.fail("unterminated_string", open);
      const c = t.charCodeAt(p);
      if (c === 0x22) {
        p++;
        break;
      }
      if (c < 0x20) this.fail("invalid_control_character", p);
      if (c !== 0x5c) {
        out += c <= 0x7e ? t[p] : hex4(c);
        if (wantId) pushCp(c, false);
        p++;
        continue;
      }
      if (p + 1 >= end) this.fail("unterminated_string", open);
      const e = t.charCodeAt(p + 1);
      let u: number;
      switch (e) {
        case 0x22:
          u = 0x22;
          break;
        case 0x5c:
          u = 0x5c;
          break;
        case 0x2f:
          u = 0x2f;
          break;
        case 0x62:
          u = 0x08;
          break;
        case 0x66:
          u = 0x0c;
          break;
        case 0x6e:
          u = 0x0a;
          break;
        case 0x72:
          u = 0x0d;
          break;
        case 0x74:
          u = 0x09;
          break;
        case 0x75: {
          if (p + 6 > end) this.fail("invalid_unicode_escape", p);
          const h0 = hexValue(t.charCodeAt(p + 2));
          const h1 = hexValue(t.charCodeAt(p + 3));
          const h2 = hexValue(t.charCodeAt(p + 4));
          const h3 = hexValue(t.charCodeAt(p + 5));
          if ((h0 | h1 | h2 | h3) < 0) this.fail("invalid_unicode_escape", p);
          u = (h0 << 12) | (h1 << 8) | (h2 << 4) | h3;
          out += escapeUnit(u);
          if (wantId) pushCp(u, true);
          p += 6;
          continue;
        }
        default:
          return this.fail("invalid_escape", p);
      }
      out += escapeUnit(u);
      if (wantId) pushCp(u, true);
      p += 2;
    }
    this.pos = p;
    if (wantId) {
      if (pendingHigh >= 0) wide += String.fromCharCode(0, pendingHigh);
      if (isWide) {
        this.lastId = "\uffff" + wide;
      } else {
        let plain = "";
        for (let i = 1; i < wide.length; i += 2) plain += wide[i];
        this.lastId = plain;
      }
    }
    return out + '"';
  }

  parseObject(depth: number): Node {
    const t = this.text;
    const open = this.pos;
    if (depth > MAX_DEPTH) this.fail("nesting_too_deep", open);
    this.pos++;
    this.skipWs();
    if (this.pos < this.end && t.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return new ObjectNode([], [], [], "{}");
    }
    const keys: string[] = [];
    const ids: string[] = [];
    const vals: Node[] = [];
    for (;;) {
      if (this.pos >= this.end || t.charCodeAt(this.pos) !== 0x22) {
        this.fail("expecting_property_name", this.pos);
      }
      keys.push(this.parseString(true));
      ids.push(this.lastId);
      this.skipWs();
      if (this.pos >= this.end || t.charCodeAt(this.pos) !== 0x3a) {
        this.fail("expecting_colon", this.pos);
      }
      this.pos++;
      this.skipWs();
      vals.push(this.parseValue(depth));
      this.skipWs();
      const c = this.pos < this.end ? t.charCodeAt(this.pos) : -1;
      if (c === 0x7d) {
        this.pos++;
        break;
      }
      if (c !== 0x2c) this.fail("expecting_comma", this.pos);
      this.pos++;
      this.skipWs();
    }
    return buildObject(keys, ids, vals);
  }

  parseArray(depth: number): Node {
    const t = this.text;
    const open = this.pos;
    if (depth > MAX_DEPTH) this.fail("nesting_too_deep", open);
    this.pos++;
    this.skipWs();
    if (this.pos < this.end && t.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return new ArrayNode([], "[]");
    }
    const items: Node[] = [];
    let text = "[";
    for (;;) {
      const v = this.parseValue(depth);
      items.push(v);
      text += (items.length > 1 ? "," : "") + (typeof v === "string" ? v : v.text);
      this.skipWs();
      const c = this.pos < this.end ? t.charCodeAt(this.pos) : -1;
      if (c === 0x5d) {
        this.pos++;
        break;
      }
      if (c !== 0x2c) this.fail("expecting_comma", this.pos);
      this.pos++;
      this.skipWs();
    }
    return new ArrayNode(items, text + "]");
  }
}

/** Parses a whole JSON text: its tree, or its first error. */
export function parseWhole(text: string): Node | JsonError {
  try {
    return new Parser(text, 0, text.length).parseDocument();
  } catch (e) {
    if (e instanceof SyntaxFailure) return { code: e.code, offset: e.offset };
    throw e;
  }
}

/** Whether a parse result is an error. */
export function isError(x: Node | JsonError): x is JsonError {
  return typeof x === "object" && !(x instanceof ObjectNode) && !(x instanceof ArrayNode);
}
