/**
 * The deterministic agent-trace metrics of a metric suite: `schema_membership`,
 * `expected_view_recall`, `reference_value_match`, `step_efficiency` and `hit_limit`.
 *
 * Each metric is a pure function `(golden, trace, catalog, params?) => CriterionScore`; the
 * registry {@linkcode DETERMINISTIC_METRICS} maps a suite's `type:` to it. SQL references are
 * extracted with a real SQL parser (node-sql-parser) and resolved through aliases, CTEs and
 * subqueries; see `docs/trace_metrics.md` for the exact rules and the best-effort cases.
 *
 * @module
 */
import { canonicalizeBatch, canonicalValue } from "../engine/mod.ts";
import type { CriterionScore, RunContext, SchemaCatalog, Trace } from "./types.ts";
export type {
  CatalogView,
  CriterionScore,
  Golden,
  RunContext,
  SchemaCatalog,
  Trace,
  TraceToolCall,
} from "./types.ts";
import {
  analyzeSql,
  type CatalogIndex,
  indexCatalog,
  lexSql,
  type NamePart,
  SQL_DIALECTS,
  suffixMatch,
} from "./sql/mod.ts";

/** A metric's `params` from the suite file. */
export type MetricParams = { readonly [key: string]: unknown };

/** A deterministic metric: scores one run from its golden, trace and the schema catalog. */
export type DeterministicMetric = (run: RunContext, params?: MetricParams) => CriterionScore;

function readRun(run: RunContext): RunContext {
  if (typeof run !== "object" || run === null) {
    throw new TypeError("Expected a run: {golden, trace, catalog}");
  }
  return run;
}

/** The deterministic metric types, in the reference's order. */
export const DETERMINISTIC_METRIC_NAMES = [
  "schema_membership",
  "expected_view_recall",
  "reference_value_match",
  "step_efficiency",
  "hit_limit",
] as const;

/** One deterministic metric type. */
export type DeterministicMetricName = (typeof DETERMINISTIC_METRIC_NAMES)[number];

/** The longest list of names or errors kept in `details`; the counts are always complete. */
const MAX_LISTED = 50;

const isRec = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const listed = <T>(xs: readonly T[]): T[] => xs.slice(0, MAX_LISTED);
const skip = (reason: string): CriterionScore => ({
  applicable: false,
  score: null,
  details: { reason },
});

/** The params each deterministic metric accepts; any other key is a `RangeError`. */
export const DETERMINISTIC_METRIC_PARAMS: Readonly<
  Record<DeterministicMetricName, readonly string[]>
> = Object.freeze({
  schema_membership: ["dialect"],
  expected_view_recall: ["dialect", "view_tools"],
  reference_value_match: ["abs_tol", "rel_tol"],
  step_efficiency: [],
  hit_limit: [],
});

