/**
 * Tool-call metrics over examples with any number of calls each: tool-selection accuracy,
 * tool-argument accuracy, tool-call precision/recall/F1 and the API-call success rate.
 *
 * Each example's expected and predicted entry is one call or a list of calls: `{name,
 * arguments}`, OpenAI's `{type: "function", function: {name, arguments}}` (`id` optional) or an
 * Anthropic `{type: "tool_use", name, input}` block (`id`, `cache_control` and `caller`
 * optional), with exactly those keys, or the call is invalid. `arguments`, and `input` alike, is
 * an object (a JS value, written by `canonicalValue`: `1.0` is already `1`) or a JSON string
 * (canonicalised as Python's `json` would: `1` and `1.0` differ, big integers keep their digits).
 * A `text`, `thinking` or `redacted_thinking` block, or a server tool's `*_tool_result` (of an
 * Anthropic message's `content`), is no call and is skipped, as the `anthropic` decoder skips
 * them; a block of another type is an invalid call.
 * Expected calls are matched to predicted calls by an optimal one-to-one assignment, never
 * by greedy first-match: see `docs/tool_metrics.md` for the algorithm and its proof sketch.
 *
 * @module
 */
import { canonicalValue, checkOptions, jsonKind, type WithEngine } from "../engine/mod.ts";
import { type MetricValue, metricValue } from "../stats/mod.ts";
import { matchExample } from "./assignment.ts";
import { normalizeToolCalls, pairTable } from "./_tool_calls_input.ts";
import type { ToolCallMatch, ToolCallsEntry } from "./tool_calls.ts";

/** Options for {@linkcode toolSelectionAccuracy}. */
export interface ToolSelectionOptions extends WithEngine {
  /** Compare the tool names as sequences instead of multisets (default `false`). */
  ordered?: boolean;
}

/** Options for {@linkcode toolArgumentAccuracy}. */
export interface ToolArgumentOptions extends WithEngine {
  /**
   * `exact` (default): the same canonical arguments. `subset`: the predicted arguments
   * contain every expected flattened argument pair (extra predicted arguments allowed).
   */
  match?: "exact" | "subset";
}

/** Options for {@linkcode toolCallF1}. */
export interface ToolCallF1Options extends WithEngine {
  /** `exact` (default), `name` (arguments ignored) or `subset` (see {@linkcode ToolArgumentOptions}). */
  match?: ToolCallMatch;
}

/** Extra figures of {@linkcode toolSelectionAccuracy}. */
export interface ToolSelectionDetails {
  /** Invalid predicted calls (wrong shape, or arguments that are not a JSON object). */
  invalidCalls: number;
}

/** {@linkcode toolSelectionAccuracy}'s result. */
export interface ToolSelectionResult extends MetricValue {
  /** Extra figures. */
  details: ToolSelectionDetails;
}

/** Extra figures of {@linkcode toolArgumentAccuracy}. */
export interface ToolArgumentDetails {
  /** Invalid predicted calls. */
  invalidCalls: number;
  /** All predicted calls, invalid ones included. */
  predictedCalls: number;
}

/** {@linkcode toolArgumentAccuracy}'s result. */
export interface ToolArgumentResult extends MetricValue {
  /** Extra figures. */
  details: ToolArgumentDetails;
}

/** Extra figures of {@linkcode toolCallF1}. */
export interface ToolCallF1Details {
  /** Matched calls over predicted calls (invalid ones included). */
  precision: MetricValue;
  /** Matched calls over expected calls. */
  recall: MetricValue;
  /** Invalid predicted calls over predicted calls. */
  invalidCallRate: MetricValue;
  /** Invalid predicted calls. */
  invalidCalls: number;
  /** Flattened argument pairs shared by matched calls, over the pairs of valid predicted calls. */
  argumentPairPrecision: MetricValue;
  /** Flattened argument pairs shared by matched calls, over the pairs of expected calls. */
  argumentPairRecall: MetricValue;
  /**
   * Components (one tool in one example) with more than 64 calls on a side under
   * `name` or `subset`: the match count stays exact, the pair-overlap tie-break is best-effort.
   */
  tieBreakFallbacks: number;
}

