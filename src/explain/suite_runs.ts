/**
 * The runs of an `assay.suite_run.v1` report as text a person reads (`assay show`): each (golden,
 * arm, repeat) run's metric scores against their thresholds, and whether it passed.
 *
 * @module
 */
import type { SuiteRunReport } from "../suite/mod.ts";
import { malformed, shownText, showUnits, type Unit } from "./_units.ts";
import { suiteGateId } from "./unit_ids.ts";
import type { ShowSelection } from "./show_selection.ts";

type Run = SuiteRunReport["runs"][number];
type Criterion = Run["criteria"][number];

/** Whether a run failed a metric: it applies, has a score, and the score is below its threshold. */
const belowThreshold = (c: Criterion) => c.applicable && c.score !== null && c.score < c.threshold;

function criterionLine(c: Criterion): string {
  const what = !c.applicable
    ? "not applicable"
    : c.score === null
    ? "no score (the judge failed)"
    : `${c.score} (threshold ${c.threshold})${belowThreshold(c) ? " FAILED" : ""}`;
  return `  ${shownText(c.metric)}: ${what}\n`;
}

/**
 * An `assay.suite_run.v1` report's runs that `selection` chooses, as text: each run's golden, arm
 * and repeat, its status, overall score and pass (`yes`, `NO`, or `-` when it has no verdict:
 * unscored, or incomplete with a judge error that could decide it), then each metric's score
 * against its threshold (`FAILED` below it), or that it does not apply or has no score; then a line counting the runs shown. Goldens, arms and metric names
 * are shown printable (`printableText`).
 *
 * Filters: `failing` chooses the runs that did not pass or have a metric below its threshold, or
 * with `metric` (one of the suite's metrics) the runs below that metric's threshold; `ids` are
 * golden ids, each choosing every arm's and repeat's run of that golden, or the ids a gate lists
 * (`g1@base`, a golden in an arm: `suiteGateId`), each choosing that arm's repeats of the golden;
 * `slice` is an arm.
 *
 * @param report An `assay.suite_run.v1` report, as read back (`checkReport`).
 * @param selection The filters; none chooses every run.
 * @param source The report's name in errors (a file name).
 * @returns Lines of text, ending with a newline.
 * @throws {RangeError} For a filter naming what the report lacks (a golden, an arm or a metric,
 *   with the nearest one), a `limit` that is not a positive whole number, or a run whose repeat
 *   or a criterion's threshold is not a number.
 *
 * @example
 * ```ts
 * import { showSuiteRuns } from "@assay/assay/explain";
 * import type { SuiteRunReport } from "@assay/assay/suite";
 * import { ok } from "node:assert/strict";
 *
 * const criterion = { golden_id: "g1", arm: "a", repeat: 0, metric: "m", threshold: 0.5 };
 * const report = {
 *   schema: "assay.suite_run.v1",
 *   scorecard: { metrics: ["m"] },
 *   runs: [{
 *     golden_id: "g1", arm: "a", repeat: 0,
 *     criteria: [{ ...criterion, applicable: true, score: 0.25 }],
 *     overall: { status: "complete", overall: 0.25, pass: false, threshold: 0.5, n_applicable: 1,
 *       n_scored: 1, errored: [] },
 *   }],
 * } as unknown as SuiteRunReport;
 * ok(showSuiteRuns(report, { failing: true }).startsWith(
 *   "g1  [a]  repeat 0  complete  overall 0.25  pass NO\n  m: 0.25 (threshold 0.5) FAILED\n",
 * ));
 * ```
 */
export function showSuiteRuns(
  report: SuiteRunReport,
  selection: ShowSelection = {},
  source = "the report",
): string {
  const units: Unit[] = report.runs.map((run, i) => {
    if (!(Number.isInteger(run.repeat) && run.repeat >= 0)) {
      throw malformed("assay.suite_run.v1", `runs[${i}].repeat is not a count`);
    }
    run.criteria.forEach((c, j) => {
      if (!Number.isFinite(c.threshold)) {
        throw malformed(
          "assay.suite_run.v1",
          `runs[${i}].criteria[${j}].threshold is not a finite number`,
        );
      }
    });
    const o = run.overall;
    return {
      id: run.golden_id,
      gateId: suiteGateId(run.golden_id, run.arm),
      slices: [run.arm],
      fails: (metric) =>
        metric === undefined
          ? o.pass === false || run.criteria.some(belowThreshold)
          : run.criteria.some((c) => c.metric === metric && belowThreshold(c)),
      text: () =>
        `${shownText(run.golden_id)}  [${shownText(run.arm)}]  repeat ${run.repeat}  ${
          shownText(o.status)
        }  overall ${o.overall ?? "-"}  pass ${o.pass === null ? "-" : o.pass ? "yes" : "NO"}\n` +
        run.criteria.map(criterionLine).join(""),
    };
  });
  return showUnits(
    {
      unit: "run",
      units: "runs",
      idName: "golden",
      metrics: report.scorecard.metrics,
      slice: { name: "arm", known: [...new Set(report.runs.map((r) => r.arm))] },
    },
    units,
    selection,
    source,
  );
}
