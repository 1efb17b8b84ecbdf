/**
 * A gate verdict as plain text: the lines `assay gate` prints, for a CI job that runs the gate
 * in an edge function or a script and wants the same report on its log.
 *
 * @module
 */
import { printableText } from "../explain/text/mod.ts";
import { heldText } from "./_rule_text.ts";
import type { GateVerdict } from "./verdict.ts";

/** At most this many failing example ids are shown under a failing rule; the count says how many. */
const SHOWN_EXAMPLES = 10;

/**
 * Writes a verdict as plain text, one line per rule then the outcome, as `assay gate` prints it:
 * `pass` or `FAIL`, the rule's name (its metric and slice) and what was measured; under a rule
 * with McNemar evidence, its discordant pairs (regressions/improvements), p-value and Holm
 * p-value; under a failing rule, its first ten failing examples and their count when there are
 * more. The last line names the rules file and says how many rules hold. The rule's name, the
 * failing ids and the file are written as {@linkcode printableText} writes them, so that none can
 * start a line of its own or pass a terminal control.
 *
 * @param verdict The gate's verdict.
 * @param file The rules file, for the last line.
 * @returns The text, ending with a newline.
 *
 * @example
 * ```ts
 * import { verdictText } from "@assay/assay/gate";
 * import { strictEqual } from "node:assert/strict";
 *
 * const rule = {
 *   name: "accuracy (overall) >= 0.9", metric: "accuracy", slice: "overall",
 *   check: { kind: "min" as const, min: 0.9 }, at: { line: 2, column: 5 }, pass: false,
 *   message: "value 0.8000 < 0.9", value: 0.8, failing: ["q7", "q9"],
 * };
 * const verdict = { schema: "assay.gate.v1" as const, pass: false, rules: [rule], bootstrap: null, alpha: 0.05 };
 * strictEqual(
 *   verdictText(verdict, "gate.yaml"),
 *   "FAIL  accuracy (overall) >= 0.9: value 0.8000 < 0.9\n" +
 *     "      failing: q7, q9\n" +
 *     "gate.yaml: FAILED, 0 of 1 rule holds\n",
 * );
 * ```
 */
export function verdictText(verdict: GateVerdict, file: string): string {
  const out = verdict.rules.map((r) => {
    let s = `${r.pass ? "pass" : "FAIL"}  ${printableText(r.name)}: ${r.message}`;
    if (r.mcnemar) {
      const m = r.mcnemar;
      s += `\n      McNemar ${m.regressions}/${m.improvements}: p ${m.p_value.toPrecision(3)}, ` +
        `Holm p ${m.holm_p_value.toPrecision(3)}${m.significant ? " (significant)" : ""}`;
    }
    if (!r.pass && r.failing.length > 0) {
      const shown = r.failing.slice(0, SHOWN_EXAMPLES).map(printableText).join(", ");
      const more = r.failing.length > SHOWN_EXAMPLES ? `, … (${r.failing.length})` : "";
      s += `\n      failing: ${shown}${more}`;
    }
    return s;
  });
  const held = verdict.rules.filter((r) => r.pass).length;
  out.push(
    `${printableText(file)}: ${verdict.pass ? "passed" : "FAILED"}, ` +
      heldText(held, verdict.rules.length),
  );
  return out.join("\n") + "\n";
}
