// A module of its own (built from this entry alone, see build/build_wasm.ts): raw DEFLATE
// (RFC 1951) decoding of the scoring module's inlined bytes, and the base85 they are written in.
// The root bundle carries that module compressed; decoding it here takes well under a millisecond
// where a TS decoder, run once and so never compiled, took about ten (src/engine/_inflate.ts).
//
// Huffman codes are decoded a bit at a time against the count of codes of each length, which
// keeps the module small; the input is a few tens of kilobytes.

/** Results of `inflate` other than a length: each names what is wrong with the data. */
const E_TRUNCATED: i32 = -1;
const E_BLOCK_TYPE: i32 = -2;
const E_STORED_LENGTH: i32 = -3;
const E_CODE: i32 = -4;
const E_DISTANCE: i32 = -5;
const E_FULL: i32 = -6;

/** The order in which a dynamic block lists its code-length code lengths. */
const ORDER = memory.data<u8>([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);

// A code: the count of codes of each length 0..15 (u16), then its symbols in code order (u16).
const LITERALS = memory.data(32 + 288 * 2);
const DISTANCES = memory.data(32 + 32 * 2);
const LENGTHS = memory.data(320); // code lengths being read (literal/length, then distance)
const OFFSETS = memory.data(32);
/** Where `reserve`'s space starts. */
const SPACE = (__heap_base + 15) & ~15;

let at: usize = 0;
let end: usize = 0;
let bits: u32 = 0;
let held: u32 = 0;

/** Makes room for `n` bytes at the returned address (the caller's input and output). */
export function reserve(n: usize): usize {
  const need = <i32> ((SPACE + n + 0xffff) >> 16) - memory.size();
  if (need > 0 && memory.grow(need) < 0) unreachable();
  return SPACE;
}

/**
 * Decodes `len` characters of base85 at `p` in place, four bytes (big-endian) per five digits;
 * digit d is the character 35 + d, one further on from 92 (a backslash). Returns the bytes.
 */
export function unbase85(p: usize, len: usize): usize {
  let o = p;
  for (let i = p; i + 5 <= p + len; i += 5) {
    let v: u32 = 0;
    for (let k: usize = 0; k < 5; k++) {
      const c = <u32> load<u8>(i + k);
      v = v * 85 + c - (c < 92 ? 35 : 36);
    }
    store<u32>(o, bswap(v));
    o += 4;
  }
  return o - p;
}

/** Loads whole bytes until `n` bits are held; past the end, zero bytes (see `short`). */
function need(n: u32): void {
  while (held < n) {
    if (at < end) bits |= <u32> load<u8>(at) << held;
    at++;
    held += 8;
  }
}

/** Whether more bits were taken than the data has. */
function short(): bool {
  return at > end && (at - end) << 3 > <usize> held;
}

function take(n: u32): u32 {
  need(n);
  const v = bits & ((1 << n) - 1);
  bits >>= n;
  held -= n;
  return v;
}

/** Builds the code of `n` lengths at `lengths` into `code`; false if it is over-subscribed. */
function build(code: usize, lengths: usize, n: u32): bool {
  memory.fill(code, 0, 32);
  for (let i: u32 = 0; i < n; i++) {
    const p = code + (<usize> load<u8>(lengths + i) << 1);
    store<u16>(p, load<u16>(p) + 1);
  }
  store<u16>(code, 0);
  let left: i32 = 1;
  let offset: u32 = 0;
  for (let len: usize = 1; len < 16; len++) {
    left = (left << 1) - <i32> load<u16>(code + (len << 1));
    if (left < 0) return false;
    store<u16>(OFFSETS + (len << 1), <u16> offset);
    offset += load<u16>(code + (len << 1));
  }
  for (let i: u32 = 0; i < n; i++) {
    const len = <usize> load<u8>(lengths + i);
    if (len == 0) continue;
    const o = OFFSETS + (len << 1);
    const k = <usize> load<u16>(o);
    store<u16>(o, <u16> (k + 1));
    store<u16>(code + 32 + (k << 1), <u16> i);
  }
  return true;
}

/** The next symbol of `code`, or -1 if the bits are no code's. */
function decode(code: usize): i32 {
  need(15);
  let v: i32 = 0;
  let first: i32 = 0;
  let index: i32 = 0;
  let b = bits;
  for (let len: u32 = 1; len < 16; len++) {
    v |= <i32> (b & 1);
    b >>= 1;
    const count = <i32> load<u16>(code + (<usize> len << 1));
    if (v - first < count) {
      bits = b;
      held -= len;
      return <i32> load<u16>(code + 32 + (<usize> (index + v - first) << 1));
    }
    index += count;
    first = (first + count) << 1;
    v <<= 1;
  }
  return -1;
}

/** Reads a dynamic block's two codes; an error code, or 0. */
function dynamicCodes(): i32 {
  const nLit = take(5) + 257;
  const nDist = take(5) + 1;
  const nLen = take(4) + 4;
  memory.fill(LENGTHS, 0, 19);
  for (let i: u32 = 0; i < nLen; i++) store<u8>(LENGTHS + load<u8>(ORDER + i), <u8> take(3));
  if (!build(LITERALS, LENGTHS, 19)) return E_CODE;
  for (let i: u32 = 0; i < nLit + nDist;) {
    const s = decode(LITERALS);
    if (short()) return E_TRUNCATED;
    if (s < 0) return E_CODE;
    if (s < 16) {
      store<u8>(LENGTHS + i++, <u8> s);
      continue;
    }
    let value: u32 = 0;
    let n: u32;
    if (s == 16) {
      if (i == 0) return E_CODE;
      value = load<u8>(LENGTHS + i - 1);
      n = 3 + take(2);
    } else n = s == 17 ? 3 + take(3) : 11 + take(7);
    if (i + n > nLit + nDist) return E_CODE;
    memory.fill(LENGTHS + i, <u8> value, n);
    i += n;
  }
  if (load<u8>(LENGTHS + 256) == 0) return E_CODE; // no end-of-block code
  if (!build(LITERALS, LENGTHS, nLit) || !build(DISTANCES, LENGTHS + nLit, nDist)) return E_CODE;
  return 0;
}

/** The fixed codes of RFC 1951 §3.2.6. */
function fixedCodes(): void {
  memory.fill(LENGTHS, 8, 144);
  memory.fill(LENGTHS + 144, 9, 112);
  memory.fill(LENGTHS + 256, 7, 24);
  memory.fill(LENGTHS + 280, 8, 8);
  build(LITERALS, LENGTHS, 288);
  memory.fill(LENGTHS, 5, 30);
  build(DISTANCES, LENGTHS, 30);
}

/**
 * Decodes the raw DEFLATE data of `len` bytes at `src` to `dst`, which holds `cap` bytes: the
 * length written, or a negative error (E_FULL if the output would pass `cap`).
 */
export function inflate(src: usize, len: usize, dst: usize, cap: usize): i32 {
  at = src;
  end = src + len;
  bits = 0;
  held = 0;
  let o = dst;
  const limit = dst + cap;
  let last: u32 = 0;
  while (last == 0) {
    last = take(1);
    const type = take(2);
    if (short()) return E_TRUNCATED;
    if (type == 0) {
      // To the byte boundary: the whole bytes held are given back.
      at -= <usize> (held >> 3);
      bits = 0;
      held = 0;
      if (at + 4 > end) return E_TRUNCATED;
      const n = <usize> load<u16>(at);
      if ((n ^ <usize> load<u16>(at + 2)) != 0xffff) return E_STORED_LENGTH;
      at += 4;
      if (at + n > end) return E_TRUNCATED;
      if (o + n > limit) return E_FULL;
      memory.copy(o, at, n);
      at += n;
      o += n;
      continue;
    }
    if (type == 3) return E_BLOCK_TYPE;
    if (type == 1) fixedCodes();
    else {
      const e = dynamicCodes();
      if (e != 0) return e;
    }
    while (true) {
      const s = decode(LITERALS);
      if (short()) return E_TRUNCATED;
      if (s < 0) return E_CODE;
      if (s < 256) {
        if (o >= limit) return E_FULL;
        store<u8>(o++, <u8> s);
        continue;
      }
      if (s == 256) break;
      const l = <u32> s - 257;
      if (l > 28) return E_CODE;
      // Length codes 265.. and distance codes 4.. double their base every four and two codes.
      const lx = l < 8 || l == 28 ? 0 : (l >> 2) - 1;
      let n = <usize> (l < 8 ? l + 3 : l == 28 ? 258 : ((4 | (l & 3)) << lx) + 3 + take(lx));
      const d = <u32> decode(DISTANCES);
      if (d > 29) return E_CODE;
      const x = d < 4 ? 0 : (d >> 1) - 1;
      const back = <usize> (d < 4 ? d + 1 : ((2 | (d & 1)) << x) + 1 + take(x));
      if (short()) return E_TRUNCATED;
      if (back > o - dst) return E_DISTANCE;
      if (o + n > limit) return E_FULL;
      for (; n > 0; n--, o++) store<u8>(o, load<u8>(o - back));
    }
  }
  return <i32> (o - dst);
}
