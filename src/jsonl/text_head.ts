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
 * selector after an emoji), and not an emoji sequence (a skin tone, a zero-width-joined family
 * 👩‍👩‍👧, a flag 🇫🇷, a tag sequence). A character that would be parted is left out whole, so that a
 * cut text never ends in half a character, nor in a base letter without its accent, which reads as
 * another letter. A lone surrogate the text has itself is kept. Text of at most `max` units is
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
