// The history `suite scorecard` lists: each stored run's pass rate per arm. `suite run` keeps its
// scorecard's pass counts (the library's `passCounts`; `passRates` reads them back) beside its
// rows, in the nullable `pass_counts` column of `runs` (added like the repeats' columns,
// _store_repeats.ts), so that the history reads one small cell per run where it rescored every
// run's rows (a whole scorecard per run, to print one number per arm), and checks that cell's arms
// against the arms of the run's rows (one indexed query per run). A run stored before the column
// has none, and its rows are rescored as before; both give the same bytes
// (tests/cli/suite_history_cli_test.ts).
// Only types come from the suite room, so that opening a store loads none of it.
import type { PassCounts } from "../src/suite/mod.ts";
import { InputError } from "./_errors.ts";

/**
 * Reads the column back: undefined when the run's counts were not stored (SQL NULL, as from a
 * writer before the column); anything but a JSON list of `[arm, passes, complete]`, with distinct
 * arms and counts 0 ≤ passes ≤ complete, is an input error naming the store and the run, and so
 * is a list whose arms are not the arms of the run's rows (`runArms`, read only for a cell that
 * is there), each once: the writer stores one entry per arm of its scorecard.
 */
export function readPassCounts(
  path: string,
  runId: string,
  value: unknown,
  runArms: () => readonly unknown[],
): PassCounts | undefined {
  if (value === null || value === undefined) return undefined;
  const bad = (what: string) =>
    new InputError(`${path}: run ${runId} has a malformed pass_counts column (${what})`);
  if (typeof value !== "string") throw bad("it is not text");
  let counts: unknown;
  try {
    counts = JSON.parse(value);
  } catch {
    throw bad("it is not JSON");
  }
  const count = (x: unknown) => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
  const isEntry = (e: unknown) =>
    Array.isArray(e) && e.length === 3 && typeof e[0] === "string" && count(e[1]) &&
    count(e[2]) && e[1] <= e[2];
  if (!Array.isArray(counts) || !counts.every(isEntry)) {
    throw bad("it is not a list of [arm, passes, complete], 0 ≤ passes ≤ complete");
  }
  const arms = new Set(counts.map((e) => e[0] as string));
  if (arms.size !== counts.length) throw bad("an arm is repeated");
  const rows = runArms();
  if (rows.length !== arms.size || !rows.every((a) => typeof a === "string" && arms.has(a))) {
    throw bad(
      `its arms ${JSON.stringify([...arms])} are not the arms of the run's rows ` +
        JSON.stringify(rows),
    );
  }
  return counts as PassCounts;
}
