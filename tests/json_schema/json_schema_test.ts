// compileSchema(): errors as data, SchemaError with locations, cycles, deep nesting, `__proto__`,
// formatAssertion, code-point lengths, numeric exactness and JSON equality. The official suite is in
// json_schema_suite_test.ts, the differential test against Python in json_schema_python_diff_test.ts.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  type CompiledSchema,
  compileSchema,
  SchemaError,
  SUPPORTED_KEYWORDS,
} from "../../src/json_schema/mod.ts";
import { makeRng } from "../_corpus.ts";

function schemaError(f: () => unknown, keyword: string | undefined, location: string): void {
  throws(f, (e: unknown) => {
    ok(e instanceof SchemaError, `expected a SchemaError, got ${e}`);
    strictEqual(e.name, "SchemaError");
    strictEqual(e.keyword, keyword);
    strictEqual(e.schemaLocation, location);
    return true;
  });
}

Deno.test("compileSchema() returns every error as data with keyword and instance locations", () => {
  const s = compileSchema({
    $defs: { positive: { type: "integer", minimum: 1 } },
    type: "object",
    properties: {
      n: { $ref: "#/$defs/positive" },
      tags: { type: "array", items: { type: "string", maxLength: 3 } },
      "a/b~c": { const: 1 },
      id: { type: "integer" },
    },
    required: ["n", "id"],
    additionalProperties: false,
  });
  const r = s.validate({ n: 0, tags: ["ok", "toolong", 5], "a/b~c": 2, extra: null });
  strictEqual(r.valid, false);
  deepStrictEqual(r.errors, [
    {
      keywordLocation: "/required",
      instanceLocation: "",
      message: 'Missing required property "id"',
    },
    {
      keywordLocation: "/properties/n/$ref/minimum",
      instanceLocation: "/n",
      message: "0 is less than the minimum 1",
    },
    {
      keywordLocation: "/properties/tags/items/maxLength",
      instanceLocation: "/tags/1",
      message: "String is longer than 3 characters",
    },
    {
      keywordLocation: "/properties/tags/items/type",
      instanceLocation: "/tags/2",
      message: "Expected string, got integer",
    },
    {
      keywordLocation: "/properties/a~1b~0c/const",
      instanceLocation: "/a~1b~0c",
      message: "Expected the constant 1",
    },
    {
      keywordLocation: "/additionalProperties",
      instanceLocation: "/extra",
      message: "The false schema rejects every value",
    },
  ]);
  strictEqual(s.isValid({ n: 0 }), false);
  deepStrictEqual(s.validate({ n: 3, id: 1 }), { valid: true, errors: [] });
  strictEqual(s.isValid({ n: 3, id: 1 }), true);
});

Deno.test("compileSchema() names what an enum or a const allows, objects and arrays included, cut short", () => {
  const message = (schema: object, x: unknown) =>
    compileSchema(schema).validate(x).errors[0]!.message;
  strictEqual(message({ enum: ["red", "green"] }, "blue"), 'Expected one of ["red","green"]');
  strictEqual(message({ const: { a: [1, null] } }, {}), 'Expected the constant {"a":[1,null]}');
  strictEqual(
    message({ enum: [Array.from({ length: 30 }, (_, i) => i)] }, 1),
    "Expected one of [[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21...",
  );
});

Deno.test("compileSchema() reports anyOf/oneOf/not failures and their branches", () => {
  const s = compileSchema({ anyOf: [{ type: "string" }, { type: "null" }] });
  deepStrictEqual(s.validate(1).errors.map((e) => e.keywordLocation), [
    "/anyOf/0/type",
    "/anyOf/1/type",
    "/anyOf",
  ]);
  const one = compileSchema({ oneOf: [{ type: "integer" }, { minimum: 0 }] });
  deepStrictEqual(one.validate(1).errors, [
    {
      keywordLocation: "/oneOf",
      instanceLocation: "",
      message: "Value matches both subschemas 0 and 1",
    },
  ]);
  deepStrictEqual(compileSchema({ not: { type: "null" } }).validate(null).errors, [
    {
      keywordLocation: "/not",
      instanceLocation: "",
      message: "Value must not match the subschema of not",
    },
  ]);
});

