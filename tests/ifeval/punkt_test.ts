import { PunktSentenceSplitter, splitSentences } from "../../src/ifeval/mod.ts";
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { fixtureRows, responses, type TokenizerReference } from "./_fixtures.ts";

Deno.test("splitSentences() gives nltk 3.8's Punkt sentences for all 541 GPT-4 responses", async () => {
  const texts = await responses();
  const refs = await fixtureRows<TokenizerReference>("tokenizer_reference_gpt4.jsonl.gz");
  strictEqual(texts.length, 541);
  const differ = texts.filter((t, i) =>
    JSON.stringify(splitSentences(t)) !== JSON.stringify(refs[i]!.sentences)
  );
  strictEqual(differ.length, 0);
});

Deno.test("splitSentences() keeps abbreviations, initials and numbers inside sentences", () => {
  const cases: [string, string[]][] = [
    ["", []],
    ["   ", []],
    ["No period", ["No period"]],
    ["Mr. Smith arrived. He sat.", ["Mr. Smith arrived.", "He sat."]],
    ["It cost $3.50 today. Fine.", ["It cost $3.50 today.", "Fine."]],
    ["J. R. R. Tolkien wrote it. Yes.", ["J. R. R. Tolkien wrote it.", "Yes."]],
    ["Wait... what? Yes!", ["Wait... what?", "Yes!"]],
    ['He said "Stop." Then left.', ['He said "Stop."', "Then left."]],
    ["(One.) Two.", ["(One.)", "Two."]],
    ["Line one.\n\nLine two.", ["Line one.", "Line two."]],
    ["ends with space.   ", ["ends with space."]],
  ];
  for (const [text, want] of cases) assertEquals(splitSentences(text), want, JSON.stringify(text));
});

Deno.test("PunktSentenceSplitter() takes other parameters", () => {
  const bare = new PunktSentenceSplitter({
    abbrev_types: [],
    collocations: [],
    sent_starters: [],
    ortho_context: {},
  });
  assertEquals(bare.split("Mr. Smith arrived."), ["Mr.", "Smith arrived."]);
  assertEquals(new PunktSentenceSplitter().spans("Mr. Smith arrived."), [[0, 18]]);
});
