// Canonical JSON output (CONTRACT §2): string escaping and member ordering.
//
// The parser writes canonical text as it reads. An object's members are
// written in source order; when the object closes, they are sorted by key
// (code point order = byte order on WTF-8), a duplicated key keeps its last
// value, and the members are rewritten in place. Floats are written by
// float.ts as Python's repr.

import {
  copyBytes,
  outBase,
  outByte,
  outNeed,
  outPos,
  outRewind,
  R_KEYS,
  R_MEMBERS,
  R_SORT,
  regionBase,
  reserve,
} from "./memory";
import { bytesCompare } from "./bytes";

/** Set in a member's key length when the key bytes live in R_KEYS. */
export const KEY_IN_REGION: u32 = 0x8000_0000;

/**
 * Bytes per member record: key address or R_KEYS offset, key length (| KEY_IN_REGION), segment
 * start, and the key's first eight bytes as a big-endian word (zeros past a shorter key), which
 * orders most pairs of keys without reading them.
 */
export const MEMBER_SIZE: usize = 20;

/** Members on the member stack. */
export let memberTop: u32 = 0;

// What the parser learns of a document's structure as it writes it, so that the call shape and
// the pair count need no second walk over the canonical text (see shape.ts):
/** The last object closed: the output offsets of its `{` and just after its `}`. */
export let lastObjectStart: usize = -1;
export let lastObjectEnd: usize = 0;
/** Its members, once a duplicated key's earlier members are dropped. */
export let lastObjectMembers: u32 = 0;
/** The output offset where its first member's `"key":value` text ends. */
export let lastObjectFirstEnd: usize = 0;
/** Scalars and empty containers written since shapeReset: the pairs flatten.ts would find. */
export let leaves: u32 = 0;
/** Whether an object dropped a member for a later duplicate of its key since shapeReset. */
export let droppedMember: bool = false;
/**
 * Whether a raw surrogate (a lone one: three bytes of WTF-8, as a decoded output may hold) was
 * written since shapeReset. Its escape can then stand next to another surrogate's escape: a
 * literal's `\ud83d\ude00` is then perhaps two characters, where otherwise (the parser pairs
 * escapes) it is always the astral character U+1F600 (see literalOrder in score_pairs.ts).
 */
export let rawSurrogate: bool = false;

/** Starts a document: forgets what the last one's structure was. */
export function shapeReset(): void {
  lastObjectStart = -1;
  lastObjectEnd = 0;
  leaves = 0;
  droppedMember = false;
  rawSurrogate = false;
}

/** Counts a scalar or an empty container. */
// @ts-ignore: decorator
@inline export function countLeaf(): void {
  leaves++;
}

/** Records an empty object, `{}`, written at output offset `start`. */
export function emptyObject(start: usize): void {
  lastObjectStart = start;
  lastObjectEnd = start + 2;
  lastObjectMembers = 0;
  lastObjectFirstEnd = start + 1;
}
/** Bytes used in R_KEYS. */
export let keysUsed: usize = 0;

/** Empties the member stack and the key region (at the start of a text). */
export function membersReset(): void {
  memberTop = 0;
  keysUsed = 0;
}

/** Restores the member stack and key region to a frame's marks. */
export function membersRestore(top: u32, keys: usize): void {
  memberTop = top;
  keysUsed = keys;
}

