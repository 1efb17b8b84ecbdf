// `assay suite` and `assay calibrate` end to end: validation with positions, a deterministic demo
// run into the SQLite store, history, a crash mid-run, judges over loopback with the store as
// their cache, and calibration on a hand-checked fixture.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { anthropicTool, openaiContent, startJudgeServer } from "../suite/_judge_server.ts";
import { killMidRun } from "./_killed_writer.ts";
import { runCli, runMain } from "./_main.ts";
import { suiteInputs } from "./_suite_demo.ts";

const deno = Deno.execPath();
const root = new URL("../../", import.meta.url).pathname;
const demo = `${root}samples/suite_demo`;
const dec = new TextDecoder();

const assay = runCli;

const demoArgs = (store: string) => [
  "suite",
  "run",
  `${demo}/suite.yaml`,
  "--goldens",
  `${demo}/goldens.jsonl`,
  "--traces",
  `${demo}/traces.jsonl`,
  "--catalog",
  `${demo}/catalog.json`,
  "--store",
  store,
];

Deno.test("make_demo.ts regenerates the committed suite demo byte for byte", async () => {
  const dir = await Deno.makeTempDir();
  const out = await new Deno.Command(deno, {
    args: ["run", `--allow-write=${dir}`, `${demo}/make_demo.ts`, dir],
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(out.code, 0, dec.decode(out.stderr));
  for (const f of ["goldens.jsonl", "catalog.json", "traces.jsonl"]) {
    deepStrictEqual(await Deno.readFile(`${dir}/${f}`), await Deno.readFile(`${demo}/${f}`), f);
  }
});

Deno.test("assay suite validate exits 0 on the demo and 2 with file, line and a suggestion", async () => {
  const good = await assay(["suite", "validate", `${demo}/suite.yaml`]);
  strictEqual(good.code, 0, good.stderr);
  match(good.stdout, /valid suite "analytics-agent-demo" with 8 metric/);
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/bad.yaml`,
    "metrics:\n  - type: schema_membrship\n  - type: llm_judge\n    name: a\n    params:\n" +
      "      criteria: a\n      evaluation_steps: [b]\n  - type: llm_judge\n    name: b\n" +
      "    params:\n      criteria: b\n      evaluation_params: [input, final_answr]\n",
  );
  const bad = await assay(["suite", "validate", `${dir}/bad.yaml`]);
  strictEqual(bad.code, 2);
  match(
    bad.stderr,
    /bad\.yaml:2:11: metrics\[0\]\.type: Unknown metric type "schema_membrship" \(did you mean "schema_membership"\?\)/,
  );
  match(bad.stderr, /bad\.yaml:\d+:\d+: metrics\[1\]\.params.*criteria.*evaluation_steps/);
  match(
    bad.stderr,
    /bad\.yaml:12:\d+: metrics\[2\]\.params\.evaluation_params\[1\]: .*"final_answr".*did you mean "final_answer"/,
  );
  for (const ref of Deno.readDirSync(`${root}tests/fixtures/suites`)) {
    const r = await assay(["suite", "validate", `${root}tests/fixtures/suites/${ref.name}`]);
    strictEqual(r.code, 0, `${ref.name}: ${r.stderr}`);
  }
});

Deno.test("assay suite validate and run refuse a metric named as the scorecard's own (pass_rate), at its name", async () => {
  const dir = await Deno.makeTempDir();
  const suite = `${dir}/s.yaml`;
  await Deno.writeTextFile(
    suite,
    "metrics:\n  - type: hit_limit\n  - type: step_efficiency\n    name: pass_rate\n",
  );
  const said = `${suite}:4:11: metrics[1].name: The suite has a metric named "pass_rate", which ` +
    "a gate reads as the runs' pass_rate: rename it in the suite";
  const validate = await runMain(["suite", "validate", suite]);
  strictEqual(validate.code, 2);
  strictEqual(validate.stderr, `assay suite validate: ${said}`);
  // suite run, without --gate too: refused before anything is stored or written.
  const out = `${dir}/run.json`;
  const run = await runMain([
    "suite",
    "run",
    suite,
    ...suiteInputs(),
    "--store",
    `${dir}/m.db`,
    "--out",
    out,
    "--no-judge",
  ]);
  strictEqual(run.code, 2);
  strictEqual(run.stderr, `assay suite run: ${said}`);
  deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["s.yaml"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay suite validate refuses a repeated JSONC key with exit 2", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/d.json`,
    '{"metrics":[{"type":"hit_limit"}],\n "metrics":[{"type":"step_efficiency"}]}\n',
  );
  const r = await assay(["suite", "validate", `${dir}/d.json`]);
  strictEqual(r.code, 2, r.stdout);
  match(r.stderr, /d\.json:2:2: Duplicate key "metrics" \(first at 1:2\)/);
});

/** `assay <args>` with `input` on its stdin. */
async function assayStdin(args: string[], input: string) {
  const child = new Deno.Command(deno, {
    args: ["run", "-A", `${root}cli/main.ts`, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(input));
  await w.close();
  const out = await child.output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("assay suite validate - reads the suite from stdin, named <stdin>", async () => {
  const good = await assayStdin(
    ["suite", "validate", "-"],
    await Deno.readTextFile(`${demo}/suite.yaml`),
  );
  strictEqual(good.code, 0, good.stderr);
  match(good.stdout, /^<stdin>: valid suite "analytics-agent-demo" with 8 metric/);
  const bad = await assayStdin(["suite", "validate", "-"], "metrics:\n  - type: hit_limt\n");
  strictEqual(bad.code, 2, bad.stderr);
  match(
    bad.stderr,
    /^assay suite validate: <stdin>:2:11: metrics\[0\]\.type: Unknown metric type "hit_limt"/,
  );
});

Deno.test("suite run, scorecard and calibrate refuse - for a file they read or write, by its flag", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/m.db`;
  const run = demoArgs(store);
  const at = (flag: string) => run.indexOf(flag) + 1;
  const cases: [string[], RegExp][] = [
    [
      run.with(2, "-"),
      /suite file -: give a file path; this command does not read suite file from stdin/,
    ],
    [
      run.with(at("--traces"), "-"),
      /--traces -: give a file path; this command does not read --traces from stdin/,
    ],
    [
      run.with(at("--store"), "-"),
      /--store -: give a file path; this command does not write --store to stdout/,
    ],
    [
      [...run, "--out", "-"],
      /--out -: give a file path; this command does not write --out to stdout/,
    ],
    [
      ["suite", "scorecard", "--store", "-"],
      /--store -: give a file path; a metric store cannot be stdin/,
    ],
    [
      ["calibrate", "--labels", "-"],
      /--labels -: give a file path; this command does not read --labels from stdin/,
    ],
  ];
  for (const [args, message] of cases) {
    // Nothing is piped: a command that read stdin would see an empty input, not this refusal.
    const r = await assayStdin(args, "");
    strictEqual(r.code, 2, `${args}: ${r.stderr}`);
    match(r.stderr, message);
  }
  deepStrictEqual([...Deno.readDirSync(dir)], []);
  strictEqual(await Deno.stat("-").then(() => true, () => false), false);
});

Deno.test("assay suite validate refuses a %YAML 1.1 directive and an unknown tag with exit 2", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/m.yaml`,
    "%YAML 1.1\n---\nmetrics:\n  - &m\n    type: trajectory_match\n    name: a\n" +
      "    params: {trajectory: in_order}\n  - <<: *m\n    name: b\n",
  );
  await Deno.writeTextFile(
    `${dir}/t.yaml`,
    "metrics:\n  - type: hit_limit\n    name: !custom foo\n",
  );
  const m = await assay(["suite", "validate", `${dir}/m.yaml`]);
  strictEqual(m.code, 2, m.stdout);
  match(m.stderr, /m\.yaml:1:1: A %YAML 1\.1 directive is not read/);
  const t = await assay(["suite", "validate", `${dir}/t.yaml`]);
  strictEqual(t.code, 2, t.stdout);
  match(t.stderr, /t\.yaml:3:11: Unresolved tag: !custom/);
});

Deno.test("assay suite run scores the demo deterministically with --no-judge and keeps history", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/metrics.db`;
  const a = await assay([...demoArgs(store), "--no-judge", "--json"]);
  strictEqual(a.code, 0, a.stderr);
  const b = await assay([...demoArgs(store), "--no-judge", "--json"]);
  strictEqual(b.code, 0, b.stderr);
  const ra = JSON.parse(a.stdout);
  const rb = JSON.parse(b.stdout);
  ok(ra.run_id !== rb.run_id);
  deepStrictEqual({ ...ra, run_id: null }, { ...rb, run_id: null });
  strictEqual(ra.runs.length, 48);
  // The trajectory metric and the repeats reducer are in the report, with their settings.
  deepStrictEqual(ra.trajectory, [
    { metric: "trajectory_match", applicable: 48, passes: 33, greedy_disagreements: 0 },
  ]);
  deepStrictEqual(ra.repeats.repeats, { n: 3, reducer: "pass_at_k", k: 2, cluster: "topic" });
  deepStrictEqual([ra.repeats.bootstrap.seed, ra.repeats.bootstrap.resamples], [0, 10000]);
  deepStrictEqual(
    ra.repeats.arms.map((
      x: { arm: string; n: number; clusters: number },
    ) => [x.arm, x.n, x.clusters]),
    [["adapter", 8, 5], ["base", 8, 5]],
  );
  // The base arm's runs come first in the traces: it is the baseline, adapter − base.
  strictEqual(ra.repeats.baseline, "base");
  deepStrictEqual(ra.repeats.comparisons[0].arms, ["base", "adapter"]);
  // Judges were skipped: not applicable, no score.
  const judged = ra.runs.flatMap((r: { criteria: { metric: string; applicable: boolean }[] }) =>
    r.criteria.filter((c) => c.metric === "groundedness")
  );
  ok(judged.length === 48 && judged.every((c: { applicable: boolean }) => !c.applicable));
  // The store holds both runs, 48 × 8 rows each.
  const db = new DatabaseSync(store);
  const runs = db.prepare("SELECT run_id, rows FROM runs ORDER BY created_at").all();
  db.close();
  deepStrictEqual(runs.map((r) => Number(r.rows)), [384, 384]);
  const card = await assay(["suite", "scorecard", "--store", store]);
  strictEqual(card.code, 0, card.stderr);
  match(card.stdout, /2 run\(s\) in history/);
  match(card.stdout, /arm adapter: 24 runs over 8 goldens/);
  match(card.stdout, /history \(pass rate per arm\)/);
  // A suite the store does not hold: its suites are listed, or the nearest suggested.
  const nope = await assay(["suite", "scorecard", "--store", store, "--suite", "nope"]);
  strictEqual(nope.code, 2, nope.stderr);
  match(nope.stderr, /Unknown suite "nope" \(suites: analytics-agent-demo\) in the store/);
  const near = await assay([
    "suite",
    "compare",
    "a",
    "b",
    "--store",
    store,
    "--suite",
    "analytics-agent-dmeo",
  ]);
  strictEqual(near.code, 2, near.stderr);
  match(
    near.stderr,
    /Unknown suite "analytics-agent-dmeo" \(did you mean analytics-agent-demo\?\)/,
  );
  const cmp = await assay(["suite", "compare", "base", "adapter", "--store", store, "--json"]);
  strictEqual(cmp.code, 0, cmp.stderr);
  strictEqual(JSON.parse(cmp.stdout).comparison.n_goldens, 8);
});

Deno.test("assay suite run names a bad trace line and writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  const lines = (await Deno.readTextFile(`${demo}/traces.jsonl`)).trimEnd().split("\n");
  lines[4] = lines[4]!.replace('"repeat":1', '"repeat":-1');
  await Deno.writeTextFile(`${dir}/traces.jsonl`, lines.join("\n") + "\n");
  const args = demoArgs(`${dir}/metrics.db`);
  args[6] = `${dir}/traces.jsonl`;
  const r = await assay([...args, "--no-judge"]);
  strictEqual(r.code, 2);
  match(r.stderr, /traces\.jsonl:5 \(golden_id "g02"\): \/repeat: /);
  const exists = await Deno.stat(`${dir}/metrics.db`).then(() => true, () => false);
  strictEqual(exists, false);
  // A repeat past 2^53 − 1 is no exact integer: it is named at its line too (it was refused
  // later, as "rows[0].repeat must be an integer", without the line).
  lines[4] = lines[4]!.replace('"repeat":-1', '"repeat":9007199254740993');
  await Deno.writeTextFile(`${dir}/traces.jsonl`, lines.join("\n") + "\n");
  const big = await assay([...args, "--no-judge"]);
  strictEqual(big.code, 2, big.stderr);
  match(big.stderr, /traces\.jsonl:5 \(golden_id "g02"\): \/repeat: .* maximum 9007199254740991/);
});

Deno.test("assay suite run scores traces whose calls are in OpenAI, Anthropic and LangChain shapes", async () => {
  // The schema refused every shape but {name, arguments} (exit 2), and step_efficiency read an
  // Anthropic or LangChain call as one without arguments.
  const dir = await Deno.makeTempDir();
  const lines = (await Deno.readTextFile(`${demo}/traces.jsonl`)).trimEnd().split("\n");
  let k = 0;
  const shaped = lines.map((l) => {
    const t = JSON.parse(l);
    t.tool_calls = t.tool_calls.map((c: { name: string; arguments: unknown }) => {
      const { name, arguments: args, ...rest } = c;
      const id = `call_${k}`;
      // Anthropic's input and LangChain's args are objects; JSON text stays JSON text.
      const text = typeof args === "string" ? args : JSON.stringify(args);
      switch (k++ % 4) {
        case 0:
          return { id, type: "function", function: { name, arguments: text }, ...rest };
        case 1:
          return typeof args === "string"
            ? c
            : { type: "tool_use", id, name, input: args, ...rest };
        case 2:
          return typeof args === "string" ? c : { name, args, id, type: "tool_call", ...rest };
        default:
          return c;
      }
    });
    return JSON.stringify(t);
  });
  await Deno.writeTextFile(`${dir}/traces.jsonl`, shaped.join("\n") + "\n");
  const args = demoArgs(`${dir}/metrics.db`);
  const plain = await assay([...args, "--no-judge", "--json"]);
  strictEqual(plain.code, 0, plain.stderr);
  args[6] = `${dir}/traces.jsonl`;
  const r = await assay([...args, "--no-judge", "--json"]);
  strictEqual(r.code, 0, r.stderr);
  ok(k > 100, `${k} calls rewritten`);
  deepStrictEqual(JSON.parse(r.stdout).runs, JSON.parse(plain.stdout).runs);
  // A call with its arguments in two places is exit 2 at its line.
  const t = JSON.parse(lines[2]!);
  t.tool_calls[1].input = t.tool_calls[1].arguments;
  await Deno.writeTextFile(
    `${dir}/traces.jsonl`,
    [lines[0], lines[1], JSON.stringify(t)].join("\n"),
  );
  const bad = await assay([...args, "--no-judge"]);
  strictEqual(bad.code, 2, bad.stderr);
  match(
    bad.stderr,
    /traces\.jsonl:3 \(golden_id "g\d+"\): \/tool_calls\/1: Value matches both subschemas 0 and 1/,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay suite run refuses a golden's or a trace's misspelt field at its file, line and id", async () => {
  const dir = await Deno.makeTempDir();
  // A golden's reference_trajectory under a misspelt key, and a trace's messages under another
  // case: each file in its turn, the other the demo's.
  const cases: [string, string, number, string, string, string][] = [
    ["goldens.jsonl", "--goldens", 2, "id", "refrence_trajectory", "reference_trajectory"],
    ["traces.jsonl", "--traces", 4, "golden_id", "Messages", "messages"],
  ];
  for (const [file, flag, at, idField, key, field] of cases) {
    const rows = (await Deno.readTextFile(`${demo}/${file}`)).trimEnd().split("\n").map(
      (l) => JSON.parse(l),
    );
    const row = rows[at]!;
    row[key] = row[field] ?? [];
    delete row[field];
    await Deno.writeTextFile(`${dir}/${file}`, rows.map((x) => JSON.stringify(x)).join("\n"));
    const args = demoArgs(`${dir}/metrics.db`);
    args[args.indexOf(flag) + 1] = `${dir}/${file}`;
    const r = await assay([...args, "--no-judge"]);
    strictEqual(r.code, 2, r.stderr);
    const where = `${file.replace(".", "\\.")}:${at + 1} \\(${idField} "${row[idField]}"\\)`;
    match(
      r.stderr,
      new RegExp(`${where}: unknown field "${key}" \\(did you mean "${field}"\\?\\)`),
    );
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay suite run names a golden whose reference trajectory it cannot read", async () => {
  const dir = await Deno.makeTempDir();
  const goldens = (await Deno.readTextFile(`${demo}/goldens.jsonl`)).trimEnd().split("\n").map(
    (l) => JSON.parse(l),
  );
  const at = goldens.findIndex((x) => Array.isArray(x.reference_trajectory));
  const g = goldens[at]!;
  g.reference_trajectory[1] = { arguments: {} }; // a call without a name
  await Deno.writeTextFile(
    `${dir}/goldens.jsonl`,
    goldens.map((x) => JSON.stringify(x)).join("\n") + "\n",
  );
  const args = demoArgs(`${dir}/metrics.db`);
  args[4] = `${dir}/goldens.jsonl`;
  const r = await assay([...args, "--no-judge"]);
  strictEqual(r.code, 2, r.stderr);
  match(
    r.stderr,
    new RegExp(
      `goldens\\.jsonl:${at + 1}: Golden "${g.id}" \\(arm \\w+, repeat \\d+\\), metric "\\w+": ` +
        "reference_trajectory\\[1\\] must be a call",
    ),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay suite run names an orphan trace and a repeated run by line", async () => {
  const dir = await Deno.makeTempDir();
  const first = (await Deno.readTextFile(`${demo}/traces.jsonl`)).split("\n")[0]!;
  const cases: [string, RegExp][] = [
    [
      first.replace('"golden_id":"g01"', '"golden_id":"nope"'),
      /traces\.jsonl:1 \(golden_id "nope"\): no golden/,
    ],
    [
      `${first}\n${first}`,
      /traces\.jsonl:2 \(golden_id "g01"\): run \(arm "base", repeat 0\) already on line 1/,
    ],
  ];
  for (const [text, message] of cases) {
    await Deno.writeTextFile(`${dir}/traces.jsonl`, text + "\n");
    const args = demoArgs(`${dir}/metrics.db`);
    args[6] = `${dir}/traces.jsonl`;
    const r = await assay([...args, "--no-judge"]);
    strictEqual(r.code, 2);
    match(r.stderr, message);
  }
});

Deno.test("the metric store shows no partial run after a crash mid-run, and the next run proceeds", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/metrics.db`;
  // A writer that is killed (SIGKILL) after inserting a run, inside its transaction.
  const run = { run_id: "crashed", suite: "s", suite_sha256: "x", metrics: ["m"], created_at: "t" };
  await killMidRun(store, run, 1000);
  // Nothing of the crashed run is visible; a new run is written and read back.
  const r = await assay([...demoArgs(store), "--no-judge"]);
  strictEqual(r.code, 0, r.stderr);
  const db = new DatabaseSync(store);
  deepStrictEqual(
    db.prepare("SELECT COUNT(*) AS n FROM scores WHERE run_id = 'crashed'").get()?.n,
    0,
  );
  deepStrictEqual(db.prepare("SELECT COUNT(*) AS n FROM runs").get()?.n, 1);
  deepStrictEqual(db.prepare("SELECT COUNT(*) AS n FROM scores").get()?.n, 384);
  db.close();
  const card = await assay(["suite", "scorecard", "--store", store]);
  strictEqual(card.code, 0, card.stderr);
  match(card.stdout, /1 run\(s\) in history/);
});

Deno.test("assay suite run calls judges over loopback, caches in the store and never shows the key", async () => {
  const server = startJudgeServer(openaiContent('{"score": 0.8, "reason": "fine"}'));
  const key = "sk-assay-TEST-KEY-0123456789-do-not-print";
  try {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(
      `${dir}/suite.yaml`,
      "metrics:\n  - type: hit_limit\n  - type: llm_judge\n    name: groundedness\n    params:\n" +
        "      evaluation_params: [final_answer, query_results]\n      criteria: Is it grounded?\n" +
        `      judge_model: openai-compatible:judge-1@${server.baseUrl}\n` +
        "      applicable_when: final_answer\n",
    );
    const args = [...demoArgs(`${dir}/metrics.db`), "--out", `${dir}/run.json`];
    args[2] = `${dir}/suite.yaml`;
    const env = { OPENAI_COMPATIBLE_API_KEY: key };
    const first = await assay(args, env);
    strictEqual(first.code, 0, first.stderr);
    // 48 runs, 5 of which gave no final answer: 43 judge calls, each with the key, over 15
    // distinct prompts (repeats of a golden often answer alike), each judged once.
    strictEqual(server.requests.length, 15);
    strictEqual(new Set(server.requests.map((r) => r.body)).size, 15);
    ok(server.requests.every((r) => r.headers.authorization === `Bearer ${key}`));
    const second = await assay(args, env);
    strictEqual(second.code, 0, second.stderr);
    strictEqual(server.requests.length, 15, "the second run is served by the cache");
    const report = JSON.parse(await Deno.readTextFile(`${dir}/run.json`));
    const scores = report.runs.flatMap((r: { criteria: { metric: string; score: number }[] }) =>
      r.criteria.filter((c) => c.metric === "groundedness").map((c) => c.score)
    );
    strictEqual(scores.filter((s: number | null) => s === 0.8).length, 43);
    // Calibrate the stored judge scores against human labels joined by run.
    const labels = report.runs.filter((
      r: { criteria: { metric: string; score: number | null }[] },
    ) => r.criteria.some((c) => c.metric === "groundedness" && c.score !== null)).slice(0, 12).map((
      r: { golden_id: string; arm: string; repeat: number },
      i: number,
    ) =>
      JSON.stringify({
        golden_id: r.golden_id,
        arm: r.arm,
        repeat: r.repeat,
        human: i % 4 === 0 ? 0 : 1,
      })
    );
    await Deno.writeTextFile(`${dir}/labels.jsonl`, labels.join("\n") + "\n");
    const cal = await assay([
      "calibrate",
      "--labels",
      `${dir}/labels.jsonl`,
      "--store",
      `${dir}/metrics.db`,
      "--metric",
      "groundedness",
      "--json",
    ]);
    strictEqual(cal.code, 0, cal.stderr);
    const c = JSON.parse(cal.stdout);
    // Every stored score is 0.8 (a pass at the metric's threshold 0.5); 3 of 12 humans say fail.
    deepStrictEqual([c.n, c.threshold], [12, 0.5]);
    // MAE (9 × |0.8 − 1| + 3 × |0.8 − 0|) / 12 = 0.35, up to the rounding of 1 − 0.8.
    ok(Math.abs(c.mae - 0.35) < 1e-15, String(c.mae));
    deepStrictEqual(c.confusion, { tp: 9, fp: 3, fn: 0, tn: 0 });
    for (const text of [first.stdout, first.stderr, second.stdout, second.stderr]) {
      ok(!text.includes(key), "the key leaked into the output");
    }
    for (const file of ["run.json", "metrics.db", "metrics.db-wal"]) {
      const bytes = await Deno.readFile(`${dir}/${file}`).catch(() => new Uint8Array());
      ok(!dec.decode(bytes).includes(key), `the key leaked into ${file}`);
    }
  } finally {
    await server.close();
  }
});

Deno.test("assay calibrate gives the hand-checked figures of the fixture", async () => {
  const r = await assay([
    "calibrate",
    "--labels",
    `${root}tests/fixtures/calibration/labels.jsonl`,
    "--json",
  ]);
  strictEqual(r.code, 0, r.stderr);
  const c = JSON.parse(r.stdout);
  // Hand-checked in tests/suite/calibration_test.ts: tp 5, fp 2, fn 1, tn 4; κ = 0.5; MAE 0.25;
  // r = √(3/7); ρ = √(243/550).
  deepStrictEqual(c.confusion, { tp: 5, fp: 2, fn: 1, tn: 4 });
  deepStrictEqual([c.n, c.kappa, c.mae, c.agreement], [12, 0.5, 0.25, 0.75]);
  ok(Math.abs(c.pearson - Math.sqrt(3 / 7)) < 1e-15);
  ok(Math.abs(c.spearman - Math.sqrt(243 / 550)) < 1e-15);
  strictEqual(c.verdict, "not_trusted");
  const table = await assay([
    "calibrate",
    "--labels",
    `${root}tests/fixtures/calibration/labels.jsonl`,
  ]);
  match(table.stdout, /Cohen's kappa\s+0\.5000/);
  match(table.stdout, /verdict: not_trusted/);
  const lenient = await assay([
    "calibrate",
    "--labels",
    `${root}tests/fixtures/calibration/labels.jsonl`,
    "--kappa-bar",
    "0.5",
  ]);
  match(lenient.stdout, /verdict: trusted/);
});

Deno.test("assay suite run runs every YAML example of the reference unchanged on the demo data", async () => {
  const server = startJudgeServer(anthropicTool({ score: 0.75, reason: "plausible" }));
  try {
    const dir = await Deno.makeTempDir();
    const files = [...Deno.readDirSync(`${root}tests/fixtures/suites`)].map((e) => e.name).sort();
    strictEqual(files.length, 7);
    for (const f of files) {
      const args = [
        ...demoArgs(`${dir}/metrics.db`),
        "--anthropic-base-url",
        server.baseUrl,
        "--json",
      ];
      args[2] = `${root}tests/fixtures/suites/${f}`;
      const before = server.requests.length;
      const r = await assay(args, { ANTHROPIC_API_KEY: "test-key" });
      strictEqual(r.code, 0, `${f}: ${r.stderr}`);
      const report = JSON.parse(r.stdout);
      strictEqual(report.runs.length, 48, f);
      // Every judge criterion that applies was scored by the loopback judge, through the
      // Anthropic wire format, under the default or the named model.
      const judged = report.runs.flatMap((
        run: {
          criteria: {
            metric: string;
            applicable: boolean;
            score: number | null;
            judge_model?: string;
          }[];
        },
      ) => run.criteria.filter((c) => c.judge_model !== undefined));
      const applicable = judged.filter((c: { applicable: boolean }) => c.applicable);
      // A suite with a judge has judged runs; one without has none.
      strictEqual(applicable.length > 0, f !== "reference_2_deterministic.yaml", f);
      ok(applicable.every((c: { score: number | null }) => c.score === 0.75), f);
      // Each distinct prompt is judged once: repeats with the same trace hit the store's cache.
      ok(server.requests.length - before <= applicable.length, f);
      ok(server.requests.every((q) => q.path === "/v1/messages"));
    }
    ok(server.requests.length > 0);
  } finally {
    await server.close();
  }
});

Deno.test("assay suite run refuses an arm named overall with exit 2, naming its line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const demo = new URL("../../samples/suite_demo/", import.meta.url);
    for (const file of ["goldens.jsonl", "catalog.json"]) {
      await Deno.copyFile(new URL(file, demo), `${dir}/${file}`);
    }
    const traces = await Deno.readTextFile(new URL("traces.jsonl", demo));
    await Deno.writeTextFile(
      `${dir}/traces.jsonl`,
      traces.replaceAll(/"arm": ?"adapter"/g, '"arm":"overall"'),
    );
    const first = traces.split("\n").findIndex((l) => /"arm": ?"adapter"/.test(l)) + 1;
    const r = await runMain([
      "suite",
      "run",
      new URL("suite.yaml", demo).pathname,
      ...suiteInputs(dir),
      "--no-judge",
    ]);
    strictEqual(r.code, 2, r.stderr);
    ok(r.stderr.includes(`traces.jsonl:${first} `), r.stderr);
    ok(r.stderr.includes('arm "overall" is the name of all arms at once'), r.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
