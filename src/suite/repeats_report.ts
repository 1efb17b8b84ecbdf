/**
 * The repeats section of a suite run's report ({@linkcode repeatsReport}) and the cluster keys it
 * groups goldens by ({@linkcode clusterKeys}), from goldens given in memory: each checked, as
 * `runSuite` checks them, by the rules `readGoldens` applies to a goldens file's lines.
 *
 * @module
 */
import type { Repeats } from "./repeats.ts";
import type { RunResult } from "./run.ts";
import type { Golden } from "./types.ts";
import type { RepeatsReport, RepeatsReportOptions } from "./uncertainty.ts";
import { checkMemoryGoldens, checkRunGoldens } from "./_input_checks.ts";
import { clusterKeysOf, repeatsSection } from "./_repeats_section.ts";
import { checkOptions } from "../engine/mod.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/**
 * Each golden's cluster key under a golden field, as {@linkcode repeatsReport} groups goldens:
 * the value's type and text (`string:sales`, `number:3`), so that `"3"` and `3` differ. A metric
 * store keeps these keys to rebuild a stored run's clusters (`storedRepeatsInputs`). The goldens
 * are first checked as `runSuite` checks them: a golden `readGoldens` would refuse in a file (a
 * misspelt field, the schema, an id given twice) or holding a value no file can (NaN, undefined,
 * a Date) is refused, so that no key is made of NaN, nor one id given two keys.
 *
 * @param goldens The goldens.
 * @param field The golden field to cluster by (the suite's `repeats.cluster`).
 * @returns Golden id → cluster key, in the goldens' order.
 * @throws {SuiteInputError} At the first golden so refused, named by its index and id
 *   (`goldens[0] (id "g1"): topic is NaN, which JSON cannot hold`).
 * @throws {RangeError} If a golden lacks the field, or its value is not a string or number.
 *
 * @example
 * ```ts
 * import { clusterKeys } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
 *
 * const goldens = [{ id: "g1", question: "?", topic: "sales" }, { id: "g2", question: "?", topic: 3 }];
 * assertEquals([...clusterKeys(goldens, "topic")], [["g1", "string:sales"], ["g2", "number:3"]]);
 * const computed = { id: "g1", question: "?", topic: 0 / 0 };
 * throws(() => clusterKeys([computed], "topic"), {
 *   name: "SuiteInputError",
 *   message: 'goldens[0] (id "g1"): topic is NaN, which JSON cannot hold',
 * });
 * ```
 */
export function clusterKeys(goldens: readonly Golden[], field: string): Map<string, string> {
  checkMemoryGoldens(goldens);
  return clusterKeysOf(goldens, field);
}

/**
 * Reduces a suite run's repeats and measures the uncertainty of each arm's mean reduced score:
 * CLT and clustered standard errors with t intervals, the bootstrap over clusters, and the
 * paired comparison of each other arm with the baseline on the reduced per-golden scores (that
 * arm minus the baseline). The baseline is `options.baseline`, else `repeats.baseline`, else the
 * first arm in code-point order: never the order of the results.
 *
 * The goldens are checked as `runSuite` checks them (see {@linkcode clusterKeys}); the results
 * are taken as `runSuite` returns them (or `storedRepeatsInputs` rebuilds them), and checked only
 * as `runSuite` checks a trace's golden: a result of none of the goldens is refused, where it
 * would be reduced as a golden (and a cluster) of its own.
 *
 * @param results The suite run's results, as `runSuite` returns them.
 * @param goldens The goldens (for the cluster field; a golden with no run in an arm is listed in
 *   its `mismatched`).
 * @param repeats The suite's `repeats`; options: the cluster field, seed, resamples and level.
 * @returns The report section.
 * @throws {SuiteInputError} At the first golden `readGoldens` would refuse in a file, or holding a
 *   value no file can, named by its index and id (`goldens[1] (id "g1"): duplicate golden id
 *   "g1" (first at goldens[0])`); or at the first result whose golden is none of them
 *   (`results[2] (golden_id "g9"): no golden with this id in goldens`).
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
  checkOptions(options);
  checkOptionNames("repeatsReport", options, {
    seed: 1,
    resamples: 1,
    level: 1,
    baseline: 1,
    cluster: 1,
  });
  checkMemoryGoldens(goldens);
  checkRunGoldens(results, "results", goldens);
  return repeatsSection(results, goldens, repeats, options);
}
