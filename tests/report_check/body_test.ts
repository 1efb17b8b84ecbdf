// checkReportBody(): a report read back from a file is refused, naming its first wrong field,
// when a field its schema has is missing or of the wrong type (or, in an evaluation report, does
// not agree with the records); well-formed reports pass, and so does a schema it does not know.
import { ok, throws } from "node:assert/strict";
import { checkReportBody } from "../../src/report_check/mod.ts";
import { RECORD_STATUSES } from "../../src/evaluation/mod.ts";
import { formatReport, scoreToolCalls } from "../../src/evaluation/mod.ts";
import { forScoring } from "../../src/formats/mod.ts";
import { bfclReportOf, IFEVAL_FIELDS, STRUCTURED_FIELDS, SUITE_RUN_FIELDS } from "./_complete.ts";

Deno.test("checkReportBody() refuses a malformed report of every kind, naming the first wrong field", () => {
  const call = '{"name": "f", "arguments": {"a": 1}}';
  // A real evaluation report, as a reader parses it from its file.
  const evaluation = JSON.parse(formatReport(scoreToolCalls(
    [{ example_id: "a", language: "en", target: call }],
    [{ example_id: "a", output: call }],
  )));
  const run = {
    golden_id: "g",
    arm: "base",
    repeat: 0,
    criteria: [{ metric: "m", score: 0.5, applicable: true, threshold: 0.5 }],
    overall: { status: "complete", overall: 0.5, pass: true },
  };
  const valid: Record<string, Record<string, unknown>> = {
    evaluation,
    structured: {
      schema: "assay.structured.v1",
      ...STRUCTURED_FIELDS,
      metrics: { m: { value: 0.5, numerator: 1, denominator: 2 } },
      rows: [{ line: 1, id: null, metrics: { m: { numerator: 1, denominator: 2 } } }],
    },
    bfcl: bfclReportOf([{
      category: "simple",
      id: 3,
      valid: true,
      entryId: "simple_2",
      errorType: null,
      error: null,
    }], [{ category: "simple" }]),
    ifeval: {
      schema: "assay.ifeval.v1",
      ...IFEVAL_FIELDS,
      prompts: [{ key: 1, instruction_id_list: ["a"], strict: [true], loose: [true] }],
    },
    suite: {
      schema: "assay.suite_run.v1",
      ...SUITE_RUN_FIELDS,
      scorecard: { metrics: ["m"] },
      runs: [run],
    },
  };
  for (const report of Object.values(valid)) checkReportBody(report);
  // A schema it does not know, and what is not an object, are for their readers to refuse.
  for (const other of [{ schema: "assay.calibration.v1" }, { schema: "x" }, null, 3, []]) {
    checkReportBody(other);
  }
  // Each case: a report, what is changed in it, and the words that name the field.
  // deno-lint-ignore no-explicit-any
  const cases: [string, (r: any) => void, RegExp][] = [
    ["evaluation", (r) => delete r.records, /records is not a list$/],
    ["evaluation", (r) => r.records.push(null), /records\[1\] is not an object/],
    [
      "evaluation",
      (r) => r.records[0].matched_pairs = "1",
      /records\[0\]\.matched_pairs is not a count/,
    ],
    ["evaluation", (r) => r.records[0].gold_pairs = -1, /records\[0\]\.gold_pairs is not a count/],
    [
      "evaluation",
      (r) => r.records[0].name_match = 1,
      /records\[0\]\.name_match is not true or false/,
    ],
    ["evaluation", (r) => r.slices = "en", /slices is not a list of strings/],
    ["structured", (r) => r.metrics = [], /metrics is not an object/],
    ["structured", (r) => r.metrics = null, /metrics is not an object/],
    ["structured", (r) => r.rows[0].metrics.m.denominator = NaN, /rows\[0\]\.metrics is not \{m\}/],
    ["structured", (r) => r.rows[0].id = 7, /rows\[0\]\.id is not a string or null/],
    ["structured", (r) => r.rows[0].reasons = "x", /rows\[0\]\.reasons is not a list of strings/],
    ["structured", (r) => r.rows[0].reasons = [1], /rows\[0\]\.reasons is not a list of strings/],
    ["bfcl", (r) => r.records[0].valid = "yes", /records\[0\]\.valid is not true or false/],
    ["bfcl", (r) => r.records[0].category = 1, /records\[0\]\.category is not a string/],
    // The entry id pairs bfcl compare's entries and is show's --id; show prints the error type
    // and error of a failing entry.
    ["bfcl", (r) => delete r.records[0].entryId, /records\[0\]\.entryId is not a string$/],
    ["bfcl", (r) => r.records[0].entryId = 3, /records\[0\]\.entryId is not a string$/],
    [
      "bfcl",
      (r) => r.records[0].errorType = ["x"],
      /records\[0\]\.errorType is not a string or null$/,
    ],
    ["bfcl", (r) => delete r.records[0].error, /records\[0\]\.error is not a string or null$/],
    // The model and checker name the report in a comparison: not "[object Object]".
    ["bfcl", (r) => r.model = { x: 1 }, /malformed: model is not a string$/],
    ["bfcl", (r) => delete r.checker, /malformed: checker is missing$/],
    ["bfcl", (r) => r.matching = 5, /malformed: matching is not "greedy" or "optimal" or absent$/],
    [
      "ifeval",
      (r) => r.prompts[0].loose = [1],
      /prompts\[0\]\.loose is not a list of true or false/,
    ],
    ["ifeval", (r) => r.prompts = {}, /prompts is not a list/],
    ["ifeval", (r) => delete r.prompts[0].instruction_id_list, /instruction_id_list is not a list/],
    ["bfcl", (r) => r.categories = [null], /categories\[0\] is not an object/],
    ["suite", (r) => r.runs[0].overall.status = null, /runs\[0\]\.overall is not \{status/],
    ["suite", (r) => r.runs[0].criteria[0].score = "x", /runs\[0\]\.criteria is not a list of/],
    ["suite", (r) => r.scorecard = {}, /scorecard\.metrics is not a list of strings/],
    // Scores are in [0, 1], as the scorecard's rows are: a negative one would be pooled wrongly.
    [
      "suite",
      (r) => r.runs[0].overall.overall = -0.5,
      /runs\[0\]\.overall is not \{status, overall \(in \[0, 1\] or null\), pass\}/,
    ],
    [
      "suite",
      (r) => r.runs[0].criteria[0].score = 1.5,
      /runs\[0\]\.criteria is not a list of \{metric, score \(in \[0, 1\] or null\)/,
    ],
    // The rest of an evaluation report's schema, and the fields that sum its records.
    ["evaluation", (r) => r.records[0].status = "weird", /records\[0\]\.status is not one of/],
    ["evaluation", (r) => delete r.metrics, /malformed: metrics is missing$/],
    ["evaluation", (r) => r.parser_id = null, /malformed: parser_id is not a string$/],
    ["evaluation", (r) => r.n = -2, /malformed: n is not a count$/],
    [
      "evaluation",
      (r) => r.metrics.overall.argument_f1.numerator = 1,
      /metrics\.overall\.argument_f1 is not \{value, numerator, denominator\}/,
    ],
    [
      "evaluation",
      (r) => r.metrics.by_language.en.argument_f1 = { value: 0, numerator: 0, denominator: 2 },
      /metrics\.by_language\["en"\]\.argument_f1 is 0 of 2, not the sum over its records \(2 of 2\)$/,
    ],
    ["evaluation", (r) => r.records[0].root_id = 1, /records\[0\]\.root_id is not a string or/],
    // The other kinds: a field their writers always write, missing or of another type.
    ["structured", (r) => delete r.mode, /malformed: mode is missing$/],
    ["structured", (r) => r.inputs.expected = {}, /malformed: inputs is not \{outputs,/],
    ["structured", (r) => r.settings = { numbers: "loose" }, /malformed: settings is not/],
    ["bfcl", (r) => delete r.errorTypes, /malformed: errorTypes is missing$/],
    ["bfcl", (r) => r.accuracy.value = 0.5, /malformed: accuracy is not \{value, numerator,/],
    [
      "bfcl",
      (r) => r.records[0].valid = false,
      /malformed: accuracy is 1 of 1, not the count of the records' verdicts \(0 of 1\)$/,
    ],
    [
      "bfcl",
      (r) => r.records[0].category = "other",
      /categories\[0\]\.accuracy is 1 of 1, not the count of its records' verdicts \(0 of 0\)$/,
    ],
    ["bfcl", (r) => delete r.categories[0].errorTypes, /categories\[0\]\.errorTypes is not/],
    ["ifeval", (r) => delete r.checker, /malformed: checker is missing$/],
    ["ifeval", (r) => r.strict.by_category.x = 1, /malformed: strict is not \{prompt_level,/],
    ["suite", (r) => r.run_id = 5, /malformed: run_id is not a string or null$/],
    ["suite", (r) => r.suite_sha256 = "ABC", /malformed: suite_sha256 is not 64 lowercase hex/],
    ["suite", (r) => r.runs[0].criteria[0].threshold = null, /runs\[0\]\.criteria is not/],
    ["suite", (r) => r.repeats = [], /malformed: repeats is not an object or absent$/],
  ];
  for (const [kind, change, words] of cases) {
    const r = structuredClone(valid[kind]!);
    change(r);
    throws(() => checkReportBody(r), (e: unknown) => {
      ok(e instanceof RangeError, `${kind} ${words}: ${e}`);
      ok(words.test(e.message), `${kind}: ${e.message} does not match ${words}`);
      ok(e.message.startsWith(`The ${r.schema} report is malformed: `), e.message);
      return true;
    }, `${kind} ${words}: accepted`);
  }
});

Deno.test("checkReportBody() takes an evaluation report of every decoder's statuses, v1 without dropped ids", () => {
  const call = '{"name": "f", "arguments": {"a": 1}}';
  const examples = ["en", "de"].flatMap((language) =>
    ["a", "b", "c"].map((id) => ({ example_id: `${language}-${id}`, language, target: call }))
  );
  const outputs = [call, "no call", `${call} ${call}`];
  for (const format of ["sommelier", "openai-chat", "hermes", "pythonic"]) {
    const report = JSON.parse(formatReport(scoreToolCalls(
      examples,
      examples.map((e, i) => ({ example_id: e.example_id, output: outputs[i % 3]! })),
      { decoder: forScoring(format) },
    )));
    checkReportBody(report);
    // Every status a decoder counts is one the check knows.
    for (const status of Object.keys(report.parse_status_counts)) {
      ok((RECORD_STATUSES as readonly string[]).includes(status), `${format}: ${status}`);
    }
    const { dropped_ids: _, ...v1 } = { ...report, schema: "assay.evaluation.v1" };
    checkReportBody(v1);
    throws(
      () => checkReportBody({ ...v1, schema: "assay.evaluation.v2" }),
      /dropped_ids is missing/,
    );
  }
});
