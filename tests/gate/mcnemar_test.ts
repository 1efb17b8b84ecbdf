// The exact McNemar test and Holm's correction against exact rational arithmetic, SciPy's
// binomtest and statsmodels' multipletests(method="holm"), on seeded random cases.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { binomialHalfCdf, holm, mcnemarExact } from "../../src/gate/mod.ts";
import { roundRatio } from "../../src/stats/mod.ts";
import { makeRng } from "../_corpus.ts";
import { ensureScipy, ensureStatsmodels, runLineOracle } from "../_debian_python.ts";

/** P(X ≤ k), X ~ Bin(n, 1/2): the exact sum rounded once to a double, then scaled exactly. */
function exactTail(k: number, n: number): number {
  let c = 1n;
  let sum = 1n;
  for (let i = 1; i <= k; i++) {
    c = (c * BigInt(n - i + 1)) / BigInt(i);
    sum += c;
  }
  return Number(sum) / 2 ** n; // n ≤ 300: no overflow, no underflow
}

function relClose(a: number, b: number, rel: number): boolean {
  return a === b || Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b)) ||
    (Math.abs(a) < 1e-300 && Math.abs(b) < 1e-300);
}

Deno.test("binomialHalfCdf() equals the exact sum of binomial coefficients for every k, n ≤ 300", () => {
  let checked = 0;
  for (let n = 0; n <= 300; n++) {
    for (let k = 0; k <= n; k++) {
      const want = exactTail(k, n);
      const got = binomialHalfCdf(k, n);
      ok(relClose(got, want, 4e-16), `P(X ≤ ${k}), n = ${n}: ${got} against ${want}`);
      checked++;
    }
  }
  strictEqual(checked, 45451);
});

Deno.test("mcnemarExact() gives the textbook values and refuses bad counts", () => {
  deepStrictEqual(mcnemarExact(0, 0), { regressions: 0, improvements: 0, pValue: 1 });
  strictEqual(mcnemarExact(5, 5).pValue, 1);
  strictEqual(mcnemarExact(4, 5).pValue, 1);
  strictEqual(mcnemarExact(10, 0).pValue, 2 / 1024);
  strictEqual(mcnemarExact(0, 10).pValue, 2 / 1024);
  strictEqual(mcnemarExact(1, 1_000_000).pValue, 0); // 2^-999,980 underflows
  throws(() => mcnemarExact(-1, 2), RangeError);
  throws(() => mcnemarExact(1.5, 2), RangeError);
  throws(() => binomialHalfCdf(3, 2), RangeError);
});

/**
 * Counts on which SciPy's binomtest is not within 1e-12 (relatively) of the correctly rounded
 * p-value, found with other seeds: it drifts (1.45e-12 at p about 5e-272) or underflows to 0 (at
 * p about 4e-279). Python's exact integers settle them, and Assay gives the correctly rounded
 * value.
 */
const SCIPY_ADRIFT: [number, number][] = [[6831, 11587], [36, 1117]];

/** Each count's p-value from Python's exact integers: 2 · Σ_{i ≤ min} C(n, i) / 2^n, rounded once. */
async function exactPValues(cases: [number, number][]): Promise<number[]> {
  const script = "import sys, json\n" +
    "for line in sys.stdin:\n  b, c = json.loads(line)\n  n, s, t = b + c, 1, 1\n" +
    "  for i in range(1, min(b, c) + 1):\n    t = t * (n - i + 1) // i\n    s += t\n" +
    "  print(repr(min(1.0, 2 * s / 2 ** n)))\n"; // int / int rounds once
  return (await runLineOracle(["-c", script], cases.map((c) => JSON.stringify(c)))).map(Number);
}

/**
 * Each count's p-value to 60 significant digits (Python's decimal): the sum of C(n, i) / C(n, k)
 * from i = k down, times C(n, k) / 2^n, each a product of k ratios. The roundings leave a relative
 * error below 1e-52 at 3,000,000 pairs, so the float nearest is the correctly rounded p-value;
 * Python's exact integers would take minutes there.
 */
async function decimalPValues(cases: [number, number][]): Promise<number[]> {
  const script = "import sys, json\nfrom decimal import Decimal, getcontext\n" +
    "x = getcontext()\nx.prec, x.Emax, x.Emin = 60, 10 ** 8, -10 ** 8\n" +
    "for line in sys.stdin:\n  b, c = json.loads(line)\n  n, k = b + c, min(b, c)\n" +
    "  s = t = ck = Decimal(1)\n" +
    "  for i in range(k, 0, -1):\n    t = t * i / (n - i + 1)\n    s += t\n" +
    "  for i in range(1, k + 1):\n    ck = ck * (n - k + i) / i\n" +
    "  print(repr(float(str(min(Decimal(1), 2 * s * ck / Decimal(2) ** n)))))\n";
  return (await runLineOracle(["-c", script], cases.map((c) => JSON.stringify(c)))).map(Number);
}

