// The Wasm engine reads and prints every float itself (assembly/float_exact.ts): checked
// against canonicalFloat (V8's correctly rounded Number() and shortest String(), in Python's
// layout) and the ts engine on a seeded corpus of more than 1,000,000 float lexemes, and in
// the raw module's output, which must never leave a float to the JS glue.
import { deepStrictEqual as deepEqual, ok, strictEqual as equal } from "node:assert/strict";
import { createEngine } from "../../src/engine/mod.ts";
import { canonicalFloat } from "../../src/engine/mod.ts";
import { wasmBytes } from "../../src/engine/wasm_bytes.generated.ts";
import { checkFormulas, pow10Table } from "./_pow10_oracle.ts";
import { testWasmModule } from "../_test_wasm.ts";
import { makeRng, type Rng } from "../_corpus.ts";

const wasm = createEngine({ engine: "wasm" });
const ts = createEngine({ engine: "ts" });
const module = new WebAssembly.Module(wasmBytes());

// ---------------------------------------------------------------- the raw module

interface RawExports {
  memory: WebAssembly.Memory;
  prepare(count: number, inputCap: number): number;
  run(mode: number): void;
}

const raw = new WebAssembly.Instance(module, {}).exports as unknown as RawExports;
const MODE_CANONICAL = 3;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The module's output area after canonicalizing one ASCII text, before any JS glue. */
function rawCanonical(text: string): string {
  const bytes = encoder.encode(text);
  const header = raw.prepare(1, bytes.length + 16) >>> 2;
  let words = new Uint32Array(raw.memory.buffer);
  const offsets = words[header]! >>> 2;
  const lengths = words[header + 1]! >>> 2;
  const input = words[header + 2]!;
  new Uint8Array(raw.memory.buffer).set(bytes, input);
  words[offsets] = 0;
  words[offsets + 1] = bytes.length;
  words[lengths] = text.length;
  raw.run(MODE_CANONICAL);
  words = new Uint32Array(raw.memory.buffer);
  const start = words[header + 4]!;
  return decoder.decode(new Uint8Array(raw.memory.buffer, start, words[header + 5]!));
}

// ---------------------------------------------------------------- checking

let compared = 0;

/** Where two canonical arrays of `lexemes` first differ, as a message, or undefined. */
function firstDifference(lexemes: string[], got: string, expected: string[]): string | undefined {
  if (got === "[" + expected.join(",") + "]") return undefined;
  const parts = got.slice(1, -1).split(",");
  for (let i = 0; i < lexemes.length; i++) {
    if (parts[i] !== expected[i]) {
      return `lexeme ${JSON.stringify(lexemes[i])}: wasm ${
        JSON.stringify(parts[i])
      }, canonicalFloat ${JSON.stringify(expected[i])}`;
    }
  }
  return `lengths differ: ${parts.length} != ${lexemes.length}`;
}

/**
 * Requires the wasm engine, the raw module and the ts engine to write canonicalFloat(lexeme)
 * for every lexeme, as elements of one array; and every 50th batch also one text per lexeme.
 */
function check(lexemes: string[]): void {
  if (lexemes.length === 0) return;
  const expected = lexemes.map(canonicalFloat);
  const text = "[" + lexemes.join(",") + "]";
  const rawOut = rawCanonical(text);
  ok(!rawOut.includes("\x01"), "the module left a float to the JS glue");
  const rawDiff = firstDifference(lexemes, rawOut, expected);
  if (rawDiff !== undefined) throw new Error(`raw module: ${rawDiff}`);
  const [w] = wasm.canonicalizeBatch([text]);
  if (!w?.ok) throw new Error("wasm rejected the array");
  const diff = firstDifference(lexemes, w.canonical, expected);
  if (diff !== undefined) throw new Error(diff);
  const [t] = ts.canonicalizeBatch([text]);
  if (!t?.ok) throw new Error("ts rejected the array");
  const tsDiff = firstDifference(lexemes, t.canonical, expected);
  if (tsDiff !== undefined) throw new Error(`ts engine: ${tsDiff}`);
  if (compared % 50 === 0) {
    const each = wasm.canonicalizeBatch(lexemes);
    for (let i = 0; i < lexemes.length; i++) {
      const r = each[i]!;
      if (!r.ok || r.canonical !== expected[i]) {
        throw new Error(`lexeme ${lexemes[i]} alone: ${JSON.stringify(r)} != ${expected[i]}`);
      }
    }
  }
  compared += lexemes.length;
}

