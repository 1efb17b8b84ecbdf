// Seeded random (schema, instance) pairs for the JSON Schema differential test
// (tests/json_schema/json_schema_python_diff_test.ts). Pure TypeScript: no I/O, no Deno APIs.
//
// Each schema is built together with a sampler that draws values meant to fit it; the instances
// are those samples and mutations of them (a number nudged, 1 turned into true or 1.0, a key added
// or dropped, an item duplicated, ...), so that both verdicts occur often. Every keyword family of
// draft 2020-12 that Assay implements is covered, see `FAMILIES`.
//
// Numbers: the JS side sees plain JS numbers. `pythonJson()` writes the text the Python oracle
// reads; it spells some integral numbers inside instances, `const` and `enum` as `N.0` (a Python
// float) and -0 as `-0.0`, so that the oracle meets 1 and 1.0 (and 0 and -0.0) as distinct Python
// values where JSON Schema treats them as the same number (core 4.2.2). All numbers are safe
// integers or doubles whose shortest repr both sides read back to the same value.
import type { Rng } from "../_corpus.ts";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One generated schema with the instances to check against it. */
export interface SchemaCase {
  /** The family that produced the schema (`FAMILIES`). */
  family: string;
  /** The schema. Objects may have own `__proto__` keys. */
  schema: Json;
  /** The instances, samples of the schema and mutations of them. */
  instances: Json[];
}

/** Options for `generateSchemaCorpus()`. */
export interface SchemaCorpusOptions {
  /** Number of schemas. */
  schemas: number;
  /** Instances per schema. */
  instancesPerSchema: number;
  /**
   * Whether the `pointer` family is in (default: not), whose `$ref`s may name no value, so that
   * Assay refuses the schema and Python raises RefResolutionError when it meets the reference.
   */
  pointers?: boolean;
}

