/**
 * What a metric store keeps of a suite run beside its score rows, and how it is read back: the
 * run's repeats ({@linkcode keptRepeats}: the suite's `repeats` block, each golden's cluster key
 * and every golden's id, decided before anything is scored) rebuilt into the live run's repeats
 * section ({@linkcode storedRepeatsReport}), and its pass counts per arm ({@linkcode passCounts})
 * read as the history's pass rates ({@linkcode passRates}). `assay suite run` keeps them in its
 * SQLite store; a program keeps them wherever it keeps runs (a KV store, a D1 table) as JSON.
 *
 * @module
 */
import { type Repeats, repeatsIssues } from "./repeats.ts";
import type { Scorecard, ScoreRow } from "./scorecard.ts";
import { storedRepeatsInputs } from "./stored_run.ts";
import type { Suite } from "./suite.ts";
import type { Golden } from "./types.ts";
import type { RepeatsReport } from "./uncertainty.ts";
import { checkMemoryGoldens } from "./_input_checks.ts";
import { clusterKeysOf, repeatsSection } from "./_repeats_section.ts";
import { checkOptions } from "../engine/mod.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** A run's repeats as a store keeps them: all JSON. */
export interface KeptRepeats<R = Repeats> {
  /** The suite's `repeats`, without its `baseline`, or null when it has none. */
  repeats: R | null;
  /** With `repeats.cluster`: each golden's cluster key (`clusterKeys`), by id; else null. */
  clusters: [string, string][] | null;
  /**
   * With `repeats`: every golden's id, so that a golden with no run is listed as mismatched when
   * the run is read back; null when not kept (a run written before it was).
   */
  goldens?: string[] | null;
  /**
   * The arm the run's repeats compared every other arm with (each delta that arm minus it: the
   * live report's `repeats.baseline`); null when not kept (a run written before it was, compared
   * with its first arm in code-point order as the assay that wrote it did).
   */
  baseline?: string | null;
}

/**
 * What a run keeps of its suite's repeats: the block without its `baseline` (as the report's
 * section has it, and as an older assay reads it), each golden's cluster key and every golden's
 * id. Call it before anything is scored: goldens that `readGoldens` would refuse (a misspelt
 * field, the schema, an id given twice), or that hold a value no file can (NaN, undefined, a
 * Date), as `runSuite` refuses them, and a golden without the field the repeats cluster by are
 * refused here, before any judge is paid for. The baseline the run compared with is known only
 * from its report; set `baseline` from the report's `repeats.baseline`.
 *
 * @param suite The loaded suite.
 * @param goldens The run's goldens.
 * @returns What to keep; `repeats` null (and nothing else) for a suite without repeats.
 * @throws {SuiteInputError} At the first golden `readGoldens` would refuse, named by its index
 *   and id (`goldens[1] (id "g1"): duplicate golden id "g1" (first at goldens[0])`).
 * @throws {RangeError} If the repeats cluster by a field that a golden lacks, or holds as
 *   neither a string nor a number.
 *
 * @example
 * ```ts
 * import { keptRepeats, loadSuite } from "@assay/assay/suite";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 *
 * const suite = loadSuite(
 *   "repeats: {n: 2, reducer: mean, cluster: topic, baseline: base}\nmetrics:\n  - type: hit_limit\n",
 * );
 * const goldens = [{ id: "g1", question: "q", topic: "sales" }, { id: "g2", question: "q", topic: 7 }];
 * deepStrictEqual(keptRepeats(suite, goldens), {
 *   repeats: { n: 2, reducer: "mean", cluster: "topic" },
 *   clusters: [["g1", "string:sales"], ["g2", "number:7"]],
 *   goldens: ["g1", "g2"],
 * });
 * throws(() => keptRepeats(suite, [{ id: "g3", question: "q" }]), {
 *   name: "RangeError",
 *   message: 'Golden "g3" has no topic (a string or number) to cluster by',
 * });
 * ```
 */
