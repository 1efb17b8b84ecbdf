// lookupCanonical reads each container on a path once into an index that lookups of the same
// text share, so that requiredFieldAccuracy costs an output's length plus its fields, not their
// product. The former lookup (a fresh scan from the text's start for every path) is kept here as
// the reference: both must give the same answer for every path, found or not, and the metric must
// give the counts the former lookup gives, on seeded random texts, paths and examples.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { forEachItem, forEachMember } from "../../src/engine/_canonical_scan.ts";
import {
  type CanonicalIndex,
  canonicalize,
  flattenArguments,
  lookupCanonical,
  numericForm,
} from "../../src/engine/mod.ts";
import { canonicalLiteral, requiredFieldAccuracy } from "../../src/structured/mod.ts";
import { makeRng, randomJsonText, type Rng } from "../_corpus.ts";
import { ENGINES } from "../_engines.ts";

/** The lookup as it was: each path scanned from the text's start, stopping at the first match. */
function formerLookup(
  canonical: string,
  segments: readonly string[],
  literals: readonly string[],
): string | undefined {
  const INDEX = /^(0|[1-9][0-9]{0,8})$/;
  let start = 0;
  let end = canonical.length;
  for (let k = 0; k < segments.length; k++) {
    const c = canonical.charCodeAt(start);
    let found = false;
    if (c === 0x7b) {
      const literal = literals[k]!;
      forEachMember(canonical, start, (key, value, valueEnd) => {
        if (value - 1 - key !== literal.length || !canonical.startsWith(literal, key)) return false;
        [start, end] = [value, valueEnd];
        return found = true;
      });
    } else if (c === 0x5b) {
      const segment = segments[k]!;
      if (!INDEX.test(segment)) return undefined;
      let index = Number(segment);
      forEachItem(canonical, start, (item, itemEnd) => {
        if (index-- > 0) return false;
        [start, end] = [item, itemEnd];
        return found = true;
      });
    }
    if (!found) return undefined;
  }
  return canonical.slice(start, end);
}

// Keys and segments that collide in the ways a lookup can get wrong: an index-like key on an
// object, indices with a leading zero, a sign or an exponent, a dot inside a key, the empty key.
const SEGMENTS = ["a", "b", "0", "1", "2", "10", "01", "00", "-1", "1e0", "a.b", "", "\u00e9"];

/**
 * Canonical-like text (ASCII, no whitespace) whose objects may repeat a key: the lookup then
 * finds the first, as the engine's text has it when two Python keys print alike.
 */
function writeText(rng: Rng, depth: number): string {
  const r = depth > 3 ? 5 + rng.int(5) : rng.int(10);
  if (r < 3) {
    const n = rng.int(5);
    return "{" +
      Array.from(
        { length: n },
        () => `${canonicalLiteral(rng.pick(SEGMENTS))}:${writeText(rng, depth + 1)}`,
      )
        .join(",") +
      "}";
  }
  if (r < 5) {
    return "[" + Array.from({ length: rng.int(12) }, () => writeText(rng, depth + 1)).join(",") +
      "]";
  }
  return rng.pick(["1", "1.0", "-0.0", "1e+16", '"x"', '"1"', "true", "null", "NaN", "[]", "{}"]);
}

/** Every path to a value in canonical text (by flattening it), and one key beyond each. */
function realPaths(canonical: string): string[][] {
  const flat = flattenArguments(canonical);
  if (!flat.ok) return [];
  const out: string[][] = [];
  for (const pair of flat.pairs) {
    const path = (JSON.parse(pair.path) as (string | number)[]).map(String);
    for (let k = 1; k <= path.length; k++) out.push(path.slice(0, k));
    out.push([...path, "0"]);
  }
  return out;
}

function randomPath(rng: Rng): string[] {
  return Array.from({ length: 1 + rng.int(4) }, () => rng.pick(SEGMENTS));
}

Deno.test("lookupCanonical() with a shared index answers as the former scan, on 1,200 seeded texts", () => {
  const rng = makeRng(20261206);
  let found = 0;
  let absent = 0;
  for (let n = 0; n < 1200; n++) {
    let text: string;
    if (n % 2 === 0) text = writeText(rng, 0);
    else {
      const c = canonicalize(randomJsonText(rng, { mutationRate: 0, deepRate: 0, maxNodes: 60 }));
      if (!c.ok) continue;
      text = c.canonical;
    }
    const paths = [...realPaths(text), ...Array.from({ length: 40 }, () => randomPath(rng))];
    // Lookups in a random order, some repeated, all through one index.
    const index: CanonicalIndex = new Map();
    for (let k = 0; k < paths.length * 2; k++) {
      const path = rng.pick(paths);
      const literals = path.map(canonicalLiteral);
      const want = formerLookup(text, path, literals);
      strictEqual(
        lookupCanonical(text, path, literals, index),
        want,
        `${text} @ ${JSON.stringify(path)}`,
      );
      // Without an index, as single lookups are made.
      strictEqual(lookupCanonical(text, path, literals), want);
      if (want === undefined) absent++;
      else found++;
    }
  }
  ok(found > 20_000 && absent > 20_000, `${found} found, ${absent} absent`);
});

