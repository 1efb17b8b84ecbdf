// A CI job's gate end to end on reports as a job makes them: a base from an older run (v1), a
// candidate scored with --allow-missing, and what the verdict says about each.
import { deepStrictEqual, match, ok, strictEqual, throws } from "node:assert/strict";
import { scoreToolCalls } from "../../src/evaluation/mod.ts";
import type { EvaluationReport } from "../../src/evaluation/mod.ts";
import { ComparisonGateError } from "../../src/compare/mod.ts";
import { checkReportBody } from "../../src/report_check/mod.ts";
import { scoreStructuredJsonl } from "../../src/structured_jsonl/mod.ts";
import { getDecoder } from "../../src/formats/mod.ts";
import { bfclReport, checkBfcl } from "../../src/bfcl/mod.ts";
import { evaluateGate, gateJunit, gateMarkdown, parseGateRules } from "../../src/gate/mod.ts";
import { assertValidJunit } from "./_junit.ts";
import { suiteRun } from "./_suite_runs.ts";
import { IFEVAL_FIELDS, STRUCTURED_FIELDS } from "../report_check/_complete.ts";

const RIGHT = '{"name":"f","arguments":{"x":1}}';
const WRONG = '{"name":"f","arguments":{"x":2}}';

/** A report over `n` examples, example i right when `right(i)`; `skip` examples have no output. */
function report(n: number, right: (i: number) => boolean, skip = 0): EvaluationReport {
  const examples = Array.from({ length: n }, (_, i) => ({
    example_id: `ex-${i}`,
    language: "en",
    target: { name: "f", arguments: { x: 1 } },
  }));
  const generations = examples.slice(skip).map((e, i) => ({
    example_id: e.example_id,
    output: right(i + skip) ? RIGHT : WRONG,
  }));
  return scoreToolCalls(examples, generations, { allowMissing: skip > 0 });
}

const v1 = (r: EvaluationReport) => {
  const { dropped_ids: _, ...rest } = r;
  return { ...rest, schema: "assay.evaluation.v1" } as unknown as EvaluationReport;
};

const gate = (yaml: string) => parseGateRules(`seed: 1\nresamples: 500\nrules:\n${yaml}`, "g.yaml");

Deno.test("evaluateGate() compares a v1 base with a v2 candidate, as compareReports does", () => {
  const base = report(20, (i) => i < 10);
  const candidate = report(20, (i) => i < 16);
  const rules = gate("  - metric: full_call_exact_match\n    max_regressions: 0\n");
  const verdict = evaluateGate(rules, { base: v1(base), candidate });
  strictEqual(verdict.pass, true);
  deepStrictEqual(verdict.rules[0]!.mcnemar!.improvements, 6);
  // Either way round; and a v1 report is still refused beside another kind.
  strictEqual(evaluateGate(rules, { base, candidate: v1(candidate) }).pass, true);
  const structured = { schema: "assay.structured.v1", ...STRUCTURED_FIELDS, metrics: {}, rows: [] };
  throws(
    () => evaluateGate(rules, { base: v1(base), candidate: structured }),
    (e) =>
      e instanceof ComparisonGateError &&
      /assay\.evaluation\.v1 and assay\.structured/.test(e.message),
  );
});

Deno.test("evaluateGate() says when a report left examples out for want of a generation", () => {
  const partial = report(8, (i) => i !== 5, 3); // ex-0..2 have no generation
  const rules = gate("  - metric: full_call_exact_match\n    min: 0.8\n");
  const one = evaluateGate(rules, { report: partial });
  strictEqual(one.pass, true); // 4 of the 5 scored
  strictEqual(
    one.note,
    'The report scored 5 of its 8 examples: 3 had no generation (scored with --allow-missing: "ex-0", ' +
      '"ex-1", "ex-2"), left out of every figure.',
  );
  ok(gateMarkdown(one, "g.yaml").includes("Note: The report scored 5 of its 8 examples\\: 3 had"));
  // Both sides, the ids past the fifth counted; a whole report adds nothing.
  const many = report(20, () => true, 7);
  const both = evaluateGate(
    gate("  - metric: full_call_exact_match\n    max_regressions: 0\n"),
    { base: many, candidate: many },
  );
  match(both.note!, /^The base report scored 13 of its 20 examples: 7 had no generation/);
  match(both.note!, /"ex-3", "ex-4", … 7 in all\), left out of every figure\.$/);
  match(both.note!, / The candidate report scored 13 of its 20 examples/);
  strictEqual(evaluateGate(rules, { report: report(8, () => true) }).note, undefined);
  // On the shared examples too, beside the coverage.
  const whole = report(8, () => true);
  const shared = evaluateGate(rules, { base: whole, candidate: partial }, { on: "intersection" });
  match(shared.note!, /^The candidate report scored 5 of its 8 examples: 3 had no generation/);
  deepStrictEqual(shared.coverage!.base_only.ids, ["ex-0", "ex-1", "ex-2"]);
});

