// checkReportBody(): a report read back from a file is refused, naming its first wrong field,
// when a field its readers read is missing or of the wrong type; well-formed reports pass, and so
// does a schema it does not know.
import { ok, throws } from "node:assert/strict";
import { checkReportBody } from "../../src/report_check/mod.ts";
import { formatReport, scoreToolCalls } from "../../src/evaluation/mod.ts";

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
    criteria: [{ metric: "m", score: 0.5, applicable: true }],
    overall: { status: "complete", overall: 0.5, pass: true },
  };
  const valid: Record<string, Record<string, unknown>> = {
    evaluation,
    structured: {
      schema: "assay.structured.v1",
      metrics: { m: {} },
      rows: [{ line: 1, id: null, metrics: { m: { numerator: 1, denominator: 2 } } }],
    },
    bfcl: {
      schema: "assay.bfcl.v1",
      model: "m",
      checker: "bfcl.ast@2024-08",
      categories: [{ category: "simple" }],
      records: [{
        category: "simple",
        id: 3,
        valid: true,
        entryId: "simple_2",
        errorType: null,
        error: null,
      }],
    },
    ifeval: {
      schema: "assay.ifeval.v1",
      prompts: [{ key: 1, instruction_id_list: ["a"], strict: [true], loose: [true] }],
    },
    suite: { schema: "assay.suite_run.v1", scorecard: { metrics: ["m"] }, runs: [run] },
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
    ["bfcl", (r) => delete r.checker, /malformed: checker is not a string$/],
    ["bfcl", (r) => r.matching = 5, /malformed: matching is not a string or absent$/],
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
