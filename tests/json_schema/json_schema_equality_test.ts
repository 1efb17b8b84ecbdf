// uniqueItems keys each container once per validation (bottom-up ids in the run's context), where
// it wrote a key of the whole subtree at every level, so arrays nested d deep cost d times their
// size; an enum keys its object entries once, when compiled, where it compared an instance with
// each. The former keys and comparisons are kept here as the reference: on seeded random values
// full of near and exact duplicates (1 and 1.0, 0 and -0, keys in another order, NaN, strings that
// look like keys, values held twice, values JSON has not), the first duplicate of every array,
// every verdict and error of a recursive schema, and every enum verdict must be what they were.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { compileSchema } from "../../src/json_schema/mod.ts";
import { findDuplicate, type Interned } from "../../src/json_schema/_values.ts";
import { makeRng, type Rng } from "../_corpus.ts";

/** JSON equality as const and enum have it (unchanged; kept as the former enum's own). */
function formerJsonEqual(a: unknown, b: unknown): boolean {
  const stack: unknown[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop();
    const x = stack.pop();
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push(x[i], y[i]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const xo = x as Record<string, unknown>, yo = y as Record<string, unknown>;
    const keys = Object.keys(xo);
    if (keys.length !== Object.keys(yo).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(yo, k)) return false;
      stack.push(xo[k], yo[k]);
    }
  }
  return true;
}

/** The former enum: scalars in a set (NaN left out), each object entry compared in turn. */
function formerEnum(vs: unknown[], x: unknown): boolean {
  const prims = new Set(vs.filter((v) => (typeof v !== "object" || v === null) && v === v));
  if (typeof x !== "object" || x === null) return prims.has(x);
  return vs.some((o) => typeof o === "object" && o !== null && formerJsonEqual(x, o));
}

class Literal {
  constructor(readonly s: string) {}
}
const CLOSE_ARRAY = new Literal("],");
const CLOSE_OBJECT = new Literal("},");

/** The former canonical key of a container: its whole subtree, written out. */
function formerKey(v: unknown): string | undefined {
  const out: string[] = [];
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x instanceof Literal) out.push(x.s);
    else if (typeof x === "string") out.push(JSON.stringify(x), ",");
    else if (typeof x === "number") {
      if (x !== x) return undefined;
      out.push(Object.is(x, -0) ? "0" : String(x), ",");
    } else if (x === null || typeof x === "boolean") out.push(String(x), ",");
    else if (Array.isArray(x)) {
      out.push("[");
      stack.push(CLOSE_ARRAY);
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
    } else if (typeof x === "object") {
      out.push("{");
      stack.push(CLOSE_OBJECT);
      const o = x as Record<string, unknown>;
      const keys = Object.keys(o).sort().reverse();
      for (const k of keys) stack.push(o[k], new Literal(JSON.stringify(k) + ":"));
    } else out.push("?", ",");
  }
  return out.join("");
}

/** The former findDuplicate, on formerKey. */
function formerDuplicate(xs: readonly unknown[]): [number, number] | undefined {
  const scalars = new Map<unknown, number>(), containers = new Map<unknown, number>();
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    const boxed = typeof x === "object" && x !== null;
    const key = boxed ? formerKey(x) : x;
    if (key === undefined || key !== key) continue;
    const seen = boxed ? containers : scalars;
    const j = seen.get(key);
    if (j !== undefined) return [j, i];
    seen.set(key, i);
  }
  return undefined;
}

// Scalars that are equal, or nearly, or look like another's key: 1 and 1.0 are one JS number.
const SCALARS: unknown[] = [
  0,
  -0,
  1,
  1.0,
  2,
  0.1,
  1e21,
  Infinity,
  -Infinity,
  NaN,
  "1",
  "",
  "a",
  "a,b",
  '"',
  "#0",
  "[1,],",
  "?",
  true,
  false,
  null,
  undefined,
  7n,
  8n,
];
const KEYS = ["a", "b", "0", "10", "__proto__", "", ",", "a:1,b"];

