// `suite scorecard`'s history: each run's pass rate per arm, read from the pass counts its writer
// stored (the `pass_counts` column of `runs`) instead of rescoring every stored run's rows. The
// history is the same, byte for byte, as the rows rescored (the path of a run stored before the
// column) on a seeded store of random suite runs with judge errors; a malformed cell is exit 2.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_main.ts";
import { demoRunArgs, suiteInputs } from "./_suite_demo.ts";
import { openaiContent, startJudgeServer } from "../suite/_judge_server.ts";
import { randomSuiteRun, REDUCER_CASES } from "../suite/_random_suite_runs.ts";
import { makeRng } from "../_corpus.ts";

const KEY = "OPENAI_COMPATIBLE_API_KEY";

/** A judge that fails (HTTP 400, no retry) always as `judge-fail`, else 1 time in 5, by a hash. */
function reply(body: Record<string, unknown>) {
  let h = 2166136261;
  for (const ch of JSON.stringify(body)) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619);
  const rng = makeRng(h >>> 0);
  if (body.model === "judge-fail" || rng.int(5) === 0) {
    return { status: 400, body: { error: { message: "bad request" } } };
  }
  const score = rng.chance(0.5) ? rng.pick([0, 0.5, 1]) : rng.float();
  return openaiContent(JSON.stringify({ score, reason: "r" }));
}

/** A copy of `store` made by SQLite, with `sql` run on it. */
function copyWith(store: string, copy: string, sql: string): string {
  const db = new DatabaseSync(store);
  db.exec(`VACUUM INTO '${copy}'`);
  db.close();
  const c = new DatabaseSync(copy);
  c.exec(sql);
  c.close();
  return copy;
}

/** The history table of a scorecard's text. */
function history(text: string): string {
  const at = text.indexOf("\nhistory (pass rate per arm):\n");
  ok(at >= 0, text);
  return text.slice(at);
}

