/**
 * The reports of a suite run and of a calibration, as `assay suite run --out` and
 * `assay calibrate --out` write them and `assay gate` reads them.
 *
 * @module
 */
import { checkOptions, TOOL } from "../engine/mod.ts";
import {
  calibrate,
  type Calibration,
  type CalibrationOptions,
  type CalibrationPair,
} from "./calibration.ts";
import type { RunResult } from "./run.ts";
import { type Scorecard, scorecard } from "./scorecard.ts";
import { type TrajectorySummary, trajectorySummary } from "./step_metrics.ts";
import type { Suite } from "./suite.ts";
import type { Golden } from "./types.ts";
import type { RepeatsReport } from "./uncertainty.ts";
import { checkMemoryGoldens, checkRunGoldens } from "./_input_checks.ts";
import { repeatsSection } from "./_repeats_section.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** The `assay.suite_run.v1` report. */
export interface SuiteRunReport {
  /** Always `assay.suite_run.v1`. */
  schema: "assay.suite_run.v1";
  /** The tool that wrote it. */
  tool: typeof TOOL;
  /** The suite's name. */
  suite: string;
  /** The SHA-256 of the suite file's text, in hex. */
  suite_sha256: string;
  /** The run's id in its metric store, or null when it was not stored. */
  run_id: string | null;
  /** `on`: judges ran; `off`: they were skipped; `none`: the suite has none. */
  judge: "on" | "off" | "none";
  /**
   * The SHA-256 of the goldens and catalog files' bytes, in hex, when known (`assay suite run`
   * records them since 2026-12-06): the references the metrics scored against.
   */
  inputs?: { goldens: { sha256: string }; catalog: { sha256: string } };
  /** Every scored run. */
  runs: RunResult[];
  /** The scorecard of every arm. */
  scorecard: Scorecard;
  /** The trajectory_match metrics' summaries, when the suite has any. */
  trajectory?: TrajectorySummary[];
  /** The reduced repeats, when the suite has a `repeats` block. */
  repeats?: RepeatsReport;
}

/** Options of {@linkcode suiteRunReport}. */
export interface SuiteRunReportOptions {
  /** The SHA-256 of the suite file's text, in hex. */
  suiteSha256: string;
  /** The run's id in its metric store (default null: not stored). */
  runId?: string | null;
  /** Whether judges ran (default: `none` when the suite has no judge, else `on`). */
  judge?: "on" | "off" | "none";
  /** The SHA-256 of the goldens and catalog files' bytes, in hex (default: not recorded). */
  inputs?: { goldensSha256: string; catalogSha256: string };
  /** The bootstrap seed of the scorecard and the repeats (default 0). */
  seed?: number;
  /** Their resamples (default 10,000). */
  resamples?: number;
  /**
   * The arm the repeats compare every other arm with, each delta that arm minus it (default: the
   * suite's `repeats.baseline`, else the first arm in code-point order). `assay suite run
   * --baseline ARM` passes it; the order of the runs never decides it.
   */
  baseline?: string;
}

/**
 * The report of a suite run: its runs, the scorecard of every arm, the trajectory summaries and,
 * with a `repeats` block, the reduced repeats. The goldens are checked as `runSuite` checks them
 * (by the rules `readGoldens` applies to a goldens file's lines, and for a value no file can
 * hold: NaN, undefined, a Date); the runs are taken as `runSuite` returned them, and checked
 * only as `runSuite` checks a trace's golden: a run of none of the goldens is refused.
 *
 * @param suite The suite.
 * @param runs The runs, as {@linkcode runSuite} returns them.
 * @param goldens The goldens (the repeats' clusters are read from them).
 * @param options The suite's hash, the run's id and the bootstrap settings.
 * @returns The `assay.suite_run.v1` report.
 * @throws {SuiteInputError} At the first golden so refused, named by its index and id
 *   (`goldens[0] (id "g1"): topic is NaN, which JSON cannot hold`), or at the first run whose
 *   golden is none of them (`runs[2] (golden_id "g9"): no golden with this id in goldens`).
 * @throws {RangeError} If a golden lacks the field the repeats cluster by, or the baseline arm
 *   has no runs.
 *
 * @example A report a gate reads
 * ```ts
 * import { loadSuite, runSuite, suiteRunReport } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const suite = loadSuite("- type: hit_limit\n");
 * const goldens = [{ id: "g1", question: "How many orders?" }];
 * const runs = await runSuite(suite, {
 *   goldens,
 *   traces: [{
 *     golden_id: "g1", arm: "base", repeat: 0, tool_calls: [], sql: [], final_rows: null,
 *     final_answer: null, submitted: true, hit_turn_limit: false,
 *   }],
 *   catalog: { views: [] },
 * });
 * const report = suiteRunReport(suite, runs, goldens, { suiteSha256: "0".repeat(64) });
 * strictEqual(report.scorecard.arms[0]!.pass_rate.value, 1);
 * ```
 */
