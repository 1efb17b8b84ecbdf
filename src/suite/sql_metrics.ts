/**
 * The deterministic trace metrics that read the agent's SQL: `schema_membership` and
 * `expected_view_recall`. SQL references are extracted with a real SQL parser
 * (node-sql-parser) and resolved through aliases, CTEs and subqueries; see
 * `docs/trace_metrics.md` for the exact rules and the best-effort cases.
 *
 * @module
 */
import type { CriterionScore, RunContext, SchemaCatalog, Trace } from "./types.ts";
import {
  analyzeSql,
  type CatalogIndex,
  indexCatalog,
  lexSql,
  type NamePart,
  SQL_DIALECTS,
  suffixMatch,
} from "./sql/mod.ts";
import type { MetricParams } from "./_metric_args.ts";
import { isRec, listed, paramError, readParams, readRun, skip } from "./_metric_args.ts";
import { readServerCalls, traceCalls } from "./_tool_calls.ts";

function dialectOf(metric: string, p: Record<string, unknown>): string {
  const d = p.dialect ?? "postgresql";
  if (typeof d !== "string" || !SQL_DIALECTS.includes(d)) {
    throw paramError(
      new RangeError(
        `Unknown dialect "${String(d)}" for ${metric}: expected ${SQL_DIALECTS.join(", ")}`,
      ),
      "dialect",
      d,
      SQL_DIALECTS,
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
 * of those tools, its calls read in every shape `trajectory_match` reads). Extra views are not
 * penalised. Applicable when `expected_views` is a non-empty list.
 *
 * @param run The run: `golden` (The golden; its `expected_views` is read), `trace` (The run; its `sql` (and, with `view_tools`, `tool_calls`) is read),
 *   `catalog` (The schema catalog (validated; not needed for matching)).
 * @param params `{dialect, view_tools, server_calls}`: the SQL dialect (default `postgresql`), the
 *   names of tools whose string arguments name views (default none), and what a call run by a
 *   server is to them (`refuse`, the default, `read`: an MCP tool as `mcp__<server_name>__<name>`,
 *   or `skip`).
 * @returns Touched expected views over expected views, with the touched and missing names.
 * @throws {TypeError} If `expected_views`, `trace.sql`, the catalog or (with `view_tools`)
 *   `trace.tool_calls` has the wrong shape.
 * @throws {RunInputError} Of the trace, with `view_tools`, if a call cannot be read.
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
  const server = readServerCalls(p.server_calls);
  const tools = p.view_tools ?? [];
  if (!Array.isArray(tools) || !tools.every((t) => typeof t === "string")) {
    throw paramError(
      new RangeError("The view_tools param of expected_view_recall must be a list of names"),
      "view_tools",
    );
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
  if (tools.length > 0) {
    for (const c of traceCalls(trace, server)) {
      if (tools.includes(c.name)) { for (const s of toolStrings(c.args)) named.push(unquoted(s)); }
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
