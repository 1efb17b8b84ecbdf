// The SQLite metric store: flat score rows of every suite run, kept across runs, and the judge
// cache. Runtime-specific (node:sqlite), so it lives in the CLI layer.
//
// A run's rows are written in one transaction together with its `runs` row, so a crash mid-run
// leaves nothing of that run behind; the next run opens the store and proceeds. Judge cache
// entries commit one by one, so the calls a crashed run paid for are still free next time.
//
// Several processes may write one store at once. Each connection sets its busy timeout before it
// touches the file; switching to WAL and creating the schema (one BEGIN IMMEDIATE transaction)
// are retried while another writer holds the lock; and every statement that still finds the
// store busy is retried with jittered exponential backoff, up to a total wait (docs/suite.md).
// A run's repeats (and its baseline arm) and its pass counts (for the history) are kept in columns
// that older stores get from their first new run (_store_repeats.ts, _store_history.ts).
import { DatabaseSync } from "node:sqlite";
import { textHead } from "../src/explain/text/mod.ts";
import type { KeptRepeats, PassCounts, ScoreRow } from "../src/suite/mod.ts";
import { InputError } from "./_errors.ts";
import {
  addColumns,
  ADDED_COLUMNS,
  hasRunsColumn,
  readRepeats,
  repeatsValues,
} from "./_store_repeats.ts";

/** How long SQLite itself waits for a lock before a statement reports the store busy. */
export const BUSY_TIMEOUT_MS = 30_000;
/** The longest one statement waits for the store, retries included; then it fails. */
export const BUSY_TOTAL_WAIT_MS = 60_000;
/** The first backoff between retries of a busy statement, doubled each time up to the cap. */
const BACKOFF_FIRST_MS = 25;
const BACKOFF_CAP_MS = 1_000;

/**
 * The waits of the stores the commands open (`MetricStore.open` without them in its options): the
 * defaults above. The commands never change them; a test that runs the CLI in its own process
 * shortens them, so that a locked store fails in milliseconds and not in a minute.
 */
export const storeWaits: { busyTimeoutMs: number; totalWaitMs: number } = {
  busyTimeoutMs: BUSY_TIMEOUT_MS,
  totalWaitMs: BUSY_TOTAL_WAIT_MS,
};

/**
 * The store stayed locked by another connection (a writer's transaction, or a reader or writer
 * holding SQLite's exclusive lock) for longer than the total wait ({@link BUSY_TOTAL_WAIT_MS}).
 */
