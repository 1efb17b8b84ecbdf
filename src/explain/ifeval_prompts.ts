/**
 * The prompts of an `assay.ifeval.v1` report as text a person reads (`assay show`): whether each
 * followed all its instructions, strict and loose, and which instructions it did not follow.
 *
 * @module
 */
import type { IfevalReport } from "../ifeval/mod.ts";
import { malformed, shownText, showUnits, type Unit } from "./_units.ts";
import type { ShowSelection } from "./show_selection.ts";

const mark = (yes: boolean) => (yes ? "yes" : "NO");

/**
 * An `assay.ifeval.v1` report's prompts that `selection` chooses, as text: each prompt's key,
 * whether it followed all its instructions in the strict and in the loose evaluation, how many
 * instructions it has, and the instruction ids it did not follow in each; then a line counting the
 * prompts shown. The report records no prompt or response text (`assay ifeval --results-dir`
 * writes both, per prompt). Instruction ids are shown printable (`printableText`).
 *
 * Filters: `failing` chooses the prompts that did not follow all their instructions in the strict
 * evaluation, or in the loose one with `metric: "loose"` (`metric` is `strict` or `loose`); `ids`
 * are keys, written as JSON writes the number (`1001`); `slice` is an instruction id, choosing the
 * prompts that have it.
 *
 * @param report An `assay.ifeval.v1` report, as read back (`checkReport`).
 * @param selection The filters; none chooses every prompt.
 * @param source The report's name in errors (a file name).
 * @returns Lines of text, ending with a newline.
 * @throws {RangeError} For a filter naming what the report lacks (a key, an instruction id or a
 *   metric, with the nearest one), a `limit` that is not a positive whole number, or a prompt whose
 *   strict or loose verdicts are not one per instruction.
 *
 * @example
 * ```ts
 * import { ifevalReport, runIfeval } from "@assay/assay/ifeval";
 * import { showIfevalPrompts } from "@assay/assay/explain";
 * import { ok } from "node:assert/strict";
 *
 * const report = ifevalReport(runIfeval({
 *   input: {
 *     name: "input.jsonl",
 *     text: '{"key": 1, "prompt": "P", "instruction_id_list": ["startend:quotation"], "kwargs": [{}]}\n',
 *   },
 *   responses: { name: "r.jsonl", text: '{"prompt": "P", "response": "Sure:\\n\\"hi\\""}\n' },
 * }));
 * const shown = showIfevalPrompts(report, { failing: true });
 * ok(shown.startsWith("1  strict NO  loose yes  1 instruction\n  not followed (strict): startend:quotation\n"));
 * ```
 */
export function showIfevalPrompts(
  report: IfevalReport,
  selection: ShowSelection = {},
  source = "the report",
): string {
  const units: Unit[] = report.prompts.map((p, i) => {
    const ids = p.instruction_id_list;
    for (const how of ["strict", "loose"] as const) {
      if (p[how].length !== ids.length) {
        throw malformed(
          "assay.ifeval.v1",
          `prompts[${i}].${how} has ${p[how].length} verdicts for ${ids.length} instructions`,
        );
      }
    }
    const missed = (how: "strict" | "loose") => ids.filter((_, j) => !p[how][j]);
    const lines = (how: "strict" | "loose") => {
      const m = missed(how);
      return m.length === 0 ? "" : `  not followed (${how}): ${m.map(shownText).join(", ")}\n`;
    };
    return {
      id: String(p.key),
      slices: ids,
      fails: (metric) => missed(metric === "loose" ? "loose" : "strict").length > 0,
      text: () =>
        `${p.key}  strict ${mark(missed("strict").length === 0)}  loose ${
          mark(missed("loose").length === 0)
        }  ${ids.length} instruction${ids.length === 1 ? "" : "s"}\n` + lines("strict") +
        lines("loose"),
    };
  });
  return showUnits(
    {
      unit: "prompt",
      units: "prompts",
      metrics: ["strict", "loose"],
      slice: {
        name: "instruction id",
        known: [...new Set(report.prompts.flatMap((p) => p.instruction_id_list))].sort(),
      },
      note:
        "the report records no prompt or response text (assay ifeval --results-dir writes both)",
    },
    units,
    selection,
    source,
  );
}