/** A random value, built from scratch or from an earlier one (the same, or a copy with its keys in another order). */
function randomValue(rng: Rng, made: unknown[], depth: number): unknown {
  if (made.length > 0 && rng.chance(0.3)) {
    const old = rng.pick(made);
    return rng.chance(0.5) ? old : reordered(rng, old);
  }
  let v: unknown;
  const r = depth > 4 ? 6 : rng.int(10);
  if (r < 3) v = Array.from({ length: rng.int(5) }, () => randomValue(rng, made, depth + 1));
  else if (r < 6) {
    const o: Record<string, unknown> = {};
    for (let k = rng.int(4); k > 0; k--) {
      Object.defineProperty(o, rng.pick(KEYS), {
        value: randomValue(rng, made, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    v = o;
  } else v = rng.chance(0.05) ? undefined : rng.pick(SCALARS);
  if (typeof v === "object" && v !== null) made.push(v);
  return v;
}

/** A deep copy with every object's keys in a random order. */
function reordered(rng: Rng, v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => reordered(rng, x));
  if (typeof v !== "object" || v === null) return v;
  const keys = Object.keys(v);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const o: Record<string, unknown> = {};
  for (const k of keys) {
    Object.defineProperty(o, k, {
      value: reordered(rng, (v as Record<string, unknown>)[k]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return o;
}

/** Every array inside a value (itself included), outermost first. */
function arraysIn(v: unknown, out: unknown[][] = []): unknown[][] {
  const stack = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x !== "object" || x === null) continue;
    if (Array.isArray(x)) out.push(x);
    stack.push(...Object.values(x as object));
  }
  return out;
}

/** Each array's first duplicate as the former keys find it, by its place in the value. */
function formerErrors(v: unknown, ip = ""): string[] {
  const out: string[] = [];
  if (Array.isArray(v)) {
    const dup = formerDuplicate(v);
    if (dup) out.push(`${ip}: Items ${dup[0]} and ${dup[1]} are equal`);
    v.forEach((x, i) => out.push(...formerErrors(x, `${ip}/${i}`)));
  } else if (typeof v === "object" && v !== null) {
    for (const k of Object.keys(v)) {
      const t = k.replaceAll("~", "~0").replaceAll("/", "~1");
      out.push(...formerErrors((v as Record<string, unknown>)[k], `${ip}/${t}`));
    }
  }
  return out;
}

Deno.test("findDuplicate() finds the former first duplicate in every array of 3,000 seeded values", () => {
  const rng = makeRng(5150);
  let arrays = 0;
  let duplicates = 0;
  let containers = 0;
  for (let n = 0; n < 3000; n++) {
    const made: unknown[] = [];
    const top = Array.from({ length: 2 + rng.int(7) }, () => randomValue(rng, made, 1));
    const all = arraysIn(top);
    // One run's ids serve every array, met outermost first, innermost first, or at random.
    const order = n % 3 === 0
      ? all
      : n % 3 === 1
      ? [...all].reverse()
      : all.map(() => rng.pick(all));
    const run: { u?: Interned } = {};
    for (const xs of order) {
      const want = formerDuplicate(xs);
      deepStrictEqual(findDuplicate(xs, run), want);
      // Alone, as a run that meets only this array.
      deepStrictEqual(findDuplicate(xs, {}), want);
      arrays++;
      if (want) duplicates++;
      if (want && typeof xs[want[0]] === "object" && xs[want[0]] !== null) containers++;
    }
  }
  ok(
    duplicates > 3000 && containers > 1000,
    `${duplicates} (${containers} containers) of ${arrays}`,
  );
});

Deno.test("uniqueItems at every level gives the former verdicts and errors on 2,000 seeded values", () => {
  const schema = compileSchema({
    uniqueItems: true,
    items: { $ref: "#" },
    additionalProperties: { $ref: "#" },
  });
  const rng = makeRng(4711);
  let invalid = 0;
  for (let n = 0; n < 2000; n++) {
    const made: unknown[] = [];
    const v = Array.from({ length: 1 + rng.int(6) }, () => randomValue(rng, made, 1));
    const want = formerErrors(v);
    strictEqual(schema.isValid(v), want.length === 0);
    const got = schema.validate(v).errors.map((e) => `${e.instanceLocation}: ${e.message}`);
    deepStrictEqual(got.sort(), want.sort());
    if (want.length > 0) invalid++;
  }
  ok(invalid > 500 && invalid < 1500, `${invalid} invalid`);
});

Deno.test("uniqueItems keys each instance afresh, so a value changed between two runs is judged as it is now", () => {
  const schema = compileSchema({ uniqueItems: true, items: { uniqueItems: true } });
  const x = [[[1]], [[2]]];
  strictEqual(schema.isValid(x), true);
  x[1]![0]![0] = 1;
  strictEqual(schema.isValid(x), false);
  strictEqual(schema.validate(x).valid, false);
  x[1]![0]![0] = 3;
  strictEqual(schema.validate(x).valid, true);
  strictEqual(schema.isValid(x), true);
});

Deno.test("uniqueItems keeps apart members whose keys and values could run together", () => {
  const unique = compileSchema({ uniqueItems: true });
  strictEqual(unique.isValid([{ a: 1, b: 2 }, { "a:1,b": 2 }]), true);
  strictEqual(unique.isValid([[{ a: "1" }], [{ a: 1 }]]), true);
  strictEqual(unique.isValid([[[0]], [["#0"]]]), true);
  strictEqual(unique.isValid([[[0], 1], [[0], 1.0]]), false);
});

Deno.test("enum gives the former verdicts on 3,000 seeded schemas and 30,000 instances", () => {
  const rng = makeRng(1789);
  let accepted = 0;
  let objects = 0;
  for (let n = 0; n < 3000; n++) {
    const made: unknown[] = [];
    const entries = Array.from({ length: 1 + rng.int(8) }, () => randomValue(rng, made, 1));
    const schema = compileSchema({ enum: entries });
    for (let k = 0; k < 10; k++) {
      // Entries themselves, copies with their keys reordered, values sharing their parts (a NaN
      // held by both sides included), and others.
      const x = rng.chance(0.3) ? rng.pick(entries) : randomValue(rng, made, 1);
      const want = formerEnum(entries, x);
      strictEqual(schema.isValid(x), want);
      strictEqual(schema.validate(x).valid, want);
      if (want) accepted++;
      if (want && typeof x === "object" && x !== null) objects++;
    }
  }
  ok(accepted > 8000 && objects > 3000 && accepted < 25_000, `${accepted} (${objects} objects)`);
});

Deno.test("enum tells apart objects whose values JSON has not, and finds an entry shared with a NaN in it", () => {
  const f = () => 1;
  const schema = compileSchema({ enum: [{ a: [undefined] }, { a: [f] }, [1, 2], { b: 1 }] });
  strictEqual(schema.isValid({ a: [f] }), true);
  strictEqual(schema.isValid({ a: [() => 1] }), false);
  strictEqual(schema.isValid({ a: [undefined] }), true);
  strictEqual(schema.isValid({ a: [7n] }), false);
  strictEqual(schema.isValid([1, 2.0]), true);
  strictEqual(schema.isValid({ b: 1, c: 2 }), false);
  // NaN equals nothing, but the same object is equal to itself (as JSON equality has it).
  const held = [NaN];
  const withNaN = compileSchema({ enum: [{ a: held }, { b: [NaN] }] });
  strictEqual(withNaN.isValid({ a: held }), true);
  strictEqual(withNaN.isValid({ a: [NaN] }), false);
  strictEqual(withNaN.isValid({ b: [NaN] }), false);
});
