// forScoring() through scoreJsonl: a decoder's statuses and reasons in the records, the single-call
// contract, numbers by value, and sommelier's report equal to the default's byte for byte.
import { deepStrictEqual as assertEquals, strictEqual, throws } from "node:assert/strict";
import { createEngine } from "../../src/engine/mod.ts";
import { scoreJsonl } from "../../src/evaluation/mod.ts";
import { forScoring } from "../../src/formats/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";

const enc = new TextEncoder();
const jsonl = (rows: unknown[]) => enc.encode(rows.map((r) => JSON.stringify(r) + "\n").join(""));
const sha = "0".repeat(64);

/** Examples whose targets are given as JSON text, so that 150.0 stays a float. */
function examples(targets: string[]): Uint8Array {
  return enc.encode(
    targets.map((t, i) => `{"example_id": "${i}", "language": "en", "target": ${t}}\n`).join(""),
  );
}
const generations = (outputs: string[]) =>
  jsonl(outputs.map((output, i) => ({ example_id: `${i}`, prompt_sha256: sha, output })));

const chat = (...calls: [string, string][]) =>
  JSON.stringify({
    role: "assistant",
    content: null,
    tool_calls: calls.map(([name, args], i) => ({
      id: `call_${i}`,
      type: "function",
      function: { name, arguments: args },
    })),
  });

Deno.test("forScoring() scores one call per output and words every other status", async () => {
  const target = '{"name": "pay", "arguments": {"amount": 150.0, "to": "ada"}}';
  const outputs = [
    chat(["pay", '{"amount": 150.0, "to": "ada"}']),
    chat(["pay", '{"amount": 150, "to": "ada"}']),
    chat(["pay", '{"amount": 150.0, "to": "ada"}'], ["pay", '{"amount": 1, "to": "bob"}']),
    JSON.stringify({ role: "assistant", content: "Done." }),
    '{"role": "assistant", "tool_calls": [',
  ];
  for (const engine of ["ts", "wasm"] as const) {
    const { report } = await scoreJsonl({
      examples: examples(outputs.map(() => target)),
      generations: generations(outputs),
    }, { engine: createEngine({ engine }), decoder: forScoring("openai-chat") });
    strictEqual(report.parser_id, "openai-chat@3");
    strictEqual(report.numbers, undefined);
    assertEquals(
      report.records.map((r) => [r.status, r.reason, r.name_match, r.arguments_match]),
      [
        ["ok", undefined, true, true],
        ["ok", undefined, true, false],
        [
          "multiple_calls",
          "the output holds 2 calls (pay, pay); a score takes one",
          false,
          false,
        ],
        ["no_call", "the output holds no call", false, false],
        ["invalid_json", "the output is not JSON: expecting_value at 37", false, false],
      ],
    );
    assertEquals(report.parse_status_counts, {
      ok: 2,
      no_json: 0,
      invalid_json: 1,
      invalid_shape: 0,
      invalid_syntax: 0,
      no_call: 1,
      multiple_calls: 1,
    });
    // In the order docs/evaluation.md gives: the parser's four first, as a v1 report has them.
    assertEquals(Object.keys(report.parse_status_counts), [
      "ok",
      "no_json",
      "invalid_json",
      "invalid_shape",
      "invalid_syntax",
      "no_call",
      "multiple_calls",
    ]);
    // multiple_calls is not valid: it adds nothing to any metric's numerator.
    const m = report.metrics.overall;
    assertEquals([m.valid_json_rate.numerator, m.valid_json_rate.denominator], [2, 5]);
    assertEquals([m.function_name_accuracy.numerator, m.full_call_exact_match.numerator], [2, 1]);
  }
});

Deno.test("forScoring() with numbers numeric compares numbers by exact value", async () => {
  const targets = [
    '{"name": "f", "arguments": {"n": 150}}',
    '{"name": "f", "arguments": {"n": 100}}',
    '{"name": "f", "arguments": {"n": 12345678901234567890123}}',
    '{"name": "f", "arguments": {"n": 0.1, "s": "1.0"}}',
  ];
  const outputs = [
    '{"name": "f", "arguments": {"n": 150.0}}',
    '{"name": "f", "arguments": {"n": 1e2}}',
    '{"name": "f", "arguments": {"n": 1.2345678901234568e+22}}',
    '{"name": "f", "arguments": {"n": 1e-1, "s": "1"}}',
  ];
  const run = (numbers: "exact" | "numeric") =>
    scoreJsonl({ examples: examples(targets), generations: generations(outputs) }, {
      decoder: forScoring("sommelier", { numbers }),
    });
  const numeric = (await run("numeric")).report;
  strictEqual(numeric.numbers, "numeric");
  strictEqual(numeric.parser_id, "assay.parser.v1");
  // 150 = 150.0 and 100 = 1e2; a float is not the big integer it rounds from; strings stay text.
  assertEquals(numeric.records.map((r) => r.arguments_match), [true, true, false, false]);
  assertEquals(numeric.records.map((r) => r.matched_pairs), [1, 1, 0, 1]);
  const exact = (await run("exact")).report;
  strictEqual(exact.numbers, undefined);
  assertEquals(exact.records.map((r) => r.arguments_match), [false, false, false, false]);
});

