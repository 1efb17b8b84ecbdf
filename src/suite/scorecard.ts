/**
 * The scorecard of a metric suite: per arm, pass rate, mean overall score and per-metric mean
 * scores, each with a bootstrap interval clustered by golden. The paired comparison of two arms
 * is in `@assay/assay/suite`.
 *
 * Rows are the metric store's: one {@linkcode ScoreRow} per (golden, arm, repeat, metric).
 * A run's overall score is the mean of its applicable criteria; it passes when that reaches
 * the threshold of the suite's first metric. A judge error (an applicable criterion with a
 * null score) never counts as a score: the run is `incomplete`, its overall score is left out
 * of the mean overall score (and counted), and its scored criteria still count in their
 * metrics' means. Its pass is decided only when the missing scores cannot change it: when its
 * overall score with every missing score at 0 still reaches the threshold (pass), or with every
 * one at 1 still stays under it (fail); such a run counts in the pass rate. Otherwise its `pass`
 * is null and it is left out of the pass rate.
 *
 * Every statistic is a ratio of pooled sums, computed exactly and rounded once, so it does not
 * depend on summation order. Intervals resample goldens with replacement (sfc32 + Lemire
 * draws over the goldens sorted by code point), each drawn golden bringing all its repeats,
 * and take NumPy's linear percentiles, as {@linkcode pairedBootstrap} does.
 *
 * @module
 */
import { clusterResample } from "../stats/pooled/mod.ts";
import { assertSameRubric } from "./judge/mod.ts";
import { type BootstrapSettings, bootstrapSettings } from "../stats/mod.ts";
import { checkOptions, Sfc32 } from "../engine/mod.ts";
import {
  alignRun,
  checkMetrics,
  checkRow,
  checkRows,
  columnsOf,
  distinct,
  estimate,
  groupRows,
  overallOf,
  runName,
  thresholdOf,
} from "./_score_rows.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** One metric's result for one run: a row of the metric store. */
export interface ScoreRow {
  /** The golden the run answered. */
  golden_id: string;
  /** The arm (system variant) that ran. */
  arm: string;
  /** The repeat number, an integer ≥ 0. */
  repeat: number;
  /** The metric's name (its `name`, or its `type`). */
  metric: string;
  /** The score in [0, 1]; null when not applicable or when a judge failed. */
  score: number | null;
  /** Whether the metric applies to this run. */
  applicable: boolean;
  /** The metric's threshold in [0, 1]. */
  threshold: number;
  /** The hash of the rendered judge prompt, for judge metrics. */
  rubric_sha256?: string;
}

/** How one run scored overall. */
export interface RunOverall {
  /** `complete`: every applicable criterion scored; `incomplete`: a judge error; `unscored`: nothing applicable. */
  status: "complete" | "incomplete" | "unscored";
  /** Mean of the scored applicable criteria (partial when incomplete); null when none. */
  overall: number | null;
  /**
   * `overall ≥ threshold` when complete. When incomplete, the verdict the missing scores cannot
   * change: true when the overall score with each of them at 0 reaches the threshold, false when
   * with each at 1 it stays under it, else null. Null when unscored.
   */
  pass: boolean | null;
  /** The pass threshold: the first metric's. */
  threshold: number;
  /** Applicable criteria. */
  n_applicable: number;
  /** Applicable criteria with a score. */
  n_scored: number;
  /** Applicable criteria without a score (judge errors), in metric order. */
  errored: string[];
}

/** Options of {@linkcode scorecard} and {@linkcode compareArms}. */
export interface ScorecardOptions {
  /** The suite's metric names, in suite order (the first sets the pass threshold). */
  metrics: readonly string[];
  /** The PRNG seed, an integer in [0, 2^32) (default 0). */
  seed?: number;
  /** Resamples (default 10,000). */
  resamples?: number;
  /** Interval level (default 0.95). */
  level?: number;
}

/** A pooled statistic, numerator / denominator, with its clustered interval. */
export interface Estimate {
  /** The ratio; null when the denominator is 0. */
  value: number | null;
  /** Passes, or the sum of scores. */
  numerator: number;
  /** Runs counted. */
  denominator: number;
  /** The percentile interval; null when no resample defines the statistic. */
  ci: [number, number] | null;
  /** Resamples that drew no counted run, left out of the interval. */
  undefined_resamples: number;
}

