/**
 * A gate verdict as CI reads it: a JUnit XML file (one test case per rule, the failing examples in
 * its failure).
 *
 * @module
 */
import { toWellFormed } from "../engine/mod.ts";
import { printableText } from "../explain/text/mod.ts";
import { counted, mcnemarText } from "./_rule_text.ts";
import type { GateVerdict, RuleVerdict } from "./verdict.ts";
import type { Coverage } from "../compare/mod.ts";
import {
  cutText,
  failingList,
  MARKDOWN_BYTES,
  NOTE_CHARS,
  notShownText,
  RESERVED,
  utf8Bytes,
} from "./_listing.ts";

export { LISTED_EXAMPLES } from "./_listing.ts";

// deno-lint-ignore no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function xmlEscape(s: string): string {
  // Lone surrogates and the characters XML 1.0 cannot hold at all become U+FFFD.
  return toWellFormed(s).replace(NOT_XML, "\ufffd")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

// A text from the data as the XML writes it: cut whole past MARKDOWN_TEXT_CHARS, as printableText
// writes it (as on the terminal, so that it can neither start a line of its own in the failure's
// text nor pass a bidi control), then escaped.
const shown = (text: string) => xmlEscape(printableText(cutText(text)));

/** The measured numbers exactly, as the JSON verdict holds them (JUnit has no field for them). */
function exactText(rule: RuleVerdict): string {
  if (rule.ci) return `Exact: delta ${rule.delta}, interval [${rule.ci.join(", ")}]`;
  return typeof rule.value === "number" ? `Exact: value ${rule.value}` : "";
}

/**
 * A rule's test case around its failing ids: what comes before them (with `Failing examples: `
 * when it has any) and after.
 */
function testCase(r: RuleVerdict, name: string): { open: string; close: string } {
  const open = `    <testcase name="${name}" classname="assay.gate.${shown(r.metric)}" ` +
    `time="0">\n`;
  const detail = xmlEscape([r.message, exactText(r), mcnemarText(r)].filter(Boolean).join("\n"));
  if (r.pass) {
    return { open: `${open}      <system-out>${detail}</system-out>`, close: "\n    </testcase>" };
  }
  return {
    open: `${open}      <failure message="${xmlEscape(r.message)}" type="gate">${detail}` +
      (r.failing.length > 0 ? "\nFailing examples: " : ""),
    close: "</failure>\n    </testcase>",
  };
}

/**
 * Writes a verdict as JUnit XML: one `<testcase>` per rule, named by the rule, with a `<failure>`
 * holding what was measured (and, on a line of its own, the measured numbers exactly) and the
 * failing examples when the rule does not hold; the verdict's coverage and note, when it has
 * them, in the test suite's `<system-out>`. What comes from the data, the rules file, the
 * rules' metrics and the failing ids, is written as {@linkcode printableText} writes it (then
 * escaped for XML), as on the terminal: an id cannot start a line of its own in the failure's
 * text, pass a bidi control, or print as another id. A test case whose name, as written, an
 * earlier one has (the same rule twice, or two names alike in their first `MARKDOWN_TEXT_CHARS`
 * code units) gets its line in the rules file after it, `(rule at line N)`: CI reporters key test
 * cases by name, and would show one result for two rules.
 *
 * The XML keeps within `MARKDOWN_BYTES` bytes of UTF-8, as the Markdown summary does and by its
 * rules, since CI test reporters read the whole file: an id, a rule's name or metric, or the rules
 * file past `MARKDOWN_TEXT_CHARS` code units is cut with `…`, never inside a character; a rule
 * lists at most {@linkcode LISTED_EXAMPLES} of its failing examples, then `… and N more (M in
 * all)`; test cases and ids that would pass the budget are left out (a rule's failing examples
 * still counted), and the test suite's `<system-out>` then says what was left out and where every
 * one is. `tests` and `failures` count every rule.
 *
 * @param verdict The gate's verdict.
 * @param file The rules file, for the test suite's name.
 * @returns The XML text.
 *
 * @example
 * ```ts
 * import { gateJunit } from "@assay/assay/gate";
 * import { ok } from "node:assert/strict";
 *
 * const xml = gateJunit({ schema: "assay.gate.v1", pass: true, rules: [], bootstrap: null, alpha: 0.05 }, "gate.yaml");
 * ok(xml.includes('<testsuite name="assay gate gate.yaml" tests="0" failures="0"'));
 * ```
 */
