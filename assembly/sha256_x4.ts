// SHA-256 of many messages, four at a time: each 32-bit lane of a v128 holds one message's state
// and schedule (multi-buffer hashing), so one pass of the 64 rounds in i32x4 advances four
// messages by a block each.
//
// Each lane works through its message's blocks: the whole 64-byte blocks read from the message
// itself, then the final one or two (the tail, 0x80, zeros and the 64-bit big-endian bit length)
// built in the lane's own buffer, so no byte at or past a message's end is read. A lane that
// finishes its message takes the next one not yet started, so lanes stay busy while messages of
// different lengths are mixed; a lane with nothing left hashes a block of zeros that nobody reads.
// What is left once only one message is in flight, and a batch of one, go to the scalar code
// (sha256.ts), which does a block in a little over half the time the four lanes take.

import { H, K, sha256Compress, sha256Equals, sha256To } from "./sha256";

/** The message schedule of the four current blocks: 64 words of four lanes. */
const W4: usize = memory.data(64 * 16, 16);
/** The four states: H0..H7, each a v128 of four lanes. */
const S4: usize = memory.data(8 * 16, 16);
/** Each lane's final block or two. */
const TAILS: usize = memory.data(4 * 128, 16);
/** The block an idle lane hashes. */
const ZERO: usize = memory.data(64, 16);
/**
 * Per lane, 32 bytes: the address of its next block, the end of the run of blocks it is in, the
 * stage (0: the message's whole blocks, 1: its final blocks, 2: idle), the message's index and
 * the end of its final blocks.
 */
const LANES: usize = memory.data(4 * 32, 16);

const IDLE: u32 = 2;

// @ts-ignore: decorator
@inline function rotr4(x: v128, n: i32): v128 {
  return v128.or(i32x4.shr_u(x, n), i32x4.shl(x, 32 - n));
}

// @ts-ignore: decorator
@inline function bigSigma0(a: v128): v128 {
  return v128.xor(v128.xor(rotr4(a, 2), rotr4(a, 13)), rotr4(a, 22));
}

// @ts-ignore: decorator
@inline function bigSigma1(e: v128): v128 {
  return v128.xor(v128.xor(rotr4(e, 6), rotr4(e, 11)), rotr4(e, 25));
}

// h + Σ1(e) + Ch(e, f, g) + K[i] + W[i], for the round whose word is at `w` (i = w >> 4).
// @ts-ignore: decorator
@inline function t1(e: v128, f: v128, g: v128, h: v128, w: usize): v128 {
  const kw = i32x4.add(v128.load32_splat(K + (w >> 2)), v128.load(W4 + w));
  return i32x4.add(i32x4.add(h, bigSigma1(e)), i32x4.add(v128.bitselect(f, g, e), kw));
}

// Σ0(a) + Maj(a, b, c); Maj is b where b and c agree, else a.
// @ts-ignore: decorator
@inline function t2(a: v128, b: v128, c: v128): v128 {
  return i32x4.add(bigSigma0(a), v128.bitselect(a, c, v128.xor(b, c)));
}

