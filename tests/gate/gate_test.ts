// The gate's rules, verdicts, JUnit and Markdown: each rule kind passing and failing on crafted
// reports, bad rule files at their line, and the CLI's exit codes (0, 3, 2).
import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import { scoreToolCalls } from "../../src/evaluation/mod.ts";
import { compareReports, intersectReports } from "../../src/compare/mod.ts";
import { sha256Hex } from "../../src/engine/mod.ts";
import { explainScore } from "../../src/explain/mod.ts";
import type { EvaluationReport } from "../../src/evaluation/mod.ts";
import {
  CALIBRATION_SHAPE,
  checkRulesFit,
  evaluateGate,
  evaluationShape,
  gateJunit,
  gateMarkdown,
  GateRulesError,
  parseGateRules,
  suiteRunShape,
} from "../../src/gate/mod.ts";
import { assertValidJunit } from "./_junit.ts";
import { bfclReportOf, IFEVAL_FIELDS, STRUCTURED_FIELDS } from "../report_check/_complete.ts";

const CALL = '{"name":"f","arguments":{"x":1}}';

/**
 * A report over `n` examples (half en, half ja) where example i is right when `right(i)`; wrong
 * ones have the wrong arguments.
 */
function report(n: number, right: (i: number) => boolean): EvaluationReport {
  const examples = Array.from({ length: n }, (_, i) => ({
    example_id: `ex-${String(i).padStart(3, "0")}`,
    language: i % 2 === 0 ? "en" : "ja",
    target: { name: "f", arguments: { x: 1 } },
  }));
  const generations = examples.map((e, i) => ({
    example_id: e.example_id,
    output: right(i) ? CALL : '{"name":"f","arguments":{"x":2}}',
  }));
  return scoreToolCalls(examples, generations);
}

const gate = (yaml: string) =>
  parseGateRules(`seed: 1\nresamples: 2000\nrules:\n${yaml}`, "g.yaml");

Deno.test("evaluateGate() min: passes at the threshold, fails below it and lists the wrong examples", () => {
  const r = report(10, (i) => i < 6); // 0.6
  const rule = (t: number) => gate(`  - metric: full_call_exact_match\n    min: ${t}\n`);
  strictEqual(evaluateGate(rule(0.6), { report: r }).pass, true);
  const v = evaluateGate(rule(0.61), { report: r });
  strictEqual(v.pass, false);
  deepStrictEqual(v.rules[0]!.failing, ["ex-006", "ex-007", "ex-008", "ex-009"]);
  // A slice: ja holds ex-001, 003, 005 right of 5 (0.6).
  const ja = gate(`  - metric: argument_exact_match\n    slice: ja\n    min: 0.6\n`);
  strictEqual(evaluateGate(ja, { report: r }).pass, true);
});

Deno.test("evaluateGate() max_regressions counts right-in-base, wrong-in-candidate examples", () => {
  const base = report(40, (i) => i < 30);
  const candidate = report(40, (i) => i >= 3 && i < 35); // ex-000..002 regress, 30..34 improve
  const rule = (k: number) =>
    gate(`  - metric: full_call_exact_match\n    max_regressions: ${k}\n`);
  strictEqual(evaluateGate(rule(3), { base, candidate }).pass, true);
  const v = evaluateGate(rule(2), { base, candidate });
  strictEqual(v.pass, false);
  deepStrictEqual(v.rules[0]!.failing, ["ex-000", "ex-001", "ex-002"]);
  deepStrictEqual(
    { b: v.rules[0]!.mcnemar!.regressions, c: v.rules[0]!.mcnemar!.improvements },
    { b: 3, c: 5 },
  );
  strictEqual(v.rules[0]!.mcnemar!.p_value, 2 * (1 + 8 + 28 + 56) / 256);
});

Deno.test("evaluateGate() superior and non_inferior read the paired-bootstrap lower bound", () => {
  const base = report(200, (i) => i < 100);
  const better = report(200, (i) => i < 160);
  const same = report(200, (i) => i < 100);
  const worse = report(200, (i) => i < 96);
  const sup = gate("  - metric: full_call_exact_match\n    superior: true\n");
  strictEqual(evaluateGate(sup, { base, candidate: better }).pass, true);
  strictEqual(evaluateGate(sup, { base, candidate: same }).pass, false);
  const ni = (m: number) => gate(`  - metric: argument_f1\n    non_inferior: { margin: ${m} }\n`);
  // Four fewer right of 200: the delta is -0.02, its lower bound a little below.
  strictEqual(evaluateGate(ni(0.2), { base, candidate: worse }).pass, true);
  strictEqual(evaluateGate(ni(0.001), { base, candidate: worse }).pass, false);
  strictEqual(evaluateGate(ni(0), { base, candidate: same }).pass, true);
});

