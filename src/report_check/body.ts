/**
 * What the body of each report kind must hold: what its schema says, so that a report edited by
 * hand, cut short or written by another tool is refused naming its first wrong field, as bad
 * input, by every reader alike, instead of crashing a reader, giving it garbage, or being read by
 * one and refused for another reason by the next. The readers are `assay compare`, `gaps`,
 * `show`, `bfcl compare`, `ifeval compare` and the gate (`metricSource`); each kind's fields are
 * those its writer writes, unit by unit (a field added since the schema was first written may be
 * absent, as in a report written before it was).
 *
 * @module
 */
import { EVALUATION_SCHEMAS } from "../evaluation/mod.ts";
import { checkEvaluation } from "./_evaluation.ts";
import {
  BOOLEAN,
  checkField,
  checkFields,
  checkList,
  COUNT,
  DIGEST,
  digests,
  groupedBy,
  HEX64,
  isObject,
  isRecord,
  type Json,
  listOf,
  malformed,
  METRIC_VALUE,
  NUMBER,
  objectOf,
  oneOf,
  orAbsent,
  orNull,
  STRING,
  STRINGS,
  TOOL,
  UNIT,
  valuesOf,
} from "./_fields.ts";

// What a structured report's metrics were computed with, beyond the mode (since 2026-12-06).
const STRUCTURED_SETTINGS = orAbsent(objectOf(
  {
    numbers: oneOf(["exact", "numeric"]),
    match: oneOf(["exact", "name", "subset"]),
    ordered: BOOLEAN,
    format: orNull(STRING),
    format_assertion: BOOLEAN,
  },
  "{numbers, match, ordered, format, format_assertion}",
));

// A structured metric's totals: its numerator and denominator may be sums of fractions.
const STRUCTURED_METRIC = objectOf(
  { value: NUMBER, numerator: NUMBER, denominator: NUMBER },
  "{value, numerator, denominator}, three finite numbers",
);

function checkStructured(r: Json): void {
  // A report written before the rows were (2026-12-04) holds nothing else a reader can read.
  if (r.rows === undefined) {
    throw new RangeError("The structured report has no per-example rows: score it again");
  }
  checkFields(r, {
    tool: TOOL,
    engine: STRING,
    mode: oneOf(["strict", "fenced", "lenient"]),
    settings: STRUCTURED_SETTINGS,
    inputs: objectOf(
      {
        outputs: objectOf({ sha256: HEX64, rows: COUNT, invalid_utf8_outputs: COUNT }, ""),
        expected: orNull(objectOf({ sha256: HEX64, rows: COUNT }, "")),
        schema: orNull(objectOf({ sha256: HEX64 }, "")),
      },
      "{outputs, expected, schema}: {sha256, rows, invalid_utf8_outputs}, then {sha256, rows} " +
        "and {sha256}, each or null",
    ),
    n: COUNT,
    call_format: orAbsent(objectOf(
      { decoder: STRING, statuses: valuesOf(COUNT, "") },
      "{decoder, statuses}: a string and a count for each status",
    )),
  });
  checkField(r, "metrics", r.metrics, { test: isRecord, text: "an object" });
  const metrics = Object.keys(r.metrics as Json);
  for (const m of metrics) {
    checkField(r, `metrics.${m}`, (r.metrics as Json)[m], STRUCTURED_METRIC);
  }
  const fraction = objectOf({ numerator: NUMBER, denominator: NUMBER }, "");
  checkList(r, "rows", {
    line: COUNT,
    id: orNull(STRING),
    metrics: {
      test: (v) => isObject(v) && metrics.every((m) => fraction.test(v[m])),
      text: `{${metrics.join(", ")}}, each a {numerator, denominator}`,
    },
    // Why a tool metric counted an invalid call on the row, since 2026-12-07.
    reasons: orAbsent(STRINGS),
  });
}

function checkBfcl(r: Json): void {
  // The model and checker name the report in every comparison; a report without a matching is
  // of greedy matching (written before the matching was recorded), and has no disagreements.
  checkFields(r, {
    checker: STRING,
    model: STRING,
    matching: orAbsent(oneOf(["greedy", "optimal"])),
    matchingDisagreements: orAbsent(listOf(
      objectOf(
        { category: STRING, id: NUMBER, entryId: STRING, greedyErrorType: orNull(STRING) },
        "",
      ),
      "a list of {category, id, entryId, greedyErrorType}",
    )),
    accuracy: METRIC_VALUE,
    errorTypes: valuesOf(COUNT, "an object of a count for each error type"),
  });
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
    accuracy: METRIC_VALUE,
    errorTypes: valuesOf(COUNT, "an object of a count for each error type"),
    inputs: digests(
      { questions: orNull(DIGEST), answers: orNull(DIGEST), results: DIGEST },
      "{questions, answers (or null), results}",
    ),
    decoder: orAbsent(STRING),
    underscoreToDot: orAbsent(BOOLEAN),
  });
  // Each accuracy counts its entries' verdicts, as bfcl compare requires of both reports.
  const records = r.records as { category: string; valid: boolean }[];
  const byCategory = groupedBy(records, (x) => x.category);
  checkCounts(r, "accuracy", r.accuracy, records, "the records'");
  (r.categories as { category: string; accuracy: unknown }[]).forEach((c, i) => {
    const own = byCategory.get(c.category) ?? [];
    checkCounts(r, `categories[${i}].accuracy`, c.accuracy, own, "its records'");
  });
}

