// Differential test: the wasm and ts engines on the same seeded random inputs
// must return deep-equal results in every method: 1,100,000 inputs in all.
import { ok } from "node:assert/strict";
import type { EngineCore } from "../../src/engine/_core.ts";
import { createTsCore } from "../../src/engine/_ts_engine.ts";
import { createWasmCore } from "../../src/engine/_wasm_engine.ts";
import { makeRng, mutate, randomJsonText, randomToolCallOutput, type Rng } from "../_corpus.ts";

const wasm = createWasmCore();
const ts = createTsCore();
const BATCH = 10_000;

type Method = "spans" | "toolCalls" | "toolCallsPairs" | "canonical" | "flatten";

function run(core: EngineCore, method: Method, texts: string[]): unknown[] {
  switch (method) {
    case "spans":
      return core.spans(texts);
    case "toolCalls":
      return core.toolCalls(texts, false);
    case "toolCallsPairs":
      return core.toolCalls(texts, true);
    case "canonical":
      return core.canonical(texts);
    case "flatten":
      return core.flatten(texts);
  }
}

/** Where two plain results differ (own keys, arrays, primitives), or undefined. */
function difference(a: unknown, b: unknown, path = "$"): string | undefined {
  if (a === b) return undefined;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return `${path}: ${JSON.stringify(a)} !== ${JSON.stringify(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs non-array`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return `${path}: keys [${ka}] vs [${kb}]`;
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return `${path}: key ${k} missing`;
    const d = difference(
      (a as Record<string, unknown>)[k],
      (b as Record<string, unknown>)[k],
      `${path}.${k}`,
    );
    if (d !== undefined) return d;
  }
  return undefined;
}

interface Tally {
  inputs: number;
  comparisons: number;
  failures: string[];
}

function compareBatch(texts: string[], methods: Method[], tally: Tally, seed: number): void {
  tally.inputs += texts.length;
  for (const method of methods) {
    const a = run(wasm, method, texts);
    const b = run(ts, method, texts);
    for (let i = 0; i < texts.length; i++) {
      tally.comparisons++;
      const d = difference(a[i], b[i]);
      if (d !== undefined && tally.failures.length < 5) {
        const text = texts[i]!;
        tally.failures.push(
          `${method} seed ${seed} #${i} ${d}\n  input (${text.length}): ${
            JSON.stringify(text.slice(0, 300))
          }`,
        );
      }
    }
  }
}

function diffRun(
  label: string,
  seed: number,
  total: number,
  generate: (rng: Rng) => string,
  methods: Method[],
): void {
  const tally: Tally = { inputs: 0, comparisons: 0, failures: [] };
  for (let b = 0; b < total / BATCH; b++) {
    const batchSeed = seed + b;
    const rng = makeRng(batchSeed);
    const texts: string[] = [];
    for (let i = 0; i < BATCH; i++) texts.push(generate(rng));
    compareBatch(texts, methods, tally, batchSeed);
  }
  console.log(
    `${label}: ${tally.inputs} inputs, ${tally.comparisons} comparisons, ${tally.failures.length} differences`,
  );
  ok(tally.failures.length === 0, `engines differ:\n${tally.failures.join("\n")}`);
  ok(tally.inputs === total);
}

Deno.test("createWasmCore() matches createTsCore() on 450,000 random tool-call outputs", () => {
  diffRun("tool-call outputs", 1_000, 450_000, randomToolCallOutput, [
    "toolCallsPairs",
    "spans",
  ]);
});

Deno.test("createWasmCore() matches createTsCore() on 400,000 random JSON documents", () => {
  diffRun("JSON documents", 2_000, 400_000, (rng) => randomJsonText(rng), [
    "canonical",
    "flatten",
  ]);
});

Deno.test("createWasmCore() matches createTsCore() on 150,000 mutated inputs in every method", () => {
  diffRun(
    "mutated inputs",
    3_000,
    150_000,
    (rng) =>
      mutate(
        rng,
        rng.chance(0.5)
          ? randomToolCallOutput(rng)
          : randomJsonText(rng, { mutationRate: 0, illegalRate: 0.05 }),
      ),
    ["toolCalls", "toolCallsPairs", "spans", "canonical", "flatten"],
  );
});

