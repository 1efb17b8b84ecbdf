// storedRepeatsInputs() and clusterKeys(): a stored run's repeats section equals the live run's,
// byte for byte as JSON, on 280 seeded random suite runs (every reducer, with and without a
// cluster field); and what it refuses.
import { deepStrictEqual as assertEquals, ok, strictEqual, throws } from "node:assert/strict";
import {
  clusterKeys,
  loadSuite,
  repeatsReport,
  runSuite,
  type ScoreRow,
  storedRepeatsInputs,
  suiteChecks,
  suiteRunReport,
} from "../../src/suite/mod.ts";
import { fakeJudge, randomSuiteRun, REDUCER_CASES } from "./_random_suite_runs.ts";
import { makeRng, shuffled } from "../_corpus.ts";

const PER_CASE = 20;

Deno.test("storedRepeatsInputs() gives repeatsReport the live run's repeats section on 280 seeded random suite runs", async () => {
  const seen = {
    incomplete: 0,
    unscored: 0,
    notComputable: 0,
    mismatched: 0,
    clustered: 0,
    comparisons: 0,
  };
  let cases = 0;
  for (const [reducer, cluster] of REDUCER_CASES) {
    for (let i = 0; i < PER_CASE; i++) {
      const seed = 1000 * cases + i;
      const input = randomSuiteRun(seed, reducer, cluster);
      const suite = loadSuite(input.suiteText, { format: "jsonc", ...suiteChecks() });
      const results = await runSuite(suite, input, { judge: fakeJudge });
      const live = suiteRunReport(suite, results, input.goldens, {
        suiteSha256: "0".repeat(64),
        seed: input.seed,
        resamples: input.resamples,
      }).repeats!;
      // What the store keeps, read back: the flat rows (in another order), the metric order,
      // the repeats block and the cluster keys, as JSON text.
      const kept = results.flatMap((r) => r.criteria).map((c): ScoreRow => {
        const { details: _, prompt_sha256: _p, judge_model: _j, cached: _c, ...row } = c;
        return row;
      });
      const rows = shuffled(makeRng(seed), kept);
      const repeats = JSON.parse(JSON.stringify(suite.repeats));
      const clusters = cluster
        ? JSON.parse(JSON.stringify([...clusterKeys(input.goldens, "topic")]))
        : undefined;
      const rebuilt = storedRepeatsInputs(rows, {
        metrics: suite.metrics.map((m) => m.name),
        ...(cluster && { cluster: "topic", clusters }),
        goldens: input.goldens.map((g) => g.id),
      });
      const stored = repeatsReport(rebuilt.results, rebuilt.goldens, repeats, {
        seed: input.seed,
        resamples: input.resamples,
      });
      strictEqual(JSON.stringify(stored), JSON.stringify(live), `case ${reducer} ${cluster} ${i}`);
      cases++;
      const statuses = results.map((r) => r.overall.status);
      seen.incomplete += statuses.filter((s) => s === "incomplete").length;
      seen.unscored += statuses.filter((s) => s === "unscored").length;
      seen.notComputable += live.arms.reduce((a, x) => a + x.not_computable, 0);
      seen.mismatched += live.arms.reduce((a, x) => a + x.mismatched.length, 0);
      seen.clustered += live.arms.filter((a) => a.clustered !== null).length;
      seen.comparisons += live.comparisons.length;
    }
  }
  strictEqual(cases, 280);
  // The cases reach what the rebuild must get right: judge errors, runs where nothing applies,
  // goldens not computable or with other than n runs, clustered standard errors, comparisons.
  for (const [what, count] of Object.entries(seen)) ok(count > 20, `${what}: ${count}`);
});

/** A stored row of run (g1, a, 0) for metric m, scored 1 at threshold 0.5, with `fields`. */
function row(fields: Partial<ScoreRow>): ScoreRow {
  const base = { golden_id: "g1", arm: "a", repeat: 0, metric: "m", threshold: 0.5 };
  return { ...base, score: 1, applicable: true, ...fields };
}