/** {@linkcode toolCallF1}'s result: the F1 as `2·matched / (predicted + expected)`. */
export interface ToolCallF1Result extends MetricValue {
  /** Precision, recall, invalid-call rate and argument-pair figures. */
  details: ToolCallF1Details;
}

/** Extra figures of {@linkcode apiCallSuccessRate}: how many results came in each form. */
export interface ApiCallSuccessDetails {
  /** Status flags: `true`/`false` and `{ok: boolean}`. */
  flags: number;
  /** HTTP status codes: integers 100–599 and `{status: number}`. */
  httpStatuses: number;
  /** Recorded exceptions: `Error` instances and `{error}` / `{exception}` objects. */
  exceptions: number;
}

/** {@linkcode apiCallSuccessRate}'s result. */
export interface ApiCallSuccessResult extends MetricValue {
  /** Counts by kind. */
  details: ApiCallSuccessDetails;
}

/** One recorded API-call outcome. */
export type ApiCallResult =
  | boolean
  | number
  | Error
  | { ok: boolean }
  | { status: number }
  | { error: unknown }
  | { exception: unknown };

// A value as the messages name it: as JSON writes it (a string quoted, so "200" is not 200; cut
// to 80 characters and an ellipsis, as quote() cuts), or its kind where JSON has no such value
// (undefined, a bigint, a function, a cycle).
function named(x: unknown): string {
  try {
    const text = canonicalValue(x);
    return text.length > 80 ? `${text.slice(0, 80)}\u2026` : text;
  } catch {
    return jsonKind(x);
  }
}

function option<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) {
    throw new RangeError(`Unknown match ${named(value)}: expected ${allowed.join(", ")}`);
  }
  return value as T;
}

function multisetKey(names: readonly string[]): string {
  return names.map((n) => `${n.length}:${n}`).sort().join("");
}

/**
 * Tool-selection accuracy: the share of examples whose predicted calls name exactly the
 * expected tools, as multisets (or as sequences with `ordered: true`). An example with an
 * invalid predicted call is wrong.
 *
 * @param expected Per example, the expected call or list of calls.
 * @param predicted Per example, the predicted call or list of calls.
 * @param options `ordered` and the engine.
 * @returns Correct examples over examples, with `details.invalidCalls`.
 * @throws {TypeError} If either side is not an array or an expected call is malformed.
 * @throws {RangeError} If the two sides differ in length.
 *
 * @example The reference's example
 * ```ts
 * import { toolSelectionAccuracy } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const expected = [{ name: "search", arguments: { q: "evalsuite" } }, []];
 * const predicted = [
 *   { name: "search", arguments: '{"q": "evalsuite"}' },
 *   [{ name: "search", arguments: {} }],
 * ];
 * assertEquals(toolSelectionAccuracy(expected, predicted), {
 *   value: 0.5,
 *   numerator: 1,
 *   denominator: 2,
 *   details: { invalidCalls: 0 },
 * });
 * ```
 */
export function toolSelectionAccuracy(
  expected: readonly ToolCallsEntry[],
  predicted: readonly unknown[],
  options: ToolSelectionOptions = {},
): ToolSelectionResult {
  checkOptions(options);
  if (options.ordered !== undefined && typeof options.ordered !== "boolean") {
    throw new TypeError("The ordered option must be a boolean");
  }
  const { examples } = normalizeToolCalls(expected, predicted, options.engine);
  let correct = 0, invalidCalls = 0;
  for (const ex of examples) {
    invalidCalls += ex.invalid;
    if (ex.invalid > 0 || ex.expected.length !== ex.predicted.length) continue;
    const e = ex.expected.map((c) => c.name), p = ex.predicted.map((c) => c.name);
    const same = options.ordered
      ? e.every((n, i) => n === p[i])
      : multisetKey(e) === multisetKey(p);
    if (same) correct++;
  }
  return { ...metricValue(correct, examples.length), details: { invalidCalls } };
}

