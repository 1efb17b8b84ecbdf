/**
 * A gate verdict as a Markdown summary, for a CI step summary: GitHub refuses a step summary over
 * 1 MiB and loses it whole, so the summary keeps to a budget whatever the failing ids.
 *
 * @module
 */
import { markdownText, textHead } from "../explain/mod.ts";
import { mcnemarText } from "./_rule_text.ts";
import { coverageText, LISTED_EXAMPLES } from "./junit.ts";
import type { GateVerdict, RuleVerdict } from "./verdict.ts";

/**
 * The Markdown summary's most UTF-8 bytes: a quarter of the 1 MiB (1,048,576 bytes) GitHub takes
 * for a step summary, so that the job's other output, or another gate in the same step, has room.
 */
export const MARKDOWN_BYTES = 256 * 1024;

/**
 * In the Markdown summary an id or a rule's name longer than this many UTF-16 code units is cut
 * (`textHead`: no character split) and ends in `…`.
 */
export const MARKDOWN_TEXT_CHARS = 200;

/** The verdict's note is cut past this many code units. */
const NOTE_CHARS = 2000;

/** Room kept for the lines that say what was left out. */
const RESERVED = 600;

const utf8 = new TextEncoder();
const bytes = (line: string) => utf8.encode(line).length + 1; // and its line feed

/** A text from the data as the summary writes it: cut to `max` units, then `markdownText`. */
const shown = (text: string, max = MARKDOWN_TEXT_CHARS) => {
  const head = textHead(text, max);
  return markdownText(head === text ? text : `${head}…`);
};

/**
 * Writes a verdict as a Markdown summary: a headline, then one table row per rule with its result,
 * what was measured and the McNemar evidence, then the failing examples of each failing rule. Every
 * text, the rules file, the rules' names (their metric and slice) and the failing ids among them,
 * is written as {@linkcode markdownText} writes it, so that an id is never a link, HTML, a table
 * cell or a line of its own.
 *
 * The summary keeps within {@linkcode MARKDOWN_BYTES} bytes of UTF-8, as a CI step summary must:
 * an id or a rule's name past {@linkcode MARKDOWN_TEXT_CHARS} code units is cut with `…`, never
 * inside a character; a rule lists at most {@linkcode LISTED_EXAMPLES} of its failing examples,
 * then `… and N more (M in all)`; and rules and ids that would pass the budget are left out with
 * their count. When any are left out, a last line says where every one is: the verdict's JSON
 * (`assay gate --out` or `--json`) and the reports (`assay show REPORT --failing`).
 *
 * @param verdict The gate's verdict.
 * @param file The rules file, for the headline.
 * @returns The Markdown text.
 *
 * @example
 * ```ts
 * import { gateMarkdown } from "@assay/assay/gate";
 * import { ok } from "node:assert/strict";
 *
 * const md = gateMarkdown({ schema: "assay.gate.v1", pass: true, rules: [], bootstrap: null, alpha: 0.05 }, "gate.yaml");
 * ok(md.startsWith("### assay gate gate\\.yaml: passed"));
 * ```
 */
export function gateMarkdown(verdict: GateVerdict, file: string): string {
  const failed = verdict.rules.filter((r) => !r.pass);
  const lines = [
    `### assay gate ${shown(file)}: ${verdict.pass ? "passed" : "FAILED"} ` +
    `(${verdict.rules.length - failed.length} of ${verdict.rules.length} rules hold)`,
    "",
    "| rule | result | measured | McNemar |",
    "| --- | --- | --- | --- |",
  ];
  const tail: string[] = [];
  if (verdict.coverage) tail.push("", coverageText(verdict.coverage));
  if (verdict.note !== undefined) tail.push("", `Note: ${shown(verdict.note, NOTE_CHARS)}`);
  let used = [...lines, ...tail].reduce((n, l) => n + bytes(l), RESERVED);
  const fits = (line: string) => used + bytes(line) <= MARKDOWN_BYTES;
  let rows = 0;
  for (const r of verdict.rules) {
    const row = `| ${shown(r.name)} | ${r.pass ? "pass" : "**fail**"} | ${shown(r.message)} | ${
      markdownText(mcnemarText(r).replace(/^McNemar: /, "")) || "–"
    } |`;
    if (!fits(row)) break;
    lines.push(row);
    used += bytes(row);
    rows++;
  }
  const left: string[] = [];
  if (rows < verdict.rules.length) left.push(`${verdict.rules.length - rows} more rules`);
  const unlisted = { rules: 0, examples: 0 };
  for (const r of failed.filter((r) => r.failing.length > 0)) {
    const line = failingLine(r, MARKDOWN_BYTES - used - bytes(""));
    if (line === undefined) {
      unlisted.rules++;
      unlisted.examples += r.failing.length;
      continue;
    }
    lines.push("", line.text);
    used += bytes("") + bytes(line.text);
    if (line.shown < r.failing.length) left.push("the failing examples each rule's line counts");
  }
  if (unlisted.rules > 0) {
    left.push(`the ${unlisted.examples} failing examples of ${unlisted.rules} more rules`);
  }
  if (left.length > 0) {
    lines.push(
      "",
      `Not shown here: ${[...new Set(left)].join(", ")} (at most ${LISTED_EXAMPLES} failing ` +
        `examples a rule, and ${MARKDOWN_BYTES / 1024} KiB in all). The verdict's JSON ` +
        "(`assay gate --out FILE` or `--json`) holds every rule and every failing example, and " +
        "`assay show REPORT --failing` lists an evaluation report's wrong examples.",
    );
  }
  return [...lines, ...tail].join("\n") + "\n";
}

/**
 * A failing rule's line of ids within `room` bytes: `**name**: a, b, … and 7 more (10 in all)`;
 * undefined when not even its name fits.
 */
function failingLine(r: RuleVerdict, room: number): { text: string; shown: number } | undefined {
  let text = `**${shown(r.name)}**: `;
  // Room for the count of those left out, whatever it is.
  let left = room - bytes(text) - 48;
  if (left < 0) return undefined;
  let count = 0;
  for (const id of r.failing.slice(0, LISTED_EXAMPLES)) {
    const piece = (count > 0 ? ", " : "") + shown(id);
    const size = utf8.encode(piece).length;
    if (size > left) break;
    text += piece;
    left -= size;
    count++;
  }
  const more = r.failing.length - count;
  if (more > 0) {
    text += `${count > 0 ? ", " : ""}… and ${more} more (${r.failing.length} in all)`;
  }
  return { text, shown: count };
}
