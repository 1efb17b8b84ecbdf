/**
 * The scorecard of a metric suite: per arm, pass rate, mean overall score and per-metric mean
 * scores, each with a bootstrap interval clustered by golden; and the paired comparison of two
 * arms (B − A), refused when their metrics, thresholds or rubric hashes differ.
 *
 * Rows are the metric store's: one {@linkcode ScoreRow} per (golden, arm, repeat, metric).
 * A run's overall score is the mean of its applicable criteria; it passes when that reaches
 * the threshold of the suite's first metric. A judge error (an applicable criterion with a
 * null score) never counts as 0 or 1: the run is `incomplete`, its `pass` is null, and it is
 * left out of the pass rate and the mean overall score (and counted); its scored criteria
 * still count in their metrics' means.
 *
 * Every statistic is a ratio of pooled sums, computed exactly and rounded once, so it does not
 * depend on summation order. Intervals resample goldens with replacement (sfc32 + Lemire
 * draws over the goldens sorted by code point), each drawn golden bringing all its repeats,
 * and take NumPy's linear percentiles, as {@linkcode pairedBootstrap} does.
 *
 * @module
 */
import { assertSameRubric } from "./_judge_rubric.ts";
import { bootstrapSettings } from "./bootstrap.ts";
import { Sfc32 } from "./prng.ts";
import { compareCodePoints } from "./_order.ts";
import {
  clusterResample,
  exactMean,
  percentileInterval,
  PooledColumn,
} from "./_cluster_bootstrap.ts";

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
  /** `overall ≥ threshold` when complete, otherwise null. */
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
  /** Runs with a judge error: left out of the pass rate and the mean overall score. */
  n_incomplete: number;
  /** Runs where no criterion applies: likewise left out. */
  n_unscored: number;
  /** The pass threshold: the first metric's. */
  threshold: number;
  /** Passing runs over complete runs. */
  pass_rate: Estimate;
  /** Mean overall score of complete runs. */
  overall: Estimate;
  /** Per metric, in suite order. */
  metrics: MetricSummary[];
}

/** How the intervals were made, as recorded in the output. */
export interface ClusterBootstrapSettings {
  /** The PRNG. */
  prng: string;
  /** How its outputs become indices. */
  draw: string;
  /** Its seed. */
  seed: number;
  /** Resamples per interval. */
  resamples: number;
  /** Interval level. */
  level: number;
  /** Always `percentile` (NumPy's linear rule). */
  interval: "percentile";
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

/** A paired statistic: both arms over the shared goldens, and B − A with its interval. */
export interface ArmDelta {
  /** Arm A. */
  a: Estimate;
  /** Arm B. */
  b: Estimate;
  /** `b.value − a.value`; null when either is null. */
  delta: number | null;
  /** The percentile interval of the delta. */
  ci: [number, number] | null;
  /** Resamples where either side was undefined, left out of the interval. */
  undefined_resamples: number;
}

/** One metric of a comparison. */
export interface MetricComparison extends ArmDelta {
  /** The metric. */
  metric: string;
  /** Its threshold (the same in both arms). */
  threshold: number;
  /** Its rubric hash (the same in both arms), or null when none is recorded. */
  rubric_sha256: string | null;
}

/** The paired comparison of two arms, B − A. */
export interface ArmComparison {
  /** How the intervals were made (one stream; both arms share every draw). */
  bootstrap: ClusterBootstrapSettings;
  /** Arm A (the reference). */
  a: string;
  /** Arm B. */
  b: string;
  /** The metric names, in suite order. */
  metrics: string[];
  /** The pass threshold: the first metric's. */
  threshold: number;
  /** Goldens run by both arms: the paired clusters. */
  n_goldens: number;
  /** Goldens run by one arm only, left out: counts. */
  dropped: { a: number; b: number };
  /** Their ids, sorted by code point. */
  dropped_goldens: { a: string[]; b: string[] };
  /** Pass rate. */
  pass_rate: ArmDelta;
  /** Mean overall score. */
  overall: ArmDelta;
  /** Per metric, in suite order. */
  metrics_delta: MetricComparison[];
}

/** One way two arms cannot be compared. */
export interface ArmDifference {
  /** What differs. */
  kind: "metric_set" | "threshold" | "rubric_sha256";
  /** The metric concerned, if one. */
  metric: string | null;
  /** Exactly what differs. */
  detail: string;
}

/** Two arms cannot be compared: their metrics, thresholds or rubric hashes differ. */
export class ArmComparisonError extends Error {
  /** Every difference found. */
  readonly differences: ArmDifference[];

