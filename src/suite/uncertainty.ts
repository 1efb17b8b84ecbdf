/**
 * The uncertainty of a suite's reduced per-golden scores (see `reduceRepeats`): the CLT standard
 * error, the clustered standard error of Miller (2024), "Adding Error Bars to Evals", with a
 * finite-cluster correction (clusters from a golden field), t intervals with n − 1 or C − 1
 * degrees of freedom, the bootstrap clustered the same way, and the paired comparison of arms on
 * the reduced scores. Every interval is seeded and the settings are recorded. The section these
 * make is computed by `repeatsReport` (`repeats_report.ts`).
 *
 * @module
 */
import { exactMean } from "../stats/pooled/mod.ts";
import { decompose, roundRatio } from "../stats/mod.ts";
import { studentTQuantile } from "./_student_t.ts";
import type { MetricComparison } from "./arm_comparison.ts";
import type { ClusterBootstrapSettings, Estimate } from "./scorecard.ts";
import type { ReducedArm, Repeats } from "./repeats.ts";
import { checkOptions } from "../engine/mod.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

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
  checkOptions(options);
  checkOptionNames("meanUncertainty", options, { level: 1, clusters: 1 });
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
  /**
   * How the bootstrap intervals were drawn; its `cluster` is what is drawn, each with all its
   * repeats: `golden`, or the golden field the repeats cluster by (as `cluster`).
   */
  bootstrap: Omit<ClusterBootstrapSettings, "cluster"> & { cluster: string };
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
