// Correctly rounded decimal -> double, and the shortest digits that read back
// as a double, for the float lexemes float.ts does not lay out directly.
//
// Both directions multiply by the 128-bit significand T of a power of ten
// (float_table.ts), T <= T_true < T + 1, and bound the error of the product;
// when that bound cannot settle a rounding or a comparison, the bignum code
// (bignum.ts) settles it exactly. So the fast paths never guess: a result
// comes either from an error bound that excludes every other answer, or from
// exact arithmetic.
//
// Reading (decimalToBits): the first 19 significant digits w and the exponent
// q of the last of them, value w * 10^q (plus a tail when more digits follow).
//   1. Clinger: w <= 2^53, no tail and |q| <= 22: one IEEE multiplication or
//      division of two exact doubles, which rounds correctly.
//   2. Eisel-Lemire: w normalized to 64 bits times T_q, a 192-bit P; the
//      true product R = w * T_true is in [P, P + 2^64), exactly P when T_q is
//      exact. The double is R rounded at bit b (b = 138 or 139, more for
//      subnormals); unless a halfway point at bit b may lie in that interval,
//      P rounds as R does. With a tail the value lies strictly between w and
//      w + 1 times 10^q, and when both round to one double that is the answer.
//   3. Otherwise the exact path: starting from a double at or below the answer
//      (P rounded down), step up while the decimal lies above the halfway point
//      to the next double (on it: to the even one). The decimal is its first
//      800 significant digits plus a sticky "more non-zero digits follow":
//      every halfway point between doubles, an odd number below 2^54 times
//      2^-1075 or more, has at most 768 significant digits, so comparing the
//      first 800 digits and then the sticky is exact.
// Below 10^-342 with 19 digits everything is zero; at 10^309 and above, infinity.
//
// Printing (shortest), after Schubfach (R. Giulietti, "The Schubfach way to
// render doubles"): v = c * 2^q; its rounding interval has bounds
// (4c - 2) / 4 * 2^q (or (4c - 1) / 4 when c = 2^52 and the gap below is half
// as wide) and (4c + 2) / 4 * 2^q, inclusive when c is even (reading rounds
// half to even). With k = floor(log10 of the interval's width), the width
// scaled by 10^-k is in [1, 10), so the shortest decimals in the interval are
// either the one multiple of 10 (in units of 10^k) it may hold, or one of
// s = floor(v * 10^-k) and s + 1, of which the closer to v is taken, or the
// even one when v is exactly halfway (1000000000000000.25 prints as ...0.2, as
// in JS and Python; this needs k < 0). The scaled values X(y) = y * 2^q * 10^-k
// (y = 4c, or a bound's numerator) are products y * T / 2^sh, less than 2^-68
// below the true ones; each comparison of an X with an integer is decided from
// them unless X's fraction is within 2^-64 of 1, and then exactly. (That
// happens when X is an integer and T is not exact: doubles that are short
// decimals, like 1e22 read from a long lexeme.)

import { BIG_5, BIG_D, bigMulAdd, bigMulPow5, bigSet, compareDecBin } from "./bignum";
import { POW10, POW10_MIN } from "./float_table";

const MASK52: u64 = (1 << 52) - 1;
const HIDDEN: u64 = 1 << 52;
const ALL_ONES: u64 = 0xffff_ffff_ffff_ffff;
/** The bits of +Infinity. */
export const INFINITY_BITS: u64 = 0x7ff0_0000_0000_0000;
const MAX_FINITE_BITS: u64 = 0x7fef_ffff_ffff_ffff;
/** Significant digits the exact path reads; more are only "non-zero or not". */
const EXACT_DIGITS: i64 = 800;

// Exact doubles 10^0 .. 10^22, for Clinger's fast path.
const EXACT_POW10: usize = memory.data<f64>([
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]);

// The 192-bit product of mul192, most significant word first.
let p2: u64 = 0;
let p1: u64 = 0;
let p0: u64 = 0;

