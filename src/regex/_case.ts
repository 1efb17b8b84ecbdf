/**
 * Case-insensitive matching for the linear-time regex engine, exactly as the host's RegExp.
 *
 * ECMAScript's `i` flag compares `Canonicalize(ch)`: without `u` that is `toUpperCase` of one
 * UTF-16 unit (kept when the result is several units, or leaves non-ASCII for ASCII); with `u`
 * it is Unicode simple case folding. A pattern character or class then matches every input
 * character with the same canonical form.
 *
 * JavaScript exposes neither mapping directly, so the equivalence classes are derived once,
 * lazily: every code point up to U+1FFFF (all cased letters live there) is joined with its
 * single-code-point `toUpperCase` and `toLowerCase`, and with the code points that share its
 * multi-code-point upper- or lowercase string, which gives a superset of each class, and
 * each such small group is then split by asking the host's own RegExp whether two of its members
 * match each other under `i` (a one-character pattern against a one-character text, so the host
 * engine's work is constant). The result follows the host's Unicode version.
 *
 * @module
 */

const cache = new Map<boolean, Map<number, number[]>>();

/**
 * The case-equivalents of every code point that has any, under `i` (`unicode` false) or `iu`.
 *
 * @param unicode Whether the `u` flag is set.
 * @returns A map from a code point to the other code points that match it case-insensitively.
 */
export function caseEquivalents(unicode: boolean): Map<number, number[]> {
  let map = cache.get(unicode);
  if (map === undefined) {
    map = build(unicode);
    cache.set(unicode, map);
  }
  return map;
}

function build(unicode: boolean): Map<number, number[]> {
  const limit = unicode ? 0x1ffff : 0xffff;
  const parent = new Int32Array(limit + 1);
  for (let k = 0; k <= limit; k++) parent[k] = k;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const single = (s: string): number => {
    const cp = s.codePointAt(0)!;
    const width = cp > 0xffff ? 2 : 1;
    return s.length === width && cp <= limit ? cp : -1;
  };
  // Code points whose full upper- or lowercase mapping is the same string of several code points
  // (U+0390 and U+1FD3, U+FB05 and U+FB06) can still be one simple case folding apart.
  const byMapping = new Map<string, number>();
  const join = (a: number, b: number) => {
    if (a !== b) parent[find(a)] = find(b);
  };
  for (let cp = 0; cp <= limit; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const s = String.fromCodePoint(cp);
    for (const mapped of [s.toUpperCase(), s.toLowerCase()]) {
      if (mapped === s) continue;
      const other = single(mapped);
      if (other >= 0) join(other, cp);
      else {
        const first = byMapping.get(mapped);
        if (first === undefined) byMapping.set(mapped, cp);
        else join(first, cp);
      }
    }
  }
  const groups = new Map<number, number[]>();
  for (let cp = 0; cp <= limit; cp++) {
    const root = find(cp);
    if (root === cp) continue;
    const g = groups.get(root);
    if (g === undefined) groups.set(root, [root, cp]);
    else g.push(cp);
  }
  const flags = unicode ? "iu" : "i";
  const map = new Map<number, number[]>();
  for (const members of groups.values()) {
    const classes: { re: RegExp; members: number[] }[] = [];
    for (const cp of members) {
      const text = String.fromCodePoint(cp);
      const hit = classes.find((c) => c.re.test(text));
      if (hit !== undefined) hit.members.push(cp);
      else classes.push({ re: new RegExp(`^${escape(cp, unicode)}$`, flags), members: [cp] });
    }
    for (const c of classes) {
      if (c.members.length < 2) continue;
      for (const cp of c.members) map.set(cp, c.members.filter((x) => x !== cp));
    }
  }
  return map;
}

function escape(cp: number, unicode: boolean): string {
  return unicode ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, "0")}`;
}