function readParams(metric: DeterministicMetricName, params: unknown) {
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

function dialectOf(metric: string, p: Record<string, unknown>): string {
  const d = p.dialect ?? "postgresql";
  if (typeof d !== "string" || !SQL_DIALECTS.includes(d)) {
    throw new RangeError(
      `Unknown dialect "${String(d)}" for ${metric}: expected ${SQL_DIALECTS.join(", ")}`,
    );
  }
  return d;
}

function sqlOf(trace: Trace): readonly string[] {
  const sql = isRec(trace) ? trace.sql : undefined;
  if (!Array.isArray(sql) || !sql.every((s) => typeof s === "string")) {
    throw new TypeError("The trace's sql must be an array of strings");
  }
  return sql;
}

function catalogIndex(catalog: SchemaCatalog): CatalogIndex {
  const views = isRec(catalog) ? catalog.views : undefined;
  const ok = Array.isArray(views) &&
    views.every((v) =>
      isRec(v) && typeof v.name === "string" && Array.isArray(v.columns) &&
      v.columns.every((c) => typeof c === "string")
    );
  if (!ok) {
    throw new TypeError("The catalog's views must be objects with a name and a list of columns");
  }
  return indexCatalog(views);
}

function hasStatements(sql: readonly string[], dialect: string): boolean {
  let found = false;
  for (const text of sql) {
    lexSql(text, dialect, false, (r) => !(found = !r.blank));
    if (found) return true;
  }
  return false;
}

/**
 * `schema_membership`: every table and (best-effort) `table.column` referenced in the agent's
 * SQL exists in the schema catalog. All-or-nothing: 1.0 when every statement parses and every
 * reference exists, else 0.0. Applicable when the trace has at least one non-blank statement.
 *
 * @param run The run: `golden` (The golden (unused)), `trace` (The run; its `sql` is read),
 *   `catalog` (The semantic layer's views and columns).
 * @param params `{dialect}`: a node-sql-parser dialect, default `postgresql`.
 * @returns The score, with counts of statements, tables and columns and the unknown names.
 * @throws {TypeError} If `trace.sql` or the catalog has the wrong shape.
 * @throws {RangeError} If a param is unknown or the dialect is not supported.
 *
 * @example An alias, a CTE and an unknown column
 * ```ts
 * import { schemaMembership } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const catalog = { views: [{ name: "orders", columns: ["id", "total"] }] };
 * const trace = {
 *   golden_id: "q1", arm: "base", repeat: 0, tool_calls: [], final_rows: null,
 *   final_answer: null, submitted: true, hit_turn_limit: false,
 *   sql: ["WITH big AS (SELECT o.id FROM orders o WHERE o.totl > 100) SELECT id FROM big"],
 * };
 * const r = schemaMembership({ golden: { id: "q1", question: "?" }, trace, catalog });
 * assertEquals(r.score, 0);
 * assertEquals(r.details?.unknown_columns, ["orders.totl"]);
 * ```
 */
export function schemaMembership(run: RunContext, params?: MetricParams): CriterionScore {
  const { golden, trace, catalog } = readRun(run);
  void golden;
  const p = readParams("schema_membership", params);
  const dialect = dialectOf("schema_membership", p);
  const sql = sqlOf(trace);
  const index = catalogIndex(catalog);
  if (!hasStatements(sql, dialect)) return skip("The trace contains no SQL");
  const a = analyzeSql(sql, index, dialect);
  const unknownTables = [...a.tables].filter(([, ok]) => !ok).map(([k]) => k).sort();
  const unknownColumns = [...a.columns].filter(([, ok]) => !ok).map(([k]) => k).sort();
  const pass = a.unparseable === 0 && unknownTables.length === 0 &&
    unknownColumns.length === 0;
  return {
    applicable: true,
    score: pass ? 1 : 0,
    details: {
      dialect,
      statements: a.statements,
      unparseable: a.unparseable,
      errors: listed(a.errors),
      tables: a.tables.size,
      columns: a.columns.size,
      unknown_tables: listed(unknownTables),
      unknown_columns: listed(unknownColumns),
      unchecked_columns: a.unchecked,
    },
  };
}

const unquoted = (name: string): NamePart[] =>
  name.split(".").map((text) => ({ text, quoted: false }));

function toolStrings(args: unknown): string[] {
  let v = args;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return [];
    }
  }
  const out: string[] = [];
  if (typeof v === "string") out.push(v);
  else if (isRec(v)) {
    for (const x of Object.values(v)) {
      if (typeof x === "string") out.push(x);
      else if (Array.isArray(x)) { for (const y of x) if (typeof y === "string") out.push(y); }
    }
  }
  return out;
}

