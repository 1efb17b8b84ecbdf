// Where a long text is cut for display: never inside a character a person reads as one. The one
// rule of every cut: an error's quoted line (quote), a chart's label (the report's clip), a
// detail's output and `assay show`'s long values (explain).

/**
 * A character that goes with the one before it: a combining mark (`\p{M}`), another extending
 * character (`\p{Grapheme_Extend}`: emoji tags, ZWNJ), a skin-tone modifier, or a zero-width joiner.
 */
const JOINS = /^[\p{M}\p{Grapheme_Extend}\p{Emoji_Modifier}\u200d]/u;
/** A pictograph: after a pictograph, its extenders and a zero-width joiner, it joins (👩‍💻). */
const PICTOGRAPH = /^\p{Extended_Pictographic}/u;
/** A pictograph, extenders and a zero-width joiner, at the end of a text. */
const JOINED_PICTOGRAPH =
  /\p{Extended_Pictographic}[\p{M}\p{Grapheme_Extend}\p{Emoji_Modifier}]*\u200d$/u;
/** A regional indicator: two of them make a flag (🇫🇷). */
const FLAG_HALF = /^\p{Regional_Indicator}/u;

/**
 * The consonants of the six Indic scripts whose virama links two consonants into one character
 * (Unicode 15.1's Indic_Conjunct_Break: क्ष, ক্ষ), and those viramas after a consonant and its
 * marks, at the end of a text.
 */
const INDIC = "\u0915-\u0939\u0958-\u095f\u0978-\u097f\u0995-\u09a8\u09aa-\u09b0\u09b2" +
  "\u09b6-\u09b9\u09dc\u09dd\u09df\u09f0\u09f1\u0a95-\u0aa8\u0aaa-\u0ab0\u0ab2\u0ab3" +
  "\u0ab5-\u0ab9\u0af9\u0b15-\u0b28\u0b2a-\u0b30\u0b32\u0b33\u0b35-\u0b39\u0b5c\u0b5d" +
  "\u0b5f\u0b71\u0c15-\u0c28\u0c2a-\u0c39\u0c58-\u0c5a\u0d15-\u0d3a";
const CONSONANT = new RegExp(`^[${INDIC}]`);
const LINKED = new RegExp(
  `[${INDIC}][\\p{Grapheme_Extend}\\u200d]*[\\u094d\\u09cd\\u0acd\\u0b4d\\u0c4d\\u0d4d]` +
    `[\\p{Grapheme_Extend}\\u200d]*$`,
  "u",
);

/**
 * A Hangul jamo's kind: 1 a leading consonant, 2 a vowel, 3 a trailing consonant; 4 an LV
 * syllable, 5 an LVT syllable; 0 anything else.
 */
function jamo(c: number): number {
  if ((c >= 0x1100 && c <= 0x115f) || (c >= 0xa960 && c <= 0xa97c)) return 1;
  if ((c >= 0x1160 && c <= 0x11a7) || (c >= 0xd7b0 && c <= 0xd7c6)) return 2;
  if ((c >= 0x11a8 && c <= 0x11ff) || (c >= 0xd7cb && c <= 0xd7fb)) return 3;
  return c >= 0xac00 && c <= 0xd7a3 ? ((c - 0xac00) % 28 ? 5 : 4) : 0;
}

const isLow = (text: string, i: number) => (text.charCodeAt(i) & 0xfc00) === 0xdc00;
const isHigh = (text: string, i: number) => (text.charCodeAt(i) & 0xfc00) === 0xd800;

/**
 * Whether cutting `text` before unit `end` parts a character a person reads as one (a joined
 * pictograph is looked for in the 40 units before the cut: a longer run of extenders is not looked
 * through).
 */
function splitsAt(text: string, end: number): boolean {
  if (end <= 0 || end >= text.length) return false;
  if (isLow(text, end) && isHigh(text, end - 1)) return true;
  const next = text.slice(end, end + 2);
  if (JOINS.test(next)) return true;
  // Hangul: L joins L, V, LV or LVT; V or LV joins V or T; T or LVT joins T.
  const a = jamo(text.charCodeAt(end - 1));
  const b = jamo(text.charCodeAt(end));
  if (a === 1 ? b > 0 && b !== 3 : a === 2 || a === 4 ? b === 2 || b === 3 : a > 0 && b === 3) {
    return true;
  }
  if (CONSONANT.test(next) && LINKED.test(text.slice(Math.max(0, end - 40), end))) return true;
  if (
    text.charCodeAt(end - 1) === 0x200d && PICTOGRAPH.test(next) &&
    JOINED_PICTOGRAPH.test(text.slice(Math.max(0, end - 40), end))
  ) return true;
  if (!FLAG_HALF.test(next)) return false;
  // A flag's second half when an odd number of regional indicators (two units each) come before.
  let halves = 0;
  for (let i = end - 2; i >= 0 && FLAG_HALF.test(text.slice(i, i + 2)); i -= 2) halves++;
  return halves % 2 === 1;
}

/**
 * The longest start of `text` of at most `max` UTF-16 code units that parts no character a person
 * reads as one: not a surrogate pair (an astral character such as an emoji), not a combining
 * sequence (a base character and the marks after it, `\p{M}`: é written e + U+0301, a variation
 * selector after an emoji), not an emoji sequence (a skin tone, a zero-width-joined family
 * 👩‍👩‍👧, a flag 🇫🇷, a tag sequence), not a Hangul syllable written in jamo (ᄀ + ᅡ + ᆨ, 각), and
 * not an Indic conjunct (क्ष: a consonant, a virama, a consonant, in the six scripts whose virama
 * links them, as Unicode 15.1 reads them). A character that would be parted is left out whole, so
 * that a cut text never ends in half a character, nor in a base letter without its accent, which
 * reads as another letter. A lone surrogate the text has itself is kept. Text of at most `max` units is
 * returned as it is. These are a few fixed rules, not a host's `Intl.Segmenter`, whose rules change
 * with its ICU version.
 *
 * @param text Any text, such as an id or a model's output.
 * @param max The most code units to keep (0 or more).
 * @returns The text, or its start.
 *
 * @example
 * ```ts
 * import { textHead } from "@assay/assay/jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(textHead("abc", 5), "abc");
 * strictEqual(textHead("ab😀", 3), "ab"); // not half of the emoji's surrogate pair
 * strictEqual(textHead("cafe\u0301s", 4), "caf"); // not e without its accent
 * strictEqual(textHead("a👩\u200d💻", 4), "a"); // not the woman without her laptop
 * ```
 */
export function textHead(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, Math.floor(max));
  while (splitsAt(text, end)) {
    end -= end > 1 && isLow(text, end - 1) && isHigh(text, end - 2) ? 2 : 1;
  }
  return text.slice(0, end);
}
