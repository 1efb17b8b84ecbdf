// A comparative rule's lower bound exactly at its bound: the same exact lower bound gets the same
// verdict whatever the levels the two runs are at, though its float came out on either side.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { scoreToolCalls } from "../../src/evaluation/mod.ts";
import type { EvaluationReport } from "../../src/evaluation/mod.ts";
import { evaluateGate, parseGateRules } from "../../src/gate/mod.ts";

const ARGS = Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`k${j}`, j]));

/** Twenty examples, each of ten argument pairs, of which every output gets `right` right. */
function pairs(right: number): EvaluationReport {
  const examples = Array.from({ length: 20 }, (_, i) => ({
    example_id: `e${i}`,
    language: "en",
    target: { name: "f", arguments: ARGS },
  }));
  const args = Object.fromEntries(Object.keys(ARGS).map((k, j) => [k, j < right ? j : -1]));
  const output = JSON.stringify({ name: "f", arguments: args });
  return scoreToolCalls(examples, examples.map((e) => ({ example_id: e.example_id, output })));
}

/** `n` examples, the first `right` of them right. */
function outcomes(n: number, right: number): EvaluationReport {
  const examples = Array.from({ length: n }, (_, i) => ({
    example_id: `e${String(i).padStart(3, "0")}`,
    language: "en",
    target: { name: "f", arguments: { x: 1 } },
  }));
  return scoreToolCalls(
    examples,
    examples.map((e, i) => ({
      example_id: e.example_id,
      output: JSON.stringify({ name: "f", arguments: { x: i < right ? 1 : 2 } }),
    })),
  );
}

const rule = (metric: string, check: string) =>
  parseGateRules(`rules:\n  - metric: ${metric}\n    ${check}\n`, "g.yaml");

Deno.test("evaluateGate() non_inferior: a lower bound exactly at -margin holds at any level", () => {
  // Every example the same: argument_f1 is 0.8 and 0.7 (0.7 - 0.8 = -0.10000000000000009), or 0.7
  // and 0.6 (-0.09999999999999998): 0.1 below in both, in every resample.
  const gate = rule("argument_f1", "non_inferior: { margin: 0.1 }");
  for (const [b, c] of [[8, 7], [7, 6], [3, 2], [10, 9]]) {
    const r = evaluateGate(gate, { base: pairs(b!), candidate: pairs(c!) }).rules[0]!;
    strictEqual(r.pass, true, `${b} -> ${c} of 10: ${r.message}`);
    strictEqual(r.message.includes("interval [-0.1000, -0.1000]"), true, r.message);
  }
  // The JSON verdict keeps the interval as computed.
  const v = evaluateGate(gate, { base: pairs(8), candidate: pairs(7) });
  deepStrictEqual(v.rules[0]!.ci, [0.7 - 0.8, 0.7 - 0.8]);
  // Just past the bound fails, and superior does not hold at 0.
  strictEqual(
    evaluateGate(rule("argument_f1", "non_inferior: { margin: 0.0999 }"), {
      base: pairs(8),
      candidate: pairs(7),
    }).pass,
    false,
  );
  strictEqual(
    evaluateGate(rule("argument_f1", "superior: true"), { base: pairs(7), candidate: pairs(7) })
      .pass,
    false,
  );
});

Deno.test("evaluateGate() non_inferior: one regression of 20 against a margin of 3/20", () => {
  // The lower bound is 3 of the 20 draws of the regressed example: 17/20 - 20/20, computed as
  // -0.15000000000000002; it failed a margin of 0.15, which it is exactly on.
  const v = evaluateGate(rule("full_call_exact_match", "non_inferior: { margin: 0.15 }"), {
    base: outcomes(20, 20),
    candidate: outcomes(20, 19),
  });
  const r = v.rules[0]!;
  strictEqual(r.ci![0], 0.85 - 1);
  strictEqual(r.pass, true, r.message);
  strictEqual(
    r.message,
    "delta -0.0500, 95% interval [-0.1500, 0]; needs a lower bound of at least -0.15",
  );
  deepStrictEqual(r.failing, []);
});