Deno.test("checkReportBody() refuses a report's missing_generations that is not its count of ids", () => {
  const partial = report(6, () => true, 2);
  checkReportBody(JSON.parse(JSON.stringify(partial)));
  checkReportBody(JSON.parse(JSON.stringify(report(6, () => true))));
  for (const missing of [{ count: 3, ids: ["ex-0", "ex-1"] }, { count: "2" }, [], null]) {
    throws(
      () => checkReportBody({ ...partial, missing_generations: missing }),
      /evaluation\.v2 report is malformed: missing_generations is not \{count, ids\} \(a count and a list of that many ids\) or absent/,
    );
  }
});

Deno.test("evaluateGate() refuses structured reports of two modes, expected files or schemas, or one outputs file read two ways", async () => {
  const enc = new TextEncoder();
  const lines = (rows: object[]) => enc.encode(rows.map((r) => JSON.stringify(r) + "\n").join(""));
  const fenced = '```json\n{"answer": 1}\n```';
  const base = lines([{ id: "q1", output: '{"answer": 1}' }, { id: "q2", output: fenced }]);
  const candidate = lines([{ id: "q1", output: fenced }, { id: "q2", output: '{"answer": 1}' }]);
  const expected = (answer: number) =>
    lines([{ id: "q1", fields: { answer } }, { id: "q2", fields: { answer } }]);
  const schema = (type: string) => enc.encode(JSON.stringify({ properties: { answer: { type } } }));
  const score = async (
    outputs: Uint8Array,
    options: { mode?: "strict" | "lenient"; answer?: number; type?: string; hermes?: boolean } = {},
  ) =>
    (await scoreStructuredJsonl(
      {
        outputs,
        expected: expected(options.answer ?? 1),
        schema: schema(options.type ?? "integer"),
      },
      {
        metrics: ["json_validity"],
        mode: options.mode,
        ...(options.hermes ? { decoder: getDecoder("hermes") } : {}),
      },
    )).report;
  const rules = gate("  - metric: json_validity\n    max_regressions: 0\n");
  const refused = (b: object, c: object, detail: RegExp) => {
    throws(() => evaluateGate(rules, { base: b, candidate: c }), (e) => {
      ok(e instanceof ComparisonGateError, String(e));
      match(e.message, detail);
      return true;
    });
  };
  // Same settings: the candidate's q1 regresses (fenced, strict).
  const verdict = evaluateGate(rules, {
    base: await score(base),
    candidate: await score(candidate),
  });
  deepStrictEqual(verdict.rules[0]!.failing, ["q1"]);
  refused(
    await score(base),
    await score(candidate, { mode: "lenient" }),
    /^Refusing to compare: extraction modes differ: base "strict", candidate "lenient"$/,
  );
  refused(
    await score(base),
    await score(candidate, { answer: 2 }),
    /^Refusing to compare: expected files' sha256 differ: base [0-9a-f]{12}…, candidate [0-9a-f]{12}…$/,
  );
  refused(
    await score(base),
    await score(candidate, { type: "string" }),
    /^Refusing to compare: schema files' sha256 differ/,
  );
  // One outputs file read with two call formats is one model scored twice; two models' outputs
  // may each have their own.
  refused(
    await score(base),
    await score(base, { hermes: true }),
    /^Refusing to compare: the same outputs' call formats differ: base null, candidate "hermes@2"$/,
  );
  strictEqual(
    evaluateGate(rules, {
      base: await score(base),
      candidate: await score(candidate, { hermes: true }),
    })
      .pass,
    false,
  );
  // Without expected rows on one side: "none".
  const bare = (await scoreStructuredJsonl({ outputs: candidate }, { metrics: ["json_validity"] }))
    .report;
  refused(
    await score(base),
    bare,
    /expected files' sha256 differ: base [0-9a-f]{12}…, candidate none; schema files' sha256 differ/,
  );
});

