// Simulated paired arms for the bootstrap's statistical checks (tests/stats/bootstrap_coverage.ts) and
// its benchmark (bench/bootstrap_bench.ts).
//
// Each example has a gold argument count (1–12 flattened pairs, mostly 2–5) and a difficulty
// shared by both arms, so the arms are correlated as real paired evaluations are. Given the
// example, the two arms are independent draws from the same distribution: the arms are
// exchangeable, so every metric's true (population) delta is exactly 0, argument_f1's pooled
// ratio included. Records are self-consistent: name and arguments can only match on an `ok`
// parse, an exact argument match means every predicted and gold pair matched, and a failed
// parse predicts no pairs.
import type { ExampleRecord, Sfc32 } from "../../mod.ts";

/** Gold pair counts and their weights (out of 100). */
const GOLD: [pairs: number, weight: number][] = [
  [1, 10],
  [2, 20],
  [3, 24],
  [4, 18],
  [5, 10],
  [6, 7],
  [8, 6],
  [12, 5],
];

/** A uniform double in [0, 1). */
const uniform = (rng: Sfc32) => rng.nextUint32() / 0x100000000;

function goldPairs(rng: Sfc32): number {
  let u = rng.nextBelow(100);
  for (const [pairs, weight] of GOLD) {
    if (u < weight) return pairs;
    u -= weight;
  }
  return 3;
}

function binomial(rng: Sfc32, trials: number, p: number): number {
  let k = 0;
  for (let i = 0; i < trials; i++) if (uniform(rng) < p) k++;
  return k;
}

/** One arm's record of an example with `gold` pairs and skill `s` in [0, 1]. */
function arm(rng: Sfc32, id: string, gold: number, s: number): ExampleRecord {
  const base = { example_id: id, language: "en", root_id: null, gold_pairs: gold };
  if (uniform(rng) >= 0.55 + 0.44 * s) {
    return {
      ...base,
      status: uniform(rng) < 0.6 ? "invalid_json" : "no_json",
      name_match: false,
      arguments_match: false,
      matched_pairs: 0,
      predicted_pairs: 0,
    };
  }
  const name = uniform(rng) < 0.2 + 0.79 * s;
  // Predicted pairs: usually the gold count, sometimes a key missing or invented.
  const u = uniform(rng);
  const exact = 0.5 + 0.48 * s;
  const predicted = u < exact ? gold : u < (1 + exact) / 2 ? Math.max(0, gold - 1) : gold + 1;
  const q = name ? 0.3 + 0.69 * s : 0.2;
  const matched = binomial(rng, Math.min(predicted, gold), q);
  return {
    ...base,
    status: "ok",
    name_match: name,
    arguments_match: matched === gold && predicted === gold,
    matched_pairs: matched,
    predicted_pairs: predicted,
  };
}

/**
 * Two aligned arms of `n` examples, exchangeable given each example (true deltas 0).
 *
 * @param rng The data stream.
 * @param n Examples.
 */
export function simulateArms(
  rng: Sfc32,
  n: number,
): { base: ExampleRecord[]; adapter: ExampleRecord[] } {
  const base: ExampleRecord[] = [];
  const adapter: ExampleRecord[] = [];
  for (let i = 0; i < n; i++) {
    const id = `ex-${i}`;
    const gold = goldPairs(rng);
    // Difficulty, shared by both arms: most examples easy, some middling, a tail of hard ones.
    const kind = uniform(rng);
    const v = uniform(rng);
    const s = kind < 0.65 ? 0.9 + 0.1 * v : kind < 0.85 ? 0.4 + 0.3 * v : 0.2 * v;
    base.push(arm(rng, id, gold, s));
    adapter.push(arm(rng, id, gold, s));
  }
  return { base, adapter };
}
