// One test per rule of CONTRACT §1–3, on both engines. Expected canonical texts were
// checked against Python 3.11's json module (tests/engine/python_diff_test.ts does so at scale).
import { deepStrictEqual as deepEqual, ok, strictEqual as equal, throws } from "node:assert/strict";
import {
  canonicalFloat,
  canonicalize,
  canonicalizeBatch,
  type CanonicalResult,
  extractSpan,
  flattenArguments,
  formatPath,
  parseToolCall,
} from "../../mod.ts";
import { ENGINES } from "../_engines.ts";
import { makeRng } from "../_corpus.ts";

function canon(text: string, engine: (typeof ENGINES)[number]): string {
  const r: CanonicalResult = canonicalize(text, { engine });
  return r.ok ? r.canonical : `!error ${r.error.code} at ${r.error.offset}`;
}

function status(text: string, engine: (typeof ENGINES)[number]): string {
  return parseToolCall(text, { engine, arguments: false }).status;
}

for (const engine of ENGINES) {
  const e = engine.name;

  Deno.test(`extractSpan() [${e}] starts at the first { or [ and reports no_json without one`, () => {
    deepEqual(extractSpan("abc", { engine }), { status: "no_json" });
    deepEqual(extractSpan("", { engine }), { status: "no_json" });
    deepEqual(extractSpan('x [1] {"a":2}', { engine }), { status: "found", start: 2, end: 5 });
    deepEqual(extractSpan('x {"a":[2]} [1]', { engine }), { status: "found", start: 2, end: 11 });
  });

  Deno.test(`extractSpan() [${e}] ignores brackets inside strings and honours escapes`, () => {
    const text = 'a {"k": "}]\\"{"} b';
    deepEqual(extractSpan(text, { engine }), { status: "found", start: 2, end: 16 });
    deepEqual(extractSpan('{"\\\\"}', { engine }), { status: "found", start: 0, end: 6 });
  });

  Deno.test(`extractSpan() [${e}] fails on a mismatched closer or an unclosed span`, () => {
    deepEqual(extractSpan("pre {[}] post", { engine }), {
      status: "invalid_json",
      start: 4,
      error: { code: "mismatched_bracket", offset: 6 },
    });
    deepEqual(extractSpan('{"a": "}', { engine }), {
      status: "invalid_json",
      start: 0,
      error: { code: "unclosed_span", offset: 8 },
    });
    deepEqual(extractSpan("[[[", { engine }), {
      status: "invalid_json",
      start: 0,
      error: { code: "unclosed_span", offset: 3 },
    });
  });

  Deno.test(`parseToolCall() [${e}] tries no other start and repairs nothing`, () => {
    equal(status('oops ] {"name":"f","arguments":{}}', engine), "ok"); // a stray closer before the start is prose
    equal(status('[ } {"name":"f","arguments":{}}', engine), "invalid_json");
    equal(status('{"name":"f","arguments":{},}', engine), "invalid_json");
    equal(status("{'name':'f','arguments':{}}", engine), "invalid_json");
  });

  Deno.test(`extractSpan() [${e}] reports UTF-16 offsets after non-ASCII prose`, () => {
    const text = 'é😀 → {"a": "ü"} ✓';
    const span = extractSpan(text, { engine });
    deepEqual(span, { status: "found", start: 6, end: 16 });
    equal(text.slice(span.start, span.end), '{"a": "ü"}');
  });

  Deno.test(`canonicalize() [${e}] accepts NaN, Infinity and -Infinity`, () => {
    equal(canon("[NaN, Infinity, -Infinity]", engine), "[NaN,Infinity,-Infinity]");
    equal(canon("nan", engine), "!error expecting_value at 0");
    equal(canon("-NaN", engine), "!error expecting_value at 0");
    equal(canon("infinity", engine), "!error expecting_value at 0");
  });

  Deno.test(`canonicalize() [${e}] rejects raw control characters in strings, not U+007F`, () => {
    for (let c = 0; c < 0x20; c++) {
      equal(canon(`"a${String.fromCharCode(c)}"`, engine), "!error invalid_control_character at 2");
    }
    equal(canon('"\u007f"', engine), '"\\u007f"');
    equal(canon('"\\u0000\\u001f"', engine), '"\\u0000\\u001f"');
  });

  Deno.test(`canonicalize() [${e}] treats only space, tab, LF and CR as whitespace`, () => {
    equal(canon(" \t\n\r[ 1 ,\t2 ]\r\n", engine), "[1,2]");
    for (const ws of ["\f", "\v", "\u00a0", "\u2028", "\ufeff"]) {
      equal(canon(`${ws}[1]`, engine), "!error expecting_value at 0");
      equal(canon(`[1]${ws}`, engine), "!error extra_data at 3");
    }
  });

  Deno.test(`canonicalize() [${e}] keeps the last value of a duplicated key`, () => {
    equal(canon('{"a": 1, "b": 2, "a": 3}', engine), '{"a":3,"b":2}');
    equal(canon('{"a": {"x": 1}, "a": []}', engine), '{"a":[]}');
  });

  Deno.test(`canonicalize() [${e}] accepts and keeps lone surrogate escapes`, () => {
    equal(canon('"\\ud800"', engine), '"\\ud800"');
    equal(canon('"\\udc00\\ud800"', engine), '"\\udc00\\ud800"');
    equal(canon('"\\ud83d\\ude00"', engine), '"\\ud83d\\ude00"');
    equal(canon('"\\ud800x"', engine), '"\\ud800x"');
    equal(canon('"\ud800"', engine), '"\\ud800"'); // a raw lone surrogate in the JS string
  });

  Deno.test(`canonicalize() [${e}] rejects integers longer than 4,300 digits`, () => {
    const d4300 = "7".repeat(4300);
    equal(canon(d4300, engine), d4300);
    equal(canon("-" + d4300, engine), "-" + d4300);
    equal(canon(d4300 + "7", engine), "!error integer_too_long at 0");
    equal(canon("[-" + d4300 + "7]", engine), "!error integer_too_long at 1");
    equal(canon(d4300 + "7.0", engine), "Infinity"); // floats have no digit limit
  });

  Deno.test(`canonicalize() [${e}] rejects nesting deeper than 512 levels`, () => {
    const ok = "[".repeat(512) + "]".repeat(512);
    equal(canon(ok, engine), ok);
    equal(canon("[".repeat(513) + "]".repeat(513), engine), "!error nesting_too_deep at 512");
    equal(
      canon('{"a":'.repeat(513) + "1" + "}".repeat(513), engine),
      "!error nesting_too_deep at 2560",
    );
    equal(status("[".repeat(1_000_000) + "]".repeat(1_000_000), engine), "invalid_json");
  });

  Deno.test(`parseToolCall() [${e}] reports every JSON rejection as invalid_json`, () => {
    for (
      const bad of [
        '{"name": "f", "arguments": {"a": 01}}',
        '{"name": "f", "arguments": {"a": 1.}}',
        '{"name": "f", "arguments": {"a": "\\x"}}',
        '{"name": "f", "arguments": {"a": tru}}',
        '{"name": "f" "arguments": {}}',
      ]
    ) equal(status(bad, engine), "invalid_json", bad);
  });

  Deno.test(`parseToolCall() [${e}] accepts exactly {name, arguments} or a one-element array of it`, () => {
    const call = '{"name": "get_weather", "arguments": {"city": "Paris"}}';
    const r = parseToolCall(`Sure. ${call} Done.`, { engine });
    deepEqual(r, {
      status: "ok",
      name: "get_weather",
      arguments: { city: "Paris" },
      canonicalArguments: '{"city":"Paris"}',
    });
    equal(status(`[${call}]`, engine), "ok");
    equal(status('{"arguments": {}, "name": "f"}', engine), "ok");
    equal(status('{"name": "a", "arguments": {}, "name": "b"}', engine), "ok");
    equal(parseToolCall('{"name": "a", "arguments": {}, "name": "b"}', { engine }).name, "b");
  });

  Deno.test(`parseToolCall() [${e}] calls anything else that parsed invalid_shape`, () => {
    for (
      const bad of [
        '{"name": "f", "arguments": {}, "id": 1}',
        '{"name": "f"}',
        '{"arguments": {}}',
        '{"name": "", "arguments": {}}',
        '{"name": 1, "arguments": {}}',
        '{"name": null, "arguments": {}}',
        '{"name": "f", "arguments": "{}"}',
        '{"name": "f", "arguments": []}',
        '{"name": "f", "arguments": null}',
        "[]",
        '[{"name": "f", "arguments": {}}, {"name": "g", "arguments": {}}]',
        '[[{"name": "f", "arguments": {}}]]',
        "[1]",
        '{"Name": "f", "arguments": {}}',
      ]
    ) equal(status(bad, engine), "invalid_shape", bad);
  });

  Deno.test(`parseToolCall() [${e}] never changes a prototype for __proto__ keys`, () => {
    const r = parseToolCall(
      '{"name": "f", "arguments": {"__proto__": {"polluted": true}, "constructor": {"prototype": 1}}}',
      { engine },
    );
    equal(r.status, "ok");
    equal(Object.getPrototypeOf(r.arguments), Object.prototype);
    equal(Object.hasOwn(r.arguments!, "__proto__"), true);
    deepEqual(Object.keys(r.arguments!), ["__proto__", "constructor"]);
    equal(({} as Record<string, unknown>).polluted, undefined);
    equal(r.canonicalArguments, '{"__proto__":{"polluted":true},"constructor":{"prototype":1}}');
  });

  Deno.test(`canonicalize() [${e}] sorts keys by code point, not UTF-16`, () => {
    equal(
      canon('{"\ue000": 1, "\ud83d\ude00": 2, "z": 3, "é": 4}', engine),
      '{"z":3,"\\u00e9":4,"\\ue000":1,"\\ud83d\\ude00":2}',
    );
    // An escaped lone surrogate next to a raw one is two code points, not U+1F600 (as in Python).
    equal(
      canon('{"\\ud83d\\ude00": 1, "\\ud83d\ude00": 2, "\ue000": 3}', engine),
      '{"\\ud83d\\ude00":2,"\\ue000":3,"\\ud83d\\ude00":1}',
    );
  });

  Deno.test(`canonicalize() [${e}] escapes strings as ensure_ascii does`, () => {
    equal(
      canon('"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0041 ~"', engine),
      '"\\" \\\\ / \\b \\f \\n \\r \\t A ~"',
    );
    equal(canon('"\u0080\u00ff\u07ff\uffff"', engine), '"\\u0080\\u00ff\\u07ff\\uffff"');
    equal(canon('"\\u00E9\\uABCD"', engine), '"\\u00e9\\uabcd"');
    equal(canon('"😀"', engine), '"\\ud83d\\ude00"');
  });

  Deno.test(`canonicalize() [${e}] keeps integer digits at any size and writes -0 as 0`, () => {
    equal(canon("123456789012345678901234567890", engine), "123456789012345678901234567890");
    equal(canon("-0", engine), "0");
    equal(canon("[0, -0, -1]", engine), "[0,0,-1]");
  });

  Deno.test(`canonicalize() [${e}] writes floats as Python's repr`, () => {
    const cases: [string, string][] = [
      ["1.0", "1.0"],
      ["1e0", "1.0"],
      ["100.0", "100.0"],
      ["0.1", "0.1"],
      ["1e15", "1000000000000000.0"],
      ["9999999999999998.0", "9999999999999998.0"],
      ["1e16", "1e+16"],
      ["0.0001", "0.0001"],
      ["0.00001", "1e-05"],
      ["1.5e-7", "1.5e-07"],
      ["1.5E+300", "1.5e+300"],
      ["-0.0", "-0.0"],
      ["0.0", "0.0"],
      ["-1e-400", "-0.0"],
      ["1e400", "Infinity"],
      ["-1e400", "-Infinity"],
      ["5e-324", "5e-324"],
      ["2.5e-324", "5e-324"],
      ["2.4e-324", "0.0"],
      ["1.7976931348623157e308", "1.7976931348623157e+308"],
      ["0.30000000000000004", "0.30000000000000004"],
      ["123456789012345678.0", "1.2345678901234568e+17"],
      ["1.00000000000000011102230246251565404236316680908203125", "1.0"],
      ["1.00000000000000011102230246251565404236316680908203126", "1.0000000000000002"],
    ];
    for (const [lexeme, want] of cases) equal(canon(lexeme, engine), want, lexeme);
  });

  Deno.test(`canonicalize() [${e}] keeps 1 and 1.0, and true and 1, distinct`, () => {
    equal(canon("[1, 1.0, true, 1e0]", engine), "[1,1.0,true,1.0]");
    const a = parseToolCall('{"name":"f","arguments":{"x":1}}', { engine });
    const b = parseToolCall('{"name":"f","arguments":{"x":1.0}}', { engine });
    equal(a.canonicalArguments === b.canonicalArguments, false);
  });

  Deno.test(`canonicalize() [${e}] writes no whitespace`, () => {
    equal(
      canon('{ "a" : [ 1 , { "b" : null } ] , "c" : "x y" }', engine),
      '{"a":[1,{"b":null}],"c":"x y"}',
    );
  });

  Deno.test(`flattenArguments() [${e}] keeps surrogate-split keys apart though their paths print alike`, () => {
    // docs/engine.md, known issues: U+1F600 and (escaped U+D83D, raw U+DE00) are two keys.
    const text = '{"\\ud83d\\ude00": 1, "\\ud83d\ude00": 2}';
    deepEqual(flattenArguments(text, { engine }), {
      ok: true,
      pairs: [
        { path: '["\\ud83d\\ude00"]', value: "2" },
        { path: '["\\ud83d\\ude00"]', value: "1" },
      ],
    });
    const call = parseToolCall(`{"name": "f", "arguments": ${text}}`, { engine });
    equal(call.canonicalArguments, '{"\\ud83d\\ude00":2,"\\ud83d\\ude00":1}');
    deepEqual(call.arguments, { "\ud83d\ude00": 1 });
  });

  Deno.test(`parseToolCall() [${e}] materialises big integers lossily but keeps them exact in canonical text`, () => {
    const call = parseToolCall(
      '{"name": "f", "arguments": {"n": 123456789012345678901, "x": 1.0}}',
      {
        engine,
      },
    );
    equal(call.canonicalArguments, '{"n":123456789012345678901,"x":1.0}');
    deepEqual(call.arguments, { n: 123456789012345680000, x: 1 });
  });

  Deno.test(`flattenArguments() [${e}] keeps a key "a.b" apart from the path a, b`, () => {
    const r = flattenArguments('{"a.b": 1, "a": {"b": 1}}', { engine });
    deepEqual(r, {
      ok: true,
      pairs: [{ path: '["a","b"]', value: "1" }, { path: '["a.b"]', value: "1" }],
    });
  });

  Deno.test(`flattenArguments() [${e}] makes leaves of scalars, {} and []`, () => {
    const r = flattenArguments(
      '{"city": "Paris", "filters": {"max_price": 120, "tags": ["romantic", "quiet"]}, "options": {}, "l": []}',
      { engine },
    );
    deepEqual(r.ok && r.pairs.map((p) => [formatPath(p.path), p.value]), [
      ["city", '"Paris"'],
      ["filters.max_price", "120"],
      ["filters.tags[0]", '"romantic"'],
      ["filters.tags[1]", '"quiet"'],
      ["l", "[]"],
      ["options", "{}"],
    ]);
  });

  Deno.test(`flattenArguments() [${e}] gives an empty object the single pair (<root>, {})`, () => {
    deepEqual(flattenArguments("{}", { engine }), {
      ok: true,
      pairs: [{ path: "[]", value: "{}" }],
    });
    deepEqual(flattenArguments(" 1.50 ", { engine }), {
      ok: true,
      pairs: [{ path: "[]", value: "1.5" }],
    });
    const r = parseToolCall('{"name":"f","arguments":{}}', { engine, pairs: true });
    deepEqual(r.pairs, [{ path: "[]", value: "{}" }]);
  });

  Deno.test(`flattenArguments() [${e}] serializes leaves canonically and collapses duplicate keys`, () => {
    const r = flattenArguments('{"x": 1E2, "s": "\u00e9", "x": [true, null, -0]}', { engine });
    deepEqual(r, {
      ok: true,
      pairs: [
        { path: '["s"]', value: '"\\u00e9"' },
        { path: '["x",0]', value: "true" },
        { path: '["x",1]', value: "null" },
        { path: '["x",2]', value: "0" },
      ],
    });
  });
}

