// The columns a terminal gives a text, for tables a person reads: a string's length counts UTF-16
// code units, so a CJK name (two columns a character, one unit), an emoji (two columns, two units)
// or a letter with a combining accent (one column, two units) would misalign its column.
import { wide14, zeroWidth14 } from "../../pytext/mod.ts";

let ZERO: RegExp | undefined;
let WIDE: RegExp | undefined;

/** Text every character of which takes one column: printable ASCII. */
const NARROW = /^[ -~]*$/;

/** U+FE0F, VARIATION SELECTOR-16: the character before it is shown as an emoji. */
const EMOJI_PRESENTATION = 0xfe0f;

/**
 * The columns a terminal gives one code point: 0 for the combining marks, variation selectors,
 * joiners and other format characters (the soft hyphen aside) and the conjoining Hangul jamo; 2
 * for East_Asian_Width Wide and Fullwidth characters (CJK ideographs, kana, Hangul syllables,
 * fullwidth forms, emoji shown as emoji by default) and the unassigned code points Unicode keeps
 * for them; 1 for the others (East Asian Ambiguous ones too, as outside a CJK locale).
 */
export function codePointWidth(cp: number): 0 | 1 | 2 {
  if (cp >= 0x20 && cp < 0x7f) return 1;
  const c = String.fromCodePoint(cp);
  if ((ZERO ??= new RegExp(zeroWidth14(), "u")).test(c)) return 0;
  return (WIDE ??= new RegExp(wide14(), "u")).test(c) ? 2 : 1;
}

/**
 * The number of columns `text` takes in a terminal (Unicode 14.0's East_Asian_Width, as
 * `codePointWidth` reads it): a surrogate pair is one code point, a combining mark adds nothing
 * to the character before it, and VARIATION SELECTOR-16 (U+FE0F) widens a one-column character
 * before it to two, as it is then shown as an emoji (❤️, 1️⃣). A lone surrogate takes one column.
 *
 * Columns are what a monospace terminal shows; a text meant for one is first made printable
 * (`printableText`), as control characters move the cursor instead.
 *
 * @param text Any text.
 * @returns Its width in columns.
 *
 * @example
 * ```ts
 * import { displayWidth } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(displayWidth("ja"), 2);
 * strictEqual(displayWidth("日本語"), 6); // wide: two columns each
 * strictEqual(displayWidth("e\u0301"), 1); // é: e and a combining accent
 * strictEqual(displayWidth("🙂"), 2); // a surrogate pair, one wide code point
 * ```
 */
export function displayWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  let width = 0;
  // The width of the last character that takes columns, for U+FE0F after it.
  let base = 0;
  for (const c of text) {
    const cp = c.codePointAt(0)!;
    const w = codePointWidth(cp);
    if (w > 0) {
      base = w;
    } else if (cp === EMOJI_PRESENTATION && base === 1) {
      width += 1;
      base = 2;
    }
    width += w;
  }
  return width;
}