Deno.test("evaluateGate() refuses BFCL reports of two matchings or checkers, and IFEval reports of two checkers, as their compare commands do", () => {
  const bfcl = bfclReport([
    checkBfcl({ results: { name: "r.json", text: '{"id": "relevance_0", "result": "No."}\n' } }, {
      category: "relevance",
    }),
  ]);
  const rules = gate("  - metric: accuracy\n    max_regressions: 0\n");
  strictEqual(
    evaluateGate(rules, { base: bfcl, candidate: { ...bfcl, matching: "greedy" } }).pass,
    true,
  );
  const refused = (base: object, candidate: object, detail: string) =>
    throws(() => evaluateGate(rules, { base, candidate }), (e) => {
      strictEqual(e instanceof ComparisonGateError && e.message, `Refusing to compare: ${detail}`);
      return true;
    });
  refused(
    bfcl,
    { ...bfcl, matching: "optimal" },
    "matchings differ: base greedy, candidate optimal",
  );
  refused(
    { ...bfcl, checker: "bfcl.ast@2025-01" },
    bfcl,
    "checkers differ: base bfcl.ast@2025-01, candidate bfcl.ast@2024-08",
  );
  const ifeval = (checker: string) => ({
    schema: "assay.ifeval.v1",
    ...IFEVAL_FIELDS,
    checker,
    prompts: [{
      key: 1,
      instruction_id_list: ["punctuation:no_comma"],
      strict: [true],
      loose: [true],
    }],
  });
  const prompt = gate("  - metric: prompt_strict\n    max_regressions: 0\n");
  strictEqual(evaluateGate(prompt, { base: ifeval("x@1"), candidate: ifeval("x@1") }).pass, true);
  throws(
    () => evaluateGate(prompt, { base: ifeval("x@1"), candidate: ifeval("x@2") }),
    /^ComparisonGateError: Refusing to compare: checkers differ: base x@1, candidate x@2$/,
  );
});

Deno.test("gateJunit() holds the verdict's coverage and note in the test suite's system-out, and validates", async () => {
  const whole = report(8, (i) => i !== 4);
  const partial = report(8, (i) => i !== 4, 3);
  const rules = gate("  - metric: full_call_exact_match\n    max_regressions: 0\n");
  const verdict = evaluateGate(rules, { base: whole, candidate: partial }, { on: "intersection" });
  const xml = gateJunit(verdict, "g.yaml");
  ok(
    xml.includes(
      "    </testcase>\n    <system-out>Gated on the 5 examples both reports hold; 3 only in the " +
        "base, 0 only in the candidate.\nThe candidate report scored 5 of its 8 examples: 3 had no " +
        "generation (scored with --allow-missing: &quot;ex-0&quot;, &quot;ex-1&quot;, " +
        "&quot;ex-2&quot;), left out of every figure.</system-out>\n  </testsuite>\n",
    ),
    xml,
  );
  await assertValidJunit(xml);
  // A verdict with neither says nothing more.
  const plain = gateJunit(evaluateGate(rules, { base: whole, candidate: whole }), "g.yaml");
  ok(
    !plain.includes("<system-out>Gated") &&
      plain.endsWith("</testcase>\n  </testsuite>\n</testsuites>\n"),
  );
});

Deno.test("evaluateGate() refuses structured reports whose settings differ where both computed a metric they change", async () => {
  const enc = new TextEncoder();
  const outputs = enc.encode(
    ['{"id": "q1", "output": "{\\"n\\": 1.0}"}', '{"id": "q2", "output": "{\\"n\\": 2}"}']
      .join("\n") + "\n",
  );
  const expected = enc.encode(
    '{"id": "q1", "fields": {"n": 1}}\n{"id": "q2", "fields": {"n": 2}}\n',
  );
  const score = async (options: Parameters<typeof scoreStructuredJsonl>[1]) =>
    (await scoreStructuredJsonl({ outputs, expected }, options)).report;
  const exact = await score({});
  const numeric = await score({ numbers: "numeric" });
  deepStrictEqual(exact.settings, {
    numbers: "exact",
    match: "exact",
    ordered: false,
    format: null,
    format_assertion: false,
  });
  const rules = gate("  - metric: json_validity\n    max_regressions: 0\n");
  throws(
    () => evaluateGate(rules, { base: exact, candidate: numeric }),
    /^ComparisonGateError: Refusing to compare: numbers settings differ: base "exact", candidate "numeric"$/,
  );
  // Both with a format, of two regexes; a setting no metric of both reads is not compared.
  const formats = ["format_compliance", "json_validity"];
  const [x, y] = [
    await score({ format: "x", metrics: formats }),
    await score({ format: "y", metrics: formats }),
  ];
  throws(
    () => evaluateGate(rules, { base: x, candidate: y }),
    /format settings differ: base "x", candidate "y"$/,
  );
  const only = (numbers: "exact" | "numeric") => score({ numbers, metrics: ["json_validity"] });
  strictEqual(
    evaluateGate(rules, { base: await only("exact"), candidate: await only("numeric") }).pass,
    true,
  );
  // A report written before settings were recorded is compared as before; a misshapen one is not read.
  const { settings: _, ...older } = numeric;
  const olderVerdict = evaluateGate(rules, { base: exact, candidate: older });
  strictEqual(olderVerdict.pass, true);
  // ... and the verdict says its settings were not compared.
  strictEqual(
    olderVerdict.note,
    "report candidate records no settings (written before 2026-12-06): its settings were not " +
      "compared; score it again to record them",
  );
  strictEqual(evaluateGate(rules, { base: exact, candidate: exact }).note, undefined);
  throws(
    () => checkReportBody({ ...exact, settings: { ...exact.settings, ordered: "no" } }),
    /structured\.v1 report is malformed: settings is not \{numbers, match, ordered, format, format_assertion\} or absent/,
  );
});

