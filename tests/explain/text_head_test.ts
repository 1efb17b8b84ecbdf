// textHead, the one cut of a long text for display: never inside a surrogate pair, a combining
// sequence, an emoji sequence, a Hangul syllable in jamo nor an Indic conjunct, in the output a
// detail keeps, in `assay show`'s long calls and values, and in the gate's Markdown ids
// (tests/gate/markdown_budget_test.ts); tests/jsonl/quote_test.ts has its other users. The seeded
// test's oracle is the host's grapheme segmenter (Intl.Segmenter), on characters whose clusters
// textHead's rules cover.
import { ok, strictEqual } from "node:assert/strict";
import { scoreToolCalls } from "../../mod.ts";
import {
  DETAIL_OUTPUT_CHARS,
  explainScore,
  formatExample,
  textHead,
} from "../../src/explain/mod.ts";
import { makeRng } from "../_corpus.ts";

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Whether cutting `text` at `end` parts a grapheme cluster (Intl.Segmenter's). */
const splits = (text: string, end: number) =>
  end > 0 && end < text.length &&
  ![...segmenter.segment(text)].some((s) => s.index === end);

Deno.test("textHead() leaves a letter and its marks, a surrogate pair or an emoji sequence out whole", () => {
  const cases: [text: string, max: number, head: string][] = [
    ["abc", 3, "abc"],
    ["abc", 2, "ab"],
    ["ab😀", 3, "ab"],
    ["ab😀", 4, "ab😀"],
    // é as e + U+0301, and with a second mark (U+0323): the e goes with its marks.
    ["cafe\u0301", 4, "caf"],
    ["cafe\u0301\u0323x", 5, "caf"],
    ["cafe\u0301\u0323x", 6, "cafe\u0301\u0323"],
    // An emoji and its variation selector (U+FE0F, a mark), and an astral mark after a letter.
    ["a❤\ufe0f", 2, "a"],
    ["ab\u{1d165}c", 3, "a"],
    // An enclosing mark (Me) after a digit: 1⃣.
    ["x1\u20e3", 2, "x"],
    // A lone surrogate the text has is kept, and a mark after it goes with it.
    ["a\ud83dy", 2, "a\ud83d"],
    ["a\ud83d\u0301", 2, "a"],
    // A skin tone, a zero-width-joined sequence, flags and a tag sequence go whole.
    ["a👍🏽", 3, "a"],
    ["a👩\u200d💻", 4, "a"],
    ["a👩\u200d💻", 3, "a"],
    ["🇫🇷🇩🇪", 6, "🇫🇷"],
    ["🇫🇷🇩🇪", 4, "🇫🇷"],
    ["a🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", 9, "a"],
    ["", 0, ""],
    ["\u0301\u0301", 1, ""],
  ];
  for (const [text, max, head] of cases) {
    strictEqual(textHead(text, max), head, JSON.stringify(text));
  }
});

Deno.test("textHead() on seeded texts of marks, emoji and letters: a start, never split, never longer", () => {
  // Lone surrogates are left out: the segmenter parts a mark from one, textHead keeps them together.
  const rng = makeRng(2718);
  const pool = [
    "a",
    "e",
    "\u0301",
    "\u0323",
    "\u20dd",
    "😀",
    "👩\u200d👩\u200d👧",
    "❤\ufe0f",
    "日",
    "|",
    "\u{1d165}",
    "👍🏽",
    "👩\u200d💻",
    "🇫",
    "🇫🇷",
    "\u200d",
    "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
    // Hangul jamo (leading, vowel, trailing; old-Hangul extensions) and syllables (LV, LVT).
    "\u1100",
    "\u1161",
    "\u11a8",
    "\ua960",
    "\ud7b0",
    "\ud7cb",
    "가",
    "각",
    // Indic consonants (Devanagari, Bengali, Gujarati, Oriya, Telugu, Malayalam, Tamil), viramas,
    // a nukta, a vowel sign and a zero-width joiner.
    "क",
    "ष",
    "\u094d",
    "\u093c",
    "ি",
    "ক",
    "\u09cd",
    "\u0acd",
    "ક",
    "ଷ",
    "\u0b4d",
    "త",
    "\u0c4d",
    "മ",
    "\u0d4d",
    "த",
    "\u0bcd",
  ];
  for (let t = 0; t < 500; t++) {
    let text = "";
    const n = rng.int(40);
    for (let i = 0; i < n; i++) text += pool[rng.int(pool.length)];
    const max = rng.int(text.length + 3);
    const head = textHead(text, max);
    ok(text.startsWith(head), JSON.stringify([text, max]));
    ok(head.length <= max || head === text, JSON.stringify([text, max]));
    ok(!splits(text, head.length), JSON.stringify([text, max, head]));
    // The longest such start: one unit more would split a character, or pass max.
    if (head !== text) {
      for (let k = head.length + 1; k <= max; k++) {
        ok(splits(text, k), JSON.stringify([text, max, k]));
      }
    }
  }
});

Deno.test("a detail's output and assay show's long value are cut before a letter and its combining marks", () => {
  const n = DETAIL_OUTPUT_CHARS;
  // é (e + U+0301) at units n-1 and n: the e was kept and its accent cut off, an e where é was.
  const output = "x".repeat(n - 1) + "e\u0301 tail";
  const long = "y".repeat(n - 2) + "e\u0301\u0301" + "z".repeat(100);
  const [record] = scoreToolCalls(
    [{ example_id: "a", language: "en", target: { name: "f", arguments: { a: 1 } } }],
    [{ example_id: "a", output }],
    { detail: explainScore() },
  ).records;
  strictEqual(record!.detail!.output.text, "x".repeat(n - 1));
  strictEqual(record!.detail!.output.length, output.length);
  const [other] = scoreToolCalls(
    [{ example_id: "b", language: "en", target: { name: "f", arguments: { a: 1 } } }],
    [{ example_id: "b", output: JSON.stringify({ name: "f", arguments: { a: long } }) }],
    { detail: explainScore() },
  ).records;
  const line = formatExample(other!).split("\n").find((l) => l.startsWith("  different:"))!;
  // The value "yyy…é́zzz" is cut before its e, never between it and its marks.
  ok(line.includes(`predicted "${"y".repeat(n - 2)} … (`), line.slice(-80));
});
