/**
 * The seeded PRNG behind every resample: sfc32 (Chris Doty-Humphrey's Small
 * Fast Chaotic generator, 32-bit), seeded through splitmix32. sfc32 passes
 * PractRand to at least 2^40 bytes; splitmix32 spreads a small integer seed
 * over the 128-bit state, and the first 12 outputs are discarded.
 *
 * The output for a fixed seed is a published test vector (see the example),
 * so results can be reproduced in any language.
 *
 * Bounded draws (an index in [0, n)) use Lemire's multiply-shift method,
 * unbiased: a 32-bit output x becomes floor(x·n / 2^32), the high word of the
 * 64-bit product, and x is drawn again while the low word, x·n mod 2^32, is
 * below 2^32 mod n. {@linkcode DRAW_NAME} names this in reports.
 *
 * @module
 */

/** The PRNG's name as recorded in reports. */
export const PRNG_NAME = "sfc32 (seeded by splitmix32)";

/** How outputs become indices in [0, n), as recorded in reports. */
export const DRAW_NAME = "lemire: floor(x*n / 2^32), x redrawn while x*n mod 2^32 < 2^32 mod n";

const TWO_32 = 0x100000000;
const INV_TWO_32 = 1 / TWO_32;

function checkBound(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > TWO_32) {
    throw new RangeError(`A bound must be an integer in [1, 2^32], got ${n}`);
  }
}

/**
 * The draw of 32-bit output `x` below `n`, or -1 if `x` is rejected. For n ≤ 2^21 the
 * product x·n < 2^53 is exact in a double, and so are its high and low words. Above, the low
 * word comes from Math.imul (x·n mod 2^32, exact for every n) and the high word from x's
 * 16-bit halves, each partial product below 2^48.
 */
function drawBelow(x: number, n: number, threshold: number): number {
  if (n <= 0x200000) {
    const m = x * n;
    const high = Math.floor(m * INV_TWO_32);
    return m - high * TWO_32 < threshold ? -1 : high;
  }
  if (Math.imul(x, n) >>> 0 < threshold) return -1;
  const low = (x & 0xffff) * n;
  const high = (x >>> 16) * n;
  return Math.floor((high + Math.floor(low / 0x10000)) / 0x10000);
}

/**
 * A seeded sfc32 stream. (The examples are here rather than on the methods: a bundler keeps a
 * method's doc comment in its output, and the root bundle has a budget.)
 *
 * @example The published test vector for seed 42, and draws below a bound
 * ```ts
 * import { Sfc32 } from "@assay/assay";
 * import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
 *
 * const rng = new Sfc32(42);
 * assertEquals([rng.nextUint32(), rng.nextUint32(), rng.nextUint32(), rng.nextUint32()], [
 *   1028872839, 2516511472, 400437680, 853279530,
 * ]);
 * // nextBelow takes the high word of x·n: the seed-42 output 1028872839, below 10.
 * strictEqual(new Sfc32(42).nextBelow(10), Math.floor(1028872839 * 10 / 2 ** 32));
 * // fillBelow gives the draws as many nextBelow calls would.
 * const [a, b] = [new Sfc32(9), new Sfc32(9)];
 * const out = new Uint32Array(5);
 * a.fillBelow(7, out);
 * assertEquals([...out], Array.from({ length: 5 }, () => b.nextBelow(7)));
 * ```
 *
 * @example Replaying a stream from a saved state
 * ```ts
 * import { Sfc32 } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const rng = new Sfc32(3);
 * const saved = rng.getState();
 * const first = rng.nextUint32();
 * rng.setState(saved);
 * assertEquals(rng.nextUint32(), first);
 * const other = new Sfc32(2);
 * other.setState(saved);
 * assertEquals(other.nextUint32(), first);
 * ```
 */
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
   * An integer drawn uniformly from [0, n), without modulo bias, by Lemire's multiply-shift
   * method ({@linkcode DRAW_NAME}): an output x maps to floor(x·n / 2^32), and is drawn
   * again while x·n mod 2^32 is below 2^32 mod n (never, when n is a power of two).
   *
   * @param n The bound, an integer in [1, 2^32].
   * @returns An integer in [0, n).
   * @throws {RangeError} If `n` is out of range.
   */
  nextBelow(n: number): number {
    checkBound(n);
    const threshold = TWO_32 % n;
    for (;;) {
      const draw = drawBelow(this.nextUint32(), n, threshold);
      if (draw >= 0) return draw;
    }
  }

  /**
   * Fills `out` with draws from [0, n), exactly as that many {@linkcode Sfc32.nextBelow} calls
   * would, but with the generator's state kept in locals: the bootstrap's inner loop.
   *
   * @param n The bound, an integer in [1, 2^32].
   * @param out Where the draws go; every element is written.
   * @throws {RangeError} If `n` is out of range.
   */
  fillBelow(n: number, out: Uint32Array | Int32Array): void {
    checkBound(n);
    const threshold = TWO_32 % n;
    let a = this.#a, b = this.#b, c = this.#c, d = this.#d;
    if (n <= 0x200000) {
      // drawBelow's exact-product case, inlined.
      for (let i = 0; i < out.length;) {
        const t = (((a + b) | 0) + d) | 0;
        d = (d + 1) | 0;
        a = b ^ (b >>> 9);
        b = (c + (c << 3)) | 0;
        c = (((c << 21) | (c >>> 11)) + t) | 0;
        const m = (t >>> 0) * n;
        const high = Math.floor(m * INV_TWO_32);
        if (m - high * TWO_32 < threshold) continue;
        out[i++] = high;
      }
    } else {
      for (let i = 0; i < out.length;) {
        const t = (((a + b) | 0) + d) | 0;
        d = (d + 1) | 0;
        a = b ^ (b >>> 9);
        b = (c + (c << 3)) | 0;
        c = (((c << 21) | (c >>> 11)) + t) | 0;
        const draw = drawBelow(t >>> 0, n, threshold);
        if (draw >= 0) out[i++] = draw;
      }
    }
    this.#a = a;
    this.#b = b;
    this.#c = c;
    this.#d = d;
  }

  /**
   * The generator's state, four 32-bit words: what {@linkcode Sfc32.setState} restores.
   *
   * @returns The words a, b, c, d, each in [0, 2^32).
   */
  getState(): [number, number, number, number] {
    return [this.#a >>> 0, this.#b >>> 0, this.#c >>> 0, this.#d >>> 0];
  }

  /**
   * Sets the generator's state, as {@linkcode Sfc32.getState} returned it.
   *
   * @param state Four integers in [0, 2^32): a, b, c, d.
   * @throws {RangeError} If `state` is not four such integers.
   */
  setState(state: readonly number[]): void {
    if (
      state.length !== 4 ||
      !state.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffffffff)
    ) {
      throw new RangeError(`A state must be four integers in [0, 2^32), got [${state}]`);
    }
    this.#a = state[0]! | 0;
    this.#b = state[1]! | 0;
    this.#c = state[2]! | 0;
    this.#d = state[3]! | 0;
  }
}
