/**
 * A stored suite run read back: the metric store keeps one flat {@linkcode ScoreRow} per run and
 * metric, the suite's metric order, its `repeats` and each golden's cluster key. From those,
 * {@linkcode storedRepeatsInputs} rebuilds what `repeatsReport` takes (the runs with their overall
 * scores, by the same `runOverall` as a live run, and goldens that carry their cluster values), so
 * that the repeats section of a stored run equals the live run's.
 *
 * @module
 */
import { checkOptions, compareCodePoints } from "../engine/mod.ts";
import { quote } from "../jsonl/mod.ts";
import type { RunResult } from "./run.ts";
import { runOverall, type ScoreRow } from "./scorecard.ts";
import type { Golden } from "./types.ts";
import { checkMetrics, checkRow } from "./_score_rows.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** Options of {@linkcode storedRepeatsInputs}. */
export interface StoredRepeatsOptions {
  /** The suite's metric names, in suite order (the first one's threshold decides a pass). */
  metrics: readonly string[];
  /** The golden field the repeats cluster by (the suite's `repeats.cluster`), if any. */
  cluster?: string;
  /** With `cluster`: each golden's cluster key, by golden id, as `clusterKeys` gives it. */
  clusters?: Iterable<readonly [string, string]>;
  /**
   * Every golden's id, as the run's goldens file listed them: a golden with no run is then listed
   * as mismatched, as in the live run. Without it, only the goldens of `clusters` and the rows.
   */
  goldens?: readonly string[];
}

/** What `repeatsReport` takes, rebuilt from a stored run. */
export interface RepeatsInputs {
  /** One result per (golden, arm, repeat) run, sorted by arm, golden and repeat. */
  results: RunResult[];
  /**
   * One golden per cluster key, carrying its cluster value; without `cluster`, one per id of
   * `goldens`, or, without either, one per golden of the rows (so that `repeatsReport`, which
   * refuses a run of none of its goldens, takes them).
   */
  goldens: Golden[];
}

/**
 * The golden field's value whose key `clusterKeys` gives as `key`. A number key is the text of a
 * finite number: no golden holds NaN or an infinity (`clusterKeys` refuses them), so a store that
 * gives `number:NaN` back was not written so, and is refused here rather than as a golden's NaN.
 */
function clusterValue(id: string, key: string): string | number {
  if (key.startsWith("string:")) return key.slice("string:".length);
  const text = key.startsWith("number:") ? key.slice("number:".length) : undefined;
  const value = Number(text);
  if (text === undefined || !Number.isFinite(value) || `${value}` !== text) {
    throw new RangeError(`Golden ${quote(id)} has a malformed cluster key ${quote(key)}`);
  }
  return value;
}

/**
 * Rebuilds a stored run's results and goldens for `repeatsReport`: the rows are grouped by run,
 * each run's overall score and pass come from `runOverall` (as `runSuite` computes them), and
 * each golden of `clusters` carries its cluster value under `cluster`. `repeatsReport` on these,
 * with the suite's `repeats` and the same seed and resamples, gives the live run's section.
 *
 * @param rows The run's score rows: one per (golden, arm, repeat, metric of `metrics`).
 * @param options The suite's metric order, the cluster field with each golden's key, and every
 *   golden's id.
 * @returns The runs (criteria in metric order) and the goldens.
 * @throws {TypeError} If a row or the metric list is malformed, or `cluster` comes without
 *   `clusters`.
 * @throws {RangeError} If a run misses or repeats a metric, a cluster key is malformed or
 *   repeated, or a golden with runs or of `goldens` has no cluster key.
 *
 * @example A stored run's repeats section
 * ```ts
 * import { repeatsReport, type ScoreRow, storedRepeatsInputs } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const row = (golden_id: string, repeat: number, score: number): ScoreRow => ({
 *   golden_id, arm: "base", repeat, metric: "accuracy", score, applicable: true, threshold: 0.5,
 * });
 * const rows = [row("g1", 0, 1), row("g1", 1, 0), row("g2", 0, 1), row("g2", 1, 1)];
 * const { results, goldens } = storedRepeatsInputs(rows, {
 *   metrics: ["accuracy"],
 *   cluster: "topic",
 *   clusters: [["g1", "string:sales"], ["g2", "string:sales"]],
 * });
 * const repeats = { n: 2, reducer: "mean" as const, cluster: "topic" };
 * const report = repeatsReport(results, goldens, repeats, { resamples: 100 });
 * strictEqual(report.arms[0]!.mean, 0.75);
 * strictEqual(report.arms[0]!.clusters, 1);
 * ```
 */
