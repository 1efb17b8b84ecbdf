/**
 * The `llm_judge` metric: a declarative rubric (criteria or ordered evaluation steps) over chosen
 * context fields, rendered into a deterministic prompt and scored 0–1 by an LLM through
 * structured output. Anthropic Messages, OpenAI Chat Completions and any OpenAI-compatible
 * server (vLLM, llama.cpp, Ollama) are spoken over an injected `fetch`, with bounded retries,
 * backoff with seeded jitter, `Retry-After`, timeouts, a concurrency limit and a caller-supplied
 * cache. Every score carries `prompt_sha256` and `rubric_sha256`, and
 * {@linkcode assertSameRubric} refuses to mix rubrics. See `docs/judge.md`.
 *
 * @module
 */
import type { WithEngine } from "../../engine/mod.ts";
import {
  type JudgeModelSpec,
  type JudgeParams,
  JudgeParamsError,
  parseModel,
  validateParams,
} from "./_params.ts";
import {
  checkContext,
  type JudgeContext,
  type RenderedJudgePrompt,
  renderPrompt,
  rubricHash,
} from "./_prompt.ts";
import { checkOptions } from "../../engine/mod.ts";
import { checkOptionNames } from "../../jsonl/options/mod.ts";

export {
  DEFAULT_JUDGE_MODEL,
  EVALUATION_PARAMS,
  type EvaluationParam,
  JUDGE_PROVIDERS,
  type JudgeModelSpec,
  type JudgeParams,
  JudgeParamsError,
  type JudgeProvider,
} from "./_params.ts";
export { JUDGE_TEMPLATE_VERSION, type JudgeContext, type RenderedJudgePrompt } from "./_prompt.ts";
export { JUDGE_PRESETS, type JudgeMetric } from "./_presets.ts";
export type { JudgeCallEvent, JudgeErrorKind } from "./_call.ts";
export { ANTHROPIC_BASE_URL, OPENAI_BASE_URL } from "./_providers.ts";
export { assertSameRubric, judgeCacheKey, RubricMismatchError } from "./_rubric.ts";
export {
  createJudge,
  type Judge,
  type JudgeApiKeys,
  type JudgeCache,
  type JudgeCacheEntry,
  type JudgeOptions,
  type JudgeScore,
} from "./_client.ts";

/**
 * Validates the `params` of one `llm_judge` metric and fills in the defaults
 * (`evaluation_params: [input, final_answer]`, `judge_model: anthropic:claude-sonnet-5`).
 *
 * Exactly one of `criteria` (a non-empty string) and `evaluation_steps` (a non-empty list of
 * non-empty strings) is required; `evaluation_params` lists distinct context fields;
 * `applicable_when` names one context field; `judge_model` follows {@linkcode parseJudgeModel}.
 * Unknown keys and unknown names are refused with the closest valid name suggested.
 *
 * @param params The metric's `params` mapping, as loaded from the suite file.
 * @returns The normalised params (a new object).
 * @throws {JudgeParamsError} On the first problem; its `field` names the offending key, with an
 * index for list items (e.g. `evaluation_params[1]`), and `suggestion` the closest valid name.
 *
 * @example Defaults, and an error naming the field
 * ```ts
 * import { JudgeParamsError, validateJudgeParams } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
 *
 * assertEquals(validateJudgeParams({ criteria: "Is the answer polite?" }), {
 *   criteria: "Is the answer polite?",
 *   evaluation_params: ["input", "final_answer"],
 *   judge_model: "anthropic:claude-sonnet-5",
 * });
 * throws(
 *   () => validateJudgeParams({ criteria: "x", evaluation_params: ["input", "final_answr"] }),
 *   (e: unknown) =>
 *     e instanceof JudgeParamsError && e.field === "evaluation_params[1]" &&
 *     e.suggestion === "final_answer",
 * );
 * ```
 */
export function validateJudgeParams(params: unknown): JudgeParams {
  return validateParams(params);
}

/** One problem with `llm_judge` params, in the suite loader's `ParamsCheck` shape. */
export interface JudgeParamsIssue {
  /** The field relative to `params`, dot-separated (`evaluation_params.1`); `""` for `params`. */
  field: string;
  /** What is wrong (without the suggestion). */
  message: string;
  /** The closest valid name, when the field held an unknown name. */
  suggestion?: string;
  /** Whether the field's key itself is wrong (a param the judge does not have), not its value. */
  key?: true;
}

/**
 * {@linkcode validateJudgeParams} as a list of issues, in the shape of the suite loader's
 * `ParamsCheck`: empty when the params are valid, else the first problem with a dot-separated
 * field path (`evaluation_params.1`) that the loader can locate in the file.
 *
 * @param params The metric's `params` mapping.
 * @returns No issue, or one.
 *
 * @example Wire the judge's check into a suite loader
 * ```ts
 * import { judgeParamsIssues } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(judgeParamsIssues({ criteria: "ok" }), []);
 * assertEquals(judgeParamsIssues({ criteria: "ok", evaluation_params: ["input", "final_answr"] }), [{
 *   field: "evaluation_params.1",
 *   message: 'Param evaluation_params[1] "final_answr" is not a context field (expected one of ' +
 *     "input, final_answer, predicted_sqls, query_results, reference_answer_text, tool_calls, " +
 *     "schema_catalog)",
 *   suggestion: "final_answer",
 * }]);
 * ```
 */
