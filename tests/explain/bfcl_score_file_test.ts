// showBfclScoreFile(): BFCL's own published score files and the ones Assay writes list the same
// failing entries as the checker's report does; values shown as the file writes them; a file that
// is not a score file, or a broken line, is a RangeError naming it.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { bfclReport, formatScoreFile } from "../../src/bfcl/mod.ts";
import { isBfclScoreFile, showBfclEntries, showBfclScoreFile } from "../../src/explain/mod.ts";
import { gunzipText, PUBLISHED_SCORES, runModel } from "../bfcl/_fixtures.ts";

// The entries a text shows: the first word of each entry's first line.
const shownIds = (text: string) =>
  text.split("\n\n").map((block) => block.split("  ")[0]!).filter((id) =>
    !/ shown \(|^No entry/.test(id)
  );

Deno.test("a BFCL score file, published or Assay's, shows the failing entries the checker's report shows", async () => {
  for (const [model, category] of PUBLISHED_SCORES) {
    const run = await runModel(model, category);
    const failing = showBfclEntries(bfclReport([run]), { failing: true });
    const ours = formatScoreFile(run);
    const published = await gunzipText(`scores/${model}/${category}_score.json.gz`);
    for (const [name, file] of [["ours", ours], ["published", published]] as const) {
      ok(isBfclScoreFile(file), `${model}/${category} ${name}`);
      const shown = showBfclScoreFile(file, {}, `${category}_score.json`);
      deepStrictEqual(shownIds(shown), shownIds(failing), `${model}/${category} ${name}`);
      // Every entry is a failing one: --failing changes nothing.
      strictEqual(showBfclScoreFile(file, { failing: true }, `${category}_score.json`), shown);
      const [correct, total] = [run.correct, run.total];
      ok(shown.endsWith(`${correct} of ${total} passed\n`), shown.slice(-200));
    }
    console.log(`${model} ${category}: ${shownIds(failing).length} failing entries, both files`);
  }
});

Deno.test("a score file's values are shown as written, printable, and its filters are checked", () => {
  const file = '{"accuracy": 0.5, "correct_count": 1, "total_count": 3}\n' +
    '{"id": 2, "test_category": "simple", "valid": false, "error": ["Bad \\u001b[31mx."], ' +
    '"error_type": "value_error:others", "prompt": {"id": "simple_1", "question": "Add 1.0"}, ' +
    '"model_result_raw": "[add(x=1)]\\n", "model_result_decoded": [{"add": {"x": 1}}], ' +
    '"possible_answer": {"add": {"x": [1.0, 12345678901234567890123]}}}\n' +
    '{"id": 3, "test_category": "simple", "valid": false, "error": "one message", ' +
    '"error_type": "simple_function_checker:wrong_count", "model_result_raw": NaN}\n';
  const shown = showBfclScoreFile(file, {}, "s.json");
  // A text with a control character is shown quoted and escaped (printableText).
  strictEqual(
    shown,
    "simple_1  [simple]  #2  valid NO  value_error:others\n" +
      '  error: "Bad \\u001b[31mx."\n' +
      "  question: Add 1.0\n" +
      '  output:   "[add(x=1)]\\n"\n' +
      '  decoded:  [{"add":{"x":1}}]\n' +
      '  expected: {"add":{"x":[1.0,12345678901234567890123]}}\n' +
      "\n" +
      "simple_2  [simple]  #3  valid NO  simple_function_checker:wrong_count\n" +
      "  error: one message\n" +
      "  output:   NaN\n" +
      "\n" +
      "2 of 2 selected entries shown (2 in the file); a score file lists the failing entries " +
      "only: 1 of 3 passed\n",
  );
  // The gate's id for an entry (category#position) selects it too.
  ok(showBfclScoreFile(file, { ids: ["simple#3"] }).startsWith("simple_2  [simple]  #3"));
  throws(() => showBfclScoreFile(file, { ids: ["simple_9"] }, "s.json"), /s\.json has no entry/);
  throws(() => showBfclScoreFile(file, { slice: "java" }, "s.json"), /has no category "java"/);
  throws(
    () => showBfclScoreFile(file, { failing: true, metric: "valid" }, "s.json"),
    /metric does not apply/,
  );
});

Deno.test("a text that is not a score file, or a broken entry line, is a RangeError naming it", () => {
  for (const text of ["", "{}\n", '{"schema": "assay.bfcl.v1"}\n', "[1, 2]\n", "not json"]) {
    strictEqual(isBfclScoreFile(text), false, text);
    throws(() => showBfclScoreFile(text, {}, "x.json"), /^RangeError: x\.json is not a BFCL score/);
  }
  const head = '{"accuracy": 1, "correct_count": 1, "total_count": 1}\n';
  throws(() => showBfclScoreFile(head + "{oops\n", {}, "x.json"), /x\.json:2: not a JSON object/);
  throws(
    () => showBfclScoreFile(head + '{"id": "1", "test_category": "simple"}\n', {}, "x.json"),
    /x\.json:2: an entry needs a number "id"/,
  );
  // A summary alone: no failing entry.
  strictEqual(
    showBfclScoreFile(head),
    "No entry matches the filters given (0 in the file); a score file lists the failing " +
      "entries only: 1 of 1 passed\n",
  );
});