/** One metric of one arm. */
export interface MetricSummary {
  /** The metric. */
  metric: string;
  /** Its threshold. */
  threshold: number;
  /** The distinct rubric hashes of its rows, sorted (empty when none is recorded). */
  rubric_sha256: string[];
  /** Runs where it applies. */
  n_applicable: number;
  /** Of those, runs without a score (judge errors), left out of the mean. */
  n_errors: number;
  /** Mean score over the applicable runs with a score. */
  mean: Estimate;
}

/** One arm of a scorecard. */
export interface ArmScorecard {
  /** The arm. */
  arm: string;
  /** Runs. */
  n_runs: number;
  /** Goldens (the bootstrap's clusters). */
  n_goldens: number;
  /**
   * Runs with a judge error: left out of the mean overall score, and out of the pass rate unless
   * their missing scores cannot change their pass (`RunOverall.pass` not null).
   */
  n_incomplete: number;
  /** Runs where no criterion applies: left out of the pass rate and the mean overall score. */
  n_unscored: number;
  /** The pass threshold: the first metric's. */
  threshold: number;
  /** Passing runs over runs with a pass verdict (complete, or incomplete but decided). */
  pass_rate: Estimate;
  /** Mean overall score of complete runs. */
  overall: Estimate;
  /** Per metric, in suite order. */
  metrics: MetricSummary[];
}

/** How the intervals were made, as recorded in the output. */
export interface ClusterBootstrapSettings extends BootstrapSettings {
  /** Always `golden`: goldens are drawn, each with all its repeats. */
  cluster: "golden";
}

/** The scorecard of every arm. */
export interface Scorecard {
  /** How the intervals were made (each arm draws from its own stream, seeded with `seed`). */
  bootstrap: ClusterBootstrapSettings;
  /** The metric names, in suite order. */
  metrics: string[];
  /** Per arm, sorted by code point. */
  arms: ArmScorecard[];
}

/**
 * The overall score of one run: the mean of its applicable criteria, and whether it passes.
 *
 * @param rows The run's rows: one per metric of `metricOrder`, all of one (golden, arm, repeat).
 * @param metricOrder The suite's metric names, in suite order; the first sets the threshold.
 * @returns The run's overall score, pass and status; a judge error makes it `incomplete`, its
 *   overall score that of the scored criteria (never a silent 0 or 1), and its `pass` the
 *   verdict every value of the missing scores gives, or null when they could decide either way.
 * @throws {TypeError} If a row or name is malformed.
 * @throws {RangeError} If the rows are of several runs, or miss or repeat a metric.
 *
 * @example A judge error decides the pass only when no score it could give would change it
 * ```ts
 * import { runOverall, type ScoreRow } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const row = (metric: string, score: number | null): ScoreRow => ({
 *   golden_id: "g1", arm: "base", repeat: 0, metric, score, applicable: true, threshold: 0.6,
 * });
 * const order = ["a", "b", "c"];
 * assertEquals(runOverall([row("a", 1), row("b", 0.5), row("c", 1)], order).pass, true);
 * // c failed: (1 + 0.5 + 0) / 3 = 0.5 and (1 + 0.5 + 1) / 3 = 0.83 straddle 0.6: no verdict.
 * const r = runOverall([row("a", 1), row("b", 0.5), row("c", null)], order);
 * assertEquals([r.status, r.overall, r.pass, r.errored], ["incomplete", 0.75, null, ["c"]]);
 * // (0 + 0.5 + 1) / 3 = 0.5 < 0.6 even at c = 1: fails. (1 + 1 + 0) / 3 ≥ 0.6 at c = 0: passes.
 * assertEquals(runOverall([row("a", 0), row("b", 0.5), row("c", null)], order).pass, false);
 * assertEquals(runOverall([row("a", 1), row("b", 1), row("c", null)], order).pass, true);
 * ```
 */
