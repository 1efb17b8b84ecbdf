// A CI job's gate through the CLI: what it prints beside the verdict of partial runs.
import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { formatReport, scoreToolCalls, sha256Hex } from "../../mod.ts";
import { runCli, runMain } from "./_main.ts";
import { suiteInputs } from "./_suite_demo.ts";

const CALL = '{"name":"f","arguments":{"x":1}}';

/** A report over 6 examples whose first `skip` had no generation (scored with allowMissing). */
function partial(skip: number): string {
  const examples = Array.from({ length: 6 }, (_, i) => ({
    example_id: `ex-${i}`,
    language: "en",
    target: CALL,
  }));
  const generations = examples.slice(skip).map((e) => ({ example_id: e.example_id, output: CALL }));
  return formatReport(scoreToolCalls(examples, generations, { allowMissing: true }));
}

/** A folder of these files and rules.yaml, one rule that every report here passes. */
async function folder(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir();
  const rules = "rules:\n  - metric: full_call_exact_match\n    min: 0.9\n";
  for (const [name, text] of Object.entries({ ...files, "rules.yaml": rules })) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return dir;
}

Deno.test("assay gate and compare --gate print the note that a report left examples unscored", async () => {
  const dir = await folder({ "base.json": partial(2), "candidate.json": partial(2) });
  const note = (side: string) =>
    new RegExp(
      `^note: The ${side} scored 4 of its 6 examples: 2 had no generation \\(scored with ` +
        '--allow-missing: "ex-0", "ex-1"\\), left out of every figure\\.',
      "m",
    );
  const one = await runMain(["gate", `${dir}/rules.yaml`, "--report", `${dir}/candidate.json`]);
  strictEqual(one.code, 0, one.stderr);
  match(one.stderr, note("report"));
  const files = [`${dir}/base.json`, `${dir}/candidate.json`];
  const compared = await runMain(["compare", ...files, "--gate", `${dir}/rules.yaml`]);
  strictEqual(compared.code, 0, compared.stderr);
  match(compared.stderr, note("base report"));
  match(compared.stderr, /The candidate report scored 4 of its 6 examples/);
});

Deno.test("assay compare notes a report's unscored examples, and gate's refusal of a partial run says --on intersection", async () => {
  const dir = await folder({ "whole.json": partial(0), "partial.json": partial(2) });
  const files = [`${dir}/partial.json`, `${dir}/partial.json`];
  const compared = await runMain(["compare", ...files, "--resamples", "100"]);
  strictEqual(compared.code, 0, compared.stderr);
  match(
    compared.stderr,
    /^note: The base report scored 4 of its 6 examples: .* The adapter report scored 4 of its 6/m,
  );
  const whole = await runMain(["compare", `${dir}/whole.json`, `${dir}/whole.json`]);
  strictEqual([whole.code, whole.stderr.includes("note:")].join(), "0,false");
  const args = ["gate", `${dir}/rules.yaml`, "--base", `${dir}/whole.json`, "--candidate"];
  const refused = await runMain([...args, `${dir}/partial.json`]);
  strictEqual(refused.code, 2);
  match(
    refused.stderr,
    /example-id sets differ: 2 only in base \("ex-0", "ex-1"\); pass --on intersection to gate the examples both reports hold$/,
  );
  const shared = await runMain([...args, `${dir}/partial.json`, "--on", "intersection"]);
  strictEqual(shared.code, 0, shared.stderr);
});

Deno.test("suite run --out records its goldens' and catalog's digests, and the gate refuses two runs of different goldens", async () => {
  const dir = await Deno.makeTempDir();
  const demo = new URL("../../samples/suite_demo/", import.meta.url).pathname;
  // The demo's files, but one reference value: the same golden ids, another gold.
  for (const name of ["traces.jsonl", "catalog.json", "suite.yaml"]) {
    await Deno.copyFile(`${demo}${name}`, `${dir}/${name}`);
  }
  const goldens = await Deno.readTextFile(`${demo}goldens.jsonl`);
  await Deno.writeTextFile(`${dir}/goldens.jsonl`, goldens.replace("1284350.75", "1284350.00"));
  const run = (out: string, from: string) =>
    runCli([
      ...["suite", "run", `${from}suite.yaml`, ...suiteInputs(from), "--no-judge", "--quiet"],
      ...["--out", `${dir}/${out}.json`],
    ]);
  strictEqual((await run("a", demo)).code, 0);
  strictEqual((await run("b", `${dir}/`)).code, 0);
  const report = JSON.parse(await Deno.readTextFile(`${dir}/a.json`));
  const digest = async (path: string) => sha256Hex(await Deno.readFile(path));
  deepStrictEqual(report.inputs, {
    goldens: { sha256: await digest(`${demo}goldens.jsonl`) },
    catalog: { sha256: await digest(`${demo}catalog.json`) },
  });
  await Deno.writeTextFile(
    `${dir}/rules.yaml`,
    "rules:\n  - metric: pass_rate\n    superior: true\n",
  );
  const gate = await runCli(
    ["gate", `${dir}/rules.yaml`, "--base", `${dir}/a.json`, "--candidate", `${dir}/b.json`],
  );
  strictEqual(gate.code, 2);
  match(
    gate.stderr,
    /Refusing to compare: goldens files' sha256 differ: base [0-9a-f]{12}…, candidate/,
  );
});
