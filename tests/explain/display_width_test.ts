// displayWidth: the columns a terminal gives a text, by Unicode 14.0's East_Asian_Width and
// general categories (code points, not UTF-16 units).
import { strictEqual } from "node:assert/strict";
import { codePointWidth, displayWidth } from "../../src/explain/mod.ts";

Deno.test("displayWidth counts wide and fullwidth characters as two columns", () => {
  for (
    const [text, width] of [
      ["日本語", 6], // CJK ideographs
      ["ひらがな", 8], // hiragana
      ["カタカナ", 8], // katakana
      ["한국어", 6], // Hangul syllables
      ["ＡＢＣ１", 8], // fullwidth forms
      ["\u3000", 2], // IDEOGRAPHIC SPACE (Fullwidth)
      ["ｶﾀｶﾅ", 4], // halfwidth katakana: one column each
      ["𠀋", 2], // a CJK ideograph past the BMP: a surrogate pair, one wide code point
      ["\u{3134a}", 2], // CJK Extension G (Unicode 13)
      ["\u{2fffd}", 2], // unassigned, in the plane EastAsianWidth.txt gives W by default
    ] as const
  ) strictEqual(displayWidth(text), width, text);
});

Deno.test("displayWidth gives emoji two columns, and a surrogate pair is one code point", () => {
  for (
    const [text, width] of [
      ["🙂", 2],
      ["🎉🎉", 4],
      ["⌚", 2], // U+231A, Wide in the BMP
      ["❤", 1], // U+2764 is shown as text by default
      ["❤\ufe0f", 2], // VARIATION SELECTOR-16: shown as an emoji
      ["1\ufe0f\u20e3", 2], // keycap 1
      ["\ud83d", 1], // a lone surrogate
      ["\u{1faf8}", 2], // an emoji of Unicode 15, unassigned in 14: kept for pictographs
      ["🇯🇵", 2], // two regional indicators, one column each
    ] as const
  ) strictEqual(displayWidth(text), width, text);
});

Deno.test("displayWidth gives combining marks, joiners and variation selectors no column", () => {
  for (
    const [text, width] of [
      ["e\u0301", 1], // e and COMBINING ACUTE ACCENT
      ["Ä\u0308\u0323", 1], // two marks stacked
      ["क्षि", 3], // KA, VIRAMA (Mn, none), SSA, VOWEL SIGN I (Mc, a spacing mark: one)
      ["a\u200db", 2], // ZERO WIDTH JOINER
      ["a\u200bb", 2], // ZERO WIDTH SPACE
      ["\u{1f468}\u200d\u{1f469}", 4], // a joined pair: each person two columns, the joiner none
      ["漢\ufe00", 2], // a variation selector after an ideograph
      ["\u1100\u1161\u11a8", 2], // conjoining jamo: a leading consonant, its vowel and final
      ["\u00ad", 1], // SOFT HYPHEN is shown
      ["\u0600", 1], // ARABIC NUMBER SIGN, a prepended concatenation mark, is shown
    ] as const
  ) strictEqual(displayWidth(text), width, text);
});

Deno.test("displayWidth counts ASCII and East Asian Ambiguous characters as one column", () => {
  strictEqual(displayWidth(""), 0);
  strictEqual(displayWidth("full_call_exact_match"), 21);
  strictEqual(displayWidth("B − A"), 5); // U+2212 MINUS SIGN is Ambiguous
  strictEqual(displayWidth("marginal Δ"), 10);
  strictEqual(displayWidth("mixe\u0301日🙂x"), 9);
  strictEqual(codePointWidth(0x41), 1);
  strictEqual(codePointWidth(0x65e5), 2);
  strictEqual(codePointWidth(0x301), 0);
  strictEqual(codePointWidth(0xff21), 2);
});
