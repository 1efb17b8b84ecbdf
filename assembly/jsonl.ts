// JSONL lines for the scoring kernel (score.ts): UTF-8 validation, a strict
// scan of one line as a JSON object that finds the values of named top-level
// members, string literal decoding, and JSON.stringify's string escaping.
//
// The scan accepts a line only when the general reader (cli/score.ts) reads
// it the same way for certain: one JSON object (JSON.parse's grammar plus NaN,
// Infinity and -Infinity), nested at most MAX_DEPTH deep, no integer part
// longer than MAX_INT_DIGITS, and no top-level key with an escape. Anything
// else sends the whole run back to the general reader, which words the error
// or reads the rare line.

import { hex4, MAX_DEPTH, MAX_INT_DIGITS } from "./json";

/** Most named members a line is scanned for. */
export const MAX_FIELDS: i32 = 4;
/** Value range (start, end addresses) of each named member; 0, 0 when absent. */
export const FIELDS: usize = memory.data(MAX_FIELDS * 8);

// The kind (`{` or `[`) of each open container, by depth.
const KINDS: usize = memory.data(<i32> MAX_DEPTH + 2);

const LIT_TRUE: usize = memory.data<u8>([0x74, 0x72, 0x75, 0x65]);
const LIT_FALSE: usize = memory.data<u8>([0x66, 0x61, 0x6c, 0x73, 0x65]);
const LIT_NULL: usize = memory.data<u8>([0x6e, 0x75, 0x6c, 0x6c]);
const LIT_NAN: usize = memory.data<u8>([0x4e, 0x61, 0x4e]);
const LIT_INFINITY: usize = memory.data<u8>([0x49, 0x6e, 0x66, 0x69, 0x6e, 0x69, 0x74, 0x79]);

const ONES: u64 = 0x0101010101010101;
const HIGHS: u64 = 0x8080808080808080;

// Bit 7 of each byte is set for a zero byte of `x` (exact up to the lowest one).
function zeroBytes(x: u64): u64 {
  return (x - ONES) & ~x & HIGHS;
}

/** Skips the whitespace JSON allows within a line: space, tab and CR (a LF ends the line). */
export function skipWs(p: usize, end: usize): usize {
  while (p < end) {
    const c = load<u8>(p);
    if (c != 0x20 && c != 0x0d && c != 0x09) break;
    p++;
  }
  return p;
}

function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

function isContinuation(p: usize): bool {
  return (load<u8>(p) & 0xc0) == 0x80;
}


/**
 * The length of the UTF-8 sequence at `p` (its lead byte at least 0x80), as a
 * fatal WHATWG decoder reads it, or 0 when it is not one.
 */
function utf8Length(p: usize, end: usize): usize {
  const c = <u32> load<u8>(p);
  if (c < 0xc2) return 0;
  if (c < 0xe0) return p + 2 <= end && isContinuation(p + 1) ? 2 : 0;
  if (c < 0xf0) {
    if (p + 3 > end) return 0;
    const b = <u32> load<u8>(p + 1);
    if (c == 0xe0 && b < 0xa0) return 0; // overlong
    if (c == 0xed && b >= 0xa0) return 0; // a surrogate
    return isContinuation(p + 1) && isContinuation(p + 2) ? 3 : 0;
  }
  if (c >= 0xf5 || p + 4 > end) return 0;
  const b = <u32> load<u8>(p + 1);
  if (c == 0xf0 && b < 0x90) return 0; // overlong
  if (c == 0xf4 && b >= 0x90) return 0; // past U+10FFFF
  return isContinuation(p + 1) && isContinuation(p + 2) && isContinuation(p + 3) ? 4 : 0;
}

/**
 * The address after the closing quote of the strict JSON string literal whose
 * opening quote is at `q`, or 0 when there is none before `end` or its bytes
 * are not UTF-8.
 */
