// Hand-written cases for the wasm engine, each also checked against the ts engine.
import { deepStrictEqual as deepEqual, ok, strictEqual as equal } from "node:assert/strict";
import { createTsCore } from "../../src/engine/_ts_engine.ts";
import { createWasmCore } from "../../src/engine/_wasm_engine.ts";
import { canonicalFloat } from "../../src/engine/mod.ts";
import type { JsonErrorCode } from "../../src/engine/mod.ts";
import { makeRng, randomEasyBoundaryDouble } from "../_corpus.ts";
import { WASM_BYTE_LENGTH, wasmBytes } from "../../src/engine/wasm_bytes.generated.ts";

const wasm = createWasmCore();
const ts = createTsCore();

/** Runs all four methods on both engines and requires identical results. */
function same(texts: string[]): void {
  deepEqual(wasm.spans(texts), ts.spans(texts));
  deepEqual(wasm.toolCalls(texts, false), ts.toolCalls(texts, false));
  deepEqual(wasm.toolCalls(texts, true), ts.toolCalls(texts, true));
  deepEqual(wasm.canonical(texts), ts.canonical(texts));
  deepEqual(wasm.flatten(texts), ts.flatten(texts));
}

function canonical(text: string): string {
  const r = wasm.canonical([text])[0]!;
  deepEqual(ts.canonical([text]), [r]);
  if (!r.ok) throw new Error(`Rejected: ${JSON.stringify(text)}`);
  return r.canonical;
}

function rejects(text: string, code: JsonErrorCode, offset: number): void {
  const expected = { ok: false, error: { code, offset } };
  deepEqual(wasm.canonical([text]), [expected], JSON.stringify(text));
  deepEqual(ts.canonical([text]), [expected], JSON.stringify(text));
  deepEqual(wasm.flatten([text]), [expected], JSON.stringify(text));
}

Deno.test("createWasmCore() module has zero imports and matches build/assay.wasm", async () => {
  const module = new WebAssembly.Module(wasmBytes());
  equal(WebAssembly.Module.imports(module).length, 0);
  deepEqual(
    WebAssembly.Module.exports(module).map((e) => e.name).sort(),
    [
      "DROPS",
      "bailLine",
      "chunkRows",
      "kCounts",
      "kExamples",
      "kFinish",
      "kFreeze",
      "kGenerations",
      "kGold",
      "kGoldLength",
      "kGoldNameLength",
      "kInput",
      "kLanguage",
      "kLanguageCount",
      "kLanguageLength",
      "kPrompts",
      "kQueue",
      "kQueueCount",
      "kRecordsLength",
      "kRecordsText",
      "kSetRecord",
      "kStart",
      "memory",
      "nextLine",
      "pow10Table",
      "prepare",
      "resampleDirect",
      "resampleGrouped",
      "resampleReserve",
      "reserveInput",
      "ruleDropKind",
      "ruleRecordLine",
      "ruleScanLine",
      "ruleScore",
      "run",
      "sha256EqualsMany",
      "sha256Many",
    ],
  );
  equal(wasmBytes().length, WASM_BYTE_LENGTH);
  const file = await Deno.readFile(new URL("../../build/assay.wasm", import.meta.url));
  deepEqual(file, wasmBytes());
});

Deno.test("createWasmCore() instantiates a precompiled module", () => {
  const core = createWasmCore(new WebAssembly.Module(wasmBytes()));
  equal(core.name, "wasm");
  deepEqual(core.canonical(['{"b":1,"a":2}']), [{ ok: true, canonical: '{"a":2,"b":1}' }]);
});

Deno.test("createWasmCore() rejects a module that is not the engine", () => {
  // (module (memory (export "memory") 1))
  const bytes = new Uint8Array([
    0,
    97,
    115,
    109,
    1,
    0,
    0,
    0,
    5,
    3,
    1,
    0,
    1,
    7,
    10,
    1,
    6,
    109,
    101,
    109,
    111,
    114,
    121,
    2,
    0,
  ]);
  let threw = false;
  try {
    createWasmCore(new WebAssembly.Module(bytes));
  } catch (e) {
    threw = e instanceof TypeError;
  }
  ok(threw);
});