/**
 * `expected_view_recall`: the share of `golden.expected_views` the agent touched, i.e.
 * referenced as a table in its SQL (or, with `view_tools`, named in a string argument of one
 * of those tools). Extra views are not penalised. Applicable when `expected_views` is a
 * non-empty list.
 *
 * @param run The run: `golden` (The golden; its `expected_views` is read), `trace` (The run; its `sql` (and, with `view_tools`, `tool_calls`) is read),
 *   `catalog` (The schema catalog (validated; not needed for matching)).
 * @param params `{dialect, view_tools}`: the SQL dialect (default `postgresql`) and the names
 *   of tools whose string arguments name views (default none).
 * @returns Touched expected views over expected views, with the touched and missing names.
 * @throws {TypeError} If `expected_views`, `trace.sql` or the catalog has the wrong shape.
 * @throws {RangeError} If a param is unknown or invalid.
 *
 * @example Half of the expected views
 * ```ts
 * import { expectedViewRecall } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const trace = {
 *   golden_id: "q1", arm: "base", repeat: 0, tool_calls: [], final_rows: null,
 *   final_answer: null, submitted: true, hit_turn_limit: false,
 *   sql: ["SELECT * FROM analytics.orders JOIN regions USING (region_id)"],
 * };
 * const golden = { id: "q1", question: "?", expected_views: ["orders", "customers"] };
 * const r = expectedViewRecall({ golden, trace, catalog: { views: [] } });
 * assertEquals([r.score, r.details?.missing], [0.5, ["customers"]]);
 * ```
 */
export function expectedViewRecall(run: RunContext, params?: MetricParams): CriterionScore {
  const { golden, trace, catalog } = readRun(run);
  const p = readParams("expected_view_recall", params);
  const dialect = dialectOf("expected_view_recall", p);
  const tools = p.view_tools ?? [];
  if (!Array.isArray(tools) || !tools.every((t) => typeof t === "string")) {
    throw new RangeError("The view_tools param of expected_view_recall must be a list of names");
  }
  const expected = isRec(golden) ? golden.expected_views : undefined;
  if (expected !== undefined && expected !== null) {
    if (!Array.isArray(expected) || !expected.every((v) => typeof v === "string")) {
      throw new TypeError("The golden's expected_views must be a list of strings");
    }
  }
  const sql = sqlOf(trace);
  const index = catalogIndex(catalog);
  if (!expected || expected.length === 0) return skip("The golden has no expected_views");
  const wanted = [...new Set(expected)];
  const a = analyzeSql(sql, index, dialect);
  const named: NamePart[][] = [];
  if (tools.length > 0 && Array.isArray(trace.tool_calls)) {
    for (const c of trace.tool_calls) {
      if (isRec(c) && tools.includes(c.name as string)) {
        for (const s of toolStrings(c.arguments)) named.push(unquoted(s));
      }
    }
  }
  const touched: string[] = [], missing: string[] = [];
  for (const v of wanted) {
    const parts = v.split(".");
    const hit = a.tableNames.some((r) => suffixMatch(r, parts)) ||
      named.some((r) => suffixMatch(r, parts));
    (hit ? touched : missing).push(v);
  }
  return {
    applicable: true,
    score: touched.length / wanted.length,
    details: {
      expected: wanted.length,
      touched: listed(touched),
      missing: listed(missing),
      unparseable: a.unparseable,
    },
  };
}

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
    throw new RangeError(`The ${key} param of reference_value_match must be a finite number >= 0`);
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

/**
 * The registry of deterministic metrics, by suite `type:` name.
 *
 * @example Look a metric up by name
 * ```ts
 * import { DETERMINISTIC_METRICS, DETERMINISTIC_METRIC_NAMES } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(Object.keys(DETERMINISTIC_METRICS), [...DETERMINISTIC_METRIC_NAMES]);
 * const trace = {
 *   golden_id: "q1", arm: "base", repeat: 0, tool_calls: [], sql: [], final_rows: null,
 *   final_answer: "42", submitted: true, hit_turn_limit: false,
 * };
 * const golden = { id: "q1", question: "?" };
 * assertEquals(DETERMINISTIC_METRICS.hit_limit({ golden, trace, catalog: { views: [] } }).score, 1);
 * ```
 */
export const DETERMINISTIC_METRICS: Readonly<Record<DeterministicMetricName, DeterministicMetric>> =
  Object.freeze({
    schema_membership: schemaMembership,
    expected_view_recall: expectedViewRecall,
    reference_value_match: referenceValueMatch,
    step_efficiency: stepEfficiency,
    hit_limit: hitLimit,
  });