export function keptRepeats(suite: Suite, goldens: readonly Golden[]): KeptRepeats {
  checkMemoryGoldens(goldens);
  if (!suite.repeats) return { repeats: null, clusters: null, goldens: null };
  const { baseline: _, ...repeats } = suite.repeats;
  const ids = goldens.map((g) => g.id);
  if (repeats.cluster === undefined) return { repeats, clusters: null, goldens: ids };
  return { repeats, clusters: [...clusterKeysOf(goldens, repeats.cluster)], goldens: ids };
}

/**
 * What is wrong with the shape of a run's kept repeats read back, naming the field, or undefined:
 * an object whose `clusters` is null or [golden id, key] pairs of strings, `goldens` null, absent
 * or golden ids (strings) and `baseline` null, absent or an arm (a string). Its `repeats` block is
 * checked by `repeatsIssues`.
 */
function keptShapeIssue(kept: unknown): string | undefined {
  if (typeof kept !== "object" || kept === null || Array.isArray(kept)) {
    return "the kept repeats are not an object {repeats, clusters, goldens?, baseline?}";
  }
  const { clusters, goldens, baseline } = kept as Record<string, unknown>;
  const strings = (x: unknown) => Array.isArray(x) && x.every((v) => typeof v === "string");
  if (
    clusters !== null &&
    !(Array.isArray(clusters) && clusters.every((p) => strings(p) && p.length === 2))
  ) {
    return "clusters are not [golden id, key] pairs";
  }
  if (goldens != null && !strings(goldens)) return "goldens are not golden ids";
  if (baseline != null && typeof baseline !== "string") return "baseline is not an arm";
  return undefined;
}

/** Options of {@linkcode storedRepeatsReport}. */
export interface StoredRepeatsReportOptions {
  /** The run's id, which every message names. */
  runId: string;
  /** The suite's metric names, in suite order, as the run stored them. */
  metrics: readonly string[];
  /** The PRNG seed, an integer in [0, 2^32) (default 0). */
  seed?: number;
  /** Resamples (default 10,000). */
  resamples?: number;
  /**
   * Only these two arms, the first as the baseline: the section's one comparison is the second
   * minus the first (`assay suite compare A B`).
   */
  arms?: readonly [string, string];
}

/**
 * A stored run's repeats section, as the live run's report had it: its rows and what it kept of
 * its repeats ({@linkcode KeptRepeats}, read back) rebuilt by `storedRepeatsInputs`, then
 * `repeatsReport` with the same seed and resamples gives the same numbers. Each arm is compared
 * with the kept baseline, or, for a run that kept none, with the first arm in code-point order,
 * as the assay that stored it did.
 *
 * @param kept What the run kept of its repeats, read back (its `repeats` block is checked here).
 * @param rows The run's score rows.
 * @param options The run's id and metrics, the bootstrap's seed and resamples, and the two arms
 *   to compare, if only two.
 * @returns The section, or null for a suite without repeats.
 * @throws {RangeError} Naming the run, if the kept block is not a valid `repeats`
 *   (`run r1 has a malformed repeats column (n: ...)`), or if a run misses a metric, a golden
 *   has no cluster key or the baseline arm has no runs (`run r1: ...`).
 * @throws {TypeError} Naming the run, if `kept` is not an object, or its `clusters`, `goldens` or
 *   `baseline` not as {@linkcode KeptRepeats} has them, naming the field
 *   (`run r1 has a malformed repeats column (clusters are not [golden id, key] pairs)`), or if a
 *   row or the metric list is malformed.
 *
 * @example
 * ```ts
 * import { type ScoreRow, storedRepeatsReport } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const row = (arm: string, golden_id: string, repeat: number, score: number): ScoreRow => ({
 *   golden_id, arm, repeat, metric: "accuracy", score, applicable: true, threshold: 0.5,
 * });
 * const rows = [
 *   row("base", "g1", 0, 1), row("base", "g1", 1, 0), row("base", "g2", 0, 1), row("base", "g2", 1, 1),
 *   row("new", "g1", 0, 1), row("new", "g1", 1, 1), row("new", "g2", 0, 1), row("new", "g2", 1, 1),
 * ];
 * const kept = { repeats: { n: 2, reducer: "mean" }, clusters: null, goldens: ["g1", "g2"], baseline: "base" };
 * const report = storedRepeatsReport(kept, rows, { runId: "r1", metrics: ["accuracy"], resamples: 100 });
 * strictEqual(report!.arms[0]!.mean, 0.75);
 * strictEqual(report!.comparisons[0]!.reduced!.delta, 0.25);
 * ```
 */