Deno.test("createWasmCore() returns nothing for an empty batch", () => {
  deepEqual(wasm.spans([]), []);
  deepEqual(wasm.toolCalls([], true), []);
  deepEqual(wasm.canonical([]), []);
  deepEqual(wasm.flatten([]), []);
});

Deno.test("createWasmCore() reports every error code at its offset", () => {
  rejects("", "expecting_value", 0);
  rejects(" \t\r\n", "expecting_value", 4);
  rejects("[1,]", "expecting_value", 3);
  rejects("-", "expecting_value", 0);
  rejects("-x", "expecting_value", 0);
  rejects("-Inf", "expecting_value", 0);
  rejects("[tru]", "expecting_value", 1);
  rejects("nul", "expecting_value", 0);
  rejects("Nan", "expecting_value", 0);
  rejects("'a'", "expecting_value", 0);
  rejects("\ufeff1", "expecting_value", 0);
  rejects("{", "expecting_property_name", 1);
  rejects('{"a":1,}', "expecting_property_name", 7);
  rejects("{1:2}", "expecting_property_name", 1);
  rejects('{"a" 1}', "expecting_colon", 5);
  rejects('{"a"', "expecting_colon", 4);
  rejects("[1 2]", "expecting_comma", 3);
  rejects('{"a":1 "b":2}', "expecting_comma", 7);
  rejects("[1", "expecting_comma", 2);
  rejects("1 2", "extra_data", 2);
  rejects("{} x", "extra_data", 3);
  rejects("01", "extra_data", 1);
  rejects("1.", "extra_data", 1);
  rejects("1e+", "extra_data", 1);
  rejects('"abc', "unterminated_string", 0);
  rejects('["a\\', "unterminated_string", 1);
  rejects('"\\u1234', "unterminated_string", 0);
  rejects('"a\x01"', "invalid_control_character", 2);
  rejects('"\n"', "invalid_control_character", 1);
  rejects('"\x00"', "invalid_control_character", 1);
  rejects('"\\x"', "invalid_escape", 1);
  rejects('"\\\'"', "invalid_escape", 1);
  rejects('"\\u12"', "invalid_unicode_escape", 1);
  rejects('"\\u12', "invalid_unicode_escape", 1);
  rejects('"\\uZZZZ"', "invalid_unicode_escape", 1);
  rejects('"\\ud83d\\uZZZZ"', "invalid_unicode_escape", 7);
  rejects("1".repeat(4301), "integer_too_long", 0);
  rejects("[-" + "9".repeat(4301) + "]", "integer_too_long", 1);
  rejects("[".repeat(513) + "]".repeat(513), "nesting_too_deep", 512);
  rejects('{"a":'.repeat(513) + "1" + "}".repeat(513), "nesting_too_deep", 5 * 512);
  equal(canonical("1".repeat(4300)), "1".repeat(4300));
  equal(canonical("-" + "1".repeat(4300)), "-" + "1".repeat(4300));
  equal(canonical("1".repeat(5000) + ".0"), "Infinity");
  equal(canonical("[".repeat(512) + "]".repeat(512)), "[".repeat(512) + "]".repeat(512));

  deepEqual(wasm.spans(["x {]"]), [{
    status: "invalid_json",
    start: 2,
    error: { code: "mismatched_bracket", offset: 3 },
  }]);
  deepEqual(wasm.spans(['ab [1, {"a": "}]']), [{
    status: "invalid_json",
    start: 3,
    error: { code: "unclosed_span", offset: 16 },
  }]);
  deepEqual(wasm.toolCalls(["x {]"], false), [{
    status: "invalid_json",
    error: { code: "mismatched_bracket", offset: 3 },
  }]);
  same(["x {]", 'ab [1, {"a": "}]', '{"name": "f", "arguments": {"a": 01}}']);
});

