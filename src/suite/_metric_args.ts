// What every deterministic trace metric does with its arguments: read the run, check the params
// against the metric's list, and keep the lists in `details` short.
import type { CriterionScore, RunContext } from "./types.ts";
import { suggestName } from "../jsonl/mod.ts";

/** A metric's `params` from the suite file. */
export type MetricParams = { readonly [key: string]: unknown };

/** The deterministic metric types, in the reference's order. */
export const DETERMINISTIC_METRIC_NAMES = [
  "schema_membership",
  "expected_view_recall",
  "reference_value_match",
  "step_efficiency",
  "hit_limit",
  "trajectory_match",
] as const;

/** One deterministic metric type. */
export type DeterministicMetricName = (typeof DETERMINISTIC_METRIC_NAMES)[number];

/** The params each deterministic metric accepts; any other key is a `RangeError`. */
export const DETERMINISTIC_METRIC_PARAMS: Readonly<
  Record<DeterministicMetricName, readonly string[]>
> = Object.freeze({
  schema_membership: ["dialect"],
  expected_view_recall: ["dialect", "view_tools", "server_calls"],
  reference_value_match: ["abs_tol", "rel_tol"],
  step_efficiency: ["server_calls"],
  hit_limit: [],
  trajectory_match: ["trajectory", "arguments", "numbers", "tools", "server_calls"],
});

/** The longest list of names or errors kept in `details`; the counts are always complete. */
export const MAX_LISTED = 50;

/** Whether `v` is a plain record (not null, not an array). */
export const isRec = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
/** What a bad param's error carries beside its message: see {@linkcode paramError}. */
export interface ParamErrorMarks {
  /** The param, as a dotted path (`trajectory`, `tools.run_sql.ignore`). */
  field: string;
  /** The closest valid name, for a misspelt one. */
  suggestion?: string;
  /** Whether the key itself is wrong (one the param's object does not have), not its value. */
  key?: true;
}

/**
 * Marks a bad param's error with the param's dotted path and, when `word` is a misspelling of
 * one of `valid`, the closest, so that the suite loader places each at its line and offers it.
 */
export function paramError<E extends Error>(
  error: E,
  field: string,
  word?: unknown,
  valid?: readonly string[],
): E & ParamErrorMarks {
  const suggestion = typeof word === "string" && valid ? suggestName(word, valid) : undefined;
  return Object.assign(error, { field, ...(suggestion !== undefined && { suggestion }) });
}

/**
 * `v`, checked to be one of `values` (the param `at`): a RangeError naming them, with the closest
 * for a misspelt one.
 */
export function oneOf<T extends string>(at: string, v: unknown, values: readonly T[]): T {
  if ((values as readonly unknown[]).includes(v)) return v as T;
  const e = new RangeError(`${at} must be one of ${values.join(", ")}, got ${String(v)}`);
  throw paramError(e, at, v, values);
}

/** The first {@linkcode MAX_LISTED} items. */
export const listed = <T>(xs: readonly T[]): T[] => xs.slice(0, MAX_LISTED);
/** A score that does not apply to the run, and why. */
export const skip = (reason: string): CriterionScore => ({
  applicable: false,
  score: null,
  details: { reason },
});

/** The run, checked to be an object. */
export function readRun(run: RunContext): RunContext {
  if (typeof run !== "object" || run === null) {
    throw new TypeError("Expected a run: {golden, trace, catalog}");
  }
  return run;
}

/** The metric's params (`{}` when absent), each key checked against its list. */
export function readParams(
  metric: DeterministicMetricName,
  params: unknown,
): Record<string, unknown> {
  const allowed = DETERMINISTIC_METRIC_PARAMS[metric];
  if (params === undefined || params === null) return {};
  if (!isRec(params)) throw new TypeError(`The params of ${metric} must be an object`);
  for (const k of Object.keys(params)) {
    if (!allowed.includes(k)) {
      const expected = allowed.length ? allowed.join(", ") : "none";
      throw new RangeError(`Unknown param "${k}" for ${metric}: expected ${expected}`);
    }
  }
  return params;
}
