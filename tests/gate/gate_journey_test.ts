// A CI job's gate end to end on reports as a job makes them: a base from an older run (v1), a
// candidate scored with --allow-missing, and what the verdict says about each.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { scoreToolCalls } from "../../src/evaluation/mod.ts";
import type { EvaluationReport } from "../../src/evaluation/mod.ts";
import { ComparisonGateError } from "../../src/compare/mod.ts";
import { evaluateGate, parseGateRules } from "../../src/gate/mod.ts";

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
  const structured = { schema: "assay.structured.v1", metrics: {}, rows: [] };
  throws(
    () => evaluateGate(rules, { base: v1(base), candidate: structured }),
    (e) =>
      e instanceof ComparisonGateError &&
      /assay\.evaluation\.v1 and assay\.structured/.test(e.message),
  );
});
