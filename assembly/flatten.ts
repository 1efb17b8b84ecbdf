// Flattened argument pairs (CONTRACT §3), read back from canonical text.
//
// Canonical text is sorted, deduplicated and has no whitespace, so one
// left-to-right walk visits the leaves in canonical order. Each pair is
// written to R_PAIRS as PAIR_WORDS u32 words, its leaf (path) id then its value:
//   leaf, value start, value end         (an output range)
//   leaf, constant, VALUE_CONSTANT       (true, false, null, {}, [], NaN, ...)
// Paths are interned as nodes (see intern.ts); the distinct paths that end a
// pair are the batch's leaves, numbered from 0 in order of first use. Each
// leaf gets one LEAF_WORDS record in R_LEAVES:
//   node, text start, text end
// where the text (`["a",0]`) is in R_PATH_TEXT, or, for a path longer than
// PATH_TEXT_MAX bytes or past the batch's path-text budget,
//   node, LONG_PATH, 0
// and the JS glue builds it from the nodes. So the JS glue builds each
// distinct path string once per batch.

import {
  INDEX_SEGMENT,
  internIndex,
  internDocument,
  internKey,
  nodeLeaf,
  setNodeLeaf,
} from "./intern";
import { LEAF_WORDS, LONG_PATH, PAIR_WORDS, VALUE_CONSTANT } from "./abi_engine";
import { MAX_DEPTH } from "./json";
import { quoteRun } from "./simd";
import {
  copyBytes,
  outBase,
  outPos,
  R_LEAVES,
  R_PAIRS,
  R_PATH_TEXT,
  regionCap,
  reserve,
} from "./memory";
import { ONES, zeroBytes } from "./bytes";

// PAIR_WORDS words per pair in R_PAIRS; VALUE_CONSTANT in the third when the second is a
// constant, in the order of `constantOf`; LEAF_WORDS per leaf, LONG_PATH for a path the glue
// builds (abi_engine.ts).

// The constant number of the canonical leaf at output address `v` that starts
// with byte `c`: true, false, null, {}, [], NaN, Infinity, -Infinity; or -1.
function constantOf(v: usize, c: u32): i32 {
  if (c == 0x74) return 0;
  if (c == 0x66) return 1;
  if (c == 0x6e) return 2;
  if (c == 0x7b) return 3;
  if (c == 0x5b) return 4;
  if (c == 0x4e) return 5;
  if (c == 0x49) return 6;
  if (c == 0x2d && load<u8>(v + 1) == 0x49) return 7;
  return -1;
}

/** Paths longer than this are built by the JS glue. */
const PATH_TEXT_MAX: usize = 256;

/** Words used in R_PAIRS. */
export let pairsUsed: usize = 0;
/** Leaves in R_LEAVES. */
export let leafCount: u32 = 0;
/** Bytes used in R_PATH_TEXT. */
export let pathTextUsed: usize = 0;
// Bytes R_PATH_TEXT may take in this batch.
let pathTextBudget: usize = 0;
// Base and capacity in bytes of R_PAIRS, R_LEAVES and R_PATH_TEXT.
let pairsBase: usize = 0;
let pairsCap: usize = 0;
let leavesBase: usize = 0;
let leavesCap: usize = 0;
let textBase: usize = 0;
let textCap: usize = 0;

// Per level: segment start, segment end (or INDEX_SEGMENT, index); kind;
// the path node of the first `level` segments (level 0: the root), and the
// length of their path text without the closing bracket (level 0: `[`).
const SEGMENTS: usize = memory.data(<i32> (<usize> MAX_DEPTH * 8));
const KINDS: usize = memory.data(MAX_DEPTH);
const NODES: usize = memory.data(<i32> ((<usize> MAX_DEPTH + 1) * 4));
const PREFIX_LENGTHS: usize = memory.data(<i32> ((<usize> MAX_DEPTH + 1) * 4));

/**
 * Empties R_PAIRS, R_LEAVES and R_PATH_TEXT (at the start of a batch with
 * pairs), and lets the path texts of the batch take up to `budget` bytes.
 */
export function pairsReset(budget: usize): void {
  pairsUsed = 0;
  leafCount = 0;
  pathTextUsed = 0;
  pathTextBudget = budget;
  pairsBase = reserve(R_PAIRS, 0, 1024);
  pairsCap = regionCap(R_PAIRS);
  leavesBase = reserve(R_LEAVES, 0, 1024);
  leavesCap = regionCap(R_LEAVES);
  textBase = reserve(R_PATH_TEXT, 0, 1024);
  textCap = regionCap(R_PATH_TEXT);
  store<u32>(PREFIX_LENGTHS, 1);
}

/** The current base address of R_PAIRS. */
export function pairsAddress(): usize {
  return pairsBase;
}

/** The current base address of R_LEAVES. */
export function leavesAddress(): usize {
  return leavesBase;
}

