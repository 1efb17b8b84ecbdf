/**
 * A gate verdict as CI reads it: a JUnit XML file (one test case per rule, the failing examples in
 * its failure) and a Markdown summary table (for a CI step summary).
 *
 * @module
 */
import { toWellFormed } from "../engine/mod.ts";
import { markdownText, printableText } from "../explain/mod.ts";
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

// The ids as `show` writes them: printableText for JUnit, as on the terminal, so that an id can
// neither start a line of its own in the failure's text nor pass a bidi control.
function examples(rule: RuleVerdict, show: (id: string) => string): string {
  const shown = rule.failing.slice(0, LISTED_EXAMPLES);
  const more = rule.failing.length - shown.length;
  return shown.map(show).join(", ") + (more > 0 ? `, … (${rule.failing.length} in all)` : "");
}

function mcnemarText(rule: RuleVerdict): string {
  const m = rule.mcnemar;
  if (!m) return "";
  return `McNemar: ${m.regressions} regressions, ${m.improvements} improvements, ` +
    `p = ${m.p_value.toPrecision(4)}, Holm p = ${m.holm_p_value.toPrecision(4)}` +
    (m.significant ? " (significant)" : "");
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
      (r.failing.length > 0 ? `\nFailing examples: ${examples(r, printableText)}` : "");
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
 * Writes a verdict as a Markdown summary: a headline, then one table row per rule with its result,
 * what was measured and the McNemar evidence, then the failing examples of each failing rule. Every
 * text, the rules file, the rules' names (their metric and slice) and the failing ids among them,
 * is written as {@linkcode markdownText} writes it, so that an id is never a link, HTML or a line
 * of its own.
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
    `### assay gate ${markdownText(file)}: ${verdict.pass ? "passed" : "FAILED"} ` +
    `(${verdict.rules.length - failed.length} of ${verdict.rules.length} rules hold)`,
    "",
    "| rule | result | measured | McNemar |",
    "| --- | --- | --- | --- |",
    ...verdict.rules.map((r) =>
      `| ${markdownText(r.name)} | ${r.pass ? "pass" : "**fail**"} | ${markdownText(r.message)} | ${
        markdownText(mcnemarText(r).replace(/^McNemar: /, "")) || "–"
      } |`
    ),
  ];
  for (const r of failed) {
    if (r.failing.length > 0) {
      lines.push("", `**${markdownText(r.name)}**: ${examples(r, markdownText)}`);
    }
  }
  if (verdict.coverage) lines.push("", coverageText(verdict.coverage));
  if (verdict.note !== undefined) lines.push("", `Note: ${markdownText(verdict.note)}`);
  return lines.join("\n") + "\n";
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

/**
 * Where a gate's CI outputs go, each when given: `assay gate`'s `--junit` and `--markdown`, and
 * the step summary that CI reads (GitHub's `GITHUB_STEP_SUMMARY`). Every command that gates
 * (`gate`, and `compare`, `suite run` and `calibrate` with `--gate`) writes them through
 * {@linkcode gateOutputs}.
 */
export interface GateOutputPaths {
  /** The JUnit XML file ({@linkcode gateJunit}), written whole. */
  junit?: string | undefined;
  /** The Markdown summary file ({@linkcode gateMarkdown}), written whole. */
  markdown?: string | undefined;
  /** A CI step summary: the same Markdown, appended to what the job's earlier steps wrote. */
  stepSummary?: string | undefined;
}

/** One file of a gate's CI outputs: what to write where, and whether it is appended. */
export interface GateOutput {
  /** Which output it is. */
  output: keyof GateOutputPaths;
  /** The file. */
  path: string;
  /** Its text. */
  text: string;
  /** Whether the text is appended to the file (the step summary) rather than replacing it. */
  append: boolean;
}

/**
 * A verdict's CI outputs, in the order they are written: the JUnit XML, the Markdown summary, and
 * the same Markdown appended to the step summary, each where its path is given.
 *
 * @param verdict The gate's verdict.
 * @param file The rules file, for the JUnit test suite's name and the Markdown's headline.
 * @param paths Where each output goes; an output without a path is not made.
 * @returns The files to write.
 *
 * @example
 * ```ts
 * import { gateMarkdown, gateOutputs } from "@assay/assay/gate";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const verdict = { schema: "assay.gate.v1" as const, pass: true, rules: [], bootstrap: null, alpha: 0.05 };
 * const outputs = gateOutputs(verdict, "gate.yaml", { stepSummary: "summary.md" });
 * deepStrictEqual(outputs, [{
 *   output: "stepSummary",
 *   path: "summary.md",
 *   text: gateMarkdown(verdict, "gate.yaml"),
 *   append: true,
 * }]);
 * ```
 */
export function gateOutputs(
  verdict: GateVerdict,
  file: string,
  paths: GateOutputPaths,
): GateOutput[] {
  const out: GateOutput[] = [];
  // The Markdown is written once, for --markdown and the step summary alike.
  let markdown: string | undefined;
  for (const output of ["junit", "markdown", "stepSummary"] as const) {
    const path = paths[output];
    if (path === undefined) continue;
    const text = output === "junit"
      ? gateJunit(verdict, file)
      : markdown ??= gateMarkdown(verdict, file);
    out.push({ output, path, text, append: output === "stepSummary" });
  }
  return out;
}