/**
 * Tool-argument accuracy: the share of expected calls reproduced with the right tool and
 * exactly the expected arguments (canonical JSON equality), pooled over examples, under an
 * optimal one-to-one matching (not the reference's "by tool name in order").
 *
 * @param expected Per example, the expected call or list of calls.
 * @param predicted Per example, the predicted call or list of calls.
 * @param options `match` (`exact` or `subset`) and the engine.
 * @returns Matched expected calls over expected calls.
 * @throws {TypeError} If either side is not an array or an expected call is malformed.
 * @throws {RangeError} If the two sides differ in length or `match` is unknown.
 *
 * @example Order does not matter; 1 and 1.0 differ in JSON text
 * ```ts
 * import { toolArgumentAccuracy } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const expected = [[{ name: "f", arguments: { a: 1 } }, { name: "f", arguments: { a: 2 } }]];
 * const predicted = [[{ name: "f", arguments: '{"a": 2}' }, { name: "f", arguments: '{"a": 1.0}' }]];
 * assertEquals(toolArgumentAccuracy(expected, predicted), {
 *   value: 0.5,
 *   numerator: 1,
 *   denominator: 2,
 *   details: { invalidCalls: 0, predictedCalls: 2 },
 * });
 * ```
 */
export function toolArgumentAccuracy(
  expected: readonly ToolCallsEntry[],
  predicted: readonly unknown[],
  options: ToolArgumentOptions = {},
): ToolArgumentResult {
  checkOptions(options);
  const match = option(options.match, ["exact", "subset"], "exact");
  const { examples, canonicals } = normalizeToolCalls(expected, predicted, options.engine);
  const pairs = match === "subset" ? pairTable(canonicals, options.engine) : undefined;
  let matched = 0, total = 0, invalidCalls = 0, predictedCalls = 0;
  for (const ex of examples) {
    matched += matchExample(ex.expected, ex.predicted, match, pairs).matched;
    total += ex.expected.length;
    invalidCalls += ex.invalid;
    predictedCalls += ex.predicted.length + ex.invalid;
  }
  return { ...metricValue(matched, total), details: { invalidCalls, predictedCalls } };
}

/**
 * Tool-call F1, pooled over examples: with `matched` the size of an optimal one-to-one
 * matching, precision = matched / predicted, recall = matched / expected, and
 * F1 = 2·matched / (predicted + expected). Invalid predicted calls never match and count
 * in `predicted`.
 *
 * @param expected Per example, the expected call or list of calls.
 * @param predicted Per example, the predicted call or list of calls.
 * @param options `match` (`exact`, `name` or `subset`) and the engine.
 * @returns The F1, with precision, recall and the invalid-call rate in `details`.
 * @throws {TypeError} If either side is not an array or an expected call is malformed.
 * @throws {RangeError} If the two sides differ in length or `match` is unknown.
 *
 * @example The reference's example
 * ```ts
 * import { toolCallF1 } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const expected = [{ name: "search", arguments: { q: "evalsuite" } }, []];
 * const predicted = [
 *   { name: "search", arguments: '{"q": "evalsuite"}' },
 *   [{ name: "search", arguments: {} }],
 * ];
 * const f1 = toolCallF1(expected, predicted);
 * assertEquals([f1.numerator, f1.denominator], [2, 3]);
 * assertEquals(f1.details.precision, { value: 0.5, numerator: 1, denominator: 2 });
 * assertEquals(f1.details.recall, { value: 1, numerator: 1, denominator: 1 });
 * ```
 */