Deno.test("createWasmCore() finds spans with UTF-16 offsets", () => {
  const prose = "é😀\ud800 — ";
  deepEqual(wasm.spans([prose + '{"a": "}"} tail']), [{
    status: "found",
    start: prose.length,
    end: prose.length + 10,
  }]);
  deepEqual(wasm.spans(["no json here", "", "} ] only closers"]), [
    { status: "no_json" },
    { status: "no_json" },
    { status: "no_json" },
  ]);
  deepEqual(wasm.spans(['say [1, "]", {"x": "\\"]"}] and {more}']), [{
    status: "found",
    start: 4,
    end: 26,
  }]);
  const bad = "😀😀 [1, {]}";
  deepEqual(wasm.spans([bad]), [{
    status: "invalid_json",
    start: 5,
    error: { code: "mismatched_bracket", offset: 10 },
  }]);
  deepEqual(wasm.toolCalls(['😀 {"name": "f", "arguments": {"a": 1 2}}'], false), [{
    status: "invalid_json",
    error: { code: "expecting_comma", offset: 38 },
  }]);
  same([prose + '{"a": "}"} tail', bad, "\ud800[\udc00", '"\\" [ "\\\\" ]']);
});

Deno.test("createWasmCore() checks the call shape", () => {
  const call = '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}';
  const ok1 = {
    status: "ok",
    name: "get_weather",
    canonicalArguments: '{"city":"Paris","days":3}',
  };
  deepEqual(wasm.toolCalls([call, `[ ${call} ]`, "Sure:\n```json\n" + call + "\n```"], false), [
    ok1,
    ok1,
    ok1,
  ]);
  const shapes = [
    "[]",
    `[${call}, ${call}]`,
    `[[${call}]]`,
    '{"name": "f"}',
    '{"arguments": {}}',
    '{"name": "f", "arguments": {}, "id": 1}',
    '{"name": "", "arguments": {}}',
    '{"name": 1, "arguments": {}}',
    '{"name": "f", "arguments": "{}"}',
    '{"name": "f", "arguments": []}',
    '{"name": "f", "arguments": null}',
    '{"Name": "f", "arguments": {}}',
    "{}",
    "[1]",
    '["f"]',
  ];
  deepEqual(
    wasm.toolCalls(shapes, true),
    shapes.map(() => ({ status: "invalid_shape" })),
  );
  deepEqual(
    wasm.toolCalls(['{"name": "a", "arguments": [], "name": "f", "arguments": {"x": {}}}'], true),
    [{
      status: "ok",
      name: "f",
      canonicalArguments: '{"x":{}}',
      pairs: [{ path: '["x"]', value: "{}" }],
    }],
  );
  deepEqual(
    wasm.toolCalls(['{"argument\\u0073": {}, "n\\u0061me": "\\u00e9\\ud83d\\ude00"}'], false),
    [
      { status: "ok", name: "é😀", canonicalArguments: "{}" },
    ],
  );
  same([call, ...shapes, '{"name": "\\"quoted\\"", "arguments": {}}']);
});

Deno.test("createWasmCore() formats floats with Python's repr, in canonical text and in pairs", () => {
  const lexemes = [
    "1.0",
    "1e16",
    "1E+16",
    "1e-5",
    "0.0001",
    "-0.0",
    "-0e0",
    "1e400",
    "-1e400",
    "1e-400",
    "0.1",
    "5e-324",
    "1.7976931348623157e308",
    "123456789012345678901234567890.5",
    "9007199254740993.0",
    "1.5E3",
  ];
  const text = "[" + lexemes.join(",") + "]";
  equal(canonical(text), "[" + lexemes.map(canonicalFloat).join(",") + "]");
  equal(canonical('{"a": [1.5, {"b": 2.50}], "c": "1.5"}'), '{"a":[1.5,{"b":2.5}],"c":"1.5"}');
  deepEqual(wasm.flatten(['{"x": 1e16, "y": [0.5, -0]}']), [{
    ok: true,
    pairs: [
      { path: '["x"]', value: "1e+16" },
      { path: '["y",0]', value: "0.5" },
      { path: '["y",1]', value: "0" },
    ],
  }]);
  equal(canonical('["\\u0001", 1.25, "\x7f"]'), '["\\u0001",1.25,"\\u007f"]');
  equal(canonical("NaN"), "NaN");
  equal(canonical("[Infinity,-Infinity]"), "[Infinity,-Infinity]");
  equal(canonical("-0"), "0");
  equal(canonical("1" + "0".repeat(40)), "1" + "0".repeat(40));
  same([text, "2.5", "[1e16]"]);
});

