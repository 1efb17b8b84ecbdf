// The cuts textHead makes for its users that add an ellipsis: quote(), the text an error message
// shows of a bad line (a JSON string of its start, so that a message never shows half an emoji as
// a lone surrogate's escape), and the HTML report's chart labels (clip, which counts characters,
// not code units). On seeded texts, the oracle is the host's grapheme segmenter (Intl.Segmenter),
// as in tests/explain/text_head_test.ts.
import { ok, strictEqual } from "node:assert/strict";
import { quote, textHead } from "../../src/jsonl/mod.ts";
import { clip } from "../../src/report/_html_text.ts";
import { makeRng } from "../_corpus.ts";

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

Deno.test("quote() cuts a long line before a character it would part", () => {
  strictEqual(quote("abc", 3), '"abc"');
  strictEqual(quote("abcd", 3), '"abc…"');
  strictEqual(quote("ab😀cd", 3), '"ab…"');
  strictEqual(quote("ab😀cd", 4), '"ab😀…"');
  strictEqual(quote("abe\u0301x", 3), '"ab…"');
  strictEqual(quote('{"a": "🇫🇷🇫🇷"}', 10), '"{\\"a\\": \\"…"');
  strictEqual(quote('{"a": "🇫🇷🇫🇷"}', 13), '"{\\"a\\": \\"🇫🇷…"');
  strictEqual(quote("x".repeat(79) + "😀"), JSON.stringify("x".repeat(79) + "…"));
});

Deno.test("clip() cuts a label before a letter's marks and inside no emoji sequence", () => {
  strictEqual(clip("abc", 3), "abc");
  strictEqual(clip("abcd", 3), "ab\u2026");
  strictEqual(clip("ae\u0301\u0323x", 3), "a\u2026");
  strictEqual(clip("a😀bc", 3), "a😀\u2026");
  strictEqual(clip("ab👩\u200d💻c", 4), "ab\u2026");
  strictEqual(clip("ab👩\u200d💻c", 5), "ab\u2026");
  strictEqual(clip("ab👩\u200d💻cd", 6), "ab👩\u200d💻\u2026");
});

Deno.test("quote() and clip() on seeded texts: a start and an ellipsis, at a grapheme boundary", () => {
  const rng = makeRng(8080);
  const pool = [
    "a",
    '"',
    "\\",
    "é",
    "e\u0301",
    "\u0323",
    "😀",
    "👩\u200d💻",
    "🇫🇷",
    "日",
    "ש",
    "\u20dd",
  ];
  for (let t = 0; t < 1000; t++) {
    let s = "";
    for (let i = rng.int(40); i > 0; i--) s += pool[rng.int(pool.length)];
    const n = 1 + rng.int(30);
    const ends = new Set([...segmenter.segment(s)].map((g) => g.index));
    const where = JSON.stringify([s, n]);
    // quote: at most n code units, as textHead cuts them, and never a lone surrogate's escape.
    const q = quote(s, n);
    ok(!/\\ud[89a-f]/i.test(q), where);
    const quoted = JSON.parse(q) as string;
    if (s.length <= n) strictEqual(quoted, s, where);
    else {
      strictEqual(quoted, textHead(s, n) + "\u2026", where);
      ok(ends.has(quoted.length - 1) || quoted.length === 1, where);
    }
    // clip: at most n - 1 characters and an ellipsis, when the label has more than n.
    const c = clip(s, n);
    if (Array.from(s).length <= n) strictEqual(c, s, where);
    else {
      ok(c.endsWith("\u2026"), where);
      const head = c.slice(0, -1);
      ok(s.startsWith(head) && Array.from(head).length <= n - 1, where);
      ok(head.length === 0 || ends.has(head.length), where);
    }
  }
});