Deno.test("clusterKeys() keys a golden's value by type and text, and storedRepeatsInputs() gives it back", () => {
  const values = ["3", 3, 0.1, -2, 1e21, 5e-324, -1.5e-7, "", "a:b", "number:3"];
  const goldens = values.map((topic, i) => ({ id: `g${i}`, question: "?", topic }));
  const keys = clusterKeys(goldens, "topic");
  assertEquals(keys.get("g0"), "string:3");
  assertEquals(keys.get("g1"), "number:3");
  assertEquals(keys.get("g9"), "string:number:3");
  const rows = goldens.map((g) => row({ golden_id: g.id }));
  const rebuilt = storedRepeatsInputs(rows, { metrics: ["m"], cluster: "topic", clusters: keys });
  assertEquals(rebuilt.goldens.map((g) => (g as unknown as { topic: unknown }).topic), values);
  assertEquals(clusterKeys(rebuilt.goldens, "topic"), keys);
  throws(() => clusterKeys([{ id: "g", question: "?" }], "topic"), /Golden "g" has no topic/);
  // No goldens file holds an infinity: none is keyed.
  const infinite = { id: "g", question: "?", topic: Infinity };
  throws(() => clusterKeys([infinite], "topic"), {
    name: "SuiteInputError",
    message: 'goldens[0] (id "g"): topic is Infinity, which JSON cannot hold',
  });
});

Deno.test("storedRepeatsInputs() recomputes each run's overall with runOverall, in metric order", () => {
  const { results, goldens } = storedRepeatsInputs(
    [
      row({ repeat: 2, metric: "second", score: 0.5, threshold: 0.1 }),
      row({ repeat: 2, metric: "third", score: null, applicable: false, threshold: 0.1 }),
      row({ repeat: 2, metric: "first", threshold: 0.7 }),
    ],
    { metrics: ["first", "second", "third"] },
  );
  // Without `goldens` or a cluster, one golden per golden of the rows, which repeatsReport takes
  // (it refuses a run of none of its goldens).
  assertEquals(goldens, [{ id: "g1", question: "" }]);
  strictEqual(repeatsReport(results, goldens, { n: 1, reducer: "mean" }).arms[0]!.mean, 0.75);
  assertEquals(results.length, 1);
  assertEquals(results[0]!.criteria.map((c) => c.metric), ["first", "second", "third"]);
  assertEquals(results[0]!.overall, {
    status: "complete",
    overall: 0.75,
    pass: true,
    threshold: 0.7,
    n_applicable: 2,
    n_scored: 2,
    errored: [],
  });
});

Deno.test("storedRepeatsInputs() refuses rows and cluster keys a store does not write", () => {
  const of = (golden_id: string, metric = "m") => row({ golden_id, metric });
  const opts = { metrics: ["m"], cluster: "topic" };
  throws(() => storedRepeatsInputs([of("g1")], opts), /clusters are required/);
  throws(
    () => storedRepeatsInputs([of("g1")], { ...opts, clusters: [["g1", "number:03"]] }),
    /Golden "g1" has a malformed cluster key "number:03"/,
  );
  throws(
    () => storedRepeatsInputs([of("g1")], { ...opts, clusters: [["g1", "sales"]] }),
    /malformed cluster key "sales"/,
  );
  // No golden holds NaN or an infinity (clusterKeys refuses them): a store that gives one back
  // holds what no writer put there, refused as its key, not later as a golden's NaN.
  for (const key of ["number:NaN", "number:Infinity", "number:-Infinity"]) {
    throws(
      () => storedRepeatsInputs([of("g1")], { ...opts, clusters: [["g1", key]] }),
      { name: "RangeError", message: `Golden "g1" has a malformed cluster key "${key}"` },
    );
  }
  throws(
    () =>
      storedRepeatsInputs([of("g1")], {
        ...opts,
        clusters: [["g1", "string:a"], ["g1", "string:b"]],
      }),
    /Golden "g1" has two cluster keys/,
  );
  throws(
    () => storedRepeatsInputs([of("g1"), of("g2")], { ...opts, clusters: [["g1", "string:a"]] }),
    /Golden "g2" has runs but no cluster key/,
  );
  throws(() => storedRepeatsInputs([of("g1", "x")], { metrics: ["m"] }), /not in metrics/);
  throws(() => storedRepeatsInputs([of("g1"), of("g1")], { metrics: ["m"] }), /two rows/);
});