/** Float lexemes around the module's own formatting (15 significant digits, |exponent| <= 307). */
const FLOAT_BOUNDARIES: [string, string][] = [
  // 15 vs 16 significant digits.
  ["123456789012345.0", "123456789012345.0"],
  ["1234567890123456.0", "1234567890123456.0"],
  ["0.123456789012345", "0.123456789012345"],
  ["0.1234567890123456", "0.1234567890123456"],
  ["1.00000000000001", "1.00000000000001"],
  ["1.000000000000001", "1.000000000000001"],
  ["9.999999999999999e307", "9.999999999999998e+307"],
  // Exponents -307/-308 and 307/308.
  ["1.23456789012345e-307", "1.23456789012345e-307"],
  ["1.234567890123456e-307", "1.234567890123456e-307"],
  ["9.99999999999999e307", "9.99999999999999e+307"],
  ["1e-307", "1e-307"],
  ["0.1e-306", "1e-307"],
  ["1e-308", "1e-308"],
  ["0.1e-307", "1e-308"],
  ["1.5e-308", "1.5e-308"],
  ["1e307", "1e+307"],
  ["10e306", "1e+307"],
  ["1e308", "1e+308"],
  ["10e307", "1e+308"],
  ["1.5e308", "1.5e+308"],
  ["123456789012345e293", "1.23456789012345e+307"],
  ["123456789012345e294", "1.23456789012345e+308"],
  ["5e-324", "5e-324"],
  // Exponents -5/-4 and 15/16: the fixed and scientific layouts.
  ["0.0001", "0.0001"],
  ["0.00001", "1e-05"],
  ["1.5e-4", "0.00015"],
  ["1.5e-5", "1.5e-05"],
  ["0.00012345678901234", "0.00012345678901234"],
  ["1e15", "1000000000000000.0"],
  ["1e16", "1e+16"],
  ["999999999999999.0", "999999999999999.0"],
  ["9999999999999999.0", "1e+16"],
  ["1.5e15", "1500000000000000.0"],
  ["1.5e16", "1.5e+16"],
  ["123456789012345e1", "1234567890123450.0"],
  ["123456789012345e2", "1.23456789012345e+16"],
  ["7e22", "7e+22"],
  ["7.0e-22", "7e-22"],
  ["-2.50E-3", "-0.0025"],
  // Leading and trailing zeros, zeros, redundant exponents.
  ["0.000100", "0.0001"],
  ["1.50e3", "1500.0"],
  ["-0.0e5", "-0.0"],
  ["100e-2", "1.0"],
  ["-0.0", "-0.0"],
  ["0e-400", "0.0"],
  ["0.000e+12", "0.0"],
  ["0e99999999999999999999", "0.0"],
  ["1.0", "1.0"],
  ["-1.0", "-1.0"],
  ["10.0", "10.0"],
  ["1e0", "1.0"],
  ["1E+00", "1.0"],
  ["1e-0", "1.0"],
  ["1e0001", "10.0"],
  ["100000000000000000000000000000e-29", "1.0"],
  ["0.00000000000000000000000000000012345e30", "0.12345"],
  ["12345678901234500000.0e-5", "123456789012345.0"],
  ["1234567890123450000000.0e-5", "1.23456789012345e+16"],
  ["1e99999999999999999999", "Infinity"],
  ["-1e99999999999999999999", "-Infinity"],
];

Deno.test("createWasmCore() formats floats at the edges of its own formatting as Python does", () => {
  for (const [lexeme, repr] of FLOAT_BOUNDARIES) {
    equal(canonicalFloat(lexeme), repr, lexeme);
    equal(canonical(lexeme), repr, lexeme);
    deepEqual(wasm.flatten([`{"x": [${lexeme}]}`]), [{
      ok: true,
      pairs: [{ path: '["x",0]', value: repr }],
    }], lexeme);
  }
  const all = FLOAT_BOUNDARIES.map(([lexeme]) => lexeme);
  equal(canonical("[" + all.join(", ") + "]"), "[" + FLOAT_BOUNDARIES.map(([, r]) => r) + "]");
  same([
    "[" + all.join(",") + "]",
    `{"name": "f", "arguments": {"a": [${all.join(", ")}], "b": ${all[0]}}}`,
    ...all,
  ]);
});

