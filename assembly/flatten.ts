// Flattened argument pairs (CONTRACT §3), read back from canonical text.
//
// Canonical text is sorted, deduplicated and has no whitespace, so one
// left-to-right walk visits the leaves in canonical order. Each pair is
// written to R_PAIRS as u32 words, sharing the path prefix of the previous
// pair (the JS glue rebuilds the path strings):
//   keep, n, n × (segment start, segment end), value start, value end
// where a key segment is the output range of its canonical string literal and
// an index segment is (INDEX_SEGMENT, index). All ranges are output offsets.

import { FLOAT_MARK } from "./canonical";
import { MAX_DEPTH } from "./json";
import { outBase, outPos, R_PAIRS, reserve } from "./memory";

const ONES: u64 = 0x0101010101010101;
const HIGHS: u64 = 0x8080808080808080;

// Bit 7 of each byte is set for a zero byte of `x` (exact up to the lowest one).
function zeroBytes(x: u64): u64 {
  return (x - ONES) & ~x & HIGHS;
}

/** Marks an array-index segment in the pair words. */
export const INDEX_SEGMENT: u32 = 0xffff_ffff;

/** Words used in R_PAIRS. */
export let pairsUsed: usize = 0;

// Per level: segment start, segment end (or INDEX_SEGMENT, index); kind.
const SEGMENTS: usize = memory.data(<i32> (<usize> MAX_DEPTH * 8));
const KINDS: usize = memory.data(MAX_DEPTH);

/** Empties R_PAIRS (at the start of a batch). */
export function pairsReset(): void {
  pairsUsed = 0;
}

/** The end of the canonical string literal whose quote is at output offset `p`. */
export function skipString(p: usize): usize {
  const base = outBase;
  const limit = outPos;
  p++;
  while (true) {
    // Eight bytes at a time to the next `"` or `\`.
    while (p + 8 <= limit) {
      const x = load<u64>(base + p);
      const m = zeroBytes(x ^ (ONES * 0x22)) | zeroBytes(x ^ (ONES * 0x5c));
      if (m != 0) {
        p += <usize> (ctz(m) >> 3);
        break;
      }
      p += 8;
    }
    const c = load<u8>(base + p);
    if (c == 0x22) break;
    p += c == 0x5c ? 2 : 1;
  }
  return p + 1;
}

// The end of the canonical scalar at output offset `p` (not a container).
function skipScalar(p: usize, end: usize): usize {
  const base = outBase;
  const c = <u32> load<u8>(base + p);
  if (c == 0x22) return skipString(p);
  if (c == FLOAT_MARK) {
    p++;
    while (<u32> load<u8>(base + p) != FLOAT_MARK) p++;
    return p + 1;
  }
  while (p < end) {
    const d = load<u8>(base + p);
    if (d == 0x2c || d == 0x5d || d == 0x7d) break;
    p++;
  }
  return p;
}

/** The end of the canonical value at output offset `p`; `end` bounds a bare scalar. */
export function skipValue(p: usize, end: usize): usize {
  const base = outBase;
  const c = <u32> load<u8>(base + p);
  if (c != 0x7b && c != 0x5b) return skipScalar(p, end);
  let depth: u32 = 0;
  while (true) {
    const d = <u32> load<u8>(base + p);
    if (d == 0x22) {
      p = skipString(p);
      continue;
    }
    if (d == 0x7b || d == 0x5b) depth++;
    else if (d == 0x7d || d == 0x5d) {
      depth--;
      if (depth == 0) return p + 1;
    }
    p++;
  }
}

/**
 * Flattens the canonical value at output offsets `[start, end)` into R_PAIRS.
 * Returns the number of pairs.
 */
export function flatten(start: usize, end: usize): u32 {
  const base = outBase;
  let p = start;
  let depth: usize = 0;
  let dirty: usize = 0; // shallowest level changed since the last pair
  let lastLen: usize = 0; // path length of the last pair
  let count: u32 = 0;
  while (true) {
    const c = <u32> load<u8>(base + p);
    if ((c == 0x7b || c == 0x5b) && <u32> load<u8>(base + p + 1) != c + 2) {
      const s = SEGMENTS + (depth << 3);
      store<u8>(KINDS + depth, <u8> c);
      if (dirty > depth) dirty = depth;
      depth++;
      p++;
      if (c == 0x7b) {
        const q = skipString(p);
        store<u32>(s, <u32> p);
        store<u32>(s, <u32> q, 4);
        p = q + 1; // past the colon
      } else {
        store<u32>(s, INDEX_SEGMENT);
        store<u32>(s, 0, 4);
      }
      continue;
    }
    // A leaf: a scalar, `{}` or `[]`.
    const q = c == 0x7b || c == 0x5b ? p + 2 : skipScalar(p, end);
    const keep = dirty < lastLen ? dirty : lastLen;
    const n = depth - keep;
    const words: usize = 4 + (n << 1);
    const w = reserve(R_PAIRS, pairsUsed << 2, (pairsUsed + words) << 2) + (pairsUsed << 2);
    store<u32>(w, <u32> keep);
    store<u32>(w, <u32> n, 4);
    memory.copy(w + 8, SEGMENTS + (keep << 3), n << 3);
    store<u32>(w + 8 + (n << 3), <u32> p);
    store<u32>(w + 12 + (n << 3), <u32> q);
    pairsUsed += words;
    count++;
    lastLen = depth;
    dirty = depth;
    p = q;
    // Close containers until one continues.
    while (depth > 0) {
      const d = load<u8>(base + p);
      if (d == 0x2c) {
        p++;
        const level = depth - 1;
        const s = SEGMENTS + (level << 3);
        if (load<u8>(KINDS + level) == 0x7b) {
          const k = skipString(p);
          store<u32>(s, <u32> p);
          store<u32>(s, <u32> k, 4);
          p = k + 1;
        } else {
          store<u32>(s, load<u32>(s, 4) + 1, 4);
        }
        if (dirty > level) dirty = level;
        break;
      }
      p++;
      depth--;
    }
    if (depth == 0) break;
  }
  return count;
}
