// JSON helpers for make_demo.ts: a writer that keeps float literals (150.0 stays 150.0) and can
// imitate sloppy models, a canonical form for comparisons, and small path-based edits.
import { F, type Json, type Obj } from "./_tools.ts";

export interface Style {
  compact?: boolean; // "," and ":" instead of ", " and ": "
  ascii?: boolean; // \uXXXX escapes, like Python's json.dumps default
  indent?: number;
  sort?: boolean;
  py?: boolean; // Python repr: 'single quotes', True, None
  pyLiterals?: boolean; // JSON, but True/False/None
}
export function dump(v: Json, s: Style = {}, depth = 0): string {
  if (v instanceof F) return Number.isInteger(v.v) ? v.v.toFixed(1) : String(v.v);
  if (v === null) return s.py || s.pyLiterals ? "None" : "null";
  if (typeof v === "boolean") return s.py || s.pyLiterals ? (v ? "True" : "False") : String(v);
  if (typeof v === "number") return String(v);
  if (typeof v === "string") {
    if (s.py) return `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
    const j = JSON.stringify(v);
    return s.ascii
      ? j.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
      : j;
  }
  const entries: [string | null, Json][] = Array.isArray(v)
    ? v.map((x) => [null, x])
    : Object.entries(v);
  if (s.sort) entries.sort(([a], [b]) => (a! < b! ? -1 : 1)); // keys here are ASCII
  const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
  if (!entries.length) return open + close;
  const items = entries.map(([k, x]) =>
    (k === null ? "" : dump(k, s) + (s.compact ? ":" : ": ")) + dump(x, s, depth + 1)
  );
  if (!s.indent) return open + items.join(s.compact ? "," : ", ") + close;
  const pad = (d: number) => "\n" + " ".repeat(s.indent! * d);
  return open + pad(depth + 1) + items.join("," + pad(depth + 1)) + pad(depth) + close;
}
/** Python's json.dumps(v, sort_keys=True, separators=(",", ":")): equal iff Assay says equal. */
export const canon = (v: Json): string => dump(v, { compact: true, ascii: true, sort: true });

export type Path = (string | number)[];
/** Every scalar leaf with its path. */
export function leaves(v: Json, p: Path = [], out: [Path, Json][] = []): [Path, Json][] {
  if (Array.isArray(v)) v.forEach((x, i) => leaves(x, [...p, i], out));
  else if (v && typeof v === "object" && !(v instanceof F)) {
    for (const [k, x] of Object.entries(v)) leaves(x, [...p, k], out);
  } else out.push([p, v]);
  return out;
}
export function clone<T extends Json>(v: T): T {
  if (Array.isArray(v)) return v.map(clone) as T;
  if (v && typeof v === "object" && !(v instanceof F)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)])) as T;
  }
  return v;
}
type Box = { [k: string]: Json };
export const getAt = (v: Json | undefined, p: Path): Json | undefined =>
  p.reduce<Json | undefined>((o, k) => (o && typeof o === "object" ? (o as Box)[k] : undefined), v);
/** A copy of `a` with the value at `p` replaced. */
export function put(a: Obj, p: Path, x: Json): Obj {
  const b = clone(a), parent = getAt(b, p.slice(0, -1)) as Box;
  parent[p[p.length - 1]!] = x;
  return b;
}