Deno.test("createWasmCore() formats random floats near its limits as canonicalFloat() does", () => {
  const rng = makeRng(0xf10a7);
  const lexemes: string[] = [];
  for (let i = 0; i < 100_000; i++) lexemes.push(randomEasyBoundaryDouble(rng));
  const [r] = wasm.canonical(["[" + lexemes.join(",") + "]"]);
  ok(r?.ok);
  const got = r.canonical.slice(1, -1).split(",");
  equal(got.length, lexemes.length);
  for (let i = 0; i < lexemes.length; i++) equal(got[i], canonicalFloat(lexemes[i]!), lexemes[i]);
  // Tool calls with pairs: floats in canonical arguments and pair values, repeated across texts.
  const calls: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const xs = lexemes.slice(i * 5, i * 5 + 5);
    calls.push(
      `{"name": "f", "arguments": {"v": [${xs.join(", ")}], "w": {"x": ${xs[0]}, "y": ${
        lexemes[i % 7]
      }}}}`,
    );
  }
  same(calls);
});

Deno.test("createWasmCore() shares paths between pairs and texts of a batch", () => {
  // The same path as a leaf in one text and a prefix in another, in both orders.
  const texts = [
    '{"a": 1, "b": [true, false, null]}',
    '{"a": {"b": 1, "c": {}}, "b": [[], {"x": NaN}, Infinity, -Infinity]}',
    '{"a": [1, {"b": 2}], "b": []}',
    '{"a": 1, "b": [true, false, null]}',
    '{"a": {"b": {"c": {"d": 0.5}}}, "": {"": [""]}}',
    "[1, [2, [3, [4]]], {}, []]",
    "[]",
    "{}",
    "7",
    '"s"',
  ];
  for (let i = 0; i < 30; i++) texts.push(texts[i % 10]!);
  same(texts);
  deepEqual(wasm.flatten(texts.slice(0, 3)), [
    {
      ok: true,
      pairs: [
        { path: '["a"]', value: "1" },
        { path: '["b",0]', value: "true" },
        { path: '["b",1]', value: "false" },
        { path: '["b",2]', value: "null" },
      ],
    },
    {
      ok: true,
      pairs: [
        { path: '["a","b"]', value: "1" },
        { path: '["a","c"]', value: "{}" },
        { path: '["b",0]', value: "[]" },
        { path: '["b",1,"x"]', value: "NaN" },
        { path: '["b",2]', value: "Infinity" },
        { path: '["b",3]', value: "-Infinity" },
      ],
    },
    {
      ok: true,
      pairs: [
        { path: '["a",0]', value: "1" },
        { path: '["a",1,"b"]', value: "2" },
        { path: '["b"]', value: "[]" },
      ],
    },
  ]);
  // Many indices: every number of digits.
  const array = "[" + Array.from({ length: 12_000 }, (_, i) => String(i % 3)).join(",") + "]";
  const [r] = wasm.flatten([array, array]);
  ok(r?.ok);
  deepEqual(r.pairs[10_999], { path: "[10999]", value: "1" });
  same([array, `{"name": "f", "arguments": {"k": ${array}}}`]);
  // Tool calls whose arguments repeat paths and floats across texts, with and without pairs.
  const calls = Array.from(
    { length: 3000 },
    (_, i) =>
      `{"name": "f${i % 3}", "arguments": {"n": ${i % 10}, "x": ${
        i % 4
      }.5, "h": 0.30000000000000004, ` +
      `"d": {"days": ${i % 14}, "unit": "c"}, "l": [${i % 10}, true, null], "s": "${
        "é".repeat(i % 5)
      }"}}`,
  );
  same(calls);
  const [call] = wasm.toolCalls([calls[1]!], true);
  deepEqual(call, {
    status: "ok",
    name: "f1",
    canonicalArguments:
      '{"d":{"days":1,"unit":"c"},"h":0.30000000000000004,"l":[1,true,null],"n":1,"s":"\\u00e9","x":1.5}',
    pairs: [
      { path: '["d","days"]', value: "1" },
      { path: '["d","unit"]', value: '"c"' },
      { path: '["h"]', value: "0.30000000000000004" },
      { path: '["l",0]', value: "1" },
      { path: '["l",1]', value: "true" },
      { path: '["l",2]', value: "null" },
      { path: '["n"]', value: "1" },
      { path: '["s"]', value: '"\\u00e9"' },
      { path: '["x"]', value: "1.5" },
    ],
  });
});

