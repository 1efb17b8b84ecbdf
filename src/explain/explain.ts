/**
 * Why each example scored as it did: the detail a run writes into its records on request
 * (`assay score --details`), and those records as text a person reads (`assay show`).
 *
 * @module
 */
import {
  type ArgumentPair,
  callKeysProblem,
  checkOptions,
  compareCodePoints,
  sha256Hex,
} from "../engine/mod.ts";
import type { DetailWriter, ExampleDetail, ExampleRecord } from "../evaluation/mod.ts";
import { nonprintable14 } from "../pytext/mod.ts";
import { recordDetailProblem } from "./detail_shape.ts";
import { textHead } from "./text_head.ts";

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
 * A detail keeps at most this many UTF-16 code units of the output (fewer when a surrogate pair, a
 * combining sequence or an emoji sequence straddles the cut: it is left out whole, see
 * `textHead`); its length and SHA-256 are whole.
 */
export const DETAIL_OUTPUT_CHARS = 2000;

/** The output's first {@linkcode DETAIL_OUTPUT_CHARS} code units, no character split. */
const outputHead = (output: string) => textHead(output, DETAIL_OUTPUT_CHARS);

/**
 * The argument paths that differ between gold and predicted flattened pairs (each path is a
 * canonical JSON array of keys, unique within one side).
 *
 * @param gold The gold call's pairs.
 * @param predicted The predicted call's pairs.
 * @returns The paths only in gold, only in the prediction, and in both with different values,
 *   each in code point order.
 *
 * @example
 * ```ts
 * import { diffPairs } from "@assay/assay/explain";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const d = diffPairs(
 *   [{ path: '["text"]', value: '"hi"' }, { path: '["to"]', value: '"fr"' }],
 *   [{ path: '["to"]', value: '"de"' }],
 * );
 * deepStrictEqual(d.missing, [{ path: '["text"]', gold: '"hi"' }]);
 * deepStrictEqual(d.different, [{ path: '["to"]', gold: '"fr"', predicted: '"de"' }]);
 * ```
 */
export function diffPairs(
  gold: readonly ArgumentPair[],
  predicted: readonly ArgumentPair[],
): ExampleDetail["paths"] {
  const byPath = (pairs: readonly ArgumentPair[]) => new Map(pairs.map((p) => [p.path, p.value]));
  const g = byPath(gold);
  const p = byPath(predicted);
  const order = (a: { path: string }, b: { path: string }) => compareCodePoints(a.path, b.path);
  const paths: ExampleDetail["paths"] = { missing: [], extra: [], different: [] };
  for (const [path, value] of g) {
    const other = p.get(path);
    if (other === undefined) paths.missing.push({ path, gold: value });
    else if (other !== value) paths.different.push({ path, gold: value, predicted: other });
  }
  for (const [path, value] of p) if (!g.has(path)) paths.extra.push({ path, predicted: value });
  paths.missing.sort(order);
  paths.extra.sort(order);
  paths.different.sort(order);
  return paths;
}

/**
 * The detail writer a run takes (`scoreJsonl`'s and `scoreToolCalls`' `detail` option): each
 * record gets the output (its first {@linkcode DETAIL_OUTPUT_CHARS} code units, never part of a
 * character, see `textHead`; its length and SHA-256), the gold and predicted calls in canonical JSON, the
 * JSON error of an `invalid_json` output, and the differing argument paths.
 *
 * @param options The SHA-256 of a string's UTF-8 bytes (default the engine's pure-TS one).
 * @returns The writer.
 * @throws {TypeError} If `options` is not an object or has a key but `sha256`, as when
 *   `explainScore` itself, not called, is given as the writer.
 *
 * @example
 * ```ts
 * import { explainScore } from "@assay/assay/explain";
 * import { scoreToolCalls } from "@assay/assay";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const report = scoreToolCalls(
 *   [{ example_id: "a", language: "en", target: { name: "f", arguments: { x: 1, y: 2 } } }],
 *   [{ example_id: "a", output: '{"name": "f", "arguments": {"x": 1}}' }],
 *   { detail: explainScore() },
 * );
 * deepStrictEqual(report.records[0]!.detail!.paths.missing, [{ path: '["y"]', gold: "2" }]);
 * ```
 */