export function stringEnd(q: usize, end: usize): usize {
  let p = q + 1;
  while (true) {
    // Eight bytes at a time to the next control byte, `"`, `\` or non-ASCII byte.
    while (p + 8 <= end) {
      const x = load<u64>(p);
      const m = ((x - ONES * 0x20) & ~x & HIGHS) | (x & HIGHS) | zeroBytes(x ^ (ONES * 0x22)) |
        zeroBytes(x ^ (ONES * 0x5c));
      if (m != 0) {
        p += <usize> (ctz(m) >> 3);
        break;
      }
      p += 8;
    }
    if (p >= end) return 0;
    const c = <u32> load<u8>(p);
    if (c == 0x22) return p + 1;
    if (c < 0x20) return 0;
    if (c >= 0x80) {
      const n = utf8Length(p, end);
      if (n == 0) return 0;
      p += n;
      continue;
    }
    if (c != 0x5c) {
      p++;
      continue;
    }
    if (p + 1 >= end) return 0;
    const e = <u32> load<u8>(p + 1);
    if (e == 0x75) {
      if (p + 6 > end || hex4(p + 2, end) < 0) return 0;
      p += 6;
    } else if (
      e == 0x22 || e == 0x5c || e == 0x2f || e == 0x62 || e == 0x66 || e == 0x6e || e == 0x72 ||
      e == 0x74
    ) {
      p += 2;
    } else {
      return 0;
    }
  }
  return 0;
}

// The end of the strict JSON number at `p`, or 0 (also when its integer part
// has more than MAX_INT_DIGITS digits, whatever follows).
function numberEnd(p: usize, end: usize): usize {
  if (load<u8>(p) == 0x2d) p++;
  if (p >= end) return 0;
  const c = <u32> load<u8>(p);
  if (c == 0x30) {
    p++;
  } else if (c >= 0x31 && c <= 0x39) {
    const start = p;
    while (p < end && isDigit(<u32> load<u8>(p))) p++;
    if (p - start > MAX_INT_DIGITS) return 0;
  } else {
    return 0;
  }
  if (p < end && load<u8>(p) == 0x2e) {
    p++;
    if (p >= end || !isDigit(<u32> load<u8>(p))) return 0;
    while (p < end && isDigit(<u32> load<u8>(p))) p++;
  }
  if (p < end && (load<u8>(p) | 0x20) == 0x65) {
    p++;
    if (p < end && (load<u8>(p) == 0x2b || load<u8>(p) == 0x2d)) p++;
    if (p >= end || !isDigit(<u32> load<u8>(p))) return 0;
    while (p < end && isDigit(<u32> load<u8>(p))) p++;
  }
  return p;
}

// The end of the literal of `n` bytes at `lit` when `p` starts with it, or 0.
function literalEnd(p: usize, end: usize, lit: usize, n: usize): usize {
  return p + n <= end && memory.compare(p, lit, n) == 0 ? p + n : 0;
}

// Records the member `key: value` when the key is one of the `count` names
// (a table of u32 address, u32 length at `names`). False for an escaped key.
function member(key: usize, keyEnd: usize, value: usize, valueEnd: usize, names: usize, count: i32): bool {
  const n = keyEnd - key - 2;
  for (let p = key + 1; p < keyEnd - 1; p++) {
    if (load<u8>(p) == 0x5c) return false;
  }
  for (let k = 0; k < count; k++) {
    const name = names + (<usize> k << 3);
    if (<usize> load<u32>(name, 4) == n && memory.compare(key + 1, <usize> load<u32>(name), n) == 0) {
      store<u32>(FIELDS + (<usize> k << 3), <u32> value);
      store<u32>(FIELDS + (<usize> k << 3), <u32> valueEnd, 4);
    }
  }
  return true;
}

// Whether the key literal `[key, keyEnd)` is, unescaped, name `k` of `names`.
function isName(key: usize, keyEnd: usize, names: usize, k: i32): bool {
  const name = names + (<usize> k << 3);
  const n = <usize> load<u32>(name, 4);
  return keyEnd - key - 2 == n && memory.compare(key + 1, <usize> load<u32>(name), n) == 0;
}

