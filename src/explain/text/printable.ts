/**
 * Text safe to show: a user's or a model's text as a terminal, a page or Markdown can show it
 * without being moved, coloured or reordered by it, and canonical JSON as a person reads it.
 * Printable is Python's `str.isprintable()` under Unicode 14 on every runtime.
 *
 * @module
 */
import { nonprintable14 } from "../../pytext/mod.ts";

// Python's str.isprintable() under Unicode 14 (controls, format characters such as bidi controls
// and zero-width ones, separators but the space, surrogates, private use, unassigned), pinned so
// that every runtime decides alike whatever its own Unicode tables. Made on first use: text of
// printable ASCII alone (most ids and languages) never needs the table.
let nonprintable: RegExp | undefined;
let nonprintableAll: RegExp | undefined;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const isNonprintable = (text: string) =>
  !PRINTABLE_ASCII.test(text) && (nonprintable ??= new RegExp(nonprintable14(), "u")).test(text);

/**
 * Canonical JSON as a person reads it: each `\uXXXX` escape of a printable non-ASCII character
 * (the canonical form writes every one so, an astral one such as an emoji as its surrogate pair's
 * two escapes) is shown as the character. Printable is Python's
 * `str.isprintable()` under Unicode 14 on every runtime, so quotes, backslashes, controls, format
 * characters (bidi controls such as U+202E, zero-width ones, U+00AD), line and paragraph
 * separators, other spaces than U+0020, surrogates, private use and unassigned code points stay
 * escaped: a model's arguments cannot reorder or hide what a terminal or a page shows. The text
 * stays JSON with the same value.
 *
 * @param canonical Canonical JSON text.
 * @returns The same JSON with those characters unescaped.
 *
 * @example
 * ```ts
 * import { readableJson } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(readableJson('{"city":"M\\u00fcnchen"}'), '{"city":"München"}');
 * ```
 */
export function readableJson(canonical: string): string {
  // A whole run of backslashes before `u`, matched from its first (a match tried from inside a
  // run would rescan it: a long run was quadratic). The run's last backslash opens the escape.
  // An astral character is the escapes of its surrogate pair, read as one character.
  const escape = /(?<!\\)(\\+)u([0-9a-f]{4})(?:\\u(d[c-f][0-9a-f]{2}))?/g;
  return canonical.replace(escape, (all, run: string, hex: string, low?: string) => {
    const c = parseInt(hex, 16);
    // An even run of backslashes before it: the escape is itself escaped text, not an escape.
    if (run.length % 2 === 0 || c < 0xa0) return all;
    const pair = low !== undefined && c >= 0xd800 && c <= 0xdbff;
    // A low surrogate after anything but a high one is alone, so stays escaped.
    const tail = low !== undefined && !pair ? `\\u${low}` : "";
    const ch = pair ? String.fromCharCode(c, parseInt(low!, 16)) : String.fromCharCode(c);
    return (isNonprintable(ch) ? all.slice(0, all.length - tail.length) : run.slice(1) + ch) + tail;
  });
}

/**
 * A text safe to show in a terminal or a page: the text itself when every character is printable
 * (as {@linkcode readableJson} decides) and it does not start with `"`, else its JSON string with
 * each character that is not printable written as `\uXXXX`, so that an id or a name cannot move
 * the cursor, colour the terminal or reorder the line, and a text shown in quotes is always a JSON
 * string (the id `"a\nb"` is not shown as the id with a line feed is).
 *
 * @param text Any text, such as an example id from a user's file or a model's function name.
 * @returns The text, or its JSON string with the non-printable characters escaped.
 *
 * @example
 * ```ts
 * import { printableText } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(printableText("ex-1 München"), "ex-1 München");
 * strictEqual(printableText("ex\u001b[31m\u202e"), '"ex\\u001b[31m\\u202e"');
 * ```
 */
export function printableText(text: string): string {
  if (!isNonprintable(text) && text[0] !== '"') return text;
  nonprintableAll ??= new RegExp(nonprintable14(), "gu");
  return JSON.stringify(text).replace(nonprintableAll, (ch) => {
    let out = "";
    for (let i = 0; i < ch.length; i++) {
      out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`;
    }
    return out;
  });
}

/**
 * A text safe to show where its line breaks may stay (a page's `<pre>`, a message that lists one
 * problem a line): each line's characters that are not printable written as
 * {@linkcode printableText} writes them inside its quotes (`\u202e`, `\r`), unquoted, and the
 * line feeds kept.
 *
 * @param text Any text, such as a model's output.
 * @returns The text with its line feeds, every other character printable.
 *
 * @example
 * ```ts
 * import { printableLines } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(printableLines("ok\n\u202eevil\r"), "ok\n\\u202eevil\\r");
 * ```
 */
export function printableLines(text: string): string {
  return text.split("\n").map((line) =>
    Array.from(line, (ch) => isNonprintable(ch) ? printableText(ch).slice(1, -1) : ch).join("")
  ).join("\n");
}

/**
 * A text as a JSON string safe to show in a terminal or a page, quoted whatever it holds: its
 * JSON string with each character that is not printable written as `\uXXXX`, as
 * {@linkcode printableText} writes one that has such a character. For a model's output, which
 * `assay show` and the comparison page always show quoted.
 *
 * @param text Any text, such as a model's output.
 * @returns Its JSON string, with the non-printable characters escaped.
 *
 * @example
 * ```ts
 * import { printableString } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(printableString('say "hi"'), '"say \\"hi\\""');
 * strictEqual(printableString("ok \u202eevil\u2028"), '"ok \\u202eevil\\u2028"');
 * ```
 */
export function printableString(text: string): string {
  const shown = printableText(text);
  return shown === text ? JSON.stringify(text) : shown;
}

/**
 * A text safe to put in Markdown, such as a CI step summary's table: {@linkcode printableText}'s
 * text with `&`, `<` and `>` written as entities and every other ASCII punctuation character
 * escaped with a backslash, so that it shows as written and is never a link, an image, HTML,
 * emphasis, a mention or another table cell.
 *
 * @param text Any text, such as an example id or a language from a report.
 * @returns The text as Markdown that reads as the text.
 *
 * @example
 * ```ts
 * import { markdownText } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(markdownText("[x](http://e.vil) <b>"), "\\[x\\]\\(http\\:\\/\\/e\\.vil\\) &lt;b&gt;");
 * strictEqual(markdownText("ex-1 München"), "ex\\-1 München");
 * ```
 */
export function markdownText(text: string): string {
  return printableText(text).replace(
    /[!-/:-@[-`{-~]/g,
    (ch) => ch === "&" ? "&amp;" : ch === "<" ? "&lt;" : ch === ">" ? "&gt;" : `\\${ch}`,
  );
}

/**
 * The id a person means by `id`, given the ids there are: the value of `id` read as a JSON string
 * when it is one and names one of them (an id as {@linkcode printableText} shows it, in quotes:
 * `"a\nb"` is the id with a line feed, and the id `"a\nb"` is shown and given as
 * `"\"a\\nb\""`), else `id` itself. `assay show --id` reads ids so, as its output lists them.
 *
 * @param id An id as given (by `--id`).
 * @param known The ids there are.
 * @returns The id meant.
 *
 * @example
 * ```ts
 * import { listedId } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(listedId('"a\\nb"', new Set(["a\nb"])), "a\nb");
 * ```
 */
export function listedId(id: string, known: { has(id: string): boolean }): string {
  if (id[0] !== '"') return id;
  try {
    const value = JSON.parse(id);
    return typeof value === "string" && known.has(value) ? value : id;
  } catch {
    return id;
  }
}
