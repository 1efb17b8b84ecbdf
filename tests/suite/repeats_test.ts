// Repeat reducers: the suite file's `repeats` checked with its position, each reducer on its own,
// and the reduction of a run's results per (arm, golden).
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import {
  loadSuite,
  meanUncertainty,
  reduceRepeats,
  reduceRuns,
  runOverall,
  type RunResult,
  SuiteError,
} from "../../src/suite/mod.ts";
import { passAtK, passHatK } from "../../src/stats/mod.ts";
import { run } from "./_run_results.ts";

Deno.test("loadSuite() reads repeats and places each problem at its line and column", () => {
  const suite = loadSuite(
    "repeats: {n: 3, reducer: pass_at_k, k: 2}\nmetrics:\n  - type: hit_limit\n",
  );
  assertEquals(suite.repeats, { n: 3, reducer: "pass_at_k", k: 2 });
  const bad = "metrics:\n  - type: hit_limit\nrepeats:\n  n: 0\n  reducer: pas_at_k\n  k: 9\n";
  throws(() => loadSuite(bad, { source: "s.yaml" }), (e: unknown) => {
    ok(e instanceof SuiteError);
    assertEquals(e.issues.map((i) => `${i.source}:${i.line}:${i.column}: ${i.field}`), [
      "s.yaml:4:6: repeats.n",
      "s.yaml:5:12: repeats.reducer",
    ]);
    assertEquals(e.issues[1]!.suggestion, "pass_at_k");
    return true;
  });
  throws(
    () => loadSuite("repeats: {n: 2, reducer: mean, k: 1}\nmetrics: [{type: hit_limit}]\n"),
    /takes no k/,
  );
  throws(
    () => loadSuite("repeats: {n: 2, reducer: at_least_k}\nmetrics: [{type: hit_limit}]\n"),
    /needs k/,
  );
  throws(
    () => loadSuite("repeats: {n: 2, reducer: max, runs: 1}\nmetrics: [{type: hit_limit}]\n"),
    /Unknown field "runs"/,
  );
});

Deno.test("loadSuite() suggests a misspelt repeats field, says a missing reducer is missing, and blames no k on an unknown reducer", () => {
  const reducers = "reducers: mean, median, mode, max, at_least_k, pass_at_k, pass_hat_k";
  const fields = "fields: n, reducer, k, cluster, baseline";
  const cases: [string, string[]][] = [
    // Was: no did-you-mean, and "Unknown reducer undefined".
    ["{n: 3, reducr: mean}", [
      `s.yaml:1:10: repeats: Missing field "reducer" (${reducers})`,
      `s.yaml:1:17: repeats.reducr: Unknown field "reducr" (${fields}) (did you mean "reducer"?)`,
    ]],
    ["{n: 3}", [`s.yaml:1:10: repeats: Missing field "reducer" (${reducers})`]],
    ["{reducer: mean}", ['s.yaml:1:10: repeats: Missing field "n" (an integer ≥ 1)']],
    ["{n: 3, reducer: mean, kk: 2}", [
      `s.yaml:1:32: repeats.kk: Unknown field "kk" (${fields}) (did you mean "k"?)`,
    ]],
    ["{n: 3, reducer: mean, zzzzzz: 2}", [
      `s.yaml:1:32: repeats.zzzzzz: Unknown field "zzzzzz" (${fields})`,
    ]],
    // Was: a second error, 'The reducer "pass_at_kk" takes no k'.
    ["{n: 3, reducer: pass_at_kk, k: 2}", [
      `s.yaml:1:26: repeats.reducer: Unknown reducer "pass_at_kk" (${reducers}) ` +
      '(did you mean "pass_at_k"?)',
    ]],
    // A k of the wrong kind is still named, whatever the reducer.
    ["{n: 3, reducer: pass_at_kk, k: 0}", [
      `s.yaml:1:26: repeats.reducer: Unknown reducer "pass_at_kk" (${reducers}) ` +
      '(did you mean "pass_at_k"?)',
      "s.yaml:1:41: repeats.k: Expected an integer ≥ 1, got 0",
    ]],
  ];
  for (const [repeats, want] of cases) {
    const text = `repeats: ${repeats}\nmetrics: [{type: hit_limit}]\n`;
    throws(() => loadSuite(text, { source: "s.yaml" }), (e: unknown) => {
      ok(e instanceof SuiteError);
      assertEquals(e.message.split("\n"), want, repeats);
      return true;
    });
  }
});

Deno.test("reduceRuns() gives each reducer's value, null when fewer than k runs", () => {
  const scores = [0.2, 0.9, 0.9, 0.4], passes = scores.map((s) => s >= 0.5);
  const r = (reducer: string, k?: number) =>
    reduceRuns(scores, passes, { n: 4, reducer, ...(k !== undefined && { k }) } as never);
  assertEquals(r("mean"), 0.6);
  assertEquals(r("median"), 0.65);
  assertEquals(r("mode"), 0.9);
  assertEquals(r("max"), 0.9);
  assertEquals(r("at_least_k", 2), 1);
  assertEquals(r("at_least_k", 3), 0);
  assertEquals(r("pass_at_k", 2), passAtK(4, 2, 2));
  assertEquals(r("pass_hat_k", 2), passHatK(4, 2, 2));
  assertEquals(reduceRuns([0.1, 0.3], [false, false], { n: 2, reducer: "mode" }), 0.1);
  for (const reducer of ["pass_at_k", "pass_hat_k", "at_least_k"] as const) {
    assertEquals(reduceRuns([1, 1], [true, true], { n: 3, reducer, k: 3 }), null, reducer);
  }
  assertEquals(reduceRuns([], [], { n: 3, reducer: "mean" }), null);
  throws(() => reduceRuns([1], [true], { n: 1, reducer: "pass_at_k" }), /needs k/);
});

