// pass@k, pass^k and at-least-k against Python's exact fractions (float(Fraction) is correctly
// rounded) on every (n, c, k) with n ≤ 30.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { atLeastK, passAtK, passHatK } from "../../src/stats/mod.ts";
import { runLineOracle } from "../_debian_python.ts";

Deno.test("passAtK() and passHatK() equal exact rational arithmetic on every (n, c, k), n ≤ 30", async () => {
  const cases: [number, number, number][] = [];
  for (let n = 0; n <= 30; n++) {
    for (let c = 0; c <= n; c++) for (let k = 0; k <= 32; k++) cases.push([n, c, k]);
  }
  const script = "import sys, json\nfrom fractions import Fraction\nfrom math import comb\n" +
    "for line in sys.stdin:\n  n, c, k = json.loads(line)\n" +
    "  if n < k: print('null null'); continue\n" +
    "  at = 1 - Fraction(comb(n - c, k), comb(n, k))\n" +
    "  hat = Fraction(comb(c, k), comb(n, k))\n" +
    "  print(repr(float(at)), repr(float(hat)))\n";
  const answers = await runLineOracle(["-c", script], cases.map((c) => JSON.stringify(c)));
  let computable = 0;
  cases.forEach(([n, c, k], i) => {
    const [at, hat] = answers[i]!.split(" ").map((x) => (x === "null" ? null : Number(x)));
    strictEqual(passAtK(n, c, k), at, `pass@${k}, n = ${n}, c = ${c}`);
    strictEqual(passHatK(n, c, k), hat, `pass^${k}, n = ${n}, c = ${c}`);
    if (at !== null) computable++;
  });
  strictEqual(cases.length, 16_368);
  strictEqual(computable, 10_416); // Σ (n + 1)², n ≤ 30
});

Deno.test("passAtK() is null when fewer runs than k, and refuses bad counts", () => {
  strictEqual(passAtK(2, 2, 3), null);
  strictEqual(passHatK(0, 0, 1), null);
  strictEqual(passAtK(5, 0, 3), 0);
  strictEqual(passAtK(5, 3, 3), 1); // fewer than k wrong runs: a draw always holds a correct one
  strictEqual(passAtK(200, 1, 1), 0.005);
  throws(() => passAtK(3, 4, 1), RangeError);
  throws(() => passAtK(3, 1, -1), RangeError);
  throws(() => passHatK(3.5, 1, 1), RangeError);
});

Deno.test("atLeastK() counts the runs at or above the threshold", () => {
  deepStrictEqual([atLeastK([], 0), atLeastK([], 1)], [1, 0]);
  strictEqual(atLeastK([0.5, 0.7, 0.9], 2, 0.7), 1);
  strictEqual(atLeastK([0.5, 0.7, 0.9], 3, 0.7), 0);
  throws(() => atLeastK([1], 1.5), RangeError);
  throws(() => atLeastK([NaN], 1), RangeError);
});
