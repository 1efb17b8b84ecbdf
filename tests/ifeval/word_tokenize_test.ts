import { treebankTokenize, wordRuns, wordTokenize } from "../../src/ifeval/mod.ts";
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { fixtureRows, responses, type TokenizerReference } from "./_fixtures.ts";

const same = (a: string[], b: string[]) => JSON.stringify(a) === JSON.stringify(b);

Deno.test("wordTokenize() and wordRuns() give nltk 3.8's tokens for all 541 GPT-4 responses", async () => {
  const texts = await responses();
  const refs = await fixtureRows<TokenizerReference>("tokenizer_reference_gpt4.jsonl.gz");
  let treebank = 0, runs = 0;
  texts.forEach((t, i) => {
    if (same(wordTokenize(t), refs[i]!.word_tokenize)) treebank++;
    if (same(wordRuns(t), refs[i]!.words_w)) runs++;
  });
  assertEquals({ treebank, runs }, { treebank: 541, runs: 541 });
});

Deno.test("treebankTokenize() splits quotes, contractions and punctuation as nltk does", () => {
  const cases: [string, string[]][] = [
    ['"Hi," she said.', ["``", "Hi", ",", "''", "she", "said", "."]],
    ["I cannot; won't.", ["I", "can", "not", ";", "wo", "n't", "."]],
    ["Cost: $5,000 -- maybe.", ["Cost", ":", "$", "5,000", "--", "maybe", "."]],
    ["'Tis fine", ["'T", "is", "fine"]],
    ["gimme that", ["gim", "me", "that"]],
    ["U.S.A. is big.", ["U.S.A.", "is", "big", "."]],
    ["a*b [c] {d} <e>", ["a", "*", "b", "[", "c", "]", "{", "d", "}", "<", "e", ">"]],
    ["“Quoted” text…", ["“", "Quoted", "”", "text…"]],
  ];
  for (const [text, want] of cases) assertEquals(treebankTokenize(text), want, text);
});

Deno.test("wordRuns() uses Python's Unicode \\w: combining marks end a word", () => {
  // U+093F (DEVANAGARI VOWEL SIGN I) is a mark (Mc): Python's \w does not match it.
  assertEquals(wordRuns("हिंदी"), ["ह", "द"]);
  assertEquals(wordRuns("naïve x_1 ²"), ["naïve", "x_1", "²"]);
  strictEqual(wordRuns("").length, 0);
});