Deno.test("forScoring() numeric: numbers whose value form is not canonical text match as pairs", async () => {
  // The value form of 7.25e-06 is 0.00000725, of 1e+21 1000000000000000000000: text that canonical
  // form would write back the other way. The gold's pairs are in value form like the prediction's,
  // whatever the container, so every pair matches.
  const args = [
    '{"t": 7.25e-06}',
    '{"t": [1e+21, {"u": 2.5e-07}], "v": 150}',
    '{"a": {"b": {"c": 1.0e-7}}, "d": [0.1, 3e-5]}',
  ];
  const predicted = [
    '{"t": 0.00000725}',
    '{"v": 150.0, "t": [1000000000000000000000, {"u": 25e-8}]}',
    '{"d": [1e-1, 0.00003], "a": {"b": {"c": 1e-7}}}',
  ];
  for (const engine of ["wasm", "ts"] as const) {
    const { report } = await scoreJsonl({
      examples: examples(args.map((a) => `{"name": "f", "arguments": ${a}}`)),
      generations: generations(predicted.map((a) => chat(["f", a]))),
    }, {
      decoder: forScoring("openai-chat", { numbers: "numeric" }),
      engine: createEngine({ engine }),
    });
    assertEquals(report.records.map((r) => r.arguments_match), [true, true, true], engine);
    assertEquals(report.records.map((r) => [r.matched_pairs, r.gold_pairs]), [[1, 1], [3, 3], [
      3,
      3,
    ]]);
  }
});

Deno.test("forScoring() of sommelier gives the default report byte for byte", async () => {
  const sources = () => ({
    examples: examples([
      '{"name": "f", "arguments": {"x": 1.0}}',
      '{"name": "g", "arguments": {}}',
    ]),
    generations: generations(['Sure: {"name": "f", "arguments": {"x": 1}}', "no call"]),
  });
  const plain = await scoreJsonl(sources());
  const decoded = await scoreJsonl(sources(), { decoder: forScoring("sommelier") });
  strictEqual(new TextDecoder().decode(decoded.bytes), new TextDecoder().decode(plain.bytes));
});

Deno.test("forScoring() refuses an unknown decoder or numbers option", () => {
  throws(() => forScoring("llama"), /Unknown decoder "llama"/);
  throws(() => forScoring("hermes", { numbers: "loose" as "exact" }), RangeError);
});

Deno.test("forScoring refuses options that are not an object, instead of comparing numbers exactly in silence", async () => {
  // forScoring("hermes", "numeric") read `"numeric".numbers`, undefined: exact, and 150.0 ≠ 150.
  for (const [options, type] of [["numeric", "string"], [null, "null"], [1, "number"]] as const) {
    throws(() => forScoring("hermes", options as never), {
      name: "TypeError",
      message: `Expected an object of options, or none, got ${type}`,
    });
  }
  const sources = {
    examples: examples(['{"name": "f", "arguments": {"x": 150}}']),
    generations: generations(['<tool_call>{"name": "f", "arguments": {"x": 150.0}}</tool_call>']),
  };
  const { report } = await scoreJsonl(sources, {
    decoder: forScoring("hermes", { numbers: "numeric" }),
  });
  strictEqual(report.metrics.overall.full_call_exact_match.value, 1);
});

// ------------------------------------------------------------------ outputs as JSON values