// The two lowercase hex digits of each byte value, the high digit first.
const HEX2: usize = memory.data<u8>([
  0x30, 0x30, 0x30, 0x31, 0x30, 0x32, 0x30, 0x33, 0x30, 0x34, 0x30, 0x35, 0x30, 0x36, 0x30, 0x37,
  0x30, 0x38, 0x30, 0x39, 0x30, 0x61, 0x30, 0x62, 0x30, 0x63, 0x30, 0x64, 0x30, 0x65, 0x30, 0x66,
  0x31, 0x30, 0x31, 0x31, 0x31, 0x32, 0x31, 0x33, 0x31, 0x34, 0x31, 0x35, 0x31, 0x36, 0x31, 0x37,
  0x31, 0x38, 0x31, 0x39, 0x31, 0x61, 0x31, 0x62, 0x31, 0x63, 0x31, 0x64, 0x31, 0x65, 0x31, 0x66,
  0x32, 0x30, 0x32, 0x31, 0x32, 0x32, 0x32, 0x33, 0x32, 0x34, 0x32, 0x35, 0x32, 0x36, 0x32, 0x37,
  0x32, 0x38, 0x32, 0x39, 0x32, 0x61, 0x32, 0x62, 0x32, 0x63, 0x32, 0x64, 0x32, 0x65, 0x32, 0x66,
  0x33, 0x30, 0x33, 0x31, 0x33, 0x32, 0x33, 0x33, 0x33, 0x34, 0x33, 0x35, 0x33, 0x36, 0x33, 0x37,
  0x33, 0x38, 0x33, 0x39, 0x33, 0x61, 0x33, 0x62, 0x33, 0x63, 0x33, 0x64, 0x33, 0x65, 0x33, 0x66,
  0x34, 0x30, 0x34, 0x31, 0x34, 0x32, 0x34, 0x33, 0x34, 0x34, 0x34, 0x35, 0x34, 0x36, 0x34, 0x37,
  0x34, 0x38, 0x34, 0x39, 0x34, 0x61, 0x34, 0x62, 0x34, 0x63, 0x34, 0x64, 0x34, 0x65, 0x34, 0x66,
  0x35, 0x30, 0x35, 0x31, 0x35, 0x32, 0x35, 0x33, 0x35, 0x34, 0x35, 0x35, 0x35, 0x36, 0x35, 0x37,
  0x35, 0x38, 0x35, 0x39, 0x35, 0x61, 0x35, 0x62, 0x35, 0x63, 0x35, 0x64, 0x35, 0x65, 0x35, 0x66,
  0x36, 0x30, 0x36, 0x31, 0x36, 0x32, 0x36, 0x33, 0x36, 0x34, 0x36, 0x35, 0x36, 0x36, 0x36, 0x37,
  0x36, 0x38, 0x36, 0x39, 0x36, 0x61, 0x36, 0x62, 0x36, 0x63, 0x36, 0x64, 0x36, 0x65, 0x36, 0x66,
  0x37, 0x30, 0x37, 0x31, 0x37, 0x32, 0x37, 0x33, 0x37, 0x34, 0x37, 0x35, 0x37, 0x36, 0x37, 0x37,
  0x37, 0x38, 0x37, 0x39, 0x37, 0x61, 0x37, 0x62, 0x37, 0x63, 0x37, 0x64, 0x37, 0x65, 0x37, 0x66,
  0x38, 0x30, 0x38, 0x31, 0x38, 0x32, 0x38, 0x33, 0x38, 0x34, 0x38, 0x35, 0x38, 0x36, 0x38, 0x37,
  0x38, 0x38, 0x38, 0x39, 0x38, 0x61, 0x38, 0x62, 0x38, 0x63, 0x38, 0x64, 0x38, 0x65, 0x38, 0x66,
  0x39, 0x30, 0x39, 0x31, 0x39, 0x32, 0x39, 0x33, 0x39, 0x34, 0x39, 0x35, 0x39, 0x36, 0x39, 0x37,
  0x39, 0x38, 0x39, 0x39, 0x39, 0x61, 0x39, 0x62, 0x39, 0x63, 0x39, 0x64, 0x39, 0x65, 0x39, 0x66,
  0x61, 0x30, 0x61, 0x31, 0x61, 0x32, 0x61, 0x33, 0x61, 0x34, 0x61, 0x35, 0x61, 0x36, 0x61, 0x37,
  0x61, 0x38, 0x61, 0x39, 0x61, 0x61, 0x61, 0x62, 0x61, 0x63, 0x61, 0x64, 0x61, 0x65, 0x61, 0x66,
  0x62, 0x30, 0x62, 0x31, 0x62, 0x32, 0x62, 0x33, 0x62, 0x34, 0x62, 0x35, 0x62, 0x36, 0x62, 0x37,
  0x62, 0x38, 0x62, 0x39, 0x62, 0x61, 0x62, 0x62, 0x62, 0x63, 0x62, 0x64, 0x62, 0x65, 0x62, 0x66,
  0x63, 0x30, 0x63, 0x31, 0x63, 0x32, 0x63, 0x33, 0x63, 0x34, 0x63, 0x35, 0x63, 0x36, 0x63, 0x37,
  0x63, 0x38, 0x63, 0x39, 0x63, 0x61, 0x63, 0x62, 0x63, 0x63, 0x63, 0x64, 0x63, 0x65, 0x63, 0x66,
  0x64, 0x30, 0x64, 0x31, 0x64, 0x32, 0x64, 0x33, 0x64, 0x34, 0x64, 0x35, 0x64, 0x36, 0x64, 0x37,
  0x64, 0x38, 0x64, 0x39, 0x64, 0x61, 0x64, 0x62, 0x64, 0x63, 0x64, 0x64, 0x64, 0x65, 0x64, 0x66,
  0x65, 0x30, 0x65, 0x31, 0x65, 0x32, 0x65, 0x33, 0x65, 0x34, 0x65, 0x35, 0x65, 0x36, 0x65, 0x37,
  0x65, 0x38, 0x65, 0x39, 0x65, 0x61, 0x65, 0x62, 0x65, 0x63, 0x65, 0x64, 0x65, 0x65, 0x65, 0x66,
  0x66, 0x30, 0x66, 0x31, 0x66, 0x32, 0x66, 0x33, 0x66, 0x34, 0x66, 0x35, 0x66, 0x36, 0x66, 0x37,
  0x66, 0x38, 0x66, 0x39, 0x66, 0x61, 0x66, 0x62, 0x66, 0x63, 0x66, 0x64, 0x66, 0x65, 0x66, 0x66,
]);

