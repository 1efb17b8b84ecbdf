/**
 * The examples an evaluation report left out because they had no generation (`assay score
 * --allow-missing`, its `missing_generations`): whatever reads the report (a gate, a comparison)
 * reads only the scored ones, and says so, instead of a partial run reading as a whole one.
 *
 * @module
 */
import { printableString } from "../explain/text/mod.ts";

/** At most this many of the ids left out are named; the count says how many in all. */
const NAMED = 5;

function unscored(report: object): { scored: number; count: number; ids: string[] } | undefined {
  const r = report as {
    records?: unknown;
    missing_generations?: { count?: unknown; ids?: unknown };
  };
  const m = r.missing_generations;
  const count = m?.count;
  if (!Array.isArray(r.records) || typeof count !== "number" || !(count > 0)) return undefined;
  const ids = Array.isArray(m!.ids) ? m!.ids.filter((x) => typeof x === "string") : [];
  return { scored: r.records.length, count, ids };
}

/**
 * A sentence for each report that left examples out for want of a generation, naming the first
 * five (as `printableString` writes them) and how many in all.
 *
 * @param reports Each report with how the sentence calls it, such as `candidate report`.
 * @returns The sentences, or undefined when no report left any out (or none is an evaluation
 *   report).
 * @throws {never} Never.
 *
 * @example
 * ```ts
 * import { unscoredNote } from "@assay/assay/report-check";
 * import { strictEqual } from "node:assert/strict";
 *
 * const report = { records: [{}, {}], missing_generations: { count: 1, ids: ["q3"] } };
 * strictEqual(
 *   unscoredNote([["candidate report", report]]),
 *   'The candidate report scored 2 of its 3 examples: 1 had no generation (scored with ' +
 *     '--allow-missing: "q3"), left out of every figure.',
 * );
 * ```
 */
export function unscoredNote(
  reports: readonly (readonly [name: string, report: object])[],
): string | undefined {
  const notes = reports.flatMap(([side, report]) => {
    const u = unscored(report);
    if (u === undefined) return [];
    const named = u.ids.slice(0, NAMED).map(printableString).join(", ");
    const more = u.count > Math.min(u.ids.length, NAMED) ? `, … ${u.count} in all` : "";
    return [
      `The ${side} scored ${u.scored} of its ${u.scored + u.count} examples: ${u.count} had no ` +
      `generation (scored with --allow-missing${named === "" ? "" : `: ${named}${more}`}), left ` +
      "out of every figure.",
    ];
  });
  return notes.length === 0 ? undefined : notes.join(" ");
}