Deno.test("compileSchema() throws SchemaError naming an unknown keyword and its location", () => {
  schemaError(
    () => compileSchema({ properties: { a: { minimun: 1 } } }),
    "minimun",
    "/properties/a/minimun",
  );
  // Draft 2019-09's array form of `items` is not a schema in 2020-12.
  schemaError(() => compileSchema({ items: [{ type: "string" }] }), "items", "/items");
  // Unreachable subschemas are not compiled.
  compileSchema({ $defs: { unused: { nonsense: true } }, type: "string" });
  // A reachable one is.
  schemaError(
    () => compileSchema({ $defs: { used: { nonsense: true } }, $ref: "#/$defs/used" }),
    "nonsense",
    "/$defs/used/nonsense",
  );
  const lax = compileSchema({ minimun: 1, type: "integer" }, { unknownKeywords: "ignore" });
  strictEqual(lax.isValid(0), true);
  strictEqual(lax.isValid("0"), false);
  for (const k of ["$comment", "title", "description", "default", "examples", "deprecated"]) {
    ok(SUPPORTED_KEYWORDS.includes(k), k);
  }
  compileSchema({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $vocabulary: { "https://json-schema.org/draft/2020-12/vocab/core": true },
    $comment: "x",
    title: "t",
    description: "d",
    default: 1,
    examples: [1],
    deprecated: false,
    readOnly: true,
    writeOnly: false,
    contentEncoding: "base64",
    contentMediaType: "application/json",
    contentSchema: { type: "object" },
  });
});

Deno.test("compileSchema() throws SchemaError for malformed schemas", () => {
  schemaError(
    () => compileSchema({ $schema: "http://json-schema.org/draft-07/schema#" }),
    "$schema",
    "/$schema",
  );
  schemaError(() => compileSchema({ pattern: "(" }), "pattern", "/pattern");
  schemaError(() => compileSchema({ $ref: "#/$defs/missing" }), "$ref", "/$ref");
  schemaError(() => compileSchema({ $ref: "other.json" }), "$ref", "/$ref");
  schemaError(() => compileSchema({ minLength: -1 }), "minLength", "/minLength");
  schemaError(() => compileSchema({ type: "text" }), "type", "/type");
  schemaError(() => compileSchema({ properties: { a: 3 } }), "properties", "/properties/a");
  throws(() => compileSchema(true, { unknownKeywords: "warn" as "error" }), TypeError);
  throws(() => compileSchema(true, { formatAssertion: 1 as unknown as boolean }), TypeError);
});

Deno.test("compileSchema() refuses what the 2020-12 metaschema refuses, naming the keyword and its place", () => {
  for (
    const [schema, keyword, location] of [
      [{ title: 5 }, "title", "/title"],
      [{ deprecated: "yes" }, "deprecated", "/deprecated"],
      [{ examples: 5 }, "examples", "/examples"],
      [{ contentMediaType: 5 }, "contentMediaType", "/contentMediaType"],
      [{ $vocabulary: 5 }, "$vocabulary", "/$vocabulary"],
      [{ $id: "#frag" }, "$id", "/$id"],
      [{ $anchor: "a#b" }, "$anchor", "/$anchor"],
      [{ $anchor: "ä", $ref: "#ä" }, "$anchor", "/$anchor"],
      [{ $dynamicAnchor: "ä" }, "$dynamicAnchor", "/$dynamicAnchor"],
      [{ required: ["a", "a"] }, "required", "/required"],
      [{ type: ["string", "string"] }, "type", "/type"],
      [{ contentSchema: 5 }, "contentSchema", "/contentSchema"],
      [{ properties: { "a/b": { writeOnly: 1 } } }, "writeOnly", "/properties/a~1b/writeOnly"],
      // A $defs entry nothing references is checked too, as Python's check_schema checks it.
      [{ $defs: { unused: { minLength: -1 } } }, "minLength", "/$defs/unused/minLength"],
      [
        { $defs: { unused: { dependentRequired: { a: [1] } } } },
        "dependentRequired",
        "/$defs/unused/dependentRequired/a/0",
      ],
    ] as const
  ) schemaError(() => compileSchema(schema), keyword, location);
  throws(() => compileSchema({ title: 5 }), {
    message:
      'The value of title is not what the draft 2020-12 metaschema allows: Expected string, got integer at "/title"',
  });
  // The keyword builders still speak first for what they check.
  schemaError(() => compileSchema({ $comment: 5 }), "$comment", "/$comment");
  // What the metaschema allows still compiles, unknown keywords ignored included.
  compileSchema({
    title: "t",
    deprecated: true,
    examples: [1],
    $vocabulary: { "https://e.x/v": true },
  });
  compileSchema({
    $id: "https://e.x/s#",
    $anchor: "Ab_1.-",
    required: ["a", "b"],
    type: ["string", "null"],
  });
  compileSchema({ x: { title: 5 } }, { unknownKeywords: "ignore" });
});

