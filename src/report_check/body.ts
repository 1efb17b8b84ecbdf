/**
 * What the body of each report kind must hold for its readers to read it: a report edited by
 * hand or cut short is refused naming its first wrong field, as bad input, instead of crashing a
 * reader or giving it garbage. The readers are `assay compare`, `gaps`, `show`, `bfcl compare`,
 * `ifeval compare` and the gate (`metricSource`); each kind's fields are those they read, unit by
 * unit.
 *
 * @module
 */
import { EVALUATION_SCHEMAS } from "../evaluation/mod.ts";
import { detailedReportProblem } from "../explain/mod.ts";

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === "object" && x !== null;

// A field's test, and its words in the error.
interface Field {
  test(v: unknown): boolean;
  text: string;
}
const STRING: Field = { test: (v) => typeof v === "string", text: "a string" };
const COUNT: Field = { test: (v) => Number.isInteger(v) && (v as number) >= 0, text: "a count" };
const NUMBER: Field = { test: (v) => Number.isFinite(v), text: "a finite number" };
const BOOLEAN: Field = { test: (v) => typeof v === "boolean", text: "true or false" };
const UNIT: Field = { test: (v) => typeof v === "number" && v >= 0 && v <= 1, text: "in [0, 1]" };
const orNull = (f: Field): Field => ({
  test: (v) => v === null || f.test(v),
  text: `${f.text} or null`,
});
const orAbsent = (f: Field): Field => ({
  test: (v) => v === undefined || f.test(v),
  text: `${f.text} or absent`,
});
const listOf = (f: Field, text: string): Field => ({
  test: (v) => Array.isArray(v) && v.every(f.test),
  text,
});
const objectOf = (spec: Record<string, Field>, text: string): Field => {
  const fields = Object.entries(spec);
  return { test: (v) => isObject(v) && fields.every(([k, f]) => f.test(v[k])), text };
};
const STRINGS = listOf(STRING, "a list of strings");
const optional = (f: Field): Field => ({ test: (v) => v === undefined || f.test(v), text: f.text });
const DIGEST_SPEC = {
  sha256: { test: (v: unknown) => typeof v === "string" && /^[0-9a-f]{64}$/.test(v), text: "" },
};
const DIGEST = objectOf(DIGEST_SPEC, "");
const digests = (spec: Record<string, Field>, text: string) =>
  optional(objectOf(spec, `absent or ${text}, each digest a {sha256} of 64 lowercase hex digits`));

function malformed(r: Json, what: string): RangeError {
  return new RangeError(`The ${String(r.schema)} report is malformed: ${what}`);
}

// Refuses a report whose list `name` is not a list of objects with `spec`'s fields.
function checkList(r: Json, name: string, spec: Record<string, Field>): void {
  const list = r[name];
  if (!Array.isArray(list)) throw malformed(r, `${name} is not a list`);
  const fields = Object.entries(spec);
  list.forEach((x: unknown, i) => {
    if (!isObject(x)) throw malformed(r, `${name}[${i}] is not an object`);
    for (const [k, f] of fields) {
      if (!f.test(x[k])) throw malformed(r, `${name}[${i}].${k} is not ${f.text}`);
    }
  });
}

// An evaluation report's input files, as the comparison page shows them: each null (not recorded)
// or its digest and rows.
const EVALUATION_INPUTS = objectOf(
  Object.fromEntries(["examples", "generations", "prompts"].map((k) => [
    k,
    orNull(objectOf({ ...DIGEST_SPEC, rows: COUNT, invalid_utf8_outputs: orAbsent(COUNT) }, "")),
  ])),
  "{examples, generations, prompts}, each null or a {sha256, rows}: 64 lowercase hex digits and " +
    "a count",
);

// The examples `assay score --allow-missing` left out: the gate's verdict names them.
const MISSING_GENERATIONS = orAbsent(objectOf(
  { count: COUNT, ids: STRINGS },
  "{count, ids} (a count and a list of that many ids)",
));

function checkEvaluation(r: Json): void {
  const problem = detailedReportProblem(r);
  if (problem) throw malformed(r, problem);
  if (!EVALUATION_INPUTS.test(r.inputs)) {
    throw malformed(r, `inputs is not ${EVALUATION_INPUTS.text}`);
  }
  const missing = r.missing_generations as { count: number; ids: string[] } | undefined;
  if (!MISSING_GENERATIONS.test(missing) || (missing && missing.count !== missing.ids.length)) {
    throw malformed(r, `missing_generations is not ${MISSING_GENERATIONS.text}`);
  }
}

// What a structured report's metrics were computed with, beyond the mode (since 2026-12-06).
const STRUCTURED_SETTINGS = orAbsent(objectOf(
  {
    numbers: STRING,
    match: STRING,
    ordered: BOOLEAN,
    format: orNull(STRING),
    format_assertion: BOOLEAN,
  },
  "{numbers, match, ordered, format, format_assertion}",
));