export function storedRepeatsReport(
  kept: KeptRepeats<unknown>,
  rows: readonly ScoreRow[],
  options: StoredRepeatsReportOptions,
): RepeatsReport | null {
  checkOptions(options);
  checkOptionNames("storedRepeatsReport", options, {
    metrics: 1,
    seed: 1,
    resamples: 1,
    runId: 1,
    arms: 1,
  });
  const { runId, metrics, arms, ...bootstrap } = options;
  const shape = keptShapeIssue(kept);
  if (shape) throw new TypeError(`run ${runId} has a malformed repeats column (${shape})`);
  if (kept.repeats === null) return null;
  const issue = repeatsIssues(kept.repeats)[0];
  if (issue) {
    throw new RangeError(
      `run ${runId} has a malformed repeats column ` +
        `(${issue.field ? `${issue.field}: ` : ""}${issue.message})`,
    );
  }
  const repeats = kept.repeats as Repeats;
  try {
    const { results, goldens } = storedRepeatsInputs(rows, {
      metrics,
      ...(repeats.cluster !== undefined && { cluster: repeats.cluster }),
      ...(kept.clusters !== null && { clusters: kept.clusters }),
      ...(kept.goldens && { goldens: kept.goldens }),
    });
    const runs = arms ? results.filter((r) => arms.includes(r.arm)) : results;
    const baseline = arms ? arms[0] : kept.baseline;
    return repeatsSection(runs, goldens, repeats, {
      ...bootstrap,
      ...(typeof baseline === "string" && { baseline }),
    });
  } catch (e) {
    const message = `run ${runId}: ${e instanceof Error ? e.message : e}`;
    if (e instanceof TypeError) throw new TypeError(message, { cause: e });
    if (e instanceof RangeError) throw new RangeError(message, { cause: e });
    throw e;
  }
}

/**
 * Per arm (in the scorecard's code-point order): its passing runs and its runs with a pass verdict
 * (the pass rate's numerator and denominator: complete runs, and incomplete ones whose missing
 * scores cannot change their pass).
 */
export type PassCounts = [arm: string, passes: number, decided: number][];

/**
 * A scorecard's pass counts, as a run keeps them for the history: each arm's pass rate as its
 * ratio, so that the history reads one small list per run where it would rescore every run's
 * rows.
 *
 * @param card The run's scorecard.
 * @returns Per arm, its passing runs and its runs with a pass verdict.
 *
 * @example
 * ```ts
 * import { passCounts, scorecard } from "@assay/assay/suite";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const row = (golden_id: string, score: number) => ({
 *   golden_id, arm: "base", repeat: 0, metric: "accuracy", score, applicable: true, threshold: 0.5,
 * });
 * const card = scorecard([row("g1", 1), row("g2", 0), row("g3", 1)], { metrics: ["accuracy"], resamples: 1 });
 * deepStrictEqual(passCounts(card), [["base", 2, 3]]);
 * ```
 */
export function passCounts(card: Scorecard): PassCounts {
  return card.arms.map((a) => [a.arm, a.pass_rate.numerator, a.pass_rate.denominator]);
}

/**
 * Each arm's pass rate from its kept counts: passes / decided, the ratio of two integers rounded
 * once (as the scorecard's exact pooling gives it), or null when no run of the arm has a pass
 * verdict.
 *
 * @param counts The run's kept pass counts.
 * @returns Per arm, in the same order, its pass rate.
 *
 * @example
 * ```ts
 * import { passRates } from "@assay/assay/suite";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(passRates([["adapter", 0, 0], ["base", 1, 3]]), [["adapter", null], ["base", 1 / 3]]);
 * ```
 */
export function passRates(counts: PassCounts): [arm: string, rate: number | null][] {
  return counts.map(([arm, passes, decided]) => [arm, decided === 0 ? null : passes / decided]);
}
