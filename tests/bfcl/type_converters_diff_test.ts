// Differential test: BFCL's Java and JavaScript type converters (javaConvert, jsConvert) against
// the same rules run by CPython's own `re`, `int()` and `float()` (tests/bfcl/
// _type_converters_oracle.py, run by /usr/bin/python3), on seeded random values made of literals,
// collection syntax, Unicode digits (Arabic-Indic, fullwidth, mathematical, and Kawi's, which
// Unicode 14 lacks), Unicode spaces (U+001C..U+001F, U+0085, U+00A0, U+2028, U+3000; U+FEFF and
// U+200B, which are none to Python) and letters past ASCII: the same typed value for each.
//
// Needs --allow-run (python3) and --allow-read.
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { javaConvert, jsConvert } from "../../src/bfcl/_type_converters.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { runLineOracle } from "../_debian_python.ts";
import { typed } from "./_python_typed.ts";

const ORACLE = new URL("./_type_converters_oracle.py", import.meta.url).pathname;

const DIGITS = ["0", "7", "12", "\u0661\u0662", "\uff11\uff12", "\u{1d7cf}", "\u0967", "\u{11f51}"];
const SPACES = [" ", "\t", "\n", "\x1c", "\x1f", "\x85", "\xa0", "\u2028", "\u3000", "\ufeff"];
const OTHER = ["\u200b", "\xb2", "\xe9", "\u0301", "_", "x", "a b", "\u0669\u066b\u0665", "-"];
const TOKENS = [
  ...DIGITS,
  ...SPACES,
  ...OTHER,
  ".",
  "e",
  "E+",
  "f",
  "F",
  "L",
  "n",
  "true",
  "false",
  "'",
  '"',
  ",",
  ":",
  "[",
  "]",
  "{",
  "}",
  "(",
  ")",
];

type Case = [string, string, string | null, string];

/** Each case's conversion and the oracle's, as typed JSON (`["ValueError"]` where it raises). */
async function answersOf(cases: Case[]): Promise<[string, string][]> {
  const answers = await runLineOracle([ORACLE], cases.map((c) => JSON.stringify(c)));
  return cases.map(([language, type, nested, v], i) => {
    const got = language === "java"
      ? javaConvert(v, type, nested ?? undefined)
      : jsConvert(v, type, nested ?? undefined);
    const mine = JSON.stringify(got === undefined ? ["ValueError"] : typed(got));
    return [mine, JSON.stringify(JSON.parse(answers[i]!))];
  });
}

const JAVA = ["byte", "short", "integer", "float", "double", "long", "boolean", "char", "Array"];
const JAVA_MORE = ["ArrayList", "HashMap", "String", "any"];
const JS = ["String", "integer", "float", "Bigint", "Boolean", "dict", "array", "any"];
const JAVA_ITEMS = [undefined, "integer", "String", "char", "float", "double", "long", "boolean"];
const JS_ITEMS = [undefined, "integer", "String", "float", "Boolean", "Bigint", "dict", "any"];

/** A number as the patterns want it, in any digits, with a suffix now and then. */
function number(r: Rng): string {
  let s = (r.chance(0.3) ? "-" : "") + r.pick(DIGITS) + (r.chance(0.3) ? r.pick(DIGITS) : "");
  if (r.chance(0.4)) s += "." + r.pick(DIGITS);
  if (r.chance(0.2)) s += r.pick(["e", "E+", "e-"]) + r.pick(DIGITS);
  return s + r.pick(["", "", "", "f", "L", "n"]) + (r.chance(0.1) ? "\n" : "");
}

function literal(r: Rng): string {
  if (r.chance(0.5)) return r.chance(0.8) ? number(r) : r.pick(SPACES) + number(r) + r.pick(SPACES);
  const n = 1 + r.int(4);
  let s = r.chance(0.2) ? "-" : "";
  for (let i = 0; i < n; i++) s += r.chance(0.7) ? r.pick(DIGITS) : r.pick(TOKENS);
  if (r.chance(0.3)) s += r.pick([".", "e", "f", "L", "n"]) + r.pick(DIGITS);
  if (r.chance(0.2)) s += r.pick(["f", "F", "L", "l", "n"]);
  if (r.chance(0.2)) s = r.pick(SPACES) + s;
  if (r.chance(0.2)) s += r.pick(SPACES);
  return s;
}

function items(r: Rng): string {
  return Array.from({ length: r.int(4) }, () => literal(r)).join(r.pick([", ", ",", " ,\x85"]));
}

function value(r: Rng, language: string, type: string): string {
  const space = () => r.pick([" ", "", "\x85", "\u3000", "\ufeff", "\x1c", "\n"]);
  switch (r.chance(0.5) ? type : "") {
    case "Array":
      return `new${space()}${r.pick(["int", "long", "String", "\u0661x", "\xe9"])}[]${space()}{${
        items(r)
      }}`;
    case "ArrayList":
      return r.chance(0.5)
        ? `new${space()}ArrayList<${
          r.pick(["", "Integer", "\xe9", "\u0661", "_a"])
        }>(Arrays.asList(${items(r)}))`
        : `new${space()}ArrayList<>()${space()}{{${space()}add(${literal(r)}); add(${
          literal(r)
        });${space()}}}`;
    case "HashMap":
      return `new${space()}HashMap<String,${space()}Object>()${space()}{{${space()}put("k",${space()}${
        literal(r)
      });${space()}}}`;
    case "array":
      return r.chance(0.7)
        ? `${space()}[${items(r)}]`
        : `new${space()}Array(${items(r)})${r.chance(0.3) ? `, [${items(r)}]` : ""}`;
    case "dict":
      return `${space()}{${
        Array.from({ length: r.int(3) }, () =>
          `${r.pick(["a", "'b'", "\u0661"])}:${space()}${literal(r)}`)
          .join(`,${space()}`)
      }}`;
    default:
      return language === "java" && type === "boolean" && r.chance(0.2) ? "true" : literal(r);
  }
}

