// The repeats section of `assay suite`: how it is printed, and how `suite scorecard --store` and
// `suite compare --store` read it from a stored run (the library's storedRepeatsReport rebuilds it
// as the live run's repeatsReport computed it, so that both give the same numbers).
import {
  type ArmDelta,
  type ReducedComparison,
  type RepeatsReport,
  type ScoreRow,
  storedRepeatsReport,
} from "../src/suite/mod.ts";
import { InputError, UsageError } from "./_errors.ts";
import type { MetricStore, StoredRun } from "./_store.ts";
import { table } from "./_table.ts";
import { printableText } from "../src/explain/text/mod.ts";

/** The bootstrap flags of the suite commands: a seed in [0, 2^32), resamples in [1, 10^7]. */
export function suiteBootstrap(values: { seed?: string; resamples?: string }) {
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) {
    throw new UsageError(`--seed must be an integer in [0, 2^32), got "${values.seed}"`);
  }
  const resamples = values.resamples === undefined ? undefined : Number(values.resamples);
  if (resamples !== undefined && !(Number.isInteger(resamples) && resamples >= 1)) {
    throw new UsageError("--resamples must be a positive integer");
  }
  if (resamples !== undefined && resamples > 10_000_000) {
    throw new UsageError(`--resamples must be at most 10^7, got ${resamples}`);
  }
  return {
    ...(seed !== undefined && { seed }),
    ...(resamples !== undefined && { resamples }),
  };
}

/** A stored run's repeats section, or the one line that says why there is none. */
export interface StoredRepeats {
  /** The section, as the live run's report has it; undefined when there is none. */
  report?: RepeatsReport;
  /** Set when the run was stored before repeats were kept. */
  note?: string;
}

/**
 * The repeats section of a stored run (nothing for a suite without `repeats`), as the library
 * rebuilds it (`storedRepeatsReport`: each arm compared with the run's baseline as `suite run`
 * compared them), or the note for a run stored before its repeats were kept. With `arms`, only
 * those two arms, the first as the baseline: its one comparison is B − A. What the library
 * refuses is an input error naming the store.
 */
export function storedRepeats(
  store: MetricStore,
  path: string,
  run: StoredRun,
  rows: readonly ScoreRow[],
  options: { seed?: number; resamples?: number; arms?: [string, string] },
): StoredRepeats {
  const kept = store.repeatsOf(run.run_id);
  if (kept === undefined) {
    return {
      note: `run ${
        printableText(run.run_id)
      } was stored before repeats were kept: no repeats section`,
    };
  }
  try {
    const report = storedRepeatsReport(kept, rows, {
      runId: run.run_id,
      metrics: run.metrics,
      ...options,
    });
    return report === null ? {} : { report };
  } catch (e) {
    if (e instanceof RangeError || e instanceof TypeError) {
      throw new InputError(`${path}: ${e.message}`, { cause: e });
    }
    throw e;
  }
}

/** Runs `fn` on a stored run's data: a row or value the library refuses is an input error. */
export function storedRun<T>(path: string, run: StoredRun, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RangeError || e instanceof TypeError) {
      throw new InputError(`${path}: run ${run.run_id}: ${e.message}`, { cause: e });
    }
    // Arms whose stored rows do not compare: named by the store too, keeping its differences.
    if (e instanceof Error && e.name === "ArmComparisonError") {
      e.message = `${path}: run ${run.run_id}: ${e.message}`;
    }
    throw e;
  }
}

/**
 * Prints a stored run's JSON: its id, suite and `fields`, then its repeats part under `key`:
 * null for a run stored before repeats were kept (whose note goes to stderr), left out when the
 * suite has no repeats.
 */
export function printStoredJson(
  run: StoredRun,
  fields: Record<string, unknown>,
  repeats: { key: string; part: unknown; note: string | undefined },
): void {
  const { key, part, note } = repeats;
  printNote(note, true);
  const extra = note !== undefined ? { [key]: null } : part === undefined ? {} : { [key]: part };
  console.log(JSON.stringify({ run: run.run_id, suite: run.suite, ...fields, ...extra }, null, 2));
}

/** Says why a stored run has no repeats section: on stdout, or on stderr beside JSON. */
export function printNote(note: string | undefined, json?: boolean): void {
  if (note !== undefined) (json ? console.error : console.log)(note);
}

function heading(r: RepeatsReport): string {
  const k = r.repeats.k === undefined ? "" : ` k=${r.repeats.k}`;
  return `repeats: ${printableText(r.repeats.reducer)}${k} over n=${r.repeats.n} runs per golden`;
}

/** An interval as `[0.100, 0.200]`, or nothing when there is none. */
export function interval(ci: [number, number] | null): string {
  return ci ? `[${ci[0].toFixed(3)}, ${ci[1].toFixed(3)}]` : "";
}

/** The repeats section as tables: per arm the reduced mean and its intervals, then each delta. */
export function printRepeats(r: RepeatsReport): void {
  const by = r.cluster === null ? "golden" : printableText(r.cluster);
  console.log(`\n${heading(r)}`);
  const rows = r.arms.map((a) => [
    printableText(a.arm),
    a.mean === null ? "-" : `${a.mean.toFixed(3)} (${a.n} goldens)`,
    a.clt ? `${a.clt.se.toFixed(3)} ${interval(a.clt.ci)}` : "-",
    a.clustered ? `${a.clustered.se.toFixed(3)} ${interval(a.clustered.ci)} C=${a.clusters}` : "-",
    interval(a.bootstrap.ci),
  ]);
  console.log(
    table(["arm", "reduced mean", "CLT se, t CI", `se by ${by}, t CI`, "bootstrap CI"], rows),
  );
  for (const a of r.arms) {
    if (a.mismatched.length === 0) continue;
    const shown = a.mismatched.slice(0, 12).map(printableText).join(", ") +
      (a.mismatched.length > 12 ? ", …" : "");
    console.log(
      `arm ${
        printableText(a.arm)
      }: ${a.mismatched.length} golden(s) without n=${r.repeats.n} runs: ${shown}`,
    );
  }
  for (const c of r.comparisons) {
    const d = c.reduced;
    console.log(
      `${printableText(c.arms[1])} − ${printableText(c.arms[0])} ` +
        (d === null ? "(paired): no golden in common" : `(paired, ${c.n_goldens} goldens): ` +
          `${d.delta === null ? "-" : d.delta.toFixed(3)} ${interval(d.ci)}`),
    );
  }
}

/** One row of a comparison table: both arms, the delta and its interval. */
export function deltaRow(name: string, d: ArmDelta): string[] {
  const fmt = (x: number | null) => (x === null ? "-" : x.toFixed(3));
  return [printableText(name), fmt(d.a.value), fmt(d.b.value), fmt(d.delta), interval(d.ci)];
}

/** `suite compare`'s extra table: B − A on the reduced per-golden scores. */
export function printReducedComparison(r: RepeatsReport, c: ReducedComparison): void {
  const [a, b] = c.arms.map(printableText) as [string, string];
  console.log(
    `\n${heading(r)}: ${b} − ${a} on the reduced per-golden scores, paired by golden ` +
      `(${c.n_goldens} goldens)`,
  );
  if (c.reduced === null) console.log("no golden in common");
  else console.log(table(["", a, b, "delta", "95% CI"], [deltaRow("reduced", c.reduced)]));
}