Deno.test("compileSchema() terminates on $ref cycles and caps the depth with a verdict", () => {
  const self = compileSchema({ $ref: "#" });
  strictEqual(self.isValid(1), false);
  const r = self.validate(1);
  strictEqual(r.valid, false);
  ok(/maximum depth/.test(r.errors[0]!.message));
  const mutual = compileSchema({
    $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } },
    $ref: "#/$defs/a",
  });
  strictEqual(mutual.isValid(null), false);
  // A recursive schema over an ordinary instance is fine.
  const tree = compileSchema({
    type: "object",
    properties: { children: { type: "array", items: { $ref: "#" } }, v: { type: "integer" } },
  });
  strictEqual(tree.isValid({ v: 1, children: [{ v: 2, children: [] }, { v: 3 }] }), true);
  strictEqual(tree.isValid({ v: 1, children: [{ v: "2" }] }), false);
});

Deno.test("compileSchema() keeps the depth cap's invalid verdict under not, if and anyOf", () => {
  // The instance sets the depth, so a model's output must not turn the cap into a pass.
  let deep: unknown = 0;
  for (let i = 0; i < 1200; i++) deep = [deep];
  const nest = { items: { $ref: "#/$defs/nest" } };
  const capped = (s: CompiledSchema, x: unknown) => {
    strictEqual(s.isValid(x), false);
    const r = s.validate(x);
    strictEqual(r.valid, false);
    strictEqual(r.errors.length, 1);
    strictEqual(
      r.errors[0]!.message,
      "Validation exceeds the maximum depth of 1000 nested subschemas",
    );
  };
  const never = compileSchema({ $defs: { nest }, not: { $ref: "#/$defs/nest" } });
  strictEqual(never.isValid([[0]]), false);
  capped(never, deep);
  for (
    const schema of [
      { not: { $ref: "#" } },
      { if: { $ref: "#" }, then: false },
      { $defs: { nest }, anyOf: [{ $ref: "#/$defs/nest" }, true] },
      { $defs: { nest }, oneOf: [{ $ref: "#/$defs/nest" }, true] },
      { $defs: { nest }, contains: { not: { $ref: "#/$defs/nest" } } },
      { $defs: { nest }, not: { not: { not: { $ref: "#/$defs/nest" } } } },
    ]
  ) capped(compileSchema(schema), [deep]);
  // 2001 nested `not` around true: invalid at any depth, and the cap must not say otherwise.
  let nots: unknown = true;
  for (let i = 0; i < 2001; i++) nots = { not: nots };
  capped(compileSchema(nots), 1);
  // The cap's error keeps the path where it is built.
  const r = compileSchema({ $defs: { nest }, $ref: "#/$defs/nest" }).validate(deep);
  ok(r.errors[0]!.keywordLocation.startsWith("/$ref/items/$ref/items/"));
  ok(r.errors[0]!.instanceLocation.startsWith("/0/0/0/"));
});

