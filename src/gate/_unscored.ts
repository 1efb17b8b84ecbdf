// The examples an evaluation report left out because they had no generation (`assay score
// --allow-missing`, its `missing_generations`): a gate reads only the scored ones, so its verdict
// says so, instead of a partial run passing a `min` rule as if it were whole.
import { printableString } from "../explain/mod.ts";
import type { GateInput } from "./verdict.ts";

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
 * A sentence per side whose report left examples out for want of a generation, as `The candidate
 * report scored 349 of its 395 examples: 46 had no generation (scored with --allow-missing:
 * "en-0001", …, 46 in all), and the rules read only the scored ones.`; undefined when no side left
 * any out.
 */
export function unscoredNote(input: GateInput): string | undefined {
  const sides: [string, object][] = "report" in input
    ? [["report", input.report]]
    : [["base report", input.base], ["candidate report", input.candidate]];
  const notes = sides.flatMap(([side, report]) => {
    const u = unscored(report);
    if (u === undefined) return [];
    const named = u.ids.slice(0, NAMED).map(printableString).join(", ");
    const more = u.count > Math.min(u.ids.length, NAMED) ? `, … ${u.count} in all` : "";
    return [
      `The ${side} scored ${u.scored} of its ${u.scored + u.count} examples: ${u.count} had no ` +
      `generation (scored with --allow-missing${named === "" ? "" : `: ${named}${more}`}), and ` +
      "the rules read only the scored ones.",
    ];
  });
  return notes.length === 0 ? undefined : notes.join(" ");
}
