// A failed judge call on a run that could not pass anyway, end to end (`assay suite run` of the
// demo against a loopback judge, as a user test found it): 6 of the demo's 90 judge calls refused
// with a 403, all on 3 base runs that fail even with every judge at 1. Those runs were left out of
// the pass rate, which rose from 11/24 (0.458) to 11/21 (0.524), and `--fail-under 0.5` went from
// exit 3 to exit 0. Their pass is decided (runOverall: the missing scores cannot change it), so the
// pass rate, --fail-under, a gate's pass_rate, the repeats' pass@2 and the stored run read back
// are those of the run whose judges all answered.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { createHash } from "node:crypto";
import { anthropicTool, apiError, type Seen, startJudgeServer } from "../suite/_judge_server.ts";
import { suiteInputs } from "./_suite_demo.ts";
import { runCli } from "./_main.ts";

const demo = new URL("../../samples/suite_demo", import.meta.url).pathname;
const env = { ANTHROPIC_API_KEY: "sk-ant-test-key-0123" };
const JUDGES = ["answer_correctness", "groundedness"];
/** The base runs whose judges fail: each fails even with both judges at 1, and no other run
 * shares its judge prompts (the judge asks each distinct prompt once). */
const FAILED_RUNS = ["g05/0", "g06/1", "g08/2"];

interface Criterion {
  metric: string;
  score: number | null;
  applicable: boolean;
  prompt_sha256?: string;
}
interface Run {
  golden_id: string;
  arm: string;
  repeat: number;
  criteria: Criterion[];
  overall: { status: string; pass: boolean | null };
}
interface Arm {
  arm: string;
  n_incomplete: number;
  pass_rate: { value: number; numerator: number; denominator: number };
}

/** The SHA-256 of the prompt an Anthropic request carries, as the judge records it. */
const promptSha = (req: Seen) => {
  const user = (req.body.messages as { content: string }[])[0]!.content;
  return createHash("sha256").update(`${req.body.system}\u0000${user}`).digest("hex");
};

const runName = (r: Run) => `${r.golden_id}/${r.repeat}`;
const passes = (arms: Arm[]) =>
  arms.map((a) => [a.arm, a.pass_rate.numerator, a.pass_rate.denominator]);

