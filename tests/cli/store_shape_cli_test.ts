// A metric store that is not what a writer puts there: tables of the wrong shape, tampered rows,
// and a store that cannot be written are each exit 2 naming the store (and the run and row), never
// an internal error, and a store that cannot be written is refused before any scoring.
import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { runMain } from "./_main.ts";
import { demoRunArgs } from "./_suite_demo.ts";

/** A copy of a store of the demo's run, one SQL statement applied to it. */
async function tampered(dir: string, name: string, sql: string): Promise<string> {
  const path = `${dir}/${name}.db`;
  strictEqual((await runMain(demoRunArgs(path))).code, 0);
  const db = new DatabaseSync(path);
  db.exec(sql);
  db.close();
  return path;
}

Deno.test("suite scorecard, compare and calibrate refuse a misshapen or tampered store by name, exit 2", async () => {
  const dir = await Deno.makeTempDir();
  const cases: [string, string, RegExp][] = [
    [
      "no_scores",
      "DROP TABLE scores",
      /no_scores\.db is not a whole metric store: it has no scores table/,
    ],
    [
      "metrics",
      "UPDATE runs SET metrics = 'not json'",
      /metrics\.db: run \S+ has a malformed runs row \(metrics is not JSON\)/,
    ],
    [
      "pass",
      "UPDATE scores SET pass = 7 WHERE rowid = 1",
      /pass\.db: run \S+ has a malformed scores row \(golden "g01", arm "adapter", repeat 0, metric "schema_membership"\): pass is 7, not 0, 1 or NULL/,
    ],
    [
      "flipped",
      "UPDATE scores SET pass = 1 - pass WHERE rowid = 1",
      /flipped\.db: .*: pass is false, but the score 1 meets the threshold 0\.9/,
    ],
    [
      "metric",
      "UPDATE scores SET metric = 'bogus' WHERE rowid = 1",
      /metric\.db: .*metric "bogus"\): metric "bogus" is not one of the run's/,
    ],
    [
      "applicable",
      "UPDATE scores SET applicable = 5 WHERE rowid = 1",
      /applicable is 5, not 0 or 1/,
    ],
    // A text past 40 code units is cut whole: neither an e without its accent (e + U+0301 across
    // the cut) nor half an emoji's surrogate pair (written "\ud83d" in the message).
    [
      "accent",
      `UPDATE scores SET score = '${"a".repeat(39)}e\u0301${"b".repeat(9)}' WHERE rowid = 1`,
      new RegExp(`score is text "${"a".repeat(39)}…", not a number or NULL`),
    ],
    [
      "emoji",
      `UPDATE scores SET score = '${"a".repeat(39)}\u{1F600}${"b".repeat(9)}' WHERE rowid = 1`,
      new RegExp(`score is text "${"a".repeat(39)}…", not a number or NULL`),
    ],
  ];
  for (const [name, sql, message] of cases) {
    const store = await tampered(dir, name, sql);
    for (
      const args of [
        ["suite", "scorecard", "--store", store],
        ["suite", "compare", "base", "adapter", "--store", store],
      ]
    ) {
      const r = await runMain(args);
      strictEqual(r.code, 2, `${name} ${args[1]}: ${r.stderr}`);
      match(r.stderr, message);
    }
  }
  await Deno.writeTextFile(
    `${dir}/labels.jsonl`,
    '{"golden_id":"g01","arm":"adapter","repeat":0,"human":1}\n',
  );
  const cal = await runMain([
    "calibrate",
    "--labels",
    `${dir}/labels.jsonl`,
    "--store",
    `${dir}/pass.db`,
    "--metric",
    "schema_membership",
  ]);
  strictEqual(cal.code, 2, cal.stderr);
  match(cal.stderr, /pass is 7/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a damaged store file (a byte inserted in its pages) is exit 2 naming the store, for every command that reads it", async () => {
  const dir = await Deno.makeTempDir();
  const good = `${dir}/good.db`;
  strictEqual((await runMain(demoRunArgs(good))).code, 0);
  const bytes = await Deno.readFile(good);
  await Deno.writeTextFile(
    `${dir}/labels.jsonl`,
    '{"golden_id":"g01","arm":"adapter","repeat":0,"human":1}\n',
  );
  // A byte inserted shifts every page after it: inside the schema's pages, the store is refused
  // as it opens; past them (the scores' pages), SQLite opens the file and reads its schema, then
  // finds a page malformed only when a statement reaches it.
  for (const at of [5000, 40000, 80000, 120000]) {
    const store = `${dir}/damaged_${at}.db`;
    await Deno.writeFile(
      store,
      new Uint8Array([...bytes.subarray(0, at), 0, ...bytes.subarray(at)]),
    );
    for (
      const args of [
        ["suite", "scorecard", "--store", store],
        ["suite", "compare", "base", "adapter", "--store", store],
        ["calibrate", "--labels", `${dir}/labels.jsonl`, "--store", store, "--metric", "hit_limit"],
        demoRunArgs(store),
      ]
    ) {
      const r = await runMain(args);
      strictEqual(r.code, 2, `${at} ${args[1]}: ${r.stderr}`);
      match(r.stderr, new RegExp(`damaged_${at}\\.db is damaged: SQLite cannot read it`));
    }
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a --store that names no file is named with its flag, a blank path quoted", async () => {
  const dir = await Deno.makeTempDir();
  for (
    const [path, shown] of [[" ", '" "'], ["\t", '"\\t"'], [`${dir}/none.db`, `${dir}/none.db`]]
  ) {
    const r = await runMain(["suite", "scorecard", "--store", path!]);
    strictEqual(r.code, 2, r.stderr);
    strictEqual(r.stderr, `assay suite scorecard: No metric store at ${shown} (--store)`);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("suite compare names the store and run when a tampered store's arms do not compare", async () => {
  const dir = await Deno.makeTempDir();
  const store = await tampered(
    dir,
    "threshold",
    "UPDATE scores SET threshold = 0.5000001 WHERE rowid = (SELECT min(rowid) FROM scores " +
      "WHERE metric = 'expected_view_recall' AND arm = 'base')",
  );
  const r = await runMain(["suite", "compare", "base", "adapter", "--store", store]);
  strictEqual(r.code, 2, r.stderr);
  match(
    r.stderr,
    new RegExp(
      `^assay suite compare: ${store}: run \\S+: Refusing to compare arms: metric ` +
        '"expected_view_recall" has threshold 0\\.5, 0\\.5000001 in "base" and 0\\.5 in "adapter"$',
    ),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a database whose store tables lack their columns is refused unchanged, by scorecard and run alike", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/x.db`;
  const db = new DatabaseSync(path);
  db.exec("CREATE TABLE runs (x)");
  db.close();
  const before = await Deno.readFile(path);
  for (const args of [["suite", "scorecard", "--store", path], demoRunArgs(path)]) {
    const r = await runMain(args);
    strictEqual(r.code, 2, r.stderr);
    match(
      r.stderr,
      /x\.db is not a metric store of the expected shape: its runs table has no columns run_id/,
    );
    strictEqual(r.stdout, "");
  }
  deepStrictEqual(await Deno.readFile(path), before);
  await Deno.remove(dir, { recursive: true });
});

/** Makes a file impossible to write: chmod 444, or, for root, the immutable attribute. */
async function freeze(path: string, on: boolean): Promise<void> {
  if (Deno.uid() !== 0) return await Deno.chmod(path, on ? 0o444 : 0o644);
  const out = await new Deno.Command("chattr", { args: [on ? "+i" : "-i", path] }).output();
  strictEqual(out.code, 0, `chattr: ${new TextDecoder().decode(out.stderr)}`);
}

Deno.test("suite run into a store it cannot write exits 2 before scoring, and names the store", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/m.db`;
  strictEqual((await runMain(demoRunArgs(path))).code, 0);
  // A closed store: checkpointed, no WAL or shared-memory file left to write.
  const db = new DatabaseSync(path);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  await freeze(path, true);
  try {
    const r = await runMain([...demoRunArgs(path), "--out", `${dir}/run.json`]);
    strictEqual(r.code, 2, r.stderr);
    match(
      r.stderr,
      /The metric store \S+m\.db cannot be written \(attempt to write a readonly database\)/,
    );
    strictEqual(r.stdout, ""); // nothing scored or printed
    strictEqual(await Deno.stat(`${dir}/run.json`).then(() => true, () => false), false);
  } finally {
    await freeze(path, false);
  }
  await Deno.remove(dir, { recursive: true });
});
