// suggestName(): the "did you mean" of the suite loader, the judge params and the CLI.
import { strictEqual } from "node:assert/strict";
import { suggestName } from "../../src/jsonl/mod.ts";

Deno.test("suggestName() returns the closest candidate for a likely typo", () => {
  strictEqual(suggestName("exmples", ["examples", "generations", "prompts"]), "examples");
  strictEqual(suggestName("hit_limt", ["hit_limit", "step_efficiency"]), "hit_limit");
  strictEqual(suggestName("scor", ["parse", "score", "compare"]), "score");
});

Deno.test("suggestName() ignores case and breaks ties towards the earlier candidate", () => {
  strictEqual(suggestName("Hit_Limit", ["hit_limit"]), "hit_limit");
  strictEqual(suggestName("ab", ["ax", "bx"]), "ax");
});

Deno.test("suggestName() suggests nothing for a word far from every candidate", () => {
  strictEqual(suggestName("x", ["hit_limit"]), undefined);
  strictEqual(suggestName("zzzzzzzz", ["examples", "generations"]), undefined);
  strictEqual(suggestName("anything", []), undefined);
});

Deno.test("suggestName() suggests the one candidate a word cut short begins, and no guess among several", () => {
  strictEqual(suggestName("fail", ["failing", "metric", "limit"]), "failing");
  strictEqual(suggestName("ref", ["reference", "resamples", "seed"]), "reference");
  strictEqual(suggestName("REF", ["reference"]), "reference");
  // Two candidates begin with it, or it is a single character: no suggestion.
  strictEqual(suggestName("re", ["reference", "resamples"]), undefined);
  strictEqual(suggestName("f", ["failing"]), undefined);
});
