/**
 * The paired comparison of two arms of a metric suite (B − A), paired by golden: pass rate,
 * mean overall score and every metric, each with a bootstrap interval from one golden draw shared
 * by both arms. Refused with {@linkcode ArmComparisonError} when the arms' metric sets,
 * thresholds or rubric hashes differ.
 *
 * @module
 */
import { clusterResample, percentileInterval, type PooledColumn } from "../stats/pooled/mod.ts";
import { checkOptions, compareCodePoints } from "../engine/mod.ts";
import { bootstrapSettings } from "../stats/mod.ts";
import { Sfc32 } from "../engine/mod.ts";
import { quote } from "../jsonl/mod.ts";
import { checkMetrics, checkRows, columnsOf, estimate, groupRows } from "./_score_rows.ts";
import type {
  ClusterBootstrapSettings,
  Estimate,
  ScorecardOptions,
  ScoreRow,
} from "./scorecard.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

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
    const list = (ms: string[]) => ms.length ? ms.map((m) => quote(m)).join(", ") : "none";
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
 * import { compareArms } from "@assay/assay/suite";
 * import type { ScoreRow } from "@assay/assay/suite";
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
  checkOptions(options);
  checkOptionNames("compareArms", options, { metrics: 1, seed: 1, resamples: 1, level: 1 });
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
