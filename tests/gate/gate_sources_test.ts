// The gate over suite runs and calibrations: on seeded random suite runs, a `min` rule reads the
// very numerator and denominator the scorecard reports, per arm and per metric; comparative rules
// pair goldens within arms (repeats pooled), whole counts and fractional scores alike; a
// calibration's statistics take min and max only.
import { deepStrictEqual, match, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { evaluateGate, metricSource, parseGateRules } from "../../src/gate/mod.ts";
import { ComparisonGateError, scoreToolCalls } from "../../mod.ts";
import { calibrationReport, loadSuite, runSuite, suiteRunReport } from "../../src/suite/mod.ts";
import { suiteRun } from "./_suite_runs.ts";
import { bfclReportOf, IFEVAL_FIELDS } from "../report_check/_complete.ts";

const gate = (yaml: string) => parseGateRules(`seed: 3\nresamples: 500\nrules:\n${yaml}`, "g.yaml");

Deno.test("evaluateGate() min on a suite run reads the scorecard's figures, per arm and metric", () => {
  let checked = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const report = suiteRun(seed, 3 + (seed % 9), 1 + (seed % 3));
    const source = metricSource(report);
    deepStrictEqual(source.slices, ["overall", "a", "b"]);
    for (const arm of report.scorecard.arms) {
      const estimates: [string, { numerator: number; denominator: number }][] = [
        ["pass_rate", arm.pass_rate],
        ["overall_score", arm.overall],
        ...arm.metrics.map((m) => [m.metric, m.mean] as [string, typeof m.mean]),
      ];
      for (const [metric, e] of estimates) {
        const shares = source.shares(metric, arm.arm);
        const num = shares.reduce((s, x) => s + x.num, 0);
        const den = shares.reduce((s, x) => s + x.den, 0);
        strictEqual(den, e.denominator, `${seed} ${arm.arm} ${metric}`);
        // Whole counts are exact; this sum of the shares' numerators may differ from the
        // scorecard's exact one in the last bit (the gate pools them exactly, as
        // tests/gate/pooled_delta_test.ts checks through a min rule).
        ok(Math.abs(num - e.numerator) <= 1e-12 * Math.max(1, e.numerator), `${seed} ${metric}`);
        if (metric === "pass_rate" || metric === "exact") strictEqual(num, e.numerator);
        checked++;
      }
    }
  }
  ok(checked >= 400);
});

