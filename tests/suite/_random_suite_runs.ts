// Seeded random suite runs with repeats, for the differential tests of stored runs
// (tests/suite/stored_run_test.ts, tests/cli/suite_repeats_cli_test.ts): a JSONC suite with a
// `repeats` block, goldens with hostile ids and cluster values that collide as text ("3" and 3),
// traces with missing and extra repeats, and a fake judge that scores, fails (a null score) or
// does not apply, by a hash of the run, so that its answers do not depend on call order.
import {
  type Golden,
  type Judge,
  type JudgeScore,
  REPEAT_REDUCERS,
  type RepeatReducer,
  type SchemaCatalog,
  type Trace,
} from "../../src/suite/mod.ts";
import { makeRng, type Rng, shuffled } from "../_corpus.ts";

/** One random suite run's inputs. */
export interface RandomSuiteRun {
  /** The suite file's text (JSONC). */
  suiteText: string;
  goldens: Golden[];
  traces: Trace[];
  catalog: SchemaCatalog;
  /** The bootstrap of the report. */
  seed: number;
  resamples: number;
}

const GOLDEN_IDS = ["g1", "g2", "g3", "__proto__", "constructor", "g\u{1F600}", "ｇ", "g10"];
const ARMS = ["base", "adapter", "Ω", "__proto__"];
const CLUSTER_VALUES: (string | number)[] = ["sales", "refunds", "3", 3, 0.1, -2, 1e21];
const JUDGED = ["input", "tool_calls", "query_results"];
const METRICS = [
  { type: "hit_limit" },
  { type: "step_efficiency" },
  { type: "reference_value_match" },
  { type: "expected_view_recall" },
  { type: "llm_judge", name: "j1", params: { criteria: "c", evaluation_params: JUDGED } },
  { type: "llm_judge", name: "j2", params: { criteria: "d", evaluation_params: JUDGED } },
];
const THRESHOLDS = [0, 0.5, 0.5, 0.8, 1];

function trace(rng: Rng, golden_id: string, arm: string, repeat: number): Trace {
  const calls = Array.from({ length: rng.int(5) }, () => ({
    name: rng.pick(["list_views", "run_sql"]),
    arguments: { x: rng.int(2) },
  }));
  return {
    golden_id,
    arm,
    repeat,
    tool_calls: calls,
    sql: rng.chance(0.7) ? [rng.pick(["SELECT v FROM orders", "SELECT v FROM refunds"])] : [],
    final_rows: rng.chance(0.3) ? null : [{ v: rng.pick([1, 2, 2.0005]) }],
    final_answer: rng.chance(0.2) ? null : "an answer",
    submitted: rng.chance(0.8),
    hit_turn_limit: rng.chance(0.25),
  };
}

/**
 * The `i`-th random suite run: its reducer is `reducer`, and it clusters by `topic` when
 * `cluster` is set.
 */
export function randomSuiteRun(seed: number, reducer: RepeatReducer, cluster: boolean) {
  const rng = makeRng(seed);
  const n = 1 + rng.int(4);
  const k = reducer.endsWith("_k") ? 1 + rng.int(n) : undefined;
  const metrics = shuffled(rng, METRICS).slice(0, 1 + rng.int(METRICS.length))
    .map((m) => ({ ...m, threshold: rng.pick(THRESHOLDS) }));
  const repeats = {
    n,
    reducer,
    ...(k !== undefined && { k }),
    ...(cluster && { cluster: "topic" }),
  };
  const goldens: Golden[] = shuffled(rng, GOLDEN_IDS).slice(0, 2 + rng.int(5)).map((id) => ({
    id,
    question: "?",
    ...(rng.chance(0.7) && { expected_views: [rng.pick(["orders", "refunds"])] }),
    ...(rng.chance(0.6) && { reference_values: { v: 2 } }),
    topic: rng.pick(CLUSTER_VALUES),
  }));
  const arms = shuffled(rng, ARMS).slice(0, 1 + rng.int(3));
  const traces: Trace[] = [];
  for (const arm of arms) {
    for (const [i, g] of goldens.entries()) {
      // A golden this arm never ran (the first is run by every arm: arms must share a golden).
      if (i > 0 && rng.chance(0.1)) continue;
      // Mostly n runs; sometimes fewer or more (listed as mismatched), repeat numbers with gaps.
      const runs = Math.max(i === 0 ? 1 : 0, rng.chance(0.7) ? n : rng.int(n + 2));
      const repeatsRun = shuffled(rng, Array.from({ length: n + 2 }, (_, i) => i)).slice(0, runs);
      for (const r of repeatsRun) traces.push(trace(rng, g.id, arm, r));
    }
  }
  if (traces.length === 0) traces.push(trace(rng, goldens[0]!.id, arms[0]!, 0));
  const run: RandomSuiteRun = {
    suiteText: JSON.stringify({ name: `random-${seed}`, repeats, metrics }, null, 1),
    goldens,
    traces: shuffled(rng, traces),
    catalog: { views: [{ name: "orders", columns: ["v"] }, { name: "refunds", columns: ["v"] }] },
    seed: rng.next(),
    resamples: 20 + rng.int(200),
  };
  return run;
}

/** A judge that scores, fails or does not apply, by a hash of the run and metric. */
export const fakeJudge: Judge = {
  score(metric, context): Promise<JudgeScore> {
    const { golden_id, arm, repeat } = context.trace;
    let h = 2166136261;
    for (const ch of JSON.stringify([metric.name, golden_id, arm, repeat])) {
      h = Math.imul(h ^ ch.codePointAt(0)!, 16777619);
    }
    const rng = makeRng(h >>> 0);
    const roll = rng.int(10);
    const base = {
      metric: metric.name,
      model: "fake:judge",
      prompt_sha256: "0".repeat(64),
      rubric_sha256: metric.name.repeat(32).slice(0, 64),
      cached: false,
      attempts: 1,
    };
    if (roll === 0) return Promise.resolve({ ...base, applicable: false, score: null });
    if (roll === 1) {
      return Promise.resolve({
        ...base,
        applicable: true,
        score: null,
        details: { error: "timeout", error_kind: "timeout" },
      });
    }
    const score = roll < 5 ? rng.pick([0, 0.5, 1]) : rng.float();
    return Promise.resolve({ ...base, applicable: true, score });
  },
};

/** Every reducer, with and without a cluster field. */
export const REDUCER_CASES = REPEAT_REDUCERS.flatMap((r) => [[r, false], [r, true]] as const);
