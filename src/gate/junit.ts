/**
 * A gate verdict as CI reads it: a JUnit XML file (one test case per rule, the failing examples in
 * its failure).
 *
 * @module
 */
import { toWellFormed } from "../engine/mod.ts";
import { printableText } from "../explain/mod.ts";
import { mcnemarText } from "./_rule_text.ts";
import type { GateVerdict, RuleVerdict } from "./verdict.ts";
import type { Coverage } from "../compare/mod.ts";

/** At most this many failing example ids are listed per rule; the count says how many in all. */
export const LISTED_EXAMPLES = 50;

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

// The ids as printableText writes them, as on the terminal, so that an id can neither start a
// line of its own in the failure's text nor pass a bidi control.
function examples(rule: RuleVerdict): string {
  const shown = rule.failing.slice(0, LISTED_EXAMPLES);
  const more = rule.failing.length - shown.length;
  return shown.map(printableText).join(", ") +
    (more > 0 ? `, … (${rule.failing.length} in all)` : "");
}

/** The measured numbers exactly, as the JSON verdict holds them (JUnit has no field for them). */
function exactText(rule: RuleVerdict): string {
  if (rule.ci) return `Exact: delta ${rule.delta}, interval [${rule.ci.join(", ")}]`;
  return typeof rule.value === "number" ? `Exact: value ${rule.value}` : "";
}

/**
 * Writes a verdict as JUnit XML: one `<testcase>` per rule, named by the rule, with a `<failure>`
 * holding what was measured (and, on a line of its own, the measured numbers exactly) and the
 * failing examples when the rule does not hold; the verdict's coverage and note, when it has
 * them, in the test suite's `<system-out>`. What comes from the data, the rules file, the
 * rules' metrics and the failing ids, is written as {@linkcode printableText} writes it (then
 * escaped for XML), as on the terminal: an id cannot start a line of its own in the failure's
 * text, pass a bidi control, or print as another id.
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
  const head = `name="${xmlEscape(`assay gate ${printableText(file)}`)}" ` +
    `tests="${verdict.rules.length}" ` +
    `failures="${failures}"`;
  const cases = verdict.rules.map((r) => {
    const open = `    <testcase name="${xmlEscape(r.name)}" classname="assay.gate.${
      xmlEscape(printableText(r.metric))
    }" time="0"`;
    const detail = [r.message, exactText(r), mcnemarText(r)].filter(Boolean).join("\n");
    if (r.pass) {
      return `${open}>\n      <system-out>${xmlEscape(detail)}</system-out>\n    </testcase>`;
    }
    const body = detail +
      (r.failing.length > 0 ? `\nFailing examples: ${examples(r)}` : "");
    return `${open}>\n      <failure message="${xmlEscape(r.message)}" type="gate">` +
      `${xmlEscape(body)}</failure>\n    </testcase>`;
  });
  // What the verdict says of the whole gate (the examples gated, a report's unscored examples or
  // unrecorded inputs), as the terminal and the Markdown say it.
  const said = [verdict.coverage && coverageText(verdict.coverage), verdict.note].filter(Boolean);
  const out = said.length === 0
    ? ""
    : `    <system-out>${xmlEscape(said.join("\n"))}</system-out>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${head}>\n` +
    `  <testsuite ${head} errors="0" skipped="0" time="0">\n` +
    cases.map((c) => c + "\n").join("") + out + "  </testsuite>\n</testsuites>\n";
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