Deno.test("formatPath() writes keys with dots, indices in brackets and <root>", () => {
  equal(formatPath("[]"), "<root>");
  equal(formatPath('["city"]'), "city");
  equal(formatPath('["filters","tags",0]'), "filters.tags[0]");
  equal(formatPath('[0,"a",1,2]'), "[0].a[1][2]");
  equal(formatPath('[""]'), "");
});

Deno.test("formatPath() refuses what is not a JSON array of keys and indices, JSON.parse's error as the cause", () => {
  for (
    const path of ['"ab"', "{}", "null", "5", "[1.5]", "[true]", "[[0]]", '["a",null]', "x", ""]
  ) {
    const e = (() => {
      try {
        return formatPath(path);
      } catch (e) {
        return e as Error;
      }
    })();
    ok(e instanceof TypeError, `${path}: ${e}`);
    equal(e.message, `Not a path: ${path}`);
    equal(e.cause instanceof SyntaxError, path === "x" || path === "", path);
  }
});

Deno.test("canonicalFloat() reads exactly the JSON number literals the engines read, on seeded random strings", () => {
  const rng = makeRng(20261207);
  const alphabet = "-+.eE0123456789 x";
  let accepted = 0;
  for (let i = 0; i < 20_000; i++) {
    const text = Array.from({ length: 1 + rng.int(8) }, () => alphabet[rng.int(alphabet.length)])
      .join("");
    let mine: string | undefined;
    try {
      mine = canonicalFloat(text);
    } catch (e) {
      ok(e instanceof RangeError && e.message === `Not a JSON number: ${text}`, text);
    }
    for (const engine of ENGINES) {
      // A number alone, with nothing around it (the engines skip whitespace around a value).
      const r = /^\s|\s$/.test(text) ? undefined : canonicalize(text, { engine });
      const number = r?.ok && /^-?(\d|Infinity)/.test(r.canonical) ? r.canonical : undefined;
      equal(mine !== undefined, number !== undefined, `${text} (${engine.name})`);
      // A float is the engines' canonical form; an integer is its float's.
      if (mine !== undefined && /[.eE]/.test(text)) equal(mine, number, text);
      // (An integer's float keeps its sign: "-0" is -0.0, which the engines write as the integer 0.)
      const float = text.startsWith("-") && number === "0" ? "-0.0" : `${number}.0`;
      if (mine !== undefined && !/[.eE]/.test(text)) equal(mine, float, text);
    }
    if (mine !== undefined) accepted++;
  }
  ok(accepted > 1000, String(accepted));
});

Deno.test("a text that is not a string is a TypeError naming its index in a batch, and none for one text", () => {
  const one = /^TypeError: Expected a string, got number$/;
  throws(() => canonicalize(42 as unknown as string), one);
  throws(() => parseToolCall(42 as unknown as string), one);
  throws(() => extractSpan(42 as unknown as string), one);
  throws(() => flattenArguments(42 as unknown as string), one);
  throws(
    () => canonicalizeBatch(["1", null as unknown as string]),
    /^TypeError: Expected a string at index 1, got object$/,
  );
});
