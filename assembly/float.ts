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
import { outByte, outNeed } from "./memory";

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
 */
export function writeFloat(s: usize, end: usize): void {
  let p = s;
  const negative = load<u8>(p) == 0x2d;
  if (negative) p++;
  // Mantissa digits, integer part then fraction, indexed from 0.
  let index: i64 = 0;
  let first: i64 = -1; // index of the first non-zero digit
  let last: i64 = -1; // index of the last non-zero digit
  let intLen: i64 = -1;
  let easy = true;
  while (p < end) {
    const c = <u32> load<u8>(p);
    if (c == 0x2e) {
      intLen = index;
      p++;
      continue;
    }
    if (c - 0x30 >= 10) break; // `e` or `E`
    if (c != 0x30) {
      if (first < 0) first = index;
      if (index - first >= MAX_DIGITS) easy = false;
      last = index;
    }
    if (first >= 0 && index - first < MAX_DIGITS) {
      store<u8>(DIGITS + <usize> (index - first), <u8> c);
    }
    index++;
    p++;
  }
  if (intLen < 0) intLen = index;
  let exponent: i64 = 0;
  if (p < end) {
    p++; // `e` or `E`
    let expNegative = false;
    const sign = load<u8>(p);
    if (sign == 0x2d || sign == 0x2b) {
      expNegative = sign == 0x2d;
      p++;
    }
    while (p < end) {
      exponent = exponent * 10 + <i64> (load<u8>(p) - 0x30);
      if (exponent > EXPONENT_CAP) exponent = EXPONENT_CAP;
      p++;
    }
    if (expNegative) exponent = -exponent;
  }

  if (first < 0) {
    // Zero, with its sign, whatever the exponent.
    writeZero(negative);
    return;
  }
  const e = intLen - 1 - first + exponent;
  if (!easy || e < -MAX_EXPONENT || e > MAX_EXPONENT) {
    writeExact(negative, s + (negative ? 1 : 0), intLen, first, last, exponent);
    return;
  }
  writeRepr(negative, <i32> (last - first + 1), <i32> e);
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

// Writes the sign, the n significant digits at DIGITS (no trailing zero) and
// x, the exponent of the first, in repr's layout.
function writeRepr(negative: bool, n: i32, x: i32): void {
  outNeed(24);
  if (negative) outByte(0x2d);
  if (x >= -4 && x < 16) {
    if (x < 0) {
      outByte(0x30);
      outByte(0x2e);
      for (let k = -1; k > x; k--) outByte(0x30);
      writeDigits(0, n);
      return;
    }
    const whole = x + 1;
    if (n <= whole) {
      writeDigits(0, n);
      for (let k = n; k < whole; k++) outByte(0x30);
      outByte(0x2e);
      outByte(0x30);
      return;
    }
    writeDigits(0, whole);
    outByte(0x2e);
    writeDigits(whole, n);
    return;
  }
  writeDigits(0, 1);
  if (n > 1) {
    outByte(0x2e);
    writeDigits(1, n);
  }
  outByte(0x65);
  outByte(x < 0 ? 0x2d : 0x2b);
  const a = x < 0 ? -x : x;
  if (a >= 100) outByte(0x30 + <u32> (a / 100));
  outByte(0x30 + <u32> ((a / 10) % 10));
  outByte(0x30 + <u32> (a % 10));
}

// Appends significant digits [from, to); the caller has made room.
function writeDigits(from: i32, to: i32): void {
  for (let k = from; k < to; k++) outByte(<u32> load<u8>(DIGITS + <usize> k));
}
