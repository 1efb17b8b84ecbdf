// selectExamples(): the records of an evaluation report that `assay show`'s filters choose, and a
// filter naming what the report does not have refused (RangeError), naming the report's source.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { selectExamples } from "../../src/explain/mod.ts";
import { type EvaluationReport, scoreToolCalls } from "../../src/evaluation/mod.ts";

const call = (a: number) => JSON.stringify({ name: "f", arguments: { a } });
// a: right; b: wrong arguments; c: no JSON; d (ja): wrong name; e (ja): right.
const report: EvaluationReport = scoreToolCalls(
  [
    { example_id: "a", language: "en", target: call(1) },
    { example_id: "b", language: "en", target: call(1) },
    { example_id: "c", language: "en", target: call(1) },
    { example_id: "d", language: "ja", target: call(1) },
    { example_id: "e", language: "ja", target: call(1) },
  ],
  [
    { example_id: "a", output: call(1) },
    { example_id: "b", output: call(2) },
    { example_id: "c", output: "no call" },
    { example_id: "d", output: JSON.stringify({ name: "g", arguments: { a: 1 } }) },
    { example_id: "e", output: call(1) },
  ],
);
const ids = (selection: Parameters<typeof selectExamples>[1]) =>
  selectExamples(report, selection).map((r) => r.example_id);

Deno.test("selectExamples() applies every filter given, in the report's order", () => {
  deepStrictEqual(ids({}), ["a", "b", "c", "d", "e"]);
  deepStrictEqual(ids({ failing: "full_call_exact_match" }), ["b", "c", "d"]);
  deepStrictEqual(ids({ failing: "function_name_accuracy" }), ["c", "d"]);
  deepStrictEqual(ids({ failing: "argument_exact_match" }), ["b", "c"]);
  deepStrictEqual(ids({ failing: "valid_json_rate" }), ["c"]);
  deepStrictEqual(ids({ slice: "ja" }), ["d", "e"]);
  deepStrictEqual(ids({ slice: "ja", failing: "full_call_exact_match" }), ["d"]);
  deepStrictEqual(ids({ ids: ["e", "a"] }), ["a", "e"]);
  deepStrictEqual(ids({ ids: ["e", "a"], slice: "en" }), ["a"]);
  deepStrictEqual(ids({ status: "no_json" }), ["c"]);
  deepStrictEqual(ids({ status: "ok", failing: "full_call_exact_match" }), ["b", "d"]);
});

Deno.test("selectExamples() refuses an id, slice, status or metric the report does not have", () => {
  const refused = (selection: Parameters<typeof selectExamples>[1], message: string) =>
    throws(() => selectExamples(report, selection, "r.json"), (e) => {
      strictEqual(e instanceof RangeError && e.message, message);
      return true;
    });
  refused({ ids: ["a", "zz", "y\n"] }, 'r.json has no example "zz", "y\\n"');
  refused({ slice: "jp" }, 'r.json has no slice "jp" (it has en, ja)');
  // The statuses the report counts, whether or not a record has them, with the nearest one.
  refused(
    { status: "no-json" },
    'r.json has no parse status "no-json" (did you mean no_json? it has ok, no_json, ' +
      "invalid_json, invalid_shape)",
  );
  // A report without parse_status_counts: the statuses its records have.
  const { parse_status_counts: _, ...uncounted } = report;
  throws(
    () => selectExamples(uncounted as EvaluationReport, { status: "xyzzy" }, "r.json"),
    /r\.json has no parse status "xyzzy" \(it has ok, no_json\)/,
  );
  refused(
    { failing: "argument_f1" as never },
    "failing must be one of valid_json_rate, function_name_accuracy, argument_exact_match, " +
      'full_call_exact_match, got "argument_f1"',
  );
  throws(() => selectExamples(report, { slice: "jp" }), /^RangeError: the report has no slice/);
});

Deno.test("selectExamples() says an id the report dropped or left unscored was not scored, and why", () => {
  const partial = scoreToolCalls(
    [
      ...["a", "b", "c"].map((id) => ({ example_id: id, language: "en", target: call(1) })),
      { example_id: "d", language: "en", target: "[" + call(1) + "," + call(2) + "]" },
    ],
    [{ example_id: "c", output: call(1) }, { example_id: "d", output: call(1) }],
    { allowMissing: true },
  );
  deepStrictEqual(partial.dropped_ids!.multiple_calls, ["d"]);
  const refused = (wanted: string[], message: string) =>
    throws(() => selectExamples(partial, { ids: wanted }, "p.json"), (e) => {
      strictEqual(e instanceof RangeError && e.message, message);
      return true;
    });
  const none = "(no generation: the run was scored with --allow-missing)";
  refused(["a"], `p.json did not score "a" ${none}`);
  refused(
    ["d", "b", "c"],
    `p.json did not score "d" (dropped before scoring: multiple_calls), "b" ${none}`,
  );
  refused(["zz", "a"], `p.json has no example "zz", and did not score "a" ${none}`);
});

Deno.test("selectExamples() refuses a report without its records and ids that are not a list", () => {
  // "selection.ids.map is not a function" and "Cannot read properties of null (reading 'records')".
  throws(() => selectExamples(report, { ids: "a" as never }), {
    name: "TypeError",
    message: "Option ids must be a list of example ids",
  });
  for (const bad of [null, {}, { records: [] }]) {
    throws(() => selectExamples(bad as never, {}), {
      name: "TypeError",
      message: "Expected an evaluation report with its records",
    });
  }
});
