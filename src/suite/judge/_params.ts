// The `llm_judge` params: the seven context fields, the judge-model syntax, and the validator
// the suite loader calls (it turns a JudgeParamsError's `field` into file/line/field).
import { suggestName } from "../../jsonl/mod.ts";

/**
 * The context fields an `llm_judge` metric can render (`evaluation_params`) or test
 * (`applicable_when`), in the order of the suite metrics reference.
 */
export const EVALUATION_PARAMS = [
  "input",
  "final_answer",
  "predicted_sqls",
  "query_results",
  "reference_answer_text",
  "tool_calls",
  "schema_catalog",
] as const;

/** One context field name (see {@linkcode EVALUATION_PARAMS}). */
export type EvaluationParam = typeof EVALUATION_PARAMS[number];

/** The judge model used when `judge_model` is absent. */
export const DEFAULT_JUDGE_MODEL = "anthropic:claude-sonnet-5";

/** The judge providers: `anthropic:`, `openai:` and `openai-compatible:` model strings. */
export const JUDGE_PROVIDERS = ["anthropic", "openai", "openai-compatible"] as const;

/** One judge provider (see {@linkcode JUDGE_PROVIDERS}). */
export type JudgeProvider = typeof JUDGE_PROVIDERS[number];

/** Validated, normalised `llm_judge` params: defaults filled in, exactly one rubric form. */
export interface JudgeParams {
  /** A single rubric statement (absent when `evaluation_steps` is given). */
  criteria?: string;
  /** Ordered rubric steps (absent when `criteria` is given). */
  evaluation_steps?: string[];
  /** The context fields rendered for the judge, in order (default `[input, final_answer]`). */
  evaluation_params: EvaluationParam[];
  /** The judge model string (default {@linkcode DEFAULT_JUDGE_MODEL}). */
  judge_model: string;
  /** The context field that must be truthy for the metric to apply; absent when always. */
  applicable_when?: EvaluationParam;
}

/** A parsed judge model string. */
export interface JudgeModelSpec {
  /** Which wire format to speak. */
  provider: JudgeProvider;
  /** The model name sent to the provider. */
  model: string;
  /** The server root of an `openai-compatible` model (no trailing `/` or `/v1`). */
  baseUrl?: string;
}

const PARAM_KEYS = [
  "criteria",
  "evaluation_steps",
  "evaluation_params",
  "judge_model",
  "applicable_when",
] as const;

/** Invalid `llm_judge` params: `field` names the offending key (e.g. `evaluation_params[2]`). */
export class JudgeParamsError extends Error {
  /** The offending field: a params key, with an index for list items. */
  readonly field: string;
  /** The closest valid name, when the field held an unknown name. */
  readonly suggestion?: string;
  /** Whether the field's key itself is wrong (a param `llm_judge` does not have), not its value. */
  readonly key?: true;

  /**
   * Creates the error.
   *
   * @param field The offending field.
   * @param message What is wrong (it names the field).
   * @param suggestion The closest valid name, if any.
   * @param key Whether the key itself is wrong, not its value.
   */
  constructor(field: string, message: string, suggestion?: string, key?: true) {
    super(suggestion === undefined ? message : `${message}; did you mean "${suggestion}"?`);
    this.name = "JudgeParamsError";
    this.field = field;
    if (suggestion !== undefined) this.suggestion = suggestion;
    if (key) this.key = key;
  }
}

/** The valid name closest to `name`, if it is a likely typo (see `suggestName` in the jsonl room). */
export const closestName: (name: string, valid: readonly string[]) => string | undefined =
  suggestName;

/** A value quoted for a message, cut short. */
export function quote(x: unknown): string {
  let s: string;
  try {
    s = typeof x === "string" ? JSON.stringify(x.slice(0, 80)) : JSON.stringify(x) ?? String(x);
  } catch {
    s = Object.prototype.toString.call(x);
  }
  return s.length > 80 ? s.slice(0, 77) + "..." : s;
}

function contextField(field: string, x: unknown): EvaluationParam {
  if (typeof x !== "string") {
    throw new JudgeParamsError(
      field,
      `Param ${field} must be a context field name, got ${quote(x)}`,
    );
  }
  if (!(EVALUATION_PARAMS as readonly string[]).includes(x)) {
    throw new JudgeParamsError(
      field,
      `Param ${field} ${quote(x)} is not a context field (expected one of ${
        EVALUATION_PARAMS.join(", ")
      })`,
      closestName(x, EVALUATION_PARAMS),
    );
  }
  return x as EvaluationParam;
}

function text(field: string, x: unknown): string {
  if (typeof x !== "string" || x.trim() === "") {
    throw new JudgeParamsError(field, `Param ${field} must be a non-empty string, got ${quote(x)}`);
  }
  return x;
}

function list(field: string, x: unknown): unknown[] {
  if (!Array.isArray(x) || x.length === 0) {
    throw new JudgeParamsError(field, `Param ${field} must be a non-empty list, got ${quote(x)}`);
  }
  return x;
}

/**
 * An API's root as a base URL gives it: without trailing slashes or a trailing `/v1` (the SDKs'
 * base URLs end in it; the endpoints add it), and refused when it is no URL or has a query, a
 * fragment or credentials, which the endpoint's path would be appended to or sent with.
 */