export function gateJunit(verdict: GateVerdict, file: string): string {
  const failures = verdict.rules.filter((r) => !r.pass).length;
  const head = `name="assay gate ${shown(file)}" tests="${verdict.rules.length}" ` +
    `failures="${failures}"`;
  const start = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${head}>\n` +
    `  <testsuite ${head} errors="0" skipped="0" time="0">\n`;
  const end = "  </testsuite>\n</testsuites>\n";
  // What the verdict says of the whole gate (the examples gated, a report's unscored examples or
  // unrecorded inputs), as the terminal and the Markdown say it.
  const said = [
    verdict.coverage && coverageText(verdict.coverage),
    verdict.note !== undefined && cutText(verdict.note, NOTE_CHARS),
  ].filter((s) => typeof s === "string");
  let used = utf8Bytes(start + end + xmlEscape(said.join("\n"))) + RESERVED;
  // Each rule's test case, its failing examples only counted, while the cases fit; then each
  // failing rule's ids, in order, within the bytes left.
  const cases: { r: RuleVerdict; open: string; close: string; ids: string }[] = [];
  const names = new Set<string>();
  for (const r of verdict.rules) {
    const ids = r.failing.length > 0 && !r.pass ? failingList(r.failing, shown, 48)!.text : "";
    let name = shown(r.name);
    for (let k = 1; names.has(name); k++) {
      name = `${shown(r.name)} (rule at line ${r.at.line}${k > 1 ? `, ${k}` : ""})`;
    }
    names.add(name);
    const c = { r, ...testCase(r, name), ids };
    const size = utf8Bytes(c.open + c.ids + c.close + "\n");
    if (used + size > MARKDOWN_BYTES) break;
    cases.push(c);
    used += size;
  }
  const left: string[] = [];
  if (cases.length < verdict.rules.length) {
    left.push(counted(verdict.rules.length - cases.length, "more rule"));
  }
  for (const c of cases.filter((c) => c.ids !== "")) {
    const list = failingList(c.r.failing, shown, MARKDOWN_BYTES - used + utf8Bytes(c.ids));
    if (list !== undefined) {
      used += utf8Bytes(list.text) - utf8Bytes(c.ids);
      c.ids = list.text;
    }
    if ((list?.shown ?? 0) < c.r.failing.length) {
      left.push("the failing examples each rule's failure counts");
    }
  }
  if (left.length > 0) said.push(notShownText(left, (command) => command));
  const out = said.length === 0
    ? ""
    : `    <system-out>${xmlEscape(said.join("\n"))}</system-out>\n`;
  return start + cases.map((c) => c.open + c.ids + c.close + "\n").join("") + out + end;
}

/**
 * What a gate on the shared examples covered, in words: `Gated on the 380 examples both reports
 * hold; 15 only in the base, 0 only in the candidate.`
 *
 * @param coverage The verdict's coverage (`on: "intersection"`).
 * @returns The sentence.
 *
 * @example
 * ```ts
 * import { coverageText } from "@assay/assay/gate";
 * import { strictEqual } from "node:assert/strict";
 *
 * const coverage = {
 *   on: "intersection" as const,
 *   shared: 3,
 *   base_only: { count: 1, ids: ["d"] },
 *   adapter_only: { count: 0, ids: [] },
 * };
 * strictEqual(
 *   coverageText(coverage),
 *   "Gated on the 3 examples both reports hold; 1 only in the base, 0 only in the candidate.",
 * );
 * ```
 */
export function coverageText(coverage: Coverage): string {
  return `Gated on the ${coverage.shared} examples both reports hold; ` +
    `${coverage.base_only.count} only in the base, ${coverage.adapter_only.count} only in the ` +
    "candidate.";
}
