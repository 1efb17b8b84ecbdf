/**
 * The deterministic trace metrics that read how the agent went about it: `step_efficiency`
 * (repeated tool calls), `hit_limit` (running out of turns) and `trajectory_match` (the calls
 * against a reference trajectory).
 *
 * @module
 */
import { canonicalizeBatch, canonicalValue } from "../engine/mod.ts";
import { type CriterionScore, type RunContext, RunInputError } from "./types.ts";
import { isRec, listed, type MetricParams, readParams, readRun, skip } from "./_metric_args.ts";
import { trajectoryMatch, type TrajectoryMatchOptions } from "./trajectory_match.ts";
import { readServerCalls, traceCalls } from "./_tool_calls.ts";
import { exactText } from "./_exact_values.ts";

/**
 * `step_efficiency`: `1 − duplicates / tool calls`, where a duplicate repeats the name and
 * the canonical arguments of an earlier call (object arguments through `canonicalValue`, JSON
 * string arguments canonicalised as Python's `json` would, so `1` and `1.0` differ; arguments
 * that are not valid JSON compare by their raw text). Calls are read in every shape that
 * `trajectory_match` reads (`TrajectoryCall`: OpenAI, Anthropic `tool_use`, LangChain `args`), so
 * an Anthropic call repeats a LangChain call with the same name and arguments. Always applicable;
 * no calls scores 1.0.
 *
 * @param run The run: `golden` (The golden (unused)), `trace` (The run; its `tool_calls` is read),
 *   `catalog` (The schema catalog (unused)).
 * @param params `{server_calls}`: what a call run by a server (`server_tool_use`, `mcp_tool_use`)
 *   is: `refuse` (default), `read` (a call) or `skip` (not counted); see `TrajectoryMatchOptions`.
 * @returns The score, with the number of calls and duplicates and the duplicates' indexes in
 *   `tool_calls`.
 * @throws {TypeError} If `trace.tool_calls` is not a list.
 * @throws {RunInputError} Of the trace, naming `tool_calls[i]`, if a call has no string name, is
 *   ambiguous (arguments under two of `arguments`, `input`, `args`) or is a server's call under
 *   `refuse`.
 * @throws {RangeError} If a param is unknown or `server_calls` is none of its values.
 *
 * @example Key order does not matter, `1.0` vs `1` does
 * ```ts
 * import { stepEfficiency } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const trace = {
 *   golden_id: "q1", arm: "base", repeat: 0, sql: [], final_rows: null,
 *   final_answer: null, submitted: true, hit_turn_limit: false,
 *   tool_calls: [
 *     { name: "run_sql", arguments: { q: "x", n: 1 } },
 *     { name: "run_sql", arguments: '{"n": 1, "q": "x"}' },
 *     { name: "run_sql", arguments: '{"n": 1.0, "q": "x"}' },
 *     { name: "run_sql", arguments: { q: "x", n: 1 } },
 *   ],
 * };
 * const r = stepEfficiency({ golden: { id: "q1", question: "?" }, trace, catalog: { views: [] } });
 * assertEquals([r.score, r.details?.duplicates], [0.5, 2]);
 * ```
 */
export function stepEfficiency(run: RunContext, params?: MetricParams): CriterionScore {
  const { golden, trace, catalog } = readRun(run);
  void golden, catalog;
  const server = readServerCalls(readParams("step_efficiency", params).server_calls);
  const calls = traceCalls(trace, server);
  const texts: (string | null)[] = calls.map(({ args }) => {
    if (typeof args === "string") return args;
    if (args === undefined || typeof args === "function" || typeof args === "symbol") {
      return String(args); // compared by that text, as before
    }
    try {
      return exactText(args) ?? canonicalValue(args);
    } catch {
      return null; // not JSON (a cycle, a BigInt, a Date, an undefined member): never a duplicate
    }
  });
  const canon = canonicalizeBatch(texts.map((t) => t ?? ""));
  const seen = new Set<string>();
  const duplicates: number[] = [];
  texts.forEach((t, i) => {
    if (t === null) return;
    const c = canon[i]!;
    const name = calls[i]!.name;
    const key = `${name.length}:${name}${c.ok ? `j${c.canonical}` : `r${t}`}`;
    if (seen.has(key)) duplicates.push(calls[i]!.index);
    else seen.add(key);
  });
  const n = calls.length;
  return {
    applicable: true,
    score: n === 0 ? 1 : 1 - duplicates.length / n,
    details: { tool_calls: n, duplicates: duplicates.length, duplicate_calls: listed(duplicates) },
  };
}

