// Paths on the command line: every unusable input or output is refused with exit 2 and a message
// naming it and its flag, before any work starts.
import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { runCli, runMain } from "./_main.ts";
import { demoScoreArgs } from "../_demo.ts";

const repo = new URL("../../", import.meta.url).pathname;
const samples = `${repo}samples/`;
const demo = `${samples}demo/`;

/** A temporary folder holding the demo's examples and base generations. */
async function demoFolder(): Promise<string> {
  const dir = await Deno.makeTempDir();
  await Deno.copyFile(`${demo}examples.jsonl`, `${dir}/examples.jsonl`);
  await Deno.copyFile(`${demo}generations.base.jsonl`, `${dir}/generations.jsonl`);
  return dir;
}

Deno.test("a folder given as an input exits 2 naming it and its flag", async () => {
  const dir = await demoFolder();
  const cases: [string[], string][] = [
    [
      ["score", "--examples", dir, "--generations", `${dir}/generations.jsonl`],
      `assay score: Cannot read ${dir} (--examples): it is a folder, not a file`,
    ],
    [["parse", dir], `assay parse: Cannot read ${dir}: it is a folder, not a file`],
    [["canonicalize", dir], `assay canonicalize: Cannot read ${dir}: it is a folder, not a file`],
    [["gaps", dir], `assay gaps: Cannot read ${dir}: it is a folder, not a file`],
    [
      ["compare", `${dir}/examples.jsonl`, dir],
      `assay compare: Cannot read ${dir} (adapter report): it is a folder, not a file`,
    ],
    [
      ["structured", "--outputs", dir],
      `assay structured: Cannot read ${dir} (--outputs): it is a folder, not a file`,
    ],
    [
      ["suite", "validate", dir],
      `assay suite validate: Cannot read ${dir} (suite file): it is a folder, not a file`,
    ],
    [
      ["suite", "scorecard", "--store", dir],
      `assay suite scorecard: Cannot read ${dir} (--store): it is a folder, not a file`,
    ],
    [
      ["calibrate", "--labels", dir],
      `assay calibrate: Cannot read ${dir} (--labels): it is a folder, not a file`,
    ],
  ];
  for (const [args, message] of cases) {
    const r = await runMain(args);
    strictEqual(r.code, 2, args.join(" "));
    strictEqual(r.stderr, message);
  }
  const missing = await runMain(["score", "--examples", `${dir}/nope.jsonl`, "--generations", "-"]);
  strictEqual(missing.code, 2);
  strictEqual(
    missing.stderr,
    `assay score: Cannot read ${dir}/nope.jsonl (--examples): no such file or folder`,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("two inputs read from stdin (-) exit 2 naming both, before stdin is read", async () => {
  const cases: [string[], string][] = [
    [
      ["structured", "--outputs", "-", "--expected", "-"],
      'assay structured: Only one input can be stdin: --outputs and --expected are both "-"',
    ],
    [
      ["score", "--examples", "-", "--generations", "-"],
      'assay score: Only one input can be stdin: --examples and --generations are both "-"',
    ],
    [
      ["score", "--examples", "-", "--generations", "-", "--prompts", "-"],
      "assay score: Only one input can be stdin: --examples, --generations and --prompts are " +
      'all "-"',
    ],
  ];
  for (const [args, message] of cases) {
    const r = await runMain(args);
    strictEqual(r.code, 2, args.join(" "));
    strictEqual(r.stderr, message);
  }
});

Deno.test("- for an input the command does not read from stdin exits 2 naming it, not read as a file named -", async () => {
  const cwd = await Deno.makeTempDir();
  // A file named - in the folder the command runs from: it must not be read.
  await Deno.writeTextFile(`${cwd}/-`, "rules:\n  - metric: valid_json_rate\n    min: 0\n");
  const cases: [string[], string][] = [
    [
      ["gate", "-", "--report", `${demo}generations.base.jsonl`],
      "assay gate: rules -: give a file path; this command does not read rules from stdin",
    ],
    [
      ["structured", "--outputs", `${samples}outputs.jsonl`, "--schema", "-"],
      "assay structured: --schema -: give a file path; this command does not read --schema from stdin",
    ],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(args, {}, cwd);
    strictEqual(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    strictEqual(r.stderr, message + "\n");
  }
  await Deno.remove(cwd, { recursive: true });
});

Deno.test("an unusable --out, --html or --store exits 2 before any scoring, naming it", async () => {
  const dir = await demoFolder();
  // generations.jsonl lacks an example of its own: scoring would fail on that invariant, so
  // each message below shows the output was checked first.
  await Deno.writeTextFile(
    `${dir}/orphans.jsonl`,
    JSON.stringify({ example_id: "nobody", prompt_sha256: "0".repeat(64), output: "{}" }) + "\n",
  );
  await Deno.writeTextFile(`${dir}/file.txt`, "a file\n");
  const score = ["score", "--quiet", "--examples", `${dir}/examples.jsonl`];
  const orphans = [...score, "--generations", `${dir}/orphans.jsonl`];
  const cases: [string[], string][] = [
    [[...orphans, "--out", dir], `assay score: Cannot write ${dir} (--out): it is a folder`],
    [
      [...orphans, "--out", `${dir}/missing/report.json`],
      `assay score: Cannot write ${dir}/missing/report.json (--out): folder ${dir}/missing does not exist`,
    ],
    [
      [...orphans, "--out", `${dir}/file.txt/report.json`],
      `assay score: Cannot write ${dir}/file.txt/report.json (--out): ${dir}/file.txt is not a folder`,
    ],
    [
      [...orphans, "--out", `${dir}/new/`],
      `assay score: Cannot write ${dir}/new/ (--out): expected a file name`,
    ],
    [
      ["parse", `${samples}outputs.jsonl`, "--out", dir],
      `assay parse: Cannot write ${dir} (--out): it is a folder`,
    ],
    [
      ["canonicalize", `${samples}json_texts.txt`, "--out", `${dir}/missing/c.txt`],
      `assay canonicalize: Cannot write ${dir}/missing/c.txt (--out): folder ${dir}/missing does not exist`,
    ],
    [
      [
        "structured",
        "--outputs",
        `${repo}tests/fixtures/structured/outputs.jsonl`,
        "--out",
        dir,
      ],
      `assay structured: Cannot write ${dir} (--out): it is a folder`,
    ],
    [
      [
        "suite",
        "run",
        `${samples}suite_demo/suite.yaml`,
        "--goldens",
        `${samples}suite_demo/goldens.jsonl`,
        "--traces",
        `${samples}suite_demo/traces.jsonl`,
        "--catalog",
        `${samples}suite_demo/catalog.json`,
        "--no-judge",
        "--store",
        `${dir}/missing/metrics.db`,
      ],
      `assay suite run: Cannot write ${dir}/missing/metrics.db (--store): folder ${dir}/missing does not exist`,
    ],
  ];
  for (const [args, message] of cases) {
    const r = await runMain(args);
    strictEqual(r.code, 2, args.join(" "));
    strictEqual(r.stderr, message);
  }
  // Nothing was left behind: no report, no temporary file, no probe.
  deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
    "examples.jsonl",
    "file.txt",
    "generations.jsonl",
    "orphans.jsonl",
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay compare names a missing report, and refuses a folder as --html", async () => {
  const dir = await Deno.makeTempDir();
  const r = await runMain(["compare", `${dir}/a.json`, `${dir}/b.json`, "--html", dir]);
  strictEqual(r.code, 2);
  strictEqual(
    r.stderr,
    `assay compare: Cannot read ${dir}/a.json (base report): no such file or folder`,
  );
  const base = await runMain(demoScoreArgs("--out", `${dir}/base.json`));
  strictEqual(base.code, 0, base.stderr);
  const html = await runMain(["compare", `${dir}/base.json`, `${dir}/base.json`, "--html", dir]);
  strictEqual(html.code, 2);
  strictEqual(html.stderr, `assay compare: Cannot write ${dir} (--html): it is a folder`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay structured refuses a --format its regex engine does not support", async () => {
  const r = await runMain([
    "structured",
    "--outputs",
    `${repo}tests/fixtures/structured/outputs.jsonl`,
    "--format",
    "(?<=Answer: )[0-9]+",
  ]);
  strictEqual(r.code, 2);
  strictEqual(
    r.stderr,
    'assay structured: --format "(?<=Answer: )[0-9]+": Unsupported regex feature in ' +
      "/(?<=Answer: )[0-9]+/: lookbehind '(?<=' at position 0",
  );
  const bad = await runMain(["structured", "--outputs", "-", "--format", "(a"]);
  strictEqual(bad.code, 2);
  match(bad.stderr, /^assay structured: --format "\(a": /);
});

Deno.test("assay suite compare names an unknown arm and suggests the closest", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/metrics.db`;
  const run = await runMain([
    "suite",
    "run",
    `${samples}suite_demo/suite.yaml`,
    "--goldens",
    `${samples}suite_demo/goldens.jsonl`,
    "--traces",
    `${samples}suite_demo/traces.jsonl`,
    "--catalog",
    `${samples}suite_demo/catalog.json`,
    "--no-judge",
    "--quiet",
    "--store",
    store,
  ]);
  strictEqual(run.code, 0, run.stderr);
  const typo = await runMain(["suite", "compare", "base", "adaptr", "--store", store]);
  strictEqual(typo.code, 2);
  match(
    typo.stderr,
    /^assay suite compare: Unknown arm "adaptr" \(did you mean adapter\?\) in run \S+$/,
  );
  const far = await runMain(["suite", "compare", "zzz", "base", "--store", store]);
  strictEqual(far.code, 2);
  match(far.stderr, /^assay suite compare: Unknown arm "zzz" \(arms: adapter, base\) in run \S+$/);
  // An arm whose name holds a comma and a space is quoted in the list, so that it reads as one.
  const traces = await Deno.readTextFile(`${samples}suite_demo/traces.jsonl`);
  await Deno.writeTextFile(`${dir}/traces.jsonl`, traces.replaceAll('"adapter"', '"lora, v2"'));
  const named = await runMain([
    ...["suite", "run", `${samples}suite_demo/suite.yaml`, "--no-judge", "--quiet"],
    ...["--goldens", `${samples}suite_demo/goldens.jsonl`, "--traces", `${dir}/traces.jsonl`],
    ...["--catalog", `${samples}suite_demo/catalog.json`, "--store", `${dir}/named.db`],
  ]);
  strictEqual(named.code, 0, named.stderr);
  const listed = await runMain(["suite", "compare", "zzz", "base", "--store", `${dir}/named.db`]);
  match(listed.stderr, /^assay suite compare: Unknown arm "zzz" \(arms: base, "lora, v2"\) in run/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("an output given as - is refused, naming its flag, unless the command prints it", async () => {
  const dir = await demoFolder();
  // A metric store named "-" stands in the folder: no command may replace it, nor a report.
  const { demoRunArgs } = await import("./_suite_demo.ts");
  strictEqual((await runMain(demoRunArgs(`${dir}/store.db`))).code, 0);
  await Deno.rename(`${dir}/store.db`, `${dir}/-`);
  const store = await Deno.readFile(`${dir}/-`);
  const { fixturePath } = await import("../ifeval/_fixtures.ts");
  const ifeval = [
    "ifeval",
    "--input",
    fixturePath("input_data.jsonl"),
    "--responses",
    fixturePath("responses_gpt4.jsonl"),
  ];
  const score = ["score", "--quiet", "--examples", "examples.jsonl", "--generations"];
  const relevance = ["bfcl", "--checker", "bfcl.ast@2024-08", "--category", "relevance"];
  const suite = (await import("./_suite_demo.ts")).suiteInputs();
  const refused = (flag: string) =>
    `${flag} -: give a file path; this command does not write ${flag} to stdout`;
  const cases: [string[], string][] = [
    [[...score, "generations.jsonl", "--out", "-"], `assay score: ${refused("--out")}`],
    [["compare", "a.json", "b.json", "--out", "-"], `assay compare: ${refused("--out")}`],
    [["compare", "a.json", "b.json", "--html", "-"], `assay compare: ${refused("--html")}`],
    [["gaps", "a.json", "--out", "-"], `assay gaps: ${refused("--out")}`],
    [["gate", "r.yaml", "--report", "a.json", "--junit", "-"], `assay gate: ${refused("--junit")}`],
    [
      ["gate", "r.yaml", "--report", "a.json", "--markdown", "-"],
      `assay gate: ${refused("--markdown")}`,
    ],
    [["gate", "r.yaml", "--report", "a.json", "--out", "-"], `assay gate: ${refused("--out")}`],
    [["structured", "--outputs", "o.jsonl", "--out", "-"], `assay structured: ${refused("--out")}`],
    [[...relevance, "--result", "r.json", "--out", "-"], `assay bfcl: ${refused("--out")}`],
    [
      [...relevance, "--result", "r.json", "--out", "s.json", "--report", "-"],
      `assay bfcl: ${refused("--report")}`,
    ],
    [
      ["bfcl", "compare", "a.json", "b.json", "--out", "-"],
      `assay bfcl compare: ${refused("--out")}`,
    ],
    [
      ["ifeval", "compare", "a.json", "b.json", "--out", "-"],
      `assay ifeval compare: ${refused("--out")}`,
    ],
    [[...ifeval, "--out", "-"], `assay ifeval: ${refused("--out")}`],
    [[...ifeval, "--results-dir", "-"], "assay ifeval: --results-dir -: give a folder path"],
    [
      ["suite", "run", `${samples}suite_demo/suite.yaml`, ...suite, "--no-judge", "--store", "-"],
      `assay suite run: ${refused("--store")}`,
    ],
    [
      ["suite", "run", `${samples}suite_demo/suite.yaml`, ...suite, "--no-judge", "--out", "-"],
      `assay suite run: ${refused("--out")}`,
    ],
    [
      ["suite", "scorecard", "--store", "-"],
      "assay suite scorecard: --store -: give a file path; a metric store cannot be stdin",
    ],
    [["calibrate", "--labels", "l.jsonl", "--out", "-"], `assay calibrate: ${refused("--out")}`],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(args, {}, dir);
    strictEqual(r.code, 2, args.join(" "));
    strictEqual(r.stderr.trimEnd(), message);
    strictEqual(r.stdout, "", args.join(" "));
  }
  // The store named "-" is untouched, and nothing else was written.
  deepStrictEqual(await Deno.readFile(`${dir}/-`), store);
  deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
    "-",
    "examples.jsonl",
    "generations.jsonl",
  ]);
  // parse and canonicalize print --out - on stdout, as they always have.
  const parse = await runCli(["parse", `${samples}outputs.jsonl`, "--out", "-"], {}, dir);
  strictEqual(parse.code, 0, parse.stderr);
  match(parse.stdout, /^\{.*"status":/);
  deepStrictEqual(await Deno.readFile(`${dir}/-`), store);
  await Deno.remove(dir, { recursive: true });
});

/** `assay <args>` with the permissions of `deno task assay` (no --allow-all), stdin empty. */
async function runAsTask(args: string[]): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", `${repo}cli/main.ts`, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr).trimEnd() };
}

Deno.test("/dev/stdin and /dev/stdout as paths say to give - where the command takes it", async () => {
  const dir = await demoFolder();
  // Deno refuses /dev/stdin without --allow-all: where - reads stdin, the message says so.
  const stdinCases: [string[], string][] = [
    [
      ["score", "--examples", "/dev/stdin", "--generations", `${dir}/generations.jsonl`],
      "assay score: Cannot read /dev/stdin (--examples): permission denied; give - for " +
      "standard input",
    ],
    [
      ["parse", "/dev/stdin"],
      "assay parse: Cannot read /dev/stdin: permission denied; give - for standard input",
    ],
    [
      ["show", "/dev/stdin"],
      "assay show: Cannot read /dev/stdin: permission denied; give - for standard input",
    ],
    // A rules file is never read from stdin: no hint.
    [
      ["gate", "/dev/stdin", "--report", `${dir}/r.json`],
      "assay gate: Cannot read /dev/stdin (rules): permission denied",
    ],
  ];
  for (const [args, message] of stdinCases) {
    const r = await runAsTask(args);
    strictEqual(r.code, 2, args.join(" "));
    strictEqual(r.stderr, message);
  }
  // An output that names a stream is refused with any permissions: its atomic write would
  // replace the link itself.
  const stdoutCases: [string[], string][] = [
    [
      ["parse", `${samples}outputs.jsonl`, "--out", "/dev/stdout"],
      "assay parse: Cannot write /dev/stdout (--out): it is a stream, not a file; give - for " +
      "standard output",
    ],
    [
      [
        "score",
        "--examples",
        `${dir}/examples.jsonl`,
        "--generations",
        `${dir}/generations.jsonl`,
        "--out",
        "/dev/fd/1",
      ],
      "assay score: Cannot write /dev/fd/1 (--out): it is a stream, not a file",
    ],
  ];
  for (const [args, message] of stdoutCases) {
    for (const r of [await runAsTask(args), await runCli(args)]) {
      strictEqual(r.code, 2, args.join(" "));
      strictEqual(r.stderr.trimEnd(), message);
    }
  }
  await Deno.remove(dir, { recursive: true });
});