// Writes `\uXXXX` in lowercase hex as three 16-bit stores; the caller has made room.
// @ts-ignore: decorator
@inline function writeUnit(u: u32): void {
  const o = outBase + outPos;
  store<u16>(o, 0x755c); // `\u`
  store<u16>(o, load<u16>(HEX2 + ((u >> 7) & 0x1fe)), 2);
  store<u16>(o, load<u16>(HEX2 + ((u & 0xff) << 1)), 4);
  outRewind(outPos + 6);
}

/**
 * Writes a code point of at least 0x7f (DEL, or one of a multi-byte sequence) as canonical
 * text does: one `\uXXXX`, or a surrogate pair of them above U+FFFF.
 */
export function writeHighCodePoint(cp: u32): void {
  outNeed(12);
  if (cp - 0xd800 < 0x800) rawSurrogate = true;
  if (cp < 0x10000) {
    writeUnit(cp);
    return;
  }
  const v = cp - 0x10000;
  writeUnit(0xd800 + (v >> 10));
  writeUnit(0xdc00 + (v & 0x3ff));
}

/** Writes code point `cp` as it appears inside a canonical string literal. */
export function writeCodePoint(cp: u32): void {
  outNeed(12);
  if (cp >= 0x20 && cp < 0x7f) {
    if (cp == 0x22 || cp == 0x5c) outByte(0x5c);
    outByte(cp);
    return;
  }
  if (cp < 0x20) {
    let short: u32 = 0;
    if (cp == 0x08) short = 0x62;
    else if (cp == 0x09) short = 0x74;
    else if (cp == 0x0a) short = 0x6e;
    else if (cp == 0x0c) short = 0x66;
    else if (cp == 0x0d) short = 0x72;
    if (short != 0) {
      outByte(0x5c);
      outByte(short);
      return;
    }
  }
  if (cp < 0x10000) {
    writeUnit(cp);
    return;
  }
  const v = cp - 0x10000;
  writeUnit(0xd800 + (v >> 10));
  writeUnit(0xdc00 + (v & 0x3ff));
}

/** Appends `n` raw key bytes to R_KEYS. */
export function keyAppendBytes(src: usize, n: usize): void {
  const base = reserve(R_KEYS, keysUsed, keysUsed + n);
  copyBytes(base + keysUsed, src, n);
  keysUsed += n;
}

