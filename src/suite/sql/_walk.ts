// The AST walk of SQL reference extraction: node-sql-parser's AST is walked with explicit stacks
// (never recursion) and every table and column reference is resolved through its scope: aliases,
// CTEs (with RECURSIVE), derived tables, correlated subqueries and set operations.
import {
  type CatalogIndex,
  findViews,
  type IndexedView,
  lower,
  type NamePart,
  normalName,
} from "./_catalog.ts";
import type { Lexed } from "./_lex.ts";
import type { SqlAnalysis } from "./sql_refs.ts";

type Rec = { [key: string]: unknown };

/** Whether `v` is a plain record (not null, not an array). */
export const isRec = (v: unknown): v is Rec =>
  typeof v === "object" && v !== null && !Array.isArray(v);

interface Binding {
  name: string;
  table?: string;
  views?: IndexedView[];
}
interface Scope {
  parent: Scope | null;
  bindings: Binding[];
  aliases: Set<string>;
}
interface CteEnv {
  names: Set<string>;
  parent: CteEnv | null;
}
interface Job {
  node: Rec;
  parent: Scope | null;
  ctes: CteEnv | null;
  aliases?: Set<string>;
}

const STATEMENTS = new Set(["select", "insert", "replace", "update", "delete"]);
const SKIP = new Set(["with", "from", "table", "_next", "tableList", "columnList", "loc", "as"]);
const REF_KEYS = new Set(["table", "column", "db", "schema", "loc", "collate"]);
// node-sql-parser 5.3 reads `a CROSS JOIN b` as `a AS "CROSS" INNER JOIN b` (knownIssues).
const JOIN_WORDS = new Set(["cross", "natural", "left", "right", "full", "inner", "outer", "join"]);
const VALUE_WORDS = new Set(
  ("user current_user session_user current_role current_catalog current_schema current_date " +
    "current_time current_timestamp localtime localtimestamp").split(" "),
);

/** Resolves every table and column reference of one statement's AST into `out`. */
export class Walker {
  unchecked = 0;
  constructor(
    readonly index: CatalogIndex,
    readonly lexed: Lexed,
    readonly out: SqlAnalysis,
  ) {}

  part(v: unknown): NamePart | null {
    if (typeof v === "string") {
      const q = this.lexed.quoted.has(v) && !this.lexed.bare.has(v);
      return { text: v, quoted: q };
    }
    if (isRec(v) && typeof v.value === "string") {
      return { text: v.value, quoted: v.type !== "default" && v.type !== undefined };
    }
    if (isRec(v) && isRec(v.expr)) return this.part(v.expr);
    return null;
  }

  tableParts(item: Rec): NamePart[] {
    const parts: NamePart[] = [];
    for (const k of ["db", "schema", "table"]) {
      const v = item[k];
      if (typeof v === "string" && v !== "") {
        for (const s of v.split(".")) parts.push(this.part(s)!);
      } else if (isRec(v)) {
        const p = this.part(v);
        if (p) parts.push(p);
      }
    }
    return parts;
  }

  lookup(parts: NamePart[]): IndexedView[] {
    const views = findViews(this.index, parts);
    const key = normalName(parts);
    this.out.tables.set(key, views.length > 0 || this.out.tables.get(key) === true);
    this.out.tableNames.push(parts);
    return views;
  }

  column(views: IndexedView[], col: NamePart): boolean {
    const v = views.find((v) => col.quoted ? v.exact.has(col.text) : v.lower.has(lower(col.text)));
    const key = `${(v ?? views[0]!).name}.${normalName([col])}`;
    this.out.columns.set(key, v !== undefined);
    return v !== undefined;
  }

  run(root: Rec): void {
    const jobs: Job[] = [{ node: root, parent: null, ctes: null }];
    while (jobs.length > 0) this.query(jobs.pop()!, jobs);
  }

