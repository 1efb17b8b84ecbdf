/**
 * The rows of an `assay.structured.v1` report as text a person reads (`assay show`): which
 * metrics each output failed, with their figures.
 *
 * @module
 */
import {
  countsAgainst,
  LOWER_IS_BETTER_STRUCTURED_METRICS,
  type StructuredReport,
} from "../structured_jsonl/report/mod.ts";
import { shownText, showUnits, type Unit } from "./_units.ts";
import type { ShowSelection } from "./show_selection.ts";

type Figures = Readonly<{ numerator: number; denominator: number }>;

/** Whether a row failed a metric, in its direction (see `countsAgainst`). */
const failed = (metric: string, f: Figures): boolean =>
  countsAgainst(
    f.numerator,
    f.denominator,
    (LOWER_IS_BETTER_STRUCTURED_METRICS as readonly string[]).includes(metric),
  );

/**
 * An `assay.structured.v1` report's rows that `selection` chooses, as text: each row's id (or
 * `line N` for a row without one) and line, then the metrics it failed, those it passed and those
 * that do not apply to it, each with its numerator/denominator on the row, and why its predicted
 * calls are invalid, a `reason:` line for each of the row's `reasons`; then a line counting the
 * rows shown. A row fails `extra_content_rate` when it has extra content (numerator above 0),
 * any other metric when its numerator is below its denominator; a denominator of 0 does not apply.
 * The report records no output text. Ids and reasons are shown printable (`printableText`).
 *
 * Filters: `failing` chooses the rows that failed any metric, or `metric` (one the report has);
 * `ids` are row ids, or `line N` for a row without one; a structured report has no slices, so
 * `slice` is refused.
 *
 * @param report An `assay.structured.v1` report, as read back (`checkReport`).
 * @param selection The filters; none chooses every row.
 * @param source The report's name in errors (a file name).
 * @returns Lines of text, ending with a newline.
 * @throws {RangeError} For a `slice`, a filter naming what the report lacks (an id or a metric,
 *   with the nearest one), or a `limit` that is not a positive whole number. A report read from a
 *   file is checked first (`checkReport` of `@assay/assay/report-check`, as `assay show` does):
 *   its rows' `reasons` among the rest.
 *
 * @example
 * ```ts
 * import { scoreStructuredJsonl } from "@assay/assay/structured-jsonl";
 * import { showStructuredRows } from "@assay/assay/explain";
 * import { strictEqual } from "node:assert/strict";
 *
 * const outputs = new TextEncoder().encode('{"id": "a", "output": "{}"}\n{"id": "b", "output": "no"}\n');
 * const { report } = await scoreStructuredJsonl({ outputs }, { metrics: ["json_validity"] });
 * strictEqual(
 *   showStructuredRows(report, { failing: true }),
 *   "b  line 2\n  failed: json_validity 0/1\n\n1 of 1 selected rows shown (2 in the report)\n",
 * );
 * ```
 */
export function showStructuredRows(
  report: StructuredReport,
  selection: ShowSelection = {},
  source = "the report",
): string {
  const metrics = Object.keys(report.metrics);
  const units: Unit[] = report.rows.map((row) => {
    const figures = (m: string) =>
      `${shownText(m)} ${row.metrics[m]!.numerator}/${row.metrics[m]!.denominator}`;
    const group = (label: string, test: (m: string) => boolean) => {
      const ms = metrics.filter(test);
      return ms.length === 0 ? "" : `  ${label}: ${ms.map(figures).join(", ")}\n`;
    };
    const applies = (m: string) => row.metrics[m]!.denominator > 0;
    const fails = (m: string) => failed(m, row.metrics[m]!);
    return {
      id: row.id ?? `line ${row.line}`,
      slices: [],
      fails: (metric) => metric === undefined ? metrics.some(fails) : fails(metric),
      text: () =>
        `${row.id === null ? "(no id)" : shownText(row.id)}  line ${row.line}\n` +
        group("failed", fails) + group("passed", (m) => applies(m) && !fails(m)) +
        group("not applicable", (m) => !applies(m)) +
        (row.reasons ?? []).map((r) => `  reason: ${shownText(r)}\n`).join(""),
    };
  });
  return showUnits(
    {
      unit: "row",
      units: "rows",
      metrics,
      noSlice: "is an assay.structured.v1 report, which has no slices: slice does not apply",
    },
    units,
    selection,
    source,
  );
}
