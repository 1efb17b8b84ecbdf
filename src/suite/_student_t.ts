// Student's t quantiles for the t intervals of the per-run uncertainty: the CDF through the
// regularized incomplete beta function (its continued fraction, by the modified Lentz method),
// inverted by bisection. Closed forms for 1 and 2 degrees of freedom. Checked through SciPy's
// t CDF in tests/suite/uncertainty_test.ts.

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
  while (a < 1000) logProduct += Math.log(a / (a + 0.5)), a += 1;
  const r = 1 / a;
  const series = 1 + r * (-1 / 8 + r * (1 / 128 + r * (5 / 1024 - r * (21 / 32768))));
  return logProduct + 0.5 * Math.log(a) + Math.log(series);
}

/** P(T > t) for Student's t with `df` degrees of freedom, t ≥ 0; `logRatio` of df/2. */
function upperTail(t: number, df: number, logRatio: number): number {
  // P(T > t) = ½ I_x(df/2, ½) with x = df/(df + t²), y = 1 − x = t²/(df + t²), each computed
  // directly, and the front factor x^a y^b / B(a, b) through the log-gamma ratio.
  const a = df / 2, b = 0.5;
  const t2 = t * t;
  const y = t2 / (df + t2), x = df / (df + t2);
  if (y === 0) return 0.5;
  const front = Math.exp(
    -a * Math.log1p(t2 / df) + b * Math.log(y) + logRatio - 0.5 * Math.log(Math.PI),
  );
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
  if (df === 1) return Math.tan(Math.PI * (p - 0.5));
  if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  const q = 1 - p;
  const logRatio = logGammaRatioHalf(df / 2);
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
