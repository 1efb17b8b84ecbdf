// The `decoder` option of scoreStructuredJsonl must be a call decoder from getDecoder(name): a
// name, or forScoring()'s decoder (the one scoreJsonl takes), is a TypeError naming the option and
// what it needs, and not a StructuredInputError blamed on the first row.
import { rejects } from "node:assert/strict";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";
import { forScoring, getDecoder } from "../../src/formats/mod.ts";

const enc = new TextEncoder();
const outputs = enc.encode('{"id": "q1", "output": "x"}\n');
const expected = enc.encode('{"id": "q1", "tool_calls": []}\n');
const names = { outputs: "o.jsonl" };

Deno.test("scoreStructuredJsonl: a decoder that is not getDecoder's is a TypeError naming the option", async () => {
  const wrong: [unknown, string][] = [
    ["hermes", "a string"],
    [forScoring("hermes"), 'a scoring decoder from forScoring(); pass getDecoder("hermes")'],
    [forScoring("sommelier"), "a scoring decoder from forScoring(); pass getDecoder(name)"],
    [null, "null"],
    [0, "a number"],
    [{ id: "x" }, "an object"],
  ];
  for (const [decoder, got] of wrong) {
    await rejects(
      scoreStructuredJsonl({ outputs, expected }, { decoder: decoder as never, names }),
      {
        name: "TypeError",
        message: `decoder must be a call decoder from getDecoder(name), got ${got}`,
      },
    );
  }
  // getDecoder's decoder is taken.
  await scoreStructuredJsonl({ outputs, expected }, { decoder: getDecoder("hermes"), names });
});
