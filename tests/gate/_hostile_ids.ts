// Seeded hostile failing ids and slices, and a failing verdict of them, for the gate's CI outputs
// (the Markdown summary and the JUnit XML), which must stay within their budget and well-formed.
import { type GateVerdict, MARKDOWN_TEXT_CHARS, type RuleVerdict } from "../../src/gate/mod.ts";
import type { Rng } from "../_corpus.ts";

/**
 * Pieces of hostile ids: Markdown, HTML and XML (a CDATA end, entities, quotes), table pipes, line
 * breaks and other control characters, marks, emoji (a ZWJ sequence), bidi, CJK, a lone surrogate
 * and a noncharacter.
 */
const PIECES = [
  "a",
  "Z9",
  "|",
  "`",
  "``` ",
  "<script>alert(1)</script>",
  "\n",
  "\r\n",
  "e\u0301",
  "a\u0301\u0323",
  "👩\u200d👩\u200d👧",
  "😀",
  "❤\ufe0f",
  "\u202e",
  "[x](http://e.vil)",
  "**",
  "_",
  "# ",
  "日本語",
  "&amp;",
  "\\",
  ", ",
  "\u0000",
  "]]>",
  "<",
  "&",
  '"',
  "'",
  "\u0001\u001b[2J\u007f",
  "\ud800",
  "\uffff",
];

/** A seeded hostile id: a few characters, a few hundred, or 10 KB. */
export function hostileId(rng: Rng, i: number): string {
  const length = rng.pick([4, 40, 400, 10_000]);
  let id = `${i}`;
  while (id.length < length) id += rng.pick(PIECES);
  return id;
}

/** A failing verdict of one `min` rule per entry, on its slice (and metric), failing its ids. */
export function verdict(
  rules: { slice: string; failing: string[]; metric?: string }[],
): GateVerdict {
  const made: RuleVerdict[] = rules.map(({ slice, failing, metric }, i) => ({
    name: `${metric ?? "full_call_exact_match"} (${slice}) >= 0.9`,
    metric: metric ?? "full_call_exact_match",
    slice,
    check: { kind: "min", min: 0.9 },
    at: { line: 2 + 2 * i, column: 5 },
    pass: false,
    message: `0.5000 (${failing.length}/${2 * failing.length}), needs >= 0.9`,
    value: 0.5,
    failing,
  }));
  return { schema: "assay.gate.v1", pass: false, rules: made, bootstrap: null, alpha: 0.05 };
}

/**
 * Ids that straddle the cut at `MARKDOWN_TEXT_CHARS`: a letter's combining marks and a surrogate
 * pair across it, `special` just past it, and `short`, not cut.
 */
export function straddlingIds(special: string, short: string): string[] {
  const cut = MARKDOWN_TEXT_CHARS;
  return [
    "x".repeat(cut - 1) + "e\u0301\u0301" + "y".repeat(10_000),
    "x".repeat(cut - 1) + "😀" + "y".repeat(10_000),
    "x".repeat(cut) + special + "y".repeat(10),
    short,
  ];
}
