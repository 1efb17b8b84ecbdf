// `assay bfcl` end to end: BFCL's score file and the assay.bfcl.v1 report, written atomically;
// exit 2 with a message naming the file and line for bad input or usage.
import { match, strictEqual } from "node:assert/strict";
import { runMain } from "./_main.ts";
import { gunzipText } from "../bfcl/_fixtures.ts";

async function fixtureFiles(dir: string, model: string, category: string) {
  const data = `data/gorilla_openfunctions_v1_test_${category}.json.gz`;
  const files = {
    questions: [data, `${dir}/q.json`],
    answers: [
      `data/possible_answer/gorilla_openfunctions_v1_test_${category}.json.gz`,
      `${dir}/a.json`,
    ],
    result: [`results/${model}/${category}_result.json.gz`, `${dir}/r.json`],
  };
  for (const [from, to] of Object.values(files)) {
    await Deno.writeTextFile(to!, await gunzipText(from!));
  }
  return [
    "--questions",
    `${dir}/q.json`,
    "--answers",
    `${dir}/a.json`,
    "--result",
    `${dir}/r.json`,
  ];
}

Deno.test("assay bfcl writes BFCL's score file and the assay.bfcl.v1 report", async () => {
  const dir = await Deno.makeTempDir();
  const inputs = await fixtureFiles(dir, "gpt-4o-2024-05-13-FC", "simple");
  const simple = ["bfcl", "--checker", "bfcl.ast@2024-08", "--category", "simple", ...inputs];
  const r = await runMain([
    ...simple,
    "--underscore-to-dot",
    "--model",
    "gpt-4o-2024-05-13-FC",
    "--out",
    `${dir}/score.json`,
    "--report",
    `${dir}/report.json`,
  ]);
  strictEqual(r.code, 0, r.stderr);
  match(r.stdout, /gpt-4o-2024-05-13-FC simple: 353\/400 correct \(0\.8825\)/);
  const published = await gunzipText("scores/gpt-4o-2024-05-13-FC/simple_score.json.gz");
  strictEqual(await Deno.readTextFile(`${dir}/score.json`), published.replace(/\n$/, ""));
  const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  strictEqual(report.schema, "assay.bfcl.v1");
  strictEqual(report.categories[0].accuracy.numerator, 353);
  // Without the name rewrite, every dotted function name is missed.
  const again = await runMain([
    ...simple,
    "--out",
    `${dir}/score.json`,
    "--quiet",
  ]);
  strictEqual(again.code, 0, again.stderr);
  match(await Deno.readTextFile(`${dir}/score.json`), /wrong_func_name/);
});

Deno.test("assay bfcl --matching optimal records the matching and the entries it changes", async () => {
  const dir = await Deno.makeTempDir();
  const inputs = await fixtureFiles(dir, "gpt-4-0613", "parallel_function");
  const r = await runMain([
    "bfcl",
    "--checker",
    "bfcl.ast@2024-08",
    "--category",
    "parallel_function",
    ...inputs,
    "--model",
    "gpt-4-0613",
    "--matching",
    "optimal",
    "--out",
    `${dir}/score.json`,
    "--report",
    `${dir}/report.json`,
  ]);
  strictEqual(r.code, 0, r.stderr);
  match(r.stdout, /optimal matching passes 0 entries that greedy matching fails/);
  const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  strictEqual(report.matching, "optimal");
  strictEqual(report.matchingDisagreements.length, 0);
});

Deno.test("assay bfcl exits 2 naming the file and line of bad input, and on bad usage", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/r.json`, '{"id": "relevance_0", "result": "No."}\n{"id": 1,\n');
  const bad = await runMain([
    "bfcl",
    "--checker",
    "bfcl.ast@2024-08",
    "--category",
    "relevance",
    "--result",
    `${dir}/r.json`,
    "--out",
    `${dir}/s.json`,
  ]);
  strictEqual(bad.code, 2);
  match(bad.stderr, new RegExp(`${dir}/r\\.json:2: not JSON`));
  const usage = [
    [["--checker", "bfcl.ast@2025"], /Unknown checker "bfcl\.ast@2025"/],
    [["--checker", "bfcl.ast@2024-08", "--category", "simpel"], /Unknown category "simpel"/],
    [
      ["--checker", "bfcl.ast@2024-08", "--category", "simple", "--result", "x"],
      /needs --questions and --answers/,
    ],
    [["--category", "relevance"], /--checker bfcl\.ast@2024-08 is required/],
    [
      [
        "--checker",
        "bfcl.ast@2024-08",
        "--category",
        "relevance",
        "--result",
        "x",
        "--matching",
        "best",
      ],
      /Unknown matching "best" \(matchings: greedy, optimal\)/,
    ],
  ] as const;
  for (const [args, message] of usage) {
    const r = await runMain(["bfcl", ...args, "--out", `${dir}/s.json`]);
    strictEqual(r.code, 2, args.join(" "));
    match(r.stderr, message);
  }
  const help = await runMain(["bfcl", "--help"]);
  strictEqual(help.code, 0);
  match(help.stdout, /Usage: deno task assay bfcl --checker bfcl\.ast@2024-08/);
});
