// Float literals in canonical text: Python's repr, `repr(float(lexeme))`.
//
// A lexeme is easy when its significant digits (leading and trailing zeros
// dropped) number at most 15 and its decimal exponent (of the first
// significant digit) is in [-307, 307], so that the value is well inside the
// normal double range. Then, by DBL_DIG = 15, two distinct decimals of at most
// 15 significant digits never round to the same double: the shortest digits
// that round-trip (what repr prints) are exactly those significant digits.
// Zero is easy whatever its exponent. Only the layout remains: fixed notation
// when the exponent is in [-4, 16) (`.0` on integral values), otherwise
// `d.ddde±XX` with at least two exponent digits.
//
// Any other lexeme is read into the nearest double and that double printed
// with its shortest round-trip digits (float_exact.ts), then laid out alike.

import { decimalToBits, INFINITY_BITS, shortest, shortestDigits, shortestExponent } from "./float_exact";
import { outBase, outByte, outNeed, outPos, outRewind } from "./memory";

/** At most this many significant digits are formatted here. */
const MAX_DIGITS: i64 = 15;
/** The decimal exponent of the first significant digit must be within ±this. */
const MAX_EXPONENT: i64 = 307;
/** Exponent literals are saturated at this magnitude while read. */
const EXPONENT_CAP: i64 = 1_000_000_000;

// The significant digits of the lexeme being formatted, as ASCII (at most 17,
// written right-aligned at DIGITS_END first by writeExact).
const DIGITS_END: usize = 32;
const DIGITS: usize = memory.data(<i32> DIGITS_END);

/**
 * Writes the canonical form of the float lexeme `[s, end)` (a JSON number
 * with a fraction or an exponent): Python's repr of the double it reads as.
 * Its integer part ends at `intEnd`, its fraction (if any: `.` and digits) at
 * `fracEnd`, where its exponent (if any) starts.
 */
export function writeFloat(s: usize, intEnd: usize, fracEnd: usize, end: usize): void {
  const negative = load<u8>(s) == 0x2d;
  const body = s + <usize> negative;
  // Mantissa digits, integer part then fraction, are indexed from 0 (the point skipped).
  const intLen = <i64> (intEnd - body);
  // The first non-zero digit: the integer part's first, unless that part is `0` (JSON allows no
  // other leading zero); none is zero, with its sign, whatever the exponent.
  let f = body;
  if (load<u8>(body) == 0x30) {
    f = intEnd + 1;
    while (f < fracEnd && load<u8>(f) == 0x30) f++;
    if (f >= fracEnd) {
      writeZero(negative);
      return;
    }
  }
  // The last non-zero digit, at or after the first.
  let l = fracEnd - 1;
  while (load<u8>(l) == 0x30 || load<u8>(l) == 0x2e) l--;
  const first = <i64> (f - body) - (f > intEnd ? 1 : 0);
  const last = <i64> (l - body) - (l > intEnd ? 1 : 0);
  let exponent: i64 = 0;
  if (fracEnd < end) {
    let p = fracEnd + 1; // past `e` or `E`
    const sign = load<u8>(p);
    if (sign == 0x2d || sign == 0x2b) p++;
    while (p < end) {
      exponent = exponent * 10 + <i64> (load<u8>(p) - 0x30);
      if (exponent > EXPONENT_CAP) exponent = EXPONENT_CAP;
      p++;
    }
    if (sign == 0x2d) exponent = -exponent;
  }
  const e = intLen - 1 - first + exponent;
  const n = last - first + 1;
  if (n > MAX_DIGITS || e < -MAX_EXPONENT || e > MAX_EXPONENT) {
    writeExact(negative, body, intLen, first, last, exponent);
    return;
  }
  // The n significant digits to DIGITS: 16 bytes from the first, then, when the point falls
  // among them, 16 from the fraction's first over those from the point on (SLACK keeps the
  // loads past the lexeme addressable).
  v128.store(DIGITS, v128.load(f));
  if (f < intEnd && <i64> (intEnd - f) < n) v128.store(DIGITS + (intEnd - f), v128.load(intEnd + 1));
  writeRepr(negative, <i32> n, <i32> e);
}

