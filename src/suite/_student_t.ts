// Student's t quantiles for the t intervals of the per-run uncertainty: the CDF through the
// regularized incomplete beta function (its continued fraction, by the modified Lentz method),
// inverted by bisection; a closed form for 2 degrees of freedom. Checked through SciPy's t CDF in
// tests/suite/uncertainty_test.ts.
//
// The same to the bit on every runtime: only +, -, *, / and the square root, which IEEE 754 rounds
// one way everywhere, so the logarithm, the exponential and the arctangent are computed here.
// With Math.log, exp, log1p and tan, quantiles differed in their last bits between Deno, Node and
// Bun (on 44 and 4 of 1,601 (p, df) pairs), and so did the intervals in the report.

const LN2_HI = 6.93147180369123816490e-1; // ln 2 to 32 bits: k · LN2_HI is exact for |k| < 2^11
const LN2_LO = 1.90821492927058770002e-10; // ln 2 - LN2_HI

/** 2 atanh(s) / s - 2 = 2 (s²/3 + s⁴/5 + ...), for |s| ≤ 0.18. */
function atanhTail(s: number): number {
  const s2 = s * s;
  let sum = 0;
  for (let k = 29; k >= 3; k -= 2) sum = s2 * (1 / k + sum);
  return 2 * sum;
}

/** ln x for finite x > 0 (ln m + e ln 2, m in [√½, √2), ln m = 2 atanh((m - 1)/(m + 1))). */
function log(x: number): number {
  let e = 0;
  while (x >= 2 ** 32) x /= 2 ** 32, e += 32;
  while (x < 2 ** -32) x *= 2 ** 32, e -= 32;
  while (x >= Math.SQRT2) x /= 2, e++;
  while (x < Math.SQRT1_2) x *= 2, e--;
  const s = (x - 1) / (x + 1);
  return e * LN2_HI + (e * LN2_LO + (2 * s + s * atanhTail(s)));
}

/** ln(1 + y) for y > -1, accurate for small y (2 atanh(y / (2 + y))). */
function log1p(y: number): number {
  if (!(Math.abs(y) <= 0.25)) return log(1 + y);
  const s = y / (2 + y);
  return 2 * s + s * atanhTail(s);
}

/** e^x for finite x: 2^k e^r, |r| ≤ ln 2 / 2, e^r by its Taylor series. */
function exp(x: number): number {
  if (x > 709.8) return Infinity;
  if (x < -745.2) return 0;
  const k = Math.round(x / Math.LN2);
  const r = (x - k * LN2_HI) - k * LN2_LO;
  let sum = 1;
  for (let n = 20; n >= 1; n--) sum = 1 + (r / n) * sum;
  return k < -1000 ? sum * 2 ** -1000 * 2 ** (k + 1000) : sum * 2 ** k;
}

/** atan(x) for x ≥ 0, from halvings of the angle and the Taylor series. */
function atan(x: number): number {
  if (x > 1) return Math.PI / 2 - atan(1 / x);
  // atan(y) = 2 atan(y / (1 + √(1 + y²))): twice brings [0, 1] into [0, 0.2].
  let y = x;
  for (let i = 0; i < 2; i++) y = y / (1 + Math.sqrt(1 + y * y));
  const y2 = y * y;
  let sum = 0;
  for (let k = 31; k >= 1; k -= 2) sum = 1 / k - y2 * sum;
  return 4 * y * sum;
}

const LOG_PI = log(Math.PI);

function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1, d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return h;
}

// log(Γ(a + ½) / Γ(a)) to a few ulps: raise a to 1000 by Γ(a + ½)/Γ(a) = a/(a + ½) ·
// Γ(a + 1½)/Γ(a + 1), then the asymptotic series √a (1 − 1/(8a) + 1/(128a²) + 5/(1024a³) −
// 21/(32768a⁴)), whose next term is below 2e-18 there. (Differences of log-gammas would lose
// about 1e-13 for large a.)
function logGammaRatioHalf(a: number): number {
  let logProduct = 0;
  while (a < 1000) logProduct += log(a / (a + 0.5)), a += 1;
  const r = 1 / a;
  const series = 1 + r * (-1 / 8 + r * (1 / 128 + r * (5 / 1024 - r * (21 / 32768))));
  return logProduct + 0.5 * log(a) + log(series);
}

/** P(T > t) for Student's t with `df` degrees of freedom, t ≥ 0; `logRatio` of df/2. */
function upperTail(t: number, df: number, logRatio: number): number {
  if (df === 1) return 0.5 - atan(t) / Math.PI; // Cauchy
  // P(T > t) = ½ I_x(df/2, ½) with x = df/(df + t²), y = 1 − x = t²/(df + t²), each computed
  // directly, and the front factor x^a y^b / B(a, b) through the log-gamma ratio.
  const a = df / 2, b = 0.5;
  const t2 = t * t;
  const y = t2 / (df + t2), x = df / (df + t2);
  if (y === 0) return 0.5;
  const front = exp(-a * log1p(t2 / df) + b * log(y) + logRatio - 0.5 * LOG_PI);
  const i = x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(a, b, x)) / a
    : 1 - (front * betaFraction(b, a, y)) / b;
  return 0.5 * i;
}

/**
 * The quantile of Student's t at probability `p` in (0, 1) with `df` ≥ 1 degrees of freedom.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df >= 1)) {
    throw new RangeError(`Expected p in (0, 1) and df ≥ 1, got p ${p}, df ${df}`);
  }
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  const q = 1 - p;
  const logRatio = df === 1 ? 0 : logGammaRatioHalf(df / 2);
  // Bracket, then bisect on t: the tail decreases in t.
  let lo = 0, hi = 1;
  while (upperTail(hi, df, logRatio) > q) lo = hi, hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (upperTail(mid, df, logRatio) > q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