export function explainScore(
  options: { sha256?: (text: string) => string } = {},
): DetailWriter {
  checkOptions(options);
  // `detail: explainScore` (not called) would be a writer that writes a function, which the
  // report's JSON leaves out: no detail, in silence.
  const odd = callKeysProblem(options, [], ["sha256"]);
  if (odd) {
    throw new TypeError(
      `explainScore takes { sha256? } and makes the writer (detail: explainScore()): ${odd}`,
    );
  }
  const sha256 = options.sha256 ?? sha256Hex;
  return ({ output, gold, call }) => {
    const ok = call.status === "ok";
    return {
      output: {
        text: outputHead(output),
        length: output.length,
        sha256: sha256(output),
      },
      gold: { name: gold.name, arguments: gold.canonical },
      predicted: ok ? { name: call.name!, arguments: call.canonicalArguments! } : null,
      error: call.error ? { code: call.error.code, offset: call.error.offset } : null,
      paths: diffPairs(gold.pairs, ok ? call.pairs ?? [] : []),
    };
  };
}

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
 * (as {@linkcode readableJson} decides), else its JSON string with each other character written
 * as `\uXXXX`, so that an id or a name cannot move the cursor, colour the terminal or reorder
 * the line.
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
  if (!isNonprintable(text)) return text;
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
    Array.from(line, (ch) => {
      const p = printableText(ch);
      return p === ch ? ch : p.slice(1, -1);
    }).join("")
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

const mark = (yes: boolean) => (yes ? "yes" : "NO");

// Canonical JSON as `formatExample` shows it: readable, and past DETAIL_OUTPUT_CHARS code units cut
// as an output is (never inside a character, `textHead`, nor after half an escape) with its length,
// so that a model's 100,000-character argument is not one line of the terminal per place it is.
function shownJson(canonical: string): string {
  const text = readableJson(canonical);
  if (text.length <= DETAIL_OUTPUT_CHARS) return text;
  const head = outputHead(text).replace(/(?<!\\)((?:\\\\)*)\\(u[0-9a-f]{0,3})?$/, "$1");
  return `${head} … (${text.length} characters)`;
}

/**
 * One record as text: its id, slice and status, whether name and arguments match, and with a
 * detail the gold and predicted calls, the differing paths and the output. A call's arguments, a
 * path or a value longer than {@linkcode DETAIL_OUTPUT_CHARS} code units is cut there, as the
 * output is, and followed by its length: `… (100042 characters)`.
 *
 * @param record A record of an evaluation report.
 * @returns Lines of text, ending with a newline.
 * @throws {RangeError} If the record or its detail is malformed (`recordDetailProblem`).
 *
 * @example
 * ```ts
 * import { formatExample } from "@assay/assay/explain";
 * import { ok } from "node:assert/strict";
 *
 * const text = formatExample({ example_id: "a", language: "en", root_id: null, status: "no_json",
 *   name_match: false, arguments_match: false, matched_pairs: 0, predicted_pairs: 0, gold_pairs: 1 });
 * ok(text.startsWith("a  [en]  no_json"));
 * ```
 */
export function formatExample(record: ExampleRecord): string {
  const problem = recordDetailProblem(record);
  if (problem) throw new RangeError(`The record is malformed: record${problem}`);
  const r = record;
  const t = printableText;
  const lines = [
    `${t(r.example_id)}  [${t(r.language)}]  ${r.status}  name ${mark(r.name_match)}  arguments ${
      mark(r.arguments_match)
    }  pairs ${r.matched_pairs} matched of ${r.gold_pairs} gold, ${r.predicted_pairs} predicted`,
  ];
  if (r.reason) lines.push(`  reason:    ${t(r.reason)}`);
  const d = r.detail;
  if (d) {
    const r = shownJson;
    lines.push(`  gold:      ${t(d.gold.name)}(${r(d.gold.arguments)})`);
    lines.push(
      `  predicted: ${
        d.predicted ? `${t(d.predicted.name)}(${r(d.predicted.arguments)})` : "(none)"
      }`,
    );
    if (d.error) lines.push(`  error:     ${d.error.code} at offset ${d.error.offset}`);
    for (const m of d.paths.missing) lines.push(`  missing:   ${r(m.path)} = ${r(m.gold)}`);
    for (const e of d.paths.extra) lines.push(`  extra:     ${r(e.path)} = ${r(e.predicted)}`);
    for (const x of d.paths.different) {
      lines.push(`  different: ${r(x.path)}: gold ${r(x.gold)}, predicted ${r(x.predicted)}`);
    }
    const cut = d.output.length > d.output.text.length;
    lines.push(
      `  output:    ${printableString(d.output.text)}${cut ? " …" : ""} (${d.output.length} ` +
        `characters, sha256 ${d.output.sha256.slice(0, 12)}…)`,
    );
  }
  return lines.join("\n") + "\n";
}