/** Tokens that hit the grammar's edges: escapes, surrogates, literals, numbers, brackets. */
const TOKENS = [
  "{",
  "}",
  "[",
  "]",
  '"',
  '"',
  ",",
  ":",
  "\\",
  "\\u",
  "\\ud83d",
  "\\ude00",
  "\\uDBFF",
  "u",
  "0",
  "1",
  "-",
  "+",
  ".",
  "e",
  " ",
  "\n",
  "true",
  "nul",
  "NaN",
  "Infinity",
  "-Infinity",
  "\x00",
  "\x1f",
  "\x7f",
  "é",
  "😀",
  "\ud800",
  "\udc00",
  "\ue000",
  "/",
  "n",
  '"a"',
  '"name"',
  '"arguments"',
  '{"name":"f","arguments":{',
  "}}",
  "1.5",
  "1e400",
  "-0",
];

Deno.test("createWasmCore() matches createTsCore() on 100,000 token soups in every method", () => {
  diffRun(
    "token soups",
    4_000,
    100_000,
    (rng) => {
      let s = "";
      const n = rng.int(40);
      for (let i = 0; i < n; i++) s += rng.pick(TOKENS);
      return s;
    },
    ["toolCalls", "toolCallsPairs", "spans", "canonical", "flatten"],
  );
});

/**
 * Pieces of keys around the eight bytes that order an object's members before their keys are read
 * (assembly/canonical.ts): NUL (which pads a short key's word), one- to four-byte UTF-8, a lone
 * surrogate, each raw or escaped (an escaped key is decoded to a region of its own).
 */
const KEY_PIECES = [
  "a",
  "b",
  "\\u0000",
  "é",
  "\\u00e9",
  "東",
  "\\u6771",
  "😀",
  "\\ud83d\\ude00",
  "\\ud800",
  '\\"',
  "\\u0001",
];
/** Starts of keys of seven to nine bytes, so that keys end and differ on each side of the eighth. */
const KEY_BASES = ["", "abcdefg", "abcdefgh", "abcdefghi", "東京a", "東京ab", "é\\u0000\\u0000"];

/** An object of 1 to 40 members whose keys share one of two starts, duplicates among them. */
function sharedPrefixObject(rng: Rng): string {
  const bases = [rng.pick(KEY_BASES), rng.pick(KEY_BASES)];
  const members: string[] = [];
  const n = 1 + rng.int(40);
  for (let i = 0; i < n; i++) {
    let key = rng.pick(bases);
    for (let j = rng.int(5); j > 0; j--) key += rng.pick(KEY_PIECES);
    members.push(`"${key}":${i}`);
  }
  return `{${members.join(rng.chance(0.5) ? "," : ", ")}}`;
}

Deno.test("createWasmCore() matches createTsCore() on 100,000 objects whose keys share their first bytes", () => {
  diffRun("shared key starts", 5_000, 100_000, sharedPrefixObject, ["canonical", "flatten"]);
});

Deno.test("createWasmCore() orders keys that share their first bytes by code point, the last duplicate kept", () => {
  const codePoints = (s: string) => Array.from(s, (c) => c.codePointAt(0)!);
  const compare = (a: string, b: string) => {
    const x = codePoints(a);
    const y = codePoints(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  };
  const rng = makeRng(6_000);
  const texts = Array.from({ length: 20_000 }, () => sharedPrefixObject(rng));
  const results = wasm.canonical(texts);
  for (let i = 0; i < texts.length; i++) {
    const r = results[i]!;
    ok(r.ok, `#${i} ${texts[i]}`);
    // The input's members as JSON.parse reads them (a later duplicate wins), in code point order;
    // no key is an array index, so an object's own keys keep the order of its text.
    const input = JSON.parse(texts[i]!) as Record<string, number>;
    const expected = Object.keys(input).sort(compare).map((k) => [k, input[k]]);
    const got = Object.entries(JSON.parse(r.canonical) as Record<string, number>);
    ok(
      JSON.stringify(got) === JSON.stringify(expected),
      `#${i} ${texts[i]}: ${r.canonical}`,
    );
  }
});
