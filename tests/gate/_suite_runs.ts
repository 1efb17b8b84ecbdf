// Seeded random suite run reports for the gate's tests.
import { Sfc32 } from "../../src/engine/mod.ts";
import { runOverall, type RunResult, scorecard, type ScoreRow } from "../../src/suite/mod.ts";
import { SUITE_RUN_FIELDS } from "../report_check/_complete.ts";

const METRICS = ["exact", "graded", "judged"];

/**
 * A suite run report of `goldens` × arms a and b × `repeats`: `exact` scores 0 or 1, `graded`
 * any value in [0, 1] and is sometimes not applicable, `judged` sometimes has a judge error.
 */
export function suiteRun(seed: number, goldens: number, repeats: number, bias = 0) {
  const rng = new Sfc32(seed);
  const u = () => rng.nextUint32() / 2 ** 32;
  const runs: RunResult[] = [];
  const rows: ScoreRow[] = [];
  for (let g = 0; g < goldens; g++) {
    for (const arm of ["a", "b"]) {
      for (let repeat = 0; repeat < repeats; repeat++) {
        const golden_id = `g${String(g).padStart(2, "0")}`;
        const row = (metric: string, score: number | null, applicable = true): ScoreRow => ({
          golden_id,
          arm,
          repeat,
          metric,
          score: applicable ? score : null,
          applicable,
          threshold: 0.5,
        });
        const criteria = [
          row("exact", u() < 0.6 + bias ? 1 : 0),
          row("graded", Math.round(u() * 1000) / 1000, u() < 0.8),
          row("judged", u() < 0.15 ? null : u()),
        ];
        rows.push(...criteria);
        runs.push({ golden_id, arm, repeat, criteria, overall: runOverall(criteria, METRICS) });
      }
    }
  }
  return {
    schema: "assay.suite_run.v1",
    ...SUITE_RUN_FIELDS,
    runs,
    scorecard: scorecard(rows, { metrics: METRICS, resamples: 10 }),
  };
}