Deno.test("javaConvert() and jsConvert() read values as BFCL's Python does, Unicode digits and spaces included", async () => {
  const r = makeRng(0x7c0a);
  const cases: Case[] = [];
  for (let i = 0; i < 20_000; i++) {
    const language = r.chance(0.5) ? "java" : "javascript";
    const type = language === "java" ? r.pick([...JAVA, ...JAVA_MORE]) : r.pick(JS);
    const collection = type === "Array" || type === "ArrayList" || type === "array";
    const nested = collection ? r.pick(language === "java" ? JAVA_ITEMS : JS_ITEMS) : undefined;
    cases.push([language, type, nested ?? null, value(r, language, type)]);
  }
  const answers = await answersOf(cases);
  const differ: string[] = [];
  let converted = 0, unicode = 0;
  cases.forEach(([language, type, nested, v], i) => {
    const [mine, want] = answers[i]!;
    if (!want.startsWith('["str"')) converted++;
    if (/"(int|float)"/.test(want) && [...v].some((c) => c.codePointAt(0)! > 0x7f)) unicode++;
    if (mine !== want) {
      differ.push(`${language} ${type}/${nested} ${JSON.stringify(v)}: ${mine} vs ${want}`);
    }
  });
  console.log(
    `${cases.length - differ.length}/${cases.length} agree ` +
      `(${converted} converted, ${unicode} to numbers from text past ASCII)`,
  );
  assertEquals(differ.slice(0, 10), []);
  strictEqual(converted > 2_000 && unicode > 500, true);
});

// Digits of four scripts, each run from 0 to 9 (ASCII, Arabic-Indic, Devanagari, fullwidth).
const ZEROS = [0x30, 0x660, 0x966, 0xff10];

/**
 * A decimal integer about Python's limit of 4,300 digits: a sign now and then, leading zeros,
 * underscores between digits, digits of another script.
 */
function longInt(r: Rng): string {
  const n = r.pick([4299, 4300, 4300, 4301, 4301, 4302, 1 + r.int(6000)]);
  const zero = r.chance(0.7) ? 0x30 : r.pick(ZEROS);
  const zeros = r.chance(0.3) ? (r.chance(0.1) ? n : r.int(40)) : 0;
  const underscores = r.chance(0.3);
  let s = r.pick(["", "", "", "-", "+"]);
  for (let i = 0; i < n; i++) {
    if (underscores && i > 0 && r.chance(0.2)) s += "_";
    s += String.fromCodePoint(zero + (i < zeros ? 0 : i === zeros ? 1 + r.int(9) : r.int(10)));
  }
  return r.chance(0.1) ? r.pick(SPACES) + s + r.pick(SPACES) : s;
}

/** A long integer as a value of the type, or as an item of a collection of it. */
function longValue(r: Rng, language: string, type: string, nested: string | undefined): string {
  const a = longInt(r);
  const b = r.chance(0.5) ? longInt(r) : "7";
  const item = (v: string) =>
    nested === "long" || (!nested && r.chance(0.3)) ? `${v}L` : nested === "Bigint" ? `${v}n` : v;
  switch (type) {
    case "long":
      return `${a}L`;
    case "Bigint":
      return `${a}n`;
    case "Array":
      return `new long[]{${item(a)}, ${item(b)}}`;
    case "ArrayList":
      return `new ArrayList<>(Arrays.asList(${item(a)}, ${item(b)}))`;
    case "HashMap":
      return `new HashMap<String, Object>() {{ put("k", ${item(a)}); put("j", ${item(b)}); }}`;
    case "array":
      return r.chance(0.7) ? `[${item(a)}, ${item(b)}]` : `[[${a}], [${b}]]`;
    case "dict":
      return `{a: ${a}, b: ${b}}`;
    default:
      return language === "java" && type === "float" ? `${a}f` : a;
  }
}

Deno.test("the converters' int() refuses more than 4,300 digits as CPython's does, and float() reads them", async () => {
  const r = makeRng(0x10c3);
  const cases: Case[] = [];
  for (let i = 0; i < 2_000; i++) {
    const language = r.chance(0.5) ? "java" : "javascript";
    const type = language === "java"
      ? r.pick(["integer", "long", "short", "double", "float", "Array", "ArrayList", "HashMap"])
      : r.pick(["integer", "Bigint", "float", "array", "dict"]);
    const items = language === "java"
      ? [undefined, "integer", "long"]
      : [undefined, "integer", "Bigint"];
    const nested = ["Array", "ArrayList", "array"].includes(type) ? r.pick(items) : undefined;
    cases.push([language, type, nested ?? null, longValue(r, language, type, nested)]);
  }
  const answers = await answersOf(cases);
  const differ: string[] = [];
  const seen = { refused: 0, long: 0, infinite: 0 };
  cases.forEach(([language, type, nested, v], i) => {
    const [mine, want] = answers[i]!;
    if (want === '["ValueError"]') seen.refused++;
    if (/"int","-?\d{4000}/.test(want)) seen.long++;
    if (/"float","-?inf"/.test(want)) seen.infinite++;
    if (mine !== want) {
      differ.push(
        `${language} ${type}/${nested} ${v.slice(0, 40)}…: ${mine.slice(0, 60)} vs ${
          want.slice(0, 60)
        }`,
      );
    }
  });
  console.log(`${cases.length - differ.length}/${cases.length} agree (${JSON.stringify(seen)})`);
  assertEquals(differ.slice(0, 10), []);
  strictEqual(seen.refused > 200 && seen.long > 200 && seen.infinite > 200, true);
});
