// The general reader reads a generation line whose output is written as a JSON object or array
// from the exact parser's fields alone, without JSON.parse (src/evaluation/_general_reader.ts,
// valueOutputFields). It picks that way by a guess on the line's text; these lines test that the
// guess only picks the way: the rows and the errors are those of the lines read by JSON.parse.
import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { createEngine, scoreJsonl } from "../../mod.ts";
import { forScoring } from "../../src/formats/mod.ts";

const enc = new TextEncoder();
const SHA = "0".repeat(64);
const EXAMPLES = enc.encode(
  ["a", "b", "c"].map((id) =>
    JSON.stringify({
      example_id: id,
      language: "en",
      target: { name: "pay", arguments: { amount: 150.0 } },
    }).replace("150", "150.0") + "\n"
  ).join(""),
);
const CALL = '{"role": "assistant", "tool_calls": [{"type": "function", "function": ' +
  '{"name": "pay", "arguments": "{\\"amount\\": 150.0}"}}]}';
const OTHER = '{"role": "assistant", "tool_calls": [{"type": "function", "function": ' +
  '{"name": "pay", "arguments": "{\\"amount\\": 150}"}}]}';
const ENGINES = [createEngine({ engine: "wasm" }), createEngine({ engine: "ts" })];

const score = (lines: string[], engine = ENGINES[0]!) =>
  scoreJsonl({ examples: EXAMPLES, generations: enc.encode(lines.join("\n") + "\n") }, {
    engine,
    decoder: forScoring("openai-chat"),
  });

Deno.test("a line read from the exact parser's fields gives the row JSON.parse gives", async () => {
  // Each case: generation lines, and the same lines with every output written as its JSON text.
  const cases: [string, string[], string[]][] = [
    [
      "escaped ids and digests, fields in any order, spaced or not",
      [
        `{"example_id": "\\u0061", "prompt_sha256": "${SHA}", "output": ${CALL}}`,
        `{"output" :${OTHER},"prompt_sha256":"${SHA}","example_id":"b"}`,
        `{"prompt_sha256": "\\u0030${SHA.slice(1)}", "output":\t[${CALL}], "example_id": "c"}`,
      ],
      [
        `{"example_id": "a", "prompt_sha256": "${SHA}", "output": ${JSON.stringify(CALL)}}`,
        `{"output": ${JSON.stringify(OTHER)}, "prompt_sha256": "${SHA}", "example_id": "b"}`,
        `{"prompt_sha256": "${SHA}", "output": ${JSON.stringify(`[${CALL}]`)}, "example_id": "c"}`,
      ],
    ],
    [
      "a wrong guess: an inner key named output, the output a string; a repeated output key",
      [
        `{"example_id": "a", "prompt_sha256": "${SHA}", "meta": {"output": {}}, "output": ${
          JSON.stringify(CALL)
        }}`,
        `{"example_id": "b", "prompt_sha256": "${SHA}", "output": ${OTHER}, "output": ${
          JSON.stringify(CALL)
        }}`,
        `{"example_id": "c", "prompt_sha256": "${SHA}", "output": "x", "output": ${CALL}}`,
      ],
      [
        `{"example_id": "a", "prompt_sha256": "${SHA}", "output": ${JSON.stringify(CALL)}}`,
        `{"example_id": "b", "prompt_sha256": "${SHA}", "output": ${JSON.stringify(CALL)}}`,
        `{"example_id": "c", "prompt_sha256": "${SHA}", "output": ${JSON.stringify(CALL)}}`,
      ],
    ],
  ];
  for (const engine of ENGINES) {
    for (const [title, lines, strings] of cases) {
      const [a, b] = [await score(lines, engine), await score(strings, engine)];
      const { inputs: _a, ...left } = a.report;
      const { inputs: _b, ...right } = b.report;
      assertEquals(left, right, `${title} (${engine.name})`);
    }
  }
});

Deno.test("a line the fields do not read is read by JSON.parse, which words its error, in line order", async () => {
  const ok = (id: string) =>
    `{"example_id": "${id}", "prompt_sha256": "${SHA}", "output": ${CALL}}`;
  const cases: [string, string[], RegExp][] = [
    [
      "an id that is not a string",
      [ok("a"), `{"example_id": 2, "prompt_sha256": "${SHA}", "output": ${CALL}}`],
      /^generations:2\b.*example_id/,
    ],
    [
      "no digest",
      [ok("a"), ok("b"), `{"example_id": "c", "output": ${CALL}}`],
      /^generations:3 \(id "c"\): missing field "prompt_sha256"/,
    ],
    [
      "a malformed line guessed, after a malformed line not guessed",
      [`{"example_id": "a", "prompt_sha256": "${SHA}", "output": "x",}`, `${ok("b")} ]`],
      /^generations:1\b.*malformed JSON line/,
    ],
    [
      "a malformed line not guessed, after a malformed line guessed",
      [`${ok("a")} ]`, `{"example_id": "b", "prompt_sha256": "${SHA}", "output": "x",}`],
      /^generations:1\b.*malformed JSON line/,
    ],
  ];
  for (const engine of ENGINES) {
    for (const [title, lines, message] of cases) {
      await rejects(score(lines, engine), (e: Error) => message.test(e.message), title);
    }
  }
});