Deno.test("lookupCanonical() finds the first of two members with the same key", () => {
  const text = '{"a":{"b":1},"a":{"b":2},"c":[{"a":3},{"a":4}]}';
  const index: CanonicalIndex = new Map();
  strictEqual(lookupCanonical(text, ["a", "b"], ['"a"', '"b"'], index), "1");
  strictEqual(lookupCanonical(text, ["c", "1", "a"], ['"c"', '"1"', '"a"'], index), "4");
  strictEqual(lookupCanonical(text, ["c", "01"], ['"c"', '"01"'], index), undefined);
  strictEqual(lookupCanonical(text, ["a"], ['"a"'], index), '{"b":1}');
});

/** The metric's counts as the former lookup gives them (strict mode: the output is the payload). */
function formerCounts(
  expected: Record<string, string>[],
  outputs: string[],
  numeric: boolean,
): [number, number, number, number, number] {
  const norm = numeric ? numericForm : (t: string) => t;
  let hit = 0, missing = 0, wrong = 0, unparseable = 0, all = 0;
  expected.forEach((e, i) => {
    const p = canonicalize(outputs[i]!);
    for (const [path, value] of Object.entries(e)) {
      all++;
      if (!p.ok) {
        unparseable++;
        continue;
      }
      const segments = path.split(".");
      const got = formerLookup(p.canonical, segments, segments.map(canonicalLiteral));
      const want = canonicalize(value);
      if (!want.ok) throw new Error(`bad expected value ${value}`);
      if (got === undefined) missing++;
      else if (norm(got) !== norm(want.canonical)) wrong++;
      else hit++;
    }
  });
  return [hit, all, missing, wrong, unparseable];
}

Deno.test("requiredFieldAccuracy() counts as with the former lookup, on 400 seeded batches", () => {
  const rng = makeRng(8128);
  const totals = [0, 0, 0, 0, 0];
  for (let n = 0; n < 400; n++) {
    const outputs: string[] = [];
    const expected: Record<string, string>[] = [];
    for (let i = 0; i < 1 + rng.int(6); i++) {
      const output = rng.chance(0.1)
        ? "not json"
        : randomJsonText(rng, { mutationRate: 0, deepRate: 0, maxNodes: 40 });
      const c = canonicalize(output);
      const fields: Record<string, string> = {};
      const known = c.ok ? realPaths(c.canonical) : [];
      for (let k = 0; k < 1 + rng.int(12); k++) {
        const path = known.length > 0 && rng.chance(0.7) ? rng.pick(known) : randomPath(rng);
        if (path.some((s) => s === "" || s.includes(".") || s.includes("\\"))) continue;
        const at = c.ok
          ? lookupCanonical(c.canonical, path, path.map(canonicalLiteral))
          : undefined;
        const value = at !== undefined && rng.chance(0.7)
          ? at
          : rng.pick(["1", "1.0", '"x"', "null", "[1]", '{"a":1}']);
        // A "__proto__" key is an own field, as when the expected file is read.
        Object.defineProperty(fields, path.join("."), { value, enumerable: true, writable: true });
      }
      outputs.push(output);
      expected.push(fields);
    }
    for (const numeric of [false, true]) {
      const engine = ENGINES[n % ENGINES.length];
      const r = requiredFieldAccuracy(expected, outputs, {
        valuesAsJson: true,
        numbers: numeric ? "numeric" : "exact",
        engine,
      });
      const d = r.details;
      const counts = [r.numerator, r.denominator, d.missing, d.wrongValue, d.unparseable];
      deepStrictEqual(
        counts,
        formerCounts(expected, outputs, numeric),
        JSON.stringify({ expected, outputs }),
      );
      counts.forEach((x, k) => totals[k]! += x);
    }
  }
  // Hits, fields, missing, wrong values, unparseable: every kind of answer is well represented.
  ok(totals.every((x) => x > 300), `${totals}`);
});
