// compileSchema() refuses what the draft 2020-12 metaschema refuses, as Python's jsonschema
// (Debian python3-jsonschema 4.10.3) Draft202012Validator.check_schema does, on seeded schemas
// from tests/json_schema/_schema_corpus.ts with one keyword value replaced, through the oracle
// tests/json_schema/_jsonschema_oracle.py (which answers {"error": "schema: ..."} when
// check_schema refuses).
//
// Needs --allow-run (python3, apt-get), --allow-read and --allow-sys (uid).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { compileSchema, SchemaError, SUPPORTED_KEYWORDS } from "../../src/json_schema/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import {
  ARRAY_SCHEMA_KEYWORDS,
  MAP_SCHEMA_KEYWORDS,
  SINGLE_SCHEMA_KEYWORDS,
} from "../../src/json_schema/_registry.ts";
import { ensureJsonschema, runLineOracle } from "../_debian_python.ts";
import { generateSchemaCorpus, type Json, obj, pythonJson } from "./_schema_corpus.ts";

const ORACLE = new URL("./_jsonschema_oracle.py", import.meta.url).pathname;
const SEED = 20261201;
const SCHEMAS = 3000;

// The keywords whose values hold subschemas, as the compiler walks them.
const SINGLE = SINGLE_SCHEMA_KEYWORDS;
const ARRAY = ARRAY_SCHEMA_KEYWORDS;
const MAP = MAP_SCHEMA_KEYWORDS;

type Obj = { [key: string]: Json };
const isObj = (v: Json): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Every schema object in `schema` with its JSON pointer, following the subschema keywords. */
function schemaObjects(schema: Json, loc = ""): [Obj, string][] {
  if (!isObj(schema)) return [];
  const out: [Obj, string][] = [[schema, loc]];
  const tok = (k: string) => k.replaceAll("~", "~0").replaceAll("/", "~1");
  for (const k of Object.keys(schema)) {
    const v = schema[k] as Json;
    if (SINGLE.includes(k)) out.push(...schemaObjects(v, `${loc}/${k}`));
    if (ARRAY.includes(k) && Array.isArray(v)) {
      v.forEach((s, i) => out.push(...schemaObjects(s, `${loc}/${k}/${i}`)));
    }
    if (MAP.includes(k) && isObj(v)) {
      for (const n of Object.keys(v)) {
        out.push(...schemaObjects(v[n] as Json, `${loc}/${k}/${tok(n)}`));
      }
    }
  }
  return out;
}

/**
 * Values that a keyword may or may not allow: wrong types, negative and fractional numbers,
 * repeated items, anchors and ids with '#' or non-ASCII letters, vocabularies.
 */
const VALUES: Json[] = [
  5,
  -1,
  0,
  1.5,
  "yes",
  "",
  "a#b",
  "#frag",
  "x#",
  "ä",
  "Ab_1.-",
  "string",
  "null",
  true,
  false,
  null,
  [],
  ["a", "a"],
  ["a", "b"],
  ["string", "string"],
  ["string", "null"],
  ["nope"],
  [1],
  [true],
  obj([]),
  obj([["a", true]]),
  obj([["a", 5]]),
  obj([["a", ["b"]]]),
  obj([["a", ["b", "b"]]]),
  obj([["https://example.com/vocab", true]]),
  obj([["https://example.com/vocab", "yes"]]),
  obj([["type", "string"]]),
];

/** Keywords whose any string Assay refuses where Python accepts it (see docs/json_schema.md). */
const NOT_MUTATED = new Set(["$ref", "$dynamicRef", "$schema"]);
const KEYWORDS = SUPPORTED_KEYWORDS.filter((k) => !NOT_MUTATED.has(k));

interface Mutant {
  schema: Json;
  /** Where the replaced value is. */
  at: string;
}

function mutant(rng: Rng, schema: Json): Mutant {
  const k = rng.pick(KEYWORDS), v = rng.pick(VALUES);
  let objects = schemaObjects(schema);
  if (objects.length === 0 || rng.chance(0.2)) {
    // A $defs entry that nothing references, which the compiler never reaches.
    const holder = isObj(schema) ? schema : obj([]);
    const defs = isObj(holder.$defs as Json) ? holder.$defs as Obj : obj([]);
    defs.unused = obj([]);
    holder.$defs = defs;
    schema = holder;
    objects = [[defs.unused as Obj, "/$defs/unused"]];
  }
  const [target, loc] = rng.pick(objects);
  target[k] = v;
  return { schema, at: `${loc}/${k}` };
}

Deno.test("compileSchema() refuses what Python's check_schema refuses, on seeded mutated schemas", async () => {
  await ensureJsonschema();
  const rng = makeRng(SEED);
  const mutants = generateSchemaCorpus(rng, { schemas: SCHEMAS, instancesPerSchema: 1 })
    .map((c) => mutant(rng, c.schema));
  const answers = await runLineOracle(
    [ORACLE],
    mutants.map((m) => `{"schema":${pythonJson(m.schema, rng, 0, true)},"instance":null}`),
  );
  let refused = 0, unresolvable = 0;
  const wrong: string[] = [];
  mutants.forEach((m, i) => {
    const answer = JSON.parse(answers[i]!) as boolean | { error: string };
    const python = typeof answer === "object" && answer.error.startsWith("schema:");
    ok(typeof answer === "boolean" || python, `the oracle answered ${answers[i]}`);
    let error: SchemaError | undefined;
    try {
      // An object value can hold unknown keywords, which check_schema ignores.
      compileSchema(m.schema, { unknownKeywords: "ignore" });
    } catch (e) {
      if (!(e instanceof SchemaError)) throw e;
      error = e;
    }
    if (python) refused++;
    // An $id set on a schema moves the base of the $refs below it, and an $anchor replaced loses
    // its name, so a reference resolves nowhere: Assay refuses it (it fetches no remote document,
    // docs/json_schema.md), check_schema does not resolve references.
    if (!python && error !== undefined && error.message.startsWith("Cannot resolve ")) {
      unresolvable++;
      return;
    }
    const metaschema = error?.message.includes("metaschema allows") ?? false;
    if (
      python !== (error !== undefined) ||
      (metaschema && !error!.schemaLocation.startsWith(m.at))
    ) {
      wrong.push(
        `python ${python ? (answer as { error: string }).error.split("\n")[0] : "accepts"}; ` +
          `assay ${error?.message ?? "accepts"}; replaced ${m.at} in ${JSON.stringify(m.schema)}`,
      );
    }
  });
  console.log(
    `${mutants.length} mutated schemas: check_schema refuses ${refused}; ` +
      `${unresolvable} more are unresolvable $refs Assay alone refuses`,
  );
  deepStrictEqual(wrong.slice(0, 5), [], `${wrong.length} disagree`);
  ok(refused > mutants.length / 2 && refused < 0.9 * mutants.length, `${refused} refused`);
  strictEqual(wrong.length, 0);
});
