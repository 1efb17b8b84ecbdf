// verdictText: a gate verdict as the plain text `assay gate` prints, from the library, so that a
// CI job gating in an edge function or a script logs the same lines.
import { ok, strictEqual } from "node:assert/strict";
import { scoreToolCalls } from "../../src/evaluation/mod.ts";
import { markdownText } from "../../src/explain/mod.ts";
import {
  evaluateGate,
  gateJunit,
  gateMarkdown,
  parseGateRules,
  verdictText,
} from "../../src/gate/mod.ts";

const target = { name: "f", arguments: {} };
const RIGHT = '{"name":"f","arguments":{}}';

/** A base right on every example and a candidate wrong on the first `wrong` of them. */
function reports(ids: string[], wrong: number) {
  const examples = ids.map((id) => ({ example_id: id, language: "en", target }));
  const base = scoreToolCalls(examples, ids.map((id) => ({ example_id: id, output: RIGHT })));
  const candidate = scoreToolCalls(
    examples,
    ids.map((id, i) => ({ example_id: id, output: i < wrong ? "no call" : RIGHT })),
  );
  return { base, candidate };
}

const RULES = "rules:\n  - metric: full_call_exact_match\n    max_regressions: 0\n" +
  "  - metric: valid_json_rate\n    min: 0\n";

Deno.test("verdictText() writes each rule's result, its McNemar line, its first ten failing ids and the outcome", () => {
  const ids = Array.from({ length: 12 }, (_, i) => `e${String(i).padStart(2, "0")}`);
  ids[3] = "bad\nid\u202e";
  const verdict = evaluateGate(parseGateRules(RULES, "g.yaml"), reports(ids, 11));
  strictEqual(
    verdictText(verdict, "g\u001b.yaml"),
    "FAIL  full_call_exact_match (overall) at most 0 regressions: 11 regressions, 0 " +
      "improvements; at most 0 allowed\n" +
      "      McNemar 11/0: p 0.000977, Holm p 0.000977 (significant)\n" +
      '      failing: e00, e01, e02, "bad\\nid\\u202e", e04, e05, e06, e07, e08, e09, … (11)\n' +
      "pass  valid_json_rate (overall) >= 0: 0.0833 (1/12), needs >= 0\n" +
      '"g\\u001b.yaml": FAILED, 1 of 2 rules hold\n',
  );
});

Deno.test("verdictText() lists ten failing ids without a count, and a passing rule's McNemar line without (significant)", () => {
  const ids = Array.from({ length: 10 }, (_, i) => `e${i}`);
  const failing = evaluateGate(parseGateRules(RULES, "g.yaml"), reports(ids, 10));
  strictEqual(
    verdictText(failing, "g.yaml").split("\n")[2],
    "      failing: e0, e1, e2, e3, e4, e5, e6, e7, e8, e9",
  );
  const rules = "rules:\n  - metric: full_call_exact_match\n    max_regressions: 1\n";
  const passing = evaluateGate(parseGateRules(rules, "g.yaml"), reports(ids, 1));
  strictEqual(
    verdictText(passing, "g.yaml"),
    "pass  full_call_exact_match (overall) at most 1 regression: 1 regression, 0 " +
      "improvements; at most 1 allowed\n" +
      "      McNemar 1/0: p 1.00, Holm p 1.00\n" +
      "g.yaml: passed, 1 of 1 rule holds\n",
  );
});

Deno.test("the text, Markdown and JUnit say 1 regression and 1 improvement, not 1 regressions", () => {
  const ids = ["a", "b", "c"];
  const examples = ids.map((id) => ({ example_id: id, language: "en", target }));
  // a is wrong in the base only (an improvement), b in the candidate only (a regression).
  const scored = (wrong: string) =>
    scoreToolCalls(
      examples,
      ids.map((id) => ({
        example_id: id,
        output: id === wrong ? "no call" : RIGHT,
      })),
    );
  const rules = "rules:\n  - metric: full_call_exact_match\n    max_regressions: 1\n";
  const verdict = evaluateGate(parseGateRules(rules, "g.yaml"), {
    base: scored("a"),
    candidate: scored("b"),
  });
  const rule = "full_call_exact_match (overall) at most 1 regression";
  const measured = "1 regression, 1 improvement; at most 1 allowed";
  const mcnemar = "1 regression, 1 improvement, p = 1.000, Holm p = 1.000";
  ok(verdictText(verdict, "g.yaml").startsWith(`pass  ${rule}: ${measured}\n`));
  const md = gateMarkdown(verdict, "g.yaml");
  const cells = [rule, "pass", measured, mcnemar].map(markdownText);
  ok(md.includes(`\n| ${cells.join(" | ")} |\n`), md);
  const xml = gateJunit(verdict, "g.yaml");
  ok(xml.includes(`<testcase name="${rule}"`), xml);
  ok(xml.includes(`${measured}\nMcNemar: ${mcnemar}`), xml);
});