/** Mixes the four 64-byte blocks at `p0`..`p3` into the four states in S4, one per lane. */
function compress4(p0: usize, p1: usize, p2: usize, p3: usize): void {
  // Big-endian words: each lane's 16 bytes byte-swapped, then the 4x4 words transposed so that
  // a v128 holds the same word of the four blocks.
  const swap = i8x16(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  for (let q: usize = 0; q < 64; q += 16) {
    const r0 = i8x16.swizzle(v128.load(p0 + q), swap);
    const r1 = i8x16.swizzle(v128.load(p1 + q), swap);
    const r2 = i8x16.swizzle(v128.load(p2 + q), swap);
    const r3 = i8x16.swizzle(v128.load(p3 + q), swap);
    const t0 = i32x4.shuffle(r0, r1, 0, 4, 1, 5);
    const t1 = i32x4.shuffle(r0, r1, 2, 6, 3, 7);
    const t2 = i32x4.shuffle(r2, r3, 0, 4, 1, 5);
    const t3 = i32x4.shuffle(r2, r3, 2, 6, 3, 7);
    const w = W4 + (q << 2);
    v128.store(w, i64x2.shuffle(t0, t2, 0, 2));
    v128.store(w, i64x2.shuffle(t0, t2, 1, 3), 16);
    v128.store(w, i64x2.shuffle(t1, t3, 0, 2), 32);
    v128.store(w, i64x2.shuffle(t1, t3, 1, 3), 48);
  }
  for (let i: usize = 16 << 4; i < 64 << 4; i += 16) {
    const w15 = v128.load(W4 + i - (15 << 4));
    const w2 = v128.load(W4 + i - (2 << 4));
    const s0 = v128.xor(v128.xor(rotr4(w15, 7), rotr4(w15, 18)), i32x4.shr_u(w15, 3));
    const s1 = v128.xor(v128.xor(rotr4(w2, 17), rotr4(w2, 19)), i32x4.shr_u(w2, 10));
    const w16 = v128.load(W4 + i - (16 << 4));
    const w7 = v128.load(W4 + i - (7 << 4));
    v128.store(W4 + i, i32x4.add(i32x4.add(w16, s0), i32x4.add(w7, s1)));
  }
  let a = v128.load(S4);
  let b = v128.load(S4, 16);
  let c = v128.load(S4, 32);
  let d = v128.load(S4, 48);
  let e = v128.load(S4, 64);
  let f = v128.load(S4, 80);
  let g = v128.load(S4, 96);
  let h = v128.load(S4, 112);
  for (let w: usize = 0; w < 64 << 4; w += 16) {
    const x = t1(e, f, g, h, w);
    const y = t2(a, b, c);
    h = g;
    g = f;
    f = e;
    e = i32x4.add(d, x);
    d = c;
    c = b;
    b = a;
    a = i32x4.add(x, y);
  }
  v128.store(S4, i32x4.add(v128.load(S4), a));
  v128.store(S4, i32x4.add(v128.load(S4, 16), b), 16);
  v128.store(S4, i32x4.add(v128.load(S4, 32), c), 32);
  v128.store(S4, i32x4.add(v128.load(S4, 48), d), 48);
  v128.store(S4, i32x4.add(v128.load(S4, 64), e), 64);
  v128.store(S4, i32x4.add(v128.load(S4, 80), f), 80);
  v128.store(S4, i32x4.add(v128.load(S4, 96), g), 96);
  v128.store(S4, i32x4.add(v128.load(S4, 112), h), 112);
}

// The batch being hashed: `count` entries of `stride` bytes from `table`, each starting with the
// message's address and length (u32). With `digests` set, message i's digest goes to
// `digests + 32 i`; else the entry's third word is the address of the expected digest and its
// fourth is set to 1 when they are equal, 0 when not.
let table: usize = 0;
let stride: usize = 0;
let digests: usize = 0;
let unequal: u32 = 0;

/** Starts lane `j` on message `i`: the initial state in its lanes, its final blocks built. */
function begin(j: usize, i: u32): void {
  const entry = table + <usize> i * stride;
  const start = <usize> load<u32>(entry);
  const len = <usize> load<u32>(entry, 4);
  const rest = len & 63;
  const end = start + len - rest;
  const tail = TAILS + (j << 7);
  const blocks: usize = rest < 56 ? 64 : 128;
  memory.copy(tail, end, rest);
  store<u8>(tail + rest, 0x80);
  memory.fill(tail + rest + 1, 0, blocks - 8 - rest - 1);
  store<u64>(tail + blocks - 8, bswap<u64>(<u64> len << 3));
  const lane = LANES + (j << 5);
  if (end == start) {
    store<u32>(lane, <u32> tail);
    store<u32>(lane, <u32> (tail + blocks), 4);
    store<u32>(lane, 1, 8);
  } else {
    store<u32>(lane, <u32> start);
    store<u32>(lane, <u32> end, 4);
    store<u32>(lane, 0, 8);
  }
  store<u32>(lane, i, 12);
  store<u32>(lane, <u32> (tail + blocks), 16);
  const s = S4 + (j << 2);
  store<u32>(s, 0x6a09e667);
  store<u32>(s, 0xbb67ae85, 16);
  store<u32>(s, 0x3c6ef372, 32);
  store<u32>(s, 0xa54ff53a, 48);
  store<u32>(s, 0x510e527f, 64);
  store<u32>(s, 0x9b05688c, 80);
  store<u32>(s, 0x1f83d9ab, 96);
  store<u32>(s, 0x5be0cd19, 112);
}

/** Sets lane `j` idle. */
function idle(j: usize): void {
  const lane = LANES + (j << 5);
  store<u32>(lane, <u32> ZERO);
  store<u32>(lane, 0, 4);
  store<u32>(lane, IDLE, 8);
}

/** Message `i`'s digest is the eight words at `s`, `step` bytes apart: writes or compares it. */
function finish(i: u32, s: usize, step: usize): void {
  if (digests != 0) {
    const o = digests + (<usize> i << 5);
    for (let k: usize = 0; k < 8; k++) store<u32>(o + (k << 2), bswap<u32>(load<u32>(s + k * step)));
    return;
  }
  const entry = table + <usize> i * stride;
  const expected = <usize> load<u32>(entry, 8);
  let same = true;
  for (let k: usize = 0; k < 8; k++) {
    if (bswap<u32>(load<u32>(s + k * step)) != load<u32>(expected + (k << 2))) same = false;
  }
  store<u32>(entry, same ? 1 : 0, 12);
  if (!same) unequal++;
}

/** Finishes the message of lane `j` with the scalar code, from its next block on. */
function finishScalar(j: usize): void {
  const lane = LANES + (j << 5);
  let p = <usize> load<u32>(lane);
  const s = S4 + (j << 2);
  for (let k: usize = 0; k < 8; k++) store<u32>(H + (k << 2), load<u32>(s + (k << 4)));
  if (load<u32>(lane, 8) == 0) {
    for (const end = <usize> load<u32>(lane, 4); p < end; p += 64) sha256Compress(p);
    p = TAILS + (j << 7);
  }
  for (const end = <usize> load<u32>(lane, 16); p < end; p += 64) sha256Compress(p);
  finish(load<u32>(lane, 12), H, 4);
}

// Hashes the batch set in `table`, `stride`, `digests`.
function hashAll(count: u32): void {
  let next: u32 = 0;
  let busy: u32 = 0;
  for (let j: usize = 0; j < 4; j++) {
    if (next < count) {
      begin(j, next++);
      busy++;
    } else idle(j);
  }
  while (busy > 0) {
    if (busy == 1 && next == count) {
      // One message left: the scalar code finishes it sooner than three idle lanes would.
      for (let j: usize = 0; j < 4; j++) {
        if (load<u32>(LANES + (j << 5), 8) != IDLE) finishScalar(j);
      }
      return;
    }
    compress4(
      <usize> load<u32>(LANES),
      <usize> load<u32>(LANES, 32),
      <usize> load<u32>(LANES, 64),
      <usize> load<u32>(LANES, 96),
    );
    for (let j: usize = 0; j < 4; j++) {
      const lane = LANES + (j << 5);
      const stage = load<u32>(lane, 8);
      if (stage == IDLE) continue;
      const p = <usize> load<u32>(lane) + 64;
      store<u32>(lane, <u32> p);
      if (p != <usize> load<u32>(lane, 4)) continue;
      if (stage == 0) {
        // On to the final blocks, built when the lane began.
        store<u32>(lane, <u32> (TAILS + (j << 7)));
        store<u32>(lane, load<u32>(lane, 16), 4);
        store<u32>(lane, 1, 8);
        continue;
      }
      finish(load<u32>(lane, 12), S4 + (j << 2), 16);
      if (next < count) begin(j, next++);
      else {
        idle(j);
        busy--;
      }
    }
  }
}

/**
 * Writes the SHA-256 of `count` messages, each given in `table` as its address and length (two
 * u32), to `out`: 32 bytes per message, in table order.
 */
export function sha256Many(count: u32, tableAt: usize, out: usize): void {
  if (count == 1) {
    sha256To(<usize> load<u32>(tableAt), <usize> load<u32>(tableAt, 4), out);
    return;
  }
  table = tableAt;
  stride = 8;
  digests = out;
  hashAll(count);
}

/**
 * Checks `count` messages against their digests. Each is given in `table` as four u32: its
 * address, its length, the address of the 32 bytes of its expected digest, and a word this sets
 * to 1 when the message hashes to them, 0 when not. Returns how many do not.
 */
export function sha256EqualsMany(count: u32, tableAt: usize): u32 {
  if (count == 1) {
    const same = sha256Equals(
      <usize> load<u32>(tableAt),
      <usize> load<u32>(tableAt, 4),
      <usize> load<u32>(tableAt, 8),
    );
    store<u32>(tableAt, same ? 1 : 0, 12);
    return same ? 0 : 1;
  }
  table = tableAt;
  stride = 16;
  digests = 0;
  unequal = 0;
  hashAll(count);
  return unequal;
}
