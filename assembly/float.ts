// Float literals in canonical text: Python's repr for the easy ones, the raw
// lexeme between two FLOAT_MARK bytes (formatted by the JS glue) for the rest.
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

import { FLOAT_MARK } from "./canonical";
import { floatLookup, floatTable } from "./floattable";
import { outByte, outCopy, outNeed } from "./memory";

/** At most this many significant digits are formatted here. */
const MAX_DIGITS: i64 = 15;
/** The decimal exponent of the first significant digit must be within ±this. */
const MAX_EXPONENT: i64 = 307;
/** Exponent literals are saturated at this magnitude while read. */
const EXPONENT_CAP: i64 = 1_000_000_000;

// The significant digits of the lexeme being formatted, as ASCII.
const DIGITS: usize = memory.data(16);

/**
 * Writes the canonical form of the float lexeme `[s, end)` (a JSON number
 * with a fraction or an exponent): Python's repr when the lexeme is easy,
 * otherwise FLOAT_MARK lexeme FLOAT_MARK.
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
    outNeed(4);
    if (negative) outByte(0x2d);
    outByte(0x30);
    outByte(0x2e);
    outByte(0x30);
    return;
  }
  const e = intLen - 1 - first + exponent;
  if (!easy || e < -MAX_EXPONENT || e > MAX_EXPONENT) {
    if (floatTable != 0 && floatLookup(s, end)) return;
    outNeed(end - s + 2);
    outByte(FLOAT_MARK);
    outCopy(s, end - s);
    outByte(FLOAT_MARK);
    return;
  }

  const n = <i32> (last - first + 1);
  const x = <i32> e;
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
