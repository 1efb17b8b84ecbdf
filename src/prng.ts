/**
 * The seeded PRNG behind every resample: sfc32 (Chris Doty-Humphrey's Small
 * Fast Chaotic generator, 32-bit), seeded through splitmix32. sfc32 passes
 * PractRand to at least 2^40 bytes; splitmix32 spreads a small integer seed
 * over the 128-bit state, and the first 12 outputs are discarded.
 *
 * The output for a fixed seed is a published test vector (see the example),
 * so results can be reproduced in any language.
 *
 * @module
 */

/** The PRNG's name as recorded in reports. */
export const PRNG_NAME = "sfc32 (seeded by splitmix32)";

/** A seeded sfc32 stream. */
export class Sfc32 {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  /**
   * Seeds a stream.
   *
   * @param seed An integer in [0, 2^32); other values are rejected.
   * @throws {RangeError} If the seed is not such an integer.
   */
  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`A seed must be an integer in [0, 2^32), got ${seed}`);
    }
    let s = seed >>> 0;
    const splitmix32 = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#a = splitmix32();
    this.#b = splitmix32();
    this.#c = splitmix32();
    this.#d = splitmix32();
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /**
   * The next 32-bit output.
   *
   * @returns An integer in [0, 2^32).
   *
   * @example The published test vector for seed 42
   * ```ts
   * import { Sfc32 } from "@assay/assay";
   * import { deepStrictEqual as assertEquals } from "node:assert/strict";
   *
   * const rng = new Sfc32(42);
   * assertEquals([rng.nextUint32(), rng.nextUint32(), rng.nextUint32(), rng.nextUint32()], [
   *   1028872839, 2516511472, 400437680, 853279530,
   * ]);
   * ```
   */
  nextUint32(): number {
    const a = this.#a, b = this.#b, c = this.#c, d = this.#d;
    const t = (((a + b) | 0) + d) | 0;
    this.#d = (d + 1) | 0;
    this.#a = b ^ (b >>> 9);
    this.#b = (c + (c << 3)) | 0;
    this.#c = ((c << 21) | (c >>> 11)) + t | 0;
    return t >>> 0;
  }

  /**
   * An integer drawn uniformly from [0, n), without modulo bias: outputs at or above the
   * largest multiple of `n` below 2^32 are rejected and drawn again.
   *
   * @param n The bound, an integer in [1, 2^32].
   * @returns An integer in [0, n).
   * @throws {RangeError} If `n` is out of range.
   *
   * @example
   * ```ts
   * import { Sfc32 } from "@assay/assay";
   * import { strictEqual } from "node:assert/strict";
   *
   * const rng = new Sfc32(1);
   * for (let i = 0; i < 1000; i++) strictEqual(rng.nextBelow(3) < 3, true);
   * ```
   */
  nextBelow(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > 0x100000000) {
      throw new RangeError(`A bound must be an integer in [1, 2^32], got ${n}`);
    }
    const limit = 0x100000000 - (0x100000000 % n);
    let x = this.nextUint32();
    while (x >= limit) x = this.nextUint32();
    // Not `x % n`: V8 takes a slow floating-point path for x >= 2^31. The quotient is exact.
    return x - Math.floor(x / n) * n;
  }

  /**
   * Fills `out` with draws from [0, n), exactly as that many {@linkcode Sfc32.nextBelow} calls
   * would, but with the generator's state kept in locals: the bootstrap's inner loop.
   *
   * @param n The bound, an integer in [1, 2^32].
   * @param out Where the draws go; every element is written.
   * @throws {RangeError} If `n` is out of range.
   *
   * @example Same draws as nextBelow
   * ```ts
   * import { Sfc32 } from "@assay/assay";
   * import { deepStrictEqual as assertEquals } from "node:assert/strict";
   *
   * const a = new Sfc32(9);
   * const b = new Sfc32(9);
   * const out = new Uint32Array(5);
   * a.fillBelow(7, out);
   * assertEquals([...out], Array.from({ length: 5 }, () => b.nextBelow(7)));
   * ```
   */
  fillBelow(n: number, out: Uint32Array | Int32Array): void {
    if (!Number.isInteger(n) || n < 1 || n > 0x100000000) {
      throw new RangeError(`A bound must be an integer in [1, 2^32], got ${n}`);
    }
    const limit = 0x100000000 - (0x100000000 % n);
    let a = this.#a, b = this.#b, c = this.#c, d = this.#d;
    for (let i = 0; i < out.length;) {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (((c << 21) | (c >>> 11)) + t) | 0;
      const x = t >>> 0;
      if (x >= limit) continue;
      out[i++] = x - Math.floor(x / n) * n;
    }
    this.#a = a;
    this.#b = b;
    this.#c = c;
    this.#d = d;
  }
}