/** Appends code point `cp` to R_KEYS as generalized UTF-8 (a surrogate is 3 bytes). */
export function keyAppendCodePoint(cp: u32): void {
  const p = reserve(R_KEYS, keysUsed, keysUsed + 4) + keysUsed;
  if (cp < 0x80) {
    store<u8>(p, <u8> cp);
    keysUsed += 1;
  } else if (cp < 0x800) {
    store<u8>(p, <u8> (0xc0 | (cp >> 6)));
    store<u8>(p, <u8> (0x80 | (cp & 0x3f)), 1);
    keysUsed += 2;
  } else if (cp < 0x10000) {
    store<u8>(p, <u8> (0xe0 | (cp >> 12)));
    store<u8>(p, <u8> (0x80 | ((cp >> 6) & 0x3f)), 1);
    store<u8>(p, <u8> (0x80 | (cp & 0x3f)), 2);
    keysUsed += 3;
  } else {
    store<u8>(p, <u8> (0xf0 | (cp >> 18)));
    store<u8>(p, <u8> (0x80 | ((cp >> 12) & 0x3f)), 1);
    store<u8>(p, <u8> (0x80 | ((cp >> 6) & 0x3f)), 2);
    store<u8>(p, <u8> (0x80 | (cp & 0x3f)), 3);
    keysUsed += 4;
  }
}

/** Pushes a member whose `"key":value` text starts at output offset `segStart`. */
export function pushMember(keyRef: u32, keyLen: u32, segStart: usize): void {
  const off = <usize> memberTop * MEMBER_SIZE;
  const m = reserve(R_MEMBERS, off, off + MEMBER_SIZE) + off;
  store<u32>(m, keyRef);
  store<u32>(m, keyLen, 4);
  store<u32>(m, <u32> segStart, 8);
  // Eight bytes load safely past a key's end (growMemoryTo keeps SLACK addressable).
  const n = <u64> (keyLen & ~KEY_IN_REGION);
  const at = (keyLen & KEY_IN_REGION) != 0 ? regionBase(R_KEYS) + <usize> keyRef : <usize> keyRef;
  let w = load<u64>(at);
  if (n < 8) w &= (<u64> 1 << (n << 3)) - 1;
  store<u64>(m, bswap<u64>(w), 12);
  memberTop++;
}

// Compares the keys of two member records by bytes.
// Their first eight bytes decide unless they are equal; then a key of at most eight bytes is a
// prefix of the other (the other's next bytes, if any, are zeros as its padding is), and only
// keys both longer than eight are read on.
function compareKeys(a: usize, b: usize): i32 {
  const xa = load<u64>(a, 12);
  const xb = load<u64>(b, 12);
  if (xa != xb) return xa < xb ? -1 : 1;
  const ra = load<u32>(a, 4);
  const rb = load<u32>(b, 4);
  const la = <usize> (ra & ~KEY_IN_REGION);
  const lb = <usize> (rb & ~KEY_IN_REGION);
  if (la > 8 && lb > 8) {
    const keys = regionBase(R_KEYS);
    const pa = (ra & KEY_IN_REGION) != 0 ? keys + <usize> load<u32>(a) : <usize> load<u32>(a);
    const pb = (rb & KEY_IN_REGION) != 0 ? keys + <usize> load<u32>(b) : <usize> load<u32>(b);
    const c = bytesCompare(pa + 8, pb + 8, (la < lb ? la : lb) - 8);
    if (c != 0) return c;
  }
  return la < lb ? -1 : la > lb ? 1 : 0;
}

/**
 * Puts the members of the object being closed into canonical order. They are
 * members `first .. memberTop-1`; their text runs from output offset
 * `contentStart` (just after `{`) to `outPos`, separated by commas.
 */
