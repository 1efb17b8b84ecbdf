// Shared by the scorecard and the arm comparison: row checks, runs aligned to the metric order,
// goldens grouped per arm, pooled columns and estimates.
import { exactMean, percentileInterval, PooledColumn } from "../stats/pooled/mod.ts";
import { compareCodePoints } from "../engine/mod.ts";
import { quote } from "../jsonl/mod.ts";
import type { Estimate, RunOverall, ScoreRow } from "./scorecard.ts";

export function checkRow(row: unknown, at: string): ScoreRow {
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

export function checkMetrics(metrics: unknown): string[] {
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

export function runName(r: ScoreRow): string {
  return `(golden ${quote(r.golden_id)}, arm ${quote(r.arm)}, repeat ${r.repeat})`;
}

/** Checks one run's rows against the metric order; returns them in that order. */
export function alignRun(rows: readonly ScoreRow[], metrics: readonly string[]): ScoreRow[] {
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

export function overallOf(aligned: readonly ScoreRow[]): RunOverall {
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
    pass: status === "complete"
      ? overall! >= threshold
      : status === "incomplete"
      ? settledPass(scored, errored.length, threshold)
      : null,
    threshold,
    n_applicable: applicable,
    n_scored: scored.length,
    errored,
  };
}

/**
 * The pass of an incomplete run when its missing scores cannot change it: its overall score with
 * every missing score at its lowest (0) and at its highest (1), each computed as a complete run's
 * (the exactly rounded mean of the applicable criteria). The overall score only grows with a
 * score, and so does its rounding, so these two bound every value the missing scores could give:
 * true when even the lowest reaches the threshold, false when even the highest stays under it,
 * null (no verdict) when they straddle it.
 */
export function settledPass(
  scored: readonly number[],
  missing: number,
  threshold: number,
): boolean | null {
  const fill = (v: number) => exactMean([...scored, ...new Array<number>(missing).fill(v)])!;
  if (fill(0) >= threshold) return true;
  if (fill(1) < threshold) return false;
  return null;
}

/** One golden's runs in one arm, each aligned to the metric order. */
export type Golden = { id: string; runs: { rows: ScoreRow[]; overall: RunOverall }[] };

/** Checks every row. */
export function checkRows(rows: readonly ScoreRow[]): ScoreRow[] {
  if (!Array.isArray(rows)) throw new TypeError("rows must be an array of score rows");
  return rows.map((row, i) => checkRow(row, `rows[${i}]`));
}

/** Groups checked rows: arm → goldens sorted by code point → runs in repeat order. */
export function groupRows(
  rows: readonly ScoreRow[],
  metrics: readonly string[],
): Map<string, Golden[]> {
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
export function distinct(
  goldens: readonly Golden[],
  m: number,
  pick: (r: ScoreRow) => string,
): string[] {
  const seen = new Set<string>();
  for (const g of goldens) for (const run of g.runs) seen.add(pick(run.rows[m]!));
  return [...seen].sort(compareCodePoints);
}

export function thresholdOf(
  arm: string,
  goldens: readonly Golden[],
  m: number,
  name: string,
): number {
  const ts = distinct(goldens, m, (r) => String(r.threshold));
  if (ts.length > 1) {
    throw new RangeError(
      `Arm ${quote(arm)}: metric ${quote(name)} has thresholds ${ts.join(", ")}`,
    );
  }
  return goldens[0]!.runs[0]!.rows[m]!.threshold;
}

/**
 * The columns of an arm, in order: pass (every run with a verdict: the complete ones, and the
 * incomplete ones whose missing scores cannot change it), overall (complete runs), then each
 * metric's scores.
 */
export function columnsOf(goldens: readonly Golden[], metrics: readonly string[]): PooledColumn[] {
  const complete = (g: Golden) => g.runs.filter((r) => r.overall.status === "complete");
  const decided = (g: Golden) => g.runs.filter((r) => r.overall.pass !== null);
  return [
    new PooledColumn(goldens.map((g) => decided(g).map((r) => r.overall.pass ? 1 : 0))),
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

export function estimate(column: PooledColumn, resampled: Float64Array, level: number): Estimate {
  const [sum, count, mean] = column.pool(new Int32Array(column.goldens).fill(1));
  return {
    value: count === 0 ? null : mean,
    numerator: sum,
    denominator: count,
    ...percentileInterval(resampled, level),
  };
}