  /**
   * Creates the error; its message says exactly what differs.
   *
   * @param differences What differs; at least one.
   */
  constructor(differences: ArmDifference[]) {
    super(`Refusing to compare arms: ${differences.map((d) => d.detail).join("; ")}`);
    this.name = "ArmComparisonError";
    this.differences = differences;
  }
}

const quote = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);

function checkRow(row: unknown, at: string): ScoreRow {
  if (typeof row !== "object" || row === null || Array.isArray(row)) {
    throw new TypeError(`${at} must be an object`);
  }
  const r = row as Record<string, unknown>;
  for (const k of ["golden_id", "arm", "metric"]) {
    if (typeof r[k] !== "string") throw new TypeError(`${at}.${k} must be a string`);
  }
  if (typeof r.repeat !== "number" || !Number.isSafeInteger(r.repeat) || r.repeat < 0) {
    throw new RangeError(`${at}.repeat must be an integer ≥ 0, got ${String(r.repeat)}`);
  }
  if (typeof r.applicable !== "boolean") throw new TypeError(`${at}.applicable must be a boolean`);
  for (const k of ["score", "threshold"]) {
    const v = r[k];
    if (k === "score" && v === null) continue;
    if (typeof v !== "number") throw new TypeError(`${at}.${k} must be a number`);
    if (!(v >= 0 && v <= 1)) throw new RangeError(`${at}.${k} must be in [0, 1], got ${v}`);
  }
  if (r.rubric_sha256 !== undefined && typeof r.rubric_sha256 !== "string") {
    throw new TypeError(`${at}.rubric_sha256 must be a string when present`);
  }
  return r as unknown as ScoreRow;
}

function checkMetrics(metrics: unknown): string[] {
  if (!Array.isArray(metrics) || metrics.length === 0) {
    throw new TypeError("metrics must be a non-empty array of metric names");
  }
  const seen = new Set<string>();
  for (const [i, m] of metrics.entries()) {
    if (typeof m !== "string") throw new TypeError(`metrics[${i}] must be a string`);
    if (seen.has(m)) throw new RangeError(`metrics[${i}] repeats the metric ${quote(m)}`);
    seen.add(m);
  }
  return [...metrics] as string[];
}

function runName(r: ScoreRow): string {
  return `(golden ${quote(r.golden_id)}, arm ${quote(r.arm)}, repeat ${r.repeat})`;
}

/** Checks one run's rows against the metric order; returns them in that order. */
function alignRun(rows: readonly ScoreRow[], metrics: readonly string[]): ScoreRow[] {
  const byMetric = new Map<string, ScoreRow>();
  for (const r of rows) {
    if (!metrics.includes(r.metric)) {
      throw new RangeError(`Run ${runName(r)} has a row for ${quote(r.metric)}, not in metrics`);
    }
    if (byMetric.has(r.metric)) {
      throw new RangeError(`Run ${runName(r)} has two rows for metric ${quote(r.metric)}`);
    }
    byMetric.set(r.metric, r);
  }
  return metrics.map((m) => {
    const r = byMetric.get(m);
    if (r === undefined) {
      throw new RangeError(`Run ${runName(rows[0]!)} has no row for ${quote(m)}`);
    }
    return r;
  });
}

function overallOf(aligned: readonly ScoreRow[]): RunOverall {
  const scored: number[] = [];
  const errored: string[] = [];
  let applicable = 0;
  for (const r of aligned) {
    if (!r.applicable) continue;
    applicable++;
    if (r.score === null) errored.push(r.metric);
    else scored.push(r.score);
  }
  const overall = exactMean(scored);
  const threshold = aligned[0]!.threshold;
  const status = applicable === 0 ? "unscored" : errored.length > 0 ? "incomplete" : "complete";
  return {
    status,
    overall,
    pass: status === "complete" ? overall! >= threshold : null,
    threshold,
    n_applicable: applicable,
    n_scored: scored.length,
    errored,
  };
}

