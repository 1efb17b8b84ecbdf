// compileSchema() against Python's jsonschema (Debian python3-jsonschema 4.10.3,
// Draft202012Validator) on 25,000 seeded random (schema, instance) pairs from
// tests/json_schema/_schema_corpus.ts, through one oracle process (tests/json_schema/_jsonschema_oracle.py).
//
// Every disagreement must fall in a `KNOWN_ISSUES` class: a deterministic trigger on the schema
// and instance, and the oracle re-run with only that bug fixed (the keyword rewritten to the
// 2020-12 text) gives Assay's verdict. Each class also has fixed cases that must still show the
// bug, so the table cannot go stale. docs/json_schema_diff.md renders the table. A schema that
// Assay refuses because a $ref names nothing has the verdict "unresolvable" on each instance (the
// oracle's, once fixed, is RefResolutionError).
//
// Needs --allow-run (python3, apt-get), --allow-read and --allow-sys (uid).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type CompiledSchema, compileSchema, SchemaError } from "../../src/json_schema/mod.ts";
import { makeRng } from "../_corpus.ts";
import { ensureJsonschema, runLineOracle } from "../_debian_python.ts";
import { generateSchemaCorpus, type Json, obj, pythonJson } from "./_schema_corpus.ts";

const ORACLE = new URL("./_jsonschema_oracle.py", import.meta.url).pathname;
const DOC = new URL("../../docs/json_schema_diff.md", import.meta.url).pathname;
const SEED = 20261130;
const SCHEMAS = 2500;
const INSTANCES_PER_SCHEMA = 10;
/** How often a safe integer in an instance, const or enum reaches Python spelled `N.0`. */
const FLOAT_SPELLING_RATE = 0.3;

type Verdict = boolean | { error: string };

/**
 * A verdict, or "unresolvable": a `$ref` names no schema, so Assay refuses the schema when it
 * compiles it (SchemaError "Cannot resolve $ref ...") and the oracle raises RefResolutionError
 * when it meets the reference.
 */
type Outcome = boolean | "unresolvable";
const UNRESOLVABLE = "unresolvable";

/** The oracle's verdict as an outcome: RefResolutionError is "unresolvable". */
const outcome = (v: Verdict | undefined): Outcome | { error: string } | undefined =>
  typeof v === "object" && v.error.startsWith("RefResolutionError:") ? UNRESOLVABLE : v;

/** Runs the oracle once over all `lines` (JSONL) and returns one verdict per line. */
async function oracle(lines: string[]): Promise<Verdict[]> {
  return (await runLineOracle([ORACLE], lines)).map((l) => JSON.parse(l) as Verdict);
}

// ------------------------------------------------------------------ known issues

/** Every value inside `v`, `v` included, with its depth. */
function* walk(v: Json, depth = 0): Generator<[Json, number]> {
  yield [v, depth];
  if (Array.isArray(v)) { for (const e of v) yield* walk(e, depth + 1); }
  else if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) yield* walk(v[k] as Json, depth + 1);
  }
}

/** The `$ref` values in `schema` that are JSON-pointer fragments ("#/..."). */
const pointerRefs = (schema: Json): string[] =>
  withKeyword(schema, "$ref").flatMap((s) =>
    typeof s.$ref === "string" && s.$ref.startsWith("#/") ? [s.$ref] : []
  );

/** The reference tokens of a pointer fragment ("#/a/b"), percent-decoded and unescaped. */
function pointerTokens(ref: string): string[] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(ref.slice(1));
  } catch {
    return [];
  }
  return decoded.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The objects in `schema` (schemas, and data that looks like them) that have keyword `k`. */
function withKeyword(schema: Json, k: string): { [key: string]: Json }[] {
  const out: { [key: string]: Json }[] = [];
  for (const [v] of walk(schema)) {
    if (v !== null && typeof v === "object" && !Array.isArray(v) && Object.hasOwn(v, k)) {
      out.push(v);
    }
  }
  return out;
}

const isContainer = (v: Json): boolean => v !== null && typeof v === "object";