Deno.test("suite scorecard's history from the stored pass counts is byte for byte the rows rescored, on 16 seeded random runs", async () => {
  const server = startJudgeServer((q) => reply(q.body));
  Deno.env.set(KEY, "test-key-0123456789");
  const dir = await Deno.makeTempDir();
  const store = `${dir}/metrics.db`;
  try {
    for (let i = 0; i < 16; i++) {
      const [reducer, cluster] = REDUCER_CASES[i % REDUCER_CASES.length]!;
      const input = randomSuiteRun(9100 + i, reducer, cluster);
      // One suite name, so that every run is in one history; every 4th run's judges all fail.
      const suite = { ...JSON.parse(input.suiteText), name: "history" };
      const model = i % 4 === 3 ? "judge-fail" : "judge-1";
      for (const m of suite.metrics) {
        if (m.type === "llm_judge") {
          m.params.judge_model = `openai-compatible:${model}@${server.baseUrl}`;
        }
      }
      const run = `${dir}/run-${i}`;
      await Deno.mkdir(run);
      await Deno.writeTextFile(`${run}/suite.json`, JSON.stringify(suite));
      const lines = (xs: unknown[]) => xs.map((x) => JSON.stringify(x) + "\n").join("");
      await Deno.writeTextFile(`${run}/goldens.jsonl`, lines(input.goldens));
      await Deno.writeTextFile(`${run}/traces.jsonl`, lines(input.traces));
      await Deno.writeTextFile(`${run}/catalog.json`, JSON.stringify(input.catalog));
      const r = await runMain([
        ...["suite", "run", `${run}/suite.json`, ...suiteInputs(run), "--store", store],
        ...["--quiet", "--resamples", "20"],
      ]);
      strictEqual(r.code, 0, `run ${i}: ${r.stderr}`);
    }
  } finally {
    Deno.env.delete(KEY);
    await server.close();
  }
  const db = new DatabaseSync(store);
  const stored = db.prepare("SELECT run_id, pass_counts FROM runs ORDER BY created_at, run_id")
    .all();
  db.close();
  strictEqual(stored.length, 16);
  ok(stored.every((r) => typeof r.pass_counts === "string"), "every run stores its pass counts");
  const rescored = copyWith(store, `${dir}/rescored.db`, "UPDATE runs SET pass_counts = NULL");
  const flags = ["--resamples", "20"];
  for (const run of [undefined, String(stored[5]!.run_id)]) {
    const which = run === undefined ? [] : ["--run", run];
    const fromCounts = await runMain(["suite", "scorecard", "--store", store, ...which, ...flags]);
    const fromRows = await runMain(["suite", "scorecard", "--store", rescored, ...which, ...flags]);
    strictEqual(fromCounts.code, 0, fromCounts.stderr);
    strictEqual(fromRows.code, 0, fromRows.stderr);
    strictEqual(fromCounts.stdout, fromRows.stdout);
    strictEqual(fromCounts.stderr, fromRows.stderr);
  }
  // The history holds arms without a complete run ("-"), and hostile arm names.
  const text = history((await runMain(["suite", "scorecard", "--store", store, ...flags])).stdout);
  strictEqual(text.split("\n").filter((l) => /^\d{8}T\d{6}-/.test(l)).length, 16, text);
  match(text, / -(,|\n|$)/);
  match(text, /__proto__ /);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("suite scorecard's history reads each run's stored pass counts, not its rows", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/metrics.db`;
  for (let i = 0; i < 2; i++) strictEqual((await runMain(demoRunArgs(store))).code, 0);
  const db = new DatabaseSync(store);
  const runs = db.prepare("SELECT run_id, pass_counts FROM runs ORDER BY created_at, run_id").all();
  db.close();
  deepStrictEqual(runs.map((r) => r.pass_counts), [
    '[["adapter",15,24],["base",11,24]]',
    '[["adapter",15,24],["base",11,24]]',
  ]);
  const first = String(runs[0]!.run_id);
  const edited = copyWith(
    store,
    `${dir}/edited.db`,
    `UPDATE runs SET pass_counts = '[["adapter",1,4],["base",0,0]]' WHERE run_id = '${first}'`,
  );
  const card = await runMain(["suite", "scorecard", "--store", edited, "--resamples", "10"]);
  strictEqual(card.code, 0, card.stderr);
  const lines = history(card.stdout).split("\n");
  match(lines.find((l) => l.startsWith(first))!, / adapter 0\.250, base -$/);
  match(lines.at(-1)!, / adapter 0\.625, base 0\.458$/);
  await Deno.remove(dir, { recursive: true });
});

/** A store in `dir` holding two runs of the demo, and the first run's id. */
async function twoDemoRuns(dir: string): Promise<{ store: string; first: string }> {
  const store = `${dir}/metrics.db`;
  for (let i = 0; i < 2; i++) strictEqual((await runMain(demoRunArgs(store))).code, 0);
  const db = new DatabaseSync(store);
  const first = String(db.prepare("SELECT run_id FROM runs ORDER BY created_at").get()?.run_id);
  db.close();
  return { store, first };
}

Deno.test("a malformed pass_counts cell is exit 2 naming the store and the run", async () => {
  const dir = await Deno.makeTempDir();
  const { store, first } = await twoDemoRuns(dir);
  const cases: [string, RegExp][] = [
    ["'nope'", /it is not JSON/],
    ["X'5b5d'", /it is not text/],
    [`'[["adapter",2,1]]'`, /not a list of \[arm, passes, complete\]/],
    [`'[["adapter",1.5,2]]'`, /not a list of \[arm, passes, complete\]/],
    [`'[["adapter",1,2],["adapter",0,1]]'`, /an arm is repeated/],
    // Well formed, but not the run's arms: none, another, one of two, or one more.
    ["'[]'", /its arms \[\] are not the arms of the run's rows \["adapter","base"\]/],
    [`'[["zz",1,2]]'`, /its arms \["zz"\] are not the arms of the run's rows/],
    [`'[["adapter",1,2]]'`, /its arms \["adapter"\] are not the arms of the run's rows/],
    [
      `'[["adapter",1,2],["base",1,2],["zz",0,0]]'`,
      /its arms \["adapter","base","zz"\] are not the arms of the run's rows/,
    ],
  ];
  for (const [i, [value, message]] of cases.entries()) {
    const copy = copyWith(
      store,
      `${dir}/bad-${i}.db`,
      `UPDATE runs SET pass_counts = ${value} WHERE run_id = '${first}'`,
    );
    const r = await runMain(["suite", "scorecard", "--store", copy, "--resamples", "10"]);
    strictEqual(r.code, 2, `${value}: ${r.stdout}`);
    match(r.stderr, new RegExp(`bad-${i}\\.db: run ${first} has a malformed pass_counts column`));
    match(r.stderr, message);
    ok(!r.stderr.includes("    at "), r.stderr);
    // Refused before anything is printed: no scorecard, then a failure.
    strictEqual(r.stdout, "", value);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a run without pass counts whose rows are malformed is exit 2 before the scorecard is printed", async () => {
  const dir = await Deno.makeTempDir();
  const { store, first } = await twoDemoRuns(dir);
  // The first run, stored without its counts (as by an older assay), has a row no writer makes.
  const copy = copyWith(
    store,
    `${dir}/bad.db`,
    `UPDATE runs SET pass_counts = NULL WHERE run_id = '${first}';
     UPDATE scores SET applicable = 7 WHERE rowid =
       (SELECT min(rowid) FROM scores WHERE run_id = '${first}')`,
  );
  const r = await runMain(["suite", "scorecard", "--store", copy, "--resamples", "10"]);
  strictEqual(r.code, 2, r.stdout);
  match(r.stderr, new RegExp(`bad\\.db: run ${first} has a malformed scores row`));
  ok(!r.stderr.includes("    at "), r.stderr);
  strictEqual(r.stdout, "");
  await Deno.remove(dir, { recursive: true });
});