/**
 * The overall score of one run: the mean of its applicable criteria, and whether it passes.
 *
 * @param rows The run's rows: one per metric of `metricOrder`, all of one (golden, arm, repeat).
 * @param metricOrder The suite's metric names, in suite order; the first sets the threshold.
 * @returns The run's overall score, pass and status; a judge error makes it `incomplete`,
 *   with `pass` null (never a silent 0 or 1).
 * @throws {TypeError} If a row or name is malformed.
 * @throws {RangeError} If the rows are of several runs, or miss or repeat a metric.
 *
 * @example A judge error leaves the pass undecided
 * ```ts
 * import { runOverall, type ScoreRow } from "@assay/assay/scorecard";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const row = (metric: string, score: number | null): ScoreRow => ({
 *   golden_id: "g1", arm: "base", repeat: 0, metric, score, applicable: true, threshold: 0.5,
 * });
 * assertEquals(runOverall([row("a", 1), row("b", 0.5)], ["a", "b"]).overall, 0.75);
 * assertEquals(runOverall([row("a", 1), row("b", 0.5)], ["a", "b"]).pass, true);
 * const r = runOverall([row("a", 1), row("b", null)], ["a", "b"]);
 * assertEquals([r.status, r.pass, r.errored], ["incomplete", null, ["b"]]);
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

/** One golden's runs in one arm, each aligned to the metric order. */
type Golden = { id: string; runs: { rows: ScoreRow[]; overall: RunOverall }[] };

/** Checks every row. */
function checkRows(rows: readonly ScoreRow[]): ScoreRow[] {
  if (!Array.isArray(rows)) throw new TypeError("rows must be an array of score rows");
  return rows.map((row, i) => checkRow(row, `rows[${i}]`));
}

/** Groups checked rows: arm → goldens sorted by code point → runs in repeat order. */
function groupRows(rows: readonly ScoreRow[], metrics: readonly string[]): Map<string, Golden[]> {
  const runs = new Map<string, ScoreRow[]>();
  for (const r of rows) {
    const key = JSON.stringify([r.arm, r.golden_id, r.repeat]);
    const list = runs.get(key);
    if (list) list.push(r);
    else runs.set(key, [r]);
  }
  const arms = new Map<string, Map<string, Golden>>();
  for (const list of runs.values()) {
    const r0 = list[0]!;
    const aligned = alignRun(list, metrics);
    let goldens = arms.get(r0.arm);
    if (!goldens) arms.set(r0.arm, goldens = new Map());
    let g = goldens.get(r0.golden_id);
    if (!g) goldens.set(r0.golden_id, g = { id: r0.golden_id, runs: [] });
    g.runs.push({ rows: aligned, overall: overallOf(aligned) });
  }
  const out = new Map<string, Golden[]>();
  for (const arm of [...arms.keys()].sort(compareCodePoints)) {
    const gs = [...arms.get(arm)!.values()].sort((x, y) => compareCodePoints(x.id, y.id));
    for (const g of gs) g.runs.sort((x, y) => x.rows[0]!.repeat - y.rows[0]!.repeat);
    out.set(arm, gs);
  }
  return out;
}

/** Per metric of an arm: the single value of `pick` over its rows, or a list of them. */
function distinct(goldens: readonly Golden[], m: number, pick: (r: ScoreRow) => string): string[] {
  const seen = new Set<string>();
  for (const g of goldens) for (const run of g.runs) seen.add(pick(run.rows[m]!));
  return [...seen].sort(compareCodePoints);
}

function thresholdOf(arm: string, goldens: readonly Golden[], m: number, name: string): number {
  const ts = distinct(goldens, m, (r) => String(r.threshold));
  if (ts.length > 1) {
    throw new RangeError(
      `Arm ${quote(arm)}: metric ${quote(name)} has thresholds ${ts.join(", ")}`,
    );
  }
  return goldens[0]!.runs[0]!.rows[m]!.threshold;
}