/** A disagreement class: the oracle's bug, the spec's reading, and how to recognise it. */
interface KnownIssue {
  id: string;
  /**
   * The verdict of jsonschema 4.10.3 in this class; `null` when it may be either (the oracle
   * validates against a schema the reference does not name).
   */
  oracleVerdict: boolean | null;
  /** The verdict the 2020-12 text gives (and Assay must give, unless `assayVerdict` says). */
  specVerdict: Outcome;
  /** Assay's verdict where Assay departs from the text by a documented choice. */
  assayVerdict?: Outcome;
  /** The oracle fix (see tests/json_schema/_jsonschema_oracle.py) that rewrites the keyword to the spec. */
  fix: string;
  /** Why the spec verdict is right, citing draft 2020-12. */
  reason: string;
  /** A deterministic precondition on the schema and the instance. */
  trigger(schema: Json, instance: Json): boolean;
  /** Fixed cases on which the oracle still shows the bug (`text`: the schema as Python reads it). */
  cases: Case[];
  /**
   * The cases of the inverted class where wrapping the whole schema in `not` will not do (a
   * pointer from the root would then miss); by default, `cases` wrapped in `not`.
   */
  invertedCases?: Case[];
}

/** A schema and an instance; `text` spells the schema for Python where its spelling matters. */
interface Case {
  schema: Json;
  instance: Json;
  text?: string;
}

