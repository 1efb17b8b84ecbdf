// What bfcl, ifeval, structured, suite and calibrate print of their inputs' own strings: model,
// arm, suite and metric names, golden and row ids, instruction ids and checkers that hold escape
// sequences, C1 and bidi controls or line breaks reach no terminal raw, on stdout or stderr.
import { ok, strictEqual } from "node:assert/strict";
import { gunzipText } from "../bfcl/_fixtures.ts";
import { fixturePath } from "../ifeval/_fixtures.ts";
import { runCli } from "./_main.ts";

const demo = new URL("../../samples/suite_demo", import.meta.url).pathname;

const assay = runCli;

/** A hostile string: CSI, C1, DEL, bidi overrides and isolates, U+2028 and a forged line. */
const hostile = (name: string) =>
  `${name}\u001b[31m\u0085\u009b\u007f\u202e\u2067\u2028\rFAKE\nFAKE  pass  everything fine`;

// Every control a terminal acts on but the line feed between lines: C0, DEL, C1, the bidi
// embeddings, overrides and isolates, and the line and paragraph separators.
// deno-lint-ignore no-control-regex
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** Neither stream holds a raw control or a line that the data started. */
function printable(r: { stdout: string; stderr: string }, what: string) {
  for (const [stream, text] of [["stdout", r.stdout], ["stderr", r.stderr]]) {
    const at = RAW.exec(text!);
    ok(
      at === null,
      `${what} ${stream} has a raw U+${at?.[0].charCodeAt(0).toString(16)}:\n${text}`,
    );
    ok(!/^FAKE/m.test(text!), `${what} ${stream} has a forged line:\n${text}`);
  }
}

/** A JSON or YAML double-quoted string of `s`, in ASCII: YAML takes every non-ASCII as is. */
const ascii = (s: string) =>
  JSON.stringify(s).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

