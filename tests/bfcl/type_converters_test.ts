// BFCL's Java and JavaScript converters on a table of our own: each declared type, the literals
// it recognises, and the strings it leaves as they are.
import { strictEqual } from "node:assert/strict";
import { pyRepr, type PyValue } from "../../src/bfcl/mod.ts";
import { javaConvert, jsConvert } from "../../src/bfcl/_type_converters.ts";

/** A value, its declared type and item type, and the repr of what the converter gives. */
type Case = [string, string, string | undefined, string];

function expectTable(
  convert: (value: string, type: string, nested?: string) => PyValue | undefined,
  cases: readonly Case[],
): void {
  for (const [value, type, nested, want] of cases) {
    const got = convert(value, type, nested);
    strictEqual(got === undefined ? "ValueError" : pyRepr(got), want, `${type} ${value}`);
  }
}

Deno.test("javaConvert() reads Java literals of the declared type, else keeps the string", () => {
  expectTable(javaConvert, [
    ["42", "integer", undefined, "42"],
    ["-7", "short", undefined, "-7"],
    ["4.2", "integer", undefined, "'4.2'"],
    ["5L", "long", undefined, "5"],
    ["5", "long", undefined, "'5'"],
    ["1.5f", "float", undefined, "1.5"],
    ["1.5", "float", undefined, "'1.5'"],
    ["2e3", "double", undefined, "2000.0"],
    ["true", "boolean", undefined, "True"],
    ["True", "boolean", undefined, "'True'"],
    ["'a'", "char", undefined, "\"'a'\""],
    ["new int[]{1, 2, 3}", "Array", "integer", "[1, 2, 3]"],
    ['new String[]{"a", "b"}', "Array", "String", "['\"a\"', '\"b\"']"],
    ["new long[]{1L, 2}", "Array", "long", "[1, '2']"],
    ['new ArrayList<>(Arrays.asList("a", "b"))', "ArrayList", "String", "['a', 'b']"],
    ["new ArrayList<Integer>() {{ add(1); add(2); }}", "ArrayList", "integer", "[1, 2]"],
    ["new ArrayList<>()", "ArrayList", "String", "[]"],
    [
      'new HashMap<String, Object>() {{ put("k", 1); put("s", "v"); }}',
      "HashMap",
      undefined,
      "{'k': 1, 's': 'v'}",
    ],
    ["new HashMap<>()", "HashMap", undefined, "{}"],
    ["myMap", "HashMap", undefined, "'myMap'"],
    ["anything", "any", undefined, "'anything'"],
  ]);
});

Deno.test("jsConvert() reads JavaScript literals of the declared type, else keeps the string", () => {
  expectTable(jsConvert, [
    ["'abc'", "String", undefined, "'abc'"],
    ["abc", "String", undefined, "'abc'"],
    ["12", "integer", undefined, "12"],
    ["1.5", "float", undefined, "1.5"],
    ["1e5", "float", undefined, "'1e5'"],
    ["12n", "Bigint", undefined, "12"],
    ["false", "Boolean", undefined, "False"],
    ["[1, 2]", "array", "integer", "[1, 2]"],
    ["['a', 'b']", "array", "String", "['a', 'b']"],
    ["new Array(1, 'x', true)", "array", undefined, "[1, 'x', True]"],
    ["[[1, 2], [3, 4]]", "array", "array", "[[1, 2], [3, 4]]"],
    ["[]", "array", "String", "[]"],
    ["{}", "dict", undefined, "{}"],
    ["{a: 1, 'b': 'x', c: [1, 2]}", "dict", undefined, "{'a': 1, 'b': 'x', 'c': [1, 2]}"],
    ["{a: {b: 1}}", "dict", undefined, "{'a': '{b: 1'}"],
    ["config", "dict", undefined, "'config'"],
  ]);
  strictEqual(jsConvert("x", "Symbol"), undefined);
});

Deno.test("the converters' patterns and int()/float() are Python's on Unicode text", () => {
  // Python's `\d` is any decimal digit and int() reads it; its `\s` and strip() hold U+001C..U+001F
  // and U+0085 but not U+FEFF.
  expectTable(jsConvert, [
    ["{c: \u0661\u0662}", "dict", undefined, "{'c': 12}"],
    ["\u0661\u0662", "integer", undefined, "12"],
    ["\uff11.\uff15", "float", undefined, "1.5"],
    ["\u{11f51}", "integer", undefined, "'\\U00011f51'"], // a Kawi digit: Unicode 15, not 14
    ["\u0661\u0662n", "Bigint", undefined, "12"],
    ["[1,\x85\u0662]", "array", "integer", "[1, 2]"],
    ["[1,\ufeff2]", "array", "integer", "[1, '\\ufeff2']"],
    ["[\x1c1]", "array", undefined, "[1]"], // strip() drops U+001C, then int() reads 1
    ["\x1c1", "integer", undefined, "'\\x1c1'"],
  ]);
  expectTable(javaConvert, [
    [
      'new HashMap<String, Integer>() {{ put("k", \u0661\u0662); }}',
      "HashMap",
      undefined,
      "{'k': 12}",
    ],
    ["\u0967\u0968", "integer", undefined, "12"],
    ["\u0661\u0662L", "long", undefined, "12"],
    ["\u0661.\u0665f", "float", undefined, "1.5"],
    ["new\x85int[]{\u0661}", "Array", "integer", "[1]"],
    ["new\ufeffint[]{1}", "Array", "integer", "'new\\ufeffint[]{1}'"],
    ["new ArrayList<\u0661\xe9>()", "ArrayList", "integer", "[]"],
    ["new ArrayList<>(Arrays.asList('\u{1d7cf}'))", "ArrayList", "char", "['\u{1d7cf}']"],
  ]);
});

Deno.test("the converters' int() refuses more than 4,300 digits, as Python's does", () => {
  const d4300 = "7".repeat(4300);
  const d4301 = "7".repeat(4301);
  // Where BFCL's converter calls int() without catching it, its ValueError: undefined here.
  expectTable(javaConvert, [
    [d4300, "integer", undefined, d4300],
    [d4301, "integer", undefined, "ValueError"],
    ["-" + d4301 + "L", "long", undefined, "ValueError"],
    ["0" + d4300, "short", undefined, "ValueError"], // leading zeros count
    [`new long[]{1L, ${d4301}L}`, "Array", "long", "ValueError"],
    [`new Object[]{1, ${d4301}L}`, "Array", undefined, "ValueError"],
    // Without a type, int() is tried and its ValueError caught: float() reads the digits.
    [`new Object[]{1, ${d4301}}`, "Array", undefined, "[1, inf]"],
    [`new HashMap<>() {{ put("k", -${d4301}); }}`, "HashMap", undefined, "{'k': -inf}"],
    [d4301, "double", undefined, "inf"],
  ]);
  expectTable(jsConvert, [
    [d4300 + "n", "Bigint", undefined, d4300],
    [d4301 + "n", "Bigint", undefined, "ValueError"],
    [d4301, "integer", undefined, "ValueError"],
    [`[1, ${d4301}]`, "array", "integer", `'[1, ${d4301}]'`], // BFCL catches it: the text
    [`[1, ${"7_".repeat(4300)}7]`, "array", undefined, "[1, inf]"], // underscores do not count
    [`[1, ${"7_".repeat(4299)}7]`, "array", undefined, `[1, ${d4300}]`],
    [`{a: +${d4301}}`, "dict", undefined, "{'a': inf}"],
  ]);
});
