// checkBfcl() against BFCL's published 2024-08 verdicts, entry by entry: every entry's pass or
// fail and every failing entry's error_type must be the score file's, except the entries listed
// in KNOWN_ISSUES (each must still disagree, so that a fix removes its row).
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import type { BfclCategory } from "../../src/bfcl/mod.ts";
import {
  AST_CATEGORIES,
  disagreements,
  FC_MODELS,
  PROMPTING_MODELS,
  publishedScore,
  runModel,
} from "./_fixtures.ts";

/** An entry whose verdict we knowingly do not reproduce. */
export interface KnownIssue {
  /** The model, as its result folder is named. */
  model: string;
  /** The category. */
  category: BfclCategory;
  /** The entry's 1-based position (the score file's id). */
  id: number;
  /** Why we differ. */
  reason: string;
}

/**
 * Every entry of the 11 models, in every category, whose verdict differs from the published one:
 * none since 2026-12-06. The ten that did (arguments BFCL evaluated as arithmetic, such as
 * Meta-Llama-3-70B-Instruct's relevance 23, `permeability=4*3.14159*10**-7`) are evaluated as
 * BFCL's eval evaluated them (src/bfcl/_python_eval.ts).
 */
export const KNOWN_ISSUES: KnownIssue[] = [];

function known(model: string, category: string): Map<number, string> {
  return new Map(
    KNOWN_ISSUES.filter((k) => k.model === model && k.category === category).map((k) => [
      k.id,
      k.reason,
    ]),
  );
}

async function agreement(models: string[], categories: BfclCategory[]): Promise<void> {
  for (const model of models) {
    for (const category of categories) {
      const run = await runModel(model, category);
      const pub = publishedScore(model, category);
      strictEqual(run.total, pub.total, `${model}/${category}: entry count`);
      const differ = disagreements(run, pub);
      const expected = known(model, category);
      console.log(
        `${model} ${category}: ${run.total - differ.size}/${run.total} agree` +
          (expected.size > 0 ? ` (${expected.size} known issues)` : ""),
      );
      // Every disagreement is a known issue, and every known issue still disagrees.
      assertEquals(
        [...differ.keys()].sort((a, b) => a - b),
        [...expected.keys()].sort((a, b) => a - b),
        `${model}/${category}: ${[...differ].map(([id, d]) => `${id}: ${d}`).join("; ")}`,
      );
      if (expected.size === 0) strictEqual(run.correct, pub.correct);
    }
  }
}

Deno.test("checkBfcl() gives every published verdict and error_type of the 6 FC models' 6,000 AST entries", async () => {
  await agreement(FC_MODELS, AST_CATEGORIES);
});

Deno.test("checkBfcl() gives the FC models' published java, javascript and relevance verdicts", async () => {
  await agreement(FC_MODELS, ["java", "javascript", "relevance"]);
});

Deno.test("checkBfcl() decodes the prompting models' Python categories as BFCL, known issues aside", async () => {
  await agreement(PROMPTING_MODELS, [...AST_CATEGORIES, "relevance"]);
});

Deno.test("checkBfcl() decodes the prompting models' java and javascript as BFCL's Java and JavaScript parsers", async () => {
  await agreement(PROMPTING_MODELS, ["java", "javascript"]);
});
