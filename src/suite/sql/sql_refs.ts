// SQL reference extraction for the trace metrics (docs/trace_metrics.md, "SQL references").
//
// A small lexer splits SQL text into statements and records which identifiers were written
// quoted (node-sql-parser keeps the quote marks of columns but drops those of tables). Each
// statement is parsed with node-sql-parser, within limits on size, nesting and failed parses;
// its AST is walked in _walk.ts.
import pkg from "node-sql-parser";
import type { CatalogIndex, NamePart } from "./_catalog.ts";
import { lexSql } from "./_lex.ts";
import { isRec, Walker } from "./_walk.ts";

export { type CatalogIndex, indexCatalog, type NamePart, suffixMatch } from "./_catalog.ts";
export { lexSql, type StatementRange } from "./_lex.ts";

/** The dialects node-sql-parser 5.3 knows. */
export const SQL_DIALECTS: readonly string[] = (
  "athena bigquery db2 flinksql hive mariadb mysql noql postgresql redshift snowflake sqlite " +
  "transactsql trino"
).split(" ");

/** Longest statement that is parsed; longer ones are unparseable. */
export const MAX_STATEMENT_CHARS = 100_000;
/** Most statements parsed per trace; the rest are unparseable. */
export const MAX_STATEMENTS = 1_000;
/** Most characters parsed per trace; the statements past it are unparseable. */
export const MAX_PARSE_CHARS = 1_000_000;
/**
 * Deepest bracket nesting that is parsed. node-sql-parser backtracks exponentially on a syntax
 * error inside nested brackets (`SELECT (SELECT (SELECT … 1 +)))`: 1 s at depth 5, 5 s at 6,
 * out of memory at 8), so deeper statements are unparseable without being parsed.
 */
export const MAX_NESTING = 5;
/**
 * Failed parses cost `4 ** depth`; once this much is spent (the verdict is already 0.0), the
 * remaining statements are not parsed.
 */
export const FAILED_PARSE_BUDGET = 2 * 4 ** MAX_NESTING;
/** Unparseable statements kept with their errors; the count is always complete. */
const MAX_ERRORS = 50;

/** A statement that could not be analysed. */
export interface Unparseable {
  /** Index of the entry in `trace.sql`. */
  sql: number;
  /** Index of the statement inside that entry (split at top-level semicolons). */
  statement: number;
  /** The parser's message, cut short. */
  error: string;
}

/** Everything found in a trace's SQL. */
export interface SqlAnalysis {
  /** Non-blank statements. */
  statements: number;
  /** How many statements were unparseable. */
  unparseable: number;
  /** The first of them, with their errors. */
  errors: Unparseable[];
  /** Base-table references (CTEs excluded), by normalised name; `true` when in the catalog. */
  tables: Map<string, boolean>;
  /** The same references as name parts (for matching expected views). */
  tableNames: NamePart[][];
  /** Checked column references (`view.column`), `true` when the column exists. */
  columns: Map<string, boolean>;
  /** Column references into CTEs, derived tables, table functions or unknown tables. */
  unchecked: number;
}

let parser: InstanceType<typeof pkg.Parser> | undefined;

function describe(e: unknown): string {
  let msg = e instanceof Error ? e.message : String(e);
  const found = / but (.{1,80}) found\.$/.exec(msg); // drop the long list of expected tokens
  if (found) msg = `Syntax error: unexpected ${found[1]}`;
  const loc = isRec(e) && isRec(e.location) && isRec(e.location.start) ? e.location.start : null;
  const at = loc ? ` (line ${loc.line}, column ${loc.column})` : "";
  return (msg.length > 160 ? `${msg.slice(0, 160)}…` : msg) + at;
}

/** Parses every statement of every SQL entry and resolves its references against the catalog. */
export function analyzeSql(
  sql: readonly string[],
  index: CatalogIndex,
  dialect: string,
): SqlAnalysis {
  const out: SqlAnalysis = {
    statements: 0,
    unparseable: 0,
    errors: [],
    tables: new Map(),
    tableNames: [],
    columns: new Map(),
    unchecked: 0,
  };
  parser ??= new pkg.Parser();
  let parsed = 0, chars = 0, failedCost = 0;
  sql.forEach((text, s) => {
    let statement = 0;
    lexSql(text, dialect, false, (r) => {
      if (r.blank) return;
      out.statements++;
      const k = statement++;
      const fail = (error: string) => {
        if (out.unparseable++ < MAX_ERRORS) out.errors.push({ sql: s, statement: k, error });
      };
      const length = r.end - r.start;
      if (parsed >= MAX_STATEMENTS) {
        return fail(`Not parsed: over the limit of ${MAX_STATEMENTS} statements per trace`);
      }
      if (length > MAX_STATEMENT_CHARS) {
        return fail(`Not parsed: longer than ${MAX_STATEMENT_CHARS} characters`);
      }
      if (!r.balanced) return fail("Syntax error: unbalanced brackets");
      if (r.depth > MAX_NESTING) {
        return fail(`Not parsed: brackets nested deeper than ${MAX_NESTING} levels`);
      }
      if (failedCost >= FAILED_PARSE_BUDGET) {
        return fail("Not parsed: earlier statements used up the budget for failed parses");
      }
      if (chars + length > MAX_PARSE_CHARS) {
        return fail(`Not parsed: over the limit of ${MAX_PARSE_CHARS} characters per trace`);
      }
      parsed++;
      chars += length;
      const stmt = text.slice(r.start, r.end);
      let ast: unknown;
      try {
        ast = parser!.astify(stmt, { database: dialect });
      } catch (e) {
        failedCost += 4 ** r.depth;
        return fail(describe(e));
      }
      const walker = new Walker(index, lexSql(stmt, dialect, true), out);
      for (const node of Array.isArray(ast) ? ast : [ast]) if (isRec(node)) walker.run(node);
      out.unchecked += walker.unchecked;
    });
  });
  return out;
}
