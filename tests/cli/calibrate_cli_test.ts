// assay calibrate's refusals: a run labelled twice, flags out of range named by their flag, and a
// label line that is not what it should be, named by its line (exit 2 each, nothing counted).
import { match, strictEqual } from "node:assert/strict";
import { runMain } from "./_main.ts";
import { demoRunArgs } from "./_suite_demo.ts";

const labels = new URL("../fixtures/calibration/labels.jsonl", import.meta.url).pathname;

Deno.test("assay calibrate refuses a run labelled twice, naming both lines", async () => {
  const dir = await Deno.makeTempDir();
  strictEqual((await runMain(demoRunArgs(`${dir}/m.db`))).code, 0);
  const run = (g: string) => `{"golden_id":"${g}","arm":"base","repeat":0,"human":1}`;
  await Deno.writeTextFile(`${dir}/l.jsonl`, [run("g01"), run("g02"), "", run("g01")].join("\n"));
  const args = ["calibrate", "--labels", `${dir}/l.jsonl`, "--store", `${dir}/m.db`];
  const r = await runMain([...args, "--metric", "answer_correctness", "--out", `${dir}/c.json`]);
  strictEqual(r.code, 2, r.stderr);
  match(
    r.stderr,
    /l\.jsonl:4: a second label for run \["g01","base",0\] \(the first is on line 1\)/,
  );
  strictEqual(await Deno.stat(`${dir}/c.json`).then(() => true, () => false), false);
  await Deno.writeTextFile(`${dir}/l.jsonl`, [run("g01"), run("g02")].join("\n"));
  strictEqual((await runMain([...args, "--metric", "answer_correctness", "--json"])).code, 0);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay calibrate names the flag, not the labels file, for a flag out of range", async () => {
  const cases: [string[], RegExp][] = [
    [["--kappa-bar", "5"], /^assay calibrate: --kappa-bar must be in \[-1, 1\], got 5$/],
    [["--threshold", "x"], /^assay calibrate: --threshold must be a number, got "x"$/],
    [["--threshold", "1.5"], /^assay calibrate: --threshold must be in \[0, 1\], got 1\.5$/],
    [["--min-n", "0"], /^assay calibrate: --min-n must be an integer ≥ 1, got 0$/],
    [["--min-n", "2.5"], /^assay calibrate: --min-n must be an integer ≥ 1, got 2\.5$/],
  ];
  for (const [flags, message] of cases) {
    const r = await runMain(["calibrate", "--labels", labels, ...flags]);
    strictEqual(r.code, 2, r.stderr);
    match(r.stderr, message);
  }
});

