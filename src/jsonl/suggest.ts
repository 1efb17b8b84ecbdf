// "Did you mean" suggestions for misspelled names in user input: suite fields, judge params, and
// the CLI's commands and flags.

/** Levenshtein distance between short names (two rows); Infinity when the lengths differ by > 8. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The candidate closest to `word` (case-insensitive edit distance on its first 64 characters,
 * ties to the earlier candidate), when it is close enough to be a likely typo: at most
 * max(2, length / 3) edits; else the one candidate that `word` (two characters or more) begins,
 * a word cut short.
 *
 * @param word The word as the user wrote it.
 * @param candidates The valid words.
 * @returns The closest candidate, or `undefined` when none is close enough.
 *
 * @example Suggest a flag for a typo
 * ```ts
 * import { suggestName } from "@assay/assay/jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(suggestName("exmples", ["examples", "generations"]), "examples");
 * strictEqual(suggestName("gen", ["examples", "generations"]), "generations");
 * strictEqual(suggestName("zzz", ["examples", "generations"]), undefined);
 * ```
 */
export function suggestName(word: string, candidates: readonly string[]): string | undefined {
  const probe = word.slice(0, 64).toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(probe, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  if (bestD <= Math.max(2, Math.floor(probe.length / 3))) return best;
  // A word cut short (`--fail` for `--failing`): the one candidate it begins.
  const begun = candidates.filter((c) => c.toLowerCase().startsWith(probe));
  return probe.length > 1 && begun.length === 1 ? begun[0] : undefined;
}