Deno.test("evaluateGate() min on a suite run with repeats lists the goldens with a wrong repeat", () => {
  const report = suiteRun(11, 8, 3);
  const rules = gate(
    "  - metric: exact\n    slice: a\n    min: 1\n  - metric: pass_rate\n    min: 1\n" +
      "  - metric: graded\n    min: 1\n",
  );
  const v = evaluateGate(rules, { report });
  // From the runs themselves: a unit (golden@arm) fails when one of its counted runs is wrong.
  const wrong = (
    arm: string | undefined,
    scoreOf: (r: (typeof report.runs)[number]) => number | null,
  ) => [
    ...new Set(
      report.runs.filter((r) => (arm === undefined || r.arm === arm) && scoreOf(r) === 0)
        .map((r) => `${r.golden_id}@${r.arm}`),
    ),
  ];
  const exact = wrong("a", (r) => r.criteria[0]!.score);
  ok(exact.length > 0 && exact.length < 8, String(exact));
  deepStrictEqual(v.rules[0]!.failing, exact);
  const passes = wrong(
    undefined,
    (r) => r.overall.pass === null ? null : r.overall.pass ? 1 : 0,
  );
  deepStrictEqual([...v.rules[1]!.failing].sort(), passes.sort());
  ok(v.rules.slice(0, 2).every((r) => !r.pass && r.failing.length > 0));
  // A graded metric's scores are not right or wrong: nothing is listed.
  deepStrictEqual([v.rules[2]!.pass, v.rules[2]!.failing], [false, []]);
});

Deno.test("evaluateGate() refuses suite runs whose judges ran in one and not the other, or of other goldens or catalogs", () => {
  const digest = (c: string) => ({ sha256: c.repeat(64) });
  const run = (judge: string, goldens = "a", catalog = "b") => ({
    ...suiteRun(3, 6, 1),
    suite_sha256: "c".repeat(64),
    judge,
    inputs: { goldens: digest(goldens), catalog: digest(catalog) },
  });
  const rules = gate("  - metric: pass_rate\n    non_inferior: { margin: 1 }\n");
  strictEqual(evaluateGate(rules, { base: run("on"), candidate: run("on") }).pass, true);
  const refused = (base: object, candidate: object, detail: string) =>
    throws(() => evaluateGate(rules, { base, candidate }), (e) => {
      strictEqual(e instanceof ComparisonGateError && e.message, `Refusing to compare: ${detail}`);
      return true;
    });
  refused(run("off"), run("on"), "judges differ: base off, candidate on");
  refused(
    run("on"),
    run("on", "d", "e"),
    "goldens files' sha256 differ: base aaaaaaaaaaaa…, candidate dddddddddddd…; " +
      "catalog files' sha256 differ: base bbbbbbbbbbbb…, candidate eeeeeeeeeeee…",
  );
  // A run written before the goldens were recorded is compared on its suite, as before.
  const { inputs: _, ...older } = run("on", "d");
  const olderVerdict = evaluateGate(rules, { base: run("on"), candidate: older });
  strictEqual(olderVerdict.pass, true);
  strictEqual(
    olderVerdict.note,
    "report candidate records no goldens' or catalog's digest (written before 2026-12-06, or " +
      "built without them): its goldens and catalog were not compared; score it again to " +
      "record them",
  );
  strictEqual(evaluateGate(rules, { base: run("on"), candidate: run("on") }).note, undefined);
  throws(
    () => checkReportBody({ ...run("on"), inputs: { goldens: digest("a") } }),
    /suite_run\.v1 report is malformed: inputs is not absent or \{goldens, catalog\}/,
  );
});