// The address after the `:` that follows the key literal at `q`, or 0; the key
// ends at `keyEnd` then.
let keyEnd: usize = 0;
function keyColon(q: usize, end: usize): usize {
  if (q >= end || load<u8>(q) != 0x22) return 0;
  keyEnd = stringEnd(q, end);
  if (keyEnd == 0) return 0;
  const p = skipWs(keyEnd, end);
  return p < end && load<u8>(p) == 0x3a ? p + 1 : 0;
}

/**
 * Scans the JSON object at `s` (its `{`), on one line before `end`, and leaves
 * in FIELDS the value range of the last top-level member named each of the
 * `count` names. The string value of the member named `names[decode]` (if
 * `decode` is not -1) is decoded to `dst` as it is read (see decodeChecked).
 * Returns the address after the object, or 0 when it is not such an object in
 * the strict reading (see the header) or the line ends before it does.
 */
export function scanObject(
  s: usize,
  end: usize,
  names: usize,
  count: i32,
  decode: i32,
  dst: usize,
): usize {
  memory.fill(FIELDS, 0, <usize> MAX_FIELDS << 3);
  let i = s;
  let depth: i32 = 0;
  let key: usize = 0;
  let keyStop: usize = 0;
  let value: usize = 0;
  while (true) {
    // A value at i.
    i = skipWs(i, end);
    if (depth == 1) value = i;
    if (i >= end) return 0;
    const c = <u32> load<u8>(i);
    let opened = false;
    if (c == 0x7b || c == 0x5b) {
      if (depth == MAX_DEPTH) return 0;
      depth++;
      store<u8>(KINDS + <usize> depth, <u8> c);
      i = skipWs(i + 1, end);
      if (i < end && <u32> load<u8>(i) == c + 2) {
        i++;
        depth--;
      } else {
        opened = true;
      }
    } else if (c == 0x22) {
      i = depth == 1 && decode >= 0 && isName(key, keyStop, names, decode)
        ? decodeChecked(i, end, dst)
        : stringEnd(i, end);
    } else if (c == 0x2d && i + 1 < end && load<u8>(i + 1) == 0x49) {
      i = literalEnd(i + 1, end, LIT_INFINITY, 8);
    } else if (c == 0x2d || isDigit(c)) {
      i = numberEnd(i, end);
    } else if (c == 0x74) {
      i = literalEnd(i, end, LIT_TRUE, 4);
    } else if (c == 0x66) {
      i = literalEnd(i, end, LIT_FALSE, 5);
    } else if (c == 0x6e) {
      i = literalEnd(i, end, LIT_NULL, 4);
    } else if (c == 0x4e) {
      i = literalEnd(i, end, LIT_NAN, 3);
    } else if (c == 0x49) {
      i = literalEnd(i, end, LIT_INFINITY, 8);
    } else {
      return 0;
    }
    if (i == 0) return 0;
    if (opened) {
      if (<u32> load<u8>(KINDS + <usize> depth) != 0x7b) continue; // an array's first element
      const q = i;
      i = keyColon(q, end);
      if (i == 0) return 0;
      if (depth == 1) {
        key = q;
        keyStop = keyEnd;
      }
      continue;
    }
    // After a complete value: close containers, or go on to the next member or element.
    while (true) {
      if (depth == 1 && value != 0) {
        if (!member(key, keyStop, value, i, names, count)) return 0;
        value = 0;
      }
      if (depth == 0) return i;
      i = skipWs(i, end);
      if (i >= end) return 0;
      const d = <u32> load<u8>(i);
      const kind = <u32> load<u8>(KINDS + <usize> depth);
      if (d == kind + 2) {
        i++;
        depth--;
        continue;
      }
      if (d != 0x2c) return 0;
      i++;
      if (kind == 0x7b) {
        const q = skipWs(i, end);
        i = keyColon(q, end);
        if (i == 0) return 0;
        if (depth == 1) {
          key = q;
          keyStop = keyEnd;
        }
      }
      break;
    }
  }
}