Deno.test("compileSchema() handles 10^6-deep instances and 10^5-deep schemas without a stack overflow", () => {
  let deep: unknown = [];
  for (let i = 0; i < 1_000_000; i++) deep = [deep];
  for (
    const schema of [
      { items: { $ref: "#" } },
      { anyOf: [{ items: { $ref: "#" } }], unevaluatedItems: false },
      { $defs: { a: { $dynamicAnchor: "x", items: { $dynamicRef: "#x" } } }, $ref: "#/$defs/a" },
      { uniqueItems: true, contains: { $ref: "#" } },
    ]
  ) {
    const s = compileSchema(schema);
    strictEqual(s.isValid(deep), false);
    const r = s.validate(deep);
    strictEqual(r.valid, false);
    ok(r.errors.length > 0);
  }
  ok(
    /maximum depth of 1000/.test(
      compileSchema({ items: { $ref: "#" } }).validate(deep).errors[0]!.message,
    ),
  );
  strictEqual(compileSchema({ type: "array" }).isValid(deep), true);
  strictEqual(compileSchema({ const: [[]] }).isValid(deep), false);
  let schema: unknown = { type: "integer" };
  for (let i = 0; i < 100_000; i++) schema = { type: "array", items: schema };
  const s = compileSchema(schema);
  strictEqual(s.isValid([[[]]]), true);
  strictEqual(s.isValid([[1]]), false);
  strictEqual(s.isValid(deep), false);
  const nest = (leaf: unknown) => {
    let v = leaf;
    for (let i = 0; i < 100_000; i++) v = { a: v };
    return v;
  };
  strictEqual(compileSchema({ const: nest(1) }).isValid(nest(1)), true);
  strictEqual(compileSchema({ const: nest(1) }).isValid(nest(2)), false);
  strictEqual(compileSchema({ uniqueItems: true }).isValid([nest(1), nest(1)]), false);
  strictEqual(compileSchema({ uniqueItems: true }).isValid([nest(1), nest(2)]), true);
});

Deno.test("compileSchema() treats __proto__ as an ordinary own property", () => {
  const inst = JSON.parse('{"__proto__": 1, "constructor": "x"}');
  // `{ __proto__: ... }` in a literal sets the prototype; build the schema from JSON instead.
  const t = compileSchema(JSON.parse(
    '{"properties":{"__proto__":{"type":"string"}},"required":["__proto__","toString"]}',
  ));
  deepStrictEqual(t.validate(inst).errors.map((e) => e.keywordLocation), [
    "/required",
    "/properties/__proto__/type",
  ]);
  strictEqual(t.isValid({}), false);
  const closed = compileSchema({ additionalProperties: false });
  strictEqual(closed.isValid(inst), false);
  strictEqual(closed.isValid({}), true);
  strictEqual(
    compileSchema({ const: inst }).isValid(JSON.parse('{"constructor":"x","__proto__":1}')),
    true,
  );
  strictEqual(compileSchema({ const: inst }).isValid({ constructor: "x" }), false);
  strictEqual(
    compileSchema(JSON.parse('{"dependentRequired":{"__proto__":["a"]}}')).isValid(inst),
    false,
  );
});