export function runOverall(rows: readonly ScoreRow[], metricOrder: readonly string[]): RunOverall {
  const metrics = checkMetrics(metricOrder);
  if (!Array.isArray(rows) || rows.length === 0) {
    throw new TypeError("rows must be a non-empty array of one run's rows");
  }
  const checked = rows.map((r, i) => checkRow(r, `rows[${i}]`));
  const first = checked[0]!;
  for (const [i, r] of checked.entries()) {
    if (r.golden_id !== first.golden_id || r.arm !== first.arm || r.repeat !== first.repeat) {
      throw new RangeError(`rows[${i}] is of run ${runName(r)}, not ${runName(first)}`);
    }
  }
  return overallOf(alignRun(checked, metrics));
}

/**
 * The scorecard of every arm: pass rate, mean overall score and per-metric mean scores, each
 * with a percentile interval from a bootstrap that resamples goldens (all repeats of a drawn
 * golden come with it).
 *
 * @param rows The metric store's rows: one per (golden, arm, repeat, metric of the suite).
 * @param options The suite's metrics in order (required), seed (default 0), resamples
 *   (default 10,000) and level (default 0.95).
 * @returns Per arm (sorted by code point) its statistics; same rows and seed, same output.
 * @throws {TypeError} If a row or option is malformed.
 * @throws {RangeError} If a run misses or repeats a metric, has one not in `metrics`, a
 *   metric's threshold varies within an arm, or an option is out of range.
 * @throws {RubricMismatchError} If a metric's scores were made under different rubric hashes.
 *
 * @example Two goldens, two repeats each
 * ```ts
 * import { scorecard, type ScoreRow } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const row = (golden_id: string, repeat: number, score: number): ScoreRow => ({
 *   golden_id, arm: "base", repeat, metric: "accuracy", score, applicable: true, threshold: 0.5,
 * });
 * const rows = [row("g1", 0, 1), row("g1", 1, 1), row("g2", 0, 0), row("g2", 1, 0.5)];
 * const card = scorecard(rows, { metrics: ["accuracy"], seed: 1, resamples: 1000 });
 * const base = card.arms[0]!;
 * assertEquals([base.n_runs, base.n_goldens], [4, 2]);
 * assertEquals(base.pass_rate.value, 0.75);
 * assertEquals(base.metrics[0]!.mean.value, 0.625);
 * assertEquals(base.pass_rate.ci, [0.5, 1]);
 * ```
 */
export function scorecard(rows: readonly ScoreRow[], options: ScorecardOptions): Scorecard {
  checkOptions(options);
  checkOptionNames("scorecard", options, { metrics: 1, seed: 1, resamples: 1, level: 1 });
  const metrics = checkMetrics(options?.metrics);
  // Scores made under different rubrics are never aggregated.
  if (Array.isArray(rows)) {
    assertSameRubric(rows.filter((r) => typeof r?.rubric_sha256 === "string"));
  }
  const s = bootstrapSettings(options);
  const arms: ArmScorecard[] = [];
  for (const [arm, goldens] of groupRows(checkRows(rows), metrics)) {
    const thresholds = metrics.map((m, i) => thresholdOf(arm, goldens, i, m));
    const columns = columnsOf(goldens, metrics);
    const res = clusterResample(columns, goldens.length, new Sfc32(s.seed), s.resamples);
    const est = columns.map((c, i) => estimate(c, res[i]!, s.level));
    const allRuns = goldens.flatMap((g) => g.runs);
    arms.push({
      arm,
      n_runs: allRuns.length,
      n_goldens: goldens.length,
      n_incomplete: allRuns.filter((r) => r.overall.status === "incomplete").length,
      n_unscored: allRuns.filter((r) => r.overall.status === "unscored").length,
      threshold: thresholds[0]!,
      pass_rate: est[0]!,
      overall: est[1]!,
      metrics: metrics.map((metric, m) => {
        const rs = allRuns.map((r) => r.rows[m]!).filter((r) => r.applicable);
        return {
          metric,
          threshold: thresholds[m]!,
          rubric_sha256: distinct(goldens, m, (r) => r.rubric_sha256 ?? "").filter((h) => h),
          n_applicable: rs.length,
          n_errors: rs.filter((r) => r.score === null).length,
          mean: est[m + 2]!,
        };
      }),
    });
  }
  return { bootstrap: { ...s, cluster: "golden" }, metrics, arms };
}
