// JSON acceptance: Python 3.11's `json.loads` (C scanner) plus a depth limit,
// as pinned down in docs/engine.md. The parser is a loop over an explicit
// frame stack (no recursion) and writes the canonical text as it goes.

import {
  countLeaf,
  emptyObject,
  shapeReset,
  KEY_IN_REGION,
  keyAppendBytes,
  keyAppendCodePoint,
  keysUsed,
  membersRestore,
  memberTop,
  pushMember,
  sortMembers,
  writeCodePoint,
  writeHighCodePoint,
} from "./canonical";
import { writeFloat } from "./float";
import { outBase, outByte, outCopy, outNeed, outPos, outRewind } from "./memory";
import {
  E_EXPECTING_COLON,
  E_EXPECTING_COMMA,
  E_EXPECTING_PROPERTY_NAME,
  E_EXPECTING_VALUE,
  E_EXTRA_DATA,
  E_INTEGER_TOO_LONG,
  E_INVALID_CONTROL_CHARACTER,
  E_INVALID_ESCAPE,
  E_INVALID_UNICODE_ESCAPE,
  E_NESTING_TOO_DEEP,
  E_UNTERMINATED_STRING,
  fail,
} from "./text";
import { bytesEqual, digitsEnd } from "./bytes";
import { stopsTo } from "./simd";
import { utf8Length } from "./utf8";

/**
 * Whether the text is raw bytes from a file (the scoring kernel's targets), whose UTF-8 is
 * checked as a fatal decoder checks it, rather than an engine's own WTF-8 (which may hold lone
 * surrogates as three bytes).
 */
let rawBytes: bool = false;
/** The deepest nesting accepted: one less for raw bytes, a member of a JSONL line's object. */
let depthLimit: i32 = 512;

/**
 * Sets whether the text parsed next is raw bytes (see rawBytes): a value one level inside a
 * JSONL line's object, whose nesting counts that object too.
 */
export function setRawBytes(on: bool): void {
  rawBytes = on;
  depthLimit = on ? MAX_DEPTH - 1 : MAX_DEPTH;
}

/** Containers nested deeper than this are rejected. */
export const MAX_DEPTH: i32 = 512;
/** Integer literals with more digits than this are rejected. */
export const MAX_INT_DIGITS: usize = 4300;

// One frame per open container: opening byte, member-stack mark, key-region
// mark, output offset just after the opening bracket.
const FRAME_SIZE: usize = 16;
const FRAMES: usize = memory.data(<i32> (<usize> MAX_DEPTH * FRAME_SIZE));

const LIT_TRUE: usize = memory.data<u8>([0x74, 0x72, 0x75, 0x65]);
const LIT_FALSE: usize = memory.data<u8>([0x66, 0x61, 0x6c, 0x73, 0x65]);
const LIT_NULL: usize = memory.data<u8>([0x6e, 0x75, 0x6c, 0x6c]);
const LIT_NAN: usize = memory.data<u8>([0x4e, 0x61, 0x4e]);
const LIT_INFINITY: usize = memory.data<u8>([0x49, 0x6e, 0x66, 0x69, 0x6e, 0x69, 0x74, 0x79]);

// The key just scanned: an input address or an R_KEYS offset, and its length
// (with KEY_IN_REGION set for the latter).
let keyRef: u32 = 0;
let keyLen: u32 = 0;

/** Skips JSON whitespace (space, tab, LF, CR). */
export function skipWs(p: usize, end: usize): usize {
  while (p < end) {
    const c = load<u8>(p);
    if (c != 0x20 && c != 0x0a && c != 0x0d && c != 0x09) break;
    p++;
  }
  return p;
}

// Whether the `n` bytes at `p` (all before `end`) equal those at `lit`.
function matches(p: usize, end: usize, lit: usize, n: usize): bool {
  if (p + n > end) return false;
  return bytesEqual(p, lit, n);
}

function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