  query(job: Job, jobs: Job[]): void {
    const node = job.node;
    let ctes = job.ctes;
    if (Array.isArray(node.with) && node.with.length > 0) {
      const names = node.with.map((w) => lower(this.part(isRec(w) ? w.name : null)?.text ?? ""));
      const recursive = node.with.some((w) => isRec(w) && w.recursive === true);
      const all: CteEnv = { names: new Set(names), parent: ctes };
      node.with.forEach((w, i) => {
        const body = isRec(w) ? unwrap(w.stmt) : null;
        const env = recursive ? all : { names: new Set(names.slice(0, i)), parent: ctes };
        if (body) jobs.push({ node: body, parent: job.parent, ctes: env });
      });
      ctes = all;
    }
    const scope: Scope = { parent: job.parent, bindings: [], aliases: new Set(job.aliases) };
    const exprs: unknown[] = [];
    const using: unknown[] = [];
    for (const key of ["from", "table"]) {
      const items = node[key];
      if (!Array.isArray(items)) continue;
      for (const item of items) {
        if (!isRec(item)) continue;
        const alias = cleanAlias(item.as);
        if ((typeof item.table === "string" || isRec(item.table)) && item.expr === undefined) {
          const parts = this.tableParts(item);
          const last = parts[parts.length - 1];
          if (!last) continue;
          const name = lower(last.text);
          if (parts.length === 1 && cteVisible(ctes, name)) {
            scope.bindings.push({ name: alias ?? name });
          } else {
            scope.bindings.push({ name: alias ?? name, table: name, views: this.lookup(parts) });
          }
        } else if (isRec(item.expr)) {
          const sub = unwrap(item.expr);
          // `f(x) AS e(a int)`: node-sql-parser puts the alias and its column definitions, which
          // name no column of the catalog, in the function's `as`.
          const fnAs = item.expr.type === "tablefunc" && isRec(item.expr.as) ? item.expr.as : null;
          if (sub) jobs.push({ node: sub, parent: scope, ctes });
          else exprs.push(fnAs ? { ...item.expr, as: null } : item.expr);
          const fnName = fnAs && isRec(fnAs.name) && Array.isArray(fnAs.name.name)
            ? cleanAlias(this.part(fnAs.name.name[0])?.text)
            : null;
          scope.bindings.push({ name: alias ?? fnName ?? "" });
        }
        if (isRec(item.on) && item.on.type === "expr_list" && Array.isArray(item.on.value)) {
          // `a JOIN b ON c, t`: node-sql-parser 5.3 puts `t` in the ON clause (knownIssues).
          const [cond, ...rest] = item.on.value;
          exprs.push(cond);
          for (const v of rest) {
            if (
              isRec(v) && v.type === "column_ref" && typeof this.part(v.column)?.text === "string"
            ) {
              const parts = this.tableParts({
                db: v.schema ?? v.db,
                schema: v.table,
                table: v.column,
              });
              const name = lower(parts[parts.length - 1]!.text);
              const cte = parts.length === 1 && cteVisible(ctes, name);
              scope.bindings.push(
                cte ? { name } : { name, table: name, views: this.lookup(parts) },
              );
            } else exprs.push(v);
          }
        } else if (item.on !== undefined) exprs.push(item.on);
        if (Array.isArray(item.using)) using.push(...item.using);
      }
    }
    const outputs = new Set(scope.aliases);
    if (Array.isArray(node.columns)) {
      for (const c of node.columns) {
        if (!isRec(c)) continue;
        // `x::int AS n`: node-sql-parser puts a cast's alias in the cast.
        const as = c.as ?? (isRec(c.expr) && c.expr.type === "cast" ? c.expr.as : null);
        const a = typeof as === "string" ? as : this.part(as)?.text;
        if (a) (scope.aliases.add(lower(a)), outputs.add(lower(a)));
        const e = isRec(c.expr) && c.expr.type === "column_ref" ? this.part(c.expr.column) : null;
        if (e) outputs.add(lower(e.text));
      }
    }
    if (isRec(node._next)) {
      jobs.push({ node: node._next, parent: job.parent, ctes, aliases: outputs });
    }
    for (const u of using) {
      const p = this.part(u);
      if (p) this.unqualified(p, scope, false);
    }
    for (const k of Object.keys(node)) if (!SKIP.has(k)) exprs.push(node[k]);
    this.walk(exprs, scope, ctes, jobs);
  }