function checkCounts(
  r: Json,
  path: string,
  stored: unknown,
  records: readonly { valid: boolean }[],
  whose: string,
): void {
  const { numerator, denominator } = stored as { numerator: number; denominator: number };
  const valid = records.filter((x) => x.valid).length;
  if (numerator !== valid || denominator !== records.length) {
    throw malformed(
      r,
      `${path} is ${numerator} of ${denominator}, not the count of ${whose} verdicts ` +
        `(${valid} of ${records.length})`,
    );
  }
}

// One of IFEval's two evaluations, strict or loose, as its print_report gives it.
const IFEVAL_SCORES = objectOf(
  {
    prompt_level: METRIC_VALUE,
    instruction_level: METRIC_VALUE,
    by_instruction: valuesOf(METRIC_VALUE, ""),
    by_category: valuesOf(METRIC_VALUE, ""),
  },
  "{prompt_level, instruction_level, by_instruction, by_category}, each metric a {value, " +
    "numerator, denominator}",
);

function checkIfeval(r: Json): void {
  checkFields(r, {
    checker: STRING,
    inputs: digests({ input: DIGEST, responses: DIGEST }, "{input, responses}"),
    strict: IFEVAL_SCORES,
    loose: IFEVAL_SCORES,
  });
  const follows = listOf(BOOLEAN, "a list of true or false");
  checkList(r, "prompts", {
    key: NUMBER,
    instruction_id_list: STRINGS,
    strict: follows,
    loose: follows,
  });
}

function checkSuiteRun(r: Json): void {
  checkFields(r, {
    tool: TOOL,
    suite: STRING,
    suite_sha256: HEX64,
    run_id: orNull(STRING),
    judge: oneOf(["on", "off", "none"]),
    inputs: digests({ goldens: DIGEST, catalog: DIGEST }, "{goldens, catalog}"),
  });
  // A run's repeat and each criterion's threshold are what assay show prints of it.
  checkList(r, "runs", {
    golden_id: STRING,
    arm: STRING,
    repeat: COUNT,
    criteria: listOf(
      objectOf(
        { metric: STRING, score: orNull(UNIT), applicable: BOOLEAN, threshold: UNIT },
        "",
      ),
      "a list of {metric, score (in [0, 1] or null), applicable, threshold (in [0, 1])}",
    ),
    overall: objectOf(
      {
        status: oneOf(["complete", "incomplete", "unscored"]),
        overall: orNull(UNIT),
        pass: orNull(BOOLEAN),
      },
      '{status, overall (in [0, 1] or null), pass}, its status "complete", "incomplete" or ' +
        '"unscored"',
    ),
  });
  if (!(isRecord(r.scorecard) && STRINGS.test(r.scorecard.metrics))) {
    throw malformed(r, "scorecard.metrics is not a list of strings");
  }
  checkFields(r, {
    trajectory: orAbsent(listOf({ test: isRecord, text: "" }, "a list of objects")),
    repeats: orAbsent({ test: isRecord, text: "an object" }),
  });
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
 * suite run; any other schema passes) against what its schema says: every field its writer
 * writes (those added to a schema since it was first written may be absent), unit by unit, and
 * of an evaluation report the fields that sum its records too. Every reader of reports reads
 * them through it (`checkReport`), and the gate through `metricSource`.
 *
 * @param report A parsed report.
 * @throws {RangeError} If a field is missing, of the wrong type, or (in an evaluation report) not
 *   the sum of the records: the message names the report's schema and the first such field, e.g.
 *   `records[3].matched_pairs is not a count below 2^31`, or `metrics is missing`.
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
 *   accuracy: { value: 0, numerator: 0, denominator: 1 },
 *   errorTypes: {},
 *   categories: [],
 *   records: [{ category: "simple" }],
 * };
 * throws(() => checkReportBody(report), /records\[0\]\.id is not a string or number/);
 * const { accuracy: _, ...without } = report;
 * throws(() => checkReportBody(without), /malformed: accuracy is missing$/);
 * ```
 */
export function checkReportBody(report: unknown): void {
  if (!isObject(report)) return;
  CHECKS.get(report.schema)?.(report);
}
