// The metric store under concurrent `assay suite run` writers (separate processes) and under
// SIGKILL: every run is stored whole or not at all, and every writer that is not killed exits 0.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";

const deno = Deno.execPath();
const root = new URL("../../", import.meta.url).pathname;
const main = `${root}cli/main.ts`;
const demo = `${root}samples/suite_demo`;
const dec = new TextDecoder();

/** mulberry32: the seeded random numbers of the kill test. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A small JSONC suite of cheap deterministic metrics: 48 demo runs × `n` rows per run. */
async function smallSuite(dir: string, n = 2): Promise<string> {
  const path = `${dir}/suite-${n}.json`;
  const metrics = Array.from({ length: n }, (_, i) => ({
    type: i % 2 === 0 ? "hit_limit" : "step_efficiency",
    name: `m${i}`,
  }));
  await Deno.writeTextFile(path, JSON.stringify({ name: `store-test-${n}`, metrics }));
  return path;
}

function writer(suite: string, store: string, traces = `${demo}/traces.jsonl`) {
  return new Deno.Command(deno, {
    args: [
      "run",
      "-A",
      main,
      "suite",
      "run",
      suite,
      "--goldens",
      `${demo}/goldens.jsonl`,
      "--traces",
      traces,
      "--catalog",
      `${demo}/catalog.json`,
      "--store",
      store,
      "--no-judge",
      "--quiet",
    ],
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
}

async function finish(child: Deno.ChildProcess): Promise<{ code: number; stderr: string }> {
  const out = await child.output();
  return { code: out.code, stderr: dec.decode(out.stderr).trim() };
}

/** What a store holds, checked for what must always be true of it. */
function inspect(path: string): { runs: number; scores: number; perRun: number[] } {
  const db = new DatabaseSync(path);
  try {
    db.exec("PRAGMA busy_timeout = 30000");
    deepStrictEqual(
      db.prepare("PRAGMA integrity_check").all().map((r) => r.integrity_check),
      ["ok"],
    );
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()
      .map((r) => r.name);
    if (!tables.includes("runs")) return { runs: 0, scores: 0, perRun: [] };
    // No partial run: every run has exactly its `rows` score rows, and no score lacks its run.
    const partial = db.prepare(
      `SELECT r.run_id, r.rows, COUNT(s.run_id) AS n FROM runs r
       LEFT JOIN scores s ON s.run_id = r.run_id GROUP BY r.run_id HAVING n != r.rows`,
    ).all();
    deepStrictEqual(partial, [], "a run without all of its rows");
    const orphans = db.prepare(
      "SELECT COUNT(*) AS n FROM scores WHERE run_id NOT IN (SELECT run_id FROM runs)",
    ).get()?.n;
    strictEqual(orphans, 0, "score rows without their run");
    const perRun = db.prepare("SELECT rows FROM runs ORDER BY run_id").all().map((r) =>
      Number(r.rows)
    );
    const scores = Number(db.prepare("SELECT COUNT(*) AS n FROM scores").get()?.n);
    return { runs: perRun.length, scores, perRun };
  } finally {
    db.close();
  }
}

/** When an unkilled writer's run becomes visible to a reader, in ms from its start. */
async function timeToCommit(suite: string, store: string, traces: string): Promise<number> {
  const started = performance.now();
  const child = writer(suite, store, traces);
  let exited = false;
  const done = finish(child).finally(() => exited = true);
  let db: DatabaseSync | undefined;
  let at: number | undefined;
  while (at === undefined && !exited) {
    await new Promise((r) => setTimeout(r, 5));
    try {
      if (db === undefined && Deno.statSync(store).size === 0) continue;
      db ??= new DatabaseSync(store);
      if (Number(db.prepare("SELECT COUNT(*) AS n FROM runs").get()?.n) > 0) {
        at = performance.now() - started;
      }
    } catch {
      // Not created yet.
    }
  }
  db?.close();
  const r = await done;
  strictEqual(r.code, 0, r.stderr);
  ok(at !== undefined, "the run was never seen committed");
  return at;
}

/**
 * Resolves once each child has `store` open (Linux: one of its /proc/PID/fd links to it) or has
 * exited; where there is no /proc, after a second.
 */
async function opened(children: Deno.ChildProcess[], store: string): Promise<void> {
  const target = Deno.realPathSync(store);
  const exited = children.map(() => false);
  children.forEach((c, i) => c.status.then(() => exited[i] = true));
  const has = (pid: number): boolean | undefined => {
    let fds: Deno.DirEntry[];
    try {
      fds = [...Deno.readDirSync(`/proc/${pid}/fd`)];
    } catch {
      return Deno.build.os === "linux" ? false : undefined;
    }
    return fds.some((fd) => {
      try {
        return Deno.readLinkSync(`/proc/${pid}/fd/${fd.name}`) === target;
      } catch {
        return false; // closed meanwhile
      }
    });
  };
  for (;;) {
    const state = children.map((c, i) => exited[i] || has(c.pid));
    if (state.some((x) => x === undefined)) {
      await new Promise((r) => setTimeout(r, 1000));
      return;
    }
    if (state.every((x) => x)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

Deno.test("8 concurrent suite run writers on a fresh store: every run stored, every writer exits 0 (20 trials)", async () => {
  const dir = await Deno.makeTempDir();
  const suite = await smallSuite(dir);
  const trials = 20;
  const writers = 8;
  const problems: string[] = [];
  let stored = 0;
  let exits0 = 0;
  for (let t = 0; t < trials; t++) {
    const store = `${dir}/fresh-${t}.db`;
    const children = Array.from({ length: writers }, () => writer(suite, store));
    const results = await Promise.all(children.map(finish));
    results.forEach((r, i) => {
      if (r.code === 0) exits0++;
      else problems.push(`trial ${t}, writer ${i}: exit ${r.code}: ${r.stderr}`);
    });
    const s = inspect(store);
    stored += s.runs;
    if (s.runs !== writers || s.scores !== writers * 96 || s.perRun.some((n) => n !== 96)) {
      problems.push(`trial ${t}: ${s.runs} runs and ${s.scores} score rows stored`);
    }
  }
  console.log(
    `8 writers on a fresh store: ${stored}/${trials * writers} runs stored, ` +
      `${exits0}/${trials * writers} exits 0 over ${trials} trials`,
  );
  deepStrictEqual(problems, []);
});

Deno.test("2 suite run writers while another process holds a long write transaction: both runs stored (20 trials)", async () => {
  const dir = await Deno.makeTempDir();
  const suite = await smallSuite(dir);
  // The holder creates the store, takes the write lock (inserting a whole run of its own) and
  // commits when told to: once both writers have the store open, and then for longer than the
  // store's old lock wait (5 s).
  const holdMs = 6000;
  const holder = `${dir}/holder.ts`;
  await Deno.writeTextFile(
    holder,
    `import { DatabaseSync } from "node:sqlite";
import { MetricStore } from ${JSON.stringify(`${root}cli/_store.ts`)};
const path = Deno.args[0];
MetricStore.open(path).close();
const db = new DatabaseSync(path);
db.exec("PRAGMA busy_timeout = 60000");
db.exec("BEGIN IMMEDIATE");
db.prepare("INSERT INTO runs (run_id, suite, suite_sha256, metrics, created_at, rows) VALUES (?, ?, ?, ?, ?, ?)")
  .run("held", "held", "x", '["m"]', "t", 10);
const insert = db.prepare("INSERT INTO scores (run_id, suite, golden_id, arm, repeat, metric, score, applicable, threshold, created_at) VALUES ('held', 'held', ?, 'a', 0, 'm', 1, 1, 0.5, 't')");
for (let i = 0; i < 10; i++) insert.run("g" + i);
console.log("holding");
Deno.stdin.readSync(new Uint8Array(1));
db.exec("COMMIT");
db.close();
`,
  );
  const trials = 20;
  // Trials run a few at a time: the holds overlap, so the test takes about trials / 5 holds.
  const parallel = 5;
  const problems: string[] = [];
  let stored = 0;
  let exits0 = 0;
  const trial = async (t: number) => {
    const store = `${dir}/busy-${t}.db`;
    const hold = new Deno.Command(deno, {
      args: ["run", "-A", holder, store],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = hold.stdout.getReader();
    const first = await reader.read();
    if (!/holding/.test(dec.decode(first.value))) {
      problems.push(`trial ${t}: the holder did not start: ${dec.decode(first.value)}`);
    }
    const writers = [writer(suite, store), writer(suite, store)];
    const results = Promise.all(writers.map(finish));
    await opened(writers, store);
    await new Promise((r) => setTimeout(r, holdMs));
    const stdin = hold.stdin.getWriter();
    await stdin.write(new Uint8Array([10]));
    await stdin.close();
    await reader.cancel();
    const holderErr = await new Response(hold.stderr).text();
    const hs = await hold.status;
    if (hs.code !== 0) problems.push(`trial ${t}: holder exit ${hs.code}: ${holderErr}`);
    (await results).forEach((r, i) => {
      if (r.code === 0) exits0++;
      else problems.push(`trial ${t}, writer ${i}: exit ${r.code}: ${r.stderr}`);
    });
    const s = inspect(store);
    stored += s.runs - 1;
    if (s.runs !== 3 || s.scores !== 10 + 2 * 96) {
      problems.push(`trial ${t}: ${s.runs} runs and ${s.scores} score rows stored`);
    }
  };
  for (let t = 0; t < trials; t += parallel) {
    await Promise.all(
      Array.from({ length: Math.min(parallel, trials - t) }, (_, i) => trial(t + i)),
    );
  }
  console.log(
    `2 writers kept waiting ${holdMs} ms by a write transaction: ${stored}/${trials * 2} ` +
      "runs stored, " +
      `${exits0}/${trials * 2} exits 0 over ${trials} trials`,
  );
  deepStrictEqual(problems, []);
});

Deno.test("20 seeded SIGKILLs during suite run --store leave an intact store with no partial run, and a later run succeeds", async () => {
  const dir = await Deno.makeTempDir();
  // A long run: the demo traces repeated 6 times (288 runs) under 60 cheap metrics, so that
  // 17,280 rows (a WAL of about 3.5 MB) are written in one transaction.
  const suite = await smallSuite(dir, 60);
  const traces = `${dir}/traces.jsonl`;
  const lines = (await Deno.readTextFile(`${demo}/traces.jsonl`)).trimEnd().split("\n");
  const many: string[] = [];
  for (let k = 0; k < 6; k++) {
    for (const line of lines) {
      const t = JSON.parse(line);
      many.push(JSON.stringify({ ...t, repeat: t.repeat + 3 * k }));
    }
  }
  await Deno.writeTextFile(traces, many.join("\n") + "\n");
  const rowsPerRun = 288 * 60;
  const commitMs = await timeToCommit(suite, `${dir}/scratch.db`, traces);
  const store = `${dir}/killed.db`;
  const next = random(0x5eed);
  let committed = 0;
  let midWrite = 0;
  let before = 0;
  const walSize = () => Deno.stat(`${store}-wal`).then((s) => s.size, () => 0);
  for (let k = 0; k < 20; k++) {
    // Half the kills at a time from past the start-up (which touches no store) to past the
    // commit; the other half once the run's WAL has grown to a random size, which is inside its
    // write transaction (inspect() closed the last connection, so the WAL starts empty).
    const byWal = next() < 0.5;
    const delay = (0.3 + 1.2 * next()) * commitMs;
    const walBytes = 4096 + Math.floor(next() * 2 * 2 ** 20);
    const child = writer(suite, store, traces);
    let exited = false;
    child.status.then(() => exited = true);
    const started = performance.now();
    while (!exited) {
      await new Promise((r) => setTimeout(r, 2));
      if (byWal ? await walSize() >= walBytes : performance.now() - started >= delay) break;
    }
    const walAtKill = await walSize();
    try {
      child.kill("SIGKILL");
    } catch {
      // It had already finished.
    }
    await child.output();
    const s = inspect(store);
    ok(s.perRun.every((n) => n === rowsPerRun), `kill ${k}: ${s.perRun}`);
    if (s.runs > before) committed++;
    else if (walAtKill > 0) midWrite++;
    before = s.runs;
  }
  console.log(
    `20 SIGKILLs (commit at ${commitMs.toFixed(0)} ms): ${committed} after the commit, ` +
      `${midWrite} inside a write transaction, ${20 - committed - midWrite} before any write; ` +
      `${before} runs stored`,
  );
  const later = await finish(writer(suite, store, traces));
  strictEqual(later.code, 0, later.stderr);
  const s = inspect(store);
  strictEqual(s.runs, before + 1);
  strictEqual(s.scores, (before + 1) * rowsPerRun);
});