/** A seeded argument value, written as JSON text that keeps its lexemes (1.0, big integers). */
function argumentText(rng: Rng, depth = 0): string {
  const pick = rng.int(depth > 1 ? 6 : 8);
  if (pick === 0) return rng.pick(["1.0", "1", "-0.0", "1e22", "5e-324", "0.30000000000000004"]);
  if (pick === 1) return rng.pick(["123456789012345678901234567890", "150", "-7"]);
  if (pick === 2) return rng.pick(['"Zürich"', '"\\u6771\\u4eac"', '"a\\"b"', '"🎄"', '""']);
  if (pick === 3) return rng.pick(["true", "false", "null"]);
  if (pick === 4) return rng.pick(['"x"', '"2025-03-20"']);
  if (pick === 5) return "150.0";
  if (pick === 6) {
    return `[${Array.from({ length: rng.int(3) }, () => argumentText(rng, depth + 1)).join(", ")}]`;
  }
  return objectText(rng, depth + 1);
}

function objectText(rng: Rng, depth = 0): string {
  const keys = ["city", "amount", "ké", "東京", "x", "a b", "n"];
  const members = Array.from(
    { length: rng.int(4) },
    () => `"${rng.pick(keys)}": ${argumentText(rng, depth)}`,
  );
  return `{${members.join(rng.pick([", ", ","]))}}`;
}

/**
 * A whole output of each JSON decoder, with the arguments as written in `args` (an object text):
 * the response, message, items or blocks it reads.
 */
const WHOLE_OUTPUTS: Record<string, (name: string, args: string, rng: Rng) => string> = {
  "openai-chat": (name, args, rng) => {
    const message = `{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", ` +
      `"type": "function", "function": {"name": ${JSON.stringify(name)}, "arguments": ${
        JSON.stringify(args)
      }}}]}`;
    return rng.int(2)
      ? message
      : `{"object": "chat.completion", "choices": [{"index": 0, "message": ${message}, ` +
        `"finish_reason": "tool_calls"}], "usage": {"total_tokens": 12.0}}`;
  },
  "openai-responses": (name, args, rng) =>
    `[${rng.int(2) ? '{"type": "reasoning", "id": "rs_1", "summary": []}, ' : ""}` +
    `{"type": "function_call", "call_id": "c1", "name": ${JSON.stringify(name)}, "arguments": ${
      JSON.stringify(args)
    }}]`,
  anthropic: (name, args, rng) =>
    `{"type": "message", "role": "assistant", "content": [` +
    `${rng.int(2) ? '{"type": "text", "text": "Let me check."}, ' : ""}` +
    `{"type": "tool_use", "id": "toolu_1", "name": ${JSON.stringify(name)}, "input": ${args}}]}`,
  "json-list": (name, args) => `[{"name": ${JSON.stringify(name)}, "arguments": ${args}}]`,
  sommelier: (name, args) => `{"arguments": ${args}, "name": ${JSON.stringify(name)}}`,
};

Deno.test("an output written as a JSON value scores as its JSON text does, under every JSON decoder and engine", async () => {
  const rng = makeRng(20261207);
  for (const [format, whole] of Object.entries(WHOLE_OUTPUTS)) {
    const targets: string[] = [];
    const outputs: string[] = [];
    for (let i = 0; i < 300; i++) {
      const name = rng.pick(["pay", "get_weather"]);
      targets.push(
        `{"name": "${rng.pick(["pay", "get_weather"])}", "arguments": ${objectText(rng)}}`,
      );
      // As written (1.0 and big integers kept), or pretty-printed or compacted by a logger.
      const text = whole(name, objectText(rng), rng);
      const spacing = rng.int(3);
      outputs.push(
        spacing === 0 ? text : JSON.stringify(JSON.parse(text), null, spacing === 1 ? 2 : 0),
      );
    }
    const line = (i: number, output: string) =>
      `{"example_id": "${i}", "prompt_sha256": "${sha}", "output": ${output}}\n`;
    const strings = enc.encode(outputs.map((o, i) => line(i, JSON.stringify(o))).join(""));
    const values = enc.encode(outputs.map((o, i) => line(i, o.replace(/\n/g, " "))).join(""));
    for (const engine of ["ts", "wasm"] as const) {
      const score = (generations: Uint8Array) =>
        scoreJsonl({ examples: examples(targets), generations }, {
          engine: createEngine({ engine }),
          ...(format === "sommelier" ? {} : { decoder: forScoring(format) }),
        });
      const [a, b] = [await score(strings), await score(values)];
      const { inputs: _a, ...left } = a.report;
      const { inputs: _b, ...right } = b.report;
      assertEquals(right, left, `${format} on ${engine}`);
      strictEqual(a.report.inputs.examples?.sha256, b.report.inputs.examples?.sha256);
      const statuses = new Set(a.report.records.map((r) => r.status));
      strictEqual(statuses.has("ok"), true, `${format}: some outputs score`);
    }
  }
});