/** The columns of an arm, in order: pass, overall, then each metric's scores. */
function columnsOf(goldens: readonly Golden[], metrics: readonly string[]): PooledColumn[] {
  const complete = (g: Golden) => g.runs.filter((r) => r.overall.status === "complete");
  return [
    new PooledColumn(goldens.map((g) => complete(g).map((r) => r.overall.pass ? 1 : 0))),
    new PooledColumn(goldens.map((g) => complete(g).map((r) => r.overall.overall!))),
    ...metrics.map((_, m) =>
      new PooledColumn(goldens.map((g) =>
        g.runs.flatMap((r) => {
          const row = r.rows[m]!;
          return row.applicable && row.score !== null ? [row.score] : [];
        })
      ))
    ),
  ];
}

function estimate(column: PooledColumn, resampled: Float64Array, level: number): Estimate {
  const [sum, count, mean] = column.pool(new Int32Array(column.goldens).fill(1));
  return {
    value: count === 0 ? null : mean,
    numerator: sum,
    denominator: count,
    ...percentileInterval(resampled, level),
  };
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
 * import { scorecard, type ScoreRow } from "@assay/assay/scorecard";
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

/** What differs between two arms' metric sets, thresholds and rubric hashes. */
function armDifferences(
  rows: readonly ScoreRow[],
  a: string,
  b: string,
): ArmDifference[] {
  const info = (arm: string) => {
    const m = new Map<string, { thresholds: Set<number>; hashes: Set<string | null> }>();
    for (const r of rows) {
      if (r.arm !== arm) continue;
      let e = m.get(r.metric);
      if (!e) m.set(r.metric, e = { thresholds: new Set(), hashes: new Set() });
      e.thresholds.add(r.threshold);
      e.hashes.add(r.rubric_sha256 ?? null);
    }
    return m;
  };
  const ia = info(a);
  const ib = info(b);
  const out: ArmDifference[] = [];
  const onlyA = [...ia.keys()].filter((m) => !ib.has(m)).sort(compareCodePoints);
  const onlyB = [...ib.keys()].filter((m) => !ia.has(m)).sort(compareCodePoints);
  if (onlyA.length + onlyB.length > 0) {
    const list = (ms: string[]) => ms.length ? ms.map(quote).join(", ") : "none";
    out.push({
      kind: "metric_set",
      metric: null,
      detail: `the metric sets differ (only in ${quote(a)}: ${list(onlyA)}; only in ${quote(b)}: ${
        list(onlyB)
      })`,
    });
  }
  const shared = [...ia.keys()].filter((m) => ib.has(m)).sort(compareCodePoints);
  const fmt = (xs: Iterable<string | number | null>) =>
    [...xs].map((x) => x === null ? "none" : typeof x === "string" ? quote(x) : String(x))
      .sort(compareCodePoints).join(", ");
  for (const m of shared) {
    const x = ia.get(m)!;
    const y = ib.get(m)!;
    const ts = new Set([...x.thresholds, ...y.thresholds]);
    if (ts.size > 1) {
      out.push({
        kind: "threshold",
        metric: m,
        detail: `metric ${quote(m)} has threshold ${fmt(x.thresholds)} in ${quote(a)} and ${
          fmt(y.thresholds)
        } in ${quote(b)}`,
      });
    }
    const hs = new Set([...x.hashes, ...y.hashes]);
    if (hs.size > 1) {
      out.push({
        kind: "rubric_sha256",
        metric: m,
        detail: `metric ${quote(m)}: scores made under different rubric hashes cannot be ` +
          `compared (${quote(a)}: ${fmt(x.hashes)}; ${quote(b)}: ${fmt(y.hashes)})`,
      });
    }
  }
  return out;
}

function pairedDelta(
  ca: PooledColumn,
  cb: PooledColumn,
  ra: Float64Array,
  rb: Float64Array,
  level: number,
): ArmDelta {
  const a = estimate(ca, ra, level);
  const b = estimate(cb, rb, level);
  const d = ra.map((x, i) => rb[i]! - x);
  return {
    a,
    b,
    delta: a.value === null || b.value === null ? null : b.value - a.value,
    ...percentileInterval(d, level),
  };
}

/**
 * Compares two arms, B − A, paired by golden: only goldens both arms ran count, and every
 * resample draws the same goldens for both (each arm pooling its own repeats of them).
 *
 * @param rows The metric store's rows (other arms' rows are ignored).
 * @param arms `[a, b]`: the reference arm and the arm compared with it.
 * @param options The suite's metrics in order (required), seed (default 0), resamples
 *   (default 10,000) and level (default 0.95).
 * @returns Pass rate, mean overall score and per-metric deltas with paired intervals.
 * @throws {ArmComparisonError} If the arms' metric sets, a metric's threshold or a metric's
 *   rubric hashes differ: scores made under different rubric hashes cannot be compared.
 * @throws {TypeError} If a row or option is malformed.
 * @throws {RangeError} If an arm has no rows, the arms are the same, the arms share no
 *   golden, or a run misses or repeats a metric.
 *
 * @example Same goldens, B better on one
 * ```ts
 * import { compareArms, type ScoreRow } from "@assay/assay/scorecard";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const row = (arm: string, golden_id: string, score: number): ScoreRow => ({
 *   golden_id, arm, repeat: 0, metric: "accuracy", score, applicable: true, threshold: 0.5,
 * });
 * const rows = [row("base", "g1", 0), row("base", "g2", 1), row("new", "g1", 1), row("new", "g2", 1)];
 * const c = compareArms(rows, ["base", "new"], { metrics: ["accuracy"], seed: 1, resamples: 1000 });
 * assertEquals(c.pass_rate.delta, 0.5);
 * assertEquals(c.metrics_delta[0]!.delta, 0.5);
 * ```
 */
export function compareArms(
  rows: readonly ScoreRow[],
  arms: readonly [string, string],
  options: ScorecardOptions,
): ArmComparison {
  const metrics = checkMetrics(options?.metrics);
  const s = bootstrapSettings(options);
  if (!Array.isArray(arms) || arms.length !== 2 || !arms.every((x) => typeof x === "string")) {
    throw new TypeError("arms must be two arm names, [a, b]");
  }
  const [a, b] = arms;
  if (a === b) throw new RangeError(`Cannot compare arm ${quote(a)} with itself`);
  const checked = checkRows(rows).filter((r) => r.arm === a || r.arm === b);
  for (const arm of arms) {
    if (!checked.some((r) => r.arm === arm)) throw new RangeError(`No rows for arm ${quote(arm)}`);
  }
  const differences = armDifferences(checked, a, b);
  if (differences.length > 0) throw new ArmComparisonError(differences);
  const grouped = groupRows(checked, metrics);
  const ga = grouped.get(a)!;
  const gb = grouped.get(b)!;
  const inB = new Set(gb.map((g) => g.id));
  const inA = new Set(ga.map((g) => g.id));
  const pa = ga.filter((g) => inB.has(g.id));
  const pb = gb.filter((g) => inA.has(g.id));
  if (pa.length === 0) {
    throw new RangeError(`Arms ${quote(a)} and ${quote(b)} share no golden`);
  }
  const ca = columnsOf(pa, metrics);
  const cb = columnsOf(pb, metrics);
  const res = clusterResample([...ca, ...cb], pa.length, new Sfc32(s.seed), s.resamples);
  const k = ca.length;
  const delta = (i: number) => pairedDelta(ca[i]!, cb[i]!, res[i]!, res[k + i]!, s.level);
  const firstRow = pa[0]!.runs[0]!.rows;
  const droppedA = ga.filter((g) => !inB.has(g.id)).map((g) => g.id);
  const droppedB = gb.filter((g) => !inA.has(g.id)).map((g) => g.id);
  return {
    bootstrap: { ...s, cluster: "golden" },
    a,
    b,
    metrics,
    threshold: firstRow[0]!.threshold,
    n_goldens: pa.length,
    dropped: { a: droppedA.length, b: droppedB.length },
    dropped_goldens: { a: droppedA, b: droppedB },
    pass_rate: delta(0),
    overall: delta(1),
    metrics_delta: metrics.map((metric, m) => ({
      metric,
      threshold: firstRow[m]!.threshold,
      rubric_sha256: firstRow[m]!.rubric_sha256 ?? null,
      ...delta(m + 2),
    })),
  };
}