Deno.test("compileSchema() asserts format only with formatAssertion: true", () => {
  const schema = { type: "string", format: "date" };
  strictEqual(compileSchema(schema).isValid("2024-02-30"), true);
  const strict = compileSchema(schema, { formatAssertion: true });
  strictEqual(strict.isValid("2024-02-29"), true);
  strictEqual(strict.isValid("2023-02-29"), false);
  strictEqual(strict.isValid(20240229), false); // the type, not the format
  deepStrictEqual(strict.validate("31/12/2024").errors, [
    { keywordLocation: "/format", instanceLocation: "", message: "String is not a valid date" },
  ]);
  // Unknown formats are annotations either way.
  strictEqual(
    compileSchema({ format: "flight-number" }, { formatAssertion: true }).isValid("x"),
    true,
  );
  const f = (format: string, s: string) =>
    compileSchema({ format }, { formatAssertion: true }).isValid(s);
  ok(f("date-time", "2024-01-01T10:00:00Z") && !f("date-time", "2024-01-01 10:00"));
  ok(f("email", "a.b@example.com") && !f("email", "a..b@example.com"));
  ok(f("ipv4", "10.0.0.1") && !f("ipv4", "10.0.0.01"));
  ok(f("ipv6", "::1") && !f("ipv6", "1::2::3"));
  ok(f("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380") && !f("uuid", "2eb8aa08aa98"));
  ok(f("uri", "https://example.com/a?b#c") && !f("uri", "/relative"));
  ok(f("uri-reference", "/relative") && !f("uri-reference", "\\\\x"));
  ok(f("json-pointer", "/a/~0b") && !f("json-pointer", "a"));
  ok(f("relative-json-pointer", "1/a") && !f("relative-json-pointer", "/a"));
  ok(f("regex", "^a+$") && !f("regex", "("));
  ok(f("duration", "P1DT2H") && !f("duration", "P1H"));
  ok(f("time", "10:00:00+02:00") && !f("time", "10:00:00"));
  ok(f("hostname", "example.com") && !f("hostname", "-bad.com"));
});

Deno.test("compileSchema() counts string length in code points", () => {
  const max1 = compileSchema({ maxLength: 1 });
  strictEqual(max1.isValid("💩"), true);
  strictEqual(max1.isValid("💩💩"), false);
  strictEqual(max1.isValid("\ud800"), true); // a lone surrogate is one code point
  strictEqual(max1.isValid("\udc00\ud800"), false);
  const min2 = compileSchema({ minLength: 2 });
  strictEqual(min2.isValid("💩"), false);
  strictEqual(min2.isValid("💩a"), true);
  strictEqual(compileSchema({ pattern: "^.$" }).isValid("💩"), true); // the `u` flag
  strictEqual(compileSchema({ pattern: "^\\p{Lu}" }).isValid("Ångström"), true);
  strictEqual(compileSchema({ pattern: "a\\-b" }).isValid("a-b"), true); // falls back to non-`u`
});

Deno.test("compileSchema() checks numbers exactly and compares values as JSON", () => {
  strictEqual(compileSchema({ multipleOf: 0.0001 }).isValid(0.0075), true);
  strictEqual(compileSchema({ multipleOf: 0.0001 }).isValid(0.00751), false);
  strictEqual(compileSchema({ multipleOf: 0.123456789 }).isValid(1e308), false);
  strictEqual(compileSchema({ multipleOf: 0.5 }).isValid(1e308), true);
  strictEqual(compileSchema({ multipleOf: 2 }).isValid(4.5), false);
  strictEqual(compileSchema({ type: "integer" }).isValid(1.0), true);
  strictEqual(compileSchema({ type: "integer" }).isValid(1.5), false);
  strictEqual(compileSchema({ const: 1 }).isValid(true), false);
  strictEqual(compileSchema({ enum: [1, "a"] }).isValid(1.0), true);
  strictEqual(compileSchema({ enum: [false] }).isValid(0), false);
  strictEqual(
    compileSchema({ const: { a: 1, b: [1, { c: null }] } }).isValid({ b: [1, { c: null }], a: 1 }),
    true,
  );
  strictEqual(compileSchema({ uniqueItems: true }).isValid([1, true, "1", [1], { a: 1 }]), true);
  strictEqual(
    compileSchema({ uniqueItems: true }).isValid([{ a: 1, b: 2 }, { b: 2, a: 1 }]),
    false,
  );
  strictEqual(compileSchema({ uniqueItems: true }).isValid([0, -0]), false);
});