/**
 * `hit_limit`: 1.0 when the agent did not give up, 0.0 when it hit its turn limit without
 * submitting an answer (1.0 = "did not hit the limit"). Always applicable.
 *
 * @param run The run: `golden` (The golden (unused)), `trace` (The run; its `hit_turn_limit` and `submitted` are read),
 *   `catalog` (The schema catalog (unused)).
 * @param params None are accepted.
 * @returns The score, with both flags.
 * @throws {TypeError} If either flag is not a boolean.
 * @throws {RangeError} If a param is given.
 *
 * @example An agent that ran out of turns
 * ```ts
 * import { hitLimit } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const trace = {
 *   golden_id: "q1", arm: "base", repeat: 0, tool_calls: [], sql: [], final_rows: null,
 *   final_answer: null, submitted: false, hit_turn_limit: true,
 * };
 * assertEquals(hitLimit({ golden: { id: "q1", question: "?" }, trace, catalog: { views: [] } }), {
 *   applicable: true,
 *   score: 0,
 *   details: { hit_turn_limit: true, submitted: false },
 * });
 * ```
 */
export function hitLimit(run: RunContext, params?: MetricParams): CriterionScore {
  const { golden, trace, catalog } = readRun(run);
  void golden, catalog;
  readParams("hit_limit", params);
  const hit = isRec(trace) ? trace.hit_turn_limit : undefined;
  const submitted = isRec(trace) ? trace.submitted : undefined;
  if (typeof hit !== "boolean" || typeof submitted !== "boolean") {
    throw new TypeError("The trace's hit_turn_limit and submitted must be booleans");
  }
  return {
    applicable: true,
    score: hit && !submitted ? 0 : 1,
    details: { hit_turn_limit: hit, submitted },
  };
}

/**
 * `trajectory_match`: 1.0 when the run's tool calls match the golden's `reference_trajectory`
 * under the params (`trajectory`, `arguments`, `numbers`, `tools`, `server_calls`; see
 * `trajectoryMatch`), else 0.0. The `strict` mode reads the trace's `messages`. Not applicable
 * when the golden has no reference trajectory, or, in `strict`, when the trace has no messages.
 *
 * @param run The run: `golden` (its `reference_trajectory` is read), `trace` (its `tool_calls`,
 *   or `messages` in `strict`), `catalog` (The schema catalog (unused)).
 * @param params The `trajectoryMatch` options; `trajectory` is required.
 * @returns The score, with the reasons for a failure (at most 50) and whether greedy first-match
 *   would have decided otherwise (`greedy_disagrees`).
 * @throws {TypeError} If the params or a trajectory have the wrong shape.
 * @throws {RangeError} If a param is unknown or out of range.
 *
 * @example Every reference call made, one extra allowed
 * ```ts
 * import { trajectoryMatchMetric } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const golden = {
 *   id: "q1", question: "?", reference_trajectory: [{ name: "list_views", arguments: {} }],
 * };
 * const trace = {
 *   golden_id: "q1", arm: "base", repeat: 0, sql: [], final_rows: null,
 *   final_answer: null, submitted: true, hit_turn_limit: false,
 *   tool_calls: [
 *     { name: "list_views", arguments: {} },
 *     { name: "run_sql", arguments: { sql: "SELECT 1" } },
 *   ],
 * };
 * const r = trajectoryMatchMetric({ golden, trace, catalog: { views: [] } }, {
 *   trajectory: "superset",
 * });
 * assertEquals([r.score, r.details?.greedy_disagrees], [1, false]);
 * ```
 */
