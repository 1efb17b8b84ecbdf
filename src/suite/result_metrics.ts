/**
 * The deterministic trace metric that reads the final query's rows: `reference_value_match`.
 *
 * @module
 */
import type { CriterionScore, RunContext } from "./types.ts";
import type { MetricParams } from "./_metric_args.ts";
import { isRec, listed, paramError, readParams, readRun, skip } from "./_metric_args.ts";

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function asNumber(v: unknown): number | null {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "string" && v.length <= 400 && NUMERIC.test(v)) return Number(v);
  return null;
}

function tolerance(p: Record<string, unknown>, key: string, fallback: number): number {
  const v = p[key] ?? fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
    throw paramError(
      new RangeError(`The ${key} param of reference_value_match must be a finite number >= 0`),
      key,
    );
  }
  return v;
}

/**
 * `reference_value_match`: the share of `golden.reference_values` entries found in the final
 * query's rows. An entry `column: value` matches when some row has exactly that column with an
 * equal value: numbers within `|a − b| ≤ abs_tol + rel_tol·|b|` (numeric strings and bigints
 * in rows count as numbers), strings, booleans and null exactly. No final rows score 0.
 * Applicable when `reference_values` has at least one entry.
 *
 * @param run The run: `golden` (The golden; its `reference_values` is read), `trace` (The run; its `final_rows` is read),
 *   `catalog` (The schema catalog (unused)).
 * @param params `{abs_tol, rel_tol}`: defaults 1e-9 and 1e-6.
 * @returns Matched entries over entries, with a result per entry.
 * @throws {TypeError} If `reference_values` or `final_rows` has the wrong shape.
 * @throws {RangeError} If a param is unknown or not a finite number ≥ 0.
 *
 * @example A numeric string within tolerance, and a wrong region
 * ```ts
 * import { referenceValueMatch } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const golden = { id: "q1", question: "?", reference_values: { revenue: 1234.5, region: "EU" } };
 * const trace = {
 *   golden_id: "q1", arm: "base", repeat: 0, tool_calls: [], sql: [],
 *   final_answer: null, submitted: true, hit_turn_limit: false,
 *   final_rows: [{ region: "US", revenue: "1234.50" }],
 * };
 * assertEquals(referenceValueMatch({ golden, trace, catalog: { views: [] } }).score, 0.5);
 * ```
 */
export function referenceValueMatch(run: RunContext, params?: MetricParams): CriterionScore {
  const { golden, trace, catalog } = readRun(run);
  void catalog;
  const p = readParams("reference_value_match", params);
  const absTol = tolerance(p, "abs_tol", 1e-9), relTol = tolerance(p, "rel_tol", 1e-6);
  const ref = isRec(golden) ? golden.reference_values : undefined;
  if (ref !== undefined && ref !== null && !isRec(ref)) {
    throw new TypeError("The golden's reference_values must be an object");
  }
  const rows = isRec(trace) ? trace.final_rows : undefined;
  if (rows !== null && !Array.isArray(rows)) {
    throw new TypeError("The trace's final_rows must be a list of rows or null");
  }
  if (!ref || Object.keys(ref).length === 0) return skip("The golden has no reference_values");
  const entries = Object.keys(ref).map((column) => {
    const expected = ref[column] as unknown;
    const want = typeof expected === "number" ? expected : null;
    let present = false, matched = false;
    for (const row of rows ?? []) {
      if (!isRec(row) || !Object.hasOwn(row, column)) continue;
      present = true;
      const actual = row[column];
      if (want === null) matched = Object.is(actual, expected);
      else {
        const got = asNumber(actual);
        matched = got !== null &&
          (Number.isFinite(want) && Number.isFinite(got)
            ? Math.abs(got - want) <= absTol + relTol * Math.abs(want)
            : got === want);
      }
      if (matched) break;
    }
    return { column, expected, matched, column_present: present };
  });
  const matched = entries.filter((e) => e.matched).length;
  const noRows = rows === null || rows.length === 0;
  return {
    applicable: true,
    score: noRows ? 0 : matched / entries.length,
    details: {
      matched,
      total: entries.length,
      rows: rows?.length ?? 0,
      abs_tol: absTol,
      rel_tol: relTol,
      entries: listed(entries),
      ...(noRows ? { reason: "The trace has no final rows" } : {}),
    },
  };
}