Deno.test("a judge error on a run that could not pass leaves it failing: the pass rate, --fail-under and the gate do not move", async () => {
  const args = (baseUrl: string, extra: string[]) => [
    "suite",
    "run",
    `${demo}/suite.yaml`,
    ...suiteInputs(),
    "--anthropic-base-url",
    baseUrl,
    "--quiet",
    ...extra,
  ];
  // Every judge answers 0.8: base passes 11 of 24 runs.
  const answering = startJudgeServer(() => anthropicTool({ score: 0.8, reason: "Close enough." }));
  let all: { runs: Run[]; scorecard: { arms: Arm[] }; repeats: unknown };
  try {
    const r = await runCli(args(answering.baseUrl, ["--json"]), env);
    strictEqual(r.code, 0, r.stderr);
    all = JSON.parse(r.stdout);
  } finally {
    await answering.close();
  }
  deepStrictEqual(passes(all.scorecard.arms), [["adapter", 15, 24], ["base", 11, 24]]);
  const failed = all.runs.filter((r) => r.arm === "base" && FAILED_RUNS.includes(runName(r)));
  const refused = new Set<string>();
  for (const run of failed) {
    const applicable = run.criteria.filter((c) => c.applicable);
    const judged = applicable.filter((c) => JUDGES.includes(c.metric));
    const highest = applicable.reduce((s, c) => s + (JUDGES.includes(c.metric) ? 1 : c.score!), 0);
    ok(highest / applicable.length < 0.9, `${runName(run)} could pass: ${highest}`);
    strictEqual(judged.length, 2);
    for (const c of judged) refused.add(c.prompt_sha256!);
  }
  const sharing = all.runs.filter((r) =>
    !failed.includes(r) && r.criteria.some((c) => refused.has(c.prompt_sha256!))
  );
  deepStrictEqual(sharing.map(runName), []);
  strictEqual(refused.size, 6);

  // The same, but the judge refuses (403) the 6 calls of those 3 runs.
  const server = startJudgeServer((req) =>
    refused.has(promptSha(req))
      ? apiError(403, "forbidden")
      : anthropicTool({ score: 0.8, reason: "Close enough." })
  );
  const dir = await Deno.makeTempDir();
  // The gate's pass_rate is the scorecard's: passes over the runs with a verdict.
  await Deno.writeTextFile(
    `${dir}/gate.yaml`,
    "rules:\n  - metric: pass_rate\n    slice: base\n    min: 0.5\n",
  );
  try {
    const r = await runCli(
      args(server.baseUrl, [
        "--out",
        `${dir}/run.json`,
        "--store",
        `${dir}/metrics.db`,
        "--fail-under",
        "0.5",
        "--gate",
        `${dir}/gate.yaml`,
      ]),
      env,
    );
    // Before: 11/21 (0.524) for base, exit 0.
    strictEqual(r.code, 3, r.stderr);
    match(r.stderr, /warning: the judge failed on 6 of 90 calls \(first: HTTP 403 from anthropic/);
    match(r.stderr, /FAIL: pass rate under 0\.5 in base \(0\.458\)/);
    match(r.stdout, /FAILED, 0 of 1 rule holds/);
    const gated = await runCli([
      "gate",
      `${dir}/gate.yaml`,
      "--report",
      `${dir}/run.json`,
      "--json",
    ]);
    strictEqual(gated.code, 3, gated.stderr);
    const rule = JSON.parse(gated.stdout).rules[0];
    deepStrictEqual([rule.pass, rule.value], [false, 11 / 24]);
    // Counted as incomplete, yet none is left out of the pass rate: each has its verdict.
    match(r.stdout, /arm base: 24 runs over 8 goldens; 3 incomplete \(a judge error\)\n/);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/run.json`));
    const incomplete = (report.runs as Run[]).filter((x) => x.overall.status === "incomplete");
    deepStrictEqual(incomplete.map((x) => [x.arm, runName(x), x.overall.pass]), [
      ["base", "g05/0", false],
      ["base", "g06/1", false],
      ["base", "g08/2", false],
    ]);
    const arms: Arm[] = report.scorecard.arms;
    deepStrictEqual(passes(arms), passes(all.scorecard.arms));
    deepStrictEqual(arms.map((a) => a.n_incomplete), [0, 3]);
    // The repeats' pass@2 reads the same verdicts: the section is the one with no judge error.
    deepStrictEqual(report.repeats, all.repeats);
    // The stored run, read back, gives the same scorecard and repeats, byte for byte.
    const stored = await runCli(["suite", "scorecard", "--store", `${dir}/metrics.db`, "--json"]);
    strictEqual(stored.code, 0, stored.stderr);
    const back = JSON.parse(stored.stdout);
    deepStrictEqual(passes(back.scorecard.arms), passes(arms));
    ok(back.repeats.arms.length === 2, stored.stdout);
    strictEqual(JSON.stringify(back.scorecard), JSON.stringify(report.scorecard));
    strictEqual(JSON.stringify(back.repeats), JSON.stringify(report.repeats));
    const text = await runCli(["suite", "scorecard", "--store", `${dir}/metrics.db`]);
    strictEqual(text.code, 0, text.stderr);
    match(text.stdout, /arm base: 24 runs over 8 goldens; 3 incomplete \(a judge error\)\n/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("suite run and suite scorecard count the runs a judge error leaves without a pass verdict", async () => {
  // hit_limit (threshold 0.75, the run's) and a judge that fails on every call: a run lies
  // between hit_limit / 2 and (hit_limit + 1) / 2, so one with hit_limit 1 (0.5 to 1) has no
  // verdict, and one with hit_limit 0 (0 to 0.5) fails.
  const server = startJudgeServer(apiError(403, "forbidden"));
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/suite.yaml`,
      "metrics:\n  - type: hit_limit\n    threshold: 0.75\n  - type: llm_judge\n    name: grounded\n" +
        "    params:\n      evaluation_params: [final_answer, query_results]\n" +
        "      criteria: Is it grounded?\n      applicable_when: final_answer\n",
    );
    const r = await runCli([
      "suite",
      "run",
      `${dir}/suite.yaml`,
      ...suiteInputs(),
      "--anthropic-base-url",
      server.baseUrl,
      "--quiet",
      "--out",
      `${dir}/run.json`,
      "--store",
      `${dir}/metrics.db`,
    ], env);
    strictEqual(r.code, 0, r.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/run.json`));
    const stored = await runCli(["suite", "scorecard", "--store", `${dir}/metrics.db`]);
    strictEqual(stored.code, 0, stored.stderr);
    let undecided = 0;
    for (const arm of report.scorecard.arms as (Arm & { n_runs: number })[]) {
      const runs = (report.runs as Run[]).filter((x) => x.arm === arm.arm);
      const hit = (x: Run) => x.criteria[0]!.score;
      const incomplete = runs.filter((x) => x.overall.status === "incomplete");
      const left = incomplete.filter((x) => hit(x) === 1);
      ok(incomplete.every((x) => x.overall.pass === (hit(x) === 1 ? null : false)));
      strictEqual(arm.pass_rate.denominator, runs.length - left.length);
      undecided += left.length;
      const line = `arm ${arm.arm}: ${arm.n_runs} runs over 8 goldens; ${arm.n_incomplete} ` +
        `incomplete (a judge error); ${left.length} without a pass verdict, left out of the ` +
        "pass rate\n";
      ok(r.stdout.includes(line), r.stdout);
      ok(stored.stdout.includes(line), stored.stdout);
    }
    ok(undecided > 0, "no run without a verdict");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
