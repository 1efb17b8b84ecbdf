/**
 * Repeated runs of a metric suite: `repeats: {n, reducer, k?}` in the suite file reduces each
 * golden's runs in an arm to one score. `mean`, `median`, `mode` and `max` reduce the complete
 * runs' overall scores; `at_least_k`, `pass_at_k` and `pass_hat_k` count the runs that pass among
 * those with a pass verdict (an incomplete run has one when its missing scores cannot change it:
 * `runOverall`), through the stats room's `atLeastK`, `passAtK` and `passHatK`. A reducer that
 * needs k runs gives null ("not computable") for a golden with fewer, never 0. `cluster` names
 * the golden field that clusters goldens for the standard errors of `repeatsReport`.
 *
 * @module
 */
import { atLeastK, passAtK, passHatK } from "../stats/mod.ts";
import { compareCodePoints } from "../engine/mod.ts";
import { exactMean } from "../stats/pooled/mod.ts";
import { suggestName } from "../jsonl/mod.ts";
import type { RunResult } from "./run.ts";
import { valueText } from "./_value_text.ts";

/** The repeat reducers. */
export const REPEAT_REDUCERS = [
  "mean",
  "median",
  "mode",
  "max",
  "at_least_k",
  "pass_at_k",
  "pass_hat_k",
] as const;

/** One of {@linkcode REPEAT_REDUCERS}. */
export type RepeatReducer = (typeof REPEAT_REDUCERS)[number];

/** A suite's `repeats`: runs per golden and arm, and how they reduce to one score. */
export interface Repeats {
  /** Runs per (golden, arm) the suite expects, at least 1. */
  n: number;
  /** The reducer. */
  reducer: RepeatReducer;
  /** For `at_least_k`, `pass_at_k` and `pass_hat_k`: k, in [1, n]. */
  k?: number;
  /** The golden field that clusters goldens for the standard errors (see `repeatsReport`). */
  cluster?: string;
  /**
   * The arm `repeatsReport` compares every other arm with, each delta that arm minus it (default:
   * the first arm in code-point order). A property of the suite, so that the report never depends
   * on the order of the traces.
   */
  baseline?: string;
}

/** One golden's runs in one arm, reduced. */
export interface ReducedGolden {
  /** The golden. */
  golden_id: string;
  /** Its runs. */
  runs: number;
  /**
   * Of those, the runs the reducer reads, the others left out: for `mean`, `median`, `mode` and
   * `max` the complete runs (an incomplete run has no overall score); for the `_k` reducers the
   * runs with a pass verdict, the complete ones and the incomplete ones whose missing scores
   * cannot change it (`RunOverall.pass` not null). Unscored runs are never read.
   */
  scored: number;
  /** Of `scored`, the runs that pass. */
  passes: number;
  /** The reduced score; null when not computable (no run read, or fewer than k). */
  value: number | null;
}

/** One arm's goldens, reduced. */
export interface ReducedArm {
  /** The arm. */
  arm: string;
  /** Per golden, sorted by code point. */
  goldens: ReducedGolden[];
  /**
   * Goldens whose number of runs is not the declared `n`, sorted by code point: those of `goldens`
   * and, given the run's golden ids, those with no run in the arm (which `goldens` leaves out).
   */
  mismatched: string[];
  /** Goldens whose value is not computable. */
  not_computable: number;
}

const REPEATS_FIELDS = ["n", "reducer", "k", "cluster", "baseline"];

/** Whether a reducer counts passes (and needs `k`). */
export const needsK = (r: RepeatReducer): boolean => r.endsWith("_k");

/** A problem of a suite's `repeats`, as {@linkcode repeatsIssues} gives it. */
export interface RepeatsIssue {
  /** The field, relative to `repeats` (`""` for the block itself). */
  field: string;
  /** What is wrong. */
  message: string;
  /** The closest valid name, for a misspelt field or reducer. */
  suggestion?: string;
  /** Set for a field the block does not have (placed at its key, not its value). */
  key?: true;
}

