/**
 * IFEval's verifiable-instruction checkers (`ifeval@google-3f357bde`), reproduced verdict for
 * verdict: the 25 registered checkers under Python string and `re` semantics, the text machinery
 * they rest on (nltk's Punkt sentence splitter and Treebank word tokenizer, `\w+` words,
 * langdetect 1.0.9 with seed 0), and the strict and loose evaluations.
 *
 * @example Splitting sentences as nltk does
 * ```ts
 * import { splitSentences } from "@assay/assay/ifeval";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(splitSentences("Dr. No left. Then rain.").length, 2);
 * ```
 *
 * @module
 */
export * from "./punkt.ts";
export * from "./word_tokenize.ts";
export * from "./checkers.ts";
export * from "./langdetect.ts";
export * from "./evaluate.ts";
export * from "./python_random.ts";
export * from "./files.ts";
export * from "./report.ts";
export * from "./known_issues.ts";
export * from "./comparison.ts";
