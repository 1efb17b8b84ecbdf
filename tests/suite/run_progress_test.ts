// runSuite's onRun (src/suite/run.ts): it counts every run as it is scored, so that a caller can
// show progress on a long run (100,000 traces without judges take minutes, all of it before the
// first await); the counts do not change the results; and an input a deterministic metric refuses
// stops the run before any judge is called.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import {
  type Golden,
  type Judge,
  loadSuite,
  RunInputError,
  runSuite,
  suiteChecks,
  type Trace,
} from "../../src/suite/mod.ts";
import { fakeJudge, randomSuiteRun, REDUCER_CASES } from "./_random_suite_runs.ts";

Deno.test("onRun counts each run once, 1 to n of n, and leaves the results as they are", async () => {
  let cases = 0;
  for (const [reducer, cluster] of REDUCER_CASES) {
    for (let i = 0; i < 4; i++) {
      const input = randomSuiteRun(9100 + 10 * cases++ + i, reducer, cluster);
      const suite = loadSuite(input.suiteText, { format: "jsonc", ...suiteChecks() });
      for (const options of [{ noJudge: true }, { judge: fakeJudge }]) {
        const calls: [number, number][] = [];
        const counted = await runSuite(suite, input, {
          ...options,
          onRun: (done, total) => calls.push([done, total]),
        });
        const n = input.traces.length;
        deepStrictEqual(calls, Array.from({ length: n }, (_, k) => [k + 1, n]));
        deepStrictEqual(counted, await runSuite(suite, input, options));
      }
    }
  }
  ok(cases >= 4);
});

Deno.test("without judges, each run is counted as soon as it is scored, before runSuite returns", async () => {
  const input = randomSuiteRun(9201, "mean", true);
  const suite = loadSuite(input.suiteText, { format: "jsonc", ...suiteChecks() });
  let counted = 0;
  // The scoring takes no await: a count that waited for one would come after all the work.
  const running = runSuite(suite, input, { noJudge: true, onRun: () => counted++ });
  strictEqual(counted, input.traces.length);
  await running;
});

Deno.test("a run waiting on its judge is counted once the judge has scored it", async () => {
  const input = randomSuiteRun(9301, "mean", false);
  const suite = loadSuite(
    JSON.stringify({
      name: "judged",
      metrics: [{ type: "hit_limit" }, {
        type: "llm_judge",
        name: "j",
        params: { criteria: "c", evaluation_params: ["final_answer"] },
      }],
    }),
    { format: "jsonc", ...suiteChecks() },
  );
  let scored = 0;
  const judge: Judge = {
    async score(metric, context) {
      const s = await fakeJudge.score(metric, context);
      scored++;
      return s;
    },
  };
  const seen: number[] = [];
  await runSuite(suite, input, { judge, onRun: (done) => seen.push(scored - done) });
  // Each run has one judged metric: when the k-th run is counted, at least k judgements are in.
  strictEqual(seen.length, input.traces.length);
  ok(seen.every((d) => d >= 0), JSON.stringify(seen));
});

Deno.test("an input a deterministic metric refuses stops the run before any judge is called", async () => {
  const suite = loadSuite(
    JSON.stringify({
      name: "judged",
      metrics: [
        { type: "llm_judge", name: "j", params: { criteria: "c", evaluation_params: ["input"] } },
        { type: "trajectory_match", params: { trajectory: "unordered" } },
      ],
    }),
    { format: "jsonc", ...suiteChecks() },
  );
  const trace = (golden_id: string): Trace => ({
    golden_id,
    arm: "base",
    repeat: 0,
    tool_calls: [],
    sql: [],
    final_rows: null,
    final_answer: "42",
    submitted: true,
    hit_turn_limit: false,
  });
  let calls = 0;
  const judge: Judge = {
    score(metric, context) {
      calls++;
      return fakeJudge.score(metric, context);
    },
  };
  // g1's run comes first and is fine; g2's reference trajectory has a call without a name.
  // (Typed loosely, as a payload is: TypeScript would refuse the call without its name.)
  const goldens: Golden[] = JSON.parse(
    '[{"id": "g1", "question": "q", "reference_trajectory": [{"name": "f", "arguments": {}}]},' +
      '{"id": "g2", "question": "q", "reference_trajectory": [{"arguments": {}}]}]',
  );
  const error = await runSuite(
    suite,
    { goldens, traces: [trace("g2"), trace("g1")], catalog: { views: [] } },
    { judge },
  ).catch((e) => e);
  ok(error instanceof RunInputError, String(error));
  ok(error.message.startsWith('Golden "g2"'), error.message);
  strictEqual(calls, 0);
  // The same suite on good inputs calls the judge for each run.
  await runSuite(suite, {
    goldens: [goldens[0]!, { ...goldens[0]!, id: "g2" }],
    traces: [trace("g2"), trace("g1")],
    catalog: { views: [] },
  }, { judge });
  strictEqual(calls, 2);
});

Deno.test("a promise onRun returns is awaited before runSuite returns, and its rejection is the run's", async () => {
  // An async onRun that threw was an unhandled rejection: the process died.
  const input = randomSuiteRun(9501, "mean", false);
  const suite = loadSuite(input.suiteText, { format: "jsonc", ...suiteChecks() });
  for (const options of [{ noJudge: true }, { judge: fakeJudge }]) {
    let settled = 0;
    await runSuite(suite, input, {
      ...options,
      onRun: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        settled++;
      },
    });
    strictEqual(settled, input.traces.length);
    await rejects(
      runSuite(suite, input, {
        ...options,
        onRun: async (done) => {
          await Promise.resolve();
          if (done === 1) throw new Error("async onRun");
        },
      }),
      { message: "async onRun" },
    );
  }
});

Deno.test("onRun that is not a function is refused", async () => {
  const input = randomSuiteRun(9401, "mean", false);
  const suite = loadSuite(input.suiteText, { format: "jsonc", ...suiteChecks() });
  await rejects(
    // @ts-expect-error: not a function
    runSuite(suite, input, { noJudge: true, onRun: 1 }),
    { name: "TypeError", message: "Option onRun must be a function" },
  );
});