/**
 * The problems of a suite's `repeats` value, as (relative field, message) pairs, with the closest
 * valid name of a misspelt field or reducer as `suggestion`; `key` marks a field the block does
 * not have (the suite loader places it at its key, others at the value). A missing `n` or
 * `reducer` is named as missing; a `k` is not blamed on a reducer that is unknown.
 *
 * @param value The `repeats` value of the suite file.
 * @returns Problems; empty when it is a valid {@linkcode Repeats}.
 *
 * @example
 * ```ts
 * import { repeatsIssues } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(repeatsIssues({ n: 3, reducer: "pass_at_k", k: 2 }), []);
 * assertEquals(repeatsIssues({ n: 3, reducer: "pass_at_k" }), [
 *   { field: "", message: 'The reducer "pass_at_k" needs k' },
 * ]);
 * assertEquals(repeatsIssues({ n: 3, reducer: "mean", kk: 1 }), [{
 *   field: "kk",
 *   message: 'Unknown field "kk" (fields: n, reducer, k, cluster, baseline)',
 *   suggestion: "k",
 *   key: true,
 * }]);
 * ```
 */
export function repeatsIssues(value: unknown): RepeatsIssue[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [{ field: "", message: "Expected an object: {n, reducer, k?}" }];
  }
  const v = value as Record<string, unknown>;
  const out: RepeatsIssue[] = [];
  for (const key of Object.keys(v)) {
    if (!REPEATS_FIELDS.includes(key)) {
      const suggestion = suggestName(key, REPEATS_FIELDS);
      out.push({
        field: key,
        message: `Unknown field "${key}" (fields: ${REPEATS_FIELDS.join(", ")})`,
        ...(suggestion !== undefined && { suggestion }),
        key: true,
      });
    }
  }
  if (v.cluster !== undefined && (typeof v.cluster !== "string" || v.cluster === "")) {
    out.push({ field: "cluster", message: "Expected a golden field name" });
  }
  if (v.baseline !== undefined && (typeof v.baseline !== "string" || v.baseline === "")) {
    out.push({
      field: "baseline",
      message: `Expected an arm's name, got ${valueText(v.baseline)}`,
    });
  }
  const n = v.n;
  const nOk = typeof n === "number" && Number.isSafeInteger(n) && n >= 1;
  if (n === undefined) {
    out.push({ field: "", message: 'Missing field "n" (an integer ≥ 1)' });
  } else if (!nOk) {
    out.push({ field: "n", message: `Expected an integer ≥ 1, got ${valueText(n)}` });
  }
  const reducer = v.reducer;
  const known = (REPEAT_REDUCERS as readonly unknown[]).includes(reducer);
  const reducers = `reducers: ${REPEAT_REDUCERS.join(", ")}`;
  if (reducer === undefined) {
    out.push({ field: "", message: `Missing field "reducer" (${reducers})` });
  } else if (!known) {
    const suggestion = typeof reducer === "string"
      ? suggestName(reducer, REPEAT_REDUCERS)
      : undefined;
    out.push({
      field: "reducer",
      message: `Unknown reducer ${valueText(reducer)} (${reducers})`,
      ...(suggestion !== undefined && { suggestion }),
    });
  } else if (needsK(reducer as RepeatReducer) && v.k === undefined) {
    out.push({ field: "", message: `The reducer "${reducer}" needs k` });
  }
  if (v.k !== undefined) {
    const k = v.k;
    if (typeof k !== "number" || !Number.isSafeInteger(k) || k < 1) {
      out.push({ field: "k", message: `Expected an integer ≥ 1, got ${valueText(k)}` });
    } else if (nOk && k > (n as number)) {
      out.push({ field: "k", message: `k (${k}) exceeds n (${n})` });
    } else if (known && !needsK(reducer as RepeatReducer)) {
      // Only a known reducer takes or refuses a k: an unknown one is its own problem.
      out.push({ field: "k", message: `The reducer "${reducer}" takes no k` });
    }
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : exactMean([s[mid - 1]!, s[mid]!])!;
}

// The most frequent value; among ties, the smallest (the conservative choice).
function mode(xs: number[]): number {
  const counts = new Map<number, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  let best = NaN, count = 0;
  for (const [x, c] of counts) if (c > count || (c === count && x < best)) best = x, count = c;
  return best;
}

/**
 * Reduces one golden's runs: the complete runs' overall scores, or whether each run with a pass
 * verdict passes.
 *
 * @param scores The complete runs' overall scores, in repeat order (read by `mean`, `median`,
 *   `mode` and `max`).
 * @param passes Whether each run with a pass verdict passes, in repeat order (read by the `_k`
 *   reducers).
 * @param repeats The reducer and its k.
 * @returns The reduced score, or null when not computable.
 * @throws {RangeError} If the reducer is unknown or needs a k it lacks.
 *
 * @example pass@k needs k runs
 * ```ts
 * import { reduceRuns } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const repeats = { n: 3, reducer: "pass_at_k", k: 2 } as const;
 * assertEquals(reduceRuns([1, 0, 0], [true, false, false], repeats), 2 / 3);
 * assertEquals(reduceRuns([1], [true], repeats), null);
 * assertEquals(reduceRuns([0.2, 0.9, 0.9], [false, true, true], { n: 3, reducer: "median" }), 0.9);
 * ```
 */
