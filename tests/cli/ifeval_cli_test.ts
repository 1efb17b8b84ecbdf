// `assay ifeval` end to end: IFEval's results files byte for byte, the assay.ifeval.v1 report,
// and exit 2 with the file and line for bad input.
import { deepStrictEqual as assertEquals, match, strictEqual } from "node:assert/strict";
import { runCli, runMain } from "./_main.ts";
import { fixturePath, fixtureText } from "../ifeval/_fixtures.ts";
import { sha256Hex } from "../../mod.ts";
import { IFEVAL_FIELDS } from "../report_check/_complete.ts";

const INPUT = fixturePath("input_data.jsonl");
const RESPONSES = fixturePath("responses_gpt4.jsonl");
const GPT4 = ["ifeval", "--input", INPUT, "--responses", RESPONSES];

Deno.test("assay ifeval writes IFEval's results files byte for byte and the assay.ifeval.v1 report", async () => {
  const dir = await Deno.makeTempDir();
  const r = await runMain([
    ...GPT4,
    "--results-dir",
    `${dir}/results`,
    "--out",
    `${dir}/report.json`,
  ]);
  strictEqual(r.code, 0, r.stderr);
  assertEquals(r.stdout.split("\n"), [
    "strict: prompt-level 417/541 (77.08%), instruction-level 698/834 (83.69%)",
    "loose: prompt-level 431/541 (79.67%), instruction-level 714/834 (85.61%)",
  ]);
  for (const mode of ["strict", "loose"]) {
    const got = await Deno.readTextFile(`${dir}/results/eval_results_${mode}.jsonl`);
    strictEqual(got === await fixtureText(`expected_gpt4_${mode}.jsonl.gz`), true, mode);
  }
  const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  strictEqual(report.schema, "assay.ifeval.v1");
  assertEquals(report.loose.prompt_level, { value: 431 / 541, numerator: 431, denominator: 541 });
  // A second run replaces its own outputs.
  const again = await runMain([...GPT4, "--results-dir", `${dir}/results`, "--quiet"]);
  strictEqual(again.code, 0, again.stderr);
  strictEqual(again.stdout, "");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay ifeval exits 2 naming the line of a response whose prompt is not in the input", async () => {
  const dir = await Deno.makeTempDir();
  const input = `${dir}/input.jsonl`;
  await Deno.writeTextFile(
    input,
    '{"key": 5, "prompt": "Say hi.", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}\n',
  );
  const responses = `${dir}/r.jsonl`;
  await Deno.writeTextFile(
    responses,
    '{"prompt": "Say hi.", "response": "hi"}\n{"prompt": "Other", "response": "x"}\n',
  );
  const r = await runMain(["ifeval", "--input", input, "--responses", responses]);
  strictEqual(r.code, 2);
  strictEqual(r.stderr, `assay ifeval: ${responses}:2: prompt not in the input file: "Other"`);
  await Deno.writeTextFile(
    input,
    '{"key": 5, "prompt": "Say hi.", "instruction_id_list": ["keywords:existence"], "kwargs": [{}]}\n',
  );
  const bad = await runMain(["ifeval", "--input", input, "--responses", responses]);
  strictEqual(bad.code, 2);
  strictEqual(
    bad.stderr,
    `assay ifeval: ${input}:1 (key 5): keywords:existence: keywords is missing (IFEval would draw it at random)`,
  );
  // Given, but empty: said so, not "missing".
  await Deno.writeTextFile(
    input,
    '{"key": 5, "prompt": "Say hi.", "instruction_id_list": ["keywords:existence"], "kwargs": [{"keywords": []}]}\n',
  );
  const empty = await runMain(["ifeval", "--input", input, "--responses", responses]);
  strictEqual(empty.code, 2);
  strictEqual(
    empty.stderr,
    `assay ifeval: ${input}:1 (key 5): keywords:existence: keywords is empty (IFEval would draw it at random)`,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay ifeval --help names the checker version; a missing option exits 2", async () => {
  const help = await runMain(["ifeval", "--help"]);
  strictEqual(help.code, 0);
  match(help.stdout, /ifeval@google-3f357bde/);
  const missing = await runMain(["ifeval", "--input", INPUT]);
  strictEqual(missing.code, 2);
  strictEqual(missing.stderr, "assay ifeval: --responses is required");
});

Deno.test("assay ifeval refuses a key given twice, and ifeval compare a report that repeats one", async () => {
  const dir = await Deno.makeTempDir();
  const line = JSON.stringify({
    key: 1000,
    prompt: "Say hi.",
    instruction_id_list: ["punctuation:no_comma", "startend:quotation"],
    kwargs: [{}, {}],
  });
  await Deno.writeTextFile(`${dir}/in.jsonl`, `${line}\n${line.replace("hi.", "hi!")}\n`);
  await Deno.writeTextFile(
    `${dir}/r.jsonl`,
    '{"prompt": "Say hi.", "response": "hi"}\n{"prompt": "Say hi!", "response": "\\"hi\\""}\n',
  );
  const r = await runMain([
    "ifeval",
    "--input",
    `${dir}/in.jsonl`,
    "--responses",
    `${dir}/r.jsonl`,
  ]);
  strictEqual(r.code, 2);
  strictEqual(r.stderr, `assay ifeval: ${dir}/in.jsonl:2: key 1000 again (line 1)`);
  // Such a report (as the old code wrote it) is refused by the comparison, for each side.
  const prompt = { key: 1000, instruction_id_list: ["punctuation:no_comma"] };
  const report = {
    schema: "assay.ifeval.v1",
    ...IFEVAL_FIELDS,
    prompts: [
      { ...prompt, strict: [true], loose: [true] },
      { ...prompt, strict: [false], loose: [false] },
    ],
  };
  await Deno.writeTextFile(`${dir}/a.json`, JSON.stringify(report));
  const c = await runMain(["ifeval", "compare", `${dir}/a.json`, `${dir}/a.json`]);
  strictEqual(c.code, 2);
  strictEqual(
    c.stderr,
    `assay ifeval compare: ${dir}/a.json (A) and ${dir}/a.json (B): Refusing to compare: ` +
      "the A report repeats prompts (keys 1000); " +
      "the B report repeats prompts (keys 1000)",
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay ifeval compare words a file that is not JSON as the exact parser does", async () => {
  const dir = await Deno.makeTempDir();
  // A JSONL file (a BFCL score file is one): JSON.parse's message differs between runtimes.
  await Deno.writeTextFile(`${dir}/s.json`, '{"accuracy": 1}\n{"id": "simple_0"}\n');
  const r = await runMain(["ifeval", "compare", `${dir}/s.json`, `${dir}/s.json`]);
  strictEqual(r.code, 2);
  strictEqual(
    r.stderr,
    `assay ifeval compare: ${dir}/s.json is not JSON: extra_data at 16 (line 2, column 1)`,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay ifeval reads either file from stdin for -", async () => {
  const dir = await Deno.makeTempDir();
  const head = async (path: string) =>
    (await Deno.readTextFile(path)).split("\n").slice(0, 3).join("\n") + "\n";
  await Deno.writeTextFile(`${dir}/r.jsonl`, await head(RESPONSES));
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../../cli/main.ts", import.meta.url).pathname,
      ...["ifeval", "--input", "-", "--responses", `${dir}/r.jsonl`],
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(await head(INPUT)));
  await writer.close();
  const r = await child.output();
  strictEqual(r.code, 0, new TextDecoder().decode(r.stderr));
  match(new TextDecoder().decode(r.stdout), /^strict: prompt-level \d\/3 /);
  const both = await runCli(["ifeval", "--input", "-", "--responses", "-"]);
  strictEqual(both.code, 2);
  match(both.stderr, /Only one input can be stdin: --input and --responses are both "-"/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay ifeval --results-dir that cannot be a folder exits 2, worded as the other path checks", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/file`, "");
  for (
    const [path, why] of [
      [`${dir}/file`, "it exists and is not a folder"],
      [`${dir}/file/results`, "a part of its path is not a folder"],
    ]
  ) {
    const r = await runMain([...GPT4, "--results-dir", path!]);
    strictEqual(r.code, 2);
    strictEqual(r.stderr, `assay ifeval: Cannot create ${path} (--results-dir): ${why}`);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay ifeval --out records the files' SHA-256, and ifeval compare refuses reports of other inputs", async () => {
  const dir = await Deno.makeTempDir();
  const a = await runMain([...GPT4, "--out", `${dir}/A.json`, "--quiet"]);
  strictEqual(a.code, 0, a.stderr);
  const report = JSON.parse(await Deno.readTextFile(`${dir}/A.json`));
  assertEquals(report.inputs, {
    input: { sha256: sha256Hex(await Deno.readFile(INPUT)) },
    responses: { sha256: sha256Hex(await Deno.readFile(RESPONSES)) },
  });
  // The review's case: every num_words set to 1, "at least"; the same prompts and responses.
  const modified = (await Deno.readTextFile(INPUT)).replace(
    /"relation": "[a-z ]+", "num_words": \d+/g,
    '"relation": "at least", "num_words": 1',
  );
  await Deno.writeTextFile(`${dir}/in_mod.jsonl`, modified);
  const m = await runMain([
    "ifeval",
    "--input",
    `${dir}/in_mod.jsonl`,
    "--responses",
    RESPONSES,
    "--out",
    `${dir}/M.json`,
    "--quiet",
  ]);
  strictEqual(m.code, 0, m.stderr);
  const refused = await runMain(["ifeval", "compare", `${dir}/A.json`, `${dir}/M.json`]);
  strictEqual(refused.code, 2, refused.stdout);
  const short = (bytes: Uint8Array) => sha256Hex(bytes).slice(0, 12);
  strictEqual(
    refused.stderr,
    `assay ifeval compare: ${dir}/A.json (A) and ${dir}/M.json (B): Refusing to compare: ` +
      `input files' sha256 differ: A ${short(await Deno.readFile(INPUT))}…, B ${
        short(new TextEncoder().encode(modified))
      }…`,
  );
  // A report written before the digests: compared, with a note on stderr.
  delete report.inputs;
  await Deno.writeTextFile(`${dir}/old.json`, JSON.stringify(report));
  const old = await runMain(["ifeval", "compare", `${dir}/A.json`, `${dir}/old.json`]);
  strictEqual(old.code, 0, old.stderr);
  match(old.stderr, /^note: report B records no input digest .*score it again to record them$/);
  // The gate reads it too, and says the same.
  await Deno.writeTextFile(
    `${dir}/gate.yaml`,
    "rules:\n  - metric: prompt_strict\n    max_regressions: 0\n",
  );
  const gated = await runMain([
    "gate",
    `${dir}/gate.yaml`,
    "--base",
    `${dir}/A.json`,
    "--candidate",
    `${dir}/old.json`,
  ]);
  strictEqual(gated.code, 0, gated.stderr);
  match(gated.stderr, /^note: report candidate records no input digest .*score it again/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay ifeval says how many responses are blank (Python's strip: U+001C is blank), as they follow nothing", async () => {
  const dir = await Deno.makeTempDir();
  const whole = await runMain([...GPT4, "--quiet"]);
  strictEqual(whole.stderr, "");
  const noted = await runMain(GPT4);
  strictEqual(noted.stderr, "");
  const lines = (await Deno.readTextFile(RESPONSES)).trimEnd().split("\n").map((l) =>
    JSON.parse(l)
  );
  lines[0].response = "";
  lines[1].response = "\x1c\n \u3000";
  await Deno.writeTextFile(`${dir}/r.jsonl`, lines.map((o) => JSON.stringify(o) + "\n").join(""));
  const r = await runMain(["ifeval", "--input", INPUT, "--responses", `${dir}/r.jsonl`]);
  strictEqual(r.code, 0, r.stderr);
  strictEqual(r.stderr, "note: 2 of 541 responses are blank, and follow no instruction");
  await Deno.remove(dir, { recursive: true });
});