export function sortMembers(first: u32, contentStart: usize): void {
  const k = memberTop - first;
  lastObjectStart = contentStart - 1;
  lastObjectMembers = k;
  const members = regionBase(R_MEMBERS) + <usize> first * MEMBER_SIZE;
  if (k < 2) {
    lastObjectEnd = outPos + 1;
    lastObjectFirstEnd = outPos;
    return;
  }
  let i: u32 = 1;
  let c: i32 = 0;
  while (i < k) {
    c = compareKeys(members + <usize> (i - 1) * MEMBER_SIZE, members + <usize> i * MEMBER_SIZE);
    if (c >= 0) break;
    i++;
  }
  if (i == k) {
    // Already strictly increasing: sorted, no duplicates.
    lastObjectEnd = outPos + 1;
    lastObjectFirstEnd = <usize> load<u32>(members + MEMBER_SIZE + 8) - 1;
    return;
  }
  if (k == 2) {
    // Two members out of order, the usual case (`{"name":…,"arguments":…}`): the second moves
    // first; the first follows it, unless its key is the same (a later duplicate wins). As the
    // rewrite below would leave them, with one copy less.
    const second = <usize> load<u32>(members + MEMBER_SIZE + 8);
    const end = outPos;
    const len0 = second - 1 - contentStart;
    const len1 = end - second;
    lastObjectFirstEnd = contentStart + len1;
    if (c == 0) {
      droppedMember = true;
      copyBytes(outBase + contentStart, outBase + second, len1);
      outRewind(contentStart + len1);
      lastObjectMembers = 1;
    } else {
      outNeed(len0);
      const base = outBase;
      copyBytes(base + end, base + contentStart, len0);
      copyBytes(base + contentStart, base + second, len1);
      store<u8>(base + contentStart + len1, 0x2c);
      copyBytes(base + contentStart + len1 + 1, base + end, len0);
    }
    lastObjectEnd = outPos + 1;
    return;
  }

  // Stable bottom-up merge sort of member indices.
  const scratch = reserve(R_SORT, 0, <usize> k << 3);
  let src = scratch;
  let dst = scratch + (<usize> k << 2);
  for (let j: u32 = 0; j < k; j++) store<u32>(src + (<usize> j << 2), j);
  for (let width: u32 = 1; width < k; width <<= 1) {
    for (let lo: u32 = 0; lo < k; lo += width << 1) {
      const mid = lo + width < k ? lo + width : k;
      const hi = mid + width < k ? mid + width : k;
      let a = lo;
      let b = mid;
      let o = lo;
      while (a < mid && b < hi) {
        const ia = load<u32>(src + (<usize> a << 2));
        const ib = load<u32>(src + (<usize> b << 2));
        if (
          compareKeys(members + <usize> ib * MEMBER_SIZE, members + <usize> ia * MEMBER_SIZE) < 0
        ) {
          store<u32>(dst + (<usize> o << 2), ib);
          b++;
        } else {
          store<u32>(dst + (<usize> o << 2), ia);
          a++;
        }
        o++;
      }
      while (a < mid) {
        store<u32>(dst + (<usize> o << 2), load<u32>(src + (<usize> a << 2)));
        a++;
        o++;
      }
      while (b < hi) {
        store<u32>(dst + (<usize> o << 2), load<u32>(src + (<usize> b << 2)));
        b++;
        o++;
      }
    }
    const t = src;
    src = dst;
    dst = t;
  }

  // Rewrite: copy the surviving segments, in order, past the end of the
  // output, then move them back over the object's content.
  const end = outPos;
  outNeed(end - contentStart);
  const base = outBase;
  let w = end;
  let kept: u32 = 0;
  for (let j: u32 = 0; j < k; j++) {
    const idx = load<u32>(src + (<usize> j << 2));
    const m = members + <usize> idx * MEMBER_SIZE;
    if (j + 1 < k) {
      const next = load<u32>(src + (<usize> (j + 1) << 2));
      if (compareKeys(m, members + <usize> next * MEMBER_SIZE) == 0) {
        droppedMember = true;
        continue; // a later duplicate wins
      }
    }
    const s = <usize> load<u32>(m, 8);
    const e = idx + 1 < k ? <usize> load<u32>(m, MEMBER_SIZE + 8) - 1 : end;
    if (w != end) {
      store<u8>(base + w, 0x2c);
      w++;
    }
    copyBytes(base + w, base + s, e - s);
    w += e - s;
    if (kept == 0) lastObjectFirstEnd = contentStart + (w - end);
    kept++;
  }
  copyBytes(base + contentStart, base + end, w - end);
  outRewind(contentStart + (w - end));
  lastObjectMembers = kept;
  lastObjectEnd = outPos + 1;
}
