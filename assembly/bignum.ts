// Exact comparison of a decimal with a binary number, for the rare floats that
// float_exact.ts cannot settle with its 128-bit products.
//
// compareDecBin(E, X, F) is the sign of D * 10^E - X * 2^F, for a decimal
// integer D (set up by the caller in BIG_D, already multiplied by 5^E when
// E > 0) and a u64 X. Written as D * 5^max(E,0) * 2^E against
// X * 5^max(-E,0) * 2^F, both sides are integers times powers of two; their
// bit lengths decide unless equal, and then the side with the larger power of
// two is shifted to the other's and the two compared limb by limb.
//
// Numbers are little-endian u32 limbs after a u32 limb count, with no leading
// zero limb. The callers' operands stay below 2^2720 (float_exact.ts), well
// inside CAP limbs; exceeding CAP traps rather than writing past a buffer.

/** Limbs a number may have. */
const CAP: u32 = 128;
const SIZE: usize = 4 + (<usize> CAP << 2);

/** The decimal side, D * 5^max(E, 0). */
export const BIG_D: usize = memory.data(SIZE, 8);
/** 5^max(-E, 0), or 5^|E| while printing (see float_exact.ts). */
export const BIG_5: usize = memory.data(SIZE, 8);
// The binary side, and a shifted copy of the decimal side.
const BIG_R: usize = memory.data(SIZE, 8);
const BIG_S: usize = memory.data(SIZE, 8);

// @ts-ignore: decorator
@inline function limbs(a: usize): u32 {
  return load<u32>(a);
}

// @ts-ignore: decorator
@inline function limb(a: usize, i: u32): u32 {
  return load<u32>(a + 4 + (<usize> i << 2));
}

// @ts-ignore: decorator
@inline function setLimb(a: usize, i: u32, v: u32): void {
  store<u32>(a + 4 + (<usize> i << 2), v);
}

/** a = x. */
export function bigSet(a: usize, x: u64): void {
  setLimb(a, 0, <u32> x);
  setLimb(a, 1, <u32> (x >> 32));
  store<u32>(a, x == 0 ? 0 : x >> 32 == 0 ? 1 : 2);
}

/** a = a * m + add. */
export function bigMulAdd(a: usize, m: u32, add: u32): void {
  const n = limbs(a);
  let carry = <u64> add;
  for (let i: u32 = 0; i < n; i++) {
    const t = <u64> limb(a, i) * m + carry;
    setLimb(a, i, <u32> t);
    carry = t >> 32;
  }
  if (carry != 0) {
    if (n >= CAP) unreachable();
    setLimb(a, n, <u32> carry);
    store<u32>(a, n + 1);
  }
}

/** a = a * 5^n. */
export function bigMulPow5(a: usize, n: i32): void {
  while (n >= 13) {
    bigMulAdd(a, 1220703125, 0); // 5^13
    n -= 13;
  }
  let m: u32 = 1;
  while (n > 0) {
    m *= 5;
    n--;
  }
  if (m != 1) bigMulAdd(a, m, 0);
}

// dst = a * x (dst is not a).
function mulU64(dst: usize, a: usize, x: u64): void {
  const n = limbs(a);
  if (n + 2 > CAP) unreachable();
  for (let i: u32 = 0; i < n + 2; i++) setLimb(dst, i, 0);
  for (let j: u32 = 0; j < 2; j++) {
    const m = <u64> <u32> (x >> (j << 5));
    let carry: u64 = 0;
    for (let i: u32 = 0; i < n; i++) {
      const t = <u64> limb(a, i) * m + <u64> limb(dst, i + j) + carry;
      setLimb(dst, i + j, <u32> t);
      carry = t >> 32;
    }
    setLimb(dst, n + j, <u32> carry);
  }
  let len = n + 2;
  while (len > 0 && limb(dst, len - 1) == 0) len--;
  store<u32>(dst, len);
}

// dst = a << s (dst may be a).
function shiftLeft(dst: usize, a: usize, s: u32): void {
  const n = limbs(a);
  if (n == 0) {
    store<u32>(dst, 0);
    return;
  }
  const ls = s >> 5;
  const bs = s & 31;
  if (n + ls + 1 > CAP) unreachable();
  if (bs == 0) {
    setLimb(dst, n + ls, 0);
    for (let i = n; i > 0; i--) setLimb(dst, i - 1 + ls, limb(a, i - 1));
  } else {
    setLimb(dst, n + ls, limb(a, n - 1) >> (32 - bs));
    for (let i = n - 1; i > 0; i--) {
      setLimb(dst, i + ls, (limb(a, i) << bs) | (limb(a, i - 1) >> (32 - bs)));
    }
    setLimb(dst, ls, limb(a, 0) << bs);
  }
  for (let i: u32 = 0; i < ls; i++) setLimb(dst, i, 0);
  let len = n + ls + 1;
  while (len > 0 && limb(dst, len - 1) == 0) len--;
  store<u32>(dst, len);
}

// Bits in a (0 for zero).
function bitLength(a: usize): i32 {
  const n = limbs(a);
  if (n == 0) return 0;
  return <i32> (n << 5) - <i32> clz(limb(a, n - 1));
}

// The sign of a - b.
function compare(a: usize, b: usize): i32 {
  const n = limbs(a);
  const m = limbs(b);
  if (n != m) return n > m ? 1 : -1;
  for (let i = n; i > 0; i--) {
    const x = limb(a, i - 1);
    const y = limb(b, i - 1);
    if (x != y) return x > y ? 1 : -1;
  }
  return 0;
}

/**
 * The sign of D * 10^E - X * 2^F, where BIG_D holds D * 5^max(E, 0) (D > 0)
 * and, when E < 0, BIG_5 holds 5^-E.
 */
export function compareDecBin(E: i32, X: u64, F: i32): i32 {
  if (E < 0) {
    mulU64(BIG_R, BIG_5, X);
  } else {
    bigSet(BIG_R, X);
  }
  // BIG_D * 2^E against BIG_R * 2^F.
  const left = bitLength(BIG_D) + E;
  const right = bitLength(BIG_R) + F;
  if (left != right) return left > right ? 1 : -1;
  if (E >= F) {
    shiftLeft(BIG_S, BIG_D, <u32> (E - F));
    return compare(BIG_S, BIG_R);
  }
  shiftLeft(BIG_R, BIG_R, <u32> (F - E));
  return compare(BIG_D, BIG_R);
}
