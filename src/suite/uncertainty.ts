/**
 * The uncertainty of a suite's reduced per-golden scores (see `reduceRepeats`): the CLT standard
 * error, the clustered standard error of Miller (2024), "Adding Error Bars to Evals", with a
 * finite-cluster correction (clusters from a golden field), t intervals with n − 1 or C − 1
 * degrees of freedom, the bootstrap clustered the same way, and the paired comparison of arms on
 * the reduced scores. Every interval is seeded and the settings are recorded.
 *
 * @module
 */
import { exactMean } from "../stats/pooled/mod.ts";
import { suggestName } from "../jsonl/mod.ts";
import { decompose, roundRatio } from "../stats/mod.ts";
import { studentTQuantile } from "./_student_t.ts";
import { compareArms, type MetricComparison } from "./arm_comparison.ts";
import {
  type ClusterBootstrapSettings,
  type Estimate,
  scorecard,
  type ScoreRow,
} from "./scorecard.ts";
import { type ReducedArm, reduceRepeats, type Repeats } from "./repeats.ts";
import type { RunResult } from "./run.ts";
import type { Golden } from "./types.ts";

/** A standard error with its t interval. */
export interface TInterval {
  /** The standard error of the mean. */
  se: number;
  /** Degrees of freedom: n − 1 (CLT) or C − 1 (clustered). */
  df: number;
  /**
   * mean ± t(1 − (1 − level)/2, df) · se, clipped to [0, 1]: the scores, and so their mean, lie
   * there, but a t interval near an end over few goldens can pass it.
   */
  ci: [number, number];
}

/** The uncertainty of a mean of per-golden scores. */
export interface MeanUncertainty {
  /** Scores. */
  n: number;
  /** Their mean; null when there are none. */
  mean: number | null;
  /** The interval level. */
  level: number;
  /** CLT: se² = Σ(sᵢ − s̄)² / (n(n − 1)); null when n < 2. */
  clt: TInterval | null;
  /** Clusters, when clustered. */
  clusters: number | null;
  /**
   * Clustered: se² = C/(C − 1) · Σ_c (Σ_{i∈c} (sᵢ − s̄))² / n²; null without clusters or when
   * C < 2. With every score its own cluster it equals the CLT one.
   */
  clustered: TInterval | null;
  /**
   * Miller's Eq. 4 as printed, without the finite-cluster correction:
   * se² = se_CLT² + Σ_c Σ_{i≠j∈c} (sᵢ − s̄)(sⱼ − s̄) / n²; null where `clustered` is.
   */
  miller_se: number | null;
}

function interval(mean: number, se: number, df: number, level: number): TInterval {
  const t = studentTQuantile(1 - (1 - level) / 2, df);
  return { se, df, ci: [Math.max(0, mean - t * se), Math.min(1, mean + t * se)] };
}

/**
 * The CLT and clustered standard errors of a mean, with t intervals.
 *
 * @param values The scores, each in [0, 1].
 * @param options `clusters` (one key per score) and `level` (default 0.95).
 * @returns The mean, its standard errors and intervals.
 * @throws {RangeError} If a score is outside [0, 1], the clusters do not match the scores, or
 *   the level is not in (0, 1).
 *
 * @example Two clusters of two
 * ```ts
 * import { meanUncertainty } from "@assay/assay/suite";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const u = meanUncertainty([1, 1, 0, 0], { clusters: ["a", "a", "b", "b"] });
 * strictEqual(u.mean, 0.5);
 * strictEqual(u.clt!.se, Math.sqrt(1 / 12));
 * strictEqual(u.clustered!.se, Math.sqrt(2 * (1 + 1) / 16));
 * strictEqual(u.clustered!.df, 1);
 * // 0.5 ± 12.706 · 0.5 is clipped to the scores' range.
 * deepStrictEqual(u.clustered!.ci, [0, 1]);
 * ```
 */
