// Reports edited by hand or written by another tool, each with one field that is not what the
// report's schema says (docs/evaluation.md, "The report"): every command that reads them refuses
// them through the one check of report_check (checkReport), exit 2, naming the file and the field,
// instead of reading them (show, gaps, gate) or refusing them for another reason (compare said an
// evaluation report without metrics had "overall metrics that are not the sums of its records").
import { match, ok, strictEqual } from "node:assert/strict";
import { runMain } from "./_main.ts";
import { reportCommands } from "./_report_kinds.ts";

const samples = new URL("../../samples/", import.meta.url).pathname;
const dir = await Deno.makeTempDir();
const commands = reportCommands(dir);

async function make(args: string[]) {
  const r = await runMain([...args, "--quiet"]);
  strictEqual(r.code, 0, r.stderr);
}
const read = async (path: string) => JSON.parse(await Deno.readTextFile(path));

// The real reports of each kind, as their commands write them.
const demo = `${samples}demo/`;
const score = (generations: string, out: string) =>
  make([
    "score",
    "--examples",
    `${demo}examples.jsonl`,
    "--prompts",
    `${demo}prompts.jsonl`,
    "--generations",
    `${demo}${generations}`,
    "--out",
    out,
  ]);
await score("generations.base.jsonl", `${dir}/base.json`);
await score("generations.adapter.jsonl", `${dir}/adapter.json`);
await make(commands.bfcl);
await make(commands.ifeval);
await make(commands.structured);
await make(commands.suite);

// deno-lint-ignore no-explicit-any
type Edit = (r: any) => void;

// An evaluation report (the demo's base run) with one field broken, and the words that name it.
const EVALUATION: [Edit, string][] = [
  [(r) => r.records[0].status = "weird", "records[0].status is not one of the parse statuses"],
  [(r) => delete r.metrics, "metrics is missing"],
  [(r) => delete r.tool, "tool is missing"],
  [(r) => r.tool = { name: "x" }, "tool is not {name, version}"],
  [(r) => r.parser_id = 5, "parser_id is not a string"],
  [(r) => delete r.canonical_id, "canonical_id is missing"],
  [(r) => r.numbers = "exact", 'numbers is not "numeric" or absent'],
  [(r) => delete r.engine, "engine is missing"],
  [(r) => r.n = "395", "n is not a count"],
  [(r) => delete r.drop_summary, "drop_summary is missing"],
  [(r) => r.drop_summary.empty_target = -1, "drop_summary is not {multiple_calls,"],
  [(r) => delete r.dropped_ids, "dropped_ids is missing"],
  [(r) => r.dropped_ids.empty_target = [1], "dropped_ids is not {multiple_calls,"],
  [(r) => delete r.parse_status_counts, "parse_status_counts is missing"],
  [(r) => r.parse_status_counts.weird = 0, "parse_status_counts is not"],
  [(r) => r.metrics = [], "metrics is not {overall, by_language}"],
  [(r) => delete r.metrics.overall, "metrics.overall is missing"],
  [
    (r) => r.metrics.overall.argument_f1 = { value: 0.5 },
    "metrics.overall.argument_f1 is not {value, numerator, denominator}",
  ],
  [
    (r) => r.metrics.overall.valid_json_rate.value = 0.99,
    "metrics.overall.valid_json_rate is not {value, numerator, denominator}",
  ],
  [(r) => delete r.metrics.by_language, "metrics.by_language is missing"],
  [
    (r) => delete r.metrics.by_language.de.full_call_exact_match,
    'metrics.by_language["de"].full_call_exact_match is missing',
  ],
  [(r) => r.records[0].root_id = 5, "records[0].root_id is not a string or null"],
  [(r) => delete r.records[1].root_id, "records[1].root_id is missing"],
  // Refused before too (recordProblem): kept beside the others as they are worded alike.
  [(r) => r.records[0].reason = null, "records[0].reason is not a string"],
  // Fields that disagree with each other, as a hand edit of one of them leaves them.
  [
    (r) => r.records[0].status = "no_json",
    'records[0].name_match is true, but its status is "no_json", not "ok"',
  ],
  [
    (r) => Object.assign(r.records[0], { status: "no_json", name_match: false }),
    'records[0].arguments_match is true, but its status is "no_json", not "ok"',
  ],
  [
    (r) => r.records[4].predicted_pairs = 1,
    'records[4].predicted_pairs is 1, but its status is "invalid_shape", not "ok"',
  ],
  [(r) => r.records[2].language = "xx", 'records[2].language "xx" is not one of slices'],
  [
    (r) => r.slices.push("zz"),
    'slices is not the records\' languages, each once, in code-point order ("de", "en", "es", ' +
    '"fr", "ja")',
  ],
  [(r) => r.slices.reverse(), "slices is not the records' languages"],
  [
    (r) => r.metrics.overall.valid_json_rate = { value: 1, numerator: 395, denominator: 395 },
    "metrics.overall.valid_json_rate is 395 of 395, not the sum over the records (337 of 395)",
  ],
  [
    (r) => r.metrics.by_language.de.argument_f1 = { value: 1, numerator: 660, denominator: 660 },
    'metrics.by_language["de"].argument_f1 is 660 of 660, not the sum over its records ' +
    "(550 of 660)",
  ],
  [
    (r) => r.metrics.by_language.xx = r.metrics.by_language.de,
    'metrics.by_language["xx"] is not one of slices',
  ],
  [
    (r) => r.dropped_ids.multiple_calls.pop(),
    "dropped_ids.multiple_calls holds 12 ids, not drop_summary.multiple_calls (13)",
  ],
];

