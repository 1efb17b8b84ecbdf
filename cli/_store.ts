// The SQLite metric store: flat score rows of every suite run, kept across runs, and the judge
// cache. Runtime-specific (node:sqlite), so it lives in the CLI layer.
//
// A run's rows are written in one transaction together with its `runs` row, so a crash mid-run
// leaves nothing of that run behind; the next run opens the store and proceeds. Judge cache
// entries commit one by one, so the calls a crashed run paid for are still free next time.
import { DatabaseSync } from "node:sqlite";
import type { ScoreRow } from "../src/suite/mod.ts";
import { InputError } from "./_errors.ts";

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

/** The metric store in one SQLite file. */
export class MetricStore {
  #db: DatabaseSync;

  private constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Opens (or creates) the store at `path`. */
  static open(path: string): MetricStore {
    let db: DatabaseSync | undefined;
    let row: { value: string } | undefined;
    try {
      db = new DatabaseSync(path);
      db.exec(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;",
      );
      db.exec(SCHEMA);
      row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as typeof row;
    } catch (e) {
      db?.close();
      throw new InputError(
        `${path} is not an assay.store.v1 metric store (${e instanceof Error ? e.message : e})`,
        { cause: e },
      );
    }
    if (row?.value !== "assay.store.v1") {
      db.close();
      throw new InputError(`${path} is not an assay.store.v1 metric store (found ${row?.value})`);
    }
    return new MetricStore(db);
  }

  /** Writes a whole run atomically: every row, or nothing. */
  writeRun(run: Omit<StoredRun, "rows">, rows: readonly StoredScore[], beforeCommit?: () => void) {
    const insertRun = this.#db.prepare(
      "INSERT INTO runs (run_id, suite, suite_sha256, metrics, created_at, rows) " +
        "VALUES (?, ?, ?, ?, ?, ?)",
    );
    const insert = this.#db.prepare(
      `INSERT INTO scores (run_id, suite, golden_id, arm, repeat, metric, score, applicable,
         threshold, pass, prompt_sha256, rubric_sha256, judge_model, error, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      insertRun.run(
        run.run_id,
        run.suite,
        run.suite_sha256,
        JSON.stringify(run.metrics),
        run.created_at,
        rows.length,
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
      beforeCommit?.();
      this.#db.exec("COMMIT");
    } catch (e) {
      this.#db.exec("ROLLBACK");
      throw e;
    }
  }

  /** Every stored run of a suite (or of all suites), oldest first. */
  runs(suite?: string): StoredRun[] {
    const sql = "SELECT run_id, suite, suite_sha256, metrics, created_at, rows FROM runs" +
      (suite === undefined ? "" : " WHERE suite = ?") + " ORDER BY created_at, run_id";
    const stmt = this.#db.prepare(sql);
    const rows = (suite === undefined ? stmt.all() : stmt.all(suite)) as Record<string, unknown>[];
    return rows.map((r) => ({
      run_id: r.run_id as string,
      suite: r.suite as string,
      suite_sha256: r.suite_sha256 as string,
      metrics: JSON.parse(r.metrics as string) as string[],
      created_at: r.created_at as string,
      rows: Number(r.rows),
    }));
  }

  /** The rows of one run. */
  scores(runId: string): StoredScore[] {
    const rows = this.#db.prepare(
      `SELECT golden_id, arm, repeat, metric, score, applicable, threshold, pass, prompt_sha256,
         rubric_sha256, judge_model, error
       FROM scores WHERE run_id = ? ORDER BY golden_id, arm, repeat, metric`,
    ).all(runId) as Record<string, unknown>[];
    return rows.map((r) => ({
      golden_id: r.golden_id as string,
      arm: r.arm as string,
      repeat: Number(r.repeat),
      metric: r.metric as string,
      score: r.score === null ? null : Number(r.score),
      applicable: Number(r.applicable) === 1,
      threshold: Number(r.threshold),
      pass: r.pass === null ? null : Number(r.pass) === 1,
      prompt_sha256: r.prompt_sha256 as string | null,
      rubric_sha256: r.rubric_sha256 as string | null,
      judge_model: r.judge_model as string | null,
      error: r.error as string | null,
    }));
  }

  /** A cached judgement, if any. */
  cacheGet(key: string): CachedJudgement | undefined {
    const r = this.#db.prepare("SELECT score, reason FROM judge_cache WHERE key = ?").get(key) as
      | { score: number; reason: string }
      | undefined;
    return r === undefined ? undefined : { score: Number(r.score), reason: r.reason };
  }

  /** Caches a judgement (committed at once). */
  cacheSet(key: string, value: CachedJudgement, now: string): void {
    this.#db.prepare(
      "INSERT OR REPLACE INTO judge_cache (key, score, reason, created_at) VALUES (?, ?, ?, ?)",
    ).run(key, value.score, value.reason, now);
  }

  /** Closes the database. */
  close(): void {
    this.#db.close();
  }
}