export function meanUncertainty(
  values: readonly number[],
  options: { clusters?: readonly string[]; level?: number } = {},
): MeanUncertainty {
  const level = options.level ?? 0.95;
  if (!(typeof level === "number" && level > 0 && level < 1)) {
    throw new RangeError(`level must be a number in (0, 1), got ${level}`);
  }
  for (const v of values) {
    if (!(v >= 0 && v <= 1)) throw new RangeError(`A score must be in [0, 1], got ${v}`);
  }
  const clusters = options.clusters;
  if (clusters !== undefined && clusters.length !== values.length) {
    throw new RangeError(`${clusters.length} cluster keys for ${values.length} scores`);
  }
  const n = values.length;
  const mean = exactMean(values);
  const out: MeanUncertainty = {
    n,
    mean,
    level,
    clt: null,
    clusters: null,
    clustered: null,
    miller_se: null,
  };
  if (mean === null) return out;
  // Exactly: each value is an integer aᵢ times 2^E, S = Σaᵢ, and n·(sᵢ − s̄) = (n·aᵢ − S)·2^E,
  // so every sum of squares below is an integer times 2^2E; each variance is rounded once.
  const parts = values.map(decompose);
  // A loop, not Math.min(...): spread into arguments, 130,000 values overflowed the stack.
  const E = parts.reduce((e, [m, x]) => (m === 0 ? e : Math.min(e, x)), Infinity);
  const ints = parts.map(([m, x]) => (m === 0 ? 0n : BigInt(m) << BigInt(x - E)));
  const N = BigInt(n);
  const S = ints.reduce((a, b) => a + b, 0n);
  const dev = ints.map((a) => N * a - S); // n·eᵢ / 2^E
  const ss = dev.reduce((a, d) => a + d * d, 0n); // n²·Σeᵢ² / 2^2E
  const e2 = Number.isFinite(E) ? 2 * E : 0;
  if (n >= 2) {
    const se = Math.sqrt(roundRatio(ss, N * N * N * (N - 1n), e2));
    out.clt = interval(mean, se, n - 1, level);
  }
  if (clusters !== undefined) {
    const sums = new Map<string, bigint>();
    dev.forEach((d, i) => sums.set(clusters[i]!, (sums.get(clusters[i]!) ?? 0n) + d));
    const c = sums.size;
    out.clusters = c;
    if (c >= 2) {
      const C = BigInt(c);
      let cs = 0n; // n²·Σ_c(Σ_{i∈c} eᵢ)² / 2^2E
      for (const s of sums.values()) cs += s * s;
      const se = Math.sqrt(roundRatio(C * cs, (C - 1n) * N ** 4n, e2));
      out.clustered = interval(mean, se, c - 1, level);
      // se_CLT² + (cs − ss)/n⁴ = (ss + (n − 1)·cs) / (n⁴(n − 1)), in the same units.
      out.miller_se = Math.sqrt(roundRatio(ss + (N - 1n) * cs, N ** 4n * (N - 1n), e2));
    }
  }
  return out;
}

/** Options of {@linkcode repeatsReport}. */
export interface RepeatsReportOptions {
  /** The golden field whose value clusters goldens (default: `repeats.cluster`, else none). */
  cluster?: string;
  /** The PRNG seed, an integer in [0, 2^32) (default 0). */
  seed?: number;
  /** Resamples (default 10,000). */
  resamples?: number;
  /** Interval level (default 0.95). */
  level?: number;
  /**
   * The arm every other arm is compared with, each delta that arm minus it (default: the suite's
   * `repeats.baseline`, else the first arm in code-point order).
   */
  baseline?: string;
}

/** One arm's reduced scores and their uncertainty. */
export interface ArmRepeats extends ReducedArm, MeanUncertainty {
  /** The bootstrap interval of the mean, resampling clusters. */
  bootstrap: Estimate;
}

/** The repeats section of a suite run's report. */
export interface RepeatsReport {
  /** The suite's `repeats`, without its `baseline` (given as {@linkcode RepeatsReport.baseline}). */
  repeats: Omit<Repeats, "baseline">;
  /** The clustering field, or null (each golden its own cluster). */
  cluster: string | null;
  /** How the bootstrap intervals were drawn. */
  bootstrap: ClusterBootstrapSettings;
  /** Per arm, sorted by code point. */
  arms: ArmRepeats[];
  /**
   * The arm every other arm is compared with: the option's, else the suite's `repeats.baseline`,
   * else the first arm in code-point order; null when there is no arm.
   */
  baseline: string | null;
  /**
   * Each other arm minus the baseline (`arms[1] − arms[0]`, as `assay compare` gives
   * adapter − base), paired by golden on the reduced scores.
   */
  comparisons: ReducedComparison[];
}

/** One arm minus the baseline, paired by golden on the reduced scores. */
export interface ReducedComparison {
  /** The baseline arm and the arm compared with it: the delta is the second minus the first. */
  arms: [string, string];
  /** Goldens paired. */
  n_goldens: number;
  /**
   * The means, their difference b − a and its paired bootstrap interval; null when the two arms
   * share no golden (nothing to pair).
   */
  reduced: MetricComparison | null;
}

const METRIC = "reduced";

function rowsOf(arm: ReducedArm, key: (golden: string) => string): ScoreRow[] {
  const repeat = new Map<string, number>();
  return arm.goldens.map((g) => {
    const k = key(g.golden_id);
    const r = repeat.get(k) ?? 0;
    repeat.set(k, r + 1);
    return {
      golden_id: k,
      arm: arm.arm,
      repeat: r,
      metric: METRIC,
      score: g.value,
      applicable: g.value !== null,
      threshold: 0.5,
    };
  });
}

/**
 * Each golden's cluster key under a golden field, as {@linkcode repeatsReport} groups goldens:
 * the value's type and text (`string:sales`, `number:3`), so that `"3"` and `3` differ. A metric
 * store keeps these keys to rebuild a stored run's clusters (`storedRepeatsInputs`).
 *
 * @param goldens The goldens.
 * @param field The golden field to cluster by (the suite's `repeats.cluster`).
 * @returns Golden id → cluster key, in the goldens' order.
 * @throws {RangeError} If a golden lacks the field, or its value is not a string or number.
 *
 * @example
 * ```ts
 * import { clusterKeys } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const goldens = [{ id: "g1", question: "?", topic: "sales" }, { id: "g2", question: "?", topic: 3 }];
 * assertEquals([...clusterKeys(goldens, "topic")], [["g1", "string:sales"], ["g2", "number:3"]]);
 * ```
 */
