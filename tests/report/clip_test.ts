// The HTML report's label cut (clip): within its length, with an ellipsis, never parting a letter
// from its marks nor a zero-width-joined emoji; on seeded labels, against the host's grapheme
// segmenter.
import { ok, strictEqual } from "node:assert/strict";
import { clip } from "../../src/report/_html_text.ts";
import { makeRng } from "../_corpus.ts";

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

Deno.test("clip() cuts a label before a letter's marks and inside no emoji sequence", () => {
  strictEqual(clip("abc", 3), "abc");
  strictEqual(clip("abcd", 3), "ab\u2026");
  strictEqual(clip("ae\u0301\u0323x", 3), "a\u2026");
  strictEqual(clip("a😀bc", 3), "a😀\u2026");
  strictEqual(clip("ab👩\u200d💻c", 4), "ab\u2026");
  strictEqual(clip("ab👩\u200d💻c", 5), "ab\u2026");
  strictEqual(clip("ab👩\u200d💻cd", 6), "ab👩\u200d💻\u2026");
});

Deno.test("clip() on seeded labels: a start and an ellipsis, at a grapheme boundary", () => {
  const rng = makeRng(4242);
  const pool = ["a", "é", "e\u0301", "\u0323", "😀", "👩\u200d💻", "日", "ש", "\u20dd"];
  for (let t = 0; t < 500; t++) {
    let s = "";
    for (let i = rng.int(30); i > 0; i--) s += pool[rng.int(pool.length)];
    const n = 1 + rng.int(20);
    const c = clip(s, n);
    if (Array.from(s).length <= n) {
      strictEqual(c, s);
      continue;
    }
    ok(c.endsWith("\u2026"), JSON.stringify([s, n, c]));
    const head = c.slice(0, -1);
    ok(s.startsWith(head) && Array.from(head).length <= n - 1, JSON.stringify([s, n, c]));
    const ends = new Set([...segmenter.segment(s)].map((g) => g.index));
    ok(head.length === 0 || ends.has(head.length), JSON.stringify([s, n, c]));
  }
});
