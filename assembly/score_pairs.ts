// The scoring kernel's pairs (see score.ts): how many pairs a canonical value
// holds, and how many two canonical arguments share, found without flattening
// either (flatten.ts builds the pairs themselves for the TS-twin checks).

import { skipScalar, skipString } from "./flatten";
import { rawSurrogate } from "./canonical";
import { escapedChar, hex4, MAX_DEPTH } from "./json";
import { outBase } from "./memory";
import { bytesEqual } from "./bytes";
import { sameBytes } from "./score_common";

// ---- Pair keys.

// The kind (`{` or `[`) of each open container of countLeaves.
const LEAF_KINDS: usize = memory.data(<i32> MAX_DEPTH + 2);

/**
 * The number of pairs flatten.ts finds in the canonical value at output offsets
 * `[p, end)`: its scalars and empty containers (the value itself when it is
 * one of those), without building them.
 */
export function countLeaves(p: usize, end: usize): u32 {
  const base = outBase;
  let count: u32 = 0;
  let depth: usize = 0;
  while (true) {
    const c = <u32> load<u8>(base + p);
    if ((c == 0x7b || c == 0x5b) && <u32> load<u8>(base + p + 1) != c + 2) {
      store<u8>(LEAF_KINDS + depth, <u8> c);
      depth++;
      p++;
      if (c == 0x7b) p = skipString(p) + 1; // the first key and its colon
      continue;
    }
    count++;
    p = c == 0x7b || c == 0x5b ? p + 2 : skipScalar(p, end);
    // Close containers until one continues.
    while (depth > 0) {
      const d = load<u8>(base + p);
      if (d == 0x2c) {
        p++;
        if (load<u8>(LEAF_KINDS + depth - 1) == 0x7b) p = skipString(p) + 1;
        break;
      }
      p++;
      depth--;
    }
    if (depth == 0) return count;
  }
  return count;
}

/** The prediction's pair count, as sharedPairs found it. */
export let predictedPairs: u32 = 0;

// ---- Pairs shared, found without flattening.

/** At most this many members in an object that membersShared reads. */
const FLAT_MAX: i32 = 32;
// The members of an object (see objectMembers), 16 bytes each.
const PRED_MEMBERS: usize = memory.data(<i32> FLAT_MAX * 16);
const GOLD_MEMBERS: usize = memory.data(<i32> FLAT_MAX * 16);

// The end of the canonical string literal whose opening quote is at `q`: sixteen bytes at a time
// to its next `"` or `\`, reading up to 15 bytes past the literal (SLACK keeps them addressable).
function canonStringEnd(q: usize): usize {
  let p = q + 1;
  while (true) {
    const v = v128.load(p);
    const m = i8x16.bitmask(
      v128.or(i8x16.eq(v, i8x16.splat(0x22)), i8x16.eq(v, i8x16.splat(0x5c))),
    );
    if (m == 0) {
      p += 16;
      continue;
    }
    p += <usize> ctz(m);
    if (<u32> load<u8>(p) == 0x22) return p + 1;
    p += 2;
  }
  return p;
}

// The end of the canonical container whose bracket is at `p` (strings skipped).
function canonContainerEnd(p: usize): usize {
  let depth: u32 = 0;
  while (true) {
    const c = <u32> load<u8>(p);
    if (c == 0x22) {
      p = canonStringEnd(p);
      continue;
    }
    p++;
    if (c == 0x7b || c == 0x5b) depth++;
    else if (c == 0x7d || c == 0x5d) {
      if (--depth == 0) return p;
    }
  }
  return p;
}

/**
 * Reads the canonical object `[p, end)` (addresses) into member records at
 * `out`: key literal start, its length, value start, value end (addresses);
 * the length has NESTED set when the value is a container that is not empty
 * (more than one pair, each with a path under the key), clear for a scalar or
 * an empty container (one pair, whose path is the key). Returns the count, or
 * -1 for an object with no members or more than FLAT_MAX.
 */
function objectMembers(p: usize, end: usize, out: usize): i32 {
  if (end - p < 3 || <u32> load<u8>(p) != 0x7b) return -1;
  p++;
  let n: i32 = 0;
  while (true) {
    if (n == FLAT_MAX || <u32> load<u8>(p) != 0x22) return -1;
    const key = p;
    p = canonStringEnd(p);
    const keyEnd = p;
    p++; // the colon
    const value = p;
    const c = <u32> load<u8>(p);
    let nested: u32 = 0;
    if (c == 0x22) {
      p = canonStringEnd(p);
    } else if (c == 0x7b || c == 0x5b) {
      if (<u32> load<u8>(p + 1) == c + 2) {
        p += 2;
      } else {
        p = canonContainerEnd(p);
        nested = NESTED;
      }
    } else {
      while (p < end) {
        const d = <u32> load<u8>(p);
        if (d == 0x2c || d == 0x7d) break;
        p++;
      }
    }
    const m = out + (<usize> n << 4);
    store<u32>(m, <u32> key);
    store<u32>(m, <u32> (keyEnd - key) | nested, 4);
    store<u32>(m, <u32> value, 8);
    store<u32>(m, <u32> p, 12);
    n++;
    if (p >= end) return -1;
    const d = <u32> load<u8>(p);
    if (d == 0x7d) return p + 1 == end ? n : -1;
    p++; // the comma
  }
  return -1;
}