/** The bugs of jsonschema 4.10.3 met here, each in the direction it takes at the top level. */
const DIRECT: readonly KnownIssue[] = [
  {
    id: "enum-bool-number-in-container",
    oracleVerdict: true,
    specVerdict: false,
    fix: "enum",
    reason: "enum compares with Python's `in`, where [True] == [1] and {'a': False} == " +
      "{'a': 0}. Validation 6.1.2: valid iff equal to one of the values; core 4.2.2: " +
      "values of different types (boolean, number) are never equal, arrays and objects " +
      "are equal iff their items / members are.",
    trigger: (schema, instance) => {
      const containers = withKeyword(schema, "enum").flatMap((s) =>
        Array.isArray(s.enum) ? s.enum.filter(isContainer) : []
      );
      // A boolean inside a container, on either side.
      return containers.length > 0 &&
        [instance, ...containers].some((c) =>
          [...walk(c)].some(([v, d]) => d > 0 && typeof v === "boolean")
        );
    },
    cases: [
      { schema: obj([["enum", [[1]]]]), instance: [true] },
      { schema: obj([["enum", [obj([["a", 0]])]]]), instance: obj([["a", false]]) },
      { schema: obj([["enum", [[[false], 2]]]]), instance: [[0], 2] },
    ],
  },
  {
    id: "enum-nan-identity",
    oracleVerdict: true,
    specVerdict: false,
    fix: "enum",
    reason: "enum's `in` tests identity before ==, and json.loads gives every NaN one object, so " +
      "NaN (or [NaN]) is in [NaN] (or [[NaN]]) though NaN == NaN is false, as 4.10.3's const " +
      "and uniqueItems have it. NaN is no JSON number (RFC 8259 section 6); Python's json.loads " +
      "reads it, and Python's == (core 4.2.2 equality for numbers) has it equal to nothing, " +
      "which Assay keeps for const, enum and uniqueItems alike.",
    trigger: (schema, instance) =>
      withKeyword(schema, "enum").some((s) => [...walk(s.enum as Json)].some(([v]) => v !== v)) &&
      [...walk(instance)].some(([v]) => v !== v),
    cases: [
      { schema: obj([["enum", [NaN]]]), instance: NaN },
      { schema: obj([["enum", [1, [NaN]]]]), instance: [NaN] },
      { schema: obj([["enum", [obj([["a", NaN]])]]]), instance: obj([["a", NaN]]) },
    ],
  },
  {
    id: "uniqueItems-sort-ties",
    oracleVerdict: true,
    specVerdict: false,
    fix: "uniqueItems",
    reason: "uniqueItems sorts the items and compares neighbours only; Python's ordering ties " +
      "[1] with [True] (and [0] with [False], [1.0] with [True]), so [[1], [true], [1]] keeps " +
      "its two [1] apart and passes. Validation 6.4.3: all items must be unique under " +
      "core 4.2.2 equality, which has [1] equal to [1].",
    trigger: (schema, instance) =>
      withKeyword(schema, "uniqueItems").some((s) => s.uniqueItems === true) &&
      [...walk(instance)].some(([v]) =>
        Array.isArray(v) && v.filter(Array.isArray).length >= 3 &&
        [...walk(v)].some(([w]) => typeof w === "boolean")
      ),
    cases: [
      { schema: obj([["uniqueItems", true]]), instance: [[1], [true], [1]] },
      { schema: obj([["uniqueItems", true]]), instance: [[0], [false], [0]] },
      { schema: obj([["uniqueItems", true]]), instance: [[1], [true], [1, 0], [1]] },
    ],
  },
  {
    id: "uniqueItems-sort-nan",
    oracleVerdict: true,
    specVerdict: false,
    fix: "uniqueItems",
    reason: "uniqueItems sorts the items and compares neighbours only; NaN compares false with " +
      "everything, so the sort leaves [1, NaN, 1] (or [[1], [NaN], [1]]) as it is and the two " +
      "1s never meet. Validation 6.4.3: all items must be unique, and 1 equals 1 (core 4.2.2) " +
      "whatever stands between them.",
    trigger: (schema, instance) =>
      withKeyword(schema, "uniqueItems").some((s) => s.uniqueItems === true) &&
      [...walk(instance)].some(([v]) => v !== v),
    cases: [
      { schema: obj([["uniqueItems", true]]), instance: [1, NaN, 1] },
      { schema: obj([["uniqueItems", true]]), instance: [[1], [NaN], [1]] },
    ],
  },
  {
    id: "unevaluatedProperties-ignores-schema-valued-additionalProperties",
    oracleVerdict: false,
    specVerdict: true,
    fix: "evaluatedBySchemaValues",
    reason: "When it collects evaluated properties, 4.10.3 reads a schema-valued " +
      "additionalProperties (or a nested unevaluatedProperties) as if it were a properties " +
      "map, so the keys that keyword evaluated count as unevaluated. Core 10.3.2.3: " +
      "additionalProperties evaluates (and annotates) every key not matched by properties " +
      "or patternProperties; core 11.3: unevaluatedProperties applies only to keys no " +
      "adjacent or passing nested keyword evaluated, including a nested unevaluatedProperties.",
    trigger: (schema) =>
      withKeyword(schema, "unevaluatedProperties").length > 0 &&
      [...withKeyword(schema, "additionalProperties").map((s) => s.additionalProperties)]
        .concat(withKeyword(schema, "unevaluatedProperties").map((s) => s.unevaluatedProperties))
        .some((v) => v !== null && typeof v === "object" && !Array.isArray(v)),
    cases: [
      {
        schema: obj([["additionalProperties", obj([["type", "integer"]])], [
          "unevaluatedProperties",
          false,
        ]]),
        instance: obj([["a", 1]]),
      },
      {
        schema: obj([
          ["allOf", [obj([["unevaluatedProperties", obj([["type", "string"]])]])]],
          ["unevaluatedProperties", false],
        ]),
        instance: obj([["b", "x"]]),
      },
    ],
  },
  {
    id: "unevaluated-ignores-dynamicRef",
    oracleVerdict: false,
    specVerdict: true,
    fix: "evaluatedThroughDynamicRef",
    reason: "4.10.3 collects evaluated properties and items through $ref but not through " +
      "$dynamicRef. Core 8.2.3.2: $dynamicRef applies the referenced schema like $ref, so " +
      "its annotations are collected; core 11.2 and 11.3: unevaluatedItems and " +
      "unevaluatedProperties see the annotations of every adjacent in-place applicator.",
    trigger: (schema) =>
      withKeyword(schema, "$dynamicRef").length > 0 &&
      (withKeyword(schema, "unevaluatedProperties").length > 0 ||
        withKeyword(schema, "unevaluatedItems").length > 0),
    cases: [
      {
        schema: obj([
          [
            "$defs",
            obj([["p", obj([["$dynamicAnchor", "p"], ["properties", obj([["a", true]])]])]]),
          ],
          ["$dynamicRef", "#p"],
          ["unevaluatedProperties", false],
        ]),
        instance: obj([["a", 1]]),
      },
      {
        schema: obj([
          ["$defs", obj([["p", obj([["$dynamicAnchor", "p"], ["prefixItems", [true]]])]])],
          ["$dynamicRef", "#p"],
          ["unevaluatedItems", false],
        ]),
        instance: [1],
      },
    ],
  },
  {
    id: "multipleOf-float-spelled-integral-divisor",
    oracleVerdict: true,
    specVerdict: true,
    assayVerdict: false,
    fix: "integralDivisor",
    reason: "Not a bug of the oracle but Assay's documented choice (docs/json_schema.md, " +
      "Numbers): a divisor spelled as a float (1e2, 100.0) is a float to Python, which divides " +
      "(1e23 / 100.0 rounds to the integral 1e21: valid), and an int when spelled 100, which " +
      "takes the remainder (1e23 % 100 is 92 on the double 99999999999999991611392: invalid). A " +
      "JS number keeps no spelling, so Assay takes the remainder for every integral divisor. " +
      "Validation 6.2.1 on the decimal values (10^23 / 100 is an integer) agrees with Python here.",
    trigger: (schema) =>
      withKeyword(schema, "multipleOf").some((s) => Number.isInteger(s.multipleOf)),
    cases: [
      { schema: obj([["multipleOf", 100]]), text: '{"multipleOf":1e2}', instance: 1e23 },
      { schema: obj([["multipleOf", 100]]), text: '{"multipleOf":100.0}', instance: 1e23 },
      { schema: obj([["multipleOf", 3]]), text: '{"multipleOf":3e0}', instance: 1e23 },
    ],
  },
  {
    id: "ref-pointer-trailing-empty-token",
    oracleVerdict: true,
    specVerdict: false,
    fix: "pointerTrailingEmptyTokens",
    reason: "RefResolver.resolve (jsonschema/validators.py) does " +
      'urljoin(resolution_scope, ref).rstrip("/"), which drops the empty reference tokens at the ' +
      'end of a JSON-pointer fragment: "#/$defs/" lands on $defs itself, a map of names that ' +
      "Python reads as a schema of unknown keywords, valid for every instance. RFC 6901 " +
      'sections 3 and 4: every "/" starts a reference token, and an empty token names the key ' +
      '"", so "#/$defs/" names the "" entry of $defs (and "#/$defs//$defs/" the "" entry of its ' +
      "$defs); core 8.2.3.1: $ref applies the schema the reference names.",
    trigger: (schema) => pointerRefs(schema).some((r) => r.endsWith("/")),
    cases: [
      {
        schema: obj([["$defs", obj([["", obj([["const", 1]])]])], ["$ref", "#/$defs/"]]),
        instance: null,
      },
      {
        schema: obj([
          ["$ref", "#/$defs//$defs/"],
          ["$defs", obj([["", obj([["$defs", obj([["", obj([["type", "string"]])]])]])]])],
        ]),
        instance: 1,
      },
      {
        schema: obj([["$ref", "#/properties/"], [
          "properties",
          obj([["", obj([["type", "integer"]])]]),
        ]]),
        instance: "a",
      },
    ],
    invertedCases: [
      {
        schema: obj([["$defs", obj([["", obj([["const", 1]])]])], [
          "not",
          obj([["$ref", "#/$defs/"]]),
        ]]),
        instance: 2,
      },
      {
        schema: obj([
          ["not", obj([["$ref", "#/$defs//$defs/"]])],
          ["$defs", obj([["", obj([["$defs", obj([["", obj([["type", "string"]])]])]])]])],
        ]),
        instance: 1,
      },
      {
        schema: obj([
          ["if", obj([["$ref", "#/$defs/"]])],
          ["then", false],
          ["$defs", obj([["", obj([["const", 1]])]])],
        ]),
        instance: 2,
      },
    ],
  },
  {
    id: "ref-pointer-trailing-empty-token-unresolvable",
    oracleVerdict: null,
    specVerdict: UNRESOLVABLE,
    fix: "pointerTrailingEmptyTokens",
    reason:
      'The rstrip("/") of ref-pointer-trailing-empty-token where the pointer names no value: ' +
      '"#/$defs/a/" and "#/$defs/a//" land on $defs/a, "#/$defs//" on $defs, and Python ' +
      'validates against that. RFC 6901 section 4: the trailing tokens name the key "" of a ' +
      "schema that has none, so the pointer names nothing (an error, section 7); core 8.2.3.1: " +
      "a $ref must name a schema. Assay refuses the schema (SchemaError), the fixed oracle " +
      "raises RefResolutionError.",
    trigger: (schema) => pointerRefs(schema).some((r) => r.endsWith("/")),
    cases: [
      {
        schema: obj([["$ref", "#/$defs/a/"], ["$defs", obj([["a", obj([["type", "string"]])]])]]),
        instance: 1,
      },
      {
        schema: obj([["$ref", "#/$defs/a//"], ["$defs", obj([["a", obj([["type", "string"]])]])]]),
        instance: "s",
      },
      {
        schema: obj([["$ref", "#/$defs//"], ["$defs", obj([["", obj([["type", "string"]])]])]]),
        instance: 1,
      },
    ],
  },
  {
    id: "ref-pointer-leading-slash-stripped",
    oracleVerdict: null,
    specVerdict: UNRESOLVABLE,
    fix: "pointerLeadingSlash",
    reason: "RefResolver.resolve_fragment (jsonschema/validators.py) begins with " +
      'fragment.lstrip("/") and looks the rest up as an $anchor before it walks it as a ' +
      'pointer, so "#//$defs/a" loses its empty first token and lands on $defs/a, and "#/pos" ' +
      'lands on the schema with "$anchor": "pos". RFC 6901 sections 3, 4 and 6: "#//$defs/a" ' +
      'names the key "" of the root, and "#/pos" the key "pos" of the root; core 9.2.1: only a ' +
      "plain-name fragment names an anchor. Neither key exists (the root has no such keyword), " +
      "so Assay refuses the schema (SchemaError) and the fixed oracle raises RefResolutionError.",
    trigger: (schema) => {
      const anchors = [...withKeyword(schema, "$anchor"), ...withKeyword(schema, "$dynamicAnchor")]
        .flatMap((s) => [s.$anchor, s.$dynamicAnchor]);
      return pointerRefs(schema).some((r) =>
        r.startsWith("#//") || (!r.slice(2).includes("/") && anchors.includes(r.slice(2)))
      );
    },
    cases: [
      {
        schema: obj([["$ref", "#//$defs/a"], ["$defs", obj([["a", obj([["type", "string"]])]])]]),
        instance: 1,
      },
      {
        schema: obj([["$ref", "#///$defs/a"], ["$defs", obj([["a", obj([["type", "string"]])]])]]),
        instance: "s",
      },
      {
        schema: obj([
          ["$ref", "#/pos"],
          ["$defs", obj([["a", obj([["$anchor", "pos"], ["type", "string"]])]])],
        ]),
        instance: 1,
      },
    ],
  },
  {
    id: "ref-pointer-index-token-int",
    oracleVerdict: null,
    specVerdict: UNRESOLVABLE,
    fix: "pointerIndexTokens",
    reason: "RefResolver.resolve_fragment (jsonschema/validators.py) turns every token met at a " +
      'Sequence into int(part), which reads 01, 00, +1, -0, 0_1 and " 1" as indexes and -1 ' +
      "as the last item. RFC 6901 section 4: at an array a token names an item only when it is " +
      "0 or digits without a leading zero (array-index = %x30 / ( %x31-39 *(%x30-39) )), so " +
      '"#/prefixItems/01" names nothing; core 8.2.3.1: a $ref must name a schema. Assay ' +
      "refuses the schema (SchemaError), the fixed oracle raises RefResolutionError.",
    trigger: (schema) =>
      pointerRefs(schema).some((r) =>
        pointerTokens(r).some((t) =>
          /^\s*[+-]?[0-9][0-9_]*\s*$/.test(t) && !/^(?:0|[1-9][0-9]*)$/.test(t)
        )
      ),
    cases: [
      ...["01", "-1", "+1"].map((t) => ({
        schema: obj([
          ["$ref", `#/prefixItems/${t}`],
          ["prefixItems", [obj([["type", "string"]]), obj([["type", "integer"]])]],
        ]),
        instance: 1,
      })),
      {
        schema: obj([
          ["$ref", "#/$defs/l/prefixItems/0_1"],
          ["$defs", obj([["l", obj([["prefixItems", [true, obj([["type", "string"]])]]])]])],
        ]),
        instance: 1,
      },
    ],
  },
];