Deno.test("assay calibrate names the line of a label that is out of range or not an object", async () => {
  const dir = await Deno.makeTempDir();
  const cases: [string, RegExp][] = [
    ['{"human":2,"judge":0.5}', /l\.jsonl:2: "human" must be a finite number in \[0, 1\], got 2/],
    ['{"human":1,"judge":-1}', /l\.jsonl:2: "judge" must be a finite number in \[0, 1\], got -1/],
    ['{"human":1,"judge":"0.5"}', /l\.jsonl:2: "judge" must be a number, got string/],
    ['{"human":null,"judge":0.5}', /l\.jsonl:2: "human" must be a number, got null/],
    ['{"human":1}', /l\.jsonl:2: missing field "judge"/],
    ["[1]", /l\.jsonl:2: expected a JSON object, got "\[1\]"/],
  ];
  for (const [line, message] of cases) {
    await Deno.writeTextFile(`${dir}/l.jsonl`, `{"human":1,"judge":0.5}\n${line}\n`);
    const r = await runMain(["calibrate", "--labels", `${dir}/l.jsonl`]);
    strictEqual(r.code, 2, r.stderr);
    match(r.stderr, message);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay calibrate --store names a label's missing or mistyped field, and an unknown metric", async () => {
  const dir = await Deno.makeTempDir();
  strictEqual((await runMain(demoRunArgs(`${dir}/m.db`))).code, 0);
  const args = ["calibrate", "--labels", `${dir}/l.jsonl`, "--store", `${dir}/m.db`];
  const first = '{"golden_id":"g02","arm":"base","repeat":0,"human":1}';
  const cases: [string, RegExp][] = [
    [
      '{"golden_id":"g01","arm":"base","human":1}',
      /^assay calibrate: \S*l\.jsonl:2: missing field "repeat"$/,
    ],
    ['{"arm":"base","repeat":0,"human":1}', /l\.jsonl:2: missing field "golden_id"/],
    ['{"golden_id":"g01","arm":"base","repeat":0}', /l\.jsonl:2: missing field "human"/],
    [
      '{"golden_id":"g01","arm":"base","repeat":"0","human":1}',
      /l\.jsonl:2: "repeat" must be an integer ≥ 0, got "0"/,
    ],
    [
      '{"golden_id":1,"arm":"base","repeat":0,"human":1}',
      /l\.jsonl:2: "golden_id" must be a string, got number/,
    ],
    [
      '{"golden_id":"g01","arm":null,"repeat":0,"human":1}',
      /l\.jsonl:2: "arm" must be a string, got null/,
    ],
  ];
  for (const [line, message] of cases) {
    await Deno.writeTextFile(`${dir}/l.jsonl`, `${first}\n${line}\n`);
    const r = await runMain([...args, "--metric", "answer_correctness"]);
    strictEqual(r.code, 2, r.stderr);
    match(r.stderr, message);
  }
  await Deno.writeTextFile(`${dir}/l.jsonl`, `${first}\n`);
  const typo = await runMain([...args, "--metric", "step_eficiency"]);
  strictEqual(typo.code, 2, typo.stderr);
  match(typo.stderr, /Unknown metric "step_eficiency" \(did you mean step_efficiency\?\) in run /);
  const far = await runMain([...args, "--metric", "zzz"]);
  strictEqual(far.code, 2, far.stderr);
  match(far.stderr, /Unknown metric "zzz" \(metrics: schema_membership, expected_view_recall, /);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay calibrate refuses --run or --suite without --store", async () => {
  for (const flag of ["--run", "--suite"]) {
    const r = await runMain(["calibrate", "--labels", labels, flag, "x"]);
    strictEqual(r.code, 2, r.stderr);
    match(r.stderr, new RegExp(`${flag} picks a stored run: it needs --store and --metric`));
  }
});

Deno.test("assay calibrate refuses a metric no judge scored, naming the metrics that can be calibrated", async () => {
  const dir = await Deno.makeTempDir();
  strictEqual((await runMain(demoRunArgs(`${dir}/m.db`))).code, 0);
  await Deno.writeTextFile(
    `${dir}/l.jsonl`,
    '{"golden_id":"g01","arm":"base","repeat":0,"human":1}\n',
  );
  const args = ["calibrate", "--labels", `${dir}/l.jsonl`, "--store", `${dir}/m.db`];
  const r = await runMain([...args, "--metric", "step_efficiency", "--out", `${dir}/c.json`]);
  strictEqual(r.code, 2, r.stderr);
  match(
    r.stderr,
    /^assay calibrate: --metric "step_efficiency" is not a judge metric \(its scores in run \S+ come from no judge\): only an llm_judge metric can be calibrated against human labels; the run's: "answer_correctness", "groundedness"$/m,
  );
  strictEqual(await Deno.stat(`${dir}/c.json`).then(() => true, () => false), false);
  // A judge metric of the same run (its judges skipped by --no-judge): the label is skipped.
  const judged = await runMain([...args, "--metric", "answer_correctness", "--json"]);
  strictEqual(judged.code, 0, judged.stderr);
  const report = JSON.parse(judged.stdout);
  strictEqual([report.n, report.skipped_unscored].join(), "0,1");
  await Deno.remove(dir, { recursive: true });
});