// The high 64 bits of a * b.
// @ts-ignore: decorator
@inline function mulHi(a: u64, b: u64): u64 {
  const a0 = a & 0xffff_ffff;
  const a1 = a >> 32;
  const b0 = b & 0xffff_ffff;
  const b1 = b >> 32;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = ((a0 * b0) >> 32) + (p01 & 0xffff_ffff) + (p10 & 0xffff_ffff);
  return a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

// p2:p1:p0 = a * (th:tl).
// @ts-ignore: decorator
@inline function mul192(a: u64, th: u64, tl: u64): void {
  const lowHi = mulHi(a, tl);
  p0 = a * tl;
  const mid = a * th + lowHi;
  p2 = mulHi(a, th) + (mid < lowHi ? 1 : 0);
  p1 = mid;
}

// floor(log2 5^j) for |j| <= 342 (checked by tests/engine/_pow10_oracle.ts).
// @ts-ignore: decorator
@inline function floorLog2Pow5(j: i32): i32 {
  return (j * 1217359) >> 19;
}

// The double M * 2^e2 (M <= 2^53; M < 2^52 only with e2 = -1074), or infinity.
function compose(m: u64, e2: i32): u64 {
  if (m == HIDDEN << 1) {
    m = HIDDEN;
    e2++;
  }
  if (m < HIDDEN) return m;
  const biased = e2 + 1075;
  if (biased >= 2047) return INFINITY_BITS;
  return (<u64> biased << 52) | (m & MASK52);
}

// ---- Reading.

// Set by eiselLemire: whether it could not decide, and the double it rounded down to.
let ambiguous = false;
let roundedDown: u64 = 0;

// The bits of w * 10^q rounded to a double (w > 0, POW10_MIN <= q <= 308), unless
// `ambiguous` is set; `roundedDown` is then the double below (or at) the answer.
function eiselLemire(w: u64, q: i32): u64 {
  const l = <i32> clz(w);
  const at = POW10 + (<usize> (q - POW10_MIN) << 4);
  mul192(w << l, load<u64>(at), load<u64>(at, 8));
  // R = (w << l) * T_true is in [P, P + 2^64) and the value is R * 2^e0.
  const e0 = floorLog2Pow5(q) - 127 - l + q;
  // Round at bit b: 52 bits below the top one, or where 2^-1074 is.
  let b = 190 + <i32> (p2 >> 63) - 52;
  if (b + e0 < -1074) b = -1074 - e0;
  ambiguous = false;
  if (b >= 193) {
    roundedDown = 0;
    return 0; // below half of 2^-1074
  }
  const u = b - 128; // 10..64: the rounding bit is in p2
  const m: u64 = u == 64 ? 0 : p2 >> u;
  const rest: u64 = u == 64 ? p2 : p2 & ((<u64> 1 << u) - 1);
  const half: u64 = <u64> 1 << (u - 1);
  const exact = q >= 0 && q <= 55; // then R = P
  let up = false;
  if (rest > half || (rest == half && (p1 | p0) != 0)) {
    up = true;
  } else if (rest == half) {
    up = exact ? (m & 1) != 0 : true; // a tie only when exact
  } else if (!exact && rest == half - 1 && p1 == ALL_ONES) {
    ambiguous = true; // the halfway point is less than 2^64 above P
  }
  const e2 = b + e0;
  const down = compose(m, e2);
  roundedDown = down == INFINITY_BITS ? MAX_FINITE_BITS : down;
  return up ? compose(m + 1, e2) : down;
}

// The address of mantissa digit `i` (digits counted from 0, the point skipped).
// @ts-ignore: decorator
@inline function digitAddress(body: usize, intLen: i64, i: i64): usize {
  return body + <usize> i + (i >= intLen ? 1 : 0);
}

/**
 * The bits of the double nearest to a non-zero decimal (round half to even),
 * without its sign: the mantissa at `body` (digits and maybe a point; digit
 * `i` has the exponent intLen - 1 - i + exponent), its first and last non-zero
 * digits `first` and `last`, and the exponent literal's value.
 */
export function decimalToBits(body: usize, intLen: i64, first: i64, last: i64, exponent: i64): u64 {
  const n = last - first + 1;
  const nw = n < 19 ? n : 19;
  let w: u64 = 0;
  let p = digitAddress(body, intLen, first);
  for (let k: i64 = 0; k < nw; k++) {
    let c = <u32> load<u8>(p);
    if (c == 0x2e) c = <u32> load<u8>(++p);
    w = w * 10 + <u64> (c - 0x30);
    p++;
  }
  const q64 = intLen - first - nw + exponent; // the exponent of w's last digit
  if (q64 < <i64> POW10_MIN) return 0;
  if (q64 > 308) return INFINITY_BITS;
  const q = <i32> q64;
  let candidate: u64;
  if (n <= 19) {
    if (w <= HIDDEN << 1 && q >= -22 && q <= 22) {
      const x = <f64> w;
      const r = q < 0 ? x / load<f64>(EXACT_POW10 + (<usize> -q << 3))
        : x * load<f64>(EXACT_POW10 + (<usize> q << 3));
      return reinterpret<u64>(r);
    }
    const bits = eiselLemire(w, q);
    if (!ambiguous) return bits;
    candidate = roundedDown;
  } else {
    // The value is strictly between w * 10^q and (w + 1) * 10^q.
    const bits = eiselLemire(w, q);
    candidate = roundedDown;
    if (!ambiguous) {
      const above = eiselLemire(w + 1, q);
      if (!ambiguous && above == bits) return bits;
    }
  }
  return exactBits(candidate, body, intLen, first, last, exponent);
}

// The exact path of decimalToBits, from a double at or below the answer.
function exactBits(
  candidate: u64,
  body: usize,
  intLen: i64,
  first: i64,
  last: i64,
  exponent: i64,
): u64 {
  const n = last - first + 1;
  const nd = n < EXACT_DIGITS ? n : EXACT_DIGITS;
  const sticky = n > nd; // the last digit, non-zero, is among those dropped
  bigSet(BIG_D, 0);
  let p = digitAddress(body, intLen, first);
  let chunk: u32 = 0;
  let scale: u32 = 1;
  for (let k: i64 = 0; k < nd; k++) {
    let c = <u32> load<u8>(p);
    if (c == 0x2e) c = <u32> load<u8>(++p);
    p++;
    chunk = chunk * 10 + (c - 0x30);
    scale *= 10;
    if (scale == 1_000_000_000) {
      bigMulAdd(BIG_D, scale, chunk);
      chunk = 0;
      scale = 1;
    }
  }
  if (scale > 1) bigMulAdd(BIG_D, scale, chunk);
  // D * 10^E, with E in [-1123, 308] (decimalToBits's bounds on q).
  const E = <i32> (intLen - first - nd + exponent);
  if (E > 0) {
    bigMulPow5(BIG_D, E);
  } else {
    bigSet(BIG_5, 1);
    bigMulPow5(BIG_5, -E);
  }
  // The candidate is at or below the answer and at most two doubles under it
  // (one without a tail, whose product is less than 2^64 short of the true one;
  // w + 1 adds one more): step up while the decimal is above the halfway point
  // to the next double, or on it with the candidate odd. More steps would be a
  // bug, and trap rather than loop.
  let c = candidate;
  for (let steps = 0; c < INFINITY_BITS; steps++) {
    let r = compareDecBin(E, halfX(c), halfF(c));
    if (r == 0 && sticky) r = 1;
    if (r < 0 || (r == 0 && (c & 1) == 0)) break;
    if (steps == 3) unreachable();
    c++;
  }
  return c;
}

// The halfway point between the positive double `c` and the next one up is
// halfX(c) * 2^halfF(c).
function halfX(c: u64): u64 {
  return 2 * (c >> 52 == 0 ? c : (c & MASK52) | HIDDEN) + 1;
}

function halfF(c: u64): i32 {
  const biased = <i32> (c >> 52);
  return (biased == 0 ? -1074 : biased - 1075) - 1;
}

// ---- Printing.

/** The shortest digits of the last double printed, without trailing zeros... */
export let shortestDigits: u64 = 0;
/** ...and the exponent of their last digit. */
export let shortestExponent: i32 = 0;

// Of the current double: k and q (v = c * 2^q), for the exact comparisons.
let curK: i32 = 0;
let curQ: i32 = 0;
let fivesReady = false;

// The sign of z * 10^curK - y * 2^curQ, exactly.
function exactCompare(z: u64, y: u64): i32 {
  if (curK < 0 && !fivesReady) {
    bigSet(BIG_5, 1);
    bigMulPow5(BIG_5, -curK);
    fivesReady = true;
  }
  bigSet(BIG_D, z);
  if (curK > 0) bigMulPow5(BIG_D, curK);
  return compareDecBin(curK, y, curQ);
}

// One scaled value X(y) = y * 2^q * 10^-k, from its product P = y * T, as a
// record of 24 bytes: floor(P / 2^sh) (u64), y (u64), whether X may reach
// that + 1 so that comparisons are made exactly (u8), and whether X is not
// an integer, when that is known (u8).
const XB: usize = memory.data(24, 8);
const XL: usize = memory.data(24, 8);
const XR: usize = memory.data(24, 8);

// Splits p2:p1:p0 at bit sh (124..127) into the record `x`.
function split(x: usize, sh: i32, exactT: bool, y: u64): void {
  const up = <u64> (128 - sh);
  const down = <u64> (sh - 64);
  const frac = (p1 << up) | (p0 >> down);
  const rest = p0 << up;
  store<u64>(x, (p2 << up) | (p1 >> down));
  store<u64>(x, y, 8);
  // Inexact T: X is in [P, P + 2^-68) / 2^sh, so unsure only within 2^-64 of the next integer.
  store<u8>(x, !exactT && frac == ALL_ONES, 16);
  store<u8>(x, !exactT || frac != 0 || rest != 0, 17);
}

// The sign of X - z, for the record `x`.
function cmpScaled(x: usize, z: u64): i32 {
  if (load<u8>(x, 16) != 0) return -exactCompare(z, load<u64>(x, 8));
  const whole = load<u64>(x);
  if (whole != z) return whole > z ? 1 : -1;
  return load<u8>(x, 17) != 0 ? 1 : 0;
}

/**
 * Sets shortestDigits and shortestExponent to the shortest decimal that reads
 * back as the positive finite double `bits`, the closest to it of those.
 */
export function shortest(bits: u64): void {
  const biased = <i32> (bits >> 52);
  const frac = bits & MASK52;
  const c = biased == 0 ? frac : frac | HIDDEN;
  const q = biased == 0 ? -1074 : biased - 1075;
  const irregular = frac == 0 && biased > 1; // the gap below is half the gap above
  const k = irregular ? (q * 1262611 - 524031) >> 22 : (q * 1262611) >> 22;
  const j = -k;
  const at = POW10 + (<usize> (j - POW10_MIN) << 4);
  const th = load<u64>(at);
  const tl = load<u64>(at, 8);
  const sh = 127 + k - q - floorLog2Pow5(j);
  const exactT = j >= 0 && j <= 55;
  curK = k;
  curQ = q;
  fivesReady = false;

  const cb = c << 2;
  mul192(cb, th, tl);
  const b2 = p2;
  const b1 = p1;
  const b0 = p0;
  split(XB, sh, exactT, cb);
  // Upper bound: P + 2T.
  const t2 = th >> 63;
  const t1 = (th << 1) | (tl >> 63);
  const t0 = tl << 1;
  p0 = b0 + t0;
  let carry: u64 = p0 < t0 ? 1 : 0;
  p1 = b1 + t1 + carry;
  carry = p1 < t1 || (carry != 0 && p1 == t1) ? 1 : 0;
  p2 = b2 + t2 + carry;
  split(XR, sh, exactT, cb + 2);
  // Lower bound: P - 2T, or P - T.
  const s2 = irregular ? 0 : t2;
  const s1 = irregular ? th : t1;
  const s0 = irregular ? tl : t0;
  p0 = b0 - s0;
  let borrow: u64 = b0 < s0 ? 1 : 0;
  p1 = b1 - s1 - borrow;
  borrow = b1 < s1 || (borrow != 0 && b1 == s1) ? 1 : 0;
  p2 = b2 - s2 - borrow;
  split(XL, sh, exactT, irregular ? cb - 1 : cb - 2);

  // s = floor(v * 10^-k) = floor(X(4c) / 4).
  let s = load<u64>(XB) >> 2;
  if (load<u8>(XB, 16) != 0 && cmpScaled(XB, (s + 1) << 2) >= 0) s++;
  const inclusive = (c & 1) == 0;
  const sp10 = (s / 10) * 10;
  const tp10 = sp10 + 10;
  const lowIn10 = inLower(sp10, inclusive);
  if (lowIn10 != inUpper(tp10, inclusive)) {
    result(lowIn10 ? sp10 : tp10, k);
    return;
  }
  const t = s + 1;
  const lowIn = inLower(s, inclusive);
  if (lowIn != inUpper(t, inclusive)) {
    result(lowIn ? s : t, k);
    return;
  }
  // Both in: the closer to v; on a tie the even one.
  const r = cmpScaled(XB, (s << 2) + 2);
  result(r < 0 || (r == 0 && (s & 1) == 0) ? s : t, k);
}

// Whether n * 10^k is at or above the interval's lower bound (n <= v * 10^-k).
function inLower(n: u64, inclusive: bool): bool {
  const r = cmpScaled(XL, n << 2);
  return inclusive ? r <= 0 : r < 0;
}

// Whether n * 10^k is at or below the interval's upper bound (n > v * 10^-k).
function inUpper(n: u64, inclusive: bool): bool {
  const r = cmpScaled(XR, n << 2);
  return inclusive ? r >= 0 : r > 0;
}

function result(d: u64, k: i32): void {
  while (d % 10 == 0) {
    d /= 10;
    k++;
  }
  shortestDigits = d;
  shortestExponent = k;
}