/** Keywords under which a bug flips the verdict of the whole schema. */
const INVERTERS = ["not", "if", "oneOf"];

/**
 * Every class: each bug as it is, and inverted (the bug sits under `not`, or decides an `if` or
 * a `oneOf`, so that the whole verdict flips), backed by the same cases wrapped in `not`. A class
 * whose spec verdict is "unresolvable", or whose oracle verdict may be either, has no inverse.
 */
const KNOWN_ISSUES: readonly KnownIssue[] = DIRECT.flatMap((k) =>
  k.specVerdict === UNRESOLVABLE || k.oracleVerdict === null ? [k] : [k, {
    id: `${k.id}-inverted`,
    oracleVerdict: !k.oracleVerdict,
    specVerdict: !k.specVerdict,
    ...(k.assayVerdict !== undefined && { assayVerdict: !k.assayVerdict }),
    fix: k.fix,
    reason: `The ${k.assayVerdict === undefined ? "bug" : "choice"} of ${k.id} under not ` +
      "(core 10.2.1.4), or deciding an if (core 10.2.2.1) " +
      "or a oneOf (core 10.2.1.3), which turns the verdict around.",
    trigger: (schema: Json, instance: Json) =>
      k.trigger(schema, instance) && INVERTERS.some((w) => withKeyword(schema, w).length > 0),
    cases: k.invertedCases ?? k.cases.map((c) => ({
      schema: obj([["not", c.schema]]),
      instance: c.instance,
      ...(c.text !== undefined && { text: `{"not":${c.text}}` }),
    })),
  }]
);

