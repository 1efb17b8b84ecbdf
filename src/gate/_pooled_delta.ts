// The paired bootstrap of a comparative rule (non_inferior, superior) on a metric of fractional
// scores: a suite run's overall_score or a graded metric, whose units are goldens within arms
// with their repeats' scores pooled. Whole counts go to the engine's resampling kernel instead
// (verdict.ts); this is the same bootstrap with exact pooled sums in place of integer ones.
//
// Each resample takes n draws from the rule's stream (clusterResample: Sfc32.fillBelow, as the
// kernel draws rows), pools each side's drawn units exactly (PooledColumn: Σ scores / Σ counts,
// rounded once; 0 for 0/0, as metricValue), and records candidate − base. The interval is the
// percentile one of bootstrapPacked and the scorecard (NumPy's linear rule on the sorted deltas).
import type { Sfc32 } from "../engine/mod.ts";
import type { MetricValue } from "../stats/mod.ts";
import { clusterResample, percentileInterval, PooledColumn } from "../stats/pooled/mod.ts";
import type { ExampleShare } from "./sources.ts";

// A side's units: each one's scores (its numerator, when they come summed) and its count.
function column(units: readonly ExampleShare[]): PooledColumn {
  return new PooledColumn(units.map((u) => u.values ?? [u.num]), units.map((u) => u.den));
}

// A pooled mean as the gate reads a metric: 0 when nothing counts (NaN).
const read = (mean: number) => (Number.isNaN(mean) ? 0 : mean);

/**
 * A metric over units whose scores are pooled (a suite run's): Σ scores / Σ counts, each sum exact
 * and rounded once, as the scorecard's estimates are; the value is 0 when nothing counts.
 *
 * @param units The units of one side.
 * @returns The value, numerator and denominator.
 */
export function pooledValue(units: readonly ExampleShare[]): MetricValue {
  const [numerator, denominator, mean] = column(units).pool(new Int32Array(units.length).fill(1));
  return { value: read(mean), numerator, denominator };
}

/**
 * Candidate − base on aligned units of fractional scores, and its paired-bootstrap interval.
 *
 * @param before The base's units.
 * @param now The candidate's units, aligned with `before`.
 * @param rng The rule's stream; left advanced past `resamples` × n draws.
 * @param resamples Resamples.
 * @param level Interval level.
 * @returns The point delta (of the exact pooled means) and the percentile interval.
 * @throws {RangeError} If a score is negative or not finite, or a count is not a whole number.
 */
export function pooledDelta(
  before: readonly ExampleShare[],
  now: readonly ExampleShare[],
  rng: Sfc32,
  resamples: number,
  level: number,
): { delta: number; ci: [number, number] } {
  for (const u of [...before, ...now]) {
    const bad = (u.values ?? [u.num]).find((v) => !(v >= 0 && v < Infinity));
    if (bad !== undefined || !Number.isInteger(u.den) || u.den < 0) {
      throw new RangeError(
        `Unit ${JSON.stringify(u.id)} has ${
          bad !== undefined ? `a score of ${bad}` : `a count of ${u.den}`
        }: a bootstrap pools finite scores of at least 0 over whole counts`,
      );
    }
  }
  const n = now.length;
  const [b, c] = [column(before), column(now)];
  const ones = new Int32Array(n).fill(1);
  const delta = read(c.pool(ones)[2]) - read(b.pool(ones)[2]);
  const [bs, cs] = clusterResample([b, c], n, rng, resamples);
  const deltas = cs!.map((m, r) => read(m) - read(bs![r]!));
  // No resample is undefined (0/0 reads 0), so the interval always exists.
  return { delta, ci: percentileInterval(deltas, level).ci! };
}
