// C's pow(x, y) as glibc (2.28 and later) computes it on x86-64 with FMA, the pow that CPython's
// float power calls once its special cases are done: Arm's optimized-routines algorithm (MIT,
// Copyright (c) Arm Limited; its tables in ./_pow_tables.generated.ts), with every product that
// the FMA build fuses fused here too (the explicit fma()s, and each product GCC contracts: one
// used once, by an addition), by an exact fma over bigints. The runtime's `**` is not used: its
// result depends on the engine (V8 squares x for y = 2 and takes sqrt(x) for y = 0.5, where
// glibc's pow can be a unit in the last place away, and older V8s and JavaScriptCore use other
// algorithms). Checked against CPython 3.11 on Debian's glibc 2.36 (tests/bfcl/python_arith_test.ts).

/*! The algorithm and its tables are Arm's, under this notice (optimized-routines is offered under
 * MIT or Apache-2.0 WITH LLVM-exception; this port takes the MIT terms):
 *
 *   Copyright (c) 2018-2022, Arm Limited.
 *
 *   Permission is hereby granted, free of charge, to any person obtaining a copy of this software
 *   and associated documentation files (the "Software"), to deal in the Software without
 *   restriction, including without limitation the rights to use, copy, modify, merge, publish,
 *   distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
 *   Software is furnished to do so, subject to the following conditions:
 *
 *   The above copyright notice and this permission notice shall be included in all copies or
 *   substantial portions of the Software.
 *
 *   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING
 *   BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 *   NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
 *   DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 *   OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 */
import { decompose, roundRatio } from "../stats/mod.ts";
import { EXP_TABLE, POW_LOG_TABLE } from "./_pow_tables.generated.ts";

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);
const MASK = (1n << 64n) - 1n;

function double(bits: bigint): number {
  U64[0] = bits & MASK;
  return F64[0]!;
}

function bits(x: number): bigint {
  F64[0] = x;
  return U64[0]!;
}

const words = (packed: string): bigint[] => packed.trim().split(" ").map((w) => BigInt(`0x${w}`));
let exp: bigint[] | undefined;
let log: number[] | undefined;

/** A finite double as m·2^e exactly (m a signed integer), from stats' decompose. */
function exact(x: number): [bigint, number] {
  const [m, e] = decompose(Math.abs(x));
  return [BigInt(x < 0 ? -m : m), e];
}

/** The number of bits of |n| (Python's `int.bit_length()`). */
export function bitLength(n: bigint): number {
  const h = (n < 0n ? -n : n).toString(16);
  return (h.length - 1) * 4 + 32 - Math.clz32(parseInt(h[0]!, 16));
}

/** 2^k exactly, for -1074 <= k <= 1023, from its bits. */
function pow2(k: number): number {
  return double(k >= -1022 ? BigInt(k + 1023) << 52n : 1n << BigInt(k + 1074));
}

/** fma(a, b, c): a·b + c rounded once, for finite arguments. */
export function fma(a: number, b: number, c: number): number {
  const [ma, ea] = exact(a), [mb, eb] = exact(b), [mc, ec] = exact(c);
  const mp = ma * mb, ep = ea + eb;
  if (mp === 0n) {
    if (c !== 0) return c;
    const productNegative = (a < 0 || Object.is(a, -0)) !== (b < 0 || Object.is(b, -0));
    return productNegative && Object.is(c, -0) ? -0 : 0;
  }
  const e = Math.min(ep, ec);
  const sum = (mp << BigInt(ep - e)) + (mc << BigInt(ec - e));
  if (sum === 0n) return 0;
  return sum < 0n ? -roundRatio(-sum, 1n, e) : roundRatio(sum, 1n, e);
}

const LN2_HI = double(0x3fe62e42fefa3800n), LN2_LO = double(0x3d2ef35793c76730n);
const A = [
  0xbfe0000000000000n,
  0xbfe5555555555560n,
  0x3fe0000000000006n,
  0x3fe999999959554en,
  0xbfe555555529a47an,
  0xbff2495b9b4845e9n,
  0x3ff0002b8b263fc3n,
].map(double);

