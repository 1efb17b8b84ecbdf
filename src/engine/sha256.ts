/**
 * SHA-256, synchronous and pure TypeScript, for digests that must be computed
 * inside synchronous library code on every runtime (prompt digests, pair-set
 * digests) and over streamed bytes: {@linkcode sha256Hex} at once, or
 * {@linkcode Sha256} a chunk at a time. It agrees with Web Crypto's
 * `crypto.subtle.digest("SHA-256")`.
 *
 * @module
 */

const K = new Uint32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);

const encoder = new TextEncoder();

const INITIAL = [
  0x6a09e667,
  0xbb67ae85,
  0x3c6ef372,
  0xa54ff53a,
  0x510e527f,
  0x9b05688c,
  0x1f83d9ab,
  0x5be0cd19,
];

/** Mixes the 64-byte blocks of `bytes[from, to)` into the state `h`, with `w` as scratch. */
function compress(h: Uint32Array, w: Uint32Array, bytes: Uint8Array, from: number, to: number) {
  for (let off = from; off < to; off += 64) {
    for (let i = 0, o = off; i < 16; i++, o += 4) {
      w[i] = (bytes[o]! << 24) | (bytes[o + 1]! << 16) | (bytes[o + 2]! << 8) | bytes[o + 3]!;
    }
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = h[0]!, b = h[1]!, c = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, k = h[7]!;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (k + S1 + ch + K[i]! + w[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + b) | 0;
    h[2] = (h[2]! + c) | 0;
    h[3] = (h[3]! + d) | 0;
    h[4] = (h[4]! + e) | 0;
    h[5] = (h[5]! + f) | 0;
    h[6] = (h[6]! + g) | 0;
    h[7] = (h[7]! + k) | 0;
  }
}

/**
 * An incremental SHA-256: {@linkcode Sha256.update} with each chunk of bytes, then
 * {@linkcode Sha256.digest} once.
 *
 * @example Chunks give the digest of their concatenation
 * ```ts
 * import { Sha256, sha256Hex } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * const h = new Sha256();
 * h.update(new TextEncoder().encode("a"));
 * h.update(new TextEncoder().encode("bc"));
 * strictEqual(h.digest(), sha256Hex("abc"));
 * ```
 */
export class Sha256 {
  #h = Uint32Array.from(INITIAL);
  #w = new Uint32Array(64);
  #block = new Uint8Array(64);
  #filled = 0;
  #length = 0;
  #done = false;

  /**
   * Adds bytes (which the caller may reuse afterwards).
   *
   * @param bytes The next chunk.
   * @throws {TypeError} After {@linkcode Sha256.digest}.
   */
  update(bytes: Uint8Array): void {
    if (this.#done) throw new TypeError("The digest was already taken");
    this.#length += bytes.length;
    let p = 0;
    if (this.#filled > 0) {
      const take = Math.min(64 - this.#filled, bytes.length);
      this.#block.set(bytes.subarray(0, take), this.#filled);
      this.#filled += take;
      p = take;
      if (this.#filled < 64) return;
      compress(this.#h, this.#w, this.#block, 0, 64);
      this.#filled = 0;
    }
    const whole = p + ((bytes.length - p) & ~63);
    compress(this.#h, this.#w, bytes, p, whole);
    if (whole < bytes.length) {
      this.#block.set(bytes.subarray(whole));
      this.#filled = bytes.length - whole;
    }
  }

  /**
   * Ends the hash.
   *
   * @param _encoding `hex`, the only encoding (as `node:crypto`'s hashes take it).
   * @returns 64 lowercase hex digits.
   * @throws {TypeError} When called twice.
   */
  digest(_encoding?: "hex"): string {
    if (this.#done) throw new TypeError("The digest was already taken");
    this.#done = true;
    const n = this.#length;
    const tail = new Uint8Array(this.#filled < 56 ? 64 : 128);
    tail.set(this.#block.subarray(0, this.#filled));
    tail[this.#filled] = 0x80;
    const view = new DataView(tail.buffer);
    view.setUint32(tail.length - 8, Math.floor(n / 0x20000000), false);
    view.setUint32(tail.length - 4, (n << 3) >>> 0, false);
    compress(this.#h, this.#w, tail, 0, tail.length);
    let hex = "";
    for (let i = 0; i < 8; i++) hex += this.#h[i]!.toString(16).padStart(8, "0");
    return hex;
  }
}

/**
 * The SHA-256 of a string's UTF-8 bytes (lone surrogates become U+FFFD, as `TextEncoder` does),
 * or of raw bytes, as lowercase hex.
 *
 * @param data A string or bytes.
 * @returns 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
 * ```
 */
export function sha256Hex(data: string | Uint8Array): string {
  const h = new Sha256();
  h.update(typeof data === "string" ? encoder.encode(data) : data);
  return h.digest();
}
