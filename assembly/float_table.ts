// The table of 128-bit significands of 10^j, POW10_MIN <= j <= POW10_MAX, that
// float_exact.ts reads decimals and prints doubles with (see float_pow10.ts for
// the definition: entry j is floor(5^j * 2^(127 - floor(log2 5^j)))).
//
// The negative powers come from float_pow10.ts (each needs a division, done by
// build/gen_float_table.ts). The others are the top 128 bits of 5^j, computed
// here when the module starts: 5^0 .. 5^324 by multiplying a bignum by five,
// exactly, in a few microseconds, so the module carries half the table. A test
// compares the whole table with the generator's.

import { POW10_MAX, POW10_MIN, POW10_NEGATIVE } from "./float_pow10";

/** High u64, low u64 of each entry, from 10^POW10_MIN up. */
export const POW10: usize = memory.data((POW10_MAX - POW10_MIN + 1) << 4);

// 5^j as little-endian u32 limbs: 5^324 has 753 bits.
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

function fillPositive(): void {
  store<u32>(LIMBS, 1);
  limbCount = 1;
  for (let j: i32 = 0; j <= POW10_MAX; j++) {
    const top = load<u32>(LIMBS + (<usize> (limbCount - 1) << 2));
    const bits = (limbCount << 5) - <i32> clz(top);
    // floor(5^j * 2^(128 - bits)): the bignum's top 128 bits, zeros below its end.
    const s = bits - 128;
    const at = POW10 + (<usize> (j - POW10_MIN) << 4);
    store<u64>(at, (bitsAt(s + 96) << 32) | bitsAt(s + 64));
    store<u64>(at, (bitsAt(s + 32) << 32) | bitsAt(s), 8);
    // Times five.
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

memory.copy(POW10, POW10_NEGATIVE, <usize> -POW10_MIN << 4);
fillPositive();

/** The table's address, for tests that compare it with the generator's. */
export function pow10Table(): usize {
  return POW10;
}
