/**
 * The entries of an `assay.bfcl.v1` report as text a person reads (`assay show`): which failed,
 * BFCL's error type and error messages.
 *
 * @module
 */
import type { BfclReport } from "../bfcl/mod.ts";
import { messageLines, shownText, showUnits, type Unit } from "./_units.ts";
import { bfclGateId } from "./unit_ids.ts";
import type { ShowSelection } from "./show_selection.ts";

const SCHEMA = "assay.bfcl.v1";

/**
 * An `assay.bfcl.v1` report's entries that `selection` chooses, as text: each entry's id, category
 * and 1-based position in its file (BFCL's score-file id), whether it is valid, and for a failing
 * one BFCL's error type and each of its error messages; then a line counting the entries shown.
 * The report records no model output: BFCL's score file (`assay bfcl --out`) holds each failing
 * entry's raw and decoded result, which `showBfclScoreFile` shows. Ids, categories and messages
 * are shown printable (`printableText`), a text past `DETAIL_OUTPUT_CHARS` code units cut with its
 * length.
 *
 * Filters: `failing` chooses the entries that are not valid (a report has one verdict per entry,
 * so `metric` is refused); `ids` are entry ids (`simple_13`) or the ids a gate lists
 * (`simple#14`, the category and 1-based position: `bfclGateId`); `slice` is a category.
 *
 * @param report An `assay.bfcl.v1` report, as read back (`checkReport`).
 * @param selection The filters; none chooses every entry.
 * @param source The report's name in errors (a file name).
 * @returns Lines of text, ending with a newline.
 * @throws {RangeError} For a filter the report has no use for or naming what it lacks (an id or
 *   category, with the nearest one: `r.json has no category "simpel" (did you mean simple? it has
 *   simple)`), or a `limit` that is not a positive whole number.
 *
 * @example
 * ```ts
 * import { bfclReport, checkBfcl } from "@assay/assay/bfcl";
 * import { showBfclEntries } from "@assay/assay/explain";
 * import { ok } from "node:assert/strict";
 *
 * const text = '{"id": "relevance_0", "result": "No."}\n{"id": "relevance_1", "result": [{"f": "{}"}]}\n';
 * const report = bfclReport([checkBfcl({ results: { name: "r.json", text } }, { category: "relevance" })]);
 * const shown = showBfclEntries(report, { failing: true });
 * ok(shown.startsWith("relevance_1  [relevance]  #2  valid NO  relevance_error:decoder_success\n"));
 * ```
 */
export function showBfclEntries(
  report: BfclReport,
  selection: ShowSelection = {},
  source = "the report",
): string {
  const categories = [...new Set(report.records.map((r) => r.category))];
  // A record's entry id, error type and error were checked with the report (checkReport).
  const units: Unit[] = report.records.map((r) => {
    return {
      id: r.entryId,
      gateId: bfclGateId(r.category, r.id),
      slices: [r.category],
      fails: () => !r.valid,
      text: () =>
        `${shownText(r.entryId)}  [${shownText(r.category)}]  #${shownText(String(r.id))}  valid ${
          r.valid ? "yes" : "NO"
        }${r.errorType === null ? "" : `  ${shownText(r.errorType)}`}\n` +
        (r.error === null ? "" : messageLines("error", r.error)),
    };
  });
  return showUnits(
    {
      unit: "entry",
      units: "entries",
      noMetric:
        `is an ${SCHEMA} report, whose entries have one verdict (valid): metric does not apply`,
      slice: { name: "category", known: categories },
      note: "the report records no model output: show BFCL's score file (assay bfcl --out) " +
        "for each failing entry's output",
    },
    units,
    selection,
    source,
  );
}