/** The oracle fixes, each alone, then all together. */
const FIXES = [...new Set(DIRECT.map((k) => k.fix))];
const FIX_RUNS: string[][] = [...FIXES.map((f) => [f]), FIXES];

// ------------------------------------------------------------------ the corpus

interface Pair {
  family: string;
  schemaIndex: number;
  schema: Json;
  instance: Json;
  /** The oracle's line without the closing brace, so that fixes can be appended. */
  head: string;
}

function buildPairs(): Pair[] {
  const cases = generateSchemaCorpus(makeRng(SEED), {
    schemas: SCHEMAS,
    instancesPerSchema: INSTANCES_PER_SCHEMA,
    pointers: true,
  });
  const spelling = makeRng(SEED ^ 0x5eed);
  const pairs: Pair[] = [];
  cases.forEach((c, schemaIndex) => {
    const schemaText = pythonJson(c.schema, spelling, FLOAT_SPELLING_RATE, true);
    for (const instance of c.instances) {
      const instanceText = pythonJson(instance, spelling, FLOAT_SPELLING_RATE);
      pairs.push({
        family: c.family,
        schemaIndex,
        schema: c.schema,
        instance,
        head: `{"schema":${schemaText},"instance":${instanceText}`,
      });
    }
  });
  return pairs;
}