export class StoreBusyError extends Error {
  /** @param message Which store, and how long it was tried. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StoreBusyError";
  }
}

/** Options of {@link MetricStore.open}. */
export interface StoreOptions {
  /** Seeds the jitter of the retry backoff (default: the process id, so writers differ). */
  seed?: number;
  /** SQLite's own wait for a lock (default {@link storeWaits}, {@link BUSY_TIMEOUT_MS}). */
  busyTimeoutMs?: number;
  /**
   * The longest wait of one statement, retries included (default {@link storeWaits},
   * {@link BUSY_TOTAL_WAIT_MS}).
   */
  totalWaitMs?: number;
  /** Check, as it opens, that the store can be written (a writer's open). */
  write?: boolean;
}

/** One flat row: a scorecard row plus what the store keeps beside it (nulls where absent). */
export interface StoredScore extends Omit<ScoreRow, "rubric_sha256"> {
  pass: boolean | null;
  prompt_sha256: string | null;
  rubric_sha256: string | null;
  judge_model: string | null;
  error: string | null;
}

/** A run as stored. */
export interface StoredRun {
  run_id: string;
  suite: string;
  suite_sha256: string;
  /** The suite's metric names, in suite order (the first one's threshold decides a pass). */
  metrics: string[];
  created_at: string;
  rows: number;
  /**
   * Each arm's pass counts as the writer stored them, to be read by `readPassCounts`; absent when
   * none were (SQL NULL: a run written before the column, whose history rescores its rows).
   */
  pass_counts?: unknown;
}

/** A cached judge reply. */
export interface CachedJudgement {
  score: number;
  reason: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY,
  suite TEXT NOT NULL,
  suite_sha256 TEXT NOT NULL,
  metrics TEXT NOT NULL,
  created_at TEXT NOT NULL,
  rows INTEGER NOT NULL,
  ${ADDED_COLUMNS}
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

const SCHEMA_VERSION = "assay.store.v1";
const TABLES = new Set(["runs", "scores", "judge_cache", "meta"]);

/** SQLite's SQLITE_BUSY (5), with its extended codes; `exec` errors carry only the message. */
function isBusy(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { errcode?: unknown }).errcode;
  return (typeof code === "number" && (code & 0xff) === 5) ||
    /database is locked|SQLITE_BUSY/.test(e.message);
}

/** SQLITE_NOTADB (26): the file is not an SQLite database. */
function isNotADatabase(e: unknown): boolean {
  return e instanceof Error &&
    ((e as { errcode?: unknown }).errcode === 26 || /file is not a database/.test(e.message));
}

/**
 * SQLITE_CORRUPT (11): a page of the file is not one SQLite wrote (a file cut short, or bytes
 * changed or inserted), found only when a statement reaches that page.
 */
function isCorrupt(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { errcode?: unknown }).errcode;
  return (typeof code === "number" && (code & 0xff) === 11) ||
    /database disk image is malformed/.test(e.message);
}

/** The input error for a store whose file is damaged, naming it. */
function damaged(path: string, e: Error): InputError {
  return new InputError(
    `${path} is damaged: SQLite cannot read it (${e.message}); ` +
      "restore it from a copy, or use another store",
    { cause: e },
  );
}

/**
 * A value's SQLite type in messages: `NULL`, `text "x"`, `7`; a text past 40 code units cut by
 * `textHead` (no character split) with an ellipsis.
 */
function typeName(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "string") {
    return `text ${JSON.stringify(v.length > 40 ? textHead(v, 40) + "…" : v)}`;
  }
  if (v instanceof Uint8Array) return "a blob";
  return String(v);
}

// node:sqlite binds and stores a text whole but reads one back only up to its first NUL (a golden
// "g01\0x" read as "g01", so a run's rows no longer matched its goldens). Text columns are
// therefore read a second time as their bytes, for text values only (a value of another type is
// still refused as one), and decoded: the store's bytes are unchanged, so every store reads alike.
const BYTES = ":bytes";
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** The select list of `columns`, each text column followed by its bytes (`wholeTexts`). */
function withBytes(columns: readonly string[]): string {
  return columns.map((c) =>
    `${c}, CASE typeof(${c}) WHEN 'text' THEN CAST(${c} AS BLOB) END AS "${c}${BYTES}"`
  ).join(", ");
}

/** A row read with `withBytes`: each text whole, decoded from its bytes. */
function wholeTexts(row: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(row)) {
    if (!key.endsWith(BYTES)) continue;
    const bytes = row[key];
    delete row[key];
    if (bytes instanceof Uint8Array) row[key.slice(0, -BYTES.length)] = utf8.decode(bytes);
  }
  return row;
}

