/**
 * A gate verdict as a Markdown summary, for a CI step summary: GitHub refuses a step summary over
 * 1 MiB and loses it whole, so the summary keeps to a budget whatever the failing ids.
 *
 * @module
 */
import { markdownText } from "../explain/text/mod.ts";
import { counted, heldText, mcnemarText } from "./_rule_text.ts";
import { coverageText } from "./junit.ts";
import type { GateVerdict, RuleVerdict } from "./verdict.ts";
import {
  cutText,
  failingList,
  MARKDOWN_BYTES,
  MARKDOWN_TEXT_CHARS,
  NOTE_CHARS,
  notShownText,
  RESERVED,
  utf8Bytes,
} from "./_listing.ts";

export { MARKDOWN_BYTES, MARKDOWN_TEXT_CHARS } from "./_listing.ts";

const bytes = (line: string) => utf8Bytes(line) + 1; // and its line feed

/** A text from the data as the summary writes it: cut to `max` units, then `markdownText`. */
const shown = (text: string, max = MARKDOWN_TEXT_CHARS) => markdownText(cutText(text, max));

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
    `(${heldText(verdict.rules.length - failed.length, verdict.rules.length)})`,
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
  if (rows < verdict.rules.length) left.push(counted(verdict.rules.length - rows, "more rule"));
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
    left.push(
      `the ${unlisted.examples} failing examples of ${counted(unlisted.rules, "more rule")}`,
    );
  }
  if (left.length > 0) lines.push("", notShownText(left, (command) => `\`${command}\``));
  return [...lines, ...tail].join("\n") + "\n";
}

/**
 * A failing rule's line of ids within `room` bytes: `**name**: a, b, … and 7 more (10 in all)`;
 * undefined when not even its name fits.
 */
function failingLine(r: RuleVerdict, room: number): { text: string; shown: number } | undefined {
  const head = `**${shown(r.name)}**: `;
  const list = failingList(r.failing, shown, room - bytes(head));
  return list && { text: head + list.text, shown: list.shown };
}