Deno.test("compileSchema() keeps strings apart from containers in uniqueItems, and NaN equal to nothing", () => {
  const unique = compileSchema({ uniqueItems: true });
  // findDuplicate keyed a container by "\u0000" and its canonical text, and a string by itself.
  for (
    const x of [["\u0000[1,],", [1]], ["\u0000{},", {}], [[], "\u0000[],"], ["\u0000", "\u0001"]]
  ) {
    strictEqual(unique.isValid(x), true, JSON.stringify(x));
    strictEqual(unique.validate(x).valid, true);
  }
  strictEqual(unique.isValid([[1], "\u0000[1,],", [1]]), false);
  strictEqual(unique.isValid(["\u0000{},", "\u0000{},"]), false);
  // NaN (which a payload may hold, as Python's json.loads reads it) equals nothing, itself
  // included, in uniqueItems, const and enum alike; the infinities equal themselves.
  for (const x of [[NaN, NaN], [NaN, 1, NaN], [[NaN], [NaN]], [{ a: NaN }, { a: NaN }]]) {
    strictEqual(unique.isValid(x), true);
  }
  strictEqual(unique.isValid([Infinity, Infinity]), false);
  strictEqual(unique.isValid([[-Infinity], [-Infinity]]), false);
  strictEqual(unique.validate([[1], [NaN], [1]]).errors[0]!.message, "Items 0 and 2 are equal");
  strictEqual(compileSchema({ const: NaN }).isValid(NaN), false);
  strictEqual(compileSchema({ const: [NaN] }).isValid([NaN]), false);
  strictEqual(compileSchema({ enum: [NaN] }).isValid(NaN), false);
  strictEqual(compileSchema({ enum: [1, NaN] }).validate(NaN).valid, false);
  strictEqual(compileSchema({ enum: [[NaN]] }).isValid([NaN]), false);
  strictEqual(compileSchema({ enum: [Infinity] }).isValid(Infinity), true);
});

Deno.test("compileSchema() tracks unevaluated properties through applicators and $dynamicRef", () => {
  const s = compileSchema({
    $defs: { base: { properties: { kind: { type: "string" } } } },
    allOf: [{ $ref: "#/$defs/base" }],
    if: { properties: { kind: { const: "a" } } },
    then: { properties: { a: true } },
    else: { properties: { b: true } },
    dependentSchemas: { x: { properties: { y: true } } },
    unevaluatedProperties: false,
  });
  strictEqual(s.isValid({ kind: "a", a: 1 }), true);
  strictEqual(s.isValid({ kind: "a", b: 1 }), false);
  strictEqual(s.isValid({ kind: "b", b: 1, x: 1, y: 2 }), false);
  strictEqual(s.isValid({ kind: "b", b: 1, y: 2 }), false);
  deepStrictEqual(s.validate({ kind: "a", c: 1 }).errors, [
    {
      keywordLocation: "/unevaluatedProperties",
      instanceLocation: "/c",
      message: "The false schema rejects every value",
    },
  ]);
  const dyn = compileSchema({
    $id: "https://example.com/list",
    $defs: { item: { $dynamicAnchor: "item", type: "string" } },
    type: "array",
    items: { $dynamicRef: "#item" },
  });
  strictEqual(dyn.isValid(["a"]), true);
  strictEqual(dyn.isValid([1]), false);
});

