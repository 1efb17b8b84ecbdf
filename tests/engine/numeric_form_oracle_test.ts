// `numericForm` (the value form `--numbers numeric` compares) against an independent Python oracle
// (tests/engine/_numeric_eq_oracle.py): two JSON texts have the same value form exactly when Python
// finds their values equal, numbers by exact value, a boolean not a number and NaN equal to NaN
// (docs/evaluation.md). Seeded pairs of documents whose numbers are one value written two ways
// (`150`, `150.0`, `1.5e2`, `15E+1`), or two values a hair apart (a big integer and the double
// nearest it, adjacent doubles, `-0.0` and the smallest subnormal), at every magnitude, on both
// engines' canonical text.
//
// Needs --allow-run (python3) and --allow-read.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { canonicalize, createEngine, numericForm } from "../../src/engine/mod.ts";
import { makeRng, randomDouble, type Rng } from "../_corpus.ts";
import { runLineOracle } from "../_debian_python.ts";

const ORACLE = new URL("./_numeric_eq_oracle.py", import.meta.url).pathname;
const PAIRS = 6_000;

/** An integer's digits: small, near 2^53, or long. */
function integerDigits(rng: Rng): string {
  const r = rng.int(4);
  if (r === 0) return String(rng.int(1000));
  if (r === 1) return String(2n ** 53n + BigInt(rng.int(64)) - 32n);
  let s = String(1 + rng.int(9));
  for (let n = 1 + rng.int(40); n > 0; n--) s += String(rng.int(10));
  return s;
}

/** The same number written another way: a fraction of zeros, an exponent, a mantissa moved. */
function rewrite(rng: Rng, lexeme: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(lexeme);
  if (!m) return lexeme;
  const [, sign, int, frac = "", exp = "0"] = m;
  const digits = (int + frac).replace(/^0+(?=\d)/, "");
  const e = Number(exp) - frac.length; // value = digits × 10^e
  const r = rng.int(4);
  if (r === 0) return `${sign}${digits}${e === 0 ? ".0" : `e${e}`}`;
  if (r === 1) return `${sign}${digits}.${"0".repeat(1 + rng.int(3))}E${e >= 0 ? "+" : ""}${e}`;
  if (r === 2 && digits.length > 1) {
    return `${sign}${digits[0]}.${digits.slice(1)}e${e + digits.length - 1}`;
  }
  return digits === "0" ? `${sign}0.0e${e}` : `${sign}${digits}0e${e - 1}`;
}

/** A number and a second one: the same value written again, or a value near it. */
function numberPair(rng: Rng): [string, string] {
  const r = rng.int(10);
  if (r < 3) {
    const n = (rng.chance(0.2) ? "-" : "") + integerDigits(rng);
    return [n, rng.chance(0.7) ? rewrite(rng, n) : String(Number(n))];
  }
  if (r < 7) {
    const x = randomDouble(rng);
    if (rng.chance(0.6)) return [x, rewrite(rng, x)];
    const v = Number(x);
    // The double next to it, or the integer it is (when it is one).
    const near = Number.isInteger(v) && Math.abs(v) < 1e300
      ? BigInt(v).toString()
      : String(v * (1 + Number.EPSILON));
    return [x, near];
  }
  return rng.pick<[string, string]>([
    ["-0.0", "0"],
    ["-0", "0.0"],
    ["0e5", "-0E-5"],
    ["5e-324", "0.0"],
    ["1e400", "1E+999"],
    ["-1e400", "1e400"],
    ["NaN", "NaN"],
    ["Infinity", "1e309"],
    ["true", "1"],
    ["false", "0.0"],
    ['"1.0"', '"1"'],
    ["null", "0"],
    ["12345678901234567890123", "1.2345678901234568e+22"],
    ["12345678901234567741440", "1.2345678901234568e+22"],
    ["9007199254740993", "9007199254740992.0"],
  ]);
}

/** Two documents holding the pairs in the same places. */
function documents(rng: Rng): [string, string] {
  const pairs = Array.from({ length: 3 }, () => numberPair(rng));
  const shape = rng.int(3);
  const write = (i: 0 | 1) => {
    const [a, b, c] = pairs.map((p) => p[i]);
    if (shape === 0) return `{"x": ${a}}`;
    if (shape === 1) return `[${a}, ${b}]`;
    return `{"a": {"b": [${a}, {"c": ${b}}]}, "d": ${c}}`;
  };
  return [write(0), write(1)];
}

Deno.test(`numericForm() equates ${PAIRS} seeded pairs of documents exactly when Python's == does, on both engines`, async () => {
  const rng = makeRng(20261207);
  const cases = Array.from({ length: PAIRS }, () => documents(rng));
  const answers = await runLineOracle([ORACLE], cases.map((c) => JSON.stringify(c)));
  const expected = answers.map((a) => a === "1");
  const equal = expected.filter(Boolean).length;
  ok(equal > PAIRS / 4 && equal < (PAIRS * 3) / 4, `${equal} of ${PAIRS} pairs are equal`);
  for (const engine of [createEngine({ engine: "wasm" }), createEngine({ engine: "ts" })]) {
    const wrong: string[] = [];
    cases.forEach(([a, b], i) => {
      const [ca, cb] = [canonicalize(a, { engine }), canonicalize(b, { engine })];
      if (!ca.ok || !cb.ok) throw new Error(`not JSON: ${a} | ${b}`);
      const same = numericForm(ca.canonical) === numericForm(cb.canonical);
      if (same !== expected[i]) {
        wrong.push(`${a} | ${b}: assay ${same}, python ${expected[i]}`);
      }
    });
    assertEquals(wrong.slice(0, 10), [], `${engine.name}: ${wrong.length} of ${PAIRS} disagree`);
  }
});
