// A goldens or traces line's key that is a field misspelt: the schemas let any other key through
// (a line's own metadata), so a misspelt optional field would pass and its metric would treat the
// row as having none. A key is refused only when it is close to a field the line does not give:
// the same name once case, `_` and `-` are dropped (`expectedViews`, `Reference-Values`), or, for
// names of 8 characters or more so dropped, one edit away (two from 12 characters on).
import { closestName } from "./suite.ts";

/** A name without case, `_` and `-`: `expected_views`, `expectedViews` and `Expected-Views` agree. */
function folded(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, "");
}

/** The edits a key may be from the field `f` (folded), or -1 when `f` is too short for any. */
function editsAllowed(f: string): number {
  return f.length >= 12 ? 2 : f.length >= 8 ? 1 : -1;
}

/**
 * Whether `a` is at most `n` edits (n ≤ 2) from `b`, measured by the suite's suggestion function
 * (one edit distance in the code base): `a` followed by n + 1 NULs is exactly n + 1 edits from
 * `a`, and listed first it wins a tie, so `b` is the answer only when it is at most n edits away;
 * the function's own limit (at least 2 edits) never decides, and it reads 64 characters of `a`.
 */
function withinEdits(a: string, b: string, n: number): boolean {
  if (Math.abs(a.length - b.length) > n || a.length > 64) return false;
  return closestName(a, [a + "\u0000".repeat(n + 1), b]) === b;
}

/**
 * The field of `fields` that `key` (not one of them) misspells, among those `line` does not give,
 * else undefined: a case, `_` or `-` variant first, then one within its edits. A key of fewer
 * than 8 characters (folded) is only ever a variant.
 */
export function misspeltField(
  key: string,
  line: Record<string, unknown>,
  fields: readonly string[],
): string | undefined {
  const k = folded(key);
  const missing = fields.filter((f) => !Object.hasOwn(line, f));
  return missing.find((f) => folded(f) === k) ??
    (k.length < 8 ? undefined : missing.find((f) => {
      const n = editsAllowed(folded(f));
      return n > 0 && withinEdits(k, folded(f), n);
    }));
}