const line = (head: string, fixes?: string[]): string =>
  fixes ? `${head},"fixes":${JSON.stringify(fixes)}}` : `${head}}`;

/** JSON text as Python's json.loads reads it: NaN and the infinities by name, not as null. */
const pyText = (v: Json): string =>
  JSON.stringify(v, (_k, x) => typeof x === "number" && !Number.isFinite(x) ? `\uffff#${x}` : x)
    .replace(/"\uffff#([^"]*)"/g, "$1");

const caseHead = (c: Case): string =>
  `{"schema":${c.text ?? pyText(c.schema)},"instance":${pyText(c.instance)}`;

/** The verdict Assay must give in a class. */
const assayWants = (k: KnownIssue): Outcome => k.assayVerdict ?? k.specVerdict;

/** Compiles `schema`, or returns "unresolvable" when a reference in it names no schema. */
function compileOrUnresolvable(schema: Json): CompiledSchema | typeof UNRESOLVABLE {
  try {
    return compileSchema(schema);
  } catch (e) {
    if (e instanceof SchemaError && e.message.startsWith("Cannot resolve $ref ")) {
      return UNRESOLVABLE;
    }
    throw e;
  }
}

/** Assay's verdict, checking that validate() agrees with isValid() and reports errors iff invalid. */
function assayVerdict(compiled: CompiledSchema, instance: Json): boolean {
  const valid = compiled.isValid(instance);
  const result = compiled.validate(instance);
  strictEqual(result.valid, valid, "validate().valid equals isValid()");
  strictEqual(result.errors.length === 0, valid, "validate() reports errors iff invalid");
  for (const e of result.errors) {
    ok(
      typeof e.keywordLocation === "string" && typeof e.instanceLocation === "string" &&
        typeof e.message === "string" && e.message !== "",
      "every error has a keywordLocation, an instanceLocation and a message",
    );
  }
  return valid;
}

const show = (p: { schema: Json; instance: Json }): string =>
  `schema ${JSON.stringify(p.schema)} instance ${JSON.stringify(p.instance)}`;