Deno.test("evaluateGate() records the measured numbers, and its words never contradict the verdict", () => {
  const base = report(200, (i) => i < 100);
  const worse = report(200, (i) => i < 94 || i % 7 === 0);
  const ni = (m: number) =>
    gate(`  - metric: argument_f1\n    slice: ja\n    non_inferior: { margin: ${m} }\n`);
  const wide = evaluateGate(ni(1), { base, candidate: worse }).rules[0]!;
  const [lo, hi] = wide.ci!;
  // In ja, 7 more right and 3 fewer: a lower bound of 2 fewer of 100, -0.02 exactly, computed as
  // -0.020000000000000018 (two ratios rounded apart), which is on a margin of 0.02.
  strictEqual(wide.delta, 0.040000000000000036);
  strictEqual(lo, -0.020000000000000018);
  const v = evaluateGate(ni(0.02), { base, candidate: worse });
  const rule = v.rules[0]!;
  strictEqual(rule.pass, true);
  strictEqual(
    rule.message,
    "delta 0.0400, 95% interval [-0.0200, 0.1000]; needs a lower bound of at least -0.02",
  );
  // Margins about the bound: the printed lower bound is on the side of -margin the verdict says.
  for (const m of [0.02, 0.0200001, 0.019999, 0.03, 0.01, -lo, 0.020000000000000014, 0.01999]) {
    const r = evaluateGate(ni(m), { base, candidate: worse }).rules[0]!;
    const printed = Number(r.message.match(/interval \[([^,]+),/)![1]);
    strictEqual(printed >= -m, r.pass, `${m}: ${r.message}`);
    strictEqual(r.pass, lo >= -m || Math.abs(lo + m) <= 2 ** -51);
  }
  // The JSON verdict carries the numbers themselves.
  const json = JSON.parse(JSON.stringify(v)).rules[0];
  deepStrictEqual([json.delta, json.ci], [wide.delta, [lo, hi]]);
  ok(
    gateJunit(v, "g.yaml").includes(
      "Exact: delta 0.040000000000000036, interval [-0.020000000000000018, 0.10000000000000003]",
    ),
  );
  // A min rule: 2/3 is not 0.66667, though it rounds to 0.6667 at four decimals.
  const min = evaluateGate(gate("  - metric: full_call_exact_match\n    min: 0.66667\n"), {
    report: report(3, (i) => i < 2),
  }).rules[0]!;
  deepStrictEqual([min.pass, min.value, min.message], [
    false,
    2 / 3,
    "0.666667 (2/3), needs >= 0.66667",
  ]);
});

Deno.test("evaluateGate() applies Holm's correction across the rules with a McNemar test", () => {
  const base = report(60, (i) => i < 30);
  const candidate = report(60, (i) => i >= 5 && i < 40); // 5 regressions, 10 improvements
  const v = evaluateGate(
    gate(
      "  - metric: full_call_exact_match\n    max_regressions: 100\n" +
        "  - metric: function_name_accuracy\n    max_regressions: 100\n" +
        "  - metric: argument_exact_match\n    max_regressions: 100\n",
    ),
    { base, candidate },
  );
  const p = v.rules[0]!.mcnemar!.p_value;
  // Three tests: p, 1 (function_name_accuracy has no discordant pair: names always match) and p
  // again (argument_exact_match flips with the full call); sorted p, p, 1, the first two adjust
  // to 3p.
  strictEqual(v.rules[0]!.mcnemar!.holm_p_value, Math.min(1, 3 * p));
  strictEqual(v.rules[2]!.mcnemar!.holm_p_value, Math.min(1, 3 * p));
  strictEqual(v.rules[1]!.mcnemar!.p_value, 1);
  strictEqual(v.pass, true);
});

Deno.test("parseGateRules() reports every bad rule at its line and column", () => {
  const text = [
    "rules:",
    '  - metric: ""', // 2:13: not a metric's name
    "    min: 0.5",
    "  - metric: argument_f1",
    "    max_regressions: 3", // 5:22: not binary
    "  - metric: valid_json_rate", // 6: two checks
    "    min: 0.5",
    "    superior: true",
    "  - metric: valid_json_rate",
    "    non_inferior: { margin: -1 }", // 10:29: bad margin
    "colour: red",
  ].join("\n");
  throws(() => parseGateRules(text, "rules.yaml"), (e: unknown) => {
    ok(e instanceof GateRulesError);
    deepStrictEqual(e.problems.map((p) => p.split(": ")[0]), [
      "rules.yaml:11:1",
      "rules.yaml:2:13",
      "rules.yaml:5:22",
      "rules.yaml:6:5",
      "rules.yaml:10:29",
    ]);
    return true;
  });
  throws(() => parseGateRules("{ rules: [", "r.yaml"), GateRulesError);
  throws(() => parseGateRules('{"rules": [{"metric": 1,}]}', "r.jsonc"), /r\.jsonc:1:/);
  strictEqual(
    parseGateRules('{"rules": [{"metric": "argument_f1", "min": 0.5},], // one\n}', "r.jsonc")
      .rules.length,
    1,
  );
  // A repeated key would let the last "min" win without a word.
  throws(
    () =>
      parseGateRules('{"rules": [{"metric": "argument_f1", "min": 0.9, "min": 0.1}]}', "r.json"),
    /r\.json:1:50: Duplicate key "min" \(first at 1:38\)/,
  );
  throws(
    () => parseGateRules("rules: []\n", "r.yaml"),
    /r\.yaml:1:8: A gate needs at least one rule/,
  );
  // A misspelt key names the one it likely means; one far from any does not.
  throws(
    () =>
      parseGateRules(
        "rules:\n  - metric: argument_f1\n    mni: 0.5\n    colour: red\nsed: 1\n",
        "r.yaml",
      ),
    (e: unknown) => {
      ok(e instanceof GateRulesError);
      deepStrictEqual(e.problems, [
        'r.yaml:5:1: Unknown key "sed" (did you mean "seed"?)',
        'r.yaml:3:5: Unknown key "mni" (did you mean "min"?)',
        'r.yaml:4:5: Unknown key "colour"',
        "r.yaml:2:5: A rule has exactly one of min, max, non_inferior, superior, " +
        "max_regressions; this one has 0",
      ]);
      return true;
    },
  );
});

Deno.test("parseGateRules() reports a key non_inferior does not take, and a missing metric at its rule", () => {
  // `level` inside non_inferior set nothing and the rule held at the default level, in silence.
  throws(
    () =>
      parseGateRules(
        "rules:\n  - metric: argument_f1\n    non_inferior: { margin: 0.05, level: 0.9 }\n" +
          "  - metric: argument_f1\n    non_inferior: { margn: 0.05 }\n",
        "r.yaml",
      ),
    (e: unknown) => {
      ok(e instanceof GateRulesError);
      deepStrictEqual(e.problems, [
        'r.yaml:3:35: Unknown key "level"',
        'r.yaml:5:21: Unknown key "margn" (did you mean "margin"?)',
        "r.yaml:5:19: non_inferior must be { margin: m } with m in [0, 1]",
      ]);
      return true;
    },
  );
  // A rule whose metric is missing (its key misspelt) was reported at 1:1, not at the rule.
  throws(
    () => parseGateRules("seed: 1\nrules:\n  - metrc: argument_f1\n    min: 0.5\n", "r.yaml"),
    (e: unknown) => {
      ok(e instanceof GateRulesError);
      deepStrictEqual(e.problems.map((p) => p.split(": ")[0]), ["r.yaml:3:5", "r.yaml:3:5"]);
      return true;
    },
  );
  throws(
    () => parseGateRules('{"rules": [{"min": 0.5}]}', "r.json"),
    /Invalid gate rules:\nr\.json:1:12: metric must be/,
  );
});

Deno.test("parseGateRules() reports a seed or resamples out of the bootstrap's range at its place", () => {
  // They passed the check and failed later, with no line, even with only a min rule.
  const text = (seed: string, resamples: string) =>
    `seed: ${seed}\nresamples: ${resamples}\nrules:\n  - metric: argument_f1\n    min: 0.5\n`;
  const problems = (seed: string, resamples: string) => {
    try {
      parseGateRules(text(seed, resamples), "sd2.yaml");
    } catch (e) {
      ok(e instanceof GateRulesError);
      return e.problems;
    }
    return [];
  };
  deepStrictEqual(problems("4294967296", "100000000"), [
    "sd2.yaml:1:7: seed must be a whole number in [0, 2^32)",
    "sd2.yaml:2:12: resamples must be a whole number in [1, 10^7]",
  ]);
  deepStrictEqual(problems("-1", "0"), [
    "sd2.yaml:1:7: seed must be a whole number in [0, 2^32)",
    "sd2.yaml:2:12: resamples must be a whole number in [1, 10^7]",
  ]);
  deepStrictEqual(problems("1.5", "2.5"), [
    "sd2.yaml:1:7: seed must be a whole number in [0, 2^32)",
    "sd2.yaml:2:12: resamples must be a whole number in [1, 10^7]",
  ]);
  deepStrictEqual(problems("4294967295", "10000000"), []);
  const gate = parseGateRules(text("4294967295", "1"), "g.yaml");
  deepStrictEqual([gate.seed, gate.resamples], [4294967295, 1]);
  strictEqual(evaluateGate(gate, { report: report(4, () => true) }).pass, true);
});

Deno.test("evaluateGate() names a metric the report does not have, with the rule's line", () => {
  const r = report(4, () => true);
  throws(
    () => evaluateGate(gate("  - metric: full_call\n    min: 0.5\n"), { report: r }),
    /line 4 \(its metric at line 4, column 13\) names the metric "full_call", which an assay\.evaluation\.v2 report does not have/,
  );
  throws(
    () => evaluateGate(gate("  - metric: accuracy\n    min: 0.5\n"), { report: { schema: "x" } }),
    /A gate reads .* not "x"/,
  );
});

Deno.test("evaluateGate() reads structured, BFCL and IFEval reports", () => {
  // BFCL: accuracy per category; regressions by entry.
  const bfcl = (valid: (i: number) => boolean) =>
    bfclReportOf(
      Array.from({ length: 40 }, (_, i) => ({
        category: i < 20 ? "simple" : "parallel_function",
        id: (i % 20) + 1,
        valid: valid(i),
        entryId: `e${i}`,
        errorType: null,
        error: null,
      })),
      [{ category: "simple" }, { category: "parallel_function" }],
    );
  const base = bfcl((i) => i % 2 === 0);
  const candidate = bfcl((i) => i % 2 === 0 || i < 10);
  const v = evaluateGate(
    gate(
      "  - metric: accuracy\n    slice: simple\n    min: 0.75\n" +
        "  - metric: accuracy\n    max_regressions: 0\n" +
        "  - metric: accuracy\n    superior: true\n",
    ),
    { base, candidate },
  );
  deepStrictEqual(v.rules.map((r) => r.pass), [true, true, true]);
  strictEqual(v.rules[0]!.message, "0.7500 (15/20), needs >= 0.75");
  strictEqual(v.rules[1]!.mcnemar!.improvements, 5);
  // IFEval: instruction-level accuracy pools instructions.
  const ifeval = {
    schema: "assay.ifeval.v1",
    ...IFEVAL_FIELDS,
    prompts: [
      { key: 1, instruction_id_list: ["a", "b"], strict: [true, false], loose: [true, true] },
      { key: 2, instruction_id_list: ["c"], strict: [true], loose: [true] },
    ],
  };
  const iv = evaluateGate(
    gate("  - metric: instruction_strict\n    min: 0.7\n  - metric: prompt_loose\n    min: 1\n"),
    { report: ifeval },
  );
  deepStrictEqual(iv.rules.map((r) => [r.pass, r.message]), [
    [false, "0.6667 (2/3), needs >= 0.7"],
    [true, "1 (2/2), needs >= 1"],
  ]);
  deepStrictEqual(iv.rules[0]!.failing, []); // instruction-level is not right-or-wrong per prompt
  // Structured: the rows' figures.
  const structured = {
    schema: "assay.structured.v1",
    ...STRUCTURED_FIELDS,
    metrics: { json_validity: { value: 0.5, numerator: 1, denominator: 2 } },
    rows: [
      { line: 1, id: "a", metrics: { json_validity: { numerator: 1, denominator: 1 } } },
      { line: 2, id: null, metrics: { json_validity: { numerator: 0, denominator: 1 } } },
    ],
  };
  const sv = evaluateGate(gate("  - metric: json_validity\n    min: 0.6\n"), {
    report: structured,
  });
  deepStrictEqual(sv.rules[0]!.failing, ["line 2"]);
  throws(
    () =>
      evaluateGate(gate("  - metric: json_validity\n    min: 0\n"), {
        report: { ...structured, rows: undefined },
      }),
    /no per-example rows/,
  );
});

Deno.test("evaluateGate() refuses a BFCL or IFEval base and candidate scored against different input files", () => {
  const digest = (c: string) => ({ sha256: c.repeat(64) });
  const ifeval = (input?: string) => ({
    schema: "assay.ifeval.v1",
    ...IFEVAL_FIELDS,
    ...(input ? { inputs: { input: digest(input), responses: digest("0") } } : {}),
    prompts: [{ key: 1, instruction_id_list: ["a"], strict: [true], loose: [true] }],
  });
  const rules = gate("  - metric: prompt_strict\n    max_regressions: 0\n");
  strictEqual(evaluateGate(rules, { base: ifeval("a"), candidate: ifeval("a") }).pass, true);
  throws(
    () => evaluateGate(rules, { base: ifeval("a"), candidate: ifeval("b") }),
    (e: Error) => {
      strictEqual(e.name, "ComparisonGateError");
      strictEqual(
        e.message,
        "Refusing to compare: input files' sha256 differ: base aaaaaaaaaaaa…, candidate bbbbbbbbbbbb…",
      );
      return true;
    },
  );
  // A report that records none (written before the digests were) is read as before, with a note
  // that its inputs were not compared; two that record theirs carry none.
  const old = evaluateGate(rules, { base: ifeval(), candidate: ifeval("b") });
  strictEqual(old.pass, true);
  match(old.note!, /^report base records no input digest .*: its inputs were not compared/);
  match(gateMarkdown(old, "g.yaml"), /\n\nNote: report base records no input digest/);
  strictEqual("note" in evaluateGate(rules, { base: ifeval("a"), candidate: ifeval("a") }), false);
  const bfcl = (answers: string) =>
    bfclReportOf([{
      category: "simple",
      id: 1,
      valid: true,
      entryId: "simple_0",
      errorType: null,
      error: null,
    }], [{
      category: "simple",
      inputs: { questions: digest("c"), answers: digest(answers), results: digest("d") },
    }]);
  throws(
    () =>
      evaluateGate(gate("  - metric: accuracy\n    max_regressions: 0\n"), {
        base: bfcl("e"),
        candidate: bfcl("f"),
      }),
    /simple answer files' sha256 differ: base eeeeeeeeeeee…, candidate ffffffffffff…/,
  );
});

Deno.test("evaluateGate() refuses comparative rules on one report and unknown slices", () => {
  const r = report(4, () => true);
  throws(
    () => evaluateGate(gate("  - metric: valid_json_rate\n    superior: true\n"), { report: r }),
    /line 4 \(its check at line 5, column 5\) compares two runs/,
  );
  // Every comparative rule is named, as the other misfits are (only the first was).
  throws(
    () =>
      evaluateGate(
        gate(
          "  - metric: valid_json_rate\n    superior: true\n" +
            "  - metric: valid_json_rate\n    min: 0\n" +
            "  - metric: argument_f1\n    non_inferior: {margin: 0.1}\n",
        ),
        { report: r },
      ),
    /^RangeError: The rule at line 4 .* compares two runs.*\nThe rule at line 8 .* compares two runs/,
  );
  // A candidate that lacks a slice the base has (a partial rerun) is refused as such, before a
  // rule naming that slice is blamed for it ("which the report does not have").
  throws(
    () =>
      evaluateGate(gate("  - metric: valid_json_rate\n    slice: ja\n    max_regressions: 0\n"), {
        base: r,
        candidate: scoreToolCalls(
          [{ example_id: "ex-000", language: "en", target: { name: "f", arguments: { x: 1 } } }],
          [{ example_id: "ex-000", output: CALL }],
        ),
      }),
    /^ComparisonGateError: Refusing to compare: slice sets differ: 1 only in base \("ja"\)/,
  );
  throws(
    () =>
      evaluateGate(gate("  - metric: valid_json_rate\n    slice: xx\n    min: 0\n"), { report: r }),
    /slice "xx"/,
  );
});

Deno.test("checkRulesFit() refuses, before any report exists, what evaluateGate() would", () => {
  const min = (metric: string, slice = "overall") =>
    gate(`  - metric: ${metric}\n    slice: ${slice}\n    min: 0.5\n`);
  const shape = suiteRunShape(["hit_limit", "answer_correctness"], ["base", "adapter", "base"]);
  deepStrictEqual(shape.slices, ["overall", "base", "adapter"]);
  checkRulesFit(min("pass_rate", "adapter"), shape, false);
  checkRulesFit(min("answer_correctness"), shape, false);
  throws(
    () => checkRulesFit(min("pass_rat"), shape, false),
    /line 4 \(its metric at line 4, column 13\) names the metric "pass_rat"/,
  );
  throws(() => checkRulesFit(min("hit_limit", "adaptr"), shape, false), /slice "adaptr"/);
  // Every misfit at once, one a line, each with the nearest name the report has.
  const two = gate(
    "  - metric: pass_rat\n    slice: adaptr\n    min: 0.5\n" +
      "  - metric: hit_limit\n    slice: bse\n    min: 0.5\n",
  );
  throws(() => checkRulesFit(two, shape, false), (e: unknown) => {
    const lines = (e as RangeError).message.split("\n");
    strictEqual(lines.length, 3);
    match(lines[0]!, /^The rule at line 4 .* "pass_rat", .* \(did you mean "pass_rate"\? it has/);
    match(lines[1]!, /^The rule at line 4 .* "adaptr", .* \(did you mean "adapter"\? it has/);
    match(lines[2]!, /^The rule at line 7 .* "bse", .* \(did you mean "base"\? it has/);
    deepStrictEqual((e as { problems?: string[] }).problems, lines);
    return true;
  });
  // Slices not known yet are not checked; metrics are.
  checkRulesFit(min("hit_limit", "adaptr"), suiteRunShape(["hit_limit"]), false);
  throws(() => suiteRunShape(["pass_rate"]), /metric named "pass_rate"/);
  const superior = gate("  - metric: valid_json_rate\n    superior: true\n");
  throws(
    () => checkRulesFit(superior, evaluationShape(), false),
    /line 4 \(its check at line 5, column 5\) compares two runs/,
  );
  checkRulesFit(superior, evaluationShape(["en"]), true);
  throws(
    () => checkRulesFit(min("full_call_exact_mach"), evaluationShape(["en"]), true),
    /"full_call_exact_mach", which an assay\.evaluation\.v2 report does not have/,
  );
  throws(() => checkRulesFit(min("kapa"), CALIBRATION_SHAPE, false), /"kapa"/);
  throws(
    () => checkRulesFit(gate("  - metric: kappa\n    superior: true\n"), CALIBRATION_SHAPE, true),
    /only min and max apply/,
  );
});

Deno.test("gateJunit() validates against the JUnit schema and gateMarkdown() has one row per rule", async () => {
  const base = report(30, (i) => i < 20);
  const candidate = report(30, (i) => i >= 2 && i < 25);
  const v = evaluateGate(
    gate(
      '  - metric: full_call_exact_match\n    min: 0.9\n  - metric: valid_json_rate\n    max_regressions: 0\n  - metric: argument_f1\n    slice: "ja"\n    non_inferior: { margin: 0.5 }\n',
    ),
    { base, candidate },
  );
  const xml = gateJunit(v, 'rules <&"> \u0001.yaml');
  await assertValidJunit(xml);
  strictEqual((xml.match(/<testcase /g) ?? []).length, 3);
  strictEqual((xml.match(/<failure /g) ?? []).length, 1);
  ok(xml.includes("Failing examples: ex-000, ex-001, ex-025, ex-026"), xml);
  const md = gateMarkdown(v, "g.yaml");
  const rows = md.split("\n").filter((l) =>
    l.startsWith("| ") && !l.startsWith("| rule") && !l.startsWith("| ---")
  );
  strictEqual(rows.length, 3);
  ok(md.startsWith("### assay gate g\\.yaml: FAILED (2 of 3 rules hold)"), md);
  ok(rows[0]!.includes("**fail**") && rows[1]!.includes("| pass |"), md);
});

Deno.test("gateMarkdown() and the rules' names show hostile ids and slices as written, never as links or HTML", () => {
  const ids = [
    "\u001b[31mRED\u001b[0m",
    "ok\nFAKE  pass  everything fine",
    "[click](http://e.vil)",
    "<img src=x onerror=alert(1)>",
    "p",
  ];
  const one = (right: boolean) =>
    scoreToolCalls(
      ids.map((id) => ({
        example_id: id,
        language: "e<n>",
        target: { name: "f", arguments: { x: 1 } },
      })),
      ids.map((id) => ({ example_id: id, output: right || id === "p" ? CALL : "no call" })),
    );
  const v = evaluateGate(
    gate('  - metric: full_call_exact_match\n    slice: "e<n>"\n    max_regressions: 0\n'),
    { base: one(true), candidate: one(false) },
  );
  deepStrictEqual(v.rules[0]!.failing, ids.slice(0, 4));
  const md = gateMarkdown(v, "r.yaml");
  ok(!/[<>]/.test(md) && !md.includes("\u001b") && !md.includes("](") && !/^FAKE/m.test(md), md);
  ok(md.includes("full\\_call\\_exact\\_match \\(e&lt;n&gt;\\) at most 0 regressions"), md);
  ok(md.includes("\\[click\\]\\(http\\:\\/\\/e\\.vil\\)"), md);
  ok(md.includes("&lt;img src\\=x onerror\\=alert\\(1\\)&gt;"), md);
  ok(md.includes('\\"ok\\\\nFAKE  pass  everything fine\\"'), md);
  // A slice that is not printable is written escaped in the rule's name, and kept in its slice.
  const esc = evaluateGate(
    gate('  - metric: valid_json_rate\n    slice: "en\\e[2J"\n    min: 0.5\n'),
    {
      report: scoreToolCalls(
        [{ example_id: "a", language: "en\u001b[2J", target: { name: "f", arguments: { x: 1 } } }],
        [{ example_id: "a", output: CALL }],
      ),
    },
  );
  strictEqual(esc.rules[0]!.name, 'valid_json_rate ("en\\u001b[2J") >= 0.5');
  strictEqual(esc.rules[0]!.slice, "en\u001b[2J");
});

Deno.test("assay gate exits 0 on a pass, 3 on a failure and 2 on a bad rule file", async () => {
  const dir = await Deno.makeTempDir();
  const base = report(20, (i) => i < 10);
  const candidate = report(20, (i) => i >= 1 && i < 15);
  await Deno.writeTextFile(`${dir}/base.json`, JSON.stringify(base));
  await Deno.writeTextFile(`${dir}/cand.json`, JSON.stringify(candidate));
  const run = async (rules: string, extra: string[] = [], env: Record<string, string> = {}) => {
    await Deno.writeTextFile(`${dir}/rules.yaml`, rules);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../../cli/main.ts", import.meta.url).pathname,
        "gate",
        `${dir}/rules.yaml`,
        "--base",
        `${dir}/base.json`,
        "--candidate",
        `${dir}/cand.json`,
        ...extra,
      ],
      env,
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, out: dec.decode(out.stdout), err: dec.decode(out.stderr) };
  };
  const pass = await run("rules:\n  - metric: full_call_exact_match\n    max_regressions: 1\n");
  strictEqual(pass.code, 0, pass.err);
  ok(pass.out.includes("passed, 1 of 1 rule holds"), pass.out);
  const summary = `${dir}/summary.md`;
  const fail = await run(
    "rules:\n  - metric: full_call_exact_match\n    max_regressions: 0\n",
    ["--junit", `${dir}/j.xml`, "--markdown", `${dir}/m.md`],
    { GITHUB_STEP_SUMMARY: summary },
  );
  strictEqual(fail.code, 3, fail.err);
  ok(fail.out.includes("failing: ex-000"), fail.out);
  ok((await Deno.readTextFile(`${dir}/j.xml`)).includes("<failure "));
  strictEqual(await Deno.readTextFile(summary), await Deno.readTextFile(`${dir}/m.md`));
  const bad = await run("rules:\n  - metric: nope\n    min: 1\n");
  strictEqual(bad.code, 2);
  ok(
    bad.err.includes(
      `${dir}/rules.yaml: The rule at line 2 (its metric at line 2, column 13) names the metric "nope"`,
    ),
    bad.err,
  );
  // Out of the bootstrap's range: reported with the file's other problems, at their places.
  const range = await run("seed: 4294967296\nresamples: 100000000\nrules:\n  - metric: x\n");
  strictEqual(range.code, 2);
  ok(
    range.err.includes(
      `${dir}/rules.yaml:1:7: seed must be a whole number in [0, 2^32)\n` +
        `${dir}/rules.yaml:2:12: resamples must be a whole number in [1, 10^7]\n` +
        `${dir}/rules.yaml:4:5: A rule has exactly one of`,
    ),
    range.err,
  );
  // A candidate cut short or edited by hand is bad input naming its file and field, not a crash.
  const broken = structuredClone(candidate) as unknown as { records: Record<string, unknown>[] };
  broken.records[4]!.predicted_pairs = "3";
  await Deno.writeTextFile(`${dir}/cand.json`, JSON.stringify(broken));
  const malformed = await run("rules:\n  - metric: argument_f1\n    min: 0\n");
  strictEqual(malformed.code, 2, malformed.err);
  ok(
    malformed.err.includes(
      `${dir}/cand.json: The assay.evaluation.v2 report is malformed: records[4].predicted_pairs ` +
        "is not a count",
    ),
    malformed.err,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay gate checks GITHUB_STEP_SUMMARY up front: a missing folder or an input is exit 2", async () => {
  const dir = await Deno.makeTempDir();
  const input = JSON.stringify(report(10, (i) => i < 5));
  await Deno.writeTextFile(`${dir}/r.json`, input);
  await Deno.writeTextFile(
    `${dir}/rules.yaml`,
    "rules:\n  - metric: full_call_exact_match\n    min: 1\n",
  );
  const run = async (summary: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("../../cli/main.ts", import.meta.url).pathname,
        "gate",
        `${dir}/rules.yaml`,
        "--report",
        `${dir}/r.json`,
        "--out",
        `${dir}/v.json`,
      ],
      env: { GITHUB_STEP_SUMMARY: summary },
    }).output();
    const dec = new TextDecoder();
    return { code: out.code, out: dec.decode(out.stdout), err: dec.decode(out.stderr) };
  };
  const gone = await run(`${dir}/nodir/s.md`);
  strictEqual(gone.code, 2, gone.err);
  strictEqual(
    gone.err.trim(),
    `assay gate: Cannot append to ${dir}/nodir/s.md (GITHUB_STEP_SUMMARY): folder ${dir}/nodir ` +
      "does not exist",
  );
  const onInput = await run(`${dir}/r.json`);
  strictEqual(onInput.code, 2, onInput.err);
  strictEqual(
    onInput.err.trim(),
    `assay gate: GITHUB_STEP_SUMMARY ${dir}/r.json is the --report file`,
  );
  strictEqual(await Deno.readTextFile(`${dir}/r.json`), input);
  // Refused up front: no verdict was written.
  ok(!(await Deno.stat(`${dir}/v.json`).then(() => true, () => false)));
  // A writable summary still takes the Markdown, and the failing verdict keeps its exit 3.
  await Deno.writeTextFile(`${dir}/s.md`, "earlier step\n");
  const held = await run(`${dir}/s.md`);
  strictEqual(held.code, 3, held.err);
  ok((await Deno.readTextFile(`${dir}/s.md`)).startsWith("earlier step\n\n### assay gate"));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("evaluateGate() refuses a gate or input of another shape with a TypeError saying what it expected", () => {
  // They threw TypeErrors from inside: "Cannot use 'in' operator…", "gate.rules.filter is not a
  // function".
  const g = gate("  - metric: full_call_exact_match\n    min: 0.5\n");
  const r = report(4, () => true);
  const expected = (message: string) => (e: unknown) =>
    e instanceof TypeError && e.message === message;
  const reports = "Expected the reports as { report } or { base, candidate }, objects";
  // { report: undefined } and { base: null, candidate } threw "Cannot read properties of …".
  const inputs = [null, undefined, 5, {}, { base: r }, { report: undefined }, {
    base: null,
    candidate: r,
  }];
  for (const input of inputs) {
    throws(() => evaluateGate(g, input as never), expected(reports), String(input));
  }
  const gates = "Expected a gate { rules, seed, resamples, alpha }, as parseGateRules gives";
  for (const bad of [null, { rules: 5 }, {}]) {
    throws(() => evaluateGate(bad as never, { report: r }), expected(gates));
  }
  throws(
    () => evaluateGate({ ...g, rules: [5] } as never, { report: r }),
    expected(
      "Expected gate.rules[0] to be a rule { metric, slice, check, at }, as parseGateRules gives",
    ),
  );
  throws(
    () =>
      evaluateGate({ ...g, rules: [{ ...g.rules[0]!, check: { kind: "least" } }] } as never, {
        report: r,
      }),
    TypeError,
  );
  // A hand-built check is held to what parseGateRules accepts: a NaN bound gave a verdict
  // (">= NaN", failed).
  const checks: [Record<string, unknown>, string][] = [
    [{ kind: "min", min: NaN }, "min must be a number in [0, 1]"],
    [{ kind: "max", max: 2 }, "max must be a number in [0, 1]"],
    [{ kind: "non_inferior", margin: NaN }, "non_inferior must be { margin: m } with m in [0, 1]"],
    [{ kind: "max_regressions", max: 1.5 }, "max_regressions must be a whole number of at least 0"],
  ];
  for (const [check, message] of checks) {
    throws(
      () => evaluateGate({ ...g, rules: [{ ...g.rules[0]!, check }] } as never, { report: r }),
      (e: unknown) => e instanceof RangeError && e.message === `gate.rules[0].check: ${message}`,
      message,
    );
  }
});

Deno.test("evaluateGate() lists failing examples in the report's order, in the verdict, JUnit and Markdown", () => {
  // Sorted as text, simple#100 … simple#109 came before simple#14, so the ten the CLI shows were
  // not the report's first ten failing.
  const wrong = new Set([14, 15, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
  const records = (flip: boolean) =>
    Array.from({ length: 120 }, (_, id) => ({
      category: "simple",
      id,
      valid: flip ? !wrong.has(id) : true,
      entryId: `simple_${id}`,
      errorType: null,
      error: null,
    }));
  const bfcl = (flip: boolean) => bfclReportOf(records(flip), [{ category: "simple" }]);
  const order = [...wrong].map((id) => `simple#${id}`);
  const min = evaluateGate(gate("  - metric: accuracy\n    min: 0.99\n"), {
    report: bfcl(true),
  });
  deepStrictEqual(min.rules[0]!.failing, order);
  const regressions = evaluateGate(gate("  - metric: accuracy\n    max_regressions: 0\n"), {
    base: bfcl(false),
    candidate: bfcl(true),
  });
  deepStrictEqual(regressions.rules[0]!.failing, order);
  const listed = order.join(", ");
  ok(gateJunit(min, "g.yaml").includes(`Failing examples: ${listed}`));
  ok(gateMarkdown(min, "g.yaml").includes(`: ${listed.replaceAll("#", "\\#")}`));
});

Deno.test('evaluateGate() with on "intersection" gates the examples both evaluation reports hold, and says what each left out', () => {
  const ex = (id: string) => ({
    example_id: id,
    language: "en",
    target: { name: "f", arguments: {} },
  });
  const out = (id: string, right: boolean) => ({
    example_id: id,
    output: right ? '{"name":"f","arguments":{}}' : "no",
  });
  const ids = ["a", "b", "c", "d", "e"];
  const base = scoreToolCalls(ids.map(ex), ids.map((id) => out(id, id !== "e")));
  // A partial rerun: the candidate's run lost "a" (scored with allowMissing), and gets "b" wrong.
  const candidate = scoreToolCalls(ids.map(ex), ids.slice(1).map((id) => out(id, id !== "b")), {
    allowMissing: true,
  });
  const rules = gate(
    "  - metric: full_call_exact_match\n    max_regressions: 0\n" +
      "  - metric: full_call_exact_match\n    min: 0.5\n",
  );
  throws(() => evaluateGate(rules, { base, candidate }), /example-id sets differ/);
  const v = evaluateGate(rules, { base, candidate }, { on: "intersection" });
  deepStrictEqual(v.coverage, {
    on: "intersection",
    shared: 4,
    base_only: { count: 1, ids: ["a"] },
    adapter_only: { count: 0, ids: [] },
  });
  // What a gate of the two reports cut to b..e by hand gives, but for the coverage.
  const cut = intersectReports(base, candidate);
  const { coverage: _, ...rest } = v;
  deepStrictEqual(rest, evaluateGate(rules, { base: cut.base, candidate: cut.adapter }));
  deepStrictEqual(v.rules[0]!.failing, ["b"]);
  strictEqual(v.rules[1]!.value, 0.75);
  match(
    gateMarkdown(v, "g.yaml"),
    /\n\nGated on the 4 examples both reports hold; 1 only in the base, 0 only in the candidate\.\n/,
  );
  // Nothing else takes it: one report, another kind of report, another word.
  throws(
    () => evaluateGate(rules, { report: base }, { on: "intersection" }),
    /needs a base and a candidate/,
  );
  throws(
    () => evaluateGate(rules, { base, candidate }, { on: "shared" as "all" }),
    /^RangeError: on must be "all" or "intersection", got "shared"$/,
  );
  const none = scoreToolCalls([ex("z")], [out("z", true)]);
  throws(
    () => evaluateGate(rules, { base, candidate: none }, { on: "intersection" }),
    /no example is shared/,
  );
  // Two examples files (the candidate's run on part of them): gated on the shared examples only
  // where both reports' records show each gold call, as compareReports compares them (the gate
  // refused what compare printed; compare printed a changed gold as a regression).
  const scored = (some: string[], sha: string, detail: boolean) =>
    scoreToolCalls(some.map(ex), some.map((id) => out(id, id !== "b")), {
      inputs: { examples: { sha256: sha256Hex(sha), rows: some.length }, generations: null },
      ...(detail && { detail: explainScore() }),
    });
  for (const detail of [false, true]) {
    const [all, part] = [scored(ids, "all", detail), scored(ids.slice(1), "part", detail)];
    const gated = () => evaluateGate(rules, { base: all, candidate: part }, { on: "intersection" });
    const compared = () => compareReports(all, part, { on: "intersection", resamples: 10 });
    if (detail) {
      strictEqual(gated().coverage!.shared, 4);
      strictEqual(compared().n, 4);
    } else {
      throws(gated, /examples files' sha256 differ: .* scored with details/);
      throws(compared, /examples files' sha256 differ: .* scored with details/);
    }
  }
});

Deno.test("evaluateGate() pairs 200,000 examples of a base and a candidate without overflowing the stack", () => {
  // The candidate's shares were put in the base's order by a splice spread into its arguments,
  // which overflowed the stack past about 125,000 examples (the CLI blamed the rules file).
  const n = 200_000;
  const ex = (i: number) => ({
    example_id: `e${i}`,
    language: "en",
    target: { name: "f", arguments: {} },
  });
  const examples = Array.from({ length: n }, (_, i) => ex(i));
  const out = (right: (i: number) => boolean) =>
    examples.map((e, i) => ({
      example_id: e.example_id,
      output: right(i) ? '{"name":"f","arguments":{}}' : "no",
    }));
  const base = scoreToolCalls(examples, out(() => true));
  // The candidate's records in another order, one of them wrong.
  const candidate = scoreToolCalls([...examples].reverse(), out((i) => i !== 7).reverse());
  const v = evaluateGate(gate("  - metric: full_call_exact_match\n    max_regressions: 0\n"), {
    base,
    candidate,
  });
  deepStrictEqual(v.rules[0]!.failing, ["e7"]);
});