/** mulberry32: the seeded jitter of the backoff. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Blocks the thread for `ms` (the store's API is synchronous, like node:sqlite's). */
function sleep(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

/** Runs statements on one connection, retrying those that find the store busy. */
class Retrier {
  constructor(
    readonly db: DatabaseSync,
    readonly path: string,
    readonly random: () => number,
    readonly busyTimeoutMs: number,
    readonly totalWaitMs: number,
  ) {}

  /**
   * Runs `fn`; while it fails with SQLITE_BUSY, sleeps min(1 s, 25 ms × 2^attempt) × a seeded
   * factor in [0.5, 1) and runs it again, with SQLite's own wait cut to what is left of the
   * total wait ({@link BUSY_TOTAL_WAIT_MS}), so one statement never waits longer than that.
   */
  retry<T>(what: string, fn: () => T): T {
    const start = performance.now();
    let shortened = false;
    try {
      for (let attempt = 0;; attempt++) {
        try {
          return fn();
        } catch (e) {
          if (isCorrupt(e)) throw damaged(this.path, e as Error);
          if (!isBusy(e)) throw e;
          const left = this.totalWaitMs - (performance.now() - start);
          if (left <= 0) {
            // Readers are locked out too (by a connection holding SQLite's exclusive lock), so
            // the message names no writer: only that another process holds the store.
            throw new StoreBusyError(
              `The metric store ${this.path} stayed locked by another process for ` +
                `${this.totalWaitMs / 1000} s while ${what}: run the command again once that ` +
                `process has released it`,
              { cause: e },
            );
          }
          const backoff = Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * 2 ** attempt) *
            (0.5 + 0.5 * this.random());
          sleep(Math.min(backoff, left));
          const rest = Math.max(1, Math.floor(Math.min(this.busyTimeoutMs, left - backoff)));
          this.db.exec(`PRAGMA busy_timeout = ${rest}`);
          shortened = true;
        }
      }
    } finally {
      if (shortened) this.db.exec(`PRAGMA busy_timeout = ${this.busyTimeoutMs}`);
    }
  }

  /**
   * Runs `fn` in one BEGIN IMMEDIATE transaction (the write lock from the start, so it never has
   * to upgrade a read lock): a busy BEGIN or COMMIT is retried (a busy COMMIT keeps the
   * transaction open, so retrying it is safe); any other failure rolls back.
   */
  transaction(what: string, fn: () => void, beforeCommit?: () => void): void {
    this.retry(what, () => this.db.exec("BEGIN IMMEDIATE"));
    try {
      fn();
      beforeCommit?.();
      this.retry(what, () => this.db.exec("COMMIT"));
    } catch (e) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw isCorrupt(e) ? damaged(this.path, e as Error) : e;
    }
  }
}

/**
 * What the file holds: the schema's version in `meta` (undefined while there is none, as in a new
 * file or one whose schema an older writer was killed creating) and the tables that are not the
 * store's.
 */
function contents(db: DatabaseSync): { version: string | undefined; foreign: string[] } {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()
    .map((r) => String(r.name));
  const foreign = tables.filter((t) => !TABLES.has(t) && !t.startsWith("sqlite_"));
  if (!tables.includes("meta")) return { version: undefined, foreign };
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as
    | { value: string }
    | undefined;
  return { version: row?.value, foreign };
}

/** The columns each table of the store must have (a new store's, without the later additions). */
const COLUMNS: Record<string, string[]> = {
  runs: ["run_id", "suite", "suite_sha256", "metrics", "created_at", "rows"],
  scores: [
    "run_id",
    "suite",
    "golden_id",
    "arm",
    "repeat",
    "metric",
    "score",
    "applicable",
    "threshold",
    "pass",
    "prompt_sha256",
    "rubric_sha256",
    "judge_model",
    "error",
    "created_at",
  ],
  judge_cache: ["key", "score", "reason", "created_at"],
  meta: ["key", "value"],
};

/**
 * Refuses, unchanged, a file whose store tables are not the store's: a table without one of its
 * columns, or a `runs` whose `run_id` is not its key (the scores refer to it). With `complete`,
 * every table must be there too (a store whose schema was written).
 */