/**
 * The knownIssues class of a disagreement, if any: its trigger holds, the oracle and Assay give
 * the class's two verdicts, and the oracle with only that class's bug fixed gives Assay's verdict.
 * `fixed` holds the oracle's verdicts for `FIX_RUNS`.
 */
function classify(
  p: { schema: Json; instance: Json },
  verdicts: { oracle: Verdict; assay: Outcome; fixed: Verdict[] },
): KnownIssue | undefined {
  return KNOWN_ISSUES.find((k) =>
    k.trigger(p.schema, p.instance) &&
    (k.oracleVerdict === null
      ? typeof verdicts.oracle === "boolean"
      : verdicts.oracle === k.oracleVerdict) &&
    verdicts.assay === assayWants(k) &&
    outcome(verdicts.fixed[FIXES.indexOf(k.fix)]) === verdicts.assay
  );
}

Deno.test("compileSchema() agrees with Python's jsonschema on 25,000 seeded random pairs", async () => {
  const version = await ensureJsonschema();
  const pairs = buildPairs();
  ok(pairs.length >= 20_000, "at least 20,000 pairs");

  // The oracle runs while Assay checks the same pairs.
  const stock = oracle(pairs.map((p) => line(p.head)));
  // Assay's verdicts; "unresolvable" on every instance of a schema with a $ref that names no
  // schema (a disagreement, to be classified like the others).
  const assay: Outcome[] = [];
  let compiled: CompiledSchema | typeof UNRESOLVABLE | undefined;
  let unresolvable = 0;
  for (let i = 0; i < pairs.length; i++) {
    const p = pairs[i] as Pair;
    if (i === 0 || p.schemaIndex !== (pairs[i - 1] as Pair).schemaIndex) {
      try {
        compiled = compileOrUnresolvable(p.schema);
      } catch (e) {
        throw new Error(`compileSchema() rejected a generated schema: ${show(p)}`, { cause: e });
      }
      if (compiled === UNRESOLVABLE) unresolvable++;
    }
    assay.push(
      compiled === UNRESOLVABLE
        ? UNRESOLVABLE
        : assayVerdict(compiled as CompiledSchema, p.instance),
    );
    if (i % 2000 === 1999) await new Promise((r) => setTimeout(r, 0));
  }
  const verdicts = await stock;

  const errors = verdicts.flatMap((v, i) => typeof v === "object" ? [[v, pairs[i]] as const] : []);
  deepStrictEqual(
    errors.slice(0, 3).map(([v, p]) => `${v.error}: ${show(p as Pair)}`),
    [],
    `the oracle accepted every schema and gave a verdict on every pair (${errors.length} errors)`,
  );

  // Each disagreement again, with each fix alone and with all of them.
  const disagreements = pairs.flatMap((_p, i) => verdicts[i] !== assay[i] ? [i] : []);
  const rerun = await oracle(
    disagreements.flatMap((i) => FIX_RUNS.map((f) => line((pairs[i] as Pair).head, f))),
  );
  const byClass = new Map<string, number>(KNOWN_ISSUES.map((k) => [k.id, 0]));
  const unexplained: string[] = [];
  disagreements.forEach((i, n) => {
    const p = pairs[i] as Pair;
    const fixed = rerun.slice(n * FIX_RUNS.length, (n + 1) * FIX_RUNS.length);
    const issue = classify(p, {
      oracle: verdicts[i] as Verdict,
      assay: assay[i] as Outcome,
      fixed,
    });
    if (issue) byClass.set(issue.id, (byClass.get(issue.id) ?? 0) + 1);
    else {
      unexplained.push(
        `oracle ${JSON.stringify(verdicts[i])} assay ${assay[i]} ` +
          `(all fixes: ${JSON.stringify(fixed[FIX_RUNS.length - 1])}) ` +
          `${p.family}: ${show(p)}\n  python: ${line(p.head)}`,
      );
    }
  });

  const valid = assay.filter((v) => v === true).length;
  const families = new Map<string, [number, number]>();
  pairs.forEach((p, i) => {
    const f = families.get(p.family) ?? [0, 0];
    families.set(p.family, [f[0] + 1, f[1] + (assay[i] === true ? 1 : 0)]);
  });
  console.log(
    [
      `jsonschema ${version}: ${pairs.length} pairs from ${SCHEMAS} schemas (seed ${SEED}, sfc32)`,
      `valid ${valid} (${(100 * valid / pairs.length).toFixed(1)}%), invalid ${
        assay.filter((v) => v === false).length
      }, unresolvable ${pairs.length - valid - assay.filter((v) => v === false).length} ` +
      `(${unresolvable} schemas Assay refuses)`,
      `agreements ${pairs.length - disagreements.length}, disagreements ${disagreements.length}`,
      ...[...byClass].map(([id, n]) => `  ${id}: ${n}`),
      `  unexplained: ${unexplained.length}`,
      "by family (pairs, valid): " +
      [...families].map(([f, [n, v]]) => `${f} ${n} ${(100 * v / n).toFixed(0)}%`).join(", "),
    ].join("\n"),
  );
  deepStrictEqual(unexplained.slice(0, 5), [], `${unexplained.length} unexplained disagreements`);
  const share = valid / pairs.length;
  ok(share >= 0.3 && share <= 0.7, `valid share ${share} is within 30-70%`);
});

