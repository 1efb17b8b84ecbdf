/**
 * Looking inside canonical JSON text without parsing it (an engine's own output: ASCII, no
 * whitespace, keys sorted and unique): the value at a path, and the text with its numbers in
 * value form, so that values compare exactly, or by number, as text.
 *
 * @module
 */
import { forEachItem, forEachMember, scalarEnd, stringEnd } from "./_canonical_scan.ts";

// The items of a canonical array in one pass (the decoders read every call of a list with it).
export { forEachItem };

/**
 * Where the values of each container read so far lie in a canonical text: by the container's
 * offset, its members by key literal (the first of equal ones) or its items by index.
 */
export type CanonicalIndex = Map<number, Map<string, [number, number]>>;

/**
 * Finds the canonical text of the value at a path inside canonical JSON text.
 *
 * A segment that is a decimal index without leading zeros indexes an array; on an object every
 * segment is a key, matched by its canonical string literal. Each container on the path is read
 * once into `index`: lookups that share an index (of the same text) cost the text once, plus
 * their segments, not the text each.
 *
 * @param canonical Canonical JSON text, as an engine writes it.
 * @param segments The path's segments, outermost first.
 * @param literals Each segment as a canonical JSON string literal (see `canonicalValue`).
 * @param index The containers of `canonical` read so far (default: none), filled in as read.
 * @returns The value's canonical text, or undefined when the path is absent (a missing key, an
 *   index out of range, or a scalar in the way).
 *
 * @example
 * ```ts
 * import { lookupCanonical } from "@assay/assay/engine";
 * import { strictEqual } from "node:assert/strict";
 *
 * const text = '{"a":[1,{"b":2.0}],"c":"x"}';
 * const index = new Map();
 * strictEqual(lookupCanonical(text, ["a", "1", "b"], ['"a"', '"1"', '"b"'], index), "2.0");
 * strictEqual(lookupCanonical(text, ["a", "2"], ['"a"', '"2"'], index), undefined);
 * strictEqual(lookupCanonical(text, ["c", "0"], ['"c"', '"0"']), undefined);
 * ```
 */
export function lookupCanonical(
  canonical: string,
  segments: readonly string[],
  literals: readonly string[],
  index: CanonicalIndex = new Map(),
): string | undefined {
  let start = 0;
  let end = canonical.length;
  for (let k = 0; k < segments.length; k++) {
    const c = canonical.charCodeAt(start);
    let members = index.get(start);
    if (!members && (c === 0x7b || c === 0x5b)) {
      const m = members = new Map();
      index.set(start, m);
      const put = (key: string, from: number, to: number) => {
        if (!m.has(key)) m.set(key, [from, to]);
      };
      let i = 0;
      if (c === 0x7b) {
        forEachMember(canonical, start, (k, v, e) => put(canonical.slice(k, v - 1), v, e));
      } else forEachItem(canonical, start, (v, e) => put(String(i++), v, e));
    }
    // An index is an item's decimal number, so "01" or "1e0" finds none.
    const at = members?.get(c === 0x7b ? literals[k]! : segments[k]!);
    if (!at) return undefined;
    [start, end] = at;
  }
  return canonical.slice(start, end);
}

/**
 * Rewrites every number in canonical JSON text so that equal numbers compare equal as text.
 *
 * `1.0` and `1` both become `1`, `1e+16` becomes `10000000000000000`, `-0.0` becomes `0`.
 * Integers keep their exact digits; other floats keep their shortest round-trip digits. Strings,
 * `NaN` and the infinities are left as they are.
 *
 * @param canonical Canonical JSON text, as an engine writes it.
 * @returns The text with its numbers in value form.
 *
 * @example
 * ```ts
 * import { numericForm } from "@assay/assay/engine";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(numericForm('[1.0,1e+16,-0.0,0.5,"1.0"]'), '[1,10000000000000000,0,0.5,"1.0"]');
 * ```
 */
export function numericForm(canonical: string): string {
  const t = canonical;
  let out = "";
  let last = 0;
  let p = 0;
  while (p < t.length) {
    const c = t.charCodeAt(p);
    if (c === 0x22) {
      p = stringEnd(t, p);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const e = scalarEnd(t, p);
      const lexeme = t.slice(p, e);
      if (lexeme.includes(".") || lexeme.includes("e")) {
        const x = Number(lexeme);
        out += t.slice(last, p) + (Number.isInteger(x) ? BigInt(x).toString() : String(x));
        last = e;
      }
      p = e;
    } else {
      p++;
    }
  }
  return last === 0 ? t : out + t.slice(last);
}
