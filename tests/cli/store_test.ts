// The metric store's own behaviour under a lock held by another process (the retries beyond
// SQLite's busy timeout, and their limit), and what it reports for a file that is not a store.
import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { MetricStore, StoreBusyError, type StoredScore, storeWaits } from "../../cli/_store.ts";
import { demoRunArgs } from "./_suite_demo.ts";
import { runMain } from "./_main.ts";

const deno = Deno.execPath();
const root = new URL("../../", import.meta.url).pathname;
const demo = `${root}samples/suite_demo`;
const dec = new TextDecoder();

/**
 * Starts a process that takes the write lock of `path` (BEGIN IMMEDIATE, in whatever journal mode
 * the file is in), holds it for `ms` and commits; resolves once it holds the lock.
 */
async function holdLock(path: string, ms: number): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(deno, {
    args: [
      "eval",
      `import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(${JSON.stringify(path)});
db.exec("PRAGMA busy_timeout = 60000");
db.exec("BEGIN IMMEDIATE");
console.log("holding");
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});
db.exec("COMMIT");
db.close();`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const first = await reader.read();
  match(dec.decode(first.value), /holding/);
  reader.releaseLock();
  return child;
}

async function release(child: Deno.ChildProcess): Promise<void> {
  await child.stdout.cancel();
  strictEqual((await child.status).code, 0);
}

const rows: StoredScore[] = Array.from({ length: 10 }, (_, i) => ({
  golden_id: `g${i}`,
  arm: "a",
  repeat: 0,
  metric: "m",
  score: 1,
  applicable: true,
  threshold: 0.5,
  pass: true,
  prompt_sha256: null,
  rubric_sha256: null,
  judge_model: null,
  error: null,
}));
const run = (id: string) => ({
  run_id: id,
  suite: "s",
  suite_sha256: "x",
  metrics: ["m"],
  created_at: "t",
});

function count(path: string, sql: string): number {
  const db = new DatabaseSync(path);
  try {
    return Number(db.prepare(sql).get()?.n);
  } finally {
    db.close();
  }
}

Deno.test("a busy BEGIN IMMEDIATE is retried with backoff past SQLite's own wait, and the run is written", async () => {
  const path = `${await Deno.makeTempDir()}/metrics.db`;
  MetricStore.open(path).close();
  // SQLite waits 20 ms for the lock; the holder keeps it for 1.5 s: only the retries get through.
  const store = MetricStore.open(path, { busyTimeoutMs: 20, totalWaitMs: 60_000, seed: 1 });
  const holder = await holdLock(path, 1500);
  try {
    store.writeRun(run("r1"), rows);
  } finally {
    store.close();
    await release(holder);
  }
  strictEqual(count(path, "SELECT COUNT(*) AS n FROM runs"), 1);
  strictEqual(count(path, "SELECT COUNT(*) AS n FROM scores WHERE run_id = 'r1'"), 10);
});

Deno.test("creating a store while another process holds the file's lock: WAL and schema wait their turn", async () => {
  const path = `${await Deno.makeTempDir()}/metrics.db`;
  // A rollback-journal lock on a new, empty file: switching to WAL needs it too.
  const holder = await holdLock(path, 1500);
  let store: MetricStore;
  try {
    store = MetricStore.open(path, { busyTimeoutMs: 20, totalWaitMs: 60_000, seed: 2 });
  } finally {
    await release(holder);
  }
  store.writeRun(run("r1"), rows);
  store.close();
  const db = new DatabaseSync(path);
  strictEqual(db.prepare("PRAGMA journal_mode").get()?.journal_mode, "wal");
  strictEqual(
    db.prepare("SELECT value FROM meta WHERE key = 'schema'").get()?.value,
    "assay.store.v1",
  );
  db.close();
});

Deno.test("a store locked for longer than the total wait fails with StoreBusyError and writes nothing", async () => {
  const path = `${await Deno.makeTempDir()}/metrics.db`;
  const store = MetricStore.open(path, { busyTimeoutMs: 20, totalWaitMs: 200, seed: 3 });
  const holder = await holdLock(path, 4000);
  try {
    throws(() => store.writeRun(run("r1"), rows), (e: unknown) => {
      ok(e instanceof StoreBusyError);
      match(e.message, new RegExp(`${path} stayed locked .* while writing run r1`));
      return true;
    });
  } finally {
    await release(holder);
  }
  strictEqual(count(path, "SELECT COUNT(*) AS n FROM scores"), 0);
  // The connection is usable again once the lock is free.
  store.writeRun(run("r2"), rows);
  store.close();
  strictEqual(count(path, "SELECT COUNT(*) AS n FROM scores"), 10);
});

Deno.test("a file that is not a metric store is refused by name and left unchanged", async () => {
  const dir = await Deno.makeTempDir();
  const text = `${dir}/notes.txt`;
  await Deno.writeTextFile(text, "not a database, just a line of text long enough for a header\n");
  const foreign = `${dir}/other.db`;
  const db = new DatabaseSync(foreign);
  db.exec("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('ada')");
  db.close();
  const before = new Map<string, Uint8Array>();
  for (const f of [text, foreign]) before.set(f, await Deno.readFile(f));
  const cases: [string, RegExp][] = [
    [
      text,
      /notes\.txt is not an SQLite database, so not a metric store \(file is not a database\)/,
    ],
    [foreign, /other\.db is an SQLite database but not a metric store \(it has tables people\)/],
  ];
  for (const [path, message] of cases) {
    throws(() => MetricStore.open(path), (e: unknown) => {
      strictEqual((e as Error).name, "InputError");
      match((e as Error).message, message);
      return true;
    });
  }
  for (const [f, bytes] of before) deepStrictEqual(await Deno.readFile(f), bytes, f);
  deepStrictEqual(
    [...Deno.readDirSync(dir)].map((e) => e.name).sort(),
    ["notes.txt", "other.db"],
  );
});

Deno.test("suite run --store on a file that is not a database exits 2 naming it before reading any input", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/report.json`;
  await Deno.writeTextFile(store, '{"schema": "assay.suite_run.v1"}\n');
  // The goldens are broken too: the store is named first, so nothing was read or scored.
  await Deno.writeTextFile(`${dir}/goldens.jsonl`, "{not json\n");
  const out = await new Deno.Command(deno, {
    args: [
      "run",
      "-A",
      `${root}cli/main.ts`,
      "suite",
      "run",
      `${demo}/suite.yaml`,
      "--goldens",
      `${dir}/goldens.jsonl`,
      "--traces",
      `${demo}/traces.jsonl`,
      "--catalog",
      `${demo}/catalog.json`,
      "--store",
      store,
      "--no-judge",
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  strictEqual(out.code, 2);
  strictEqual(
    dec.decode(out.stderr).trim(),
    `assay suite run: --store ${store} is not a metric store (not an SQLite database)`,
  );
  strictEqual(await Deno.readTextFile(store), '{"schema": "assay.suite_run.v1"}\n');
});

Deno.test("the store reads back every text whole: a NUL, a leading BOM and non-ASCII included", async () => {
  const path = `${await Deno.makeTempDir()}/metrics.db`;
  // node:sqlite reads a text only up to its first NUL: these came back as "g01", "base" and "".
  const odd = (s: string) => `${s}\u0000x\ufeffé\u{1f600}`;
  const stored: StoredScore[] = [{
    ...rows[0]!,
    golden_id: odd("g01"),
    arm: odd("base"),
    metric: odd("m"),
    judge_model: odd("judge"),
    error: odd(""),
    prompt_sha256: "\ufeffp",
  }, { ...rows[1]!, golden_id: "g01", arm: odd("base"), metric: odd("m") }];
  const written = { ...run(odd("r1")), suite: odd("s"), created_at: odd("t"), metrics: [odd("m")] };
  const store = MetricStore.open(path, { write: true });
  try {
    store.writeRun(written, stored);
    store.cacheSet("k", { score: 0.5, reason: odd("\ufeffreason") }, "now");
    deepStrictEqual(store.runs(), [{ ...written, rows: 2 }]);
    deepStrictEqual(store.runs(odd("s")).length, 1);
    deepStrictEqual(store.scores(odd("r1")), [stored[1], stored[0]]);
    deepStrictEqual(store.cacheGet("k"), { score: 0.5, reason: odd("\ufeffreason") });
  } finally {
    store.close();
  }
  // A value of another type in a text column is still refused as one.
  const db = new DatabaseSync(path);
  db.prepare("UPDATE scores SET arm = x'6100' WHERE golden_id = 'g01'").run();
  db.close();
  const again = MetricStore.open(path);
  try {
    throws(() => again.scores(odd("r1")), /arm is a blob, not text/);
  } finally {
    again.close();
  }
});

Deno.test("suite scorecard and compare read back a golden id, an arm and a topic holding a NUL", async () => {
  const dir = await Deno.makeTempDir();
  const nul = (s: string) => `${s}\u0000x`;
  const rename = (file: string, edit: (row: Record<string, unknown>) => void) =>
    Deno.readTextFile(`${demo}/${file}`).then((text) =>
      Deno.writeTextFile(
        `${dir}/${file}`,
        text.trim().split("\n").map((line) => {
          const row = JSON.parse(line);
          edit(row);
          return JSON.stringify(row) + "\n";
        }).join(""),
      )
    );
  await rename("goldens.jsonl", (g) => {
    if (g.id === "g01") g.id = nul("g01");
    if (g.topic === "revenue") g.topic = nul("revenue");
  });
  await rename("traces.jsonl", (t) => {
    if (t.golden_id === "g01") t.golden_id = nul("g01");
    if (t.arm === "base") t.arm = nul("base");
  });
  // The suite names its baseline arm, base, which the traces now call "base\0x" (YAML's "\0").
  const suite = (await Deno.readTextFile(`${demo}/suite.yaml`))
    .replace("\n  baseline: base\n", '\n  baseline: "base\\0x"\n');
  await Deno.writeTextFile(`${dir}/suite.yaml`, suite);
  const store = `${dir}/metrics.db`;
  const inputs = ["--goldens", `${dir}/goldens.jsonl`, "--traces", `${dir}/traces.jsonl`];
  const live = await runMain([
    ...["suite", "run", `${dir}/suite.yaml`, ...inputs, "--catalog", `${demo}/catalog.json`],
    ...["--store", store, "--no-judge", "--quiet", "--out", `${dir}/run.json`],
  ]);
  strictEqual(live.code, 0, live.stderr);
  const report = JSON.parse(await Deno.readTextFile(`${dir}/run.json`));
  const card = await runMain(["suite", "scorecard", "--store", store, "--json"]);
  strictEqual(card.code, 0, card.stderr);
  const stored = JSON.parse(card.stdout);
  strictEqual(JSON.stringify(stored.scorecard), JSON.stringify(report.scorecard));
  strictEqual(JSON.stringify(stored.repeats), JSON.stringify(report.repeats));
  ok(JSON.stringify(stored.scorecard).includes(JSON.stringify(nul("base"))));
  const compare = await runMain(["suite", "compare", nul("base"), "adapter", "--store", store]);
  strictEqual(compare.code, 0, compare.stderr);
  ok(compare.stdout.includes('"base\\u0000x"'), compare.stdout);
});

Deno.test("a store another process keeps locked is one line naming it, exit 1, for run, scorecard and compare", async () => {
  const store = `${await Deno.makeTempDir()}/locked.db`;
  const stored = await runMain(demoRunArgs(store));
  strictEqual(stored.code, 0, stored.stderr);
  // SQLite's exclusive lock: readers are locked out too, not only writers.
  const holder = new DatabaseSync(store);
  holder.exec("PRAGMA locking_mode = EXCLUSIVE");
  holder.exec("BEGIN EXCLUSIVE");
  holder.exec("UPDATE meta SET value = value");
  // The commands' waits, shortened for this process: 0.2 s, not 60.
  const waits = { ...storeWaits };
  Object.assign(storeWaits, { busyTimeoutMs: 20, totalWaitMs: 200 });
  try {
    const commands: [string, string[]][] = [
      ["suite run", demoRunArgs(store)],
      ["suite scorecard", ["suite", "scorecard", "--store", store]],
      ["suite compare", ["suite", "compare", "base", "adapter", "--store", store]],
    ];
    for (const [name, args] of commands) {
      const r = await runMain(args);
      strictEqual(r.code, 1, name);
      strictEqual(r.stdout, "", name);
      strictEqual(
        r.stderr,
        `assay ${name}: The metric store ${store} stayed locked by another process for 0.2 s ` +
          "while reading the schema: run the command again once that process has released it",
      );
    }
  } finally {
    Object.assign(storeWaits, waits);
    holder.exec("ROLLBACK");
    holder.close();
  }
  // Released, the store reads again.
  strictEqual((await runMain(["suite", "scorecard", "--store", store])).code, 0);
});