/** log(x) as hi + lo, for the bits of a positive normal x (a subnormal one normalized). */
function logInline(ix: bigint): [number, number] {
  log ??= words(POW_LOG_TABLE).map(double);
  const tmp = (ix - 0x3fe6955500000000n) & MASK;
  const i = Number((tmp >> 45n) & 127n);
  const kd = Number(BigInt.asIntN(64, tmp) >> 52n);
  const z = double(ix - (tmp & (0xfffn << 52n)));
  const invc = log[3 * i]!, logc = log[3 * i + 1]!, logctail = log[3 * i + 2]!;
  const r = fma(z, invc, -1);
  const t1 = fma(kd, LN2_HI, logc);
  const t2 = t1 + r;
  const lo1 = fma(kd, LN2_LO, logctail);
  const lo2 = t1 - t2 + r;
  const ar = A[0]! * r;
  const ar2 = r * ar;
  const ar3 = r * ar2;
  const hi = t2 + ar2;
  const lo3 = fma(ar, r, -ar2);
  const lo4 = t2 - hi + ar2;
  const q = fma(ar2, fma(ar2, fma(r, A[6]!, A[5]!), fma(r, A[4]!, A[3]!)), fma(r, A[2]!, A[1]!));
  const lo = fma(ar3, q, lo1 + lo2 + lo3 + lo4);
  const y = hi + lo;
  return [y, hi - y + lo];
}

const INV_LN2_N = double(0x3ff71547652b82fen) * 128;
const NEG_LN2_HI_N = double(0xbf762e42fefa0000n), NEG_LN2_LO_N = double(0xbd0cf79abc9e3b3an);
const SHIFT = double(0x4338000000000000n);
const C = [0x3fdffffffffffdbdn, 0x3fc555555555543cn, 0x3fa55555cf172b91n, 0x3f81111167a4d017n]
  .map(double);

/** scale·(1 + tmp) where scale's exponent (in sbits) is out of range. */
function specialCase(tmp: number, sbits: bigint, ki: bigint): number {
  if ((ki & 0x80000000n) === 0n) {
    const scale = double(sbits - (1009n << 52n));
    return pow2(1009) * fma(scale, tmp, scale);
  }
  const scale = double(sbits + (1022n << 52n));
  // scale·tmp has two uses here, so the FMA build computes it once, unfused.
  const st = scale * tmp;
  let y = scale + st;
  if (Math.abs(y) < 1) {
    const one = y < 0 ? -1 : 1;
    let lo = scale - y + st;
    const hi = one + y;
    lo = one - hi + y + lo;
    y = (hi + lo) - one;
    if (y === 0) y = 0;
  }
  return y * pow2(-1022);
}

/** exp(x + xtail), |xtail| small. */
function expInline(x: number, xtail: number): number {
  exp ??= words(EXP_TABLE);
  let abstop = Number((bits(x) >> 52n) & 0x7ffn);
  if (abstop - 0x3c9 >= 0x3f || abstop < 0x3c9) {
    if (abstop < 0x3c9) return 1; // 1 + x, |x| < 2^-54
    if (abstop >= 0x409) return x < 0 ? 0 : Infinity; // |x| >= 1024
    abstop = 0; // large |x|: scaled with care below
  }
  let kd = fma(INV_LN2_N, x, SHIFT);
  const ki = bits(kd);
  kd -= SHIFT;
  const r = fma(kd, NEG_LN2_LO_N, fma(kd, NEG_LN2_HI_N, x)) + xtail;
  const idx = Number((ki & 127n) << 1n);
  const top = (ki << 45n) & MASK;
  const tail = double(exp[idx]!);
  const sbits = (exp[idx + 1]! + top) & MASK;
  const r2 = r * r;
  const tmp = fma(r2 * r2, fma(r, C[3]!, C[2]!), fma(r2, fma(r, C[1]!, C[0]!), tail + r));
  if (abstop === 0) return specialCase(tmp, sbits, ki);
  const scale = double(sbits);
  return fma(scale, tmp, scale);
}

/**
 * glibc's pow(x, y) for what CPython leaves to it: x positive, finite and not 1, y finite and not
 * 0. Infinity where the result overflows (CPython's OverflowError), 0 where it underflows.
 */
export function glibcPow(x: number, y: number): number {
  let ix = bits(x);
  const topy = Number(bits(y) >> 52n) & 0x7ff;
  if (topy < 0x3be) return 1; // |y| < 2^-65
  if (topy >= 0x43e) return (x > 1) === (y > 0) ? Infinity : 0; // |y| >= 2^63
  if (ix >> 52n === 0n) ix = bits(x * pow2(52)) - (52n << 52n); // subnormal x
  const [hi, lo] = logInline(ix);
  const ehi = y * hi;
  const elo = fma(y, lo, fma(y, hi, -ehi));
  return expInline(ehi, elo);
}