export function judgeParamsIssues(params: unknown): JudgeParamsIssue[] {
  try {
    validateParams(params);
    return [];
  } catch (e) {
    if (!(e instanceof JudgeParamsError)) throw e;
    const field = e.field === "params" ? "" : e.field.replace(/\[(\d+)\]/g, ".$1");
    const key = e.key && { key: e.key };
    if (e.suggestion === undefined) return [{ field, message: e.message, ...key }];
    const suffix = `; did you mean "${e.suggestion}"?`;
    const message = e.message.slice(0, -suffix.length);
    return [{ field, message, suggestion: e.suggestion, ...key }];
  }
}

/**
 * Parses a judge model string. The syntax is `anthropic:<model>`, `openai:<model>` or
 * `openai-compatible:<model>@<base URL>`, where the base URL is the server root (`http://` or
 * `https://`; a trailing `/` or `/v1` is dropped) and requests go to `<base>/v1/chat/completions`.
 * The CLI can use it to learn which API keys a suite needs.
 *
 * @param judgeModel The model string.
 * @returns The provider, the model name sent on the wire, and the base URL when given.
 * @throws {JudgeParamsError} If the string does not follow the syntax (`field` is `judge_model`).
 *
 * @example An Ollama server
 * ```ts
 * import { parseJudgeModel } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(parseJudgeModel("openai-compatible:qwen3:8b@http://127.0.0.1:11434/v1"), {
 *   provider: "openai-compatible",
 *   model: "qwen3:8b",
 *   baseUrl: "http://127.0.0.1:11434",
 * });
 * ```
 */
export function parseJudgeModel(judgeModel: string): JudgeModelSpec {
  return parseModel(judgeModel);
}

/**
 * Renders the judge prompt for a metric's params and a run: the rubric, then each evaluation
 * param as a section `<field>…</field>` in the listed order (strings as they are, other values
 * as canonical JSON, null or missing as `(none)`), then the reply instruction. The text is
 * byte-stable across runtimes, and `prompt_sha256` is the SHA-256 of exactly what is sent.
 *
 * @param params The metric's params (validated here).
 * @param context The golden, the trace and the catalog.
 * @param options The engine for canonical JSON.
 * @returns The system text, the user text and `prompt_sha256`.
 * @throws {JudgeParamsError} If the params are invalid.
 *
 * @example A prompt with the final answer as a section
 * ```ts
 * import { renderJudgePrompt } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const trace = {
 *   golden_id: "g1", arm: "base", repeat: 0, tool_calls: [], sql: ["SELECT 1"],
 *   final_rows: [{ n: 1 }], final_answer: "One.", submitted: true, hit_turn_limit: false,
 * };
 * const p = renderJudgePrompt(
 *   { criteria: "Is it right?", evaluation_params: ["final_answer", "query_results"] },
 *   { golden: { id: "g1", question: "How many?" }, trace },
 * );
 * strictEqual(p.user.includes('<final_answer>\nOne.\n</final_answer>'), true);
 * strictEqual(p.user.includes('<query_results>\n[{"n":1}]\n</query_results>'), true);
 * strictEqual(p.prompt_sha256.length, 64);
 * ```
 */
export function renderJudgePrompt(
  params: unknown,
  context: JudgeContext,
  options?: WithEngine,
): RenderedJudgePrompt {
  checkOptions(options);
  checkOptionNames("renderJudgePrompt", options, { engine: 1 });
  checkContext(context);
  return renderPrompt(validateParams(params), context, options);
}

/**
 * The rubric hash of a metric's params: SHA-256 (hex) of the canonical JSON of
 * `{template, criteria | evaluation_steps, evaluation_params, applicable_when, judge_model}`
 * after defaults are filled in, so key order and spelled-out defaults do not change it.
 *
 * @param params The metric's params (validated here).
 * @param options The engine for canonical JSON.
 * @returns 64 lowercase hex digits.
 * @throws {JudgeParamsError} If the params are invalid.
 *
 * @example Defaults do not change the hash; the criteria do
 * ```ts
 * import { rubricSha256 } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const a = rubricSha256({ criteria: "Correct?" });
 * strictEqual(a, rubricSha256({ evaluation_params: ["input", "final_answer"], criteria: "Correct?" }));
 * strictEqual(a === rubricSha256({ criteria: "Correct and complete?" }), false);
 * ```
 */
export function rubricSha256(params: unknown, options?: WithEngine): string {
  checkOptions(options);
  checkOptionNames("rubricSha256", options, { engine: 1 });
  return rubricHash(validateParams(params), options);
}