Deno.test("compileSchema() gives the same verdict on the fast and the full path (seeded)", () => {
  const r0 = makeRng(20261130);
  const rng = () => r0.float();
  const schema = compileSchema({
    type: "object",
    properties: {
      a: { type: "integer", minimum: 0, multipleOf: 3 },
      b: { anyOf: [{ type: "string", minLength: 2 }, { type: "null" }] },
      c: { type: "array", prefixItems: [{ type: "boolean" }], items: { type: "number" } },
    },
    patternProperties: { "^x-": { type: "string" } },
    unevaluatedProperties: false,
  });
  const pick = () => {
    const r = rng();
    return r < 0.2
      ? null
      : r < 0.4
      ? Math.floor(rng() * 20) - 5
      : r < 0.6
      ? "ab".slice(0, Math.floor(rng() * 3))
      : r < 0.8
      ? [rng() < 0.5, rng()]
      : rng() < 0.5;
  };
  let valid = 0;
  for (let i = 0; i < 5000; i++) {
    const inst: Record<string, unknown> = {};
    for (const k of ["a", "b", "c", "x-1", "y"]) if (rng() < 0.5) inst[k] = pick();
    const fast = schema.isValid(inst);
    const full = schema.validate(inst);
    strictEqual(full.valid, fast, JSON.stringify(inst));
    strictEqual(full.errors.length === 0, fast);
    if (fast) valid++;
  }
  ok(valid > 100 && valid < 4900, `both verdicts occur (${valid} valid)`);
});

Deno.test("compileSchema() handles 100 MB strings, control characters and lone surrogates", () => {
  const big = "http://" + "a".repeat(100_000_000);
  const s = compileSchema({ type: "string", format: "uri", maxLength: 5 }, {
    formatAssertion: true,
  });
  deepStrictEqual(s.validate(big).errors.map((e) => e.keywordLocation), ["/maxLength"]);
  strictEqual(compileSchema({ format: "email" }, { formatAssertion: true }).isValid(big), false);
  strictEqual(compileSchema({ uniqueItems: true }).isValid([big, big + "x"]), true);
  const keys = JSON.parse('{"\\u0000":1,"\\ud800":2,"a\\u001fb":3}');
  const closed = compileSchema({
    propertyNames: { maxLength: 1 },
    additionalProperties: { type: "integer" },
  });
  deepStrictEqual(closed.validate(keys).errors.map((e) => e.instanceLocation), ["/a\u001fb"]);
  strictEqual(compileSchema({ const: "\ud800" }).isValid("\ud800"), true);
  strictEqual(compileSchema({ pattern: "^\\u0000$" }).isValid("\u0000"), true);
});

Deno.test("compileSchema() matches a huge string in linear time, never as a silent no match", () => {
  const huge = "a".repeat(5_000_000);
  const s = compileSchema({ pattern: "^(?:a|b)*$" });
  strictEqual(s.isValid("ab"), true);
  strictEqual(s.isValid(huge), true);
  strictEqual(s.isValid(huge + "c"), false);
});

