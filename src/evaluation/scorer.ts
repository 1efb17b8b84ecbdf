/**
 * Tool-call evaluation of rows already in memory: join examples and generations, check the
 * invariants, score each example and pool the five metrics overall and per language
 * (CONTRACT §4–5, docs/evaluation.md).
 *
 * {@linkcode scoreToolCalls} takes arrays; {@linkcode ToolCallScorer} takes the same rows in
 * batches, so that a caller streaming rows keeps only the per-example records in memory. For
 * JSONL bytes or streams, use {@linkcode scoreJsonl}: it reads the lines exactly as `assay score`
 * does (a plain `JSON.parse` of a line would turn a gold `1.0` into `1`) and is much faster.
 *
 * @module
 */
import type {
  EvaluationReport,
  ExampleInput,
  GenerationInput,
  PromptInput,
  ScoreOptions,
} from "./inputs.ts";
import { ScorerCore } from "./_scorer_core.ts";
import { checkOptions } from "../engine/mod.ts";

/** Scores tool-call generations against examples, one batch at a time. */
export class ToolCallScorer {
  #core: ScorerCore;

  /**
   * Creates a scorer.
   *
   * @param options The engine, whether prompts are part of the inputs, and source names.
   */
  constructor(options: ScoreOptions = {}) {
    checkOptions(options);
    this.#core = new ScorerCore(options);
  }

  /**
   * Adds examples. All examples come before any generation.
   *
   * @param batch Example rows.
   * @throws {InputError} If a target is not valid JSON or a field is mistyped.
   */
  addExamples(batch: readonly ExampleInput[]): void {
    this.#core.addExamples(batch);
  }

  /**
   * Adds rows of the prompts manifest. All prompts come before any generation.
   *
   * @param batch Manifest rows.
   * @throws {InputError} If a field is missing or mistyped.
   */
  addPrompts(batch: readonly PromptInput[]): void {
    this.#core.addPrompts(batch);
  }

  /**
   * Scores a batch of generations against their examples.
   *
   * @param batch Generation rows.
   * @throws {InputError} If a field is missing or mistyped.
   */
  addGenerations(batch: readonly GenerationInput[]): void {
    this.#core.addGenerations(batch);
  }

  /**
   * Checks the remaining invariants and builds the report.
   *
   * @param inputs Digests of the input files, recorded in the report.
   * @returns The `assay.evaluation.v2` report.
   * @throws {InvariantViolation} If any invariant is broken.
   */
  finish(inputs: Partial<EvaluationReport["inputs"]> = {}): EvaluationReport {
    return this.#core.finish(inputs);
  }
}

/**
 * Scores tool-call generations against examples and returns the evaluation report.
 *
 * @param examples Example rows (gold targets), in file order.
 * @param generations Generation rows (raw model outputs).
 * @param options The engine, an optional prompts manifest, source names and input digests.
 * @returns The `assay.evaluation.v2` report.
 * @throws {InvariantViolation} If the inputs break an invariant (duplicate ids, orphans, missing
 *   generations, digest mismatches).
 * @throws {InputError} If a row is malformed.
 * @throws {TypeError} If `engine` is not an engine, or `decoder` is not a scoring decoder from
 *   `forScoring`.
 *
 * @example The reference's worked example
 * ```ts
 * import { scoreToolCalls } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const gold = (city: string) => ({ name: "get_weather", arguments: { city, units: "celsius" } });
 * const report = scoreToolCalls(
 *   [
 *     { example_id: "1", language: "en", target: gold("Paris") },
 *     { example_id: "2", language: "en", target: gold("Paris") },
 *     { example_id: "3", language: "en", target: gold("Oslo") },
 *     { example_id: "4", language: "en", target: gold("Rome") },
 *   ],
 *   [
 *     { example_id: "1", output: '{"name": "get_weather", "arguments": {"city": "Paris", "units": "celsius"}}' },
 *     { example_id: "2", output: '{"name": "get_weather", "arguments": {"city": "Paris", "units": "kelvin"}}' },
 *     { example_id: "3", output: '{"name": "fetch_weather", "arguments": {"city": "Oslo", "units": "celsius"}}' },
 *     { example_id: "4", output: "The weather in Rome is sunny." },
 *   ],
 * );
 * assertEquals(report.metrics.overall.argument_f1, { value: 10 / 14, numerator: 10, denominator: 14 });
 * assertEquals(report.metrics.overall.full_call_exact_match.value, 0.25);
 * ```
 */
export function scoreToolCalls(
  examples: readonly ExampleInput[],
  generations: readonly GenerationInput[],
  options: ScoreOptions & { prompts?: readonly PromptInput[] } = {},
): EvaluationReport {
  checkOptions(options);
  const scorer = new ToolCallScorer({ ...options, withPrompts: options.prompts !== undefined });
  scorer.addExamples(examples);
  if (options.prompts) scorer.addPrompts(options.prompts);
  scorer.addGenerations(generations);
  return scorer.finish(options.inputs);
}