// Writes `-0.0` or `0.0`.
function writeZero(negative: bool): void {
  outNeed(4);
  if (negative) outByte(0x2d);
  outByte(0x30);
  outByte(0x2e);
  outByte(0x30);
}

// Writes repr of the double nearest to the non-zero decimal (see decimalToBits).
function writeExact(
  negative: bool,
  body: usize,
  intLen: i64,
  first: i64,
  last: i64,
  exponent: i64,
): void {
  const bits = decimalToBits(body, intLen, first, last, exponent);
  if (bits == 0) {
    writeZero(negative);
    return;
  }
  if (bits == INFINITY_BITS) {
    outNeed(9);
    if (negative) outByte(0x2d);
    outByte(0x49); // Infinity
    outByte(0x6e);
    outByte(0x66);
    outByte(0x69);
    outByte(0x6e);
    outByte(0x69);
    outByte(0x74);
    outByte(0x79);
    return;
  }
  shortest(bits);
  // At most 17 digits, written from the end: eight at a time in u32, then the rest.
  let d = shortestDigits;
  let at = DIGITS + DIGITS_END;
  while (d >= 100_000_000) {
    let low = <u32> (d % 100_000_000);
    d /= 100_000_000;
    for (let k = 0; k < 8; k++) {
      store<u8>(--at, <u8> (0x30 + low % 10));
      low /= 10;
    }
  }
  let high = <u32> d;
  do {
    store<u8>(--at, <u8> (0x30 + high % 10));
    high /= 10;
  } while (high != 0);
  const n = <i32> (DIGITS + DIGITS_END - at);
  memory.copy(DIGITS, at, <usize> n);
  writeRepr(negative, n, shortestExponent + n - 1);
}

// Writes the sign, the n significant digits at DIGITS (no trailing zero; n <= 17) and x, the
// exponent of the first, in repr's layout. Digits go 16 at a time, and bytes written past the
// text's end are left to be overwritten.
function writeRepr(negative: bool, n: i32, x: i32): void {
  outNeed(48);
  let o = outBase + outPos;
  store<u8>(o, 0x2d);
  o += <usize> negative;
  const m = <usize> n;
  if (x >= -4 && x < 16) {
    if (x < 0) {
      store<u64>(o, 0x3030_3030_3030_2e30); // `0.` and up to six zeros, of which -x - 1
      o += <usize> (1 - x);
      v128.store(o, v128.load(DIGITS));
      v128.store(o + 16, v128.load(DIGITS + 16));
      outRewind(o + m - outBase);
      return;
    }
    const whole = <usize> x + 1;
    v128.store(o, v128.load(DIGITS));
    if (m <= whole) {
      v128.store(o + m, i8x16.splat(0x30)); // then zeros up to the point, and `.0`
      store<u16>(o + whole, 0x302e);
      outRewind(o + whole + 2 - outBase);
      return;
    }
    store<u8>(o + whole, 0x2e);
    v128.store(o + whole + 1, v128.load(DIGITS + whole));
    outRewind(o + m + 1 - outBase);
    return;
  }
  store<u8>(o, load<u8>(DIGITS));
  if (m > 1) {
    store<u8>(o, 0x2e, 1);
    v128.store(o + 2, v128.load(DIGITS + 1));
    o += m + 1;
  } else {
    o++;
  }
  store<u8>(o, 0x65);
  store<u8>(o, x < 0 ? 0x2d : 0x2b, 1);
  o += 2;
  const a = x < 0 ? -x : x;
  if (a >= 100) store<u8>(o++, 0x30 + <u32> (a / 100));
  store<u8>(o, 0x30 + <u32> ((a / 10) % 10));
  store<u8>(o, 0x30 + <u32> (a % 10), 1);
  outRewind(o + 2 - outBase);
}