// The character each two-character escape stands for, by its second character; 0 for none.
const ESCAPES: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 34, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 47,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 92, 0, 0, 0,
  0, 0, 8, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 10, 0,
  0, 0, 13, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

/**
 * The character a two-character escape stands for, by its second character `e`
 * (`"`, `\`, `/`, `b`, `f`, `n`, `r`, `t`), or -1 (`u` too: it takes four digits).
 */
// @ts-ignore: decorator
@inline export function escapedChar(e: u32): i32 {
  const b = e < 0x80 ? <i32> load<u8>(ESCAPES + e) : 0;
  return b != 0 ? b : -1;
}

/** The value of the four hex digits at `p` (before `end`), or -1. */
export function hex4(p: usize, end: usize): i32 {
  if (p + 4 > end) return -1;
  let v: i32 = 0;
  for (let i: usize = 0; i < 4; i++) {
    const c = <i32> load<u8>(p + i);
    let d: i32;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
    else return -1;
    v = (v << 4) | d;
  }
  return v;
}

/**
 * Scans the string whose opening quote is at `q`, writing its canonical
 * literal. For a key, also leaves its decoded bytes in keyRef/keyLen.
 * Returns the address after the closing quote, or 0 on error.
 */
function scanString(q: usize, end: usize, isKey: bool): usize {
  let p = q + 1;
  let decoding = false; // key bytes are being copied to R_KEYS
  const keyMark = keysUsed;
  outNeed(1);
  outByte(0x22);
  while (true) {
    // Bytes copied unchanged, sixteen at a time (see stopsTo).
    outNeed(16);
    const v = v128.load(p);
    v128.store(outBase + outPos, v);
    const m = stopsTo(v, p, end, 0x7f);
    const k: usize = m == 0 ? 16 : <usize> ctz(m);
    outRewind(outPos + k);
    if (decoding) keyAppendBytes(p, k);
    p += k;
    if (m == 0) continue;
    if (p >= end) return fail(E_UNTERMINATED_STRING, q);
    const c = <u32> load<u8>(p);
    if (c == 0x22) {
      outNeed(1);
      outByte(0x22);
      p++;
      break;
    }
    if (c < 0x20) return fail(E_INVALID_CONTROL_CHARACTER, p);
    if (c == 0x5c) {
      if (isKey && !decoding) {
        decoding = true;
        keyAppendBytes(q + 1, p - (q + 1));
      }
      if (p + 1 >= end) return fail(E_UNTERMINATED_STRING, q);
      const e = <u32> load<u8>(p + 1);
      let cp: u32 = 0;
      if (e == 0x75) {
        const h = hex4(p + 2, end);
        if (h < 0) return fail(E_INVALID_UNICODE_ESCAPE, p);
        cp = <u32> h;
        p += 6;
        if (
          cp >= 0xd800 && cp <= 0xdbff && p + 1 < end && load<u8>(p) == 0x5c &&
          load<u8>(p + 1) == 0x75
        ) {
          const l = hex4(p + 2, end);
          if (l >= 0xdc00 && l <= 0xdfff) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (<u32> l - 0xdc00);
            p += 6;
          }
        }
      } else {
        const c = escapedChar(e);
        if (c < 0) return fail(E_INVALID_ESCAPE, p);
        cp = <u32> c;
        p += 2;
      }
      writeCodePoint(cp);
      if (decoding) keyAppendCodePoint(cp);
      continue;
    }
    // DEL, or a run of multi-byte sequences (well-formed generalized UTF-8, or checked raw
    // bytes), each written as canonical text writes it, without going back to the block copy
    // between them.
    let b = c;
    do {
      if (rawBytes && b >= 0x80 && utf8Length(p, end) == 0) {
        return fail(E_INVALID_CONTROL_CHARACTER, p); // only ever a bail: the kernel words nothing
      }
      let cp = b;
      let n: usize = 1;
      if (b >= 0xf0) {
        cp = ((b & 0x07) << 18) | ((<u32> load<u8>(p + 1) & 0x3f) << 12) |
          ((<u32> load<u8>(p + 2) & 0x3f) << 6) |
          (<u32> load<u8>(p + 3) & 0x3f);
        n = 4;
      } else if (b >= 0xe0) {
        cp = ((b & 0x0f) << 12) | ((<u32> load<u8>(p + 1) & 0x3f) << 6) |
          (<u32> load<u8>(p + 2) & 0x3f);
        n = 3;
      } else if (b >= 0xc0) {
        cp = ((b & 0x1f) << 6) | (<u32> load<u8>(p + 1) & 0x3f);
        n = 2;
      }
      writeHighCodePoint(cp);
      if (decoding) keyAppendBytes(p, n);
      p += n;
      if (p >= end) break;
      b = <u32> load<u8>(p);
    } while (b >= 0x80);
  }
  if (isKey) {
    if (decoding) {
      keyRef = <u32> keyMark;
      keyLen = <u32> (keysUsed - keyMark) | KEY_IN_REGION;
    } else {
      keyRef = <u32> (q + 1);
      keyLen = <u32> (p - 1 - (q + 1));
    }
  }
  return p;
}