export function suiteRunReport(
  suite: Suite,
  runs: RunResult[],
  goldens: readonly Golden[],
  options: SuiteRunReportOptions,
): SuiteRunReport {
  checkOptions(options);
  checkOptionNames("suiteRunReport", options, {
    inputs: 1,
    seed: 1,
    resamples: 1,
    judge: 1,
    baseline: 1,
    runId: 1,
    suiteSha256: 1,
  });
  checkMemoryGoldens(goldens);
  checkRunGoldens(runs, "runs", goldens);
  const names = suite.metrics.map((m) => m.name);
  const bootstrap = {
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.resamples !== undefined && { resamples: options.resamples }),
  };
  const card = scorecard(runs.flatMap((r) => r.criteria), { metrics: names, ...bootstrap });
  const paths = suite.metrics.filter((m) => m.type === "trajectory_match").map((m) => m.name);
  const trajectory = paths.length === 0 ? undefined : trajectorySummary(runs, paths);
  const repeats = suite.repeats &&
    repeatsSection(runs, goldens, suite.repeats, {
      ...bootstrap,
      ...(options.baseline !== undefined && { baseline: options.baseline }),
    });
  const judged = suite.metrics.some((m) => m.type === "llm_judge");
  return {
    schema: "assay.suite_run.v1",
    tool: TOOL,
    suite: suite.name,
    suite_sha256: options.suiteSha256,
    run_id: options.runId ?? null,
    judge: options.judge ?? (judged ? "on" : "none"),
    ...(options.inputs && {
      inputs: {
        goldens: { sha256: options.inputs.goldensSha256 },
        catalog: { sha256: options.inputs.catalogSha256 },
      },
    }),
    runs,
    scorecard: card,
    ...(trajectory && { trajectory }),
    ...(repeats && { repeats }),
  };
}

/** The `assay.calibration.v1` report: {@linkcode calibrate}'s result, named. */
export interface CalibrationReport extends Calibration {
  /** Always `assay.calibration.v1`. */
  schema: "assay.calibration.v1";
  /** The tool that wrote it. */
  tool: typeof TOOL;
  /** Labels left out because the judge gave no score. */
  skipped_unscored: number;
}

/**
 * The report of a judge's calibration against human labels.
 *
 * @param pairs The judge's scores and the human labels.
 * @param options The threshold, κ bar and minimum number of pairs.
 * @param skippedUnscored Labels left out because the judge gave no score (default 0).
 * @returns The `assay.calibration.v1` report.
 * @throws {RangeError | TypeError} As {@linkcode calibrate}.
 *
 * @example
 * ```ts
 * import { calibrationReport } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const r = calibrationReport([{ judge: 1, human: 1 }, { judge: 0, human: 0 }], { minN: 1 });
 * strictEqual(r.agreement, 1);
 * ```
 */
export function calibrationReport(
  pairs: readonly CalibrationPair[],
  options: CalibrationOptions = {},
  skippedUnscored = 0,
): CalibrationReport {
  checkOptions(options);
  checkOptionNames("calibrationReport", options, { threshold: 1, kappaBar: 1, minN: 1 });
  return {
    schema: "assay.calibration.v1",
    tool: TOOL,
    ...calibrate(pairs, options),
    skipped_unscored: skippedUnscored,
  };
}
