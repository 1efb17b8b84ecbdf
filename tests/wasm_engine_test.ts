// Hand-written cases for the wasm engine, each also checked against the ts engine.
import { deepStrictEqual as deepEqual, ok, strictEqual as equal } from "node:assert/strict";
import { createTsCore } from "../src/_ts_engine.ts";
import { createWasmCore } from "../src/_wasm_engine.ts";
import { canonicalFloat } from "../src/float_repr.ts";
import type { JsonErrorCode } from "../src/types.ts";
import { WASM_BYTE_LENGTH, WASM_BYTES } from "../src/wasm_bytes.generated.ts";

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
  const module = new WebAssembly.Module(WASM_BYTES);
  equal(WebAssembly.Module.imports(module).length, 0);
  deepEqual(
    WebAssembly.Module.exports(module).map((e) => e.name).sort(),
    ["memory", "prepare", "reserveInput", "run"],
  );
  equal(WASM_BYTES.length, WASM_BYTE_LENGTH);
  const file = await Deno.readFile(new URL("../build/assay.wasm", import.meta.url));
  deepEqual(file, WASM_BYTES);
});

Deno.test("createWasmCore() instantiates a precompiled module", () => {
  const core = createWasmCore(new WebAssembly.Module(WASM_BYTES));
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
