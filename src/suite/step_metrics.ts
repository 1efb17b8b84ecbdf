/**
 * The deterministic trace metrics that read how the agent went about it: `step_efficiency`
 * (repeated tool calls) and `hit_limit` (running out of turns).
 *
 * @module
 */
import { canonicalizeBatch, canonicalValue } from "../engine/mod.ts";
import type { CriterionScore, RunContext } from "./types.ts";
import { isRec, listed, type MetricParams, readParams, readRun } from "./_metric_args.ts";

/**
 * `step_efficiency`: `1 − duplicates / tool calls`, where a duplicate repeats the name and
 * the canonical arguments of an earlier call (object arguments through `canonicalValue`, JSON
 * string arguments canonicalised as Python's `json` would, so `1` and `1.0` differ; arguments
 * that are not valid JSON compare by their raw text). Always applicable; no calls scores 1.0.
 *
 * @param run The run: `golden` (The golden (unused)), `trace` (The run; its `tool_calls` is read),
 *   `catalog` (The schema catalog (unused)).
 * @param params None are accepted.
 * @returns The score, with the number of calls and duplicates and the duplicates' indexes.
 * @throws {TypeError} If `trace.tool_calls` is not a list.
 * @throws {RangeError} If a param is given.
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
  readParams("step_efficiency", params);
  const calls = isRec(trace) ? trace.tool_calls : undefined;
  if (!Array.isArray(calls)) throw new TypeError("The trace's tool_calls must be a list");
  const texts: (string | null)[] = calls.map((c) => {
    const args = isRec(c) ? c.arguments : undefined;
    if (typeof args === "string") return args;
    if (args === undefined || typeof args === "function" || typeof args === "symbol") {
      return String(args); // compared by that text, as before
    }
    try {
      return canonicalValue(args);
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
    const name = String(isRec(calls[i]) ? calls[i].name : "");
    const key = `${name.length}:${name}${c.ok ? `j${c.canonical}` : `r${t}`}`;
    if (seen.has(key)) duplicates.push(i);
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