/** Set by `decodeString` and `decodeChecked` when they wrote a lone surrogate. */
export let decodedLone: bool = false;
/** The length `decodeChecked` wrote. */
export let decodedLength: usize = 0;

/**
 * `stringEnd` and `decodeString` in one pass: checks the string literal whose
 * opening quote is at `q` (before `end`) and decodes it to `dst` (which has
 * room for the literal's length), leaving its length in `decodedLength`.
 * Returns the address after the closing quote, or 0.
 */
export function decodeChecked(q: usize, end: usize, dst: usize): usize {
  decodedLone = false;
  let p = q + 1;
  let o = dst;
  while (true) {
    // A run of bytes copied as they are: ASCII, then valid UTF-8 sequences.
    let r = p;
    while (true) {
      while (r + 8 <= end) {
        const x = load<u64>(r);
        const m = ((x - ONES * 0x20) & ~x & HIGHS) | (x & HIGHS) |
          zeroBytes(x ^ (ONES * 0x22)) | zeroBytes(x ^ (ONES * 0x5c));
        if (m != 0) {
          r += <usize> (ctz(m) >> 3);
          break;
        }
        r += 8;
      }
      while (r < end) {
        const c = <u32> load<u8>(r);
        if (c < 0x20 || c == 0x22 || c == 0x5c || c >= 0x80) break;
        r++;
      }
      if (r >= end || <u32> load<u8>(r) < 0x80) break;
      const n = utf8Length(r, end);
      if (n == 0) return 0;
      r += n;
    }
    if (r > p) {
      memory.copy(o, p, r - p);
      o += r - p;
      p = r;
    }
    if (p >= end) return 0;
    const c = <u32> load<u8>(p);
    if (c == 0x22) {
      decodedLength = o - dst;
      return p + 1;
    }
    if (c < 0x20 || p + 1 >= end) return 0;
    // An escape.
    const e = <u32> load<u8>(p + 1);
    if (e == 0x75) {
      if (p + 6 > end) return 0;
      const u = hex4(p + 2, end);
      if (u < 0) return 0;
      p += 6;
      if (
        u >= 0xd800 && u <= 0xdbff && p + 6 <= end && load<u8>(p) == 0x5c &&
        load<u8>(p + 1) == 0x75
      ) {
        const low = hex4(p + 2, end);
        if (low >= 0xdc00 && low <= 0xdfff) {
          o = writeUtf8(o, 0x10000 + ((<u32> u - 0xd800) << 10) + (<u32> low - 0xdc00));
          p += 6;
          continue;
        }
      }
      if (u >= 0xd800 && u <= 0xdfff) decodedLone = true;
      o = writeUtf8(o, <u32> u);
      continue;
    }
    let b: u32;
    if (e == 0x22 || e == 0x5c || e == 0x2f) b = e;
    else if (e == 0x62) b = 0x08;
    else if (e == 0x66) b = 0x0c;
    else if (e == 0x6e) b = 0x0a;
    else if (e == 0x72) b = 0x0d;
    else if (e == 0x74) b = 0x09;
    else return 0;
    store<u8>(o, <u8> b);
    o++;
    p += 2;
  }
  return 0;
}

// Writes code point `cp` (a surrogate as three bytes) at `o`; returns the end.
function writeUtf8(o: usize, cp: u32): usize {
  if (cp < 0x80) {
    store<u8>(o, <u8> cp);
    return o + 1;
  }
  if (cp < 0x800) {
    store<u8>(o, <u8> (0xc0 | (cp >> 6)));
    store<u8>(o + 1, <u8> (0x80 | (cp & 0x3f)));
    return o + 2;
  }
  if (cp < 0x10000) {
    store<u8>(o, <u8> (0xe0 | (cp >> 12)));
    store<u8>(o + 1, <u8> (0x80 | ((cp >> 6) & 0x3f)));
    store<u8>(o + 2, <u8> (0x80 | (cp & 0x3f)));
    return o + 3;
  }
  store<u8>(o, <u8> (0xf0 | (cp >> 18)));
  store<u8>(o + 1, <u8> (0x80 | ((cp >> 12) & 0x3f)));
  store<u8>(o + 2, <u8> (0x80 | ((cp >> 6) & 0x3f)));
  store<u8>(o + 3, <u8> (0x80 | (cp & 0x3f)));
  return o + 4;
}