/** The current base address of R_PATH_TEXT. */
export function pathTextAddress(): usize {
  return textBase;
}

/**
 * Writes one segment of a path's text at `t`: an array index (`a` is
 * INDEX_SEGMENT, `b` the index) as its digits, a key as its literal in the
 * output (`[a, b)`, output offsets). Returns the end.
 */
export function writeSegment(t: usize, a: u32, b: u32): usize {
  if (a == INDEX_SEGMENT) {
    const k = decimalLength(b);
    writeDecimal(t + k, b);
    return t + k;
  }
  copyBytes(t, outBase + <usize> a, <usize> (b - a));
  return t + <usize> (b - a);
}

/** Decimal digits of `x`. */
export function decimalLength(x: u32): usize {
  let n: usize = 1;
  while (x >= 10) {
    x /= 10;
    n++;
  }
  return n;
}

/** Writes `x` in decimal ending just before address `end`. */
export function writeDecimal(end: usize, x: u32): void {
  do {
    end--;
    store<u8>(end, <u8> (0x30 + x % 10));
    x /= 10;
  } while (x != 0);
}

// Appends a leaf record for `node`; its path has segments SEGMENTS[0, depth).
// Writes the path text when it is short and the budget allows.
function newLeaf(node: u32, depth: usize): u32 {
  const id = leafCount;
  const off = <usize> id * LEAF_WORDS << 2;
  if (off + (LEAF_WORDS << 2) > leavesCap) {
    leavesBase = reserve(R_LEAVES, off, off + (LEAF_WORDS << 2));
    leavesCap = regionCap(R_LEAVES);
  }
  const rec = leavesBase + off;
  store<u32>(rec, node);
  const n = <usize> load<u32>(PREFIX_LENGTHS + (depth << 2)) + 1;
  if (n > PATH_TEXT_MAX || n > pathTextBudget - pathTextUsed) {
    store<u32>(rec, LONG_PATH, 4);
    store<u32>(rec, 0, 8);
  } else {
    const start = pathTextUsed;
    if (start + n > textCap) {
      textBase = reserve(R_PATH_TEXT, start, start + n);
      textCap = regionCap(R_PATH_TEXT);
    }
    let t = textBase + start;
    store<u8>(t, 0x5b);
    t++;
    for (let level: usize = 0; level < depth; level++) {
      if (level > 0) {
        store<u8>(t, 0x2c);
        t++;
      }
      const s = SEGMENTS + (level << 3);
      t = writeSegment(t, load<u32>(s), load<u32>(s, 4));
    }
    store<u8>(t, 0x5d);
    pathTextUsed = start + n;
    store<u32>(rec, <u32> start, 4);
    store<u32>(rec, <u32> pathTextUsed, 8);
  }
  setNodeLeaf(node, id + 1);
  leafCount = id + 1;
  return id;
}

/** The end of the canonical string literal whose quote is at output offset `p`. */
export function skipString(p: usize): usize {
  const base = outBase;
  const limit = outPos;
  p++;
  while (true) {
    // Sixteen, then eight bytes at a time to the next `"` or `\`.
    p = quoteRun(base + p, base + limit) - base;
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

/** The end of the canonical scalar at output offset `p` (not a container). */
export function skipScalar(p: usize, end: usize): usize {
  const base = outBase;
  const c = <u32> load<u8>(base + p);
  if (c == 0x22) return skipString(p);
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
  internDocument();
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
    let node = load<u32>(NODES + (keep << 2));
    let prefix = load<u32>(PREFIX_LENGTHS + (keep << 2));
    for (let level = keep; level < depth; level++) {
      const s = SEGMENTS + (level << 3);
      const a = load<u32>(s);
      const b = load<u32>(s, 4);
      if (a == INDEX_SEGMENT) {
        node = internIndex(node, b);
        prefix += <u32> decimalLength(b);
      } else {
        node = internKey(node, a, b);
        prefix += b - a;
      }
      if (level > 0) prefix++; // the comma
      store<u32>(NODES + ((level + 1) << 2), node);
      store<u32>(PREFIX_LENGTHS + ((level + 1) << 2), prefix);
    }
    const leaf = nodeLeaf(node);
    if (pairsUsed + PAIR_WORDS > pairsCap >> 2) {
      pairsBase = reserve(R_PAIRS, pairsUsed << 2, (pairsUsed + PAIR_WORDS) << 2);
      pairsCap = regionCap(R_PAIRS);
    }
    const w = pairsBase + (pairsUsed << 2);
    store<u32>(w, leaf != 0 ? leaf - 1 : newLeaf(node, depth));
    const constant = constantOf(base + p, c);
    if (constant >= 0) {
      store<u32>(w, <u32> constant, 4);
      store<u32>(w, VALUE_CONSTANT, 8);
    } else {
      store<u32>(w, <u32> p, 4);
      store<u32>(w, <u32> q, 8);
    }
    pairsUsed += PAIR_WORDS;
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