Deno.test("evaluateGate() on suite runs: min per arm, comparisons by golden within arms", () => {
  const base = suiteRun(7, 30, 1);
  const candidate = suiteRun(8, 30, 1, 0.3);
  const v = evaluateGate(
    gate(
      "  - metric: exact\n    slice: b\n    min: 0.99\n" +
        "  - metric: exact\n    max_regressions: 0\n" +
        "  - metric: pass_rate\n    slice: a\n    non_inferior: { margin: 0.5 }\n",
    ),
    { base, candidate },
  );
  const wrongB = candidate.runs.filter((r) => r.arm === "b" && r.criteria[0]!.score === 0)
    .map((r) => `${r.golden_id}@b`);
  deepStrictEqual(v.rules[0]!.failing, wrongB);
  const regressions = base.runs.filter((r, i) =>
    r.criteria[0]!.score === 1 && candidate.runs[i]!.criteria[0]!.score === 0
  ).map((r) => `${r.golden_id}@${r.arm}`);
  ok(regressions.length > 0);
  deepStrictEqual(v.rules[1]!.failing, regressions);
  strictEqual(v.rules[1]!.mcnemar!.regressions, regressions.length);
  ok(v.rules[2]!.message.startsWith("delta "));
  // Fractional scores are resampled with exact pooled sums (tests/gate/pooled_delta_test.ts),
  // not as whole counts (which would truncate them).
  const fractional = evaluateGate(
    gate("  - metric: overall_score\n    non_inferior: { margin: 0.1 }\n"),
    { base, candidate },
  );
  match(fractional.rules[0]!.message, /^delta -?\d\.\d+, 95% interval \[/);
  // Three repeats pool into one unit per golden and arm: no longer right-or-wrong.
  throws(
    () =>
      evaluateGate(gate("  - metric: exact\n    max_regressions: 1\n"), {
        base: suiteRun(7, 5, 3),
        candidate: suiteRun(8, 5, 3),
      }),
    /line 4 \(its check at line 5, column 5\): max_regressions needs a right-or-wrong metric.*repeats are pooled/,
  );
  const named = suiteRun(1, 2, 1);
  named.scorecard.metrics = ["pass_rate"];
  throws(() => metricSource(named), /a metric named "pass_rate"/);
});

Deno.test("evaluateGate() on a calibration: min and max on its statistics, nothing comparative", () => {
  const cal = { schema: "assay.calibration.v1", kappa: 0.5, mae: 0.2, pearson: null };
  const v = evaluateGate(
    gate(
      "  - metric: kappa\n    min: 0.5\n  - metric: kappa\n    min: 0.51\n" +
        "  - metric: mae\n    max: 0.2\n  - metric: mae\n    max: 0.19\n" +
        "  - metric: pearson\n    min: 0\n",
    ),
    { report: cal },
  );
  deepStrictEqual(v.rules.map((r) => [r.pass, r.message]), [
    [true, "0.5000, needs >= 0.5"],
    [false, "0.5000, needs >= 0.51"],
    [true, "0.2000, needs <= 0.2"],
    [false, "0.2000, needs <= 0.19"],
    [false, "cannot be computed, needs >= 0"],
  ]);
  throws(
    () =>
      evaluateGate(gate("  - metric: agreement\n    superior: true\n"), {
        base: cal,
        candidate: cal,
      }),
    /line 4 \(its check at line 5, column 5\): an assay.calibration.v1 report's agreement is a statistic of the whole report/,
  );
  throws(
    () => evaluateGate(gate("  - metric: accuracy\n    min: 0\n"), { report: cal }),
    /"accuracy", which an assay.calibration.v1 report does not have/,
  );
});

Deno.test("evaluateGate() max holds at the bound and fails above it, on any report kind", () => {
  const bfcl = bfclReportOf(
    [true, true, false, true].map((valid, i) => ({
      category: "simple",
      id: i,
      valid,
      entryId: `simple_${i}`,
      errorType: null,
      error: null,
    })),
    [{ category: "simple" }],
  );
  const rule = (t: number) => gate(`  - metric: accuracy\n    max: ${t}\n`);
  strictEqual(evaluateGate(rule(0.75), { report: bfcl }).rules[0]!.pass, true);
  const v = evaluateGate(rule(0.7), { report: bfcl });
  deepStrictEqual([v.pass, v.rules[0]!.message], [false, "0.7500 (3/4), needs <= 0.7"]);
  throws(() => gate("  - metric: mae\n    max: 2\n"), /max must be a number in \[0, 1\]/);
});

Deno.test("evaluateGate() reads the library's own suite runs and calibrations", async () => {
  const suite = loadSuite("- type: hit_limit\n- type: step_efficiency\n");
  const trace = (golden_id: string, arm: string, hit: boolean) => ({
    golden_id,
    arm,
    repeat: 0,
    tool_calls: [],
    sql: [],
    final_rows: null,
    final_answer: null,
    submitted: !hit,
    hit_turn_limit: hit,
  });
  const goldens = [{ id: "g1", question: "?" }, { id: "g2", question: "?" }];
  const runs = await runSuite(suite, {
    goldens,
    traces: [trace("g1", "a", true), trace("g2", "a", false)],
    catalog: { views: [] },
  }, { noJudge: true });
  const report = suiteRunReport(suite, runs, goldens, { suiteSha256: "0".repeat(64) });
  const v = evaluateGate(gate("  - metric: hit_limit\n    slice: a\n    min: 0.5\n"), { report });
  strictEqual(v.rules[0]!.message, "0.5000 (1/2), needs >= 0.5");
  strictEqual(report.scorecard.arms[0]!.metrics[0]!.mean.value, 0.5);
  const pairs = [0.9, 0.2, 0.8, 0.4].map((judge, i) => ({ judge, human: i % 2 ? 0 : 1 }));
  const cv = evaluateGate(gate("  - metric: agreement\n    min: 1\n"), {
    report: calibrationReport(pairs, { minN: 1 }),
  });
  deepStrictEqual([cv.pass, cv.rules[0]!.message], [true, "1, needs >= 1"]);
});

Deno.test("evaluateGate() never passes a rule with nothing to measure, and lists only counted units", () => {
  const report = suiteRun(5, 6, 1);
  // No judge ran: `judged` counts nowhere.
  for (const r of report.runs) {
    const c = r.criteria[2]!;
    c.score = null;
    r.criteria[1]!.applicable = r.golden_id !== "g00"; // `graded` skips g00
    r.criteria[0]!.score = r.golden_id === "g00" || r.golden_id === "g01" ? 0 : 1;
  }
  for (const r of report.runs) r.criteria[1]!.score = r.criteria[1]!.applicable ? 0 : null;
  const v = evaluateGate(
    gate(
      "  - metric: judged\n    min: 0\n  - metric: judged\n    max: 1\n" +
        "  - metric: exact\n    min: 1\n",
    ),
    { report },
  );
  deepStrictEqual(v.rules.map((r) => [r.pass, r.message]).slice(0, 2), [
    [false, "nothing to measure in the report (0/0)"],
    [false, "nothing to measure in the report (0/0)"],
  ]);
  deepStrictEqual(v.rules[2]!.failing, ["g00@a", "g00@b", "g01@a", "g01@b"]);
  // `graded` is 0 wherever it applies: its failing units leave out g00, where it does not.
  const g = evaluateGate(gate("  - metric: graded\n    min: 0.5\n"), { report });
  deepStrictEqual(g.rules[0]!.failing, [
    "g01@a",
    "g01@b",
    "g02@a",
    "g02@b",
    "g03@a",
    "g03@b",
    "g04@a",
    "g04@b",
    "g05@a",
    "g05@b",
  ]);
  const ni = evaluateGate(gate("  - metric: judged\n    non_inferior: { margin: 1 }\n"), {
    base: report,
    candidate: suiteRun(6, 6, 1),
  });
  deepStrictEqual([ni.pass, ni.rules[0]!.message], [false, "nothing to measure in the base (0/0)"]);
});

Deno.test("evaluateGate() refuses a report that repeats an example id, which pairing by id would mispair", () => {
  // Two identical runs of two prompts under one key: paired by id, the base's first prompt met
  // the candidate's second and the gate found a regression that is not there.
  const prompts = [
    {
      key: 7,
      instruction_id_list: ["a", "b", "c"],
      strict: [true, true, false],
      loose: [true, true, false],
    },
    {
      key: 7,
      instruction_id_list: ["a", "b", "c"],
      strict: [false, false, false],
      loose: [false, false, false],
    },
  ];
  const report = { schema: "assay.ifeval.v1", ...IFEVAL_FIELDS, prompts };
  const rules = gate(`  - metric: instruction_strict\n    non_inferior: { margin: 0.1 }\n`);
  for (
    const [base, candidate, side] of [
      [report, { ...report, prompts: [prompts[0], { ...prompts[1]!, key: 8 }] }, "base"],
      [{ ...report, prompts: [prompts[0], { ...prompts[1]!, key: 8 }] }, report, "candidate"],
      [report, report, "candidate"],
    ] as const
  ) {
    throws(
      () => evaluateGate(rules, { base, candidate }),
      (e: unknown) => {
        ok(e instanceof ComparisonGateError, String(e));
        ok(e.message.includes(`${side} repeats the example id "7"`), e.message);
        // The id and the arm as data, not only in the words.
        deepStrictEqual([e.differences[0]!.ids, e.differences[0]!.arm], [["7"], side]);
        return true;
      },
    );
  }
});

Deno.test("evaluateGate() refuses a base and a candidate of two kinds before reading a rule's metric", () => {
  // pass_rate is a suite run's: it was blamed on the candidate's kind, not on the mismatch.
  const evaluation = scoreToolCalls(
    [{ example_id: "a", language: "en", target: { name: "f", arguments: {} } }],
    [{ example_id: "a", output: '{"name":"f","arguments":{}}' }],
  );
  throws(
    () =>
      evaluateGate(gate("  - metric: pass_rate\n    non_inferior: { margin: 0.1 }\n"), {
        base: suiteRun(7, 3, 1),
        candidate: evaluation,
      }),
    (e: unknown) =>
      e instanceof ComparisonGateError &&
      e.message ===
        "Refusing to compare: the reports are assay.suite_run.v1 and assay.evaluation.v2" &&
      e.differences[0]!.values?.join() === "assay.suite_run.v1,assay.evaluation.v2",
  );
});

Deno.test("an arm named overall is refused by the suite and by the gate, which reads overall as every arm", async () => {
  // The gate: a report whose runs name an arm overall (written before the suite refused one).
  const report = suiteRun(5, 4, 1);
  for (const run of report.runs) if (run.arm === "b") run.arm = "overall";
  throws(() => metricSource(report), /arm "overall", the name of all arms at once/);
  // The suite: runSuite refuses such a trace before any metric runs.
  const suite = loadSuite("- type: hit_limit\n");
  const trace = {
    golden_id: "g",
    arm: "overall",
    repeat: 0,
    tool_calls: [],
    sql: [],
    final_rows: null,
    final_answer: null,
    submitted: true,
    hit_turn_limit: false,
  };
  await rejects(
    runSuite(suite, {
      goldens: [{ id: "g", question: "?" }],
      traces: [trace],
      catalog: { views: [] },
    }, {
      noJudge: true,
    }),
    /^SuiteInputError: traces\[0\] \(golden_id "g"\): arm "overall" is the name of all arms at once/,
  );
});
