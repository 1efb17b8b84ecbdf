// ifevalReport() records the digests of the files a run read, and two reports scored against
// different input files are refused by compareIfevalReports() (the prompts' kwargs live in the
// input file, which two models of a comparison must share); a report without digests (written
// before 2026-12-05) is compared, with a note.
import { deepStrictEqual, match, strictEqual, throws } from "node:assert/strict";
import {
  compareIfevalReports,
  digestIfevalInputs,
  ifevalReport,
  officialLine,
  runIfeval,
} from "../../src/ifeval/mod.ts";
import { ComparisonGateError, sha256Hex } from "../../mod.ts";
import { fixtureText } from "./_fixtures.ts";

const input = { name: "input_data.jsonl", text: await fixtureText("input_data.jsonl") };
const responses = {
  name: "responses_gpt4.jsonl",
  text: await fixtureText("responses_gpt4.jsonl"),
};

// The review's input: every num_words set to 1 with "at least", the same prompts and responses.
const modified = {
  name: "in_mod.jsonl",
  text: input.text.split("\n").map((line) => {
    if (line === "") return line;
    const row = JSON.parse(line);
    row.kwargs = row.kwargs.map((k: Record<string, unknown>) =>
      k.num_words === undefined || k.num_words === null
        ? k
        : { ...k, num_words: 1, relation: "at least" }
    );
    return JSON.stringify(row);
  }).join("\n"),
};

async function scored(files: { input: typeof input; responses: typeof responses }) {
  const run = runIfeval(files);
  return { run, report: ifevalReport(run, await digestIfevalInputs(files)) };
}

const a = await scored({ input, responses });
const m = await scored({ input: modified, responses });

Deno.test("ifevalReport() records the SHA-256 of the input and responses files", () => {
  deepStrictEqual(a.report.inputs, {
    input: { sha256: sha256Hex(input.text) },
    responses: { sha256: sha256Hex(responses.text) },
  });
  strictEqual(Object.keys(a.report).join(), "schema,checker,inputs,strict,loose,prompts");
  // Without digests the report is as before: no inputs field.
  strictEqual("inputs" in ifevalReport(a.run), false);
  // The official results lines are the run's, as before (agreement_test.ts checks every byte).
  strictEqual(
    a.run.strict.map(officialLine).join("\n"),
    runIfeval({ input, responses }).strict.map(officialLine).join("\n"),
  );
});

Deno.test("compareIfevalReports() refuses reports scored against different input files", () => {
  // The modified input moves the loose prompt-level accuracy with the same responses.
  strictEqual(
    a.report.loose.prompt_level.numerator === m.report.loose.prompt_level.numerator,
    false,
  );
  throws(
    () => compareIfevalReports(a.report, m.report, { resamples: 100 }),
    (e: Error) => {
      strictEqual(e instanceof ComparisonGateError, true);
      const [ia, im] = [a.report, m.report].map((r) => r.inputs!.input.sha256.slice(0, 12));
      strictEqual(
        e.message,
        `Refusing to compare: input files' sha256 differ: A ${ia}…, B ${im}…`,
      );
      return true;
    },
  );
  const same = compareIfevalReports(a.report, a.report, { resamples: 100 });
  strictEqual(same.note, undefined);
  strictEqual(same.strict.prompt.delta, 0);
});

Deno.test("compareIfevalReports() compares a report without digests, and its note says to score it again", () => {
  const { inputs: _, ...old } = m.report;
  const c = compareIfevalReports(a.report, old, { resamples: 100 });
  match(c.note!, /^report B records no input digest \(written before 2026-12-05, .*score it again/);
  const both = compareIfevalReports(old, old, { resamples: 100 });
  match(both.note!, /^reports A and B record no input digest/);
});