Deno.test("createWasmCore() builds long paths and paths past the path-text budget", () => {
  // Paths longer than the module writes out, with escapes in their keys.
  const longKey = "k\\n\\u00e9".repeat(40);
  const long = `{"${longKey}": {"${longKey}": [1, 2, {"z": 3}]}, "a": 0}`;
  const [r] = wasm.flatten([long]);
  ok(r?.ok);
  const key = JSON.stringify(JSON.parse(`"${longKey}"`)).replace(
    /[\u007f-\uffff]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
  );
  deepEqual(r.pairs[3], { path: `[${key},${key},2,"z"]`, value: "3" });
  // Deep nesting: the paths of many leaves under 500 levels.
  const deep = "[".repeat(500) + Array.from({ length: 3000 }, (_, i) => i).join(",") +
    "]".repeat(500);
  // Paths of about 240 bytes, far more of them than the budget (twice the input and 1 MiB).
  const wide = `{"${"w".repeat(230)}": [${"0,".repeat(30_000)}0]}`;
  same([long, deep, wide, long, `{"name": "f", "arguments": ${long}}`]);
  const [w] = wasm.flatten([wide]);
  ok(w?.ok);
  deepEqual(w.pairs[30_000], { path: `["${"w".repeat(230)}",30000]`, value: "0" });
});

Deno.test("createWasmCore() handles surrogates, escaped and raw", () => {
  equal(canonical('"\\ud83d\\ude00"'), '"\\ud83d\\ude00"');
  equal(canonical('"😀"'), '"\\ud83d\\ude00"');
  equal(canonical('"\\uD83D"'), '"\\ud83d"');
  equal(canonical('"\\ude00\\ud83d"'), '"\\ude00\\ud83d"');
  equal(canonical('"\ud800"'), '"\\ud800"');
  equal(canonical('"\udc00\ud800"'), '"\\udc00\\ud800"');
  // A raw lone surrogate next to an escaped one stays two code points: a different key.
  equal(canonical('{"\ud83d\\ude00": 1, "😀": 2}'), '{"\\ud83d\\ude00":1,"\\ud83d\\ude00":2}');
  equal(canonical('{"\\ud83d\\ude00": 1, "😀": 2}'), '{"\\ud83d\\ude00":2}');
  // Code point order, not UTF-16 order: U+E000 < U+FFFF < U+1F600.
  equal(
    canonical('{"😀": 1, "\\uffff": 2, "\ue000": 3, "\\ud800": 4, "~": 5}'),
    '{"~":5,"\\ud800":4,"\\ue000":3,"\\uffff":2,"\\ud83d\\ude00":1}',
  );
  deepEqual(wasm.flatten(['{"\ud800": {"é": [true]}}']), [{
    ok: true,
    pairs: [{ path: '["\\ud800","\\u00e9",0]', value: "true" }],
  }]);
  same([
    '{"\ud83d\\ude00": 1, "😀": 2}',
    '{"\\ud83d": 1, "\ud83d": 2, "\\ude00": 3}',
    '"\\ud83d\\ud83d\\ude00"',
    '{"name": "\ud800", "arguments": {"\udfff": "\\udfff"}}',
    "\udc00\ud800 [\ud800]",
  ]);
});

Deno.test("createWasmCore() treats __proto__ and other prototype keys as plain keys", () => {
  const text =
    '{"name": "__proto__", "arguments": {"__proto__": {"constructor": 1}, "toString": [], "__proto__": {"hasOwnProperty": null}}}';
  deepEqual(wasm.toolCalls([text], true), [{
    status: "ok",
    name: "__proto__",
    canonicalArguments: '{"__proto__":{"hasOwnProperty":null},"toString":[]}',
    pairs: [
      { path: '["__proto__","hasOwnProperty"]', value: "null" },
      { path: '["toString"]', value: "[]" },
    ],
  }]);
  same([text, '{"__proto__": 1}', '[{"__proto__": {}}]']);
});

