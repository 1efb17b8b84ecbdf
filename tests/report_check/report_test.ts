// parseReportJson() and checkReport(): a report's bytes or text read back as a reader takes it,
// every refusal an InputError naming the report's source (the messages `assay compare`, `show`,
// `gate`, `bfcl compare` and `ifeval compare` print for a file).
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { checkReport, parseReportJson } from "../../src/report_check/mod.ts";
import { formatReport, scoreToolCalls } from "../../src/evaluation/mod.ts";
import { InputError, InvalidUtf8Error } from "../../src/jsonl/mod.ts";
import { IFEVAL_FIELDS } from "./_complete.ts";

const call = '{"name": "f", "arguments": {"a": 1}}';
const evaluation = formatReport(scoreToolCalls(
  [{ example_id: "a", language: "en", target: call }],
  [{ example_id: "a", output: call }],
));

/** The InputError `f` throws: its message. */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    ok(e instanceof InputError, String(e));
    return e.message;
  }
  throw new Error("not refused");
}

Deno.test("parseReportJson() reads bytes and text, and names the exact parser's error", () => {
  const bytes = new TextEncoder().encode("\ufeff" + evaluation);
  const parsed = parseReportJson(bytes, "r.json") as { schema: string; records: unknown[] };
  strictEqual(parsed.schema, "assay.evaluation.v2");
  deepStrictEqual(parseReportJson(evaluation, "r.json"), parsed);
  strictEqual(
    refusal(() => parseReportJson('{"schema": ', "r.json")),
    "r.json is not JSON: expecting_value at 11 (line 1, column 12)",
  );
  strictEqual(
    refusal(() => parseReportJson("{} x", "r.json")),
    "r.json is not JSON: extra_data at 3 (line 1, column 4)",
  );
  // A pretty-printed report is placed at its line and column too.
  strictEqual(
    refusal(() => parseReportJson('{\n  "schema": "x",\n  "records": [\n    {,\n', "r.json")),
    "r.json is not JSON: expecting_property_name at 39 (line 4, column 6)",
  );
  throws(
    () => parseReportJson(new Uint8Array([0x7b, 0x0a, 0xff, 0x7d]), "r.json"),
    (e) => e instanceof InvalidUtf8Error && /^r\.json:2: invalid UTF-8/.test(e.message),
  );
});

Deno.test("checkReport() refuses what is not a report of the expected kinds, naming the source", () => {
  const bfcl = ["assay.bfcl.v1"];
  for (
    const [value, schemas, message] of [
      [[1], bfcl, "r.json is not a report: it holds an array, not an object"],
      [null, bfcl, "r.json is not a report: it holds null, not an object"],
      [{}, bfcl, 'r.json is not a report: it has no "schema" (expected an assay.bfcl.v1 report)'],
      [
        { schema: "assay.gate.v1" },
        ["assay.bfcl.v1", "assay.ifeval.v1"],
        'r.json has schema "assay.gate.v1", not an assay.bfcl.v1 or assay.ifeval.v1 report',
      ],
      [
        { schema: 2 },
        bfcl,
        'r.json has a "schema" that is a number, not an assay.bfcl.v1 report',
      ],
      [{ schema: "assay.bfcl.v1" }, bfcl, 'r.json: the assay.bfcl.v1 report has no "records" list'],
      [
        { schema: "assay.suite_run.v1", runs: {} },
        ["assay.suite_run.v1"],
        'r.json: "runs" of the assay.suite_run.v1 report is an object, not a list',
      ],
      [
        { schema: "assay.ifeval.v1", ...IFEVAL_FIELDS, prompts: [1] },
        ["assay.ifeval.v1"],
        "r.json: The assay.ifeval.v1 report is malformed: prompts[0] is not an object",
      ],
      [
        { schema: "assay.ifeval.v1", prompts: [] },
        ["assay.ifeval.v1"],
        "r.json: The assay.ifeval.v1 report is malformed: checker is missing",
      ],
    ] as const
  ) strictEqual(refusal(() => checkReport(value, "r.json", schemas)), message);
});

Deno.test("checkReport() returns the report, and takes a reader's own list of units", () => {
  const report = parseReportJson(evaluation, "r.json");
  strictEqual(checkReport(report, "r.json", ["assay.evaluation.v2"]), report);
  // A schema without a list of its own needs one only when the reader names it.
  const gate = { schema: "assay.gate.v1", rules: [] };
  strictEqual(checkReport(gate, "g.json", ["assay.gate.v1"]), gate);
  strictEqual(
    refusal(() => checkReport(gate, "g.json", ["assay.gate.v1"], "records")),
    'g.json: the assay.gate.v1 report has no "records" list',
  );
});

Deno.test("checkReport() refuses schemas that are not a list", () => {
  // A string failed inside: "schemas.slice(...).join is not a function".
  throws(() => checkReport({}, "r.json", "assay.bfcl.v1" as never), {
    name: "TypeError",
    message: "Expected the schemas as a list of names",
  });
});
