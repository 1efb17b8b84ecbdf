// keptRepeats(), storedRepeatsReport(), passCounts() and passRates() (src/suite/kept_run.ts): what
// a run keeps beside its rows, kept as JSON and read back, gives the live run's repeats section
// and pass rates on seeded random suite runs (every reducer, with and without a cluster field, with
// the baseline of the suite or of the run); and what each refuses, naming the golden or the run.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  keptRepeats,
  loadSuite,
  passCounts,
  passRates,
  runSuite,
  scorecard,
  type ScoreRow,
  storedRepeatsReport,
  suiteChecks,
  suiteRunReport,
} from "../../src/suite/mod.ts";
import { fakeJudge, randomSuiteRun, REDUCER_CASES } from "./_random_suite_runs.ts";
import { makeRng, shuffled } from "../_corpus.ts";

const PER_CASE = 3;

/** JSON text and back, as a store keeps a value. */
const throughJson = <T>(value: T): T => JSON.parse(JSON.stringify(value));

Deno.test("what keptRepeats() and passCounts() keep, read back as JSON, gives the live run's repeats section and pass rates", async () => {
  let cases = 0;
  let chosen = 0;
  let comparisons = 0;
  for (const [reducer, cluster] of REDUCER_CASES) {
    for (let i = 0; i < PER_CASE; i++) {
      const seed = 7000 + 100 * cases + i;
      const input = randomSuiteRun(seed, reducer, cluster);
      const suite = loadSuite(input.suiteText, { format: "jsonc", ...suiteChecks() });
      const results = await runSuite(suite, input, { judge: fakeJudge });
      // Every other run compares with the arm the run chose, not the first in code-point order.
      const arms = [...new Set(input.traces.map((t) => t.arm))];
      const baseline = i % 2 === 1 ? arms.at(-1)! : undefined;
      const report = suiteRunReport(suite, results, input.goldens, {
        suiteSha256: "0".repeat(64),
        seed: input.seed,
        resamples: input.resamples,
        ...(baseline !== undefined && { baseline }),
      });
      const live = report.repeats!;
      const kept = throughJson({ ...keptRepeats(suite, input.goldens), baseline: live.baseline });
      strictEqual("baseline" in kept.repeats!, false);
      const rows = shuffled(
        makeRng(seed),
        results.flatMap((r) => r.criteria).map((c): ScoreRow => {
          const { details: _, prompt_sha256: _p, judge_model: _j, cached: _c, ...row } = c;
          return row;
        }),
      );
      const metrics = suite.metrics.map((m) => m.name);
      const stored = storedRepeatsReport(kept, rows, {
        runId: `r${seed}`,
        metrics,
        seed: input.seed,
        resamples: input.resamples,
      });
      strictEqual(JSON.stringify(stored), JSON.stringify(live), `case ${reducer} ${cluster} ${i}`);
      // The history's pass rates, from the kept counts and from the rows rescored, are equal.
      const counts = throughJson(passCounts(report.scorecard));
      const card = scorecard(rows, { metrics, resamples: 1 });
      deepStrictEqual(passRates(counts), card.arms.map((a) => [a.arm, a.pass_rate.value]));
      cases++;
      if (baseline !== undefined && baseline !== [...arms].sort()[0]) chosen++;
      comparisons += live.comparisons.length;
    }
  }
  strictEqual(cases, REDUCER_CASES.length * PER_CASE);
  // The cases reach a chosen baseline that is not the default one, and comparisons.
  ok(chosen > 3, `chosen baselines: ${chosen}`);
  ok(comparisons > 10, `comparisons: ${comparisons}`);
});

const SUITE = "repeats: {n: 2, reducer: mean, cluster: topic, baseline: base}\n" +
  "metrics:\n  - type: hit_limit\n";

Deno.test("keptRepeats() keeps nothing for a suite without repeats, and every id without a cluster field", () => {
  const goldens = [{ id: "g1", question: "q" }, { id: "g2", question: "q" }];
  deepStrictEqual(keptRepeats(loadSuite("- type: hit_limit\n"), goldens), {
    repeats: null,
    clusters: null,
    goldens: null,
  });
  const plain = loadSuite(
    "repeats: {n: 3, reducer: pass_at_k, k: 2}\nmetrics: [{type: hit_limit}]",
  );
  deepStrictEqual(keptRepeats(plain, goldens), {
    repeats: { n: 3, reducer: "pass_at_k", k: 2 },
    clusters: null,
    goldens: ["g1", "g2"],
  });
});

Deno.test("keptRepeats() refuses a golden without the field the repeats cluster by, or with one of another type", () => {
  const suite = loadSuite(SUITE);
  for (const topic of [true, null, ["a"]]) {
    const goldens = [{ id: "g1", question: "q", topic: "a" }, { id: "g2", question: "q", topic }];
    throws(() => keptRepeats(suite, goldens), {
      name: "RangeError",
      message: 'Golden "g2" has no topic (a string or number) to cluster by',
    });
  }
  throws(() => keptRepeats(suite, [{ id: "g1", question: "q" }]), {
    name: "RangeError",
    message: 'Golden "g1" has no topic (a string or number) to cluster by',
  });
  // A field set to undefined is not a field left out: no file holds undefined.
  const unset = { id: "g1", question: "q", topic: undefined };
  throws(() => keptRepeats(suite, [unset]), {
    name: "SuiteInputError",
    message: 'goldens[0] (id "g1"): topic is undefined, which JSON cannot hold',
  });
});