  walk(stack: unknown[], scope: Scope, ctes: CteEnv | null, jobs: Job[]): void {
    while (stack.length > 0) {
      const v = stack.pop();
      if (Array.isArray(v)) {
        for (const x of v) if (typeof x === "object" && x !== null) stack.push(x);
        continue;
      }
      if (!isRec(v)) continue;
      if (typeof v.type === "string" && STATEMENTS.has(v.type)) {
        jobs.push({ node: v, parent: scope, ctes });
        continue;
      }
      if (isRec(v.ast)) {
        stack.push(v.ast);
        continue;
      }
      if (v.type === "column_ref") {
        this.ref(v, scope, ctes);
        for (const k of Object.keys(v)) if (!REF_KEYS.has(k)) stack.push(v[k]);
        continue;
      }
      for (const k of Object.keys(v)) if (k !== "tableList" && k !== "columnList") stack.push(v[k]);
    }
  }

  ref(v: Rec, scope: Scope, ctes: CteEnv | null): void {
    const star = v.column === "*";
    const col = star ? null : this.part(v.column);
    if (!star && !col) return;
    const qual = v.table === null || v.table === undefined ? null : this.part(v.table);
    if (!qual) {
      if (col) this.unqualified(col, scope, true);
      return;
    }
    const q = lower(qual.text);
    const b = findBinding(scope, q);
    if (b) {
      if (b.views && b.views.length > 0 && col) this.column(b.views, col);
      else if (col) this.unchecked++;
      return;
    }
    if (cteVisible(ctes, q)) {
      if (col) this.unchecked++;
      return;
    }
    const prefix = this.tableParts({ db: v.db, schema: v.schema });
    const views = findViews(this.index, [...prefix, qual]);
    if (views.length > 0) {
      if (col) this.column(views, col);
      return;
    }
    const key = `${normalName([...prefix, qual])}.${col ? normalName([col]) : "*"}`;
    this.out.columns.set(key, false);
  }

  unqualified(col: NamePart, scope: Scope, aliases: boolean): void {
    for (let s: Scope | null = scope, level = 0; s; s = s.parent, level++) {
      let opaque = false;
      for (const b of s.bindings) {
        if (b.views && b.views.length > 0) {
          const v = b.views.find((v) =>
            col.quoted ? v.exact.has(col.text) : v.lower.has(lower(col.text))
          );
          if (v) return void this.column([v], col);
        } else opaque = true;
      }
      if (aliases && level === 0 && s.aliases.has(lower(col.text))) return;
      if (opaque) return void this.unchecked++;
    }
    // A table's name or alias where a column goes is its whole row (`row_to_json(o)`).
    if (findBinding(scope, lower(col.text))) return;
    if (!col.quoted && VALUE_WORDS.has(lower(col.text))) return;
    this.out.columns.set(normalName([col]), false);
  }
}

function unwrap(v: unknown): Rec | null {
  if (!isRec(v)) return null;
  if (typeof v.type === "string" && STATEMENTS.has(v.type)) return v;
  return isRec(v.ast) ? unwrap(v.ast) : null;
}

function cleanAlias(as: unknown): string | null {
  const raw = typeof as === "string"
    ? as
    : isRec(as) && typeof as.value === "string"
    ? as.value
    : null;
  if (raw === null) return null;
  const paren = raw.indexOf("(");
  const name = lower((paren >= 0 ? raw.slice(0, paren) : raw).trim());
  return name === "" || JOIN_WORDS.has(name) ? null : name;
}

function cteVisible(env: CteEnv | null, name: string): boolean {
  for (let e = env; e; e = e.parent) if (e.names.has(name)) return true;
  return false;
}

function findBinding(scope: Scope, q: string): Binding | undefined {
  for (let s: Scope | null = scope; s; s = s.parent) {
    const b = s.bindings.find((b) => b.name === q) ?? s.bindings.find((b) => b.table === q);
    if (b) return b;
  }
  return undefined;
}