// Reads a number at `s` (a `-` or a digit); writes integers as digits and
// floats as `writeFloat` does (told where the integer part and the fraction end).
function parseNumber(s: usize, end: usize): usize {
  let p = s;
  const negative = load<u8>(p) == 0x2d;
  if (negative) p++;
  if (p >= end) return fail(E_EXPECTING_VALUE, s);
  let c = <u32> load<u8>(p);
  if (c == 0x30) {
    p++;
  } else if (c >= 0x31 && c <= 0x39) {
    p = digitsEnd(p + 1, end);
  } else {
    return fail(E_EXPECTING_VALUE, s);
  }
  const intEnd = p;
  let isFloat = p + 1 < end && load<u8>(p) == 0x2e && isDigit(<u32> load<u8>(p + 1));
  if (isFloat) p = digitsEnd(p + 2, end);
  const fracEnd = p;
  if (p < end) {
    c = <u32> load<u8>(p);
    if (c == 0x65 || c == 0x45) {
      let r = p + 1;
      if (r < end) {
        const sign = <u32> load<u8>(r);
        if (sign == 0x2b || sign == 0x2d) r++;
      }
      if (r < end && isDigit(<u32> load<u8>(r))) {
        r++;
        while (r < end && isDigit(<u32> load<u8>(r))) r++;
        isFloat = true;
        p = r;
      }
    }
  }
  if (isFloat) {
    writeFloat(s, intEnd, fracEnd, p);
    return p;
  }
  if (p - s - (negative ? 1 : 0) > MAX_INT_DIGITS) return fail(E_INTEGER_TOO_LONG, s);
  if (negative && p - s == 2 && load<u8>(s + 1) == 0x30) {
    outNeed(1);
    outByte(0x30); // -0 is 0
    return p;
  }
  outCopy(s, p - s);
  return p;
}

// Reads a value that is not a container, starting with byte `c` at `p`.
function parseScalar(p: usize, end: usize, c: u32): usize {
  if (c == 0x22) return scanString(p, end, false);
  if (c == 0x2d || isDigit(c)) {
    if (c == 0x2d && matches(p + 1, end, LIT_INFINITY, 8)) {
      outCopy(p, 9);
      return p + 9;
    }
    return parseNumber(p, end);
  }
  let lit: usize = 0;
  let n: usize = 0;
  if (c == 0x74) {
    lit = LIT_TRUE;
    n = 4;
  } else if (c == 0x66) {
    lit = LIT_FALSE;
    n = 5;
  } else if (c == 0x6e) {
    lit = LIT_NULL;
    n = 4;
  } else if (c == 0x4e) {
    lit = LIT_NAN;
    n = 3;
  } else if (c == 0x49) {
    lit = LIT_INFINITY;
    n = 8;
  }
  if (n == 0 || !matches(p, end, lit, n)) return fail(E_EXPECTING_VALUE, p);
  outCopy(p, n);
  return p + n;
}

