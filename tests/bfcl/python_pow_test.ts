// glibc's pow as CPython calls it (src/bfcl/_python_pow.ts), against CPython 3.11 on Debian's
// glibc (/usr/bin/python3) on seeded random doubles: every result the same to the bit, overflow
// where CPython raises OverflowError. And its tables are still those build/pow_tables.ts reads.
//
// Needs --allow-run (python3, deno) and --allow-read.
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { decodePromptResult, pyRepr } from "../../src/bfcl/mod.ts";
import { fma, glibcPow } from "../../src/bfcl/_python_pow.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { runLineOracle } from "../_debian_python.ts";

const ORACLE = `
import sys
for line in sys.stdin:
    x, y = (float.fromhex(w) for w in line.split())
    try:
        print((x ** y).hex())
    except OverflowError:
        print("overflow")
`;

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

/** A double from random bits, positive and finite. */
function anyBits(r: Rng): number {
  U32[0] = r.next();
  U32[1] = r.next() % 0x7ff00000;
  return F64[0]!;
}

/** A pair x > 0 (not 1), y finite and not 0, of the kinds where pow is hardest. */
function pair(r: Rng): [number, number] {
  const k = r.int(10);
  if (k === 0) {
    // A result near or below the smallest normal double.
    const x = 1.5 + r.float() * 1e6;
    return [x, ((-1000 - r.float() * 80) * Math.LN2) / Math.log(x)];
  }
  if (k === 1) return [1 + (r.float() - 0.5) * 2 ** -r.int(40), (r.float() - 0.5) * 2e7];
  if (k === 2) return [anyBits(r), r.pick([2, 0.5, -1, 3, -2, 1.5, -0.5, 10])];
  if (k === 3) return [anyBits(r), (r.chance(0.5) ? 1 : -1) * anyBits(r)];
  if (k === 4) return [2 + r.int(1_000_000), r.int(801) - 400];
  if (k === 5) return [r.float() * 10, (r.float() - 0.5) * 800];
  if (k === 6) return [anyBits(r), (r.float() - 0.5) * 6];
  if (k === 7) return [r.float(), 1 + r.float() * 2000];
  return [r.float() * 100, r.pick([2, 0.5, 3, 4])];
}

function hex(x: number): string {
  if (x === Infinity) return "overflow";
  // Python's float.hex: [-]0x1.<13 hex digits>p<exp>, or 0x0.<...>p-1022 when subnormal.
  F64[0] = x;
  const hi = U32[1]!, lo = U32[0]!;
  const biased = (hi >>> 20) & 0x7ff;
  const mant = (hi & 0xfffff).toString(16).padStart(5, "0") + lo.toString(16).padStart(8, "0");
  const sign = hi >>> 31 ? "-" : "";
  if (biased === 0 && mant === "0000000000000") return `${sign}0x0.0p+0`;
  const e = biased === 0 ? -1022 : biased - 1023;
  return `${sign}0x${biased === 0 ? 0 : 1}.${mant}p${e >= 0 ? "+" : ""}${e}`;
}

Deno.test("glibcPow() gives CPython's x ** y (glibc's pow) to the bit on 60,000 seeded pairs", async () => {
  const r = makeRng(0x9047);
  const pairs: [number, number][] = [];
  while (pairs.length < 60_000) {
    const [x, y] = pair(r);
    if (x > 0 && x !== 1 && Number.isFinite(x) && Number.isFinite(y) && y !== 0) pairs.push([x, y]);
  }
  const want = await runLineOracle(["-c", ORACLE], pairs.map(([x, y]) => `${hex(x)} ${hex(y)}`));
  const differ = pairs.filter(([x, y], i) => hex(glibcPow(x, y)) !== want[i]).map(([x, y]) =>
    `${x} ** ${y}`
  );
  assertEquals(differ.slice(0, 10), []);
  // Both overflow and results past the normal range are seen.
  strictEqual(want.filter((w) => w === "overflow").length > 100, true);
  strictEqual(want.filter((w) => /p-10[2-7]\d$/.test(w)).length > 100, true);
});

Deno.test("glibc's pow where engines' `**` differ from it: squares, square roots, Node 20's powers", () => {
  // CPython's x ** y (glibc's pow), and (unused, for the record) what a runtime's `**` gives:
  // V8 squares x for y = 2 and takes sqrt(x) for y = 0.5 (Deno 2.9.6), and Node 20's V8 has a
  // pow of its own.
  const cases: [string, string, string][] = [
    ["30.431517 ** 2", "926.0772269212889", "926.077226921289"],
    ["930.60077 ** 2", "866017.793124593", "866017.7931245929"],
    ["598.843358 ** 2", "358613.3674207161", "358613.36742071615"],
    ["170.62838 ** 0.5", "13.062479856443797", "13.0624798564438"],
    ["40.484817 ** 0.5", "6.362768029717883", "6.362768029717884"],
    ["486.2978 ** 0.5", "22.052160891849127", "22.052160891849123"],
    ["1.1 ** 4", "1.4641000000000004", "1.4641000000000006"],
  ];
  for (const [expr, python] of cases) {
    const got = decodePromptResult(`[f(a=${expr})]`, "gpt");
    strictEqual(got.ok && pyRepr(got.value), `[{'f': {'a': ${python}}}]`, expr);
  }
});

Deno.test("fma() rounds a·b + c once", () => {
  // (1 + 2^-30)² - 1: the product's low part, 2^-60, survives only in a fused operation.
  const a = 1 + 2 ** -30;
  strictEqual(fma(a, a, -1), 2 ** -29 + 2 ** -60);
  strictEqual(fma(0.1, 10, -1), 5.551115123125783e-17);
  strictEqual(Object.is(fma(-0, 1, -0), -0), true);
  strictEqual(Object.is(fma(2, 3, -6), 0), true);
  strictEqual(fma(2 ** 600, 2 ** 600, 0), Infinity);
  strictEqual(fma(2 ** -600, 2 ** -600, 0), 0);
  strictEqual(fma(2 ** -537, 2 ** -537, 0), 2 ** -1074);
});

Deno.test("the pow tables are still those build/pow_tables.ts reads from AssemblyScript's copy", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-run", "--allow-read", "build/pow_tables.ts", "--check"],
    cwd: new URL("../../", import.meta.url),
  }).output();
  strictEqual(out.success, true, new TextDecoder().decode(out.stderr));
});