Deno.test("mcnemarExact() agrees with scipy.stats.binomtest on 1,000 seeded discordant counts", async () => {
  await ensureScipy();
  const rng = makeRng(20261204);
  const cases: [number, number][] = [...SCIPY_ADRIFT];
  for (let i = 0; i < 1000; i++) {
    const scale = rng.pick([10, 60, 500, 5_000, 40_000]);
    const n = rng.int(scale + 1);
    // Mostly near balance, where p is far from 0; sometimes lopsided.
    const b = rng.chance(0.7)
      ? Math.max(0, Math.min(n, Math.round(n / 2 + (rng.int(7) - 3) * Math.sqrt(n + 1))))
      : rng.int(n + 1);
    cases.push([b, n - b]);
  }
  const script = "import sys, json\nfrom scipy.stats import binomtest\n" +
    "for line in sys.stdin:\n  b, c = json.loads(line)\n" +
    "  print(repr(binomtest(b, b + c, 0.5).pvalue) if b + c > 0 else '1.0')\n";
  const answers = await runLineOracle(["-c", script], cases.map((c) => JSON.stringify(c)));
  let worst = 0;
  const adrift: [number, number][] = [];
  for (let i = 0; i < cases.length; i++) {
    const [b, c] = cases[i]!;
    const want = Number(answers[i]);
    const got = mcnemarExact(b, c).pValue;
    if (want !== got && want > 1e-300) worst = Math.max(worst, Math.abs(got - want) / want);
    // SciPy sums in floating point: where it is not within 1e-12, the exact value decides.
    if (!relClose(got, want, 1e-12)) adrift.push([b, c]);
  }
  const exact = await exactPValues(adrift);
  adrift.forEach(([b, c], i) => {
    strictEqual(mcnemarExact(b, c).pValue, exact[i], `b = ${b}, c = ${c}: the exact p-value`);
  });
  deepStrictEqual(adrift.slice(0, 2), SCIPY_ADRIFT, "SciPy is still adrift on SCIPY_ADRIFT");
  console.log(
    `${cases.length} cases against SciPy: worst relative difference ${worst.toExponential(2)}; ` +
      `${adrift.length} beyond 1e-12, each the correctly rounded value`,
  );
});

Deno.test("mcnemarExact() agrees with scipy.stats.binomtest up to 3,000,000 discordant pairs", async () => {
  // The tail is linear in n: exact coefficients of n bits made 600,000 pairs take 12 s, and
  // 3,000,000 about five minutes.
  await ensureScipy();
  const rng = makeRng(20261205);
  // SciPy drifts by 3.3e-12 on this count (found with another seed).
  const cases: [number, number][] = [[1528453, 1471448]];
  for (let i = 0; i < 24; i++) {
    const n = rng.pick([100_000, 600_000, 3_000_000]) - rng.int(1000);
    const b = rng.chance(0.75)
      ? Math.round(n / 2 + (rng.int(9) - 4) * Math.sqrt(n) / 2)
      : rng.int(n + 1);
    cases.push(rng.chance(0.5) ? [b, n - b] : [n - b, b]);
  }
  const script = "import sys, json\nfrom scipy.stats import binomtest\n" +
    "for line in sys.stdin:\n  b, c = json.loads(line)\n" +
    "  print(repr(binomtest(b, b + c, 0.5).pvalue))\n";
  const answers = await runLineOracle(["-c", script], cases.map((c) => JSON.stringify(c)));
  let worst = 0;
  let small = 0;
  const adrift: [number, number][] = [];
  for (let i = 0; i < cases.length; i++) {
    const [b, c] = cases[i]!;
    const want = Number(answers[i]);
    const got = mcnemarExact(b, c).pValue;
    if (want !== got && want > 1e-300) worst = Math.max(worst, Math.abs(got - want) / want);
    if (want > 1e-300 && want < 0.5) small++;
    // Where SciPy is not within 1e-12, the p-value to 60 digits decides.
    if (!relClose(got, want, 1e-12)) adrift.push([b, c]);
  }
  const precise = await decimalPValues(adrift);
  adrift.forEach(([b, c], i) => {
    strictEqual(mcnemarExact(b, c).pValue, precise[i], `b = ${b}, c = ${c}: the p-value`);
  });
  deepStrictEqual(adrift.slice(0, 1), cases.slice(0, 1), "SciPy is still adrift on the first");
  ok(small >= 10, `${small} p-values in (1e-300, 0.5)`);
  console.log(
    `${cases.length} large cases against SciPy: worst relative difference ` +
      `${worst.toExponential(2)}; ${adrift.length} beyond 1e-12, each the correctly rounded value`,
  );
});