function refuseMisshapen(db: DatabaseSync, path: string, complete: boolean): void {
  for (const [table, columns] of Object.entries(COLUMNS)) {
    const info = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; pk: number }[];
    if (info.length === 0) {
      if (!complete) continue;
      throw new InputError(`${path} is not a whole metric store: it has no ${table} table`);
    }
    const missing = columns.filter((c) => !info.some((i) => i.name === c));
    if (missing.length > 0) {
      throw new InputError(
        `${path} is not a metric store of the expected shape: its ${table} table has no ` +
          `column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`,
      );
    }
    if (table === "runs" && !info.some((i) => i.name === "run_id" && i.pk === 1)) {
      throw new InputError(
        `${path} is not a metric store of the expected shape: runs.run_id is not its key`,
      );
    }
  }
}

/** SQLITE_READONLY (8), with its extended codes. */
function isReadOnly(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { errcode?: unknown }).errcode;
  return (typeof code === "number" && (code & 0xff) === 8) || /readonly database/.test(e.message);
}

/** Refuses a database with tables of its own, or a store of another version, unchanged. */
function refuseForeign(path: string, found: ReturnType<typeof contents>): void {
  const { version, foreign } = found;
  if (foreign.length > 0) {
    throw new InputError(
      `${path} is an SQLite database but not a metric store (it has tables ` +
        `${foreign.slice(0, 5).join(", ")}${foreign.length > 5 ? ", ..." : ""})`,
    );
  }
  if (version !== undefined && version !== SCHEMA_VERSION) {
    throw new InputError(`${path} is not an ${SCHEMA_VERSION} metric store (found ${version})`);
  }
}

/** The metric store in one SQLite file. */
export class MetricStore {
  #db: DatabaseSync;
  #retrier: Retrier;

  private constructor(retrier: Retrier) {
    this.#db = retrier.db;
    this.#retrier = retrier;
  }

  /**
   * Opens (or creates) the store at `path`. In order: the busy timeout (set as the connection
   * opens, before any statement); a read of what the file holds, so that a file that is not a
   * store is refused unchanged; WAL mode (retried while another writer holds the lock it needs,
   * and accepted when that writer set it); then, for a file without the schema, the whole schema
   * in one BEGIN IMMEDIATE transaction. Opening an existing store takes no write lock.
   *
   * @throws {InputError} Naming the path, for a file that is not an SQLite database or holds
   * something else than a metric store.
   * @throws {StoreBusyError} When other writers kept it locked for the total wait.
   */
  static open(path: string, options: StoreOptions = {}): MetricStore {
    let db: DatabaseSync | undefined;
    try {
      const busyTimeoutMs = options.busyTimeoutMs ?? storeWaits.busyTimeoutMs;
      db = new DatabaseSync(path, { timeout: busyTimeoutMs });
      const conn = db;
      const retrier = new Retrier(
        conn,
        path,
        seeded(options.seed ?? Deno.pid),
        busyTimeoutMs,
        options.totalWaitMs ?? storeWaits.totalWaitMs,
      );
      // Read first, so that a file that is not a store is refused unchanged.
      const found = retrier.retry("reading the schema", () => contents(conn));
      refuseForeign(path, found);
      retrier.retry("reading the schema", () => refuseMisshapen(conn, path, false));
      retrier.retry("switching to WAL mode", () => {
        try {
          conn.exec("PRAGMA journal_mode = WAL");
        } catch (e) {
          // The switch needs the write lock; a writer that holds it may have switched already.
          const mode = conn.prepare("PRAGMA journal_mode").get()?.journal_mode;
          if (!isBusy(e) || mode !== "wal") throw e;
        }
      });
      conn.exec("PRAGMA synchronous = NORMAL");
      if (found.version === undefined) {
        retrier.transaction("creating the schema", () => {
          // Another writer may have created it meanwhile: IF NOT EXISTS, INSERT OR IGNORE.
          refuseForeign(path, contents(conn));
          conn.exec(SCHEMA);
        });
        found.version = retrier.retry("reading the schema", () => contents(conn)).version;
      }
      if (found.version !== SCHEMA_VERSION) {
        throw new InputError(
          `${path} is not an ${SCHEMA_VERSION} metric store (found ${found.version})`,
        );
      }
      retrier.retry("reading the schema", () => refuseMisshapen(conn, path, true));
      if (options.write) {
        // A store that cannot be written fails now, not after the run's work: a write that is
        // rolled back, under the write lock for that moment only.
        retrier.retry("checking it can be written", () => conn.exec("BEGIN IMMEDIATE"));
        try {
          conn.exec("UPDATE meta SET value = value WHERE key = 'schema'");
        } finally {
          if (conn.isTransaction) conn.exec("ROLLBACK");
        }
      }
      return new MetricStore(retrier);
    } catch (e) {
      db?.close();
      if (e instanceof InputError || e instanceof StoreBusyError) throw e;
      if (isReadOnly(e)) {
        throw new InputError(
          `The metric store ${path} cannot be written (${e instanceof Error ? e.message : e})`,
          { cause: e },
        );
      }
      if (isCorrupt(e)) throw damaged(path, e as Error);
      if (isNotADatabase(e)) {
        throw new InputError(
          `${path} is not an SQLite database, so not a metric store (file is not a database)`,
          { cause: e },
        );
      }
      throw new InputError(
        `${path} is not an ${SCHEMA_VERSION} metric store (${e instanceof Error ? e.message : e})`,
        { cause: e },
      );
    }
  }

