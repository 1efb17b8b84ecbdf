// Seeded, deterministic random inputs for the differential tests (engine vs
// engine, engine vs Python). Pure TypeScript: no I/O, no Deno APIs.
//
// Every generator takes an `Rng` so that a failing input can be reproduced
// from its seed alone.

/** A small seeded PRNG (sfc32, seeded through splitmix32). */
export interface Rng {
  /** The next uint32. */
  next(): number;
  /** A double in [0, 1) with 53 random bits. */
  float(): number;
  /** An unbiased integer in [0, n), for 1 <= n <= 2^32. */
  int(n: number): number;
  /** A uniformly chosen element of a non-empty array. */
  pick<T>(arr: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
}

/** Creates an sfc32 PRNG whose four words come from splitmix32(`seed`). */
export function makeRng(seed: number): Rng {
  let s = seed >>> 0;
  const splitmix32 = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix32(), b = splitmix32(), c = splitmix32(), d = splitmix32();
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  const int = (n: number): number => {
    if (!(n >= 1 && n <= 0x100000000) || n !== Math.floor(n)) {
      throw new RangeError(`int(n) needs an integer 1 <= n <= 2^32, got ${n}`);
    }
    const limit = Math.floor(0x100000000 / n) * n;
    for (;;) {
      const r = next();
      if (r < limit) return r % n;
    }
  };
  return {
    next,
    float: () => ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992,
    int,
    pick: <T>(arr: readonly T[]): T => arr[int(arr.length)] as T,
    chance: (p: number) => next() < p * 0x100000000,
  };
}

/** A copy of `xs` in a random order (Fisher–Yates). */
export function shuffled<T>(rng: Rng, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// ---------------------------------------------------------------- doubles

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer); // little-endian: [lo, hi]

function fromBits(hi: number, lo: number): number {
  u32[0] = lo >>> 0;
  u32[1] = hi >>> 0;
  return f64[0] as number;
}

/** The double `k` ulps away from finite `x` (k may be negative), walking through zero. */
function stepUlps(x: number, k: number): number {
  f64[0] = x;
  // Map to a monotone signed 64-bit integer line, as a BigInt.
  let bits = (BigInt(u32[1] as number) << 32n) | BigInt(u32[0] as number);
  const neg = bits >> 63n === 1n;
  let ordinal = neg ? -(bits & 0x7fffffffffffffffn) : bits;
  ordinal += BigInt(k);
  bits = ordinal < 0n ? (-ordinal) | (1n << 63n) : ordinal;
  u32[0] = Number(bits & 0xffffffffn);
  u32[1] = Number(bits >> 32n);
  return f64[0] as number;
}

const pow5Cache: bigint[] = [1n];
function pow5(k: number): bigint {
  while (pow5Cache.length <= k) pow5Cache.push((pow5Cache[pow5Cache.length - 1] as bigint) * 5n);
  return pow5Cache[k] as bigint;
}

/** Exact value N * 2^k as decimal digits and a power of ten: value = digits * 10^pow10. */
function exactDecimal(n: bigint, k: number): { digits: string; pow10: number } {
  if (k >= 0) return { digits: (n << BigInt(k)).toString(), pow10: 0 };
  return { digits: (n * pow5(-k)).toString(), pow10: k };
}

/** The finite positive double `x` as integer significand and binary exponent (x = m * 2^e). */
function decompose(x: number): { m: bigint; e: number } {
  f64[0] = x;
  const hi = u32[1] as number, lo = u32[0] as number;
  const bexp = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (bexp === 0) return { m: frac, e: -1074 };
  return { m: frac | (1n << 52n), e: bexp - 1075 };
}

/** Writes digits * 10^pow10 as a JSON float lexeme in a random layout. */
function layoutDecimal(rng: Rng, digits: string, pow10: number): string {
  // Strip leading zeros (keep one digit).
  let i = 0;
  while (i < digits.length - 1 && digits[i] === "0") i++;
  digits = digits.slice(i);
  const sciExp = pow10 + digits.length - 1;
  const style = rng.int(4);
  if (style === 0) return digits + expPart(rng, pow10, true);
  if (style === 1 || Math.abs(sciExp) > 60) {
    const frac = digits.length > 1 ? "." + digits.slice(1) : (rng.chance(0.5) ? ".0" : "");
    return digits[0] + frac + expPart(rng, sciExp, frac === "");
  }
  // Fixed layout.
  let fixed: string;
  if (pow10 >= 0) fixed = digits + "0".repeat(pow10) + ".0";
  else if (-pow10 >= digits.length) fixed = "0." + "0".repeat(-pow10 - digits.length) + digits;
  else fixed = digits.slice(0, digits.length + pow10) + "." + digits.slice(digits.length + pow10);
  if (style === 3) fixed += "0".repeat(rng.int(4));
  return fixed;
}

/** A random JSON exponent suffix for `e`; `required` is ignored (an exponent is always written). */
function expPart(rng: Rng, e: number, _required: boolean): string {
  const letter = rng.chance(0.8) ? "e" : "E";
  const sign = e < 0 ? "-" : rng.pick(["", "+", "+"]);
  const pad = rng.chance(0.1) ? "0".repeat(1 + rng.int(3)) : "";
  return letter + sign + pad + Math.abs(e);
}

/** Makes a JSON number lexeme a float lexeme (adds a fraction or exponent when it has neither). */
function floatify(rng: Rng, lexeme: string): string {
  if (/[.eE]/.test(lexeme)) return lexeme;
  return lexeme + rng.pick([".0", ".0", "e0", "E+0", ".000", "e-0", "e00"]);
}

/** Writes a finite double `x` as a JSON float lexeme, in one of several layouts. */
function lexemeOf(rng: Rng, x: number): string {
  if (!Number.isFinite(x)) {
    if (x !== x) return rng.pick(["1e400", "-1e400"]); // not reachable from callers
    return (x < 0 ? "-" : "") +
      rng.pick(["1e400", "1E999", "2e308", "1.8e308", "1e99999999999999999999"]);
  }
  if (x === 0) {
    const neg = Object.is(x, -0) ? "-" : "";
    return neg + rng.pick(["0.0", "0e0", "0E-7", "0.000e+12", "0.0e400", "0e-400"]);
  }
  const sign = x < 0 ? "-" : "";
  const a = Math.abs(x);
  switch (rng.int(7)) {
    case 0:
      return floatify(rng, String(x));
    case 1:
      return sign + a.toExponential();
    case 2:
      return floatify(rng, sign + a.toPrecision(17));
    case 3:
      return floatify(rng, sign + a.toPrecision(1 + rng.int(100)));
    case 4:
      return sign + a.toExponential(rng.int(101));
    case 5:
      if (a < 1e21) return floatify(rng, sign + a.toFixed(rng.int(101)));
      return sign + a.toExponential();
    default: {
      const { m, e } = decompose(a);
      const { digits, pow10 } = exactDecimal(m, e);
      return sign + layoutDecimal(rng, digits, pow10);
    }
  }
}

function randomFiniteBits(rng: Rng): number {
  for (;;) {
    const x = fromBits(rng.next(), rng.next());
    if (Number.isFinite(x)) return x;
  }
}

function randomDigits(rng: Rng, n: number, leadingNonZero: boolean): string {
  let s = "";
  for (let i = 0; i < n; i++) {
    s += String(i === 0 && leadingNonZero ? 1 + rng.int(9) : rng.int(10));
  }
  return s;
}

const SPECIAL_DOUBLES = [
  "-0.0",
  "0.0",
  "0e0",
  "-0e-0",
  "0E1000",
  "-0.0e-400",
  "1e400",
  "-1e400",
  "1e-400",
  "-1e-400",
  "1e99999999999999999999",
  "-1E99999999999999999999",
  "4.9e-324",
  "5e-324",
  "-5e-324",
  "2.4703282292062327e-324",
  "2.4703282292062328e-324",
  "2.2250738585072011e-308",
  "2.2250738585072014e-308",
  "2.225073858507201e-308",
  "1.7976931348623157e308",
  "1.7976931348623158e308",
  "1.7976931348623159e308",
  "1.797693134862315807937289714053e308",
  "1.7976931348623158079e308",
  "9007199254740993.0",
  "9007199254740992.0",
  "9007199254740991.0",
  "9007199254740995.0",
  "0.1",
  "0.2",
  "0.30000000000000004",
  "1.0",
  "-1.0",
  "100.0",
  "1e21",
  "1e22",
  "1e23",
  "123456789012345678901234567890.0",
  "0.000001",
  "0.00001",
  "0.0001",
  "0.001",
  "1e15",
  "1e16",
  "1e17",
  "999999999999999.9",
  "9999999999999998.0",
  "9999999999999999.0",
  "1.5e-7",
  "1e-7",
  "12345678.9",
  "3.141592653589793",
  "2.718281828459045",
];

/**
 * A random JSON float lexeme (fraction or exponent always present), drawn from raw 64-bit patterns,
 * powers of ten, exact and near halfway cases, the repr fixed/scientific boundaries, integral
 * values, long random decimals and a list of special values.
 */
export function randomDouble(rng: Rng): string {
  const sign = rng.chance(0.4) ? "-" : "";
  const kind = rng.int(100);
  if (kind < 30) {
    // Raw bit patterns: every binade equally, subnormals included.
    const x = randomFiniteBits(rng);
    return lexemeOf(rng, rng.chance(0.1) ? x / 2 ** (1 + rng.int(1074)) : x);
  }
  if (kind < 35) {
    // Powers of ten, over and beyond the double range.
    const k = -330 + rng.int(641);
    const style = rng.int(4);
    if (style === 0) return sign + "1e" + k;
    if (style === 1) return sign + "1.0E" + (k >= 0 ? "+" : "") + k;
    if (style === 2) return sign + layoutDecimal(rng, "1", k);
    return sign + "10" + expPart(rng, k - 1, true);
  }
  if (kind < 47) {
    // Halfway cases: the exact midpoint of two adjacent doubles, and decimals just off it.
    let x: number;
    const src = rng.int(4);
    if (src === 0) x = Math.abs(randomFiniteBits(rng));
    else if (src === 1) x = fromBits(rng.int(0x100000), rng.next()); // subnormal
    else if (src === 2) x = (1 + rng.float()) * 2 ** (rng.int(140) - 70);
    else x = Math.abs(stepUlps(Number.MAX_VALUE, -rng.int(3)));
    if (x === 0) x = Number.MIN_VALUE;
    const { m, e } = decompose(x);
    const mid = exactDecimal(2n * m + 1n, e - 1);
    let digits = mid.digits, pow10 = mid.pow10;
    const variant = rng.int(5);
    if (variant === 1 && digits.length > 17) {
      // Truncated: just below the midpoint.
      const n = 17 + rng.int(Math.min(30, digits.length - 17));
      pow10 += digits.length - n;
      digits = digits.slice(0, n);
    } else if (variant === 2) {
      // Just above the midpoint.
      const z = rng.int(30);
      digits = digits + "0".repeat(z) + "1";
      pow10 -= z + 1;
    } else if (variant === 3 && digits.length > 17) {
      // Truncated then bumped in the last digit: just above (or on) the midpoint.
      const n = 17 + rng.int(Math.min(30, digits.length - 17));
      pow10 += digits.length - n;
      digits = (BigInt(digits.slice(0, n)) + 1n).toString();
    } else if (variant === 4) {
      // Trailing zeros do not change the value.
      const z = 1 + rng.int(10);
      digits += "0".repeat(z);
      pow10 -= z;
    }
    return sign + layoutDecimal(rng, digits, pow10);
  }
  if (kind < 60) {
    // Around the repr layout boundaries 1e-5, 1e-4, 1e15, 1e16 (and 1e21, 1e-7 for JS's own).
    const p = rng.pick([-5, -4, 15, 16, -5, -4, 15, 16, 21, -7, 0]);
    const style = rng.int(4);
    if (style === 0) {
      return sign + lexemeOf(rng, stepUlps(Number("1e" + p), rng.int(9) - 4));
    }
    if (style === 3) {
      const rel = (rng.float() - 0.5) * 10 ** -rng.int(17);
      return sign + lexemeOf(rng, Number("1e" + p) * (1 + rel));
    }
    const r = 1 + rng.int(25);
    if (style === 1) return sign + layoutDecimal(rng, "9".repeat(r), p - r); // 10^p - 10^(p-r)
    return sign + layoutDecimal(rng, "1" + "0".repeat(r - 1) + String(rng.int(10)), p - r); // just above
  }
  if (kind < 70) {
    // Integral values written as floats.
    const src = rng.int(5);
    let digits: string;
    if (src === 0) digits = String(rng.int(1001));
    else if (src === 1) digits = String(Math.floor(rng.float() * 2 ** 53));
    else if (src === 2) digits = (2n ** 53n + BigInt(rng.int(9)) - 4n).toString();
    else if (src === 3) {
      digits = (10n ** BigInt(14 + rng.int(4)) + BigInt(rng.int(21)) - 10n).toString();
    } else digits = randomDigits(rng, 1 + rng.int(40), true);
    const tail = rng.pick([".0", ".00", "e0", "E+00", ".0e0"]);
    return sign + digits + tail;
  }
  if (kind < 95) {
    // Random decimal lexemes, sometimes with very many digits.
    const intLen = rng.chance(0.3) ? 0 : 1 + (rng.chance(0.05) ? rng.int(400) : rng.int(25));
    const intPart = intLen === 0 ? "0" : randomDigits(rng, intLen, true);
    const hasFrac = intLen === 0 || rng.chance(0.7);
    const fracLen = 1 + (rng.chance(0.05) ? rng.int(400) : rng.int(30));
    const lead = rng.chance(0.2) ? "0".repeat(rng.int(20)) : "";
    const frac = hasFrac ? "." + lead + randomDigits(rng, fracLen, false) : "";
    const hasExp = !hasFrac || rng.chance(0.5);
    // Mostly keep the value inside the double range, so that most lexemes are distinct doubles.
    const e = rng.chance(0.03)
      ? rng.int(100000) - 50000
      : rng.int(650) - 335 - (intLen > 1 ? intLen - 1 : 0);
    return sign + intPart + frac + (hasExp ? expPart(rng, e, true) : "");
  }
  return rng.pick(SPECIAL_DOUBLES);
}

/**
 * A random JSON float lexeme near the edges of the Wasm engine's own float formatting (see
 * assembly/float.ts): 1 to 17 significant digits (mostly 14 to 16), a first-digit exponent
 * near ±307/±308, the repr layout boundaries -5/-4 and 15/16, or anywhere in [-330, 330]; laid
 * out with leading zeros, trailing zeros, redundant exponents or as zero. Separate from
 * {@linkcode randomDouble}, whose outputs stay as they were.
 */
export function randomEasyBoundaryDouble(rng: Rng): string {
  const sign = rng.chance(0.4) ? "-" : "";
  if (rng.chance(0.03)) {
    // Zero, with any exponent.
    return sign + "0" + rng.pick([".0", ".000", "e5", "E-400", ".0e99999999999999999999"]);
  }
  const n = rng.chance(0.7) ? 14 + rng.int(3) : 1 + rng.int(17);
  let digits = String(1 + rng.int(9));
  for (let i = 1; i < n; i++) digits += String(i === n - 1 ? 1 + rng.int(9) : rng.int(10));
  if (rng.chance(0.1)) digits = digits.slice(0, 1) + "9".repeat(n - 1); // carries when rounded
  const where = rng.int(5);
  const e = where === 0
    ? rng.pick([-309, -308, -307, -306])
    : where === 1
    ? rng.pick([306, 307, 308])
    : where === 2
    ? rng.pick([-6, -5, -4, -3])
    : where === 3
    ? rng.pick([14, 15, 16, 17])
    : rng.int(661) - 330;
  let pow10 = e - (n - 1);
  if (rng.chance(0.3)) {
    // Trailing zeros do not count as significant digits.
    const z = 1 + rng.int(6);
    digits += "0".repeat(z);
    pow10 -= z;
  }
  return sign + layoutDecimal(rng, digits, pow10);
}

// ---------------------------------------------------------------- JSON texts

/** Options for {@linkcode randomJsonText}. */
export interface JsonTextOptions {
  /** Probability that the finished text is corrupted by {@linkcode mutate} (default 0.3). */
  mutationRate?: number;
  /** Per-site probability of illegal content: raw control chars, bad escapes, non-JSON ws (default 0.01). */
  illegalRate?: number;
  /** Approximate maximum number of values in one document (default 24). */
  maxNodes?: number;
  /** Probability of a document nested around or beyond 512 levels (default 0.01). */
  deepRate?: number;
  /** Probability that an integer is huge, around or beyond 4,300 digits (default 0.003). */
  bigIntRate?: number;
}

const WS = [" ", "\t", "\n", "\r"];
const ILLEGAL_WS = ["\f", "\v", "\u00a0", "\u2028", "\ufeff", "\u3000", "\x00", "\x1c"];

const hex4 = (rng: Rng, cu: number): string => {
  const h = cu.toString(16).padStart(4, "0");
  return rng.chance(0.7)
    ? h
    : rng.chance(0.5)
    ? h.toUpperCase()
    : h.replace(/[a-f]/g, (c) => rng.chance(0.5) ? c.toUpperCase() : c);
};

const randHigh = (rng: Rng): number => 0xd800 + rng.int(0x400);
const randLow = (rng: Rng): number => 0xdc00 + rng.int(0x400);

/** Interesting key bodies (already in JSON string-body syntax). */
const KEY_POOL = [
  "a",
  "b",
  "c",
  "A",
  "B",
  "Z",
  "",
  " ",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "name",
  "arguments",
  "a.b",
  "a[0]",
  "0",
  "1",
  "10",
  "2",
  "-1",
  "\u007f",
  "\\u007f",
  "\u0080",
  "\ue000",
  "\\ue000",
  "\uffff",
  "\\uFFFF",
  "\ufb01",
  "😀",
  "\\ud83d\\ude00",
  "\\ud83d\ude00",
  "\ud83d\\ude00",
  "\\ud83d",
  "\\ude00",
  "\ud800",
  "\udfff",
  "\u00e9",
  "e\u0301",
  "\\u0061",
  "\\\\",
  '\\"',
  "\\n",
  "\\u0000",
  "\\/",
  "/",
  "𐀀",
  "\u{10ffff}",
];

/** Generates random JSON-ish documents as text; see {@linkcode randomJsonText}. */
class TextGen {
  nodes = 0;
  constructor(
    readonly rng: Rng,
    readonly illegal: number,
    readonly maxNodes: number,
    readonly bigIntRate: number,
  ) {}

