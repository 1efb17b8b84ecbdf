/**
 * Python's `random.Random` (Mersenne Twister MT19937) for the calls langdetect makes: seeding
 * with an integer, `random()`, `gauss()`, `getrandbits()` and `choice()`'s index draw.
 * `random()`, `getrandbits()` and the index draws are bit-identical to CPython 3.11's. `gauss()`
 * follows CPython's Box-Muller steps with the engine's `log`, `cos` and `sin`, as CPython uses the C
 * library's: glibc 2.36's differ from V8's in the last bit on about 0.1% of inputs (glibc's are
 * not correctly rounded there), so a draw may differ in its last bit (see `KNOWN_ISSUES`).
 *
 * @module
 */

const N = 624, M = 397;

/** Python's `random.Random`, seeded with a non-negative integer below 2^32. */
export class PythonRandom {
  readonly #mt = new Uint32Array(N);
  #index = N + 1;
  #gaussNext: number | undefined;

  /**
   * Creates a generator seeded as `random.Random(seed)`.
   *
   * @param seed A non-negative integer below 2^32.
   * @throws {RangeError} For another seed.
   * @example The first draws of `random.Random(0)`
   * ```ts
   * import { PythonRandom } from "@assay/assay/ifeval";
   * import { strictEqual } from "node:assert/strict";
   *
   * const rng = new PythonRandom(0);
   * strictEqual(rng.random(), 0.8444218515250481);
   * strictEqual(rng.random(), 0.7579544029403025);
   * ```
   */
  constructor(seed = 0) {
    this.seed(seed);
  }

  /**
   * Reseeds as `random.seed(seed)` (which also forgets a cached gauss draw).
   *
   * @param seed A non-negative integer below 2^32.
   * @returns Nothing.
   * @throws {RangeError} For another seed.
   * @example Reseeding repeats the draws
   * ```ts
   * import { PythonRandom } from "@assay/assay/ifeval";
   * import { strictEqual } from "node:assert/strict";
   *
   * const rng = new PythonRandom(7);
   * const first = rng.random();
   * rng.seed(7);
   * strictEqual(rng.random(), first);
   * ```
   */
  seed(seed: number): void {
    if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) {
      throw new RangeError(`seed must be an integer in [0, 2^32), got ${seed}`);
    }
    // init_by_array with the one-word key [seed].
    const mt = this.#mt;
    mt[0] = 19650218;
    for (let i = 1; i < N; i++) {
      const p = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = Math.imul(1812433253, p) + i;
    }
    let i = 1;
    for (let k = N; k > 0; k--) {
      const p = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (mt[i]! ^ Math.imul(p, 1664525)) + seed;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    for (let k = N - 1; k > 0; k--) {
      const p = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (mt[i]! ^ Math.imul(p, 1566083941)) - i;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.#index = N;
    this.#gaussNext = undefined;
  }

  #twist(): void {
    const mt = this.#mt;
    for (let k = 0; k < N; k++) {
      const y = (mt[k]! & 0x80000000) | (mt[(k + 1) % N]! & 0x7fffffff);
      mt[k] = mt[(k + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    this.#index = 0;
  }

  /** The next 32-bit output (CPython's genrand_uint32). */
  #next(): number {
    if (this.#index >= N) this.#twist();
    let y = this.#mt[this.#index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /**
   * `random.random()`: a float in [0, 1) from 53 random bits.
   *
   * @returns The draw.
   * @throws {RangeError} Never.
   * @example In [0, 1)
   * ```ts
   * import { PythonRandom } from "@assay/assay/ifeval";
   * import { ok } from "node:assert/strict";
   *
   * const x = new PythonRandom(1).random();
   * ok(x >= 0 && x < 1);
   * ```
   */
  random(): number {
    const a = this.#next() >>> 5, b = this.#next() >>> 6;
    return (a * 67108864 + b) * (1 / 9007199254740992);
  }

  /**
   * `random.getrandbits(k)` for 0 < k ≤ 32.
   *
   * @param k The number of bits.
   * @returns The draw, below 2^k.
   * @throws {RangeError} For k outside 1..32.
   * @example Below 2^k
   * ```ts
   * import { PythonRandom } from "@assay/assay/ifeval";
   * import { ok } from "node:assert/strict";
   *
   * ok(new PythonRandom(3).getrandbits(4) < 16);
   * ```
   */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 1 || k > 32) {
      throw new RangeError(`k must be in 1..32, got ${k}`);
    }
    return this.#next() >>> (32 - k);
  }

  /**
   * The index `random.choice(seq)` draws for a sequence of length `n` (`_randbelow(n)`:
   * `getrandbits(n.bit_length())` until the draw is below `n`).
   *
   * @param n The sequence's length, 1 ≤ n < 2^32.
   * @returns An index below `n`.
   * @throws {RangeError} For n outside 1..2^32-1.
   * @example An index
   * ```ts
   * import { PythonRandom } from "@assay/assay/ifeval";
   * import { ok } from "node:assert/strict";
   *
   * ok(new PythonRandom(0).choiceIndex(10) < 10);
   * ```
   */
  choiceIndex(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n >= 2 ** 32) {
      throw new RangeError(`n must be in 1..2^32-1, got ${n}`);
    }
    const k = 32 - Math.clz32(n);
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /**
   * `random.gauss(mu, sigma)` as CPython 3.11 computes it (Box-Muller, caching the second value).
   *
   * @param mu The mean.
   * @param sigma The standard deviation.
   * @returns The draw.
   * @throws {RangeError} Never.
   * @example Pairs of draws
   * ```ts
   * import { PythonRandom } from "@assay/assay/ifeval";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(typeof new PythonRandom(0).gauss(0, 1), "number");
   * ```
   */
  gauss(mu = 0, sigma = 1): number {
    let z = this.#gaussNext;
    this.#gaussNext = undefined;
    if (z === undefined) {
      const x2pi = this.random() * 2 * Math.PI;
      const g2rad = Math.sqrt(-2 * Math.log(1 - this.random()));
      z = Math.cos(x2pi) * g2rad;
      this.#gaussNext = Math.sin(x2pi) * g2rad;
    }
    return mu + z * sigma;
  }
}