/** Set in a member's key length when its value holds more than one pair (see objectMembers). */
const NESTED: u32 = 0x8000_0000;

/**
 * The pairs two canonical objects share (the prediction at output offsets
 * `[p, end)`, the gold at addresses `[g, gEnd)`), counted member by member, or
 * -1 when an object is empty or too large (then sharedPairs walks them). Pairs are
 * (path, value) and a path starts with its top-level key, so the multiset
 * intersection is the sum over the keys both objects hold:
 * - two scalars or empty containers (one pair each, the path the key): 1 when
 *   their canonical texts are equal;
 * - one such and a container that is not empty: 0 (their paths differ in
 *   length);
 * - two such containers: all their pairs when their canonical texts are equal
 *   (they are the same value), else those valuesShared finds.
 * Sets predictedPairs: the sum of the prediction's members' pairs.
 */
function membersShared(p: usize, end: usize, g: usize, gEnd: usize): i32 {
  const np = objectMembers(outBase + p, outBase + end, PRED_MEMBERS);
  if (np < 0) return -1;
  const ng = objectMembers(g, gEnd, GOLD_MEMBERS);
  if (ng < 0) return -1;
  let matched: i32 = 0;
  let predicted: u32 = 0;
  for (let i: i32 = 0; i < np; i++) {
    const a = PRED_MEMBERS + (<usize> i << 4);
    const aNested = (load<u32>(a, 4) & NESTED) != 0;
    // The member's value as output offsets, for countLeaves.
    const pairs: u32 = aNested
      ? countLeaves(<usize> load<u32>(a, 8) - outBase, <usize> load<u32>(a, 12) - outBase)
      : 1;
    predicted += pairs;
    for (let j: i32 = 0; j < ng; j++) {
      const b = GOLD_MEMBERS + (<usize> j << 4);
      // Equal keys, and both values nested or neither: their paths can be equal.
      if (!sameField(a, b, 0)) continue;
      if (sameField(a, b, 8)) matched += <i32> pairs;
      else if (aNested) {
        // Two different containers: their pairs compared path by path.
        const v = <usize> load<u32>(a, 8);
        const w = <usize> load<u32>(b, 8);
        matched += <i32> valuesShared(v, <usize> load<u32>(a, 12), w, <usize> load<u32>(b, 12));
      }
      break;
    }
  }
  predictedPairs = predicted;
  return matched;
}

// The end of the canonical value at address `p`, inside a container.
function canonValueEnd(p: usize): usize {
  const c = <u32> load<u8>(p);
  if (c == 0x22) return canonStringEnd(p);
  if (c == 0x7b || c == 0x5b) return canonContainerEnd(p);
  while (true) {
    const d = <u32> load<u8>(p);
    if (d == 0x2c || d == 0x7d || d == 0x5d) return p;
    p++;
  }
  return p;
}

// The code point of the character at `p` in a canonical string literal (not its closing quote),
// the address after it left in charEnd. A high surrogate's escape followed by a low one's is one
// astral character (as writeCodePoint writes it; see rawSurrogate for the text where it may not be).
let charEnd: usize = 0;
function literalChar(p: usize): u32 {
  const c = <u32> load<u8>(p);
  charEnd = p + 1;
  if (c != 0x5c) return c;
  const e = <u32> load<u8>(p + 1);
  charEnd = p + 2;
  if (e != 0x75) return <u32> escapedChar(e);
  const u = <u32> hex4(p + 2, p + 6);
  charEnd = p + 6;
  if (u - 0xd800 < 0x400 && load<u16>(p + 6) == 0x755c) {
    const l = <u32> hex4(p + 8, p + 12) - 0xdc00;
    if (l < 0x400) {
      charEnd = p + 12;
      return 0x10000 + ((u - 0xd800) << 10) + l;
    }
  }
  return u;
}

/**
 * The order of the canonical string literals whose opening quotes are at `p` and `q` (addresses),
 * as sortMembers orders their keys: by code point, a proper prefix first; < 0, 0 or > 0. Their
 * bytes are not in that order (`\n` is written with a backslash, 0x5c; U+E000's escape follows
 * the pair of escapes of U+1F600), so where they differ, characters are compared (literalChar).
 */