/**
 * Decodes the string literal `[q, e)` (validated by `stringEnd`) to
 * generalized UTF-8 at `dst`, as JSON.parse reads it: a lone surrogate escape
 * becomes three bytes and sets `decodedLone`. Returns the length, at most
 * `e - q - 2`.
 */
export function decodeString(q: usize, e: usize, dst: usize): usize {
  decodedLone = false;
  let p = q + 1;
  const end = e - 1;
  let o = dst;
  while (true) {
    let r = p;
    while (r + 8 <= end) {
      const m = zeroBytes(load<u64>(r) ^ (ONES * 0x5c));
      if (m != 0) {
        r += <usize> (ctz(m) >> 3);
        break;
      }
      r += 8;
    }
    while (r < end && load<u8>(r) != 0x5c) r++;
    if (r > p) {
      memory.copy(o, p, r - p);
      o += r - p;
    }
    if (r >= end) break;
    const c = <u32> load<u8>(r + 1);
    p = r + 2;
    if (c == 0x75) {
      const u = <u32> hex4(p, end);
      p += 4;
      if (u >= 0xd800 && u <= 0xdbff && p + 6 <= end && load<u8>(p) == 0x5c && load<u8>(p + 1) == 0x75) {
        const low = <u32> hex4(p + 2, end);
        if (low >= 0xdc00 && low <= 0xdfff) {
          o = writeUtf8(o, 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00));
          p += 6;
          continue;
        }
      }
      if (u >= 0xd800 && u <= 0xdfff) decodedLone = true;
      o = writeUtf8(o, u);
      continue;
    }
    let b: u32 = c; // `"`, `\` and `/` stand for themselves
    if (c == 0x62) b = 0x08;
    else if (c == 0x66) b = 0x0c;
    else if (c == 0x6e) b = 0x0a;
    else if (c == 0x72) b = 0x0d;
    else if (c == 0x74) b = 0x09;
    store<u8>(o, <u8> b);
    o++;
  }
  return o - dst;
}

const HEX_DIGITS: usize = memory.data<u8>([
  0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66,
]);

/**
 * Writes the UTF-8 string `[p, p + n)` (no lone surrogates) at `o` as
 * JSON.stringify does: `"` and `\` escaped, the control characters as `\b`,
 * `\t`, `\n`, `\f`, `\r` or `\u00xx`, everything else as it is. Needs room for
 * `6 * n + 2` bytes; returns the end.
 */
export function writeJsonString(o: usize, p: usize, n: usize): usize {
  store<u8>(o++, 0x22);
  const end = p + n;
  while (p < end) {
    const c = <u32> load<u8>(p++);
    if (c >= 0x20 && c != 0x22 && c != 0x5c) {
      store<u8>(o++, <u8> c);
      continue;
    }
    store<u8>(o++, 0x5c);
    if (c == 0x22 || c == 0x5c) store<u8>(o++, <u8> c);
    else if (c == 0x08) store<u8>(o++, 0x62);
    else if (c == 0x09) store<u8>(o++, 0x74);
    else if (c == 0x0a) store<u8>(o++, 0x6e);
    else if (c == 0x0c) store<u8>(o++, 0x66);
    else if (c == 0x0d) store<u8>(o++, 0x72);
    else {
      store<u8>(o++, 0x75);
      store<u8>(o++, 0x30);
      store<u8>(o++, 0x30);
      store<u8>(o++, load<u8>(HEX_DIGITS + (c >> 4)));
      store<u8>(o++, load<u8>(HEX_DIGITS + (c & 15)));
    }
  }
  store<u8>(o++, 0x22);
  return o;
}