Deno.test("createWasmCore() handles NUL bytes", () => {
  rejects('"a\x00b"', "invalid_control_character", 2);
  rejects("[1,\x00]", "expecting_value", 3);
  equal(canonical('"\\u0000"'), '"\\u0000"');
  equal(canonical('{"\\u0000": 1, "": 2}'), '{"":2,"\\u0000":1}');
  deepEqual(wasm.spans(["\x00\x00 {\x00} \x00"]), [{ status: "found", start: 3, end: 6 }]);
  same(['\x00{"name": "f\\u0000", "arguments": {"\\u0000": "\\u0000"}}\x00', "\x00[\x00]"]);
});

Deno.test("createWasmCore() sorts objects with many and duplicated keys", () => {
  const keys: string[] = [];
  for (let i = 0; i < 30000; i++) keys.push(`"k${(i * 7919) % 10007}": ${i}`);
  const text = "{" + keys.join(", ") + "}";
  same([text, `{"name": "f", "arguments": ${text}}`]);
  equal(JSON.parse(canonical(text))["k0"], 20014);
});

Deno.test("createWasmCore() parses a 100 MB output", () => {
  const payload = "a".repeat(100_000_000);
  const text = `Calling now: {"name": "f", "arguments": {"s": "${payload}", "n": 1.5}} done`;
  const [r] = wasm.toolCalls([text], true);
  equal(r!.status, "ok");
  equal(r!.name, "f");
  equal(r!.canonicalArguments, `{"n":1.5,"s":"${payload}"}`);
  deepEqual(r!.pairs![0], { path: '["n"]', value: "1.5" });
  equal(r!.pairs![1]!.value.length, payload.length + 2);
  deepEqual(wasm.spans([text]), [{ status: "found", start: 13, end: text.length - 5 }]);
});

Deno.test("createWasmCore() scans 10^8 open brackets without a depth limit", () => {
  const text = "[".repeat(100_000_000);
  deepEqual(wasm.spans([text]), [{
    status: "invalid_json",
    start: 0,
    error: { code: "unclosed_span", offset: 100_000_000 },
  }]);
  deepEqual(wasm.canonical([text]), [{
    ok: false,
    error: { code: "nesting_too_deep", offset: 512 },
  }]);
});

Deno.test("createWasmCore() rejects 10^6-deep nesting", () => {
  const text = "x " + "[".repeat(1_000_000) + "]".repeat(1_000_000);
  deepEqual(wasm.spans([text]), [{ status: "found", start: 2, end: text.length }]);
  deepEqual(wasm.toolCalls([text], true), [{
    status: "invalid_json",
    error: { code: "nesting_too_deep", offset: 514 },
  }]);
  const objects = '{"a":'.repeat(1_000_000) + "1" + "}".repeat(1_000_000);
  deepEqual(wasm.canonical([objects]), [{
    ok: false,
    error: { code: "nesting_too_deep", offset: 5 * 512 },
  }]);
  same([text, objects]);
});

Deno.test("createWasmCore() reports an unterminated string of 10^7 chars", () => {
  const text = '{"name": "' + "x".repeat(10_000_000);
  deepEqual(wasm.toolCalls([text], false), [{
    status: "invalid_json",
    error: { code: "unclosed_span", offset: text.length },
  }]);
  deepEqual(wasm.canonical([text]), [{
    ok: false,
    error: { code: "unterminated_string", offset: 9 },
  }]);
  same([text, "é".repeat(10) + text]);
});

Deno.test("createWasmCore() processes a batch mixing every kind of input", () => {
  const texts = [
    '{"name": "f", "arguments": {"a": 1.0, "b": [true, null]}}',
    "no json",
    "[".repeat(1_000_000),
    '{"name": "' + "x".repeat(10_000_000),
    "[" + "[".repeat(600) + "]".repeat(601),
    '{"name": "\ud800", "arguments": {"__proto__": "\x00"}}',
    '{"name": "f", "arguments": {"k": "' + "é😀".repeat(500_000) + '"}}',
    "",
    '"\\ud83d\\ude00"',
    "1e400",
    "[1,]",
    '{"b": 1, "a": 2, "b": 3}',
  ];
  // Repeat the small ones so the batch spans several chunks.
  for (let i = 0; i < 40_000; i++) {
    texts.push(texts[i % 12 === 2 || i % 12 === 3 || i % 12 === 6 ? 0 : i % 12]!);
  }
  same(texts);
  // And the instance still works after memory was released.
  same(texts.slice(0, 12));
});
