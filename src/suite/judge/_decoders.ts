// The decoders of the key redactor (_redact.ts): each turns a text into a layer of decoded
// UTF-16 units, and records for each unit the span of the text it came from.

/** Accumulates decoded UTF-16 units with the parent-layer span of each. */
export class Builder {
  units: Uint16Array;
  from: Int32Array;
  to: Int32Array;
  n = 0;
  changed = false;
  constructor(cap: number) {
    this.units = new Uint16Array(cap + 2);
    this.from = new Int32Array(cap + 2);
    this.to = new Int32Array(cap + 2);
  }
  push(unit: number, s: number, e: number): void {
    this.units[this.n] = unit;
    this.from[this.n] = s;
    this.to[this.n++] = e;
  }
  pushCodePoint(cp: number, s: number, e: number): void {
    this.changed = true;
    if (cp > 0xffff) {
      cp -= 0x10000;
      this.push(0xd800 + (cp >> 10), s, e);
      this.push(0xdc00 + (cp & 0x3ff), s, e);
    } else this.push(cp, s, e);
  }
  text(): string {
    let out = "";
    for (let i = 0; i < this.n; i += 8192) {
      out += String.fromCharCode(...this.units.subarray(i, Math.min(this.n, i + 8192)));
    }
    return out;
  }
}

const hexValue = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;

/** The value of `len` hex digits at `i`, or -1. */
function hexAt(t: string, i: number, len: number): number {
  if (i + len > t.length) return -1;
  let v = 0;
  for (let k = 0; k < len; k++) {
    const h = hexValue(t.charCodeAt(i + k));
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

const SIMPLE_ESCAPES: Record<string, number> = {
  '"': 0x22,
  "\\": 0x5c,
  "/": 0x2f,
  "'": 0x27,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
};

/** Backslash escapes: JSON's (`\uXXXX` in either hex case, `\/`, `\"` …), `\xXX`, `\u{…}`, `\'`. */
function decodeBackslash(t: string, b: Builder): void {
  for (let i = 0; i < t.length;) {
    if (t.charCodeAt(i) === 0x5c && i + 1 < t.length) {
      const c = t[i + 1]!;
      const simple = SIMPLE_ESCAPES[c];
      if (simple !== undefined) {
        b.pushCodePoint(simple, i, i + 2);
        i += 2;
        continue;
      }
      if (c === "u" && t[i + 2] === "{") {
        const close = t.indexOf("}", i + 3);
        const cp = close > i + 3 && close <= i + 9 ? hexAt(t, i + 3, close - i - 3) : -1;
        if (cp >= 0 && cp <= 0x10ffff) {
          b.pushCodePoint(cp, i, close + 1);
          i = close + 1;
          continue;
        }
      } else if (c === "u" || c === "x") {
        const len = c === "u" ? 4 : 2;
        const v = hexAt(t, i + 2, len);
        if (v >= 0) {
          b.pushCodePoint(v, i, i + 2 + len);
          i += 2 + len;
          continue;
        }
      }
    }
    b.push(t.charCodeAt(i), i, i + 1);
    i++;
  }
}

/** Percent-encoding in either hex case (`%2F`, `%2f`), and `%uXXXX`; `+` is left alone. */
function decodePercent(t: string, b: Builder): void {
  for (let i = 0; i < t.length;) {
    if (t.charCodeAt(i) === 0x25) {
      const wide = t[i + 1] === "u" || t[i + 1] === "U" ? hexAt(t, i + 2, 4) : -1;
      if (wide >= 0) {
        b.pushCodePoint(wide, i, i + 6);
        i += 6;
        continue;
      }
      const v = hexAt(t, i + 1, 2);
      if (v >= 0) {
        b.pushCodePoint(v, i, i + 3);
        i += 3;
        continue;
      }
    }
    b.push(t.charCodeAt(i), i, i + 1);
    i++;
  }
}

// HTML's named references for the ASCII characters (HTML5 names; the four legacy ones also
// without the semicolon).
const ENTITIES: Record<string, number> = {
  amp: 38,
  AMP: 38,
  lt: 60,
  LT: 60,
  gt: 62,
  GT: 62,
  quot: 34,
  QUOT: 34,
  apos: 39,
  sol: 47,
  bsol: 92,
  num: 35,
  dollar: 36,
  percnt: 37,
  lpar: 40,
  rpar: 41,
  ast: 42,
  midast: 42,
  plus: 43,
  comma: 44,
  period: 46,
  colon: 58,
  semi: 59,
  equals: 61,
  quest: 63,
  commat: 64,
  lsqb: 91,
  lbrack: 91,
  rsqb: 93,
  rbrack: 93,
  Hat: 94,
  lowbar: 95,
  UnderBar: 95,
  grave: 96,
  DiacriticalGrave: 96,
  lcub: 123,
  lbrace: 123,
  verbar: 124,
  vert: 124,
  VerticalLine: 124,
  rcub: 125,
  rbrace: 125,
  excl: 33,
  Tab: 9,
  NewLine: 10,
};
const LEGACY = new Set(["amp", "AMP", "lt", "LT", "gt", "GT", "quot", "QUOT"]);
const NUMERIC = /^#(?:[xX]([0-9A-Fa-f]{1,6})|([0-9]{1,7}));?/y;
const NAMED = /^([A-Za-z]{2,16})(;?)/y;

/** HTML character references: named, decimal (`&#38;`) and hex (`&#x26;`, `&#X26;`). */
function decodeHtml(t: string, b: Builder): void {
  for (let i = 0; i < t.length;) {
    if (t.charCodeAt(i) === 0x26) {
      const rest = t.slice(i + 1, i + 24);
      NUMERIC.lastIndex = 0;
      const m = NUMERIC.exec(rest);
      if (m) {
        const cp = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2]!, 10);
        if (cp <= 0x10ffff) {
          b.pushCodePoint(cp, i, i + 1 + m[0].length);
          i += 1 + m[0].length;
          continue;
        }
      }
      NAMED.lastIndex = 0;
      const n = NAMED.exec(rest);
      if (n) {
        const name = n[1]!;
        const cp = ENTITIES[name];
        if (cp !== undefined && (n[2] === ";" || LEGACY.has(name))) {
          b.pushCodePoint(cp, i, i + 1 + name.length + n[2]!.length);
          i += 1 + name.length + n[2]!.length;
          continue;
        }
      }
    }
    b.push(t.charCodeAt(i), i, i + 1);
    i++;
  }
}

