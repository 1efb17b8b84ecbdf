// Where a long text is cut for display: never inside a character a person reads as one.

/** A combining mark (Mn, Mc, Me): it belongs to the character before it. */
const MARK = /^\p{M}/u;

/**
 * The longest start of `text` of at most `max` UTF-16 code units that splits neither a surrogate
 * pair (an astral character such as an emoji) nor a combining sequence (a base character and the
 * marks after it, `\p{M}`: é written e + U+0301, a variation selector after an emoji): a character
 * that would be split is left out whole, so that a cut text never ends in half a character, nor in
 * a base letter without its accent, which reads as another letter. A lone surrogate the text has
 * itself is kept. Text of at most `max` units is returned as it is.
 *
 * @param text Any text, such as an id or a model's output.
 * @param max The most code units to keep (0 or more).
 * @returns The text, or its start.
 *
 * @example
 * ```ts
 * import { textHead } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(textHead("abc", 5), "abc");
 * strictEqual(textHead("ab😀", 3), "ab"); // not half of the emoji's surrogate pair
 * strictEqual(textHead("cafe\u0301s", 4), "caf"); // not e without its accent
 * ```
 */
export function textHead(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, Math.floor(max));
  const isLow = (i: number) => (text.charCodeAt(i) & 0xfc00) === 0xdc00;
  const isHigh = (i: number) => (text.charCodeAt(i) & 0xfc00) === 0xd800;
  if (end > 0 && isLow(end) && isHigh(end - 1)) end--;
  // While the character at the cut is a mark, its base is before the cut: move the cut before it.
  while (end > 0 && MARK.test(text.slice(end, end + 2))) {
    end -= end > 1 && isLow(end - 1) && isHigh(end - 2) ? 2 : 1;
  }
  return text.slice(0, end);
}