// Writes a copy of `file` with `edit` made: its path.
async function edited(file: string, edit: Edit, n: number): Promise<string> {
  const r = await read(file);
  edit(r);
  const path = `${dir}/edited_${n}.json`;
  await Deno.writeTextFile(path, JSON.stringify(r, null, 2));
  return path;
}

async function refused(args: string[], file: string, words: string) {
  const r = await runMain(args);
  const what = `assay ${args.join(" ")} (${words})`;
  strictEqual(r.code, 2, `${what}: exit ${r.code}\n${r.stderr}`);
  const named = r.stderr.includes(`${file}: The `) &&
    r.stderr.includes(` report is malformed: ${words}`);
  ok(named, `${what}: ${r.stderr}`);
}

Deno.test("show, gaps, gate and compare refuse a hand-edited evaluation report, naming the file and the field", async () => {
  await Deno.writeTextFile(
    `${dir}/rules.yaml`,
    "rules:\n  - metric: valid_json_rate\n    min: 0\n",
  );
  await Deno.writeTextFile(
    `${dir}/paired.yaml`,
    "rules:\n  - metric: valid_json_rate\n    max_regressions: 1000\n",
  );
  // The reports as written pass every reader.
  for (
    const args of [
      ["show", `${dir}/base.json`, "--limit", "1"],
      ["gaps", `${dir}/base.json`, "--resamples", "10"],
      ["gate", `${dir}/rules.yaml`, "--report", `${dir}/base.json`],
      ["compare", `${dir}/base.json`, `${dir}/adapter.json`, "--resamples", "10"],
    ]
  ) {
    const r = await runMain(args);
    strictEqual(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  }
  let n = 0;
  for (const [edit, words] of EVALUATION) {
    const file = await edited(`${dir}/base.json`, edit, n++);
    await refused(["show", file, "--limit", "1"], file, words);
    await refused(["gaps", file, "--resamples", "10"], file, words);
    await refused(["gate", `${dir}/rules.yaml`, "--report", file], file, words);
    await refused(
      ["gate", `${dir}/paired.yaml`, "--base", `${dir}/adapter.json`, "--candidate", file],
      file,
      words,
    );
    await refused(["compare", file, `${dir}/adapter.json`, "--resamples", "10"], file, words);
    await refused(["compare", `${dir}/adapter.json`, file, "--resamples", "10"], file, words);
  }
});

Deno.test("an assay.evaluation.v1 report needs no dropped_ids, and is checked otherwise as v2 is", async () => {
  const v1 = await read(`${dir}/base.json`);
  delete v1.dropped_ids;
  v1.schema = "assay.evaluation.v1";
  await Deno.writeTextFile(`${dir}/v1.json`, JSON.stringify(v1));
  const r = await runMain(["show", `${dir}/v1.json`, "--id", "en-0001"]);
  strictEqual(r.code, 0, r.stderr);
  const file = await edited(`${dir}/v1.json`, (x) => delete x.metrics, 1000);
  await refused(["show", file], file, "metrics is missing");
});

// The other kinds each command reads: a required field missing or of the wrong type.
const OTHERS: [string, Edit, string, string[][]][] = [
  ["bfcl", (r) => delete r.accuracy, "accuracy is missing", [["bfcl", "compare"]]],
  ["bfcl", (r) => r.accuracy.numerator = 1e9, "accuracy is not", [["bfcl", "compare"]]],
  ["bfcl", (r) => delete r.errorTypes, "errorTypes is missing", [["bfcl", "compare"]]],
  // bfcl compare said "the A report's accuracy is not the count of its records' verdicts"; show
  // and gate read it.
  [
    "bfcl",
    (r) => r.accuracy = { value: 1, numerator: 400, denominator: 400 },
    "accuracy is 400 of 400, not the count of the records' verdicts (375 of 400)",
    [["bfcl", "compare"]],
  ],
  [
    "bfcl",
    (r) => delete r.categories[0].accuracy,
    "categories[0].accuracy is not",
    [["bfcl", "compare"]],
  ],
  ["bfcl", (r) => r.matching = "best", 'matching is not "greedy" or "optimal"', []],
  ["bfcl", (r) => r.matchingDisagreements = {}, "matchingDisagreements is not", []],
  ["ifeval", (r) => delete r.checker, "checker is missing", [["ifeval", "compare"]]],
  ["ifeval", (r) => delete r.strict, "strict is missing", [["ifeval", "compare"]]],
  ["ifeval", (r) => r.loose.prompt_level = 1, "loose is not {prompt_level,", []],
  ["structured", (r) => delete r.mode, "mode is missing", []],
  ["structured", (r) => r.mode = "sloppy", 'mode is not "strict", "fenced" or "lenient"', []],
  ["structured", (r) => delete r.tool, "tool is missing", []],
  ["structured", (r) => delete r.inputs, "inputs is missing", []],
  ["structured", (r) => r.n = -1, "n is not a count", []],
  ["structured", (r) => r.metrics.json_validity = { value: 1 }, "metrics.json_validity is not", []],
  ["suite", (r) => delete r.suite_sha256, "suite_sha256 is missing", []],
  ["suite", (r) => r.judge = "maybe", 'judge is not "on", "off" or "none"', []],
  ["suite", (r) => delete r.tool, "tool is missing", []],
  ["suite", (r) => delete r.runs[0].repeat, "runs[0].repeat is not a count", []],
  ["suite", (r) => r.runs[0].overall.status = "done", "runs[0].overall is not {status", []],
];
const METRIC: Record<string, string> = {
  bfcl: "accuracy",
  ifeval: "prompt_strict",
  structured: "json_validity",
  suite: "pass_rate",
};

Deno.test("show, gate and bfcl or ifeval compare refuse a BFCL, IFEval, structured or suite report missing a required field", async () => {
  // The reports as written pass the gate.
  for (const [kind, metric] of Object.entries(METRIC)) {
    const rules = `${dir}/${kind}_rules.yaml`;
    await Deno.writeTextFile(rules, `rules:\n  - metric: ${metric}\n    min: 0\n`);
    const r = await runMain(["gate", rules, "--report", `${dir}/${kind}.json`, "--json"]);
    strictEqual(r.code, 0, `${kind}: ${r.stderr}`);
  }
  let n = 2000;
  for (const [kind, edit, words, compares] of OTHERS) {
    const rules = `${dir}/${kind}_rules.yaml`;
    const report = `${dir}/${kind}.json`;
    const file = await edited(report, edit, n++);
    await refused(["show", file, "--limit", "1"], file, words);
    await refused(["gate", rules, "--report", file], file, words);
    for (const command of compares) {
      await refused([...command, file, report], file, words);
      await refused([...command, report, file], file, words);
    }
  }
});

Deno.test("the words of a refusal name the file once, before the report's schema", async () => {
  const file = await edited(`${dir}/base.json`, (r) => delete r.metrics, 3000);
  const r = await runMain(["compare", file, `${dir}/base.json`]);
  strictEqual(r.code, 2);
  match(
    r.stderr,
    new RegExp(
      `^assay compare: ${file}: The assay\\.evaluation\\.v2 report is malformed: ` +
        "metrics is missing$",
    ),
  );
  await Deno.remove(dir, { recursive: true });
});
