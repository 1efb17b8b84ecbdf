// Comparing byte ranges with unaligned 8-byte loads. AssemblyScript's
// memory.compare goes byte by byte unless both addresses share an alignment,
// which keys, names and literals in a line seldom do.

/** A byte of 0x01 in every lane of a word. */
export const ONES: u64 = 0x0101010101010101;
/** Bit 7 of every byte of a word. */
export const HIGHS: u64 = 0x8080808080808080;

/**
 * Bit 7 of each byte of the result is set for a zero byte of `x` (exact up to the lowest zero
 * byte, which is all the callers use).
 */
export function zeroBytes(x: u64): u64 {
  return (x - ONES) & ~x & HIGHS;
}

/** Whether the `n` bytes at `a` equal the `n` bytes at `b`. */
export function bytesEqual(a: usize, b: usize, n: usize): bool {
  while (n >= 8) {
    if (load<u64>(a) != load<u64>(b)) return false;
    a += 8;
    b += 8;
    n -= 8;
  }
  if (n >= 4) {
    if (load<u32>(a) != load<u32>(b)) return false;
    a += 4;
    b += 4;
    n -= 4;
  }
  while (n > 0) {
    if (load<u8>(a) != load<u8>(b)) return false;
    a++;
    b++;
    n--;
  }
  return true;
}

/**
 * Compares the `n` bytes at `a` with those at `b` as unsigned bytes, in order:
 * negative, zero or positive, as memory.compare does.
 */
export function bytesCompare(a: usize, b: usize, n: usize): i32 {
  while (n >= 8) {
    const x = load<u64>(a);
    const y = load<u64>(b);
    // Little-endian words: byte-swapped, the first byte is the most significant.
    if (x != y) return bswap<u64>(x) < bswap<u64>(y) ? -1 : 1;
    a += 8;
    b += 8;
    n -= 8;
  }
  while (n > 0) {
    const x = <i32> load<u8>(a);
    const y = <i32> load<u8>(b);
    if (x != y) return x - y;
    a++;
    b++;
    n--;
  }
  return 0;
}

/**
 * The end of the run of ASCII digits at `p` (maybe empty), at most `end`: eight bytes at a time,
 * reading up to seven past `end` (SLACK keeps them addressable).
 */
export function digitsEnd(p: usize, end: usize): usize {
  while (p < end) {
    // A byte minus `0` is a digit's value when below 10: adding 0x76 sets bit 7 of the others.
    const y = load<u64>(p) ^ (ONES * 0x30);
    const m = (((y & ~HIGHS) + ONES * 0x76) | y) & HIGHS;
    if (m != 0) {
      p += <usize> (ctz(m) >> 3);
      break;
    }
    p += 8;
  }
  return p < end ? p : end;
}

/**
 * Whether one of the `n` bytes at `p` is `b`: eight at a time, reading up to seven bytes past
 * them (SLACK keeps those addressable), which the last word's mask leaves out.
 */
export function holdsByte(p: usize, n: usize, b: u32): bool {
  const pattern = ONES * <u64> b;
  while (n >= 8) {
    if (zeroBytes(load<u64>(p) ^ pattern) != 0) return true;
    p += 8;
    n -= 8;
  }
  // zeroBytes is exact up to the lowest zero byte, so one it marks among the first n is real.
  return n != 0 && (zeroBytes(load<u64>(p) ^ pattern) & ((<u64> 1 << (<u64> n << 3)) - 1)) != 0;
}