export function apiRoot(url: string): { root: string; problem?: undefined } | {
  root?: undefined;
  problem: string;
} {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { problem: "invalid" };
  }
  if (u.search !== "" || u.hash !== "" || u.username !== "" || u.password !== "") {
    return { problem: "must have no query, fragment or credentials" };
  }
  return { root: url.replace(/\/+$/, "").replace(/\/v1$/, "") };
}

/**
 * Parses a judge model string: `anthropic:<model>`, `openai:<model>` or
 * `openai-compatible:<model>@<http(s) base URL>`.
 *
 * @param judgeModel The model string.
 * @param field The field to blame in errors.
 * @returns The provider, model and (for `openai-compatible`) base URL.
 * @throws {JudgeParamsError} If the string does not follow the syntax.
 */
export function parseModel(judgeModel: unknown, field = "judge_model"): JudgeModelSpec {
  if (typeof judgeModel !== "string") {
    throw new JudgeParamsError(field, `Param ${field} must be a string, got ${quote(judgeModel)}`);
  }
  const colon = judgeModel.indexOf(":");
  const provider = colon < 0 ? "" : judgeModel.slice(0, colon);
  if (!(JUDGE_PROVIDERS as readonly string[]).includes(provider)) {
    throw new JudgeParamsError(
      field,
      `Param ${field} ${quote(judgeModel)} must start with a provider (${
        JUDGE_PROVIDERS.map((p) => p + ":").join(", ")
      })`,
      colon < 0 ? undefined : closestName(provider, JUDGE_PROVIDERS),
    );
  }
  let model = judgeModel.slice(colon + 1);
  let baseUrl: string | undefined;
  if (provider === "openai-compatible") {
    const at = Math.max(model.lastIndexOf("@http://"), model.lastIndexOf("@https://"));
    if (at < 0) {
      throw new JudgeParamsError(
        field,
        `Param ${field} ${quote(judgeModel)} must be openai-compatible:<model>@<http(s) base URL>`,
      );
    }
    baseUrl = model.slice(at + 1);
    model = model.slice(0, at);
    const root = apiRoot(baseUrl);
    if (root.problem === "invalid") {
      throw new JudgeParamsError(field, `Param ${field} has an invalid base URL ${quote(baseUrl)}`);
    }
    if (root.problem !== undefined) {
      throw new JudgeParamsError(
        field,
        `Param ${field} base URL ${quote(baseUrl)} ${root.problem}`,
      );
    }
    baseUrl = root.root;
  }
  if (model.trim() === "" || [...model].some((c) => c < " " || c === "\u007f")) {
    throw new JudgeParamsError(
      field,
      `Param ${field} ${quote(judgeModel)} has an empty or invalid model name`,
    );
  }
  return baseUrl === undefined
    ? { provider: provider as JudgeProvider, model }
    : { provider: provider as JudgeProvider, model, baseUrl };
}

/**
 * Validates `llm_judge` params and fills in the defaults.
 *
 * @param params The `params` mapping of one metric, as loaded from the suite file.
 * @returns The normalised params.
 * @throws {JudgeParamsError} On the first problem, naming the offending field.
 */
export function validateParams(params: unknown): JudgeParams {
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new JudgeParamsError(
      "params",
      `Params must be a mapping with criteria or evaluation_steps, got ${quote(params)}`,
    );
  }
  const p = params as Record<string, unknown>;
  for (const key of Object.keys(p)) {
    if (!(PARAM_KEYS as readonly string[]).includes(key)) {
      throw new JudgeParamsError(
        key,
        `Unknown llm_judge param ${quote(key)} (expected ${PARAM_KEYS.join(", ")})`,
        closestName(key, PARAM_KEYS),
        true,
      );
    }
  }
  const has = (k: string) => Object.hasOwn(p, k) && p[k] !== undefined;
  if (has("criteria") && has("evaluation_steps")) {
    throw new JudgeParamsError(
      "evaluation_steps",
      "Params criteria and evaluation_steps are mutually exclusive: give exactly one",
    );
  }
  if (!has("criteria") && !has("evaluation_steps")) {
    throw new JudgeParamsError(
      "criteria",
      "Exactly one of criteria or evaluation_steps is required",
    );
  }
  const out: JudgeParams = { evaluation_params: ["input", "final_answer"], judge_model: "" };
  if (has("criteria")) out.criteria = text("criteria", p.criteria);
  else {
    out.evaluation_steps = list("evaluation_steps", p.evaluation_steps).map((s, i) =>
      text(`evaluation_steps[${i}]`, s)
    );
  }
  if (has("evaluation_params")) {
    const seen = new Set<string>();
    out.evaluation_params = list("evaluation_params", p.evaluation_params).map((x, i) => {
      const field = `evaluation_params[${i}]`;
      const name = contextField(field, x);
      if (seen.has(name)) {
        throw new JudgeParamsError(field, `Param ${field} repeats ${quote(name)}`);
      }
      seen.add(name);
      return name;
    });
  }
  out.judge_model = has("judge_model") ? p.judge_model as string : DEFAULT_JUDGE_MODEL;
  parseModel(out.judge_model);
  if (has("applicable_when")) {
    out.applicable_when = contextField("applicable_when", p.applicable_when);
  }
  return out;
}