Deno.test("bfcl, bfcl compare, ifeval, ifeval compare and structured show names and ids as printableText does", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/r.json`,
    await gunzipText("results/gpt-4-0613/relevance_result.json.gz"),
  );
  const reports = [];
  for (const side of ["A", "B"]) {
    const r = await assay([
      "bfcl",
      "--checker",
      "bfcl.ast@2024-08",
      "--category",
      "relevance",
      "--result",
      `${dir}/r.json`,
      "--model",
      hostile(`model ${side}`),
      "--decoder",
      "gpt",
      "--out",
      `${dir}/score${side}.json`,
      "--report",
      `${dir}/report${side}.json`,
    ]);
    strictEqual(r.code, 0, r.stderr);
    printable(r, "bfcl");
    ok(r.stdout.startsWith(`"model ${side}\\u001b[31m\\u0085`), r.stdout);
    reports.push(`${dir}/report${side}.json`);
  }
  const bfclCompare = await assay(["bfcl", "compare", ...reports, "--resamples", "50"]);
  strictEqual(bfclCompare.code, 0, bfclCompare.stderr);
  printable(bfclCompare, "bfcl compare");
  ok(bfclCompare.stdout.includes('A = "model A\\u001b[31m'), bfclCompare.stdout);

  // An instruction id of the input: the refusal quotes it.
  await Deno.writeTextFile(
    `${dir}/input.jsonl`,
    JSON.stringify({
      key: 5,
      prompt: "Say hi.",
      instruction_id_list: [hostile("punctuation:")],
      kwargs: [{}],
    }) + "\n",
  );
  await Deno.writeTextFile(`${dir}/responses.jsonl`, '{"prompt": "Say hi.", "response": "hi"}\n');
  const ifeval = await assay([
    "ifeval",
    "--input",
    `${dir}/input.jsonl`,
    "--responses",
    `${dir}/responses.jsonl`,
  ]);
  strictEqual(ifeval.code, 2, ifeval.stderr);
  printable(ifeval, "ifeval");
  ok(ifeval.stderr.includes("\\u202e"), ifeval.stderr);

  // Two reports whose checker and instruction ids say anything: the table and the refusal.
  const ok1 = await assay([
    "ifeval",
    "--input",
    fixturePath("input_data.jsonl"),
    "--responses",
    fixturePath("responses_gpt4.jsonl"),
    "--out",
    `${dir}/a.json`,
    "--quiet",
  ]);
  strictEqual(ok1.code, 0, ok1.stderr);
  const a = JSON.parse(await Deno.readTextFile(`${dir}/a.json`));
  a.checker = hostile("checker");
  await Deno.writeTextFile(`${dir}/a.json`, JSON.stringify(a, null, 2) + "\n");
  const ifevalCompare = await assay([
    "ifeval",
    "compare",
    `${dir}/a.json`,
    `${dir}/a.json`,
    "--resamples",
    "50",
  ]);
  printable(ifevalCompare, "ifeval compare");
  const b = structuredClone(a);
  b.checker = hostile("other checker");
  await Deno.writeTextFile(`${dir}/b.json`, JSON.stringify(b, null, 2) + "\n");
  const refused = await assay(["ifeval", "compare", `${dir}/a.json`, `${dir}/b.json`]);
  strictEqual(refused.code, 2, refused.stderr);
  printable(refused, "ifeval compare refusal");

  // structured: a duplicate id, quoted in the refusal.
  const row = JSON.stringify({ id: hostile("row"), output: "{}" });
  await Deno.writeTextFile(`${dir}/dup.jsonl`, `${row}\n${row}\n`);
  const dup = await assay(["structured", "--outputs", `${dir}/dup.jsonl`]);
  strictEqual(dup.code, 2, dup.stderr);
  printable(dup, "structured");
  ok(dup.stderr.includes("duplicate id"), dup.stderr);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("suite run, scorecard, compare and calibrate show names and ids as printableText does", async () => {
  const dir = await Deno.makeTempDir();
  const [armA, armB, golden, topic] = ["base", "adapter", "g01", "revenue"].map(
    hostile,
  ) as [string, string, string, string];
  const swap = (text: string) =>
    text.replaceAll('"arm":"base"', `"arm":${JSON.stringify(armA)}`)
      .replaceAll('"arm":"adapter"', `"arm":${JSON.stringify(armB)}`)
      .replaceAll('"g01"', JSON.stringify(golden))
      .replaceAll('"topic":"revenue"', `"topic":${JSON.stringify(topic)}`);
  const traces = swap(await Deno.readTextFile(`${demo}/traces.jsonl`)).trimEnd().split("\n");
  // One run of the hostile golden fewer in arm A: its id is listed as mismatched.
  const dropped = traces.findIndex((l) =>
    l.includes(JSON.stringify(golden)) && l.includes(JSON.stringify(armA))
  );
  traces.splice(dropped, 1);
  await Deno.writeTextFile(`${dir}/traces.jsonl`, traces.join("\n") + "\n");
  await Deno.writeTextFile(
    `${dir}/goldens.jsonl`,
    swap(await Deno.readTextFile(`${demo}/goldens.jsonl`)),
  );
  await Deno.copyFile(`${demo}/catalog.json`, `${dir}/catalog.json`);
  // The suite names its baseline arm: the hostile one, as the traces now call base.
  const suite = (await Deno.readTextFile(`${demo}/suite.yaml`))
    .replace("name: analytics-agent-demo", `name: ${ascii(hostile("suite"))}`)
    .replace("\n  baseline: base\n", `\n  baseline: ${ascii(armA)}\n`);
  await Deno.writeTextFile(`${dir}/suite.yaml`, suite);
  const validate = await assay(["suite", "validate", `${dir}/suite.yaml`]);
  strictEqual(validate.code, 0, validate.stderr);
  printable(validate, "suite validate");
  const store = `${dir}/m.db`;
  const run = await assay([
    "suite",
    "run",
    `${dir}/suite.yaml`,
    "--goldens",
    `${dir}/goldens.jsonl`,
    "--traces",
    `${dir}/traces.jsonl`,
    "--catalog",
    `${dir}/catalog.json`,
    "--store",
    store,
    "--no-judge",
    "--fail-under",
    "1",
  ]);
  strictEqual(run.code, 3, run.stderr);
  printable(run, "suite run");
  ok(run.stdout.includes('arm "base\\u001b[31m'), run.stdout);
  ok(run.stderr.includes("FAIL: pass rate under 1"), run.stderr);
  const card = await assay(["suite", "scorecard", "--store", store, "--resamples", "50"]);
  strictEqual(card.code, 0, card.stderr);
  printable(card, "suite scorecard");
  const cmp = await assay(["suite", "compare", armA, armB, "--store", store, "--resamples", "50"]);
  strictEqual(cmp.code, 0, cmp.stderr);
  printable(cmp, "suite compare");
  const unknown = await assay(["suite", "compare", armA, hostile("arm"), "--store", store]);
  strictEqual(unknown.code, 2, unknown.stderr);
  printable(unknown, "suite compare refusal");
  // A golden id twice: the refusal quotes it.
  const goldens = (await Deno.readTextFile(`${dir}/goldens.jsonl`)).trimEnd().split("\n");
  await Deno.writeTextFile(`${dir}/twice.jsonl`, [...goldens, goldens[0]].join("\n") + "\n");
  const twice = await assay([
    "suite",
    "run",
    `${dir}/suite.yaml`,
    "--goldens",
    `${dir}/twice.jsonl`,
    "--traces",
    `${dir}/traces.jsonl`,
    "--catalog",
    `${dir}/catalog.json`,
    "--no-judge",
  ]);
  strictEqual(twice.code, 2, twice.stderr);
  printable(twice, "suite run refusal");

  const labels = [1, 0, 1, 0.25].map((judge, i) =>
    JSON.stringify({ id: hostile(`case ${i}`), judge, human: i % 2 ? 0 : 1 })
  );
  await Deno.writeTextFile(`${dir}/labels.jsonl`, labels.join("\n") + "\n");
  const calibrate = await assay(["calibrate", "--labels", `${dir}/labels.jsonl`]);
  strictEqual(calibrate.code, 0, calibrate.stderr);
  printable(calibrate, "calibrate");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a list of problems keeps one problem a line, its control characters escaped", async () => {
  // A suite's issues and a rules file's problems are one per line; the escaping of what errors
  // quote must not join them into one line, nor let a problem's data start a line of its own.
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/s.json`,
    '{"metrics": [{"type": "hit_limit"}],\n "metrics": [], "name": "a\\u001b[31m",\n "name": 5}\n',
  );
  const r = await assay(["suite", "validate", `${dir}/s.json`]);
  strictEqual(r.code, 2, r.stderr);
  const lines = r.stderr.trimEnd().split("\n");
  strictEqual(lines.length, 2, r.stderr);
  ok(
    lines[0]!.startsWith(`assay suite validate: ${dir}/s.json:2:2: Duplicate key "metrics"`),
    r.stderr,
  );
  ok(lines[1]!.startsWith(`${dir}/s.json:3:2: Duplicate key "name"`), r.stderr);
  ok(!r.stderr.includes("\u001b"), r.stderr);
  // One problem whose data holds a line break: that break is escaped, not a line of its own.
  const forged = '"a\\nassay suite validate: all metrics OK"';
  await Deno.writeTextFile(
    `${dir}/one.yaml`,
    `name: x\nmetrics:\n  - type: hit_limit\n    name: ${forged}\n  - type: hit_limit\n    name: ${forged}\n`,
  );
  const one = await assay(["suite", "validate", `${dir}/one.yaml`]);
  strictEqual(one.code, 2, one.stderr);
  strictEqual(one.stderr.trimEnd().split("\n").length, 1, one.stderr);
  ok(one.stderr.includes('"a\\nassay suite validate: all metrics OK"'), one.stderr);
  await Deno.remove(dir, { recursive: true });
});
