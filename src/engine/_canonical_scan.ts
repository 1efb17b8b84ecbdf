// Reading canonical JSON text in place (an engine's own output: ASCII, no whitespace, keys
// sorted and unique, depth <= 512): where a string, a scalar or any value ends, and the members
// of an object or the items of an array. The one place that skips a string (a backslash takes
// the next code unit with it) and counts brackets outside strings. The text is trusted: these
// read it without checking it, but never run past its end.

/**
 * The index just past the string literal whose opening quote is at `i`: the first quote after it
 * that an even number of backslashes precedes (a backslash takes the next code unit with it, so a
 * run of them escapes a quote when it is odd). Found with `indexOf`, which skips a long string far
 * faster than a loop over its code units.
 */
export function stringEnd(t: string, i: number): number {
  for (let p = i + 1;;) {
    const q = t.indexOf('"', p);
    if (q < 0) return t.length;
    let b = q - 1;
    while (b > i && t.charCodeAt(b) === 0x5c) b--;
    if (((q - 1 - b) & 1) === 0) return q + 1;
    p = q + 1;
  }
}

/** The index just past the number or literal (`true`, `null`, `NaN`, ...) starting at `i`. */
export function scalarEnd(t: string, i: number): number {
  const n = t.length;
  let p = i;
  while (p < n) {
    const c = t.charCodeAt(p);
    if (c === 0x2c || c === 0x5d || c === 0x7d) break;
    p++;
  }
  return p;
}

/** The index just past the value starting at `i`. */
export function valueEnd(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === 0x22) return stringEnd(t, i);
  if (c !== 0x7b && c !== 0x5b) return scalarEnd(t, i);
  const n = t.length;
  let depth = 0;
  let p = i;
  while (p < n) {
    const d = t.charCodeAt(p);
    if (d === 0x22) {
      p = stringEnd(t, p);
      continue;
    }
    if (d === 0x7b || d === 0x5b) depth++;
    else if ((d === 0x7d || d === 0x5d) && --depth === 0) return p + 1;
    p++;
  }
  return n;
}

/**
 * Visits the members of the object whose `{` is at `i`, in order, as `visit(keyStart,
 * valueStart, valueEnd)`: the key is the string literal `t.slice(keyStart, valueStart - 1)`, the
 * value `t.slice(valueStart, valueEnd)`. Stops after a member for which `visit` returns true.
 */
export function forEachMember(
  t: string,
  i: number,
  visit: (keyStart: number, valueStart: number, valueEnd: number) => boolean | void,
): void {
  let p = i + 1;
  if (t.charCodeAt(p) === 0x7d) return;
  while (p < t.length) {
    const start = stringEnd(t, p) + 1;
    const end = valueEnd(t, start);
    if (visit(p, start, end) === true || t.charCodeAt(end) !== 0x2c) return;
    p = end + 1;
  }
}

/**
 * Visits the items of the array whose `[` is at `i` in canonical JSON text (an engine's own
 * output, which it trusts), in order, as `visit(start, end)`: each item's text is
 * `t.slice(start, end)`. Stops after an item for which `visit` returns true. One pass reads every
 * item, where {@linkcode lookupCanonical} without a shared index reads the array for each index.
 *
 * @param t Canonical JSON text.
 * @param i The offset of the array's `[`.
 * @param visit Called with each item's start and end offsets.
 *
 * @example
 * ```ts
 * import { forEachItem } from "@assay/assay/engine";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const text = '[1.0,{"a":[2]},"x"]';
 * const items: string[] = [];
 * forEachItem(text, 0, (start, end) => void items.push(text.slice(start, end)));
 * deepStrictEqual(items, ["1.0", '{"a":[2]}', '"x"']);
 * ```
 */
export function forEachItem(
  t: string,
  i: number,
  visit: (start: number, end: number) => boolean | void,
): void {
  let p = i + 1;
  if (t.charCodeAt(p) === 0x5d) return;
  while (p < t.length) {
    const end = valueEnd(t, p);
    if (visit(p, end) === true || t.charCodeAt(end) !== 0x2c) return;
    p = end + 1;
  }
}
