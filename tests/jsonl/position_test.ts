// textPosition (src/jsonl/source/position.ts): an offset's line and column, against the plainest
// reading (the text before it split at "\n") on seeded random texts of line breaks, CRLF,
// non-ASCII and astral characters.
import { deepStrictEqual } from "node:assert/strict";
import { textPosition } from "../../src/jsonl/source/mod.ts";
import { makeRng } from "../_corpus.ts";

Deno.test("textPosition gives the line and column the text before the offset ends at", () => {
  const rng = makeRng(7261207);
  const pieces = ["a", "{", " ", "\n", "\r\n", "é", "\u{1F600}", "\n\n", '"x"'];
  for (let i = 0; i < 2000; i++) {
    const text = Array.from({ length: rng.int(30) }, () => pieces[rng.int(pieces.length)]).join("");
    const offset = rng.int(text.length + 1);
    const before = text.slice(0, offset).split("\n");
    deepStrictEqual(textPosition(text, offset), {
      line: before.length,
      column: before.at(-1)!.length + 1,
    }, JSON.stringify([text, offset]));
  }
  deepStrictEqual(textPosition("", 0), { line: 1, column: 1 });
  deepStrictEqual(textPosition("\n", 0), { line: 1, column: 1 });
  deepStrictEqual(textPosition("\n", 1), { line: 2, column: 1 });
});
