// Metric stores made before runs kept their repeats (assay.store.v1 as first released): they
// still open and score, the stored-run commands say in one line that such a run has no repeats
// section, reading never migrates them, and the first new run adds the columns inside its own
// transaction: under concurrent writers, and rolled back with a writer killed mid-run.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_main.ts";

const deno = Deno.execPath();
const root = new URL("../../", import.meta.url).pathname;
const demo = `${root}samples/suite_demo`;
const dec = new TextDecoder();

/** The schema of assay.store.v1 as assay created it before it kept repeats, verbatim. */
const V1_SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY,
  suite TEXT NOT NULL,
  suite_sha256 TEXT NOT NULL,
  metrics TEXT NOT NULL,
  created_at TEXT NOT NULL,
  rows INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS scores (
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  suite TEXT NOT NULL,
  golden_id TEXT NOT NULL,
  arm TEXT NOT NULL,
  repeat INTEGER NOT NULL,
  metric TEXT NOT NULL,
  score REAL,
  applicable INTEGER NOT NULL,
  threshold REAL NOT NULL,
  pass INTEGER,
  prompt_sha256 TEXT,
  rubric_sha256 TEXT,
  judge_model TEXT,
  error TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (run_id, golden_id, arm, repeat, metric)
);
CREATE INDEX IF NOT EXISTS scores_by_suite ON scores (suite, arm, metric);
CREATE TABLE IF NOT EXISTS judge_cache (
  key TEXT PRIMARY KEY,
  score REAL NOT NULL,
  reason TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', 'assay.store.v1');
`;

const SCORE_COLUMNS = "run_id, suite, golden_id, arm, repeat, metric, score, applicable, " +
  "threshold, pass, prompt_sha256, rubric_sha256, judge_model, error, created_at";

const runArgs = (store: string) => [
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
  "--no-judge",
  "--quiet",
];

/**
 * A store as assay wrote it before runs kept their repeats: the v1 schema in WAL mode, holding
 * the demo run with the rows the current code writes (the score rows did not change).
 */
async function oldStore(dir: string): Promise<{ path: string; scratch: string; runId: string }> {
  const scratch = `${dir}/scratch.db`;
  const r = await runMain(runArgs(scratch));
  strictEqual(r.code, 0, r.stderr);
  const path = `${dir}/old.db`;
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec(V1_SCHEMA);
  db.exec(`ATTACH '${scratch}' AS s`);
  db.exec(
    "INSERT INTO runs SELECT run_id, suite, suite_sha256, metrics, created_at, rows FROM s.runs",
  );
  db.exec(`INSERT INTO scores (${SCORE_COLUMNS}) SELECT ${SCORE_COLUMNS} FROM s.scores`);
  const runId = String(db.prepare("SELECT run_id FROM runs").get()?.run_id);
  db.exec("DETACH s");
  db.close();
  return { path, scratch, runId };
}

function columns(path: string): string[] {
  const db = new DatabaseSync(path);
  try {
    deepStrictEqual(db.prepare("PRAGMA integrity_check").all().map((r) => r.integrity_check), [
      "ok",
    ]);
    strictEqual(
      db.prepare("SELECT value FROM meta WHERE key = 'schema'").get()?.value,
      "assay.store.v1",
    );
    return db.prepare("PRAGMA table_info(runs)").all().map((c) => String(c.name));
  } finally {
    db.close();
  }
}

const V1_COLUMNS = ["run_id", "suite", "suite_sha256", "metrics", "created_at", "rows"];

Deno.test("a store made before repeats were kept still scores, says so in one line, and migrates on its next run", async () => {
  const dir = await Deno.makeTempDir();
  const { path, scratch, runId } = await oldStore(dir);
  const note = `run ${runId} was stored before repeats were kept: no repeats section`;
  const card = await runMain(["suite", "scorecard", "--store", path, "--json"]);
  strictEqual(card.code, 0, card.stderr);
  strictEqual(card.stderr, note);
  const old = JSON.parse(card.stdout);
  strictEqual(old.repeats, null);
  // The run scores as it did when it was written.
  const fresh = await runMain(["suite", "scorecard", "--store", scratch, "--json"]);
  ok(JSON.parse(fresh.stdout).repeats !== undefined);
  deepStrictEqual(old.scorecard, JSON.parse(fresh.stdout).scorecard);
  const table = await runMain(["suite", "scorecard", "--store", path]);
  strictEqual(table.code, 0, table.stderr);
  strictEqual(table.stdout.split("\n").filter((l) => l === note).length, 1);
  match(table.stdout, /arm adapter: 24 runs over 8 goldens/);
  ok(!table.stdout.includes("\nrepeats: "));
  const cmp = await runMain(["suite", "compare", "base", "adapter", "--store", path, "--json"]);
  strictEqual(cmp.code, 0, cmp.stderr);
  strictEqual(cmp.stderr, note);
  strictEqual(JSON.parse(cmp.stdout).reduced_comparison, null);
  strictEqual(JSON.parse(cmp.stdout).comparison.n_goldens, 8);
  const cmpTable = await runMain(["suite", "compare", "base", "adapter", "--store", path]);
  strictEqual(cmpTable.stdout.split("\n").at(-1), note);
  // Reading did not migrate the store.
  deepStrictEqual(columns(path), V1_COLUMNS);
  // A new run adds the columns and keeps its repeats; the old run still says it has none.
  const next = await runMain([...runArgs(path), "--out", `${dir}/run.json`]);
  strictEqual(next.code, 0, next.stderr);
  deepStrictEqual(columns(path), [...V1_COLUMNS, "repeats", "clusters"]);
  const latest = JSON.parse(
    (await runMain(["suite", "scorecard", "--store", path, "--json"])).stdout,
  );
  const live = JSON.parse(await Deno.readTextFile(`${dir}/run.json`));
  strictEqual(JSON.stringify(latest.repeats), JSON.stringify(live.repeats));
  const again = await runMain(["suite", "scorecard", "--store", path, "--run", runId]);
  strictEqual(again.code, 0, again.stderr);
  ok(again.stdout.includes(`\n${note}\n`));
  match(again.stdout, /2 run\(s\) in history/);
});

function writer(suite: string, store: string): Deno.ChildProcess {
  const args = runArgs(store);
  args[2] = suite;
  return new Deno.Command(deno, {
    args: ["run", "-A", `${root}cli/main.ts`, ...args],
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
}

Deno.test("6 concurrent suite run writers on a store made before repeats were kept: one migration, every run keeps its repeats (5 trials)", async () => {
  const dir = await Deno.makeTempDir();
  const suite = `${dir}/suite.json`;
  await Deno.writeTextFile(
    suite,
    JSON.stringify({
      name: "migration-test",
      repeats: { n: 3, reducer: "mean", cluster: "topic" },
      metrics: [{ type: "hit_limit" }, { type: "step_efficiency" }],
    }),
  );
  const { path: template } = await oldStore(dir);
  const problems: string[] = [];
  for (let t = 0; t < 5; t++) {
    const path = `${dir}/old-${t}.db`;
    const db = new DatabaseSync(template);
    db.exec(`VACUUM INTO '${path}'`);
    db.close();
    const e = new DatabaseSync(path);
    e.exec("PRAGMA journal_mode = WAL");
    e.close();
    const children = Array.from({ length: 6 }, () => writer(suite, path));
    for (const [i, c] of children.entries()) {
      const out = await c.output();
      if (out.code !== 0) problems.push(`trial ${t}, writer ${i}: ${dec.decode(out.stderr)}`);
    }
    deepStrictEqual(columns(path), [...V1_COLUMNS, "repeats", "clusters"]);
    const s = new DatabaseSync(path);
    const kept = s.prepare("SELECT suite, repeats, clusters IS NULL AS bare FROM runs").all()
      .map((r) => `${r.suite} ${r.repeats} ${r.bare}`).sort();
    s.close();
    deepStrictEqual(kept, [
      "analytics-agent-demo null 1",
      ...Array(6).fill('migration-test {"n":3,"reducer":"mean","cluster":"topic"} 0'),
    ], `trial ${t}`);
  }
  deepStrictEqual(problems, []);
});

Deno.test("a writer killed mid-run on a store made before repeats were kept leaves it unmigrated", async () => {
  const dir = await Deno.makeTempDir();
  const { path, runId } = await oldStore(dir);
  const script = `${dir}/crash.ts`;
  await Deno.writeTextFile(
    script,
    `import { MetricStore } from ${JSON.stringify(`${root}cli/_store.ts`)};
const s = MetricStore.open(${JSON.stringify(path)});
const row = { golden_id: "g", arm: "a", repeat: 0, metric: "m", score: 1, applicable: true,
  threshold: 0.5, pass: true, prompt_sha256: null, rubric_sha256: null, judge_model: null,
  error: null };
s.writeRun({ run_id: "crashed", suite: "s", suite_sha256: "x", metrics: ["m"], created_at: "t",
  repeats: { repeats: { n: 1, reducer: "max" }, clusters: null } }, [row], () => {
  console.log("inside");
  const end = Date.now() + 30000;
  while (Date.now() < end) {}
});
`,
  );
  const child = new Deno.Command(deno, {
    args: ["run", "-A", script],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  match(dec.decode((await reader.read()).value), /inside/);
  child.kill("SIGKILL");
  await child.status;
  reader.releaseLock();
  await child.stderr.cancel();
  deepStrictEqual(columns(path), V1_COLUMNS);
  const card = await runMain(["suite", "scorecard", "--store", path, "--json"]);
  strictEqual(card.code, 0, card.stderr);
  strictEqual(JSON.parse(card.stdout).run, runId);
});