export function clusterKeys(goldens: readonly Golden[], field: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const g of goldens) {
    const v = (g as unknown as Record<string, unknown>)[field];
    if (typeof v !== "string" && typeof v !== "number") {
      throw new RangeError(`Golden "${g.id}" has no ${field} (a string or number) to cluster by`);
    }
    keys.set(g.id, `${typeof v}:${v}`);
  }
  return keys;
}

/**
 * Reduces a suite run's repeats and measures the uncertainty of each arm's mean reduced score:
 * CLT and clustered standard errors with t intervals, the bootstrap over clusters, and the
 * paired comparison of each other arm with the baseline on the reduced per-golden scores (that
 * arm minus the baseline). The baseline is `options.baseline`, else `repeats.baseline`, else the
 * first arm in code-point order: never the order of the results.
 *
 * @param results The suite run's results.
 * @param goldens The goldens (for the cluster field; a golden with no run in an arm is listed in
 *   its `mismatched`).
 * @param repeats The suite's `repeats`; options: the cluster field, seed, resamples and level.
 * @returns The report section.
 * @throws {RangeError} If a golden lacks the cluster field, or its value is not a string or number;
 *   or if the baseline arm has no runs.
 *
 * @example
 * ```ts
 * import { repeatsReport } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const run = (golden_id: string, repeat: number, overall: number) => ({
 *   golden_id, arm: "base", repeat, criteria: [],
 *   overall: {
 *     status: "complete" as const, overall, pass: overall >= 0.5, threshold: 0.5,
 *     n_applicable: 1, n_scored: 1, errored: [],
 *   },
 * });
 * const results = [run("g1", 0, 1), run("g1", 1, 0), run("g2", 0, 1), run("g2", 1, 1)];
 * const goldens = [{ id: "g1", question: "?" }, { id: "g2", question: "?" }];
 * const r = repeatsReport(results, goldens, { n: 2, reducer: "mean" }, { resamples: 100 });
 * strictEqual(r.arms[0]!.mean, 0.75);
 * strictEqual(r.arms[0]!.clt!.df, 1);
 * ```
 */
export function repeatsReport(
  results: readonly RunResult[],
  goldens: readonly Golden[],
  repeats: Repeats,
  options: RepeatsReportOptions = {},
): RepeatsReport {
  const field = options.cluster ?? repeats.cluster;
  const clusterOf = field === undefined ? new Map<string, string>() : clusterKeys(goldens, field);
  const key = (id: string) => clusterOf.get(id) ?? `golden:${id}`;
  const level = options.level ?? 0.95;
  const settings = {
    seed: options.seed ?? 0,
    resamples: options.resamples ?? 10_000,
    level,
    metrics: [METRIC],
  };
  const reduced = reduceRepeats(results, repeats, goldens.map((g) => g.id));
  let bootstrap: ClusterBootstrapSettings | undefined;
  const arms = reduced.map((arm): ArmRepeats => {
    const scored = arm.goldens.filter((g) => g.value !== null);
    const u = meanUncertainty(scored.map((g) => g.value!), {
      ...(field !== undefined && { clusters: scored.map((g) => key(g.golden_id)) }),
      level,
    });
    const card = scorecard(rowsOf(arm, key), settings);
    bootstrap = card.bootstrap;
    return { ...arm, ...u, bootstrap: card.arms[0]!.metrics[0]!.mean };
  });
  const rows = reduced.flatMap((arm) => rowsOf(arm, (id) => id));
  const { baseline: declared, ...block } = repeats;
  const baseline = options.baseline ?? declared ?? arms[0]?.arm;
  const base = arms.find((a) => a.arm === baseline);
  if (baseline !== undefined && base === undefined) {
    const hint = suggestName(baseline, arms.map((a) => a.arm));
    throw new RangeError(
      `The baseline arm ${JSON.stringify(baseline)} has no runs` +
        (hint === undefined ? "" : ` (did you mean ${JSON.stringify(hint)}?)`),
    );
  }
  const baseIds = new Set(base?.goldens.map((g) => g.golden_id));
  const comparisons = arms.filter((a) => a.arm !== baseline).map((b): ReducedComparison => {
    if (!b.goldens.some((g) => baseIds.has(g.golden_id))) {
      return { arms: [baseline!, b.arm], n_goldens: 0, reduced: null };
    }
    const c = compareArms(rows, [baseline!, b.arm], settings);
    return {
      arms: [c.a, c.b] as [string, string],
      n_goldens: c.n_goldens,
      reduced: c.metrics_delta[0]!,
    };
  });
  return {
    repeats: block,
    cluster: field ?? null,
    bootstrap: bootstrap ?? scorecard([], settings).bootstrap,
    arms,
    baseline: baseline ?? null,
    comparisons,
  };
}