/** Two runs of each of g1 and g2 in `arm`, each scored `score`. */
function rowsOf(arm: string, score: number): ScoreRow[] {
  return ["g1", "g2"].flatMap((golden_id) =>
    [0, 1].map((repeat) => ({
      golden_id,
      arm,
      repeat,
      metric: "m",
      score,
      applicable: true,
      threshold: 0.5,
    }))
  );
}

const KEPT = {
  repeats: { n: 2, reducer: "mean", cluster: "topic" },
  clusters: [["g1", "string:a"], ["g2", "number:2"]] as [string, string][],
  goldens: ["g1", "g2"],
  baseline: "base",
};
const ROWS = [...rowsOf("base", 0.25), ...rowsOf("new", 0.75), ...rowsOf("old", 0.5)];

Deno.test("storedRepeatsReport() compares with the kept baseline, or with the first arm when none was kept, or the two arms asked", () => {
  const options = { runId: "r1", metrics: ["m"], resamples: 50 };
  const deltas = (kept: object, arms?: readonly [string, string]) =>
    storedRepeatsReport(kept as typeof KEPT, ROWS, { ...options, ...(arms && { arms }) })!
      .comparisons.map((c) => [...c.arms, c.reduced!.delta]);
  const fromBase = [["base", "new", 0.5], ["base", "old", 0.25]];
  deepStrictEqual(deltas(KEPT), fromBase);
  const fromOld = [["old", "base", -0.25], ["old", "new", 0.25]];
  deepStrictEqual(deltas({ ...KEPT, baseline: "old" }), fromOld);
  // A run stored before its baseline was kept: its first arm in code-point order.
  deepStrictEqual(deltas({ ...KEPT, baseline: null }), fromBase);
  deepStrictEqual(deltas({ ...KEPT, baseline: undefined }), fromBase);
  deepStrictEqual(deltas(KEPT, ["new", "old"]), [["new", "old", -0.25]]);
  strictEqual(storedRepeatsReport({ ...KEPT, repeats: null }, ROWS, options), null);
});

Deno.test("storedRepeatsReport() checks the shape of what was kept, naming the field, before it reads any", () => {
  const options = { runId: "r1", metrics: ["m"], resamples: 50 };
  const malformed = (what: string) => ({
    name: "TypeError",
    message: `run r1 has a malformed repeats column (${what})`,
  });
  const notObject = "the kept repeats are not an object {repeats, clusters, goldens?, baseline?}";
  const cases: [unknown, string][] = [
    [null, notObject],
    [undefined, notObject],
    ["kept", notObject],
    [[KEPT], notObject],
    [{ ...KEPT, clusters: undefined }, "clusters are not [golden id, key] pairs"],
    [{ ...KEPT, clusters: "g1" }, "clusters are not [golden id, key] pairs"],
    [{ ...KEPT, clusters: { g1: "string:a" } }, "clusters are not [golden id, key] pairs"],
    [
      { ...KEPT, clusters: [["g1"], ["g2", "number:2"]] },
      "clusters are not [golden id, key] pairs",
    ],
    [{ ...KEPT, clusters: [["g1", "string:a", "x"]] }, "clusters are not [golden id, key] pairs"],
    [{ ...KEPT, clusters: [["g1", 1]] }, "clusters are not [golden id, key] pairs"],
    [{ ...KEPT, clusters: [null] }, "clusters are not [golden id, key] pairs"],
    [{ ...KEPT, goldens: 5 }, "goldens are not golden ids"],
    [{ ...KEPT, goldens: "g1" }, "goldens are not golden ids"],
    [{ ...KEPT, goldens: ["g1", 2] }, "goldens are not golden ids"],
    [{ ...KEPT, baseline: 7 }, "baseline is not an arm"],
    [{ ...KEPT, baseline: ["base"] }, "baseline is not an arm"],
    // A suite without repeats keeps nothing else: the shape is checked all the same.
    [{ ...KEPT, repeats: null, goldens: {} }, "goldens are not golden ids"],
  ];
  for (const [kept, what] of cases) {
    throws(
      () => storedRepeatsReport(kept as typeof KEPT, ROWS, options),
      malformed(what),
      JSON.stringify(kept),
    );
  }
  // Null and absent where KeptRepeats allows them.
  const report = (kept: object) => storedRepeatsReport(kept as typeof KEPT, ROWS, options);
  ok(report({ ...KEPT, repeats: { n: 2, reducer: "mean" }, clusters: null }));
  ok(report({ repeats: { n: 2, reducer: "mean" }, clusters: null }));
  ok(report({ ...KEPT, goldens: null, baseline: null }));
});

Deno.test("storedRepeatsReport() names the run in what it refuses", () => {
  const options = { runId: "r1", metrics: ["m"], resamples: 50 };
  const refuse = (kept: object, name: string, message: string, rows = ROWS) =>
    throws(() => storedRepeatsReport(kept as typeof KEPT, rows, options), { name, message });
  refuse(
    { ...KEPT, repeats: { n: 0, reducer: "mean" } },
    "RangeError",
    "run r1 has a malformed repeats column (n: Expected an integer ≥ 1, got 0)",
  );
  refuse(
    { ...KEPT, repeats: "mean" },
    "RangeError",
    "run r1 has a malformed repeats column (Expected an object: {n, reducer, k?})",
  );
  refuse(
    { ...KEPT, clusters: [["g1", "string:a"]] },
    "RangeError",
    'run r1: Golden "g2" has runs but no cluster key',
  );
  refuse(
    { ...KEPT, baseline: "nope" },
    "RangeError",
    'run r1: The baseline arm "nope" has no runs',
  );
  refuse(KEPT, "TypeError", "run r1: rows must be an array of score rows", {} as ScoreRow[]);
});
