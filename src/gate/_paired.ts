// A comparative rule's units paired by id, and the examples it flips (regressions and
// improvements) in the direction of its metric (`MetricSource.lowerIsBetter`).
import { ComparisonGateError } from "../compare/mod.ts";
import { countsAgainst } from "../structured_jsonl/report/mod.ts";
import type { ExampleShare } from "./sources.ts";

/** Whether a unit counts against its metric, in its direction (`countsAgainst`). */
export const against = (lower: boolean) => (x: ExampleShare) => countsAgainst(x.num, x.den, lower);

/**
 * The candidate's units in the base's order, paired by id.
 *
 * @throws {ComparisonGateError} If a side repeats an id, or the two hold different ids.
 */
export function paired(before: ExampleShare[], now: ExampleShare[], line: number): ExampleShare[] {
  const byId = new Map(now.map((x) => [x.id, x]));
  // Pairing is by id: a hand-made report that repeats one would pair the wrong examples.
  for (const [side, xs] of [["candidate", now], ["base", before]] as const) {
    const seen = new Set<string>();
    const again = xs.find((x) => seen.size === seen.add(x.id).size);
    if (again !== undefined) {
      throw new ComparisonGateError([{
        kind: "example_ids",
        detail: `the ${side} repeats the example id ${JSON.stringify(again.id)}`,
        ids: [again.id],
        arm: side,
      }]);
    }
  }
  if (before.length !== now.length || before.some((x) => !byId.has(x.id))) {
    throw new ComparisonGateError([{
      kind: "example_ids",
      detail: `the reports' examples differ in the rule at line ${line}'s slice`,
    }]);
  }
  return before.map((x) => byId.get(x.id)!);
}

/**
 * The units of a right-or-wrong metric that flip between base and candidate (`aligned`, paired
 * with them): regressions, right in base and wrong in candidate, by id in the base's order; and
 * the count of improvements, wrong in base and right in candidate. Right is all of a
 * higher-is-better metric (1/1) and none of a lower-is-better one (0/1).
 */
export function flips(
  before: readonly ExampleShare[],
  aligned: readonly ExampleShare[],
  lower: boolean,
): { regressions: string[]; improvements: number } {
  const right = (x: ExampleShare) => x.den > 0 && !against(lower)(x);
  const regressions = before.filter((x, i) => right(x) && !right(aligned[i]!)).map((x) => x.id);
  const improvements = before.filter((x, i) => !right(x) && right(aligned[i]!)).length;
  return { regressions, improvements };
}
