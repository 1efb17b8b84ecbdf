// One scored run, as runSuite() returns it, for the repeats and uncertainty tests: complete with
// the given overall score (passing at 0.5), or incomplete (a judge error) when it is null.
import type { RunResult } from "../../src/suite/mod.ts";

/** A run of `golden_id` in `arm` with the given overall score, or a judge error for null. */
export function run(
  golden_id: string,
  arm: string,
  repeat: number,
  overall: number | null,
): RunResult {
  return {
    golden_id,
    arm,
    repeat,
    criteria: [],
    overall: overall === null
      ? {
        status: "incomplete",
        overall: null,
        pass: null,
        threshold: 0.5,
        n_applicable: 1,
        n_scored: 0,
        errored: ["judge"],
      }
      : {
        status: "complete",
        overall,
        pass: overall >= 0.5,
        threshold: 0.5,
        n_applicable: 1,
        n_scored: 1,
        errored: [],
      },
  };
}