export function storedRepeatsInputs(
  rows: readonly ScoreRow[],
  options: StoredRepeatsOptions,
): RepeatsInputs {
  checkOptions(options);
  checkOptionNames("storedRepeatsInputs", options, {
    metrics: 1,
    goldens: 1,
    clusters: 1,
    cluster: 1,
  });
  if (!Array.isArray(rows)) throw new TypeError("rows must be an array of score rows");
  const runs = new Map<string, ScoreRow[]>();
  for (const r of rows) {
    const key = JSON.stringify([r?.arm, r?.golden_id, r?.repeat]);
    const list = runs.get(key);
    if (list) list.push(r);
    else runs.set(key, [r]);
  }
  const order = options.metrics;
  const results = [...runs.values()].map((list): RunResult => {
    const overall = runOverall(list, order);
    const criteria = [...list].sort((a, b) => order.indexOf(a.metric) - order.indexOf(b.metric));
    const { golden_id, arm, repeat } = list[0]!;
    return { golden_id, arm, repeat, criteria, overall };
  }).sort((a, b) =>
    compareCodePoints(a.arm, b.arm) || compareCodePoints(a.golden_id, b.golden_id) ||
    a.repeat - b.repeat
  );
  const field = options.cluster;
  const ids = options.goldens ?? [];
  if (field === undefined) {
    const all = options.goldens ?? [...new Set(results.map((r) => r.golden_id))];
    return { results, goldens: all.map((id) => ({ id, question: "" })) };
  }
  if (options.clusters === undefined) {
    throw new TypeError(`clusters are required to cluster by ${quote(field)}`);
  }
  const goldens = new Map<string, Golden>();
  for (const [id, key] of options.clusters) {
    if (goldens.has(id)) throw new RangeError(`Golden ${quote(id)} has two cluster keys`);
    goldens.set(id, { id, question: "", [field]: clusterValue(id, key) } as Golden);
  }
  for (const r of results) {
    if (!goldens.has(r.golden_id)) {
      throw new RangeError(`Golden ${quote(r.golden_id)} has runs but no cluster key`);
    }
  }
  for (const id of ids) {
    if (!goldens.has(id)) throw new RangeError(`Golden ${quote(id)} has no cluster key`);
  }
  return { results, goldens: [...goldens.values()] };
}

/** A score row as the metric store keeps it: a {@linkcode ScoreRow} and the pass it recorded. */
export interface StoredScoreRow extends Omit<ScoreRow, "rubric_sha256"> {
  /** The judge's rubric hash; null (or absent) for other metrics. */
  rubric_sha256?: string | null;
  /** Whether the score met the threshold; null without a score. */
  pass: boolean | null;
}

/**
 * What is wrong with a score row read back from a store, as a writer puts it there: a
 * {@linkcode ScoreRow} (strings, a repeat ≥ 0, a score and threshold in [0, 1]), of one of the
 * run's `metrics`, whose `pass` is null exactly when the score is, and else says whether the
 * score meets the threshold.
 *
 * @param row The row, as read.
 * @param metrics The run's metric names, as stored.
 * @returns The first problem in words, or undefined for a row a writer could have written.
 *
 * @example A pass that contradicts the score
 * ```ts
 * import { storedRowProblem } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const row = {
 *   golden_id: "g1", arm: "base", repeat: 0, metric: "hit_limit", score: 1, applicable: true,
 *   threshold: 0.5, pass: false,
 * };
 * strictEqual(storedRowProblem(row, ["hit_limit"]), "pass is false, but the score 1 meets the threshold 0.5");
 * ```
 */
export function storedRowProblem(
  row: StoredScoreRow,
  metrics: readonly string[],
): string | undefined {
  try {
    checkMetrics(metrics);
    const { rubric_sha256: rubric, ...rest } = row;
    checkRow({ ...rest, ...(rubric !== null && { rubric_sha256: rubric }) }, "row");
  } catch (e) {
    if (e instanceof TypeError || e instanceof RangeError) return e.message;
    throw e;
  }
  if (!metrics.includes(row.metric)) {
    return `metric ${quote(row.metric)} is not one of the run's (${metrics.join(", ")})`;
  }
  if (row.score === null) {
    return row.pass === null ? undefined : `pass is ${row.pass}, but there is no score`;
  }
  const meets = row.score >= row.threshold;
  if (row.pass === meets) return undefined;
  return row.pass === null
    ? `pass is null, but there is a score`
    : `pass is ${row.pass}, but the score ${row.score} ${meets ? "meets" : "is under"} the ` +
      `threshold ${row.threshold}`;
}