export function reduceRuns(
  scores: readonly number[],
  passes: readonly boolean[],
  repeats: Repeats,
): number | null {
  const { reducer, k } = repeats;
  if (!(REPEAT_REDUCERS as readonly string[]).includes(reducer)) {
    throw new RangeError(`Unknown reducer ${JSON.stringify(reducer)}`);
  }
  if (needsK(reducer)) {
    if (k === undefined) throw new RangeError(`The reducer "${reducer}" needs k`);
    const n = passes.length, c = passes.filter(Boolean).length;
    if (n < k) return null;
    if (reducer === "pass_at_k") return passAtK(n, c, k);
    if (reducer === "pass_hat_k") return passHatK(n, c, k);
    return atLeastK(passes.map((p) => (p ? 1 : 0)), k);
  }
  if (scores.length === 0) return null;
  if (reducer === "mean") return exactMean(scores);
  if (reducer === "median") return median([...scores]);
  if (reducer === "mode") return mode([...scores]);
  return scores.reduce((a, b) => Math.max(a, b)); // not spread: many runs would overflow the stack
}

/**
 * Reduces every (arm, golden)'s runs to one score.
 *
 * @param results The suite run's results (`runSuite`).
 * @param repeats The suite's `repeats`.
 * @param goldenIds The ids of every golden of the run, when known: a golden with no run in an arm
 *   is then listed in its `mismatched` (0 runs are not `n`), never lost.
 * @returns Per arm (sorted by code point), each golden's reduced score.
 * @throws {RangeError} If the reducer is unknown or needs a k it lacks.
 *
 * @example
 * ```ts
 * import { reduceRepeats } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const run = (repeat: number, overall: number) => ({
 *   golden_id: "g1", arm: "base", repeat, criteria: [],
 *   overall: {
 *     status: "complete" as const, overall, pass: overall >= 0.5, threshold: 0.5,
 *     n_applicable: 1, n_scored: 1, errored: [],
 *   },
 * });
 * const [arm] = reduceRepeats([run(0, 1), run(1, 0)], { n: 2, reducer: "max" });
 * strictEqual(arm!.goldens[0]!.value, 1);
 * ```
 */
export function reduceRepeats(
  results: readonly RunResult[],
  repeats: Repeats,
  goldenIds: readonly string[] = [],
): ReducedArm[] {
  const arms = new Map<string, Map<string, RunResult[]>>();
  for (const r of results) {
    let goldens = arms.get(r.arm);
    if (!goldens) arms.set(r.arm, goldens = new Map());
    const runs = goldens.get(r.golden_id);
    if (runs) runs.push(r);
    else goldens.set(r.golden_id, [r]);
  }
  return [...arms.keys()].sort(compareCodePoints).map((arm) => {
    const goldens = [...arms.get(arm)!.entries()]
      .sort(([a], [b]) => compareCodePoints(a, b))
      .map(([golden_id, runs]): ReducedGolden => {
        const sorted = [...runs].sort((a, b) => a.repeat - b.repeat);
        const complete = sorted.filter((r) => r.overall.status === "complete");
        // The pass reducers read every run with a verdict: an incomplete run counts when its
        // missing scores cannot change its pass, as in the scorecard's pass rate.
        const decided = sorted.filter((r) => r.overall.pass !== null);
        const read = needsK(repeats.reducer) ? decided : complete;
        const scores = complete.map((r) => r.overall.overall!);
        const passes = decided.map((r) => r.overall.pass!);
        return {
          golden_id,
          runs: runs.length,
          scored: read.length,
          passes: read.filter((r) => r.overall.pass === true).length,
          value: reduceRuns(scores, passes, repeats),
        };
      });
    const runless = [...new Set(goldenIds)].filter((id) => !arms.get(arm)!.has(id));
    return {
      arm,
      goldens,
      mismatched: [
        ...goldens.filter((g) => g.runs !== repeats.n).map((g) => g.golden_id),
        ...runless,
      ]
        .sort(compareCodePoints),
      not_computable: goldens.filter((g) => g.value === null).length,
    };
  });
}
