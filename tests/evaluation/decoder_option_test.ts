// The `decoder` option of scoreJsonl, scoreToolCalls and ToolCallScorer must be a scoring
// decoder from forScoring(name): a name, or getDecoder()'s decoder (the one
// scoreStructuredJsonl takes), is a TypeError naming the option and what it needs, before any
// row is read, and not a TypeError from inside nor an error blamed on a row.
import { rejects, strictEqual, throws } from "node:assert/strict";
import { createEngine, scoreJsonl, scoreToolCalls, ToolCallScorer } from "../../mod.ts";
import { forScoring, getDecoder } from "../../src/formats/mod.ts";

const enc = new TextEncoder();
const examples = enc.encode(
  '{"example_id": "q1", "language": "en", "target": {"name": "f", "arguments": {}}}\n',
);
const generations = enc.encode(
  `{"example_id": "q1", "prompt_sha256": "${"0".repeat(64)}", "output": "{}"}\n`,
);
const NEEDS = "decoder must be a scoring decoder from forScoring(name), got ";
const WRONG: [unknown, string][] = [
  ["hermes", "a string"],
  [getDecoder("hermes"), 'a decoder from getDecoder(); pass forScoring("hermes")'],
  [getDecoder("sommelier"), 'a decoder from getDecoder(); pass forScoring("sommelier")'],
  [null, "null"],
  [0, "a number"],
  ["", "a string"],
  [false, "a boolean"],
  [{ id: "x", statuses: ["ok"] }, "an object"],
];

Deno.test("scoreJsonl: a decoder that is not forScoring's is a TypeError naming the option", async () => {
  for (const engine of [createEngine({ engine: "wasm" }), createEngine({ engine: "ts" })]) {
    for (const [decoder, got] of WRONG) {
      let read = 0;
      await rejects(
        scoreJsonl({ examples, generations }, {
          engine,
          decoder: decoder as never,
          onProgress: () => read++,
        }),
        { name: "TypeError", message: NEEDS + got },
      );
      strictEqual(read, 0, "no source is read");
    }
    // forScoring's decoder is taken.
    await scoreJsonl({ examples, generations }, { engine, decoder: forScoring("hermes") });
  }
});

Deno.test("scoreToolCalls and ToolCallScorer: the same check of the decoder option", () => {
  const ex = [{ example_id: "q1", language: "en", target: { name: "f", arguments: {} } }];
  const gen = [{ example_id: "q1", output: "{}" }];
  for (const [decoder, got] of WRONG) {
    const message = NEEDS + got;
    throws(() => scoreToolCalls(ex, gen, { decoder: decoder as never }), {
      name: "TypeError",
      message,
    });
    throws(() => new ToolCallScorer({ decoder: decoder as never }), { name: "TypeError", message });
  }
  scoreToolCalls(ex, gen, { decoder: forScoring("hermes") });
});
