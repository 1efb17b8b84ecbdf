// String literals of JSONL lines for the scoring kernel (score.ts): decoding
// them to generalized UTF-8 as JSON.parse reads them (with or without the
// checks of jsonl.ts's scan), and writing strings back as JSON.stringify does.

import { escapedChar, hex4 } from "./json";
import { stopsTo } from "./simd";
import { invalidLength, utf8Length } from "./utf8";
export { utf8Length } from "./utf8";

/** Set by `decodeChecked` when it wrote a lone surrogate. */
export let decodedLone: bool = false;
/**
 * Whether `decodeChecked` reads invalid UTF-8 as a replacing decoder does (each maximal
 * subpart becomes U+FFFD, and decodedReplaced is set) instead of failing.
 */
export let replaceInvalid: bool = false;
/** Set by `decodeChecked` when it replaced invalid UTF-8 (cleared by the caller). */
export let decodedReplaced: bool = false;

/** Sets whether invalid UTF-8 is replaced (see replaceInvalid). */
export function setReplaceInvalid(on: bool): void {
  replaceInvalid = on;
}

/** Clears decodedReplaced. */
export function clearReplaced(): void {
  decodedReplaced = false;
}
/** The length `decodeChecked` wrote. */
export let decodedLength: usize = 0;

/**
 * Checks the string literal whose opening quote is at `q` (before `end`) as
 * jsonl.ts's `stringEnd` does, and decodes it to `dst` as JSON.parse reads it:
 * a lone surrogate escape becomes three bytes and sets `decodedLone`. `dst`
 * needs room for the literal's length (three times that with replaceInvalid)
 * plus 16 bytes: plain bytes are copied sixteen at a time as they are scanned,
 * and the last copy may run past what it keeps. Leaves the length in `decodedLength`; returns the address after the
 * closing quote, or 0.
 */
export function decodeChecked(q: usize, end: usize, dst: usize): usize {
  decodedLone = false;
  let p = q + 1;
  let o = dst;
  while (true) {
    // Plain ASCII, copied sixteen bytes at a time as it is (see stopsTo).
    const v = v128.load(p);
    v128.store(o, v);
    const m = stopsTo(v, p, end, 0x80);
    if (m == 0) {
      p += 16;
      o += 16;
      continue;
    }
    const k = <usize> ctz(m);
    p += k;
    o += k;
    if (p >= end) return 0;
    const c = <u32> load<u8>(p);
    if (c == 0x5c) {
      // An escape: a two-character one without a call.
      if (p + 1 >= end) return 0;
      const e = <u32> load<u8>(p + 1);
      if (e == 0x75) {
        p = unicodeEscape(p, end, o);
        if (p == 0) return 0;
        o = unicodeOut;
        continue;
      }
      const b = escapedChar(e);
      if (b < 0) return 0;
      store<u8>(o, <u8> b);
      o++;
      p += 2;
      continue;
    }
    if (c >= 0x80) {
      // A run of UTF-8 sequences, each checked and copied as it is: the two- and three-byte
      // ones from one word when four bytes are left.
      do {
        if (p + 4 <= end) {
          const w = load<u32>(p);
          if ((w & 0xc0c0f0) == 0x8080e0) {
            // 1110xxxx 10xxxxxx 10xxxxxx: not overlong (E0 80..9F), not a surrogate (ED A0..BF).
            const lead = w & 0xff;
            const b = (w >> 8) & 0xff;
            if ((lead != 0xe0 || b >= 0xa0) && (lead != 0xed || b < 0xa0)) {
              store<u32>(o, w);
              p += 3;
              o += 3;
              continue;
            }
          } else if ((w & 0xc0e0) == 0x80c0 && (w & 0xff) >= 0xc2) {
            // 110xxxxx 10xxxxxx, not overlong (C0, C1).
            store<u16>(o, <u16> w);
            p += 2;
            o += 2;
            continue;
          }
        }
        const n = utf8Length(p, end);
        if (n == 0) {
          if (!replaceInvalid) return 0;
          // U+FFFD for the maximal subpart, as TextDecoder writes it.
          store<u16>(o, 0xbfef);
          store<u8>(o + 2, 0xbd);
          o += 3;
          p += invalidLength(p, end);
          decodedReplaced = true;
          continue;
        }
        store<u16>(o, load<u16>(p));
        if (n > 2) store<u16>(o + n - 2, load<u16>(p + n - 2));
        p += n;
        o += n;
      } while (p < end && <u32> load<u8>(p) >= 0x80);
      continue;
    }
    if (c == 0x22) {
      decodedLength = o - dst;
      return p + 1;
    }
    return 0; // a control character
  }
  return 0;
}

// The address after the `\u` escape at `p` (a surrogate pair's two, when they are one), or 0
// when it is not one; its code point is written to `o` as generalized UTF-8, and the address
// after it left in unicodeOut.
let unicodeOut: usize = 0;
function unicodeEscape(p: usize, end: usize, o: usize): usize {
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
      unicodeOut = writeUtf8(o, 0x10000 + ((<u32> u - 0xd800) << 10) + (<u32> low - 0xdc00));
      return p + 6;
    }
  }
  if (u >= 0xd800 && u <= 0xdfff) decodedLone = true;
  unicodeOut = writeUtf8(o, <u32> u);
  return p;
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

const HEX_DIGITS: usize = memory.data<u8>([
  0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66,
]);

/**
 * Writes the UTF-8 string `[p, p + n)` (no lone surrogates) at `o` as
 * JSON.stringify does: `"` and `\` escaped, the control characters as `\b`,
 * `\t`, `\n`, `\f`, `\r` or `\u00xx`, everything else as it is. Needs room for
 * `6 * n + 2` bytes and 15 more (plain bytes are copied sixteen at a time); returns the end.
 */
export function writeJsonString(o: usize, p: usize, n: usize): usize {
  store<u8>(o++, 0x22);
  const end = p + n;
  while (true) {
    // Plain bytes, copied sixteen at a time (see stopsTo).
    const v = v128.load(p);
    v128.store(o, v);
    const m = stopsTo(v, p, end, 0);
    const k: usize = m == 0 ? 16 : <usize> ctz(m);
    p += k;
    o += k;
    if (m == 0) continue;
    if (p >= end) break;
    const c = <u32> load<u8>(p++);
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
