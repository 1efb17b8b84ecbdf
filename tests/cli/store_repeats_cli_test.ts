// Metric stores made before runs kept their repeats (assay.store.v1 as first released): they
// still open and score, the stored-run commands say in one line that such a run has no repeats
// section, reading never migrates them, and the first new run adds the columns inside its own
// transaction: under concurrent writers, and rolled back with a writer killed mid-run.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_main.ts";
import { demoRunArgs as runArgs } from "./_suite_demo.ts";
import { killMidRun } from "./_killed_writer.ts";

const deno = Deno.execPath();
const root = new URL("../../", import.meta.url).pathname;
const fixtures = `${root}tests/fixtures/store`;
/** The fixture's suite (repeats clustered by topic) and the run the old assay stored of it. */
const SUITE = `${fixtures}/suite.json`;
const RUN_ID = "20261204T230100-afb41c02-f973574c";
const NOTE = `run ${RUN_ID} was stored before repeats were kept: no repeats section`;

/** A copy of the store an assay before this change wrote (tests/fixtures/store/README.md). */
async function oldStore(dir: string, name = "old.db"): Promise<string> {
  await Deno.copyFile(`${fixtures}/assay_store_v1.db`, `${dir}/${name}`);
  return `${dir}/${name}`;
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
/** The columns of runs added since, which a store's first new run adds. */
const ADDED_COLUMNS = ["repeats", "clusters", "golden_ids", "baseline", "pass_counts"];

Deno.test("a store made before repeats were kept still scores, says so in one line, and migrates on its next run", async () => {
  const dir = await Deno.makeTempDir();
  const path = await oldStore(dir);
  deepStrictEqual(columns(path), V1_COLUMNS);
  const bytes = await Deno.readFile(path);
  const card = await runMain(["suite", "scorecard", "--store", path, "--json"]);
  strictEqual(card.code, 0, card.stderr);
  strictEqual(card.stderr, NOTE);
  const old = JSON.parse(card.stdout);
  deepStrictEqual([old.run, old.repeats], [RUN_ID, null]);
  // The run scores as the same suite scores today, run again into a new store.
  const scratch = `${dir}/scratch.db`;
  strictEqual((await runMain(runArgs(scratch, SUITE))).code, 0);
  const fresh = JSON.parse(
    (await runMain(["suite", "scorecard", "--store", scratch, "--json"]))
      .stdout,
  );
  ok(fresh.repeats.arms.length === 2);
  deepStrictEqual(old.scorecard, fresh.scorecard);
  const table = await runMain(["suite", "scorecard", "--store", path]);
  strictEqual(table.code, 0, table.stderr);
  strictEqual(table.stdout.split("\n").filter((l) => l === NOTE).length, 1);
  match(table.stdout, /arm adapter: 24 runs over 8 goldens/);
  ok(!table.stdout.includes("\nrepeats: "));
  const cmp = await runMain(["suite", "compare", "base", "adapter", "--store", path, "--json"]);
  strictEqual(cmp.code, 0, cmp.stderr);
  strictEqual(cmp.stderr, NOTE);
  strictEqual(JSON.parse(cmp.stdout).reduced_comparison, null);
  strictEqual(JSON.parse(cmp.stdout).comparison.n_goldens, 8);
  const cmpTable = await runMain(["suite", "compare", "base", "adapter", "--store", path]);
  strictEqual(cmpTable.stdout.split("\n").at(-1), NOTE);
  // Reading did not migrate the store, nor write to it.
  deepStrictEqual(columns(path), V1_COLUMNS);
  deepStrictEqual(await Deno.readFile(path), bytes);
  // A new run adds the columns and keeps its repeats; the old run still says it has none.
  const next = await runMain([...runArgs(path, SUITE), "--out", `${dir}/run.json`]);
  strictEqual(next.code, 0, next.stderr);
  deepStrictEqual(columns(path), [...V1_COLUMNS, ...ADDED_COLUMNS]);
  const latest = JSON.parse(
    (await runMain(["suite", "scorecard", "--store", path, "--json"])).stdout,
  );
  const live = JSON.parse(await Deno.readTextFile(`${dir}/run.json`));
  strictEqual(JSON.stringify(latest.repeats), JSON.stringify(live.repeats));
  deepStrictEqual(latest.repeats, fresh.repeats);
  const again = await runMain(["suite", "scorecard", "--store", path, "--run", RUN_ID]);
  strictEqual(again.code, 0, again.stderr);
  ok(again.stdout.includes(`\n${NOTE}\n`));
  match(again.stdout, /2 run\(s\) in history/);
});

function writer(store: string): Deno.ChildProcess {
  return new Deno.Command(deno, {
    args: ["run", "-A", `${root}cli/main.ts`, ...runArgs(store, SUITE)],
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
}

Deno.test("6 concurrent suite run writers on a store made before repeats were kept: one migration, every run keeps its repeats (5 trials)", async () => {
  const dir = await Deno.makeTempDir();
  const problems: string[] = [];
  for (let t = 0; t < 5; t++) {
    const path = await oldStore(dir, `old-${t}.db`);
    const children = Array.from({ length: 6 }, () => writer(path));
    for (const [i, c] of children.entries()) {
      const out = await c.output();
      if (out.code !== 0) {
        problems.push(`trial ${t}, writer ${i}: ${new TextDecoder().decode(out.stderr)}`);
      }
    }
    deepStrictEqual(columns(path), [...V1_COLUMNS, ...ADDED_COLUMNS]);
    const s = new DatabaseSync(path);
    const kept = s.prepare("SELECT suite, repeats, clusters IS NULL AS bare FROM runs").all()
      .map((r) => `${r.suite} ${r.repeats} ${r.bare}`).sort();
    s.close();
    deepStrictEqual(kept, [
      "store-repeats null 1",
      ...Array(6).fill('store-repeats {"n":3,"reducer":"mean","cluster":"topic"} 0'),
    ], `trial ${t}`);
  }
  deepStrictEqual(problems, []);
});

Deno.test("a writer killed mid-run on a store made before repeats were kept leaves it unmigrated", async () => {
  const path = await oldStore(await Deno.makeTempDir());
  const repeats = { repeats: { n: 1, reducer: "max" }, clusters: null };
  await killMidRun(path, {
    run_id: "crashed",
    suite: "s",
    suite_sha256: "x",
    metrics: ["m"],
    created_at: "t",
    repeats,
  }, 10);
  deepStrictEqual(columns(path), V1_COLUMNS);
  const card = await runMain(["suite", "scorecard", "--store", path, "--json"]);
  strictEqual(card.code, 0, card.stderr);
  strictEqual(JSON.parse(card.stdout).run, RUN_ID);
});