Deno.test("compileSchema() gives the spec verdict on the fixed cases of every known issue", async () => {
  await ensureJsonschema();
  const targeted = KNOWN_ISSUES.flatMap((k) => {
    ok(k.cases.length > 0, `${k.id} has fixed cases`);
    return k.cases.map((c) => ({ issue: k, c }));
  });
  const verdicts = await oracle(
    targeted.flatMap(({ issue, c }) => [line(caseHead(c)), line(caseHead(c), [issue.fix])]),
  );
  // The stock oracle still shows each bug; the fixed oracle and Assay give the spec verdict (or
  // Assay's, where Assay departs from the text by choice).
  const got = targeted.map(({ issue, c }, n) => {
    const compiled = compileOrUnresolvable(c.schema);
    const stock = verdicts[2 * n];
    return {
      id: issue.id,
      case: show(c) + (c.text === undefined ? "" : ` (Python reads ${c.text})`),
      oracle: issue.oracleVerdict === null && typeof stock === "boolean" ? "either" : stock,
      fixed: outcome(verdicts[2 * n + 1]),
      assay: compiled === UNRESOLVABLE ? compiled : compiled.isValid(c.instance),
    };
  });
  const want = targeted.map(({ issue, c }) => ({
    id: issue.id,
    case: show(c) + (c.text === undefined ? "" : ` (Python reads ${c.text})`),
    oracle: issue.oracleVerdict ?? "either",
    fixed: assayWants(issue),
    assay: assayWants(issue),
  }));
  deepStrictEqual(got, want);

  // docs/json_schema_diff.md renders the table.
  const doc = await Deno.readTextFile(DOC);
  for (const k of KNOWN_ISSUES) {
    const row = new RegExp(`^\\| \`${k.id.replaceAll("$", "\\$")}\` +\\|`, "m");
    ok(row.test(doc), `docs/json_schema_diff.md has a table row for ${k.id}`);
  }
});

Deno.test("compileSchema() agrees with Python on uniqueItems over NUL-led strings and NaN, and on const with NaN", async () => {
  await ensureJsonschema();
  const unique = obj([["uniqueItems", true]]);
  const cases: { schema: Json; instance: Json }[] = [
    ...[
      ["\u0000[1,],", [1]],
      ["\u0000{},", obj([])],
      [[], "\u0000[],"],
      ["\u0000{},", "\u0000{},"],
      [NaN, NaN],
      [NaN, 1, NaN],
      [[NaN], [NaN]],
      [obj([["a", NaN]]), obj([["a", NaN]])],
      [Infinity, Infinity],
      [[1], [1], [NaN]],
      [NaN, "a", "a"],
    ].map((instance) => ({ schema: unique, instance: instance as Json })),
    { schema: obj([["const", NaN]]), instance: NaN },
    { schema: obj([["const", [NaN]]]), instance: [NaN] },
    { schema: obj([["const", -Infinity]]), instance: -Infinity },
  ];
  const verdicts = await oracle(cases.map((c) => line(caseHead(c))));
  deepStrictEqual(
    cases.map((c) =>
      `${pyText(c.schema)} ${pyText(c.instance)} ${
        assayVerdict(compileSchema(c.schema), c.instance)
      }`
    ),
    cases.map((c, i) => `${pyText(c.schema)} ${pyText(c.instance)} ${verdicts[i]}`),
  );
});