/** Builds a plain object from entries; `__proto__` becomes an own key. */
export function obj(entries: [string, Json][]): { [key: string]: Json } {
  const o: { [key: string]: Json } = {};
  for (const [k, v] of entries) {
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return o;
}

function clone(v: Json): Json {
  if (Array.isArray(v)) return v.map(clone);
  if (v !== null && typeof v === "object") {
    return obj(Object.keys(v).map((k) => [k, clone(v[k] as Json)]));
  }
  return v;
}

// ------------------------------------------------------------------ value pools

const KEYS = [
  "a",
  "b",
  "c",
  "aa",
  "B",
  "x1",
  "__proto__",
  "constructor",
  "toString",
  "ключ",
  "😀",
  "",
  "a b",
  "e\u0301",
];
const SCALARS: Json[] = [
  0,
  -0,
  1,
  -1,
  2,
  3,
  0.5,
  1.5,
  -2.5,
  1e-7,
  0.01,
  0.07,
  0.3,
  100,
  9007199254740991,
  -9007199254740991,
  1e21,
  true,
  false,
  null,
  "",
  "a",
  "1",
  "true",
  "😀",
  "é",
  "e\u0301",
  "中文",
];
const STRING_UNITS = ["a", "b", "z", "😀", "e\u0301", "ж", "中", "\u0000", " ", "A", "1", "\udc00"];

function randomScalar(rng: Rng): Json {
  return rng.pick(SCALARS);
}

/** A random JSON value, biased towards 0/1/true/false/1.0 inside small containers. */
export function randomValue(rng: Rng, depth = 2): Json {
  const r = rng.int(10);
  if (depth <= 0 || r < 5) return randomScalar(rng);
  if (r < 8) {
    const n = rng.int(4);
    const out: Json[] = [];
    for (let i = 0; i < n; i++) out.push(randomValue(rng, depth - 1));
    return out;
  }
  const n = rng.int(3);
  const entries: [string, Json][] = [];
  for (let i = 0; i < n; i++) entries.push([rng.pick(KEYS), randomValue(rng, depth - 1)]);
  return obj(entries);
}

function randomString(rng: Rng, minCp: number, maxCp: number): string {
  const n = minCp + rng.int(maxCp - minCp + 1);
  const cps: string[] = [];
  while (cps.length < n) cps.push(...rng.pick(STRING_UNITS));
  return cps.slice(0, n).join("");
}

// ------------------------------------------------------------------ schema generators

/** A schema with a sampler of values meant to fit it. */
interface Gen {
  schema: Json;
  sample(rng: Rng): Json;
}

type Maker = (rng: Rng, depth: number) => Gen;

const TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"] as const;

function valueOfType(rng: Rng, t: string): Json {
  switch (t) {
    case "null":
      return null;
    case "boolean":
      return rng.chance(0.5);
    case "integer":
      return rng.pick([0, -0, 1, 2, -7, 1e21, 9007199254740991]);
    case "number":
      return rng.pick([0.5, -2.25, 1e-7, 3, 0.1]);
    case "string":
      return randomString(rng, 0, 4);
    case "array":
      return [randomValue(rng, 1)];
    default:
      return obj([[rng.pick(KEYS), randomValue(rng, 1)]]);
  }
}

const typeGen: Maker = (rng) => {
  const n = 1 + rng.int(3);
  const types: string[] = [];
  for (let i = 0; i < n; i++) {
    const t = rng.pick(TYPES);
    if (!types.includes(t)) types.push(t);
  }
  const schema = types.length === 1 && rng.chance(0.6) ? types[0] as string : types;
  return {
    schema: obj([["type", schema]]),
    sample: (r) => valueOfType(r, r.chance(0.7) ? r.pick(types) : r.pick(TYPES)),
  };
};

/** A value rich in the equality corner cases: 0/1/true/false/-0 at any depth. */
function equalityValue(rng: Rng, depth = 2): Json {
  const r = rng.int(10);
  if (depth <= 0 || r < 4) return rng.pick([0, 1, -0, true, false, null, 1.5, "1", "", 2]);
  if (r < 7) {
    const n = 1 + rng.int(3);
    const out: Json[] = [];
    for (let i = 0; i < n; i++) out.push(equalityValue(rng, depth - 1));
    return out;
  }
  return obj([[rng.pick(["a", "b", "__proto__"]), equalityValue(rng, depth - 1)]]);
}

const constGen: Maker = (rng) => {
  const value = rng.chance(0.7) ? equalityValue(rng) : randomValue(rng);
  return { schema: obj([["const", value]]), sample: () => clone(value) };
};

const enumGen: Maker = (rng) => {
  const n = 1 + rng.int(4);
  const values: Json[] = [];
  for (let i = 0; i < n; i++) values.push(rng.chance(0.7) ? equalityValue(rng) : randomValue(rng));
  return { schema: obj([["enum", values]]), sample: (r) => clone(r.pick(values)) };
};

// multipleOf as mantissa * 10^exp, so that multiples can be written as exact decimals.
const MULTIPLES: [number, number][] = [
  [2, 0],
  [3, 0],
  [5, 0],
  [5, -1],
  [25, -2],
  [1, -2],
  [1, -4],
  [1, -1],
  [15, -1],
  [7, 0],
];
const BOUNDS = [-10, -1, 0, 0.5, 1, 2.5, 10, 1e-7, 100];

const numberGen: Maker = (rng) => {
  const entries: [string, Json][] = [];
  if (rng.chance(0.5)) entries.push(["type", rng.pick(["number", "integer"])]);
  const points: number[] = [];
  for (const k of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
    if (rng.chance(0.35)) {
      const b = rng.pick(BOUNDS);
      entries.push([k, b]);
      points.push(b);
    }
  }
  let mult: [number, number] | undefined;
  if (rng.chance(0.5)) {
    mult = rng.pick(MULTIPLES);
    entries.push(["multipleOf", Number(`${mult[0]}e${mult[1]}`)]);
  }
  return {
    schema: obj(entries),
    sample: (r) => {
      if (mult && r.chance(0.7)) return Number(`${(r.int(41) - 20) * mult[0]}e${mult[1]}`);
      if (points.length > 0 && r.chance(0.7)) {
        return r.pick(points) + r.pick([0, 0, 1, -1, 0.5, -0.5, 1e-7]);
      }
      return r.pick([0, 1, 2, 7, -3, 0.5, 1e-7, 12.5]);
    },
  };
};

// Patterns in the common subset of ECMA-262 (with or without the u flag) and Python `re`: no `.`,
// `$`, `\d`/`\w`/`\s`/`\b`, negated classes, lookbehind or quantified astral characters.
const PATTERNS: [string, string[]][] = [
  ["^a", ["a", "abc", "a😀"]],
  ["b+", ["b", "xbb"]],
  ["^[a-c]{2}", ["ab", "cc9"]],
  ["x|y", ["x", "zy"]],
  ["^(?:ab)+", ["ab", "abab"]],
  ["é", ["é", "café"]],
  ["^[A-Z][a-z]*", ["Ab", "Z"]],
  ["[0-9]{3}", ["123", "a456"]],
  ["^\\.", [".x", "."]],
  ["^ab?c", ["ac", "abc"]],
  ["😀", ["😀", "a😀b"]],
  ["^(a|b)*c", ["c", "abac"]],
];

const stringGen: Maker = (rng) => {
  const entries: [string, Json][] = [];
  if (rng.chance(0.5)) entries.push(["type", "string"]);
  let min = 0, max = 6;
  if (rng.chance(0.5)) {
    min = rng.int(4);
    entries.push(["minLength", min]);
  }
  if (rng.chance(0.5)) {
    max = min + rng.int(4);
    entries.push(["maxLength", max]);
  }
  let pat: [string, string[]] | undefined;
  if (rng.chance(0.45)) {
    pat = rng.pick(PATTERNS);
    entries.push(["pattern", pat[0]]);
  }
  if (rng.chance(0.15)) entries.push(["format", rng.pick(["email", "date", "uri", "ipv4"])]);
  return {
    schema: obj(entries),
    sample: (r) => (pat && r.chance(0.6) ? r.pick(pat[1]) : randomString(r, min, max)),
  };
};

const booleanGen: Maker = (rng) => {
  const b = rng.chance(0.6);
  return { schema: b, sample: (r) => randomValue(r) };
};

function leaf(rng: Rng, depth: number): Gen {
  return rng.pick([typeGen, constGen, enumGen, numberGen, stringGen, numberGen, stringGen])(
    rng,
    depth,
  );
}

/** Any subschema: a leaf at depth 0, otherwise any family. */
function sub(rng: Rng, depth: number): Gen {
  if (depth <= 0 || rng.chance(0.45)) return rng.chance(0.08) ? booleanGen(rng, 0) : leaf(rng, 0);
  return rng.pick([arrayGen, objectGen, combinatorGen, leaf, leaf])(rng, depth - 1);
}

const arrayGen: Maker = (rng, depth) => {
  const entries: [string, Json][] = [];
  if (rng.chance(0.5)) entries.push(["type", "array"]);
  let prefix: Gen[] = [];
  if (rng.chance(0.4)) {
    prefix = Array.from({ length: 1 + rng.int(3) }, () => sub(rng, depth - 1));
    entries.push(["prefixItems", prefix.map((g) => g.schema)]);
  }
  let items: Gen | undefined;
  let itemsFalse = false;
  if (rng.chance(0.5)) {
    if (prefix.length > 0 && rng.chance(0.3)) {
      itemsFalse = true;
      entries.push(["items", false]);
    } else {
      items = sub(rng, depth - 1);
      entries.push(["items", items.schema]);
    }
  }
  let contains: Gen | undefined;
  if (rng.chance(0.35)) {
    contains = leaf(rng, 0);
    entries.push(["contains", contains.schema]);
    if (rng.chance(0.4)) entries.push(["minContains", rng.int(3)]);
    if (rng.chance(0.4)) entries.push(["maxContains", 1 + rng.int(2)]);
  }
  if (rng.chance(0.3)) entries.push(["uniqueItems", rng.chance(0.85)]);
  let minItems = 0;
  if (rng.chance(0.3)) {
    minItems = rng.int(3);
    entries.push(["minItems", minItems]);
  }
  if (rng.chance(0.3)) entries.push(["maxItems", minItems + rng.int(3)]);
  if (rng.chance(0.15)) {
    entries.push(["unevaluatedItems", rng.chance(0.5) ? false : leaf(rng, 0).schema]);
  }
  return {
    schema: obj(entries),
    sample: (r) => {
      const out: Json[] = prefix.map((g) => g.sample(r));
      if (!itemsFalse) {
        const extra = r.int(3);
        for (let i = 0; i < extra; i++) out.push(items ? items.sample(r) : randomValue(r, 1));
      }
      if (contains && r.chance(0.7)) {
        const at = itemsFalse ? Math.min(out.length, prefix.length - 1) : out.length;
        out.splice(Math.max(0, at), itemsFalse ? 1 : 0, contains.sample(r));
      }
      return out;
    },
  };
};

/** `v` with 0/1 and false/true swapped at every depth. */
function lookAlike(v: Json): Json {
  if (v === 0 || v === 1) return v === 1;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (Array.isArray(v)) return v.map(lookAlike);
  if (v !== null && typeof v === "object") {
    return obj(Object.keys(v).map((k) => [k, lookAlike(v[k] as Json)]));
  }
  return v;
}

/** uniqueItems over small pools of look-alike items: 1, 1.0, true, [1], [true], {"a": 0}, ... */
const uniqueItemsGen: Maker = (rng) => {
  const base = [
    rng.pick<Json>([0, 1, true, false, 1.5]),
    ...(rng.chance(0.3) ? [rng.pick<Json>([0, "a"])] : []),
  ];
  const pool: Json[] = [base, lookAlike(base), equalityValue(rng, 1)];
  if (rng.chance(0.5)) pool.push(rng.pick<Json>([1, true, 0, false]));
  const entries: [string, Json][] = [["uniqueItems", true]];
  if (rng.chance(0.3)) entries.push(["items", obj([["type", ["array", "number", "boolean"]]])]);
  if (rng.chance(0.3)) entries.push(["maxItems", 3 + rng.int(3)]);
  return {
    schema: obj(entries),
    sample: (r) => Array.from({ length: 1 + r.int(5) }, () => clone(r.pick(pool))),
  };
};

const PROPERTY_PATTERNS = ["^a", "😀", "^_", "^[b-c]", "e\u0301"];

const objectGen: Maker = (rng, depth) => {
  const entries: [string, Json][] = [];
  if (rng.chance(0.5)) entries.push(["type", "object"]);
  const props: [string, Gen][] = [];
  if (rng.chance(0.7)) {
    const n = 1 + rng.int(3);
    for (let i = 0; i < n; i++) {
      const k = rng.pick(KEYS);
      if (!props.some(([p]) => p === k)) props.push([k, sub(rng, depth - 1)]);
    }
    entries.push(["properties", obj(props.map(([k, g]) => [k, g.schema]))]);
  }
  const patterns: [string, Gen][] = [];
  if (rng.chance(0.25)) {
    const p = rng.pick(PROPERTY_PATTERNS);
    patterns.push([p, leaf(rng, 0)]);
    entries.push(["patternProperties", obj(patterns.map(([k, g]) => [k, g.schema]))]);
  }
  let additional: Gen | undefined;
  let additionalFalse = false;
  if (rng.chance(0.3)) {
    if (rng.chance(0.4)) {
      additionalFalse = true;
      entries.push(["additionalProperties", false]);
    } else {
      additional = leaf(rng, 0);
      entries.push(["additionalProperties", additional.schema]);
    }
  }
  const names = props.map(([k]) => k);
  const required: string[] = [];
  if (rng.chance(0.4)) {
    for (const k of [...names, rng.pick(KEYS)]) {
      if (rng.chance(0.6) && !required.includes(k)) required.push(k);
    }
    entries.push(["required", required]);
  }
  const depReq: [string, string[]][] = [];
  if (rng.chance(0.2)) {
    depReq.push([rng.pick(KEYS), [rng.pick(KEYS)]]);
    entries.push(["dependentRequired", obj(depReq.map(([k, v]) => [k, v]))]);
  }
  if (rng.chance(0.15)) {
    entries.push(["dependentSchemas", obj([[rng.pick(KEYS), objectLeaf(rng).schema]])]);
  }
  if (rng.chance(0.2)) {
    entries.push([
      "propertyNames",
      rng.pick<Json>([
        obj([["maxLength", 2]]),
        obj([["minLength", 1]]),
        obj([["pattern", "^[a-z]"]]),
        obj([["enum", ["a", "b", "__proto__"]]]),
      ]),
    ]);
  }
  if (rng.chance(0.2)) entries.push(["minProperties", rng.int(3)]);
  if (rng.chance(0.2)) entries.push(["maxProperties", 1 + rng.int(3)]);
  return {
    schema: obj(entries),
    sample: (r) => {
      const out: [string, Json][] = [];
      const has = (k: string) => out.some(([p]) => p === k);
      for (const [k, g] of props) {
        if (required.includes(k) || r.chance(0.7)) out.push([k, g.sample(r)]);
      }
      for (const k of required) if (!has(k)) out.push([k, randomValue(r, 1)]);
      for (const [k, deps] of depReq) {
        if (has(k)) { for (const d of deps) if (!has(d)) out.push([d, randomValue(r, 1)]); }
      }
      if (patterns.length > 0 && r.chance(0.5)) {
        const [p, g] = r.pick(patterns);
        const k = p.replace(/^\^/, "").replace(/\[b-c\]/, "b") + r.pick(["", "x"]);
        if (!has(k)) out.push([k, g.sample(r)]);
      }
      if (!additionalFalse && r.chance(0.4)) {
        const k = r.pick(KEYS);
        if (!has(k)) out.push([k, additional ? additional.sample(r) : randomValue(r, 1)]);
      }
      return obj(out);
    },
  };
};

/** A small object schema: for dependentSchemas, unevaluated* branches and combinators. */
function objectLeaf(rng: Rng): Gen {
  const k = rng.pick(KEYS);
  const g = leaf(rng, 0);
  const entries: [string, Json][] = [["properties", obj([[k, g.schema]])]];
  if (rng.chance(0.4)) entries.push(["required", [k]]);
  return {
    schema: obj(entries),
    sample: (r) => (r.chance(0.8) ? obj([[k, g.sample(r)]]) : obj([])),
  };
}

const combinatorGen: Maker = (rng, depth) => {
  const base = rng.pick([numberGen, stringGen, leaf, objectLeafMaker, arrayGen]);
  const a = base(rng, depth - 1), b = base(rng, depth - 1), c = base(rng, depth - 1);
  switch (rng.int(6)) {
    case 0:
      return { schema: obj([["allOf", [a.schema, b.schema]]]), sample: a.sample };
    case 1:
      return {
        schema: obj([["anyOf", [a.schema, b.schema, c.schema]]]),
        sample: (r) => r.pick([a, b, c]).sample(r),
      };
    case 2:
      return {
        schema: obj([["oneOf", [a.schema, b.schema]]]),
        sample: (r) => r.pick([a, b]).sample(r),
      };
    case 3:
      return { schema: obj([["not", a.schema]]), sample: (r) => r.pick([a, b]).sample(r) };
    default: {
      const entries: [string, Json][] = [["if", a.schema]];
      if (rng.chance(0.8)) entries.push(["then", b.schema]);
      if (rng.chance(0.7)) entries.push(["else", c.schema]);
      return {
        schema: obj(entries),
        sample: (r) => (r.chance(0.5) ? b.sample(r) : r.pick([a, c]).sample(r)),
      };
    }
  }
};

const objectLeafMaker: Maker = (rng) => objectLeaf(rng);

// ------------------------------------------------------------------ $ref, $anchor, $dynamicRef

const refGen: Maker = (rng, depth) => {
  const value = leaf(rng, 0);
  switch (rng.int(5)) {
    case 0: {
      // A tree through $defs.
      const maxKids = rng.chance(0.5) ? [["maxItems", 2] as [string, Json]] : [];
      const node = obj([
        ["type", "object"],
        [
          "properties",
          obj([
            ["value", value.schema],
            [
              "children",
              obj([["type", "array"], ["items", obj([["$ref", "#/$defs/node"]])], ...maxKids]),
            ],
          ]),
        ],
        ["required", ["value"]],
        ...(rng.chance(0.4) ? [["additionalProperties", false] as [string, Json]] : []),
      ]);
      const tree = (r: Rng, d: number): Json => {
        const kids: Json[] = [];
        const n = d <= 0 ? 0 : r.int(3);
        for (let i = 0; i < n; i++) kids.push(tree(r, d - 1));
        return obj([
          ["value", value.sample(r)],
          ...(n > 0 || r.chance(0.3) ? [["children", kids] as [string, Json]] : []),
        ]);
      };
      return {
        schema: obj([["$defs", obj([["node", node]])], ["$ref", "#/$defs/node"]]),
        sample: (r) => tree(r, 3),
      };
    }
    case 1: {
      // A linked list through the root.
      const schema = obj([
        ["type", ["object", "null"]],
        ["properties", obj([["head", value.schema], ["next", obj([["$ref", "#"]])]])],
        ["required", ["head"]],
      ]);
      const list = (r: Rng, n: number): Json =>
        n === 0 ? null : obj([["head", value.sample(r)], ["next", list(r, n - 1)]]);
      return { schema, sample: (r) => list(r, r.int(4)) };
    }
    case 2: {
      // $defs names that need JSON-pointer escaping and percent-encoding.
      const [name, pointer] = rng.pick([
        ["a/b", "#/$defs/a~1b"],
        ["t~x", "#/$defs/t~0x"],
        ["a b", "#/$defs/a%20b"],
        ["plain", "#/$defs/plain"],
      ] as [string, string][]);
      const other = sub(rng, depth - 1);
      return {
        schema: obj([
          ["$defs", obj([[name, value.schema]])],
          ["properties", obj([["a", obj([["$ref", pointer]])], ["b", other.schema]])],
          ["required", ["a"]],
        ]),
        sample: (r) =>
          obj([
            ["a", value.sample(r)],
            ...(r.chance(0.5) ? [["b", other.sample(r)] as [string, Json]] : []),
          ]),
      };
    }
    case 3: {
      // $ref with sibling keywords, to a boolean schema or to a $defs entry.
      const target = rng.chance(0.3) ? booleanGen(rng, 0) : value;
      const sibling = leaf(rng, 0);
      return {
        schema: obj([
          ["$defs", obj([["t", target.schema]])],
          ["$ref", "#/$defs/t"],
          ...Object.entries(sibling.schema as object) as [string, Json][],
        ]),
        sample: (r) => (r.chance(0.5) ? target.sample(r) : sibling.sample(r)),
      };
    }
    default: {
      // $anchor.
      const anchor = rng.pick(["pos", "Item_1", "a-b.c"]);
      return {
        schema: obj([
          [
            "$defs",
            obj([[
              "x",
              obj([
                ["$anchor", anchor],
                ...Object.entries(value.schema as object) as [string, Json][],
              ]),
            ]]),
          ],
          ["type", "array"],
          ["items", obj([["$ref", `#${anchor}`]])],
        ]),
        sample: (r) => Array.from({ length: r.int(4) }, () => value.sample(r)),
      };
    }
  }
};

// ------------------------------------------------------------------ JSON pointers in $ref

/** `$defs` names and a pointer token that spells each (RFC 6901 escapes, percent-encoding). */
const POINTER_NAMES: readonly [string, string][] = [
  ["a/b", "a~1b"],
  ["a/b", "a%7E1b"],
  ["t~x", "t~0x"],
  ["~1", "~01"],
  ["~", "~0"],
  ["a b", "a%20b"],
  ["100%", "100%25"],
  ["é", "%C3%A9"],
  ["ключ", "ключ"],
  ["y", "%79"],
  ["y", "y"],
];

/**
 * Array-index tokens that RFC 6901 section 4 does not allow (a leading zero, a sign, an
 * underscore, a space), for an array of three: none names an item, though Python's int() reads
 * each (-1 as the last item).
 */
const BAD_INDEXES = ["01", "00", "02", "+1", "-0", "-1", "-3", "0_1", "%201"];

/**
 * A `$ref` at the root whose fragment is a JSON pointer into `$defs`: names that need `~0`, `~1`
 * or percent-encoding, a `%2F` between tokens, empty tokens (inner, trailing, leading) and array
 * indexes, canonical or not (leading zeros, signs). About a third of the pointers name no value
 * (a trailing empty token after a schema without a "" key, a leading empty token, a
 * non-canonical index), so that Assay refuses the schema; the `$ref` (or a `not` around it) is
 * the first keyword, so that a validator meets it on every instance.
 */
const pointerGen: Maker = (rng) => {
  const [name, token] = rng.pick(POINTER_NAMES);
  // No enum among the targets: its bug (enum-bool-number-in-container) would compound with the
  // pointer bugs, and a disagreement is explained by one oracle fix at a time.
  const leaf = (r: Rng): Gen => r.pick([typeGen, constGen, numberGen, stringGen])(r, 0);
  const named = leaf(rng), inner = leaf(rng), empty = leaf(rng), emptyInner = leaf(rng);
  const items = [leaf(rng), leaf(rng), leaf(rng)];
  const defs = obj([
    [name, named.schema],
    [
      "",
      obj([
        ...Object.entries(empty.schema as object) as [string, Json][],
        ["$defs", obj([["y", inner.schema], ["", emptyInner.schema]])],
      ]),
    ],
    ["list", obj([["prefixItems", items.map((g) => g.schema)]])],
  ]);
  const i = rng.int(3);
  // 60% name a value as both sides read them, 15% end in an empty token that names a value (the
  // "" entries), 25% name no value.
  const u = rng.int(20);
  const [pointer, target]: [string, Gen] = u < 12
    ? rng.pick<[string, Gen]>([
      [`#/$defs/${token}`, named],
      [`#/$defs/${token}`, named],
      [`#/$defs%2F${token}`, named],
      ["#/$defs//$defs/y", inner],
      [`#/$defs/list/prefixItems/${rng.chance(0.7) ? `${i}` : `%3${i}`}`, items[i] as Gen],
    ])
    : u < 15
    ? rng.pick<[string, Gen]>([["#/$defs/", empty], ["#/$defs//$defs/", emptyInner]])
    : rng.pick<[string, Gen]>([
      [`#/$defs/${token}${rng.pick(["/", "//"])}`, named],
      ["#/$defs//", empty],
      [`#//$defs/${token}`, named],
      [`#/$defs/list/prefixItems/${rng.pick(BAD_INDEXES)}`, items[1] as Gen],
    ]);
  const ref = obj([["$ref", pointer]]);
  const negate = rng.chance(0.2);
  return {
    schema: obj([negate ? ["not", ref] : ["$ref", pointer], ["$defs", defs]]),
    sample: (r) => target.sample(r),
  };
};

const dynamicGen: Maker = (rng) => {
  const value = leaf(rng, 0);
  const strict = rng.chance(0.5);
  switch (rng.int(5)) {
    case 3: {
      // A tree extended through the dynamic scope: the $dynamicRef in tree resolves to the
      // outermost resource with a "node" $dynamicAnchor, here the root (JSON-Schema-Test-Suite's
      // strict-tree, with a value constraint).
      const tree = obj([
        ["$id", "tree"],
        ["$dynamicAnchor", "node"],
        ["type", "object"],
        [
          "properties",
          obj([
            ["data", value.schema],
            ["children", obj([["type", "array"], ["items", obj([["$dynamicRef", "#node"]])]])],
          ]),
        ],
      ]);
      const schema = obj([
        ["$id", "https://assay.test/strict-tree"],
        ["$dynamicAnchor", "node"],
        ["$ref", "tree"],
        ["unevaluatedProperties", strict ? false : value.schema],
        ["$defs", obj([["tree", tree]])],
      ]);
      const node = (r: Rng, d: number): Json =>
        obj([
          [r.chance(0.9) ? "data" : "daat", value.sample(r)],
          ...(d > 0 && r.chance(0.6)
            ? [
              ["children", Array.from({ length: r.int(3) }, () => node(r, d - 1))] as [
                string,
                Json,
              ],
            ]
            : []),
        ]);
      return { schema, sample: (r) => node(r, 2) };
    }
    case 4: {
      // A generic list whose item type the root supplies through $dynamicAnchor "item"; the list
      // resource's own "item" anchor is only the default.
      const list = obj([
        ["$id", "list"],
        ["type", "array"],
        ["items", obj([["$dynamicRef", "#item"]])],
        ["$defs", obj([["default", obj([["$dynamicAnchor", "item"]])]])],
      ]);
      const schema = obj([
        ["$id", "https://assay.test/root"],
        ["$ref", "list"],
        [
          "$defs",
          obj([
            [
              "item",
              obj([
                ["$dynamicAnchor", "item"],
                ...Object.entries(value.schema as object) as [string, Json][],
              ]),
            ],
            ["list", list],
          ]),
        ],
      ]);
      return { schema, sample: (r) => Array.from({ length: r.int(4) }, () => value.sample(r)) };
    }
    case 0: {
      // A recursive tree through $dynamicRef within one resource (behaves like $ref).
      const schema = obj([
        ["$dynamicAnchor", "node"],
        ["type", "object"],
        [
          "properties",
          obj([
            ["v", value.schema],
            ["kids", obj([["type", "array"], ["items", obj([["$dynamicRef", "#node"]])]])],
          ]),
        ],
        ...(strict ? [["unevaluatedProperties", false] as [string, Json]] : []),
      ]);
      const tree = (r: Rng, d: number): Json =>
        obj([
          ["v", value.sample(r)],
          ...(d > 0 && r.chance(0.6)
            ? [["kids", Array.from({ length: r.int(3) }, () => tree(r, d - 1))] as [string, Json]]
            : []),
          ...(r.chance(0.15) ? [["extra", 1] as [string, Json]] : []),
        ]);
      return { schema, sample: (r) => tree(r, 3) };
    }
    case 1: {
      // $dynamicRef to a $defs entry with a $dynamicAnchor, properties collected through it.
      const schema = obj([
        [
          "$defs",
          obj([["p", obj([["$dynamicAnchor", "p"], ["properties", obj([["a", value.schema]])]])]]),
        ],
        ["$dynamicRef", "#p"],
        ...(strict ? [["unevaluatedProperties", false] as [string, Json]] : []),
      ]);
      return {
        schema,
        sample: (r) =>
          obj([["a", value.sample(r)], ...(r.chance(0.3) ? [["b", 1] as [string, Json]] : [])]),
      };
    }
    default: {
      // $dynamicRef to an $anchor (not dynamic): behaves like $ref.
      const schema = obj([
        [
          "$defs",
          obj([[
            "i",
            obj([
              ["$anchor", "item"],
              ...Object.entries(value.schema as object) as [string, Json][],
            ]),
          ]]),
        ],
        ["type", "array"],
        ["items", obj([["$dynamicRef", "#item"]])],
      ]);
      return { schema, sample: (r) => Array.from({ length: r.int(4) }, () => value.sample(r)) };
    }
  }
};

// ------------------------------------------------------------------ unevaluated*

const unevaluatedPropertiesGen: Maker = (rng) => {
  const own = objectLeaf(rng), other = objectLeaf(rng);
  const entries: [string, Json][] = [["type", "object"], [
    "properties",
    (own.schema as { properties: Json }).properties,
  ]];
  const parts: Gen[] = [own];
  switch (rng.int(7)) {
    case 0:
      entries.push(["allOf", [other.schema]]);
      parts.push(other);
      break;
    case 1:
      entries.push(["anyOf", [other.schema, objectLeaf(rng).schema]]);
      parts.push(other);
      break;
    case 2:
      entries.push(["if", obj([["required", [rng.pick(KEYS)]]])], ["then", other.schema], [
        "else",
        objectLeaf(rng).schema,
      ]);
      parts.push(other);
      break;
    case 3:
      entries.push(["$defs", obj([["o", other.schema]])], ["$ref", "#/$defs/o"]);
      parts.push(other);
      break;
    case 4:
      entries.push(["dependentSchemas", obj([[rng.pick(KEYS), other.schema]])]);
      parts.push(other);
      break;
    case 5: {
      const g = leaf(rng, 0);
      entries.push(["patternProperties", obj([[rng.pick(PROPERTY_PATTERNS), g.schema]])]);
      break;
    }
    default: {
      // additionalProperties given as a schema, or a nested unevaluatedProperties.
      const g = leaf(rng, 0);
      if (rng.chance(0.6)) entries.push(["additionalProperties", g.schema]);
      else entries.push(["allOf", [obj([["unevaluatedProperties", g.schema]])]]);
      parts.push({ schema: null, sample: (r) => obj([[r.pick(KEYS), g.sample(r)]]) });
    }
  }
  const uneval = rng.chance(0.6) ? false : leaf(rng, 0);
  entries.push(["unevaluatedProperties", typeof uneval === "boolean" ? uneval : uneval.schema]);
  return {
    schema: obj(entries),
    sample: (r) => {
      const out: [string, Json][] = [];
      for (const p of parts) {
        for (const [k, v] of Object.entries(p.sample(r) as object) as [string, Json][]) {
          if (!out.some(([q]) => q === k)) out.push([k, v]);
        }
      }
      if (r.chance(0.3)) {
        const k = r.pick(KEYS);
        if (!out.some(([q]) => q === k)) {
          out.push([k, typeof uneval === "boolean" ? 1 : uneval.sample(r)]);
        }
      }
      return obj(out);
    },
  };
};

const unevaluatedItemsGen: Maker = (rng) => {
  const a = leaf(rng, 0), b = leaf(rng, 0);
  const entries: [string, Json][] = [["type", "array"]];
  let covered: Gen[] = [a];
  switch (rng.int(5)) {
    case 0:
      entries.push(["prefixItems", [a.schema]], ["allOf", [
        obj([["prefixItems", [true, b.schema]]]),
      ]]);
      covered = [a, b];
      break;
    case 1:
      entries.push(["prefixItems", [a.schema]], ["contains", b.schema]);
      covered = [a, b, b];
      break;
    case 2:
      entries.push(["if", obj([["prefixItems", [a.schema]]])], [
        "then",
        obj([["prefixItems", [true, b.schema]]]),
      ]);
      covered = [a, b];
      break;
    case 3:
      entries.push(["$defs", obj([["p", obj([["prefixItems", [a.schema, b.schema]]])]])], [
        "$ref",
        "#/$defs/p",
      ]);
      covered = [a, b];
      break;
    default:
      entries.push(["anyOf", [obj([["prefixItems", [a.schema]]]), obj([["items", b.schema]])]]);
      covered = [a];
  }
  const uneval = rng.chance(0.6) ? false : leaf(rng, 0);
  entries.push(["unevaluatedItems", typeof uneval === "boolean" ? uneval : uneval.schema]);
  return {
    schema: obj(entries),
    sample: (r) => {
      const out = covered.slice(0, 1 + r.int(covered.length)).map((g) => g.sample(r));
      if (r.chance(0.3)) out.push(typeof uneval === "boolean" ? 1 : uneval.sample(r));
      return out;
    },
  };
};

/** The top-level families and their weights. */
export const FAMILIES: readonly [string, Maker, number][] = [
  ["type", typeGen, 5],
  ["const", constGen, 6],
  ["enum", enumGen, 6],
  ["number", numberGen, 8],
  ["string", stringGen, 8],
  ["array", arrayGen, 10],
  ["uniqueItems", uniqueItemsGen, 3],
  ["object", objectGen, 11],
  ["combinator", combinatorGen, 10],
  ["boolean", booleanGen, 1],
  ["ref", refGen, 8],
  ["dynamic", dynamicGen, 4],
  ["pointer", pointerGen, 3],
  ["unevaluatedProperties", unevaluatedPropertiesGen, 8],
  ["unevaluatedItems", unevaluatedItemsGen, 6],
];

// ------------------------------------------------------------------ mutations

function mutateHere(rng: Rng, v: Json): Json {
  if (typeof v === "number") {
    if (v === 1 && rng.chance(0.4)) return true;
    if (v === 0 && rng.chance(0.4)) return false;
    return rng.pick([v + 1, v - 1, -v, v + 0.5, v + 0.01, v / 10, v * 2, 0, -0, 1e-7]);
  }
  if (typeof v === "boolean") return rng.chance(0.5) ? (v ? 1 : 0) : !v;
  if (typeof v === "string") {
    const cps = [...v];
    switch (rng.int(4)) {
      case 0:
        return v + rng.pick(STRING_UNITS);
      case 1:
        return cps.slice(0, -1).join("");
      case 2:
        return rng.pick(STRING_UNITS) + v;
      default:
        return rng.chance(0.5) ? "" : v.toUpperCase();
    }
  }
  if (Array.isArray(v)) {
    const out = v.slice();
    switch (rng.int(5)) {
      case 0:
        if (out.length > 0) out.splice(rng.int(out.length), 1);
        return out;
      case 1:
        if (out.length > 0) {
          out.splice(rng.int(out.length + 1), 0, clone(out[rng.int(out.length)] as Json));
        }
        return out;
      case 2:
        out.push(rng.chance(0.5) ? equalityValue(rng, 1) : randomValue(rng, 1));
        return out;
      case 3:
        return out.reverse();
      default:
        return rng.chance(0.5) ? [] : [out];
    }
  }
  if (v !== null && typeof v === "object") {
    const entries = Object.keys(v).map((k): [string, Json] => [k, v[k] as Json]);
    switch (rng.int(4)) {
      case 0:
        if (entries.length > 0) entries.splice(rng.int(entries.length), 1);
        return obj(entries);
      case 1: {
        const k = rng.pick(KEYS);
        if (!(Object.hasOwn(v, k))) entries.push([k, randomValue(rng, 1)]);
        return obj(entries);
      }
      case 2:
        if (entries.length > 0) {
          const i = rng.int(entries.length);
          const k = rng.pick(KEYS);
          if (!Object.hasOwn(v, k)) entries[i] = [k, (entries[i] as [string, Json])[1]];
        }
        return obj(entries);
      default:
        return rng.chance(0.5) ? obj([]) : rng.pick([[], "", 0, null]);
    }
  }
  return randomValue(rng, 1);
}

/** A mutation of `v`: one change at a random place inside it. */
export function mutate(rng: Rng, v: Json): Json {
  if (Array.isArray(v) && v.length > 0 && rng.chance(0.55)) {
    const out = v.slice();
    const i = rng.int(out.length);
    out[i] = mutate(rng, out[i] as Json);
    return out;
  }
  if (v !== null && typeof v === "object" && !Array.isArray(v) && rng.chance(0.55)) {
    const keys = Object.keys(v);
    if (keys.length > 0) {
      const k = rng.pick(keys);
      return obj(
        keys.map((q): [string, Json] => [q, q === k ? mutate(rng, v[q] as Json) : v[q] as Json]),
      );
    }
  }
  return mutateHere(rng, v);
}

/** Generates `options.schemas` schemas with `options.instancesPerSchema` instances each. */
export function generateSchemaCorpus(rng: Rng, options: SchemaCorpusOptions): SchemaCase[] {
  const families = FAMILIES.filter((f) => options.pointers === true || f[0] !== "pointer");
  const total = families.reduce((s, f) => s + f[2], 0);
  const out: SchemaCase[] = [];
  for (let i = 0; i < options.schemas; i++) {
    let r = rng.int(total);
    let fam = families[0] as (typeof FAMILIES)[number];
    for (const f of families) {
      if (r < f[2]) {
        fam = f;
        break;
      }
      r -= f[2];
    }
    const gen = fam[1](rng, 2);
    const instances: Json[] = [];
    for (let j = 0; j < options.instancesPerSchema; j++) {
      const base = gen.sample(rng);
      const k = rng.int(10);
      instances.push(k < 4 ? base : k < 8 ? mutate(rng, base) : mutate(rng, mutate(rng, base)));
    }
    out.push({ family: fam[0], schema: gen.schema, instances });
  }
  return out;
}

// ------------------------------------------------------------------ JSON text for Python

/**
 * JSON text of `v` for the Python oracle: like JSON.stringify, but -0 is written `-0.0` and, with
 * probability `floatRate`, a safe integer is written `N.0` (a Python float). Only data gets the
 * float spelling: instances, and the values of `const` and `enum` when `schema` is true.
 */
export function pythonJson(v: Json, rng: Rng, floatRate: number, schema = false): string {
  const data = (x: Json): string => write(x, true);
  const write = (x: Json, isData: boolean): string => {
    if (typeof x === "number") {
      if (!isData) {
        return Number.isInteger(x) && Math.abs(x) < 1e21 ? BigInt(x).toString() : JSON.stringify(x);
      }
      if (Object.is(x, -0)) return "-0.0";
      if (Number.isSafeInteger(x) && rng.chance(floatRate)) return `${x}.0`;
      // An integral double below 1e21 as its exact integer (JSON.stringify may round the digits).
      if (Number.isInteger(x) && Math.abs(x) < 1e21) return BigInt(x).toString();
      return JSON.stringify(x);
    }
    if (Array.isArray(x)) return `[${x.map((e) => write(e, isData)).join(",")}]`;
    if (x !== null && typeof x === "object") {
      const parts = Object.keys(x).map((k) => {
        const val = x[k] as Json;
        const text = !isData && (k === "const" || k === "enum") ? data(val) : write(val, isData);
        return `${JSON.stringify(k)}:${text}`;
      });
      return `{${parts.join(",")}}`;
    }
    return JSON.stringify(x);
  };
  return write(v, !schema);
}