Deno.test("compileSchema() runs catastrophic patterns on hostile strings in linear time", () => {
  const evil = "a".repeat(100_000) + "!";
  for (const pattern of ["^(a+)+$", "^(a|a)*$", "(a*)*b", "^(\\w+\\s?)*$", "(.*a){12}x"]) {
    const s = compileSchema({ pattern });
    // The verdict on the hostile string equals RegExp's on its short twin, which RegExp can afford.
    strictEqual(s.isValid(evil), new RegExp(pattern, "u").test("a".repeat(8) + "!"), pattern);
  }
  const date = compileSchema({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" });
  strictEqual(date.isValid("2026-11-30"), true);
  strictEqual(date.isValid("2026-11-30".repeat(100)), false);
});

/** Median wall time of `f` over `n` runs, in milliseconds. */
function medianMs(f: () => void, n = 5): number {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[n >> 1]!;
}

Deno.test("compileSchema() decides ^(a|aa)^k$ in time linear in k, up to k = 64", () => {
  // A backtracking engine takes time exponential in k on a hostile string (50 s at k = 30 on 46
  // characters before). This compares growth, not an absolute time: on the same 100-character
  // string, k = 64 may cost about 8 times k = 8 (linear), and fails only past 64 times, where
  // backtracking would be 2^56 times slower.
  const hostile = "a".repeat(99) + "!";
  const run = (k: number) => {
    const schema = compileSchema({ type: "string", pattern: `^${"(a|aa)".repeat(k)}$` });
    strictEqual(schema.isValid(hostile), false);
    strictEqual(schema.isValid("a".repeat(k + 1)), true);
    strictEqual(schema.isValid("a".repeat(2 * k + 1)), false);
    return medianMs(() => {
      for (let i = 0; i < 200; i++) schema.isValid(hostile);
    });
  };
  run(8); // warm up
  const small = run(8);
  const large = run(64);
  ok(large / small < 64, `k = 8: ${small.toFixed(2)} ms, k = 64: ${large.toFixed(2)} ms`);
});

Deno.test("compileSchema() refuses lookaround and backreference patterns with a named error", () => {
  for (const pattern of ["a(?=b)", "(?!x)y", "(?<=a)b", "(?<!a)b", "(a)\\1", "(?<n>a)\\k<n>"]) {
    for (const schema of [{ pattern }, { patternProperties: { [pattern]: true } }]) {
      throws(() => compileSchema(schema), (e: unknown) => {
        ok(e instanceof SchemaError, String(e));
        ok(/cannot be matched in linear time/.test(e.message), e.message);
        ok(e.message.includes(JSON.stringify(pattern)), e.message);
        return true;
      });
    }
  }
});

Deno.test("compileSchema() pattern verdicts equal RegExp search on seeded patterns and strings", () => {
  const rng = makeRng(20261130);
  const atoms = ["a", "b", "[ab]", "\\d", ".", "\\w", "[^a]", "x"];
  const quant = ["", "", "*", "+", "?", "{2}", "{1,3}", "{20,}"];
  let checked = 0;
  let matched = 0;
  for (let n = 0; n < 600; n++) {
    let p = rng.chance(0.3) ? "^" : "";
    const parts = 1 + rng.int(4);
    for (let k = 0; k < parts; k++) {
      const a = rng.chance(0.25) ? `(${rng.pick(atoms)}|${rng.pick(atoms)})` : rng.pick(atoms);
      p += a + rng.pick(quant);
    }
    if (rng.chance(0.3)) p += "$";
    const re = new RegExp(p, "u");
    const schema = compileSchema({ pattern: p });
    // RegExp, the oracle, backtracks: long strings only under patterns without groups.
    const grouped = p.includes("(");
    for (let m = 0; m < 20; m++) {
      const len = !grouped && rng.chance(0.3) ? 257 + rng.int(300) : rng.int(12);
      let t = "";
      for (let i = 0; i < len; i++) t += rng.pick(["a", "b", "x", "1", " ", "\n", "é"]);
      const want = re.test(t);
      strictEqual(schema.isValid(t), want, `${p} on ${JSON.stringify(t.slice(0, 40))}`);
      checked++;
      if (want) matched++;
    }
  }
  ok(checked === 12000 && matched > 2000 && matched < 10000, `${matched}/${checked} match`);
});

Deno.test("compileSchema() checks the annotation keywords against the bundled metaschema", () => {
  // The bundled metaschema drops its own title, description and $comment annotations, but keeps
  // the schemas of the keywords by those names.
  const meta = compileSchema({ $ref: "https://json-schema.org/draft/2020-12/schema" });
  strictEqual(meta.isValid({ title: 1 }), false);
  strictEqual(meta.isValid({ description: 5 }), false);
  strictEqual(meta.isValid({ $comment: [] }), false);
  strictEqual(meta.isValid({ title: "t", description: "d", $comment: "c", type: "string" }), true);
});

Deno.test("compileSchema() keeps every error of a failed anyOf or oneOf, however many", () => {
  // A branch's errors were spread into push's arguments: past about 125,000 the stack overflowed
  // and the validation said the schema nested too deep.
  const items = Array.from({ length: 130_000 }, (_, i) => i);
  for (const kw of ["anyOf", "oneOf"]) {
    const r = compileSchema({ [kw]: [{ items: { type: "string" } }, { type: "string" }] })
      .validate(items);
    strictEqual(r.errors.length, 130_002, kw);
    strictEqual(r.errors[0]!.keywordLocation, `/${kw}/0/items/type`);
    strictEqual(r.errors.at(-1)!.keywordLocation, `/${kw}`);
  }
});