// Reads a key (its `"` is at `q`), the colon and the whitespace after it;
// returns the address of the member's value.
function parseKey(q: usize, end: usize): usize {
  const segStart = outPos;
  let p = scanString(q, end, true);
  if (p == 0) return 0;
  pushMember(keyRef, keyLen, segStart);
  p = skipWs(p, end);
  if (p >= end || load<u8>(p) != 0x3a) return fail(E_EXPECTING_COLON, p);
  outNeed(1);
  outByte(0x3a);
  return skipWs(p + 1, end);
}

/**
 * Parses the value at `p` (whitespace already skipped) and writes its
 * canonical text. Returns the address after the value, or 0 on error.
 */
export function parseValue(p: usize, end: usize): usize {
  shapeReset();
  let depth: i32 = 0;
  while (true) {
    // A value is expected at p.
    if (p >= end) return fail(E_EXPECTING_VALUE, p);
    let c = <u32> load<u8>(p);
    if (c == 0x7b || c == 0x5b) {
      if (depth == depthLimit) return fail(E_NESTING_TOO_DEEP, p);
      outNeed(1);
      outByte(c);
      const q = skipWs(p + 1, end);
      if (q < end && <u32> load<u8>(q) == c + 2) {
        if (c == 0x7b) emptyObject(outPos - 1);
        outNeed(1);
        outByte(c + 2);
        countLeaf();
        p = q + 1;
      } else {
        const f = FRAMES + <usize> depth * FRAME_SIZE;
        store<u32>(f, c);
        store<u32>(f, memberTop, 4);
        store<u32>(f, <u32> keysUsed, 8);
        store<u32>(f, <u32> outPos, 12);
        depth++;
        p = q;
        if (c == 0x5b) continue;
        if (q >= end || load<u8>(q) != 0x22) return fail(E_EXPECTING_PROPERTY_NAME, q);
        p = parseKey(q, end);
        if (p == 0) return 0;
        continue;
      }
    } else {
      p = parseScalar(p, end, c);
      if (p == 0) return 0;
      countLeaf();
    }
    // A value has ended: close containers until one continues.
    while (true) {
      if (depth == 0) return p;
      p = skipWs(p, end);
      const f = FRAMES + <usize> (depth - 1) * FRAME_SIZE;
      const kind = load<u32>(f);
      if (p >= end) return fail(E_EXPECTING_COMMA, p);
      c = <u32> load<u8>(p);
      if (c == kind + 2) {
        if (kind == 0x7b) {
          sortMembers(load<u32>(f, 4), <usize> load<u32>(f, 12));
          membersRestore(load<u32>(f, 4), <usize> load<u32>(f, 8));
        }
        outNeed(1);
        outByte(c);
        p++;
        depth--;
        continue;
      }
      if (c != 0x2c) return fail(E_EXPECTING_COMMA, p);
      outNeed(1);
      outByte(0x2c);
      p = skipWs(p + 1, end);
      if (kind == 0x7b) {
        if (p >= end || load<u8>(p) != 0x22) return fail(E_EXPECTING_PROPERTY_NAME, p);
        p = parseKey(p, end);
        if (p == 0) return 0;
      }
      break;
    }
  }
}

/**
 * Parses `[start, end)` as one JSON document (whitespace around it allowed).
 * Returns true when accepted; otherwise the error is recorded.
 */
export function parseDocument(start: usize, end: usize): bool {
  const p = parseValue(skipWs(start, end), end);
  if (p == 0) return false;
  const q = skipWs(p, end);
  if (q != end) {
    fail(E_EXTRA_DATA, q);
    return false;
  }
  return true;
}