  ws(): string {
    const rng = this.rng;
    if (rng.chance(this.illegal / 4)) return rng.pick(ILLEGAL_WS);
    if (rng.chance(0.7)) return "";
    let s = "";
    const n = 1 + rng.int(rng.chance(0.9) ? 3 : 20);
    for (let i = 0; i < n; i++) s += rng.pick(WS);
    return s;
  }

  stringBody(): string {
    const rng = this.rng;
    let s = "";
    const pieces = rng.chance(0.1) ? rng.int(60) : rng.int(8);
    for (let i = 0; i < pieces; i++) {
      const k = rng.int(100);
      if (k < 35) {
        const n = 1 + rng.int(8);
        for (let j = 0; j < n; j++) {
          const c = 0x20 + rng.int(95);
          s += c === 0x22 || c === 0x5c ? "_" : String.fromCharCode(c);
        }
      } else if (k < 45) s += rng.pick(['\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"]);
      else if (k < 52) s += "\\u" + hex4(rng, rng.int(0x10000));
      else if (k < 56) s += "\\u" + hex4(rng, rng.int(0x20)); // escaped control char
      else if (k < 64) {
        let c = 0x80 + rng.int(0xff80);
        if (c >= 0xd800 && c < 0xe000) c = rng.pick([0x7f, 0xe000, 0xffff, 0xfeff, 0x2028, 0xfffd]);
        s += String.fromCharCode(c);
      } else if (k < 70) s += String.fromCodePoint(0x10000 + rng.int(0x100000));
      else if (k < 74) s += String.fromCharCode(rng.chance(0.5) ? randHigh(rng) : randLow(rng)); // raw lone
      else if (k < 78) s += "\\u" + hex4(rng, rng.chance(0.5) ? randHigh(rng) : randLow(rng)); // escaped lone
      else if (k < 83) s += "\\u" + hex4(rng, randHigh(rng)) + "\\u" + hex4(rng, randLow(rng)); // escaped pair
      else if (k < 86) s += "\\u" + hex4(rng, randHigh(rng)) + String.fromCharCode(randLow(rng));
      else if (k < 89) s += String.fromCharCode(randHigh(rng)) + "\\u" + hex4(rng, randLow(rng));
      else if (k < 91) s += "\\u" + hex4(rng, randLow(rng)) + "\\u" + hex4(rng, randHigh(rng)); // reversed pair
      else if (k < 94) {
        s += rng.pick(["\u007f", "\\u007f", "\ue000", "\uffff", "\u{10000}", "\u{10ffff}"]);
      } else if (k < 97) s += rng.pick(["[", "]", "{", "}", ",", ":", '\\"]', '\\"}']);
      else if (rng.chance(this.illegal * 20)) {
        s += rng.pick([
          String.fromCharCode(rng.int(0x20)),
          "\x00",
          "\x1f",
          "\n",
          "\t",
          "\\x41",
          "\\'",
          "\\U0041",
          "\\u12G4",
          "\\u12",
          "\\u",
          "\\a",
          "\\0",
          "\\ ",
        ]);
      }
    }
    return s;
  }

  key(used: string[]): string {
    const rng = this.rng;
    if (used.length > 0 && rng.chance(0.12)) return rng.pick(used); // duplicate key
    const body = rng.chance(0.5) ? rng.pick(KEY_POOL) : this.stringBody();
    used.push(body);
    return body;
  }

  integer(): string {
    const rng = this.rng;
    const sign = rng.chance(0.3) ? "-" : "";
    if (rng.chance(this.bigIntRate)) {
      const n = rng.pick([4299, 4300, 4300, 4301, 4301, 4302, 5000, 1000 + rng.int(5000)]);
      return sign + randomDigits(rng, n, true);
    }
    const k = rng.int(10);
    if (k === 0) return sign + "0";
    if (k < 6) return sign + String(rng.int(1000));
    if (k < 8) return sign + randomDigits(rng, 1 + rng.int(20), true);
    return sign + randomDigits(rng, 15 + rng.int(40), true);
  }

  value(depth: number): string {
    const rng = this.rng;
    this.nodes++;
    const room = this.nodes < this.maxNodes && depth < 12;
    const k = rng.int(100);
    if (room && k < 22) return this.object(depth);
    if (room && k < 40) return this.array(depth);
    if (k < 58) return '"' + this.stringBody() + '"';
    if (k < 72) return this.integer();
    if (k < 88) return randomDouble(rng);
    return rng.pick([
      "true",
      "false",
      "null",
      "NaN",
      "Infinity",
      "-Infinity",
      "-0",
      "0",
      "[]",
      "{}",
    ]);
  }

  object(depth: number): string {
    const rng = this.rng;
    const n = rng.chance(0.15) ? 0 : 1 + rng.int(rng.chance(0.93) ? 4 : 16);
    const used: string[] = [];
    let s = "{" + this.ws();
    for (let i = 0; i < n; i++) {
      if (i > 0) s += "," + this.ws();
      s += '"' + this.key(used) + '"' + this.ws() + ":" + this.ws() + this.value(depth + 1) +
        this.ws();
    }
    return s + "}";
  }

  array(depth: number): string {
    const rng = this.rng;
    const n = rng.chance(0.15) ? 0 : 1 + rng.int(rng.chance(0.93) ? 4 : 16);
    let s = "[" + this.ws();
    for (let i = 0; i < n; i++) {
      if (i > 0) s += "," + this.ws();
      s += this.value(depth + 1) + this.ws();
    }
    return s + "]";
  }

  deep(): string {
    const rng = this.rng;
    const depth = rng.pick([
      500,
      510,
      511,
      512,
      512,
      513,
      513,
      514,
      520,
      600,
      900,
      989,
      990,
      991,
      1000,
      1500,
    ]);
    const open: string[] = [];
    const close: string[] = [];
    const objects = rng.int(3); // 0: arrays only, 1: objects only, 2: mixed
    for (let i = 0; i < depth; i++) {
      const obj = objects === 1 || (objects === 2 && rng.chance(0.5));
      if (obj) {
        open.push('{"' + rng.pick(KEY_POOL.slice(0, 12)) + '":' + this.ws());
        close.push("}");
      } else {
        open.push("[" + (rng.chance(0.1) ? "1," : ""));
        close.push("]");
      }
    }
    const inner = rng.chance(0.5) ? "" : this.value(12);
    // Only arrays may be closed around an empty inner value.
    let innerText = inner;
    if (innerText === "" && open[open.length - 1]?.startsWith("{")) innerText = "null";
    if (open[open.length - 1]?.endsWith(",") && innerText === "") innerText = "0";
    return open.join("") + innerText + close.reverse().join("");
  }
}

/**
 * A random JSON document as text: random whitespace, unicode and surrogate edge cases, duplicate
 * and prototype-ish keys, huge integers, NaN/Infinity, floats from {@linkcode randomDouble},
 * occasional deep nesting and illegal content, and (per `mutationRate`) corrupted by {@linkcode mutate}.
 */
export function randomJsonText(rng: Rng, opts: JsonTextOptions = {}): string {
  const gen = new TextGen(
    rng,
    opts.illegalRate ?? 0.01,
    opts.maxNodes ?? 24,
    opts.bigIntRate ?? 0.003,
  );
  let text: string;
  if (rng.chance(opts.deepRate ?? 0.01)) text = gen.ws() + gen.deep() + gen.ws();
  else {
    const root = rng.int(10);
    const body = root < 4 ? gen.object(0) : root < 7 ? gen.array(0) : gen.value(0);
    text = gen.ws() + body + gen.ws();
  }
  if (rng.chance(opts.mutationRate ?? 0.3)) text = mutate(rng, text);
  return text;
}

const MUTATION_CHARS = [
  "{",
  "}",
  "[",
  "]",
  '"',
  ",",
  ":",
  "\\",
  " ",
  "\n",
  "0",
  "1",
  "9",
  "-",
  "+",
  ".",
  "e",
  "E",
  "a",
  "n",
  "t",
  "N",
  "I",
  "'",
  "\x00",
  "\x1f",
  "\u00a0",
  "\ud800",
  "\udc00",
  "/",
  "u",
];

/** Corrupts `text` with one to three random edits: delete, insert, replace, truncate, swap brackets, duplicate. */
export function mutate(rng: Rng, text: string): string {
  const edits = 1 + rng.int(3);
  for (let i = 0; i < edits; i++) {
    const pos = rng.int(text.length + 1);
    switch (rng.int(8)) {
      case 0: // delete a char
        text = text.slice(0, pos) + text.slice(pos + 1);
        break;
      case 1: // insert a char
        text = text.slice(0, pos) + rng.pick(MUTATION_CHARS) + text.slice(pos);
        break;
      case 2: // replace a char
        text = text.slice(0, pos) + rng.pick(MUTATION_CHARS) + text.slice(pos + 1);
        break;
      case 3: // truncate
        text = text.slice(0, pos);
        break;
      case 4: { // swap a bracket for another kind
        const brackets: number[] = [];
        for (let j = 0; j < text.length; j++) {
          if ("{}[]".includes(text[j] as string)) brackets.push(j);
        }
        if (brackets.length === 0) break;
        const j = rng.pick(brackets);
        const repl = ({ "{": "[", "[": "{", "}": "]", "]": "}" } as Record<string, string>)[
          text[j] as string
        ] as string;
        text = text.slice(0, j) + repl + text.slice(j + 1);
        break;
      }
      case 5: { // duplicate a slice
        const len = rng.int(10);
        text = text.slice(0, pos) + text.slice(pos, pos + len) + text.slice(pos);
        break;
      }
      case 6: { // a trailing comma before a closer
        const closers: number[] = [];
        for (let j = 0; j < text.length; j++) {
          if (text[j] === "}" || text[j] === "]") closers.push(j);
        }
        if (closers.length === 0) break;
        const j = rng.pick(closers);
        text = text.slice(0, j) + "," + text.slice(j);
        break;
      }
      default: { // remove a quote
        const quotes: number[] = [];
        for (let j = 0; j < text.length; j++) if (text[j] === '"') quotes.push(j);
        if (quotes.length === 0) break;
        const j = rng.pick(quotes);
        text = text.slice(0, j) + text.slice(j + 1);
      }
    }
  }
  return text;
}

// ---------------------------------------------------------------- tool-call outputs

const PROSE_BEFORE = [
  "",
  "",
  "",
  "Sure! Here is the call:\n",
  "I'll call the tool.\n\n",
  "Calling get_weather now: ",
  "Answer (see below) :) ",
  'Note: use "quotes" carefully.\n',
  "Stray closers first: ]} then ",
  "It's a 'tool' call —\u00a0voilà\n",
  "思考中… ",
  "emoji 😀 then ",
  "<tool_call>\n",
  "Result: ",
];
const PROSE_AFTER = [
  "",
  "",
  "",
  "\n",
  "\nHope this helps!",
  " } ] extra closers",
  "\n```",
  "</tool_call>",
  ' and then {"name": "second"}',
  " [1, 2",
  ' "unclosed',
  "\n\nLet me know :)",
];
const PROSE_ONLY = [
  "",
  "I cannot help with that.",
  "The weather in Rome is sunny.",
  "No tool needed (really).",
  'Use the "search" tool, maybe.',
  "Ok :) ) ) >",
  "name: get_weather, arguments: none",
];
const NAMES = [
  "get_weather",
  "search",
  "f",
  "book_hotel",
  "send_email",
  "x.y",
  "天気",
  "get\\u005fweather",
  'with \\"quotes\\"',
  "\\ud800",
  "\\ud83d\\ude00",
  "😀",
  " ",
  "\\u0000",
  "a}b]c",
  "n[0]",
];

/** Generates the JSON text of an arguments object. */
function argsText(rng: Rng, gen: TextGen): string {
  const k = rng.int(6);
  if (k === 0) return "{}";
  if (k === 1) {
    return `{"city": "${
      rng.pick(["Paris", "Oslo", "Rome", "Zürich", "\\u6771\\u4eac"])
    }", "units": "${rng.pick(["celsius", "kelvin"])}"}`;
  }
  if (k === 2) {
    return `{"city":"Paris","filters":{"max_price":${
      rng.pick(["120", "120.0", "1.2e2", "-0", "NaN"])
    },"tags":["romantic","quiet"]},"options":{}}`;
  }
  gen.nodes = 0;
  return gen.object(1);
}

/** The text of one call object, with random key order, whitespace and (rarely) duplicate keys. */
function callText(rng: Rng, gen: TextGen, shape: string): string {
  const name = '"' + rng.pick(NAMES) + '"';
  const members: string[] = [];
  const ws = () => gen.ws();
  const member = (k: string, v: string) => '"' + k + '"' + ws() + ":" + ws() + v;
  switch (shape) {
    case "extra_key":
      members.push(
        member("name", name),
        member("arguments", argsText(rng, gen)),
        member(rng.pick(["id", "type", "Name", "arguments2"]), '"x"'),
      );
      break;
    case "missing_name":
      members.push(member("arguments", argsText(rng, gen)));
      break;
    case "missing_arguments":
      members.push(member("name", name));
      break;
    case "empty_name":
      members.push(member("name", '""'), member("arguments", argsText(rng, gen)));
      break;
    case "non_string_name":
      members.push(
        member("name", rng.pick(["1", "null", "true", "[]", '["f"]', '{"f":1}', "NaN"])),
        member("arguments", argsText(rng, gen)),
      );
      break;
    case "string_arguments":
      members.push(
        member("name", name),
        member("arguments", rng.pick(['"{\\"a\\": 1}"', '"{}"', '""'])),
      );
      break;
    case "array_arguments":
      members.push(
        member("name", name),
        member("arguments", rng.pick(["[]", "[1,2]", '[{"a":1}]'])),
      );
      break;
    case "scalar_arguments":
      members.push(
        member("name", name),
        member("arguments", rng.pick(["null", "1", "true", "1.5", "Infinity"])),
      );
      break;
    case "duplicate_keys":
      // An invalid first value overridden by a valid last one (ok), or the reverse (invalid_shape).
      if (rng.chance(0.5)) {
        members.push(
          member("name", "1"),
          member("arguments", "[]"),
          member("name", name),
          member("arguments", argsText(rng, gen)),
        );
      } else {
        members.push(
          member("name", name),
          member("arguments", argsText(rng, gen)),
          member("name", '""'),
        );
      }
      break;
    default: // ok
      members.push(member("name", name), member("arguments", argsText(rng, gen)));
  }
  if (rng.chance(0.5)) members.reverse();
  return "{" + ws() + members.join(ws() + "," + ws()) + ws() + "}";
}

const SHAPES = [
  "ok",
  "ok",
  "ok",
  "ok",
  "ok",
  "ok",
  "ok",
  "ok",
  "ok",
  "ok",
  "ok",
  "ok",
  "extra_key",
  "missing_name",
  "missing_arguments",
  "empty_name",
  "non_string_name",
  "string_arguments",
  "array_arguments",
  "scalar_arguments",
  "duplicate_keys",
];

/**
 * A prose-wrapped tool-call output: calls as objects, one-element arrays or fenced blocks, and every
 * failure class (no brackets, unbalanced, mismatched, invalid JSON in a balanced span, wrong shapes).
 */
export function randomToolCallOutput(rng: Rng): string {
  const gen = new TextGen(rng, 0.005, 25, 0.002);
  const kind = rng.int(100);
  let body: string;
  if (kind < 5) return rng.pick(PROSE_ONLY); // no_json (or a stray bracket-free text)
  const call = callText(rng, gen, rng.pick(SHAPES));
  if (kind < 45) body = call;
  else if (kind < 60) body = "[" + gen.ws() + call + gen.ws() + "]";
  else if (kind < 63) body = "[]";
  else if (kind < 67) body = "[" + call + "," + gen.ws() + callText(rng, gen, "ok") + "]"; // two calls
  else if (kind < 69) body = "[[" + call + "]]";
  else if (kind < 72) {
    // Unbalanced: cut short.
    body = call.slice(0, 1 + rng.int(call.length - 1));
  } else if (kind < 75) {
    // Mismatched closer.
    body = call.slice(0, -1) + "]";
  } else if (kind < 80) {
    // Invalid JSON inside a balanced span.
    body = rng.pick([
      "{'name': 'f', 'arguments': {}}",
      '{"name": "f", "arguments": {},}',
      '{name: "f", arguments: {}}',
      '{"name": "f", // comment\n"arguments": {}}',
      '{"name": "f", "arguments": {"a": 01}}',
      '{"name": "f" "arguments": {}}',
      '{"name": "f", "arguments": {"a": "\x01"}}',
      '{"name": "f", "arguments": {"a": [1,]}}',
      "[note]",
      "{}",
      "[1]",
      '{"name": "f", "arguments": {"a": "\\x"}}',
    ]);
  } else if (kind < 92) body = mutate(rng, call);
  else if (kind < 96) {
    body = "[" + gen.ws() + call + gen.ws() + "]" + (rng.chance(0.5) ? "\n" + call : "");
  } else {
    // A valid random JSON document (mostly not a call: invalid_shape) or a deep one.
    body = rng.chance(0.3) ? gen.deep() : randomJsonText(rng, { mutationRate: 0.2 });
  }
  if (rng.chance(0.2)) {
    body = "```" + rng.pick(["json", "", "JSON", "tool_call"]) + "\n" + body + "\n```";
  }
  return rng.pick(PROSE_BEFORE) + body + rng.pick(PROSE_AFTER);
}

/** The same JSON value with every object's keys in a shuffled order (own keys only, `__proto__` kept). */
export function shuffleKeys(rng: Rng, v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => shuffleKeys(rng, x));
  if (typeof v !== "object" || v === null) return v;
  const keys = Object.keys(v);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const o: Record<string, unknown> = {};
  for (const k of keys) {
    Object.defineProperty(o, k, {
      value: shuffleKeys(rng, (v as Record<string, unknown>)[k]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return o;
}
