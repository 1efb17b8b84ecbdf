/**
 * Exact arithmetic on doubles: a double as m·2^e, and a ratio of integers rounded once to the
 * nearest double (ties to even, subnormal results included). Pooled means, pass@k and the McNemar
 * test round through it, so none depends on the order of summation.
 *
 * @module
 */

const view = new DataView(new ArrayBuffer(8));

/**
 * Splits a finite double v ≥ 0 into [m, e] with v = m·2^e, m an odd integer (or [0, 0]).
 *
 * @param v A finite double, at least 0.
 * @returns [m, e].
 *
 * @example
 * ```ts
 * import { decompose } from "@assay/assay/stats";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(decompose(0.75), [3, -2]);
 * ```
 */
export function decompose(v: number): [number, number] {
  view.setFloat64(0, v);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (hi & 0xfffff) * 0x100000000 + lo;
  let e = -1074;
  if (biased !== 0) {
    m += 2 ** 52;
    e = biased - 1075;
  }
  if (m === 0) return [0, 0];
  while (m % 2 === 0) {
    m /= 2;
    e++;
  }
  return [m, e];
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/**
 * The double nearest to p/q·2^e (ties to even), for integers p ≥ 0 and q > 0: one rounding,
 * subnormal results included.
 *
 * @param p The numerator, at least 0.
 * @param q The denominator, above 0.
 * @param e A power of two to scale by.
 * @returns The correctly rounded value.
 *
 * @example
 * ```ts
 * import { roundRatio } from "@assay/assay/stats";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(roundRatio(1n, 3n, 0), 1 / 3);
 * ```
 */
export function roundRatio(p: bigint, q: bigint, e: number): number {
  if (p === 0n) return 0;
  // Scale so that the integer quotient has 66 or 67 bits.
  const s = 66 - (bitLength(p) - bitLength(q));
  const num = s >= 0 ? p << BigInt(s) : p;
  const den = s >= 0 ? q : q << BigInt(-s);
  const quot = num / den;
  const sticky = num % den !== 0n;
  // The quotient's lsb weighs 2^(e - s); the result keeps 53 bits, or stops at 2^-1074.
  const lsb = e - s;
  const top = bitLength(quot) - 1 + lsb;
  const drop = top >= -1022 ? bitLength(quot) - 53 : -1074 - lsb;
  let kept = quot >> BigInt(drop);
  const rest = quot - (kept << BigInt(drop));
  const half = 1n << BigInt(drop - 1);
  if (rest > half || (rest === half && (sticky || (kept & 1n) === 1n))) kept += 1n;
  return scale2(Number(kept), lsb + drop);
}

/** x·2^k, exact when the result is representable (k may be below -1022). */
function scale2(x: number, k: number): number {
  if (k < -1000) return x * 2 ** -1000 * 2 ** (k + 1000);
  return x * 2 ** k;
}
