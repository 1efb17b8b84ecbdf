// The table of 128-bit significands of 10^j, POW10_MIN <= j <= POW10_MAX, that
// float_exact.ts reads decimals and prints doubles with. Entry j is
// T_j = floor(5^j * 2^(127 - floor(log2 5^j))), in [2^127, 2^128): less than
// the true value by less than one unit, and exact just when 0 <= j <= 55. The
// range covers reading (the decimal exponent of a 19-digit prefix, -342..308)
// and printing (j = -k for the k = floor(log10 2^e) of every binary64 exponent,
// -292..324).
//
// The module computes the whole table when it starts, exactly, in a few
// microseconds, so it carries none of it:
// - 10^j, j >= 0: the top 128 bits of 5^j, from a bignum multiplied by five.
// - 10^-n: the top 128 bits of floor(2^M / 5^n), from a bignum divided by five
//   (floor(floor(x / a) / b) = floor(x / ab), so each step stays exact). With
//   c = ceil(log2 5^n), 2^M / 5^n lies in [2^(M-c), 2^(M-c+1)), and its top
//   128 bits are floor(2^(c+127) / 5^n) = T_-n, provided M - c >= 127; c <= 795.
// A test compares the whole table with exact BigInt arithmetic.

/** The smallest power of ten in the table. */
export const POW10_MIN: i32 = -342;
/** The largest power of ten in the table. */
export const POW10_MAX: i32 = 324;

/** High u64, low u64 of each entry, from 10^POW10_MIN up. */
export const POW10: usize = memory.data((POW10_MAX - POW10_MIN + 1) << 4);

// A bignum as little-endian u32 limbs: 5^324 has 753 bits, 2^M has M + 1.
const M: i32 = 928;
const LIMBS: usize = memory.data(32 << 2);
let limbCount: i32 = 1;

// Bits [pos, pos + 32) of the bignum (zeros below bit 0 and above its top).
function bitsAt(pos: i32): u64 {
  const q = pos >> 5;
  const r = <u64> (pos & 31);
  const lo: u64 = q >= 0 && q < limbCount ? <u64> load<u32>(LIMBS + (<usize> q << 2)) : 0;
  const hi: u64 = q + 1 >= 0 && q + 1 < limbCount
    ? <u64> load<u32>(LIMBS + (<usize> (q + 1) << 2))
    : 0;
  return (((hi << 32) | lo) >> r) & 0xffff_ffff;
}

// Stores the bignum's top 128 bits, zeros below its end, as entry j.
function storeTop(j: i32): void {
  const top = load<u32>(LIMBS + (<usize> (limbCount - 1) << 2));
  const s = (limbCount << 5) - <i32> clz(top) - 128;
  const at = POW10 + (<usize> (j - POW10_MIN) << 4);
  store<u64>(at, (bitsAt(s + 96) << 32) | bitsAt(s + 64));
  store<u64>(at, (bitsAt(s + 32) << 32) | bitsAt(s), 8);
}

function fillPositive(): void {
  store<u32>(LIMBS, 1);
  limbCount = 1;
  for (let j: i32 = 0; j <= POW10_MAX; j++) {
    storeTop(j);
    let carry: u64 = 0;
    for (let i: i32 = 0; i < limbCount; i++) {
      const a = LIMBS + (<usize> i << 2);
      const v = <u64> load<u32>(a) * 5 + carry;
      store<u32>(a, <u32> v);
      carry = v >> 32;
    }
    if (carry != 0) {
      store<u32>(LIMBS + (<usize> limbCount << 2), <u32> carry);
      limbCount++;
    }
  }
}

function fillNegative(): void {
  limbCount = (M >> 5) + 1;
  memory.fill(LIMBS, 0, <usize> limbCount << 2);
  store<u32>(LIMBS + (<usize> (M >> 5) << 2), <u32> 1 << (M & 31));
  for (let n: i32 = 1; n <= -POW10_MIN; n++) {
    let rem: u64 = 0;
    for (let i: i32 = limbCount - 1; i >= 0; i--) {
      const a = LIMBS + (<usize> i << 2);
      const v = (rem << 32) | <u64> load<u32>(a);
      store<u32>(a, <u32> (v / 5));
      rem = v % 5;
    }
    if (load<u32>(LIMBS + (<usize> (limbCount - 1) << 2)) == 0) limbCount--;
    storeTop(-n);
  }
}

fillNegative();
fillPositive();

/** The table's address, for tests that compare it with exact arithmetic. */
export function pow10Table(): usize {
  return POW10;
}