export function toolCallF1(
  expected: readonly ToolCallsEntry[],
  predicted: readonly unknown[],
  options: ToolCallF1Options = {},
): ToolCallF1Result {
  checkOptions(options);
  const match = option(options.match, ["exact", "name", "subset"], "exact");
  const { examples, canonicals } = normalizeToolCalls(expected, predicted, options.engine);
  const pairs = pairTable(canonicals, options.engine);
  let matched = 0, nExpected = 0, nPredicted = 0, invalidCalls = 0;
  let overlap = 0, expectedPairs = 0, predictedPairs = 0, tieBreakFallbacks = 0;
  for (const ex of examples) {
    const m = matchExample(ex.expected, ex.predicted, match, pairs);
    matched += m.matched;
    overlap += m.overlap;
    tieBreakFallbacks += m.fallbacks;
    nExpected += ex.expected.length;
    nPredicted += ex.predicted.length + ex.invalid;
    invalidCalls += ex.invalid;
    for (const c of ex.expected) expectedPairs += pairs.count(c.args);
    for (const c of ex.predicted) predictedPairs += pairs.count(c.args);
  }
  return {
    ...metricValue(2 * matched, nPredicted + nExpected),
    details: {
      precision: metricValue(matched, nPredicted),
      recall: metricValue(matched, nExpected),
      invalidCallRate: metricValue(invalidCalls, nPredicted),
      invalidCalls,
      argumentPairPrecision: metricValue(overlap, predictedPairs),
      argumentPairRecall: metricValue(overlap, expectedPairs),
      tieBreakFallbacks,
    },
  };
}

function isError(x: unknown): boolean {
  return x instanceof Error || Object.prototype.toString.call(x) === "[object Error]";
}

function httpSuccess(code: unknown, at: number): boolean {
  if (typeof code !== "number" || !Number.isInteger(code) || code < 100 || code > 599) {
    throw new RangeError(`Result ${at} is not an HTTP status code (100-599): ${named(code)}`);
  }
  return code < 400;
}

/**
 * API-call success rate: the share of calls that completed successfully. A result is a
 * status flag (`true`/`false`), an HTTP status code (success below 400), a recorded
 * exception (an `Error`, or `{error}`/`{exception}` with a value other than null/undefined:
 * failure), or `{ok: boolean}` / `{status: number}`, checked in that order.
 *
 * @param results One outcome per call.
 * @returns Successful calls over calls, with counts by kind in `details`.
 * @throws {TypeError} If `results` is not an array or a result has none of these forms.
 * @throws {RangeError} If a status code is not an integer from 100 to 599.
 *
 * @example The reference's example
 * ```ts
 * import { apiCallSuccessRate } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(apiCallSuccessRate([200, 500, true]), {
 *   value: 2 / 3,
 *   numerator: 2,
 *   denominator: 3,
 *   details: { flags: 1, httpStatuses: 2, exceptions: 0 },
 * });
 * ```
 */
export function apiCallSuccessRate(results: readonly ApiCallResult[]): ApiCallSuccessResult {
  if (!Array.isArray(results)) throw new TypeError("Results must be an array");
  const details: ApiCallSuccessDetails = { flags: 0, httpStatuses: 0, exceptions: 0 };
  let ok = 0;
  for (let i = 0; i < results.length; i++) {
    const r: unknown = results[i];
    if (typeof r === "boolean") {
      details.flags++;
      if (r) ok++;
    } else if (typeof r === "number") {
      details.httpStatuses++;
      if (httpSuccess(r, i)) ok++;
    } else if (typeof r === "object" && r !== null && !Array.isArray(r)) {
      const o = r as { ok?: unknown; status?: unknown; error?: unknown; exception?: unknown };
      if (isError(r) || o.error != null || o.exception != null) {
        details.exceptions++;
      } else if (o.ok !== undefined) {
        if (typeof o.ok !== "boolean") throw new TypeError(`Result ${i} has a non-boolean ok`);
        details.flags++;
        if (o.ok) ok++;
      } else if (o.status !== undefined) {
        details.httpStatuses++;
        if (httpSuccess(o.status, i)) ok++;
      } else {
        throw new TypeError(`Result ${i} has no ok, status, error or exception field`);
      }
    } else {
      throw new TypeError(`Result ${i} is not a flag, status code or exception: ${named(r)}`);
    }
  }
  return { ...metricValue(ok, results.length), details };
}