Deno.test("reduceRepeats() reduces per arm and golden, leaving incomplete runs out", () => {
  const results = [
    run("g2", "base", 0, 1),
    run("g1", "base", 1, 0),
    run("g1", "base", 0, 1),
    run("g1", "base", 2, null),
    run("g1", "adapter", 0, 1),
  ];
  const reduced = reduceRepeats(results, { n: 3, reducer: "pass_at_k", k: 2 });
  assertEquals(reduced, [
    {
      arm: "adapter",
      goldens: [{ golden_id: "g1", runs: 1, scored: 1, passes: 1, value: null }],
      mismatched: ["g1"],
      not_computable: 1,
    },
    {
      arm: "base",
      goldens: [
        { golden_id: "g1", runs: 3, scored: 2, passes: 1, value: 1 },
        { golden_id: "g2", runs: 1, scored: 1, passes: 1, value: null },
      ],
      mismatched: ["g2"],
      not_computable: 1,
    },
  ]);
});

Deno.test("reduceRepeats() counts an incomplete run with a pass verdict in the pass reducers, not in the score reducers", () => {
  // Threshold 0.6, three criteria: with the judge j failed, a run lies between (a + b) / 3 and
  // (a + b + 1) / 3, and has a pass verdict when both sides of 0.6 agree (runOverall).
  const scored = (repeat: number, a: number, b: number, j: number | null): RunResult => {
    const at = { golden_id: "g1", arm: "base", repeat, applicable: true, threshold: 0.6 };
    const criteria = [
      { ...at, metric: "a", score: a },
      { ...at, metric: "b", score: b },
      { ...at, metric: "j", score: j },
    ];
    return {
      golden_id: "g1",
      arm: "base",
      repeat,
      criteria,
      overall: runOverall(criteria, ["a", "b", "j"]),
    };
  };
  const results = [
    scored(0, 1, 1, 1), //    complete, 1: passes
    scored(1, 0, 0, 0), //    complete, 0: fails
    scored(2, 0, 0, null), // at most 1/3: fails whatever the judge says
    scored(3, 1, 0, null), // from 1/3 to 2/3: no verdict
    scored(4, 1, 1, null), // at least 2/3: passes whatever the judge says
  ];
  assertEquals(results.map((r) => r.overall.pass), [true, false, false, null, true]);
  const golden = (reducer: "pass_at_k" | "pass_hat_k" | "at_least_k" | "mean" | "max") =>
    reduceRepeats(results, { n: 5, reducer, ...(reducer.endsWith("_k") && { k: 2 }) })[0]!
      .goldens[0]!;
  // The pass reducers read the 4 runs with a verdict, 2 passing (before: 2 complete, 1 passing,
  // and pass@2 was 1).
  assertEquals(golden("pass_at_k"), {
    golden_id: "g1",
    runs: 5,
    scored: 4,
    passes: 2,
    value: passAtK(4, 2, 2),
  });
  assertEquals([golden("pass_hat_k").value, golden("at_least_k").value], [passHatK(4, 2, 2), 1]);
  // The score reducers read the overall scores of the complete runs only.
  assertEquals(golden("mean"), { golden_id: "g1", runs: 5, scored: 2, passes: 1, value: 0.5 });
  assertEquals(golden("max").value, 1);
});

Deno.test("reduceRepeats() lists a golden with no run in an arm as mismatched, given the run's goldens", () => {
  const results = [run("g1", "base", 0, 1), run("g2", "adapter", 0, 1)];
  const reduced = reduceRepeats(results, { n: 1, reducer: "mean" }, ["g1", "g2", "g0"]);
  assertEquals(reduced.map((a) => [a.arm, a.goldens.map((g) => g.golden_id), a.mismatched]), [
    ["adapter", ["g2"], ["g0", "g1"]],
    ["base", ["g1"], ["g0", "g2"]],
  ]);
});

Deno.test("reduceRuns() and meanUncertainty() take 200,000 values without overflowing the stack", () => {
  // Math.max(...xs) and Math.min(...xs) pass every value as an argument: past about 125,000 the
  // call overflowed the stack (a suite run with many goldens in an arm exited 2 blaming them).
  const n = 200_000;
  const scores = Array.from({ length: n }, (_, i) => (i % 7) / 8);
  assertEquals(reduceRuns(scores, scores.map(() => true), { n, reducer: "max" }), 0.75);
  const u = meanUncertainty(scores);
  ok(u.mean !== null && Math.abs(u.mean - scores.reduce((a, b) => a + b, 0) / n) < 1e-12);
  ok(u.clt !== null);
});