  /**
   * Writes a whole run atomically, in one transaction with its `runs` row: every row, or none.
   * `run.repeats` is kept (left out, the run reads back as stored before repeats were kept), and
   * so are `run.passCounts` (left out, the history rescores the run's rows).
   */
  writeRun(
    run: Omit<StoredRun, "rows" | "pass_counts"> & {
      repeats?: KeptRepeats;
      passCounts?: PassCounts;
    },
    rows: readonly StoredScore[],
    beforeCommit?: () => void,
  ) {
    this.#retrier.transaction(`writing run ${run.run_id}`, () => {
      const insert = this.#db.prepare(
        `INSERT INTO scores (run_id, suite, golden_id, arm, repeat, metric, score, applicable,
           threshold, pass, prompt_sha256, rubric_sha256, judge_model, error, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      // The write lock is held: a store made before the added columns gets them here.
      addColumns(this.#db);
      this.#db.prepare(
        "INSERT INTO runs (run_id, suite, suite_sha256, metrics, created_at, rows, repeats, " +
          "clusters, golden_ids, baseline, pass_counts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ).run(
        run.run_id,
        run.suite,
        run.suite_sha256,
        JSON.stringify(run.metrics),
        run.created_at,
        rows.length,
        ...repeatsValues(run.repeats),
        run.passCounts ? JSON.stringify(run.passCounts) : null,
      );
      for (const r of rows) {
        insert.run(
          run.run_id,
          run.suite,
          r.golden_id,
          r.arm,
          r.repeat,
          r.metric,
          r.score,
          r.applicable ? 1 : 0,
          r.threshold,
          r.pass === null ? null : r.pass ? 1 : 0,
          r.prompt_sha256,
          r.rubric_sha256,
          r.judge_model,
          r.error,
          run.created_at,
        );
      }
    }, beforeCommit);
  }

  /** Every stored run of a suite (or of all suites), oldest first. */
  runs(suite?: string): StoredRun[] {
    const rows = this.#retrier.retry("reading runs", () => {
      const counts = hasRunsColumn(this.#db, "pass_counts")
        ? withBytes(["pass_counts"])
        : "NULL AS pass_counts";
      const stmt = this.#db.prepare(
        `SELECT ${
          withBytes(["run_id", "suite", "suite_sha256", "metrics", "created_at"])
        }, rows, ${counts} FROM runs` +
          (suite === undefined ? "" : " WHERE suite = ?") + " ORDER BY created_at, run_id",
      );
      return suite === undefined ? stmt.all() : stmt.all(suite);
    }) as Record<string, unknown>[];
    return rows.map((r) => this.#readRun(wholeTexts(r)));
  }

  /** A `runs` row as a writer puts it there, or an input error naming the store and the run. */
  #readRun(r: Record<string, unknown>): StoredRun {
    const path = this.#retrier.path;
    const id = typeof r.run_id === "string" ? r.run_id : undefined;
    const bad = (what: string) =>
      new InputError(
        `${path}: ${id === undefined ? "a run" : `run ${id}`} has a malformed runs row (${what})`,
      );
    if (id === undefined) throw bad(`run_id is ${typeName(r.run_id)}, not text`);
    for (const k of ["suite", "suite_sha256", "created_at", "metrics"]) {
      if (typeof r[k] !== "string") throw bad(`${k} is ${typeName(r[k])}, not text`);
    }
    let metrics: unknown;
    try {
      metrics = JSON.parse(r.metrics as string);
    } catch {
      throw bad("metrics is not JSON");
    }
    if (
      !Array.isArray(metrics) || metrics.length === 0 ||
      !metrics.every((m) => typeof m === "string") || new Set(metrics).size !== metrics.length
    ) {
      throw bad("metrics is not a list of distinct metric names");
    }
    const count = typeof r.rows === "bigint" ? Number(r.rows) : r.rows;
    if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) {
      throw bad(`rows is ${typeName(r.rows)}, not a count`);
    }
    return {
      run_id: id,
      suite: r.suite as string,
      suite_sha256: r.suite_sha256 as string,
      metrics: metrics as string[],
      created_at: r.created_at as string,
      rows: count,
      ...(r.pass_counts !== null && { pass_counts: r.pass_counts }),
    };
  }

  /** The rows of one run. */
  scores(runId: string): StoredScore[] {
    const stmt = this.#db.prepare(
      `SELECT ${
        withBytes([
          "golden_id",
          "arm",
          "metric",
          "prompt_sha256",
          "rubric_sha256",
          "judge_model",
          "error",
        ])
      }, repeat, score, applicable, threshold, pass
       FROM scores WHERE run_id = ? ORDER BY golden_id, arm, repeat, metric`,
    );
    const rows = this.#retrier.retry(`reading run ${runId}`, () => stmt.all(runId)) as Record<
      string,
      unknown
    >[];
    return rows.map((r) => this.#readScore(runId, wholeTexts(r)));
  }

  /**
   * The distinct arms of one run's rows, sorted by their bytes (code-point order), each read whole
   * (a NUL included); a value that is not text is given as read, for its reader to refuse.
   */
  armsOf(runId: string): unknown[] {
    const stmt = this.#db.prepare(
      `SELECT DISTINCT ${withBytes(["arm"])} FROM scores WHERE run_id = ? ORDER BY arm`,
    );
    const rows = this.#retrier.retry(`reading run ${runId}`, () => stmt.all(runId));
    return rows.map((r) => wholeTexts(r as Record<string, unknown>).arm);
  }

  /**
   * A `scores` row as a writer puts it there (text, integers, a flag of 0 or 1, NULL where the
   * writer may leave one), or an input error naming the store, the run and the row. What the
   * values mean together is checked by their reader (`storedRowProblem`).
   */
  #readScore(runId: string, r: Record<string, unknown>): StoredScore {
    // The row's name is made only for a message: every row of a run is read here.
    const bad = (what: string) => {
      const name = [
        ["golden", r.golden_id],
        ["arm", r.arm],
        ["repeat", r.repeat],
        ["metric", r.metric],
      ].map(([k, v]) => `${k} ${typeof v === "string" ? JSON.stringify(v) : String(v)}`)
        .join(", ");
      return new InputError(
        `${this.#retrier.path}: run ${runId} has a malformed scores row (${name}): ${what}`,
      );
    };
    const text = (k: string, nullable: boolean): string | null => {
      const v = r[k];
      if (typeof v === "string" || (nullable && v === null)) return v as string | null;
      throw bad(`${k} is ${typeName(v)}, not text${nullable ? " or NULL" : ""}`);
    };
    const number = (k: string, nullable: boolean): number | null => {
      const v = typeof r[k] === "bigint" ? Number(r[k]) : r[k];
      if ((typeof v === "number" && Number.isFinite(v)) || (nullable && v === null)) {
        return v as number | null;
      }
      throw bad(`${k} is ${typeName(r[k])}, not a number${nullable ? " or NULL" : ""}`);
    };
    const flag = (k: string, nullable: boolean): boolean | null => {
      const v = number(k, nullable);
      if (v === null || v === 0 || v === 1) return v === null ? null : v === 1;
      throw bad(`${k} is ${v}, not 0${nullable ? ", 1 or NULL" : " or 1"}`);
    };
    const repeat = number("repeat", false)!;
    if (!Number.isSafeInteger(repeat) || repeat < 0) throw bad(`repeat is ${repeat}, not a count`);
    return {
      golden_id: text("golden_id", false)!,
      arm: text("arm", false)!,
      repeat,
      metric: text("metric", false)!,
      score: number("score", true),
      applicable: flag("applicable", false)!,
      threshold: number("threshold", false)!,
      pass: flag("pass", true),
      prompt_sha256: text("prompt_sha256", true),
      rubric_sha256: text("rubric_sha256", true),
      judge_model: text("judge_model", true),
      error: text("error", true),
    };
  }

  /** A run's repeats, or undefined when they were not kept (a run stored before they were). */
  repeatsOf(runId: string): KeptRepeats<unknown> | undefined {
    const row = this.#retrier.retry(`reading run ${runId}`, () => {
      if (!hasRunsColumn(this.#db, "repeats")) return undefined;
      const ids = hasRunsColumn(this.#db, "golden_ids") ? "golden_ids" : "NULL AS golden_ids";
      // The baseline is an arm's own text, a NUL included: read whole (withBytes).
      const baseline = hasRunsColumn(this.#db, "baseline")
        ? withBytes(["baseline"])
        : "NULL AS baseline";
      const got = this.#db.prepare(
        `SELECT repeats, clusters, ${ids}, ${baseline} FROM runs WHERE run_id = ?`,
      ).get(runId);
      return got && wholeTexts(got);
    });
    return row &&
      readRepeats(
        this.#retrier.path,
        runId,
        row.repeats,
        row.clusters,
        row.golden_ids,
        row.baseline,
      );
  }

  /** A cached judgement, if any. */
  cacheGet(key: string): CachedJudgement | undefined {
    const stmt = this.#db.prepare(
      `SELECT score, ${withBytes(["reason"])} FROM judge_cache WHERE key = ?`,
    );
    const got = this.#retrier.retry("reading the judge cache", () => stmt.get(key));
    const r = (got && wholeTexts(got)) as
      | { score: number; reason: string }
      | undefined;
    if (r === undefined) return undefined;
    if (typeof r.score !== "number" || !(r.score >= 0 && r.score <= 1)) {
      throw new InputError(
        `${this.#retrier.path}: a judge_cache row has a score of ${typeName(r.score)}, ` +
          "not a number in [0, 1]",
      );
    }
    if (typeof r.reason !== "string") {
      throw new InputError(`${this.#retrier.path}: a judge_cache row's reason is not text`);
    }
    return { score: r.score, reason: r.reason };
  }

  /** Caches a judgement (committed at once). */
  cacheSet(key: string, value: CachedJudgement, now: string): void {
    const stmt = this.#db.prepare(
      "INSERT OR REPLACE INTO judge_cache (key, score, reason, created_at) VALUES (?, ?, ?, ?)",
    );
    this.#retrier.retry(
      "caching a judgement",
      () => stmt.run(key, value.score, value.reason, now),
    );
  }

  /** Closes the database. */
  close(): void {
    this.#db.close();
  }
}