/** Each escape decoder with the character that must be present for it to change anything. */
export const DECODERS: [string, (t: string, b: Builder) => void][] = [
  ["\\", decodeBackslash],
  ["%", decodePercent],
  ["&", decodeHtml],
];

/** base64 digit values, both alphabets at once (`+` and `-` are 62, `/` and `_` are 63). */
const B64 = new Int8Array(128).fill(-1);
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".split("").forEach((c, i) =>
  B64[c.charCodeAt(0)] = i
);
B64[43] = B64[45] = 62;
B64[47] = B64[95] = 63;
/** Whether a UTF-16 unit is a base64 digit of either alphabet. */
export const isBase64Digit = (c: number): boolean => c < 128 && B64[c]! >= 0;

/**
 * Decodes the base64 digits in [start, end) of `t` to bytes (one unit each); each byte's span is
 * the digits that carry any of its bits.
 */
export function decodeBase64(t: string, start: number, end: number): Builder {
  const b = new Builder(Math.ceil(((end - start) * 3) / 4));
  let acc = 0;
  let bits = 0;
  let first = start; // the digit holding the next byte's first bit
  for (let i = start; i < end; i++) {
    acc = ((acc << 6) | B64[t.charCodeAt(i)]!) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      b.push((acc >> bits) & 0xff, first, i + 1);
      first = bits === 0 ? i + 1 : i;
    }
  }
  return b;
}

/** Whether decoded bytes look like text worth decoding further (no C0 control but tab and EOL). */
export function texty(b: Builder): boolean {
  for (let k = 3; k < b.n - 3; k++) {
    const u = b.units[k]!;
    if ((u < 0x20 && u !== 9 && u !== 10 && u !== 13) || u === 0x7f) return false;
  }
  return true;
}
