// Where the metric store keeps a run's repeats (`KeptRepeats`, which the library's `keptRepeats`
// decides: the suite's `repeats` block, each golden's cluster key, every golden's id and the
// baseline arm): in nullable columns of `runs` (docs/suite.md, "The metric store").
//
// The store stays assay.store.v1: the columns are additive, so an older assay still reads and
// writes a store that has them (it names its columns), and its runs read back as "not kept". A
// store made before them gets them from the first run written into it, inside that run's own
// BEGIN IMMEDIATE transaction: the write lock is held, so the check and the ALTER TABLE cannot
// race another writer, and a crash rolls both back with the run. Reading never migrates. The
// history's `pass_counts` column (_store_history.ts) is added the same way, with these.
// Only types come from the suite room, so that opening a store loads none of it.
import type { DatabaseSync } from "node:sqlite";
import type { KeptRepeats } from "../src/suite/mod.ts";
import { InputError } from "./_errors.ts";

/** The columns of `runs` added since the store's first release: the repeats' and the history's. */
const COLUMNS = ["repeats", "clusters", "golden_ids", "baseline", "pass_counts"];
/** Those columns, as the schema of a new store declares them. */
export const ADDED_COLUMNS = COLUMNS.map((c) => `${c} TEXT`).join(",\n  ");

/** Whether the store's `runs` table has the column `name` (one of the added columns). */
export function hasRunsColumn(db: DatabaseSync, name: string): boolean {
  return db.prepare("PRAGMA table_info(runs)").all().some((c) => c.name === name);
}

/** Adds the columns a store made before them lacks; call it holding the write lock. */
export function addColumns(db: DatabaseSync): void {
  const have = new Set(db.prepare("PRAGMA table_info(runs)").all().map((c) => c.name));
  for (const c of COLUMNS) if (!have.has(c)) db.exec(`ALTER TABLE runs ADD COLUMN ${c} TEXT`);
}

/**
 * The columns' values: SQL NULL in both for a run whose repeats are not kept (`kept` undefined,
 * as from an older writer); else the `repeats` block as JSON (`null` for a suite without one)
 * and the cluster keys as a JSON array of [golden id, key] pairs, or SQL NULL; the golden ids as
 * a JSON array, or SQL NULL; the baseline arm as text, or SQL NULL.
 */
export function repeatsValues(
  kept: KeptRepeats | undefined,
): [string | null, string | null, string | null, string | null] {
  if (kept === undefined) return [null, null, null, null];
  return [
    JSON.stringify(kept.repeats),
    kept.clusters && JSON.stringify(kept.clusters),
    kept.goldens ? JSON.stringify(kept.goldens) : null,
    kept.baseline ?? null,
  ];
}

/**
 * Reads the columns back: undefined when the run's repeats were not kept. Text that is not JSON
 * is an input error naming the store and the run; the shape of what it holds (cluster keys that
 * are not [golden id, key] pairs, golden ids that are not strings, a baseline that is not text)
 * and what the `repeats` block means are checked by the library's `storedRepeatsReport`, which
 * reads them, in the same words.
 */
export function readRepeats(
  path: string,
  runId: string,
  repeats: unknown,
  clusters: unknown,
  goldenIds: unknown = null,
  baseline: unknown = null,
): KeptRepeats<unknown> | undefined {
  if (repeats === null) return undefined;
  const parse = (text: unknown, name: string): unknown => {
    if (text === null) return null;
    try {
      return JSON.parse(String(text));
    } catch {
      throw new InputError(
        `${path}: run ${runId} has a malformed repeats column (${name} is not JSON)`,
      );
    }
  };
  // Shapes unchecked here: storedRepeatsReport checks every field before it reads one.
  return {
    clusters: parse(clusters, "clusters"),
    goldens: parse(goldenIds, "golden_ids"),
    baseline,
    repeats: parse(repeats, "repeats"),
  } as KeptRepeats<unknown>;
}
