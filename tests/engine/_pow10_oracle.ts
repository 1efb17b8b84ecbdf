// The exact BigInt oracle of the Wasm float code's power-of-ten table (assembly/float_table.ts)
// and of the integer formulas assembly/float_exact.ts uses in place of logarithms.
//
// Entry j (POW10_MIN <= j <= POW10_MAX) is T_j = floor(5^j * 2^(127 - floor(log2 5^j))), so that
// 2^127 <= T_j < 2^128 and 10^j = 5^j * 2^j = T_true * 2^(j + floor(log2 5^j) - 127) with
// T_j <= T_true < T_j + 1; T_j is exact (T_true = T_j) just when 0 <= j <= 55. The range covers
// reading (j = decimal exponent of a 19-digit prefix, -342..308) and printing (j = -k for the
// k = floor(log10 2^e) of every binary64 exponent, -292..324).

/** Smallest and largest power of ten in the table. */
export const POW10_MIN = -342;
export const POW10_MAX = 324;

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** floor(log2(5^j)), exactly. */
function floorLog2Pow5(j: number): number {
  if (j >= 0) return bitLength(5n ** BigInt(j)) - 1;
  // 5^-j is not a power of two, so floor(log2 5^j) = -ceil(log2 5^-j) = -bitLength(5^-j).
  return -bitLength(5n ** BigInt(-j));
}

/** T_j as above. */
export function pow10Significand(j: number): bigint {
  const p = floorLog2Pow5(j);
  if (j >= 0) {
    const f = 5n ** BigInt(j);
    return p <= 127 ? f << BigInt(127 - p) : f >> BigInt(p - 127);
  }
  return (1n << BigInt(127 - p)) / 5n ** BigInt(-j);
}

/** floor(log10(x)) for a positive rational num/den, exactly. */
function floorLog10(num: bigint, den: bigint): number {
  let k = num.toString().length - den.toString().length;
  // 10^k <= num/den < 10^(k+1), adjusted by at most a step or two.
  const le = (k: number) => k >= 0 ? 10n ** BigInt(k) * den <= num : den <= num * 10n ** BigInt(-k);
  while (!le(k)) k--;
  while (le(k + 1)) k++;
  return k;
}

/** Throws unless every integer formula of float_exact.ts agrees with exact arithmetic. */
export function checkFormulas(): void {
  for (let j = POW10_MIN; j <= POW10_MAX; j++) {
    const exact = floorLog2Pow5(j);
    const formula = (j * 1217359) >> 19;
    if (formula !== exact) throw new Error(`floor(log2 5^${j}): ${formula} != ${exact}`);
    const t = pow10Significand(j);
    if (t < 1n << 127n || t >= 1n << 128n) throw new Error(`T_${j} is not normalized`);
    const isExact = j >= 0 && 5n ** BigInt(j) < 1n << 128n;
    if (isExact !== (j >= 0 && j <= 55)) throw new Error(`T_${j}: exactness`);
  }
  // Printing: v = c * 2^q with q in [-1074, 971]. k = floor(log10 2^q), or for a power of two
  // with a narrower gap below, k = floor(log10(3/4 * 2^q)); then j = -k must be in the table and
  // the scale sh = 127 + k - q - floor(log2 5^-k) in [124, 127] (the product is split there).
  for (let q = -1074; q <= 971; q++) {
    for (const irregular of [false, true]) {
      const num = irregular
        ? 3n * (q >= 2 ? 1n << BigInt(q - 2) : 1n)
        : (q >= 0 ? 1n << BigInt(q) : 1n);
      const den = irregular
        ? (q >= 2 ? 1n : 1n << BigInt(2 - q))
        : (q >= 0 ? 1n : 1n << BigInt(-q));
      const exact = floorLog10(num, den);
      const formula = irregular ? (q * 1262611 - 524031) >> 22 : (q * 1262611) >> 22;
      if (formula !== exact) {
        throw new Error(`floor(log10 ${irregular ? "3/4*" : ""}2^${q}): ${formula} != ${exact}`);
      }
      const j = -formula;
      if (j < POW10_MIN || j > POW10_MAX) throw new Error(`10^${j} is not in the table`);
      const sh = 127 + formula - q - ((j * 1217359) >> 19);
      if (sh < 124 || sh > 127) throw new Error(`scale ${sh} for 2^${q}`);
    }
  }
}

/** Every entry T_j, POW10_MIN <= j <= POW10_MAX, as high and low u64 (for tests). */
export function pow10Table(): bigint[] {
  const mask = (1n << 64n) - 1n;
  const out: bigint[] = [];
  for (let j = POW10_MIN; j <= POW10_MAX; j++) {
    const t = pow10Significand(j);
    out.push(t >> 64n, t & mask);
  }
  return out;
}