/** Collects lexemes and checks them in batches. */
class Batches {
  #pending: string[] = [];
  count = 0;
  constructor(readonly size = 5000) {}
  add(lexeme: string): void {
    this.#pending.push(lexeme);
    this.count++;
    if (this.#pending.length >= this.size) this.flush();
  }
  flush(): void {
    check(this.#pending);
    this.#pending = [];
  }
}

// ---------------------------------------------------------------- doubles and decimals

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer); // little-endian: [lo, hi]

function fromBits(hi: number, lo: number): number {
  u32[0] = lo >>> 0;
  u32[1] = hi >>> 0;
  return f64[0]!;
}

/** A finite positive double from random bits: any exponent, subnormals included. */
function randomDouble(rng: Rng): number {
  for (;;) {
    const x = fromBits(rng.next() & 0x7fffffff, rng.next());
    if (x > 0 && x < Infinity) return x;
  }
}

/** A finite positive double with the biased exponent `biased` (0 for subnormals). */
function doubleWithExponent(rng: Rng, biased: number): number {
  const x = fromBits((biased << 20) | rng.int(1 << 20), rng.next());
  return x > 0 ? x : Number.MIN_VALUE;
}

/** x = m * 2^e exactly, with integer m (53 bits at most) and e. */
function decompose(x: number): { m: bigint; e: number } {
  f64[0] = x;
  const hi = u32[1]!;
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(u32[0]!);
  return biased === 0 ? { m: frac, e: -1074 } : { m: frac | (1n << 52n), e: biased - 1075 };
}

const POW5: bigint[] = [1n];
function pow5(n: number): bigint {
  while (POW5.length <= n) POW5.push(POW5[POW5.length - 1]! * 5n);
  return POW5[n]!;
}

/** A decimal `digits` * 10^pow, digits without leading zeros. */
interface Decimal {
  digits: string;
  pow: number;
}

/** The exact decimal value of m * 2^e. */
function exactDecimal(m: bigint, e: number): Decimal {
  if (e >= 0) return { digits: (m << BigInt(e)).toString(), pow: 0 };
  return { digits: (m * pow5(-e)).toString(), pow: e };
}

/** The decimal `d` with `delta` added in the unit of its last digit (result stays positive). */
function bump(d: Decimal, delta: bigint): Decimal {
  const digits = (BigInt(d.digits) + delta).toString();
  return { digits, pow: d.pow };
}

/** The decimal `d` with `extra` appended as further digits. */
function extend(d: Decimal, extra: string): Decimal {
  return { digits: BigInt(d.digits + extra).toString(), pow: d.pow - extra.length };
}

/** The first `n` digits of `d` (truncated). */
function truncate(d: Decimal, n: number): Decimal {
  if (n >= d.digits.length) return d;
  return { digits: d.digits.slice(0, n), pow: d.pow + d.digits.length - n };
}

/** Random digits, the first one non-zero. */
function randomDigits(rng: Rng, n: number): string {
  let s = String(1 + rng.int(9));
  while (s.length < n) {
    const chunk = String(rng.int(1_000_000_000)).padStart(9, "0");
    s += chunk.slice(0, n - s.length);
  }
  return s;
}

/** An exponent literal: `e`/`E`, an optional `+`, leading zeros now and then. */
function exponentPart(rng: Rng, x: number): string {
  const e = rng.chance(0.3) ? "E" : "e";
  const sign = x < 0 ? "-" : rng.chance(0.3) ? "+" : "";
  const zeros = rng.chance(0.1) ? "0".repeat(1 + rng.int(5)) : "";
  return e + sign + zeros + String(Math.abs(x));
}

/** Some JSON float lexeme for `d` (optionally negative), in one of several layouts. */
function lexeme(rng: Rng, d: Decimal, negative = rng.chance(0.3)): string {
  const sign = negative ? "-" : "";
  const n = d.digits.length;
  const trailing = rng.chance(0.1) ? "0".repeat(1 + rng.int(4)) : "";
  const layout = rng.int(10);
  if (layout < 5) {
    // d.ddd e X
    const frac = n > 1 ? d.digits.slice(1) : rng.chance(0.5) ? "0" : "";
    const body = frac === "" ? d.digits[0]! : d.digits[0] + "." + frac + trailing;
    const x = d.pow + n - 1;
    return sign + body + (frac === "" || x !== 0 || rng.chance(0.5) ? exponentPart(rng, x) : "");
  }
  if (layout < 7 && n > 1) {
    // ddd.ddd e X, the point anywhere
    const i = 1 + rng.int(n - 1);
    const x = d.pow + n - i;
    const e = x !== 0 || rng.chance(0.5) ? exponentPart(rng, x) : "";
    return sign + d.digits.slice(0, i) + "." + d.digits.slice(i) + trailing + e;
  }
  if (layout < 9) {
    // 0.000ddd e X
    const z = rng.chance(0.5) ? 0 : rng.int(rng.chance(0.05) ? 500 : 12);
    const x = d.pow + n + z;
    const e = x !== 0 || rng.chance(0.5) ? exponentPart(rng, x) : "";
    return sign + "0." + "0".repeat(z) + d.digits + trailing + e;
  }
  if (d.pow >= 0 && d.pow + n < 40) {
    // an integer with a point: ddd000.0
    return sign + d.digits + "0".repeat(d.pow) + "." + (trailing || "0");
  }
  return sign + d.digits + exponentPart(rng, d.pow);
}

/** The lexemes JS prints for x. */
function printed(x: number, rng: Rng): string[] {
  const s = String(x);
  const out = [/[.e]/.test(s) ? s : s + ".0"];
  const k = rng.int(21);
  out.push(x.toExponential(k));
  const p = x.toPrecision(1 + rng.int(21));
  out.push(/[.e]/.test(p) ? p : p + "e0");
  if (x < 1e21 && x >= 1e-7) {
    const f = x.toFixed(1 + rng.int(20));
    out.push(f);
  }
  return out;
}

// ---------------------------------------------------------------- tests

Deno.test("canonicalizeBatch() formats every float exactly in wasm", () => {
  const rng = makeRng(0xf1_0a7e);
  const b = new Batches();
  // Random bit patterns: every exponent, subnormals; printed by String(), toExponential(k),
  // toPrecision(k) and toFixed(k), negated at random.
  for (let i = 0; i < 125_000; i++) {
    const x = rng.chance(0.1)
      ? doubleWithExponent(rng, rng.chance(0.5) ? 0 : rng.pick([1, 2, 2045, 2046]))
      : randomDouble(rng);
    for (const s of printed(x, rng)) b.add(rng.chance(0.3) ? "-" + s : s);
  }
  // Math.random()-like values, and such values scaled by powers of ten.
  for (let i = 0; i < 125_000; i++) {
    const u = rng.float();
    const x = rng.chance(0.5) ? u : u * 10 ** (rng.int(600) - 300);
    if (x > 0 && x < Infinity) { for (const s of printed(x, rng)) b.add(s); }
  }
  // Random digit strings of 16 to 5,000 digits, anywhere in the double range and beyond.
  const lengths = [16, 16, 17, 17, 17, 18, 19, 20, 21, 25, 30, 40, 60, 100, 200];
  for (let i = 0; i < 180_000; i++) {
    const n = rng.chance(0.004)
      ? rng.pick([767, 768, 769, 770, 799, 800, 801, 802, 1000, 2000, 5000])
      : rng.pick(lengths);
    const x = rng.chance(0.02) ? rng.int(20000) - 10000 : rng.int(680) - 345;
    b.add(lexeme(rng, { digits: randomDigits(rng, n), pow: x - n + 1 }));
  }
  // Doubles that are short decimals d * 10^k exactly (so the scaled values printing compares
  // are integers), reached from long lexemes: the exact value with digits appended, or nudged.
  for (let i = 0; i < 20_000; i++) {
    const k = rng.int(23);
    const limit = Math.floor(2 ** 53 / 5 ** k);
    const d = BigInt(1 + rng.int(Math.min(limit, 2 ** 32)));
    const exact: Decimal = { digits: d.toString(), pow: k };
    const z = 14 + rng.int(10);
    b.add(lexeme(rng, extend(exact, "0".repeat(z))));
    b.add(lexeme(rng, extend(exact, "0".repeat(z) + "1")));
    b.add(lexeme(rng, extend(bump(exact, -1n), "9".repeat(z))));
  }
  // Decimals of 16 or 17 digits just inside or outside the range: near 5e-324, the smallest
  // normal and the largest double.
  for (let i = 0; i < 30_000; i++) {
    const n = 1 + rng.int(20);
    const x = rng.pick([-325, -324, -323, -309, -308, -307, 307, 308, 309]);
    b.add(lexeme(rng, { digits: randomDigits(rng, n), pow: x - n + 1 }));
  }
  b.flush();
  ok(b.count >= 1_000_000, `only ${b.count} lexemes`);
  console.log(`${b.count} lexemes compared`);
});

Deno.test("canonicalizeBatch() rounds decimals at and next to the halfway points between doubles exactly in wasm", () => {
  const rng = makeRng(0x4a1f_3a7);
  const b = new Batches(2000);
  for (let i = 0; i < 30_000; i++) {
    const pick = rng.int(10);
    const x = pick < 4
      ? randomDouble(rng)
      : pick < 5
      ? doubleWithExponent(rng, 0)
      : pick < 6
      ? fromBits((1 + rng.int(2046)) << 20, 0) // a power of two: a narrower gap below
      : pick < 7
      ? doubleWithExponent(rng, rng.pick([1, 2, 2045, 2046]))
      : pick < 8
      ? rng.pick([Number.MIN_VALUE, 2.2250738585072014e-308, Number.MAX_VALUE, 1e23, 2 ** 53])
      : doubleWithExponent(rng, 1023 + rng.int(120) - 60); // near 1: short halfway points
    const { m, e } = decompose(x);
    // Halfway up and down (down from 5e-324: 2^-1075, which reads as 0.0).
    const narrow = m === 1n << 52n && e > -1074;
    const halfways: Decimal[] = [
      exactDecimal(2n * m + 1n, e - 1),
      narrow ? exactDecimal(4n * m - 1n, e - 2) : exactDecimal(2n * m - 1n, e - 1),
    ];
    // The exact value too: it reads back as x.
    const exact = exactDecimal(m, e);
    for (const h of [...halfways, exact]) {
      b.add(lexeme(rng, h));
      b.add(lexeme(rng, bump(h, 1n)));
      b.add(lexeme(rng, bump(h, -1n)));
      const z = rng.int(rng.chance(0.1) ? 900 : 20);
      b.add(lexeme(rng, extend(h, "0".repeat(z) + "1")));
      b.add(lexeme(rng, extend(bump(h, -1n), "9".repeat(z + 1))));
      const t = truncate(h, 1 + rng.int(Math.max(1, h.digits.length - 1)));
      b.add(lexeme(rng, t));
      b.add(lexeme(rng, bump(t, 1n)));
    }
  }
  b.flush();
  ok(b.count >= 400_000, `only ${b.count} lexemes`);
  console.log(`${b.count} lexemes compared`);
});

/** Edge lexemes and what JS gives for them (pinned here, and also checked against JS). */
const EDGES: [string, string][] = [
  ["0.30000000000000004", "0.30000000000000004"],
  ["1000000000000000.25", "1000000000000000.2"], // printed halfway between two digits: even
  ["1000000000000000.75", "1000000000000000.8"],
  ["-1125899906842624.125", "-1125899906842624.0"], // read halfway: the even one
  ["1.00000000000000000000000001e22", "1e+22"],
  ["9.99999999999999999999999999e22", "1e+23"],
  ["0.1", "0.1"],
  ["5e-324", "5e-324"],
  ["4.9406564584124654e-324", "5e-324"],
  ["2.4703282292062327e-324", "0.0"], // just below half of 5e-324
  ["2.4703282292062328e-324", "5e-324"], // just above
  ["-2.4703282292062327e-324", "-0.0"],
  [
    "2.47032822920623272088284396434110686182529901307162382212792841250337753635104375932649918180817996189898282347722858865463328355177969898199387398005390939063150356595155702263922908583924491051844359318028499365361525003193704576782492193656236698636584807570015857692699037063119282795585513329278343384093519780155312465972635795746227664652728272200563740064854999770965994704540208281662262378573934507363390079677619305775067401763246736009689513405355374585166611342237666786041621596804619144672918403005300575308490487653917113865916462395249126236538818796362393732804238910186723484976682350898633885879256283027559956575244555072551893136908362547791869486679949683240497058210285131854513962138377228261454376934125320985913276672363281255e-324",
    "5e-324",
  ],
  ["1e-400", "0.0"],
  ["-1e-400", "-0.0"],
  ["1e-999999999", "0.0"],
  ["-1e-999999999", "-0.0"],
  ["0.0000000000000000000000000000000000000000001e-300", "0.0"],
  ["1e400", "Infinity"],
  ["-1e400", "-Infinity"],
  ["1e999999999", "Infinity"],
  ["1e99999999999999999999", "Infinity"],
  ["-0.0", "-0.0"],
  ["-0.000e-5", "-0.0"],
  ["1e22", "1e+22"],
  ["1e23", "1e+23"],
  ["8.98846567431158e307", "8.98846567431158e+307"],
  ["2.2250738585072014e-308", "2.2250738585072014e-308"],
  ["2.2250738585072011e-308", "2.225073858507201e-308"],
  ["2.225073858507201136057409796709131975934819546351645648e-308", "2.225073858507201e-308"],
  ["1.7976931348623157e308", "1.7976931348623157e+308"],
  ["1.7976931348623158e308", "1.7976931348623157e+308"],
  ["1.7976931348623159e308", "Infinity"],
  [
    "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9",
    "1.7976931348623157e+308",
  ],
  [
    "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792.0",
    "Infinity",
  ],
  ["9007199254740993.0", "9007199254740992.0"],
  ["9007199254740993.0000000000000000000000000001", "9007199254740994.0"],
  ["9007199254740995.0", "9007199254740996.0"],
  ["1.00000000000000011102230246251565404236316680908203125", "1.0"],
  ["1.00000000000000011102230246251565404236316680908203126", "1.0000000000000002"],
  ["1.00000000000000033306690738754696212708950042724609375", "1.0000000000000004"],
  ["0." + "0".repeat(399) + "1e+400", "1.0"],
  ["0." + "0".repeat(5000) + "12345678901234567e5001", "1.2345678901234567"],
  ["1" + "0".repeat(5000) + ".0e-5000", "1.0"],
  ["1e0005", "100000.0"],
  ["1E+5", "100000.0"],
  ["1e-0005", "1e-05"],
  ["12345678901234567890e-4", "1234567890123456.8"],
  ["123456789012345678.0", "1.2345678901234568e+17"],
  ["1.2345678901234567e-5", "1.2345678901234568e-05"],
  ["9.999999999999999e15", "1e+16"], // halfway: to the even one
  ["9.999999999999998e15", "9999999999999998.0"],
  ["9999999999999999.0", "1e+16"],
  ["0.00009999999999999999", "9.999999999999999e-05"],
  ["0.0000999999999999999999", "0.0001"],
  ["7.2057594037927933e16", "7.205759403792794e+16"],
  ["3.0e-44", "3e-44"],
  ["1.0e-310", "1e-310"],
  ["4.35679575e-318", "4.356794e-318"],
  ["2.2250738585072012e-308", "2.2250738585072014e-308"],
];

Deno.test("canonicalizeBatch() formats the edge cases of reading and printing floats in wasm", () => {
  for (const [lexeme, repr] of EDGES) equal(canonicalFloat(lexeme), repr, lexeme);
  check(EDGES.map(([lexeme]) => lexeme));
  deepEqual(
    wasm.canonicalizeBatch(EDGES.map(([lexeme]) => lexeme)),
    EDGES.map(([, repr]) => ({ ok: true, canonical: repr })),
  );
});

Deno.test("canonicalizeBatch() formats floats inside containers and next to strings in wasm", () => {
  const texts = [
    '{"a":[0.1,1e23,5e-324]}',
    '{"b": "1e23", "a": 1e23, "c": ["5e-324", 4.9e-324, {"d": 0.30000000000000004}]}',
    '[1.7976931348623158e308, "x", -2.4703282292062328e-324, 1e400, -1e-400, 12345678901234567890.5]',
    '{"name": "f", "arguments": {"x": 0.1234567890123456789, "y": [1e-7, 2.5e-8, 100000000000000000000000.0]}}',
    '  [ 1.00000000000000011102230246251565404236316680908203125 , "\\u00e9" , 9007199254740993.0 ]  ',
  ];
  deepEqual(wasm.canonicalizeBatch(texts), ts.canonicalizeBatch(texts));
  deepEqual(wasm.canonicalizeBatch(texts.slice(0, 3)), [
    { ok: true, canonical: '{"a":[0.1,1e+23,5e-324]}' },
    {
      ok: true,
      canonical: '{"a":1e+23,"b":"1e23","c":["5e-324",5e-324,{"d":0.30000000000000004}]}',
    },
    {
      ok: true,
      canonical: '[1.7976931348623157e+308,"x",-5e-324,Infinity,-0.0,1.2345678901234567e+19]',
    },
  ]);
  deepEqual(wasm.flattenArgumentsBatch(texts), ts.flattenArgumentsBatch(texts));
  deepEqual(wasm.parseToolCallBatch(texts), ts.parseToolCallBatch(texts));
  deepEqual(
    wasm.parseToolCallBatch(texts, { pairs: true }),
    ts.parseToolCallBatch(texts, { pairs: true }),
  );
  for (const text of texts) ok(!rawCanonical(text).includes("\x01"), text);
});

Deno.test("the wasm module imports nothing and computes its power-of-ten table exactly", async () => {
  equal(WebAssembly.Module.imports(module).length, 0);
  checkFormulas();
  // The whole table as the module holds it once started (it computes every entry itself),
  // against exact BigInt arithmetic.
  const ex = new WebAssembly.Instance(await testWasmModule(), {}).exports as {
    memory: WebAssembly.Memory;
    pow10Table(): number;
  };
  const expected = pow10Table();
  const words = new BigUint64Array(ex.memory.buffer, ex.pow10Table(), expected.length);
  for (let k = 0; k < expected.length; k += 2) {
    const j = k / 2 - 342;
    equal(`${words[k]} ${words[k + 1]}`, `${expected[k]} ${expected[k + 1]}`, `10^${j}`);
  }
});