function literalOrder(p: usize, q: usize): i32 {
  p++;
  q++;
  while (true) {
    const a = <u32> load<u8>(p);
    const b = <u32> load<u8>(q);
    if (a == b && a != 0x5c) {
      if (a == 0x22) return 0;
      p++;
      q++;
      continue;
    }
    // A closing quote (any other `"` is escaped): that literal is a prefix of the other.
    if (a == 0x22) return -1;
    if (b == 0x22) return 1;
    const x = literalChar(p);
    p = charEnd;
    const y = literalChar(q);
    q = charEnd;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * The pairs two canonical values at the same path share: the prediction's `[a, aEnd)` (in the
 * output) and the gold's `[b, bEnd)`. A path is in a value once, so this is the number of paths
 * whose pairs are equal in both, found by walking them together: a scalar or an empty container
 * is one pair; an object's pairs have paths under its keys, an array's under its indices.
 */
function valuesShared(a: usize, aEnd: usize, b: usize, bEnd: usize): u32 {
  const ca = <u32> load<u8>(a);
  const cb = <u32> load<u8>(b);
  const aNested = (ca == 0x7b || ca == 0x5b) && <u32> load<u8>(a + 1) != ca + 2;
  const bNested = (cb == 0x7b || cb == 0x5b) && <u32> load<u8>(b + 1) != cb + 2;
  if (!aNested || !bNested) {
    return !aNested && !bNested && sameBytes(a, aEnd - a, b, bEnd - b) ? 1 : 0;
  }
  if (ca != cb) return 0; // keys and indices are different paths
  if (sameBytes(a, aEnd - a, b, bEnd - b)) return countLeaves(a - outBase, aEnd - outBase);
  let shared: u32 = 0;
  let p = a + 1;
  if (ca == 0x5b) {
    // Elements at equal indices.
    let q = b + 1;
    while (true) {
      const pe = canonValueEnd(p);
      const qe = canonValueEnd(q);
      shared += valuesShared(p, pe, q, qe);
      if (load<u8>(pe) != 0x2c || load<u8>(qe) != 0x2c) return shared;
      p = pe + 1;
      q = qe + 1;
    }
  }
  // Members under equal keys (canonical literals, unique in an object). Both objects' members
  // are in canonical order, so the two lists are merged: of two keys, the first in that order
  // (literalOrder) is passed, and two equal keys' values compared. One pass over each: a search
  // per key was quadratic (from the first member: 23 s at 32,000 keys; from the last match,
  // wrapping around, when the gold lacked the keys: 42 s at 32,000, now 17 ms).
  // The prediction is the text parsed last. Its keys are not in literalOrder when it held a raw
  // surrogate (canonical.ts rawSurrogate; the gold, read as checked UTF-8, cannot): a key's
  // literal `\ud83d\ude00` may then be two lone surrogates, sorted before U+E000, not U+1F600.
  if (rawSurrogate) return searchedMembers(p, b);
  let pv = canonStringEnd(p) + 1; // the member's value, and its end
  let pe = canonValueEnd(pv);
  let q = b + 1;
  let qv = canonStringEnd(q) + 1;
  let qe = canonValueEnd(qv);
  while (true) {
    const c = literalOrder(p, q);
    if (c == 0) shared += valuesShared(pv, pe, qv, qe);
    if (c <= 0) {
      if (load<u8>(pe) != 0x2c) return shared;
      p = pe + 1;
      pv = canonStringEnd(p) + 1;
      pe = canonValueEnd(pv);
    }
    if (c >= 0) {
      if (load<u8>(qe) != 0x2c) return shared;
      q = qe + 1;
      qv = canonStringEnd(q) + 1;
      qe = canonValueEnd(qv);
    }
  }
  return shared;
}

// The pairs under equal keys of the prediction's object, from its member at `p`, and the gold's
// object at `b`, when the prediction's keys may not be in literalOrder: a key's search starts after
// the last match and wraps around (a key the gold lacks costs a pass over the gold's members).
function searchedMembers(p: usize, b: usize): u32 {
  let shared: u32 = 0;
  let from = b + 1;
  while (true) {
    const ke = canonStringEnd(p);
    const pe = canonValueEnd(ke + 1);
    let q = from;
    while (true) {
      const le = canonStringEnd(q);
      const qe = canonValueEnd(le + 1);
      const next = load<u8>(qe) == 0x2c ? qe + 1 : b + 1;
      if (sameBytes(p, ke - p, q, le - q)) {
        shared += valuesShared(ke + 1, pe, le + 1, qe);
        from = next;
        break;
      }
      q = next;
      if (q == from) break;
    }
    if (load<u8>(pe) != 0x2c) return shared;
    p = pe + 1;
  }
  return shared;
}

// Whether the member records at `a` and `b` hold equal byte ranges at `off` (the key, with its
// NESTED flag, or the value): a start, then a length (off 0) or an end (off 8).
function sameField(a: usize, b: usize, off: usize): bool {
  const as = <usize> load<u32>(a + off);
  const bs = <usize> load<u32>(b + off);
  let an = <usize> load<u32>(a + off, 4);
  let bn = <usize> load<u32>(b + off, 4);
  if (off != 0) {
    an -= as;
    bn -= bs;
  }
  return an == bn && bytesEqual(as, bs, an & ~(<usize> NESTED));
}

/**
 * Counts the pairs the canonical arguments at output offsets `[p, end)` share
 * with the gold's canonical arguments `[gold, gold + n)`: member by member
 * (membersShared), else by walking the two values together (valuesShared).
 */
export function sharedPairs(p: usize, end: usize, gold: usize, n: usize): u32 {
  const shared = membersShared(p, end, gold, gold + n);
  if (shared >= 0) return <u32> shared;
  predictedPairs = countLeaves(p, end);
  return valuesShared(outBase + p, outBase + end, gold, gold + n);
}