export function trajectoryMatchMetric(run: RunContext, params?: MetricParams): CriterionScore {
  const { golden, trace, catalog } = readRun(run);
  void catalog;
  const options = readParams("trajectory_match", params) as unknown as TrajectoryMatchOptions;
  trajectoryMatch([], [], options); // checks the params, even where the metric does not apply
  const reference = isRec(golden) ? golden.reference_trajectory : undefined;
  if (reference === undefined) return skip("The golden has no reference_trajectory");
  const strict = options.trajectory === "strict";
  const output = isRec(trace) ? (strict ? trace.messages : trace.tool_calls) : undefined;
  if (strict && output === undefined) return skip("The trace has no messages (strict mode)");
  let r: ReturnType<typeof trajectoryMatch>;
  try {
    r = trajectoryMatch(reference as [], output as [], options);
  } catch (e) {
    // A reference or an output it cannot read as calls (or messages) is bad input, named by its
    // field: trajectoryMatch words it as `reference…` or `output…`.
    if (!(e instanceof TypeError)) throw e;
    const golden = e.message.startsWith("reference");
    const field = golden ? "reference_trajectory" : strict ? "messages" : "tool_calls";
    const what = e.message.replace(/^(reference|output)/, field);
    throw new RunInputError(golden ? "golden" : "trace", what, { cause: e });
  }
  return {
    applicable: true,
    score: r.pass ? 1 : 0,
    details: {
      pass: r.pass,
      reasons: listed(r.reasons),
      n_reasons: r.reasons.length,
      greedy_disagrees: r.greedyDisagrees,
    },
  };
}

/** One `trajectory_match` metric over a suite run. */
export interface TrajectorySummary {
  /** The metric's name. */
  metric: string;
  /** Runs where it applied. */
  applicable: number;
  /** Of those, runs that passed. */
  passes: number;
  /** Runs where greedy first-match (the peers' method) would have given the other verdict. */
  greedy_disagreements: number;
}

/**
 * Counts, per `trajectory_match` metric of a suite run, the runs where it applied and passed,
 * and those where greedy first-match would have decided otherwise.
 *
 * @param results The run's results (`runSuite`).
 * @param metrics The names of the suite's `trajectory_match` metrics.
 * @returns One summary per metric, in the given order.
 * @throws {TypeError} If `results` is not an array.
 *
 * @example
 * ```ts
 * import { trajectorySummary } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const row = (pass: boolean, greedy: boolean) => ({
 *   golden_id: "g", arm: "a", repeat: 0, metric: "route", threshold: 0.5, applicable: true,
 *   score: pass ? 1 : 0, details: { pass, greedy_disagrees: greedy },
 * });
 * const overall = {
 *   status: "complete" as const, overall: 1, pass: true, threshold: 0.5, n_applicable: 1,
 *   n_scored: 1, errored: [],
 * };
 * const results = [true, false].map((greedy, repeat) => ({
 *   golden_id: "g", arm: "a", repeat, criteria: [row(true, greedy)], overall,
 * }));
 * assertEquals(trajectorySummary(results, ["route"]), [
 *   { metric: "route", applicable: 2, passes: 2, greedy_disagreements: 1 },
 * ]);
 * ```
 */
export function trajectorySummary(
  results: readonly {
    criteria: readonly {
      metric: string;
      applicable: boolean;
      score: number | null;
      details?: Record<string, unknown>;
    }[];
  }[],
  metrics: readonly string[],
): TrajectorySummary[] {
  if (!Array.isArray(results)) throw new TypeError("Expected the run's results as an array");
  return metrics.map((metric) => {
    const s: TrajectorySummary = { metric, applicable: 0, passes: 0, greedy_disagreements: 0 };
    for (const r of results) {
      for (const c of r.criteria) {
        if (c.metric !== metric || !c.applicable) continue;
        s.applicable++;
        if (c.score === 1) s.passes++;
        if (c.details?.greedy_disagrees === true) s.greedy_disagreements++;
      }
    }
    return s;
  });
}
