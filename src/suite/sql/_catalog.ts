// Catalog names for SQL reference extraction: dotted names with their quoting, the catalog index,
// and how a reference matches a catalog view (docs/trace_metrics.md, "SQL references").
import type { CatalogView } from "../types.ts";

/** One part of a dotted name, with whether it was written quoted. */
export interface NamePart {
  text: string;
  quoted: boolean;
}

export interface IndexedView {
  name: string;
  parts: string[];
  exact: Set<string>;
  lower: Set<string>;
}

/** The catalog, indexed by the lower-cased last part of each view name. */
export type CatalogIndex = Map<string, IndexedView[]>;

export const lower = (s: string) => s.toLowerCase();

/** Indexes catalog views for name matching. */
export function indexCatalog(views: readonly CatalogView[]): CatalogIndex {
  const index: CatalogIndex = new Map();
  for (const v of views) {
    const parts = v.name.split(".");
    const key = lower(parts[parts.length - 1]!);
    const entry = {
      name: v.name,
      parts,
      exact: new Set(v.columns),
      lower: new Set(v.columns.map(lower)),
    };
    const list = index.get(key);
    if (list) list.push(entry);
    else index.set(key, [entry]);
  }
  return index;
}

const partEq = (p: NamePart, s: string) => p.quoted ? p.text === s : lower(p.text) === lower(s);

/** Whether a dotted reference and a dotted name agree on every part they share from the right. */
export function suffixMatch(ref: readonly NamePart[], name: readonly string[]): boolean {
  const k = Math.min(ref.length, name.length);
  for (let i = 1; i <= k; i++) {
    if (!partEq(ref[ref.length - i]!, name[name.length - i]!)) return false;
  }
  return k > 0;
}

export function findViews(index: CatalogIndex, parts: readonly NamePart[]): IndexedView[] {
  const last = parts[parts.length - 1];
  if (!last) return [];
  return (index.get(lower(last.text)) ?? []).filter((v) => suffixMatch(parts, v.parts));
}

/** The normalised display form: unquoted parts lower-cased, quoted parts in double quotes. */
export function normalName(parts: readonly NamePart[]): string {
  return parts.map((p) => p.quoted ? `"${p.text}"` : lower(p.text)).join(".");
}
