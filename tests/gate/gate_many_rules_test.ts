// A gate of many rules: each rule's verdict is the one it gets alone, whatever the other rules read
// (the records are grouped by slice once per report and kept for the evaluation).
import { deepStrictEqual } from "node:assert/strict";
import { scoreToolCalls } from "../../src/evaluation/mod.ts";
import {
  evaluateGate,
  type GateVerdict,
  metricSource,
  parseGateRules,
} from "../../src/gate/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { suiteRun } from "./_suite_runs.ts";

const LANGUAGES = ["en", "ja", "de", "fr", "pt", "zh"];

function report(rng: Rng, n: number, wrong: number) {
  const examples = Array.from({ length: n }, (_, i) => ({
    example_id: `ex-${i}`,
    language: rng.pick(LANGUAGES),
    target: { name: "f", arguments: { x: 1, y: 2 } },
  }));
  const outputs = ['{"name":"f","arguments":{"x":1,"y":2}}', '{"name":"f","arguments":{"x":1}}'];
  const generations = examples.map((e) => ({
    example_id: e.example_id,
    output: rng.chance(wrong) ? rng.pick([...outputs.slice(1), "no call"]) : outputs[0]!,
  }));
  return scoreToolCalls(examples, generations);
}

function rule(rng: Rng, metrics: string[], slices: string[], paired: boolean): string {
  const slice = rng.pick(slices);
  const check = rng.int(paired ? 3 : 2);
  const bound = (rng.int(21) / 20).toFixed(2);
  const metric = rng.pick(check === 2 ? metrics.filter((m) => m !== "argument_f1") : metrics);
  return `  - metric: ${metric}\n` + (slice === "" ? "" : `    slice: ${slice}\n`) +
    (check === 0
      ? `    min: ${bound}\n`
      : check === 1
      ? `    max: ${bound}\n`
      : "    max_regressions: 1\n");
}

/** The verdict without Holm's correction, which depends on the rules tested together. */
function alone(v: GateVerdict["rules"][number]) {
  if (v.mcnemar === undefined) return v;
  const { holm_p_value: _h, significant: _s, ...mcnemar } = v.mcnemar;
  return { ...v, mcnemar };
}

function checkRules(input: Parameters<typeof evaluateGate>[1], rules: string[]): void {
  const all = evaluateGate(parseGateRules(`seed: 3\nrules:\n${rules.join("")}`, "g.yaml"), input);
  rules.forEach((text, i) => {
    const one = evaluateGate(parseGateRules(`seed: 3\nrules:\n${text}`, "g.yaml"), input);
    deepStrictEqual(alone(all.rules[i]!), alone({ ...one.rules[0]!, at: all.rules[i]!.at }));
  });
}

Deno.test("a gate of many rules on evaluation reports gives each rule its verdict alone", () => {
  const rng = makeRng(5531);
  const metrics = ["full_call_exact_match", "function_name_accuracy", "argument_f1"];
  const slices = ["", "overall", ...LANGUAGES];
  for (let round = 0; round < 12; round++) {
    const base = report(makeRng(round), 40 + rng.int(80), 0.3);
    const candidate = report(makeRng(round), base.records.length, 0.2 + rng.int(3) / 10);
    const paired = rng.chance(0.6);
    const rules = Array.from({ length: 30 }, () => rule(rng, metrics, slices, paired));
    checkRules(paired ? { base, candidate } : { report: candidate }, rules);
    // Each slice reads its records, in the report's order, read after the others.
    const source = metricSource(candidate);
    for (const slice of [...LANGUAGES, "overall", ...LANGUAGES]) {
      const ids = candidate.records.filter((x) => slice === "overall" || x.language === slice)
        .map((x) => x.example_id);
      deepStrictEqual(source.shares("argument_f1", slice).map((x) => x.id), ids);
    }
  }
});

Deno.test("a gate of many rules on suite runs gives each rule its verdict alone, per arm", () => {
  const rng = makeRng(5532);
  for (let round = 0; round < 6; round++) {
    const base = suiteRun(20 + round, 12, 1);
    const candidate = suiteRun(40 + round, 12, 1, 0.2);
    const paired = rng.chance(0.5);
    const rules = Array.from(
      { length: 20 },
      () => rule(rng, paired ? ["exact"] : ["exact", "graded"], ["", "a", "b"], paired),
    );
    checkRules(paired ? { base, candidate } : { report: candidate }, rules);
  }
});
