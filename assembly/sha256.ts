// SHA-256 (FIPS 180-4) over bytes in linear memory, checked against an expected digest.
//
// Whole 64-byte blocks are read straight from the input, which is never written.
// The final one or two blocks (the tail plus the padding and the bit length) are
// built in a static buffer, so no byte at or past `start + len` is ever read.

import { copyBytes } from "./memory";

/** The round constants: the first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes. */
export const K: usize = memory.data<u32>([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The message schedule of the current block: 64 u32 words. */
const W: usize = memory.data(256);
/** The hash state H0..H7, as u32 words. */
export const H: usize = memory.data(32);
/** The final block or two: the input's tail, the padding and the big-endian bit length. */
const TAIL: usize = memory.data(128);

/** Mixes the 64-byte block at `p` into the state `H`. */
export function sha256Compress(p: usize): void {
  for (let i: usize = 0; i < 64; i += 4) {
    store<u32>(W + i, bswap<u32>(load<u32>(p + i)));
  }
  for (let i: usize = 64; i < 256; i += 4) {
    const w15 = load<u32>(W + i - 60);
    const w2 = load<u32>(W + i - 8);
    const s0 = rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >>> 10);
    store<u32>(W + i, load<u32>(W + i - 64) + s0 + load<u32>(W + i - 28) + s1);
  }
  let a = load<u32>(H);
  let b = load<u32>(H, 4);
  let c = load<u32>(H, 8);
  let d = load<u32>(H, 12);
  let e = load<u32>(H, 16);
  let f = load<u32>(H, 20);
  let g = load<u32>(H, 24);
  let h = load<u32>(H, 28);
  for (let i: usize = 0; i < 256; i += 4) {
    const s1 = rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25);
    const ch = g ^ (e & (f ^ g));
    const t1 = h + s1 + ch + load<u32>(K + i) + load<u32>(W + i);
    const s0 = rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22);
    const maj = (a & b) | (c & (a | b));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + s0 + maj;
  }
  store<u32>(H, load<u32>(H) + a);
  store<u32>(H, load<u32>(H, 4) + b, 4);
  store<u32>(H, load<u32>(H, 8) + c, 8);
  store<u32>(H, load<u32>(H, 12) + d, 12);
  store<u32>(H, load<u32>(H, 16) + e, 16);
  store<u32>(H, load<u32>(H, 20) + f, 20);
  store<u32>(H, load<u32>(H, 24) + g, 24);
  store<u32>(H, load<u32>(H, 28) + h, 28);
}

/** Leaves the SHA-256 of the `len` bytes at `start` in `H`. */
function digest(start: usize, len: usize): void {
  store<u32>(H, 0x6a09e667);
  store<u32>(H, 0xbb67ae85, 4);
  store<u32>(H, 0x3c6ef372, 8);
  store<u32>(H, 0xa54ff53a, 12);
  store<u32>(H, 0x510e527f, 16);
  store<u32>(H, 0x9b05688c, 20);
  store<u32>(H, 0x1f83d9ab, 24);
  store<u32>(H, 0x5be0cd19, 28);
  const rest = len & 63;
  const end = start + len - rest;
  for (let p = start; p < end; p += 64) sha256Compress(p);
  // The tail, 0x80, zeros, then the 64-bit length in bits: one block if it fits, else two.
  const blocks: usize = rest < 56 ? 64 : 128;
  copyBytes(TAIL, end, rest);
  store<u8>(TAIL + rest, 0x80);
  memory.fill(TAIL + rest + 1, 0, blocks - 8 - rest - 1);
  store<u64>(TAIL + blocks - 8, bswap<u64>(<u64> len << 3));
  sha256Compress(TAIL);
  if (blocks == 128) sha256Compress(TAIL + 64);
}

/** Writes the SHA-256 of the `len` bytes at `start` to the 32 bytes at `out`. */
export function sha256To(start: usize, len: usize, out: usize): void {
  digest(start, len);
  for (let i: usize = 0; i < 32; i += 4) store<u32>(out + i, bswap<u32>(load<u32>(H + i)));
}

/** Whether the SHA-256 of the `len` bytes at `start` equals the 32 bytes at `expected`. */
export function sha256Equals(start: usize, len: usize, expected: usize): bool {
  digest(start, len);
  for (let i: usize = 0; i < 32; i += 4) {
    if (bswap<u32>(load<u32>(H + i)) != load<u32>(expected + i)) return false;
  }
  return true;
}
