// Python's arithmetic on its numbers, as CPython 3.11 computes it, for the operator expressions
// BFCL's decoder evaluates: an int is exact (a bigint), a float an IEEE double; an int meeting a
// float is converted with correct rounding (OverflowError past the doubles); true division of two
// ints is correctly rounded from the exact quotient; floor division and modulo take the divisor's
// sign (floats by CPython's fmod-based divmod); a float power is CPython's float_pow, whose
// special cases come before C's pow (glibc's, reproduced in ./_python_pow.ts).
import { roundRatio } from "../stats/mod.ts";
import { bitLength, glibcPow } from "./_python_pow.ts";

export { bitLength };

/** A Python exception: the expression fails in Python too. */
export class PyRaised extends Error {
  /**
   * @param type The exception's class (`ZeroDivisionError`).
   * @param detail Its message.
   */
  constructor(type: string, detail: string) {
    super(`${type}: ${detail}`);
  }
}

/** What this evaluator does not compute, though Python would: the decoding fails here. */
export class NotEvaluated extends Error {}

/** The largest int an operation may give here, in bits (about 19,700 decimal digits). */
export const MAX_INT_BITS = 1 << 16;

function limitBits(bits: number): void {
  if (bits > MAX_INT_BITS) {
    throw new NotEvaluated(`an int of more than ${MAX_INT_BITS} bits, which is not evaluated here`);
  }
}

/** The bits of an int known to fit (NotEvaluated past MAX_INT_BITS). */
export function intBits(n: bigint): number {
  const bits = bitLength(n);
  limitBits(bits);
  return bits;
}

/** `float(n)`: correctly rounded; OverflowError past the largest double. */
export function intToFloat(n: bigint): number {
  const x = Number(n); // ECMAScript rounds a bigint to the nearest double, ties to even
  if (!Number.isFinite(x)) throw new PyRaised("OverflowError", "int too large to convert to float");
  return x;
}

const EXACT = 1n << 53n;

/** `a / b` of two ints: the exact quotient, correctly rounded (CPython's long_true_divide). */
export function intTrueDivide(a: bigint, b: bigint): number {
  if (b === 0n) throw new PyRaised("ZeroDivisionError", "division by zero");
  const negative = (a < 0n) !== (b < 0n);
  const n = a < 0n ? -a : a, d = b < 0n ? -b : b;
  if (n === 0n) return negative ? -0 : 0;
  if (n <= EXACT && d <= EXACT) return Number(a) / Number(b);
  const x = roundRatio(n, d, 0);
  if (x === Infinity) {
    throw new PyRaised("OverflowError", "integer division result too large for a float");
  }
  return negative ? -x : x;
}

/** `a // b` of two ints: the quotient rounded toward minus infinity. */
export function intFloorDivide(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new PyRaised("ZeroDivisionError", "integer division or modulo by zero");
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** `a % b` of two ints: the remainder with the divisor's sign. */
export function intModulo(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new PyRaised("ZeroDivisionError", "integer modulo by zero");
  const r = a % b;
  return (r !== 0n && (r < 0n) !== (b < 0n)) ? r + b : r;
}

/** `a * b` of two ints. */
export function intMultiply(a: bigint, b: bigint): bigint {
  if (a === 0n || b === 0n) return 0n;
  limitBits(bitLength(a) + bitLength(b) - 1);
  return a * b;
}

/** `a ** b` of two ints: exact for b >= 0, else the float power of their floats. */
export function intPower(a: bigint, b: bigint): bigint | number {
  if (b < 0n) return floatPower(intToFloat(a), intToFloat(b));
  if (a === 0n) return b === 0n ? 1n : 0n;
  if (a === 1n) return 1n;
  if (a === -1n) return b % 2n === 0n ? 1n : -1n;
  // |a| >= 2: the result has at least (bits(a) - 1)·b + 1 bits.
  if (b > BigInt(MAX_INT_BITS)) limitBits(Infinity);
  limitBits((bitLength(a) - 1) * Number(b) + 1);
  return a ** b;
}

/** `a << b` and `a >> b` of two ints. */
export function intShift(a: bigint, b: bigint, left: boolean): bigint {
  if (b < 0n) throw new PyRaised("ValueError", "negative shift count");
  if (a === 0n) return 0n;
  const bits = bitLength(a);
  if (left) {
    if (b > BigInt(MAX_INT_BITS)) limitBits(Infinity);
    limitBits(bits + Number(b));
    return a << b;
  }
  if (b >= BigInt(bits)) return a < 0n ? -1n : 0n;
  return a >> b;
}

/** `a / b` of two floats. */
export function floatDivide(a: number, b: number): number {
  if (b === 0) throw new PyRaised("ZeroDivisionError", "float division by zero");
  return a / b;
}

const copysign = (x: number, y: number): number =>
  (y < 0 || Object.is(y, -0)) ? -Math.abs(x) : Math.abs(x);

/**
 * `a // b` or `a % b` of two floats, as CPython's float divmod: the remainder is fmod's (the
 * runtime's `%` on numbers), moved to the divisor's sign, and the quotient snapped to an integer.
 */
export function floatDivmod(vx: number, wx: number, op: "//" | "%"): number {
  if (wx === 0) {
    throw new PyRaised(
      "ZeroDivisionError",
      op === "//" ? "float floor division by zero" : "float modulo",
    );
  }
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  // C's `if (mod)`: a NaN is true.
  if (mod !== 0) {
    if ((wx < 0) !== (mod < 0)) {
      mod += wx;
      div -= 1;
    }
  } else mod = copysign(0, wx);
  if (op === "%") return mod;
  if (div !== 0) {
    let floor = Math.floor(div);
    if (div - floor > 0.5) floor += 1;
    return floor;
  }
  return copysign(0, vx / wx);
}

const isOddInteger = (x: number): boolean => Math.abs(x) % 2 === 1;

/**
 * `a ** b` of two floats, as CPython's float_pow: its special cases, then the platform's pow
 * (OverflowError when the result overflows); a negative base to a fractional power, whose result
 * is a complex number, is not evaluated here.
 */
export function floatPower(iv: number, iw: number): number {
  if (iw === 0) return 1;
  if (iv !== iv) return iv;
  if (iw !== iw) return iv === 1 ? 1 : iw;
  if (!Number.isFinite(iw)) {
    const a = Math.abs(iv);
    if (a === 1) return 1;
    return (iw > 0) === (a > 1) ? Math.abs(iw) : 0;
  }
  if (!Number.isFinite(iv)) {
    const odd = isOddInteger(iw);
    if (iw > 0) return odd ? iv : Math.abs(iv);
    return odd ? copysign(0, iv) : 0;
  }
  if (iv === 0) {
    if (iw < 0) throw new PyRaised("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    return isOddInteger(iw) ? iv : 0;
  }
  let negate = false;
  if (iv < 0) {
    if (iw !== Math.floor(iw)) {
      throw new NotEvaluated("a negative number to a fractional power, whose result is complex");
    }
    iv = -iv;
    negate = isOddInteger(iw);
  }
  if (iv === 1) return negate ? -1 : 1;
  const x = glibcPow(iv, iw);
  if (!Number.isFinite(x)) {
    throw new PyRaised("OverflowError", "(34, 'Numerical result out of range')");
  }
  return negate ? -x : x;
}
