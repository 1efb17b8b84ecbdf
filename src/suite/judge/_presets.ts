// The three ready-made judge presets of the suite metrics reference, exactly as its YAML loads:
// a folded (`>`) scalar joins its lines with single spaces and keeps one trailing newline.

/** One `llm_judge` metric as declared in a suite: a display name, a threshold and its params. */
export interface JudgeMetric {
  /** The metric's display name (it groups scores for {@linkcode assertSameRubric}). */
  name: string;
  /** The score threshold of the criterion, in [0, 1]. */
  threshold: number;
  /** The `llm_judge` params, validated by {@linkcode validateJudgeParams} before use. */
  params: Record<string, unknown>;
}

const fold = (lines: string[]): string => lines.join(" ") + "\n";

/**
 * The reference's three presets, `answer_correctness`, `sql_soundness` and `groundedness`, keyed
 * by name. Each is frozen; copy one to change it.
 *
 * @example Use a preset
 * ```ts
 * import { JUDGE_PRESETS, validateJudgeParams } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const preset = JUDGE_PRESETS.groundedness;
 * assertEquals(preset.threshold, 0.7);
 * assertEquals(validateJudgeParams(preset.params).evaluation_params, ["final_answer", "query_results"]);
 * ```
 */
export const JUDGE_PRESETS: Readonly<
  Record<"answer_correctness" | "sql_soundness" | "groundedness", Readonly<JudgeMetric>>
> = Object.freeze({
  answer_correctness: Object.freeze({
    name: "answer_correctness",
    threshold: 0.7,
    params: Object.freeze({
      applicable_when: "reference_answer_text",
      evaluation_params: Object.freeze(["input", "final_answer", "reference_answer_text"]),
      criteria: fold([
        "Compare the agent's substantive claims (numbers, trends, named entities)",
        "against the reference answer. Score 0.0 for a material factual or numeric",
        "contradiction, 1.0 when the substance matches even if phrasing differs. Do",
        "not penalize stylistic differences, extra correct detail, or a different but",
        "equally valid framing of the same facts.",
      ]),
    }) as Record<string, unknown>,
  }),
  sql_soundness: Object.freeze({
    name: "sql_soundness",
    threshold: 0.5,
    params: Object.freeze({
      evaluation_params: Object.freeze(["input", "predicted_sqls", "schema_catalog"]),
      criteria: fold([
        "Given the question and the known schema, is the submitted SQL structurally",
        "sound and a plausible way to answer the question? Judge plausibility only --",
        "you do not have live execution results here. Do not penalize style choices",
        "(aliasing, formatting, CTE vs. subquery).",
      ]),
    }) as Record<string, unknown>,
  }),
  groundedness: Object.freeze({
    name: "groundedness",
    threshold: 0.7,
    params: Object.freeze({
      evaluation_params: Object.freeze(["final_answer", "query_results"]),
      criteria: fold([
        "Does the final natural-language answer accurately reflect the query_results",
        "returned, without fabricating or omitting material facts? This checks",
        "internal consistency only -- it does not check whether query_results are",
        "themselves correct.",
      ]),
    }) as Record<string, unknown>,
  }),
});