function checkStructured(r: Json): void {
  if (!isObject(r.metrics) || Array.isArray(r.metrics)) {
    throw malformed(r, "metrics is not an object");
  }
  if (!STRUCTURED_SETTINGS.test(r.settings)) {
    throw malformed(r, `settings is not ${STRUCTURED_SETTINGS.text}`);
  }
  if (!Array.isArray(r.rows)) {
    throw new RangeError("The structured report has no per-example rows: score it again");
  }
  const metrics = Object.keys(r.metrics);
  const fraction = objectOf({ numerator: NUMBER, denominator: NUMBER }, "");
  checkList(r, "rows", {
    line: COUNT,
    id: orNull(STRING),
    metrics: {
      test: (v) => isObject(v) && metrics.every((m) => fraction.test(v[m])),
      text: `{${metrics.join(", ")}}, each a {numerator, denominator}`,
    },
  });
}

function checkBfcl(r: Json): void {
  // The model and checker name the report in every comparison; a report without a matching is
  // of greedy matching (written before the matching was recorded).
  for (
    const [k, f] of [["model", STRING], ["checker", STRING], [
      "matching",
      orAbsent(STRING),
    ]] as const
  ) {
    if (!f.test(r[k])) throw malformed(r, `${k} is not ${f.text}`);
  }
  // The entry id keys bfcl compare's pairing and assay show's --id; BFCL's error type and error
  // are what show prints of a failing entry.
  checkList(r, "records", {
    category: STRING,
    id: { test: (v) => typeof v === "string" || Number.isFinite(v), text: "a string or number" },
    valid: BOOLEAN,
    entryId: STRING,
    errorType: orNull(STRING),
    error: orNull(STRING),
  });
  checkList(r, "categories", {
    category: STRING,
    inputs: digests(
      { questions: orNull(DIGEST), answers: orNull(DIGEST), results: DIGEST },
      "{questions, answers (or null), results}",
    ),
    decoder: orAbsent(STRING),
    underscoreToDot: orAbsent(BOOLEAN),
  });
}

function checkIfeval(r: Json): void {
  const follows = listOf(BOOLEAN, "a list of true or false");
  checkList(r, "prompts", {
    key: NUMBER,
    instruction_id_list: STRINGS,
    strict: follows,
    loose: follows,
  });
  const inputs = digests({ input: DIGEST, responses: DIGEST }, "{input, responses}");
  if (!inputs.test(r.inputs)) throw malformed(r, `inputs is not ${inputs.text}`);
}

function checkSuiteRun(r: Json): void {
  checkList(r, "runs", {
    golden_id: STRING,
    arm: STRING,
    criteria: listOf(
      objectOf({ metric: STRING, score: orNull(UNIT), applicable: BOOLEAN }, ""),
      "a list of {metric, score (in [0, 1] or null), applicable}",
    ),
    overall: objectOf(
      { status: STRING, overall: orNull(UNIT), pass: orNull(BOOLEAN) },
      "{status, overall (in [0, 1] or null), pass}",
    ),
  });
  if (!(isObject(r.scorecard) && STRINGS.test(r.scorecard.metrics))) {
    throw malformed(r, "scorecard.metrics is not a list of strings");
  }
  const inputs = digests({ goldens: DIGEST, catalog: DIGEST }, "{goldens, catalog}");
  if (!inputs.test(r.inputs)) throw malformed(r, `inputs is not ${inputs.text}`);
}

const CHECKS = new Map<unknown, (r: Json) => void>([
  ...EVALUATION_SCHEMAS.map((s) => [s, checkEvaluation] as const),
  ["assay.structured.v1", checkStructured],
  ["assay.bfcl.v1", checkBfcl],
  ["assay.ifeval.v1", checkIfeval],
  ["assay.suite_run.v1", checkSuiteRun],
]);

/**
 * Checks the body of a parsed report of a kind it knows (evaluation, structured, BFCL, IFEval or
 * suite run; any other schema passes): every field its readers read, unit by unit.
 *
 * @param report A parsed report.
 * @throws {RangeError} If a field is missing or of the wrong type: the message names the report's
 *   schema and the first such field, e.g. `records[3].matched_pairs is not a count below 2^31`.
 *
 * @example
 * ```ts
 * import { checkReportBody } from "@assay/assay/report-check";
 * import { throws } from "node:assert/strict";
 *
 * const report = {
 *   schema: "assay.bfcl.v1",
 *   model: "m",
 *   checker: "bfcl.ast@2024-08",
 *   categories: [],
 *   records: [{ category: "simple" }],
 * };
 * throws(() => checkReportBody(report), /records\[0\]\.id is not a string or number/);
 * ```
 */
export function checkReportBody(report: unknown): void {
  if (!isObject(report)) return;
  CHECKS.get(report.schema)?.(report);
}