Deno.test("holm() agrees with statsmodels' multipletests(method='holm') on 1,000 seeded families", async () => {
  await ensureStatsmodels();
  const rng = makeRng(4242);
  const families: { p: number[]; alpha: number }[] = [];
  for (let i = 0; i < 1000; i++) {
    const m = 1 + rng.int(12);
    const p: number[] = [];
    for (let j = 0; j < m; j++) {
      // McNemar p-values (exact dyadic values, with ties) and uniform ones near the levels.
      p.push(
        rng.chance(0.5)
          ? mcnemarExact(rng.int(30), rng.int(30)).pValue
          : rng.chance(0.5)
          ? rng.int(1_000_000) / 1_000_000 * 0.2
          : rng.int(1001) / 1000,
      );
    }
    families.push({ p, alpha: rng.pick([0.05, 0.01, 0.1]) });
  }
  const script = "import sys, json\nfrom statsmodels.stats.multitest import multipletests\n" +
    "for line in sys.stdin:\n  f = json.loads(line)\n" +
    "  r, adj, _, _ = multipletests(f['p'], alpha=f['alpha'], method='holm')\n" +
    "  print(json.dumps([[bool(x) for x in r], [float(x) for x in adj]]))\n";
  const answers = await runLineOracle(["-c", script], families.map((f) => JSON.stringify(f)));
  let rejected = 0;
  for (let i = 0; i < families.length; i++) {
    const { p, alpha } = families[i]!;
    const [reject, adjusted] = JSON.parse(answers[i]!) as [boolean[], number[]];
    const got = holm(p, alpha);
    deepStrictEqual(got.reject, reject, `family ${i}: ${JSON.stringify(p)} at ${alpha}`);
    got.adjusted.forEach((a, j) => ok(relClose(a, adjusted[j]!, 1e-15), `family ${i}, p ${j}`));
    rejected += reject.filter(Boolean).length;
  }
  ok(rejected > 500, `${rejected} rejections`);
  console.log(`1000 families against statsmodels: ${rejected} rejections, every decision equal`);
});

Deno.test("holm() keeps ties in order and refuses p-values out of range", () => {
  deepStrictEqual(holm([]), { adjusted: [], reject: [] });
  deepStrictEqual(holm([0.02, 0.02]), { adjusted: [0.04, 0.04], reject: [true, true] });
  throws(() => holm([1.5]), RangeError);
  throws(() => holm([0.1], 1), RangeError);
});

Deno.test("holm() refuses p-values and an alpha that are not numbers, which the range checks let by", () => {
  const no = (f: () => unknown, message: string) => throws(f, { name: "TypeError", message });
  // "0.1" passes `p >= 0 && p <= 1`; a string of them was read a character at a time.
  no(() => holm(["0.1", 0.2] as unknown as number[]), "p-value 0 must be a number, got string");
  no(() => holm([0.2, null] as unknown as number[]), "p-value 1 must be a number, got object");
  no(() => holm("0.1" as unknown as number[]), "Expected an array of p-values, got string");
  no(() => holm([0.1], "0.1" as unknown as number), "alpha must be a number, got string");
  deepStrictEqual(holm([0.1], 0.2), { adjusted: [0.1], reject: [true] });
});

Deno.test("mcnemarExact() rounds 2 · the tail once, subnormal p-values too (1,040 ≤ n ≤ 1,200)", () => {
  // Rounding the tail, then doubling, lost the last bit of a subnormal tail: 0 against 1075
  // gave 0, not 2^-1074. Here the exact 2 · Σ C(n, i) / 2^n, rounded once by roundRatio.
  strictEqual(mcnemarExact(0, 1075).pValue, 5e-324);
  strictEqual(mcnemarExact(7, 1074).pValue, 2.608163283633178e-308); // Python's Fraction
  let checked = 0;
  for (let n = 1040; n <= 1200; n++) {
    let c = 1n;
    let sum = 1n;
    for (let k = 0; 2 * k < n; k++) {
      if (k > 0) {
        c = (c * BigInt(n - k + 1)) / BigInt(k);
        sum += c;
      }
      const want = roundRatio(2n * sum, 1n, -n);
      strictEqual(mcnemarExact(k, n - k).pValue, want, `${k} against ${n - k}`);
      checked++;
    }
  }
  strictEqual(checked, 90200);
});
