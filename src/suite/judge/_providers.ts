// The judge's two wire formats: Anthropic Messages (a forced `record_score` tool) and OpenAI
// Chat Completions (a strict JSON-schema response format), which OpenAI-compatible servers speak.
import { canonicalize } from "../../engine/mod.ts";
import type { WithEngine } from "../../engine/mod.ts";
import { materialize, parseJson } from "../../engine/mod.ts";
import type { JudgeModelSpec } from "./_params.ts";
import { quote } from "./_params.ts";
import type { Redactor } from "./_redact.ts";

/** How a reply is read: the engine for exact JSON, and the redactor for quoted fragments. */
export interface ReplyOptions extends WithEngine {
  /** Applied to a quoted fragment before it is cut short (default: none). */
  redact?: Redactor;
}

/** `x` quoted for an error message, redacted before it is cut to 80 characters. */
function shown(x: unknown, redact: Redactor | undefined): string {
  if (redact === undefined) return quote(x);
  if (typeof x === "string") return quote(redact(x));
  let s: string | undefined;
  try {
    s = JSON.stringify(x);
  } catch { /* quote() says what it is */ }
  if (s === undefined) return quote(x);
  const r = redact(s);
  return r.length > 80 ? r.slice(0, 77) + "..." : r;
}

/** The default Anthropic API root. */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
/** The default OpenAI API root. */
export const OPENAI_BASE_URL = "https://api.openai.com";

/** The JSON schema of a judge reply. */
const SCORE_SCHEMA = {
  type: "object",
  properties: {
    score: { type: "number", minimum: 0, maximum: 1, description: "The score, 0.0 to 1.0" },
    reason: { type: "string", description: "One or two short sentences" },
  },
  required: ["score", "reason"],
  additionalProperties: false,
};

/** One HTTP request to a provider. */
export interface ProviderRequest {
  /** The endpoint. */
  url: string;
  /** The headers, including the credential. */
  headers: Record<string, string>;
  /** The JSON body. */
  body: string;
}

/** A judge reply read from a response body: a valid score, or why it is malformed. */
export type ReplyParse =
  | { ok: true; score: number; reason: string }
  | { ok: false; error: string };

const root = (url: string): string => url.replace(/\/+$/, "");

/**
 * Builds the request for a model and a rendered prompt.
 *
 * @param spec The parsed judge model.
 * @param prompt The system and user text.
 * @param cfg The API key (when any), the base-URL override and the token budget.
 * @returns The request.
 */
export function buildRequest(
  spec: JudgeModelSpec,
  prompt: { system: string; user: string },
  cfg: { apiKey?: string; baseUrl?: string; maxTokens: number },
): ProviderRequest {
  if (spec.provider === "anthropic") {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "anthropic-version": "2023-06-01",
    };
    if (cfg.apiKey !== undefined) headers["x-api-key"] = cfg.apiKey;
    return {
      url: `${root(cfg.baseUrl ?? ANTHROPIC_BASE_URL)}/v1/messages`,
      headers,
      body: JSON.stringify({
        model: spec.model,
        max_tokens: cfg.maxTokens,
        temperature: 0,
        system: prompt.system,
        messages: [{ role: "user", content: prompt.user }],
        tools: [{
          name: "record_score",
          description: "Record the score (0.0 to 1.0) and a short reason for it.",
          input_schema: SCORE_SCHEMA,
        }],
        tool_choice: { type: "tool", name: "record_score" },
      }),
    };
  }
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (cfg.apiKey !== undefined) headers["authorization"] = `Bearer ${cfg.apiKey}`;
  const base = spec.provider === "openai" ? cfg.baseUrl ?? OPENAI_BASE_URL : spec.baseUrl ?? "";
  return {
    url: `${root(base)}/v1/chat/completions`,
    headers,
    body: JSON.stringify({
      model: spec.model,
      messages: [
        { role: "system", content: prompt.system },
        { role: "user", content: prompt.user },
      ],
      response_format: {
        type: "json_schema",
        json_schema: { name: "score", strict: true, schema: SCORE_SCHEMA },
      },
      temperature: 0,
      max_tokens: cfg.maxTokens,
    }),
  };
}

/** Checks a decoded reply object: `score` a finite number in [0, 1], `reason` a string if given. */
export function checkScore(x: unknown, redact?: Redactor): ReplyParse {
  if (typeof x !== "object" || x === null || Array.isArray(x)) {
    return { ok: false, error: `reply is not a JSON object: ${shown(x, redact)}` };
  }
  const o = x as Record<string, unknown>;
  const score = Object.hasOwn(o, "score") ? o.score : undefined;
  if (typeof score !== "number") {
    return { ok: false, error: `score must be a number, got ${shown(score, redact)}` };
  }
  if (!Number.isFinite(score) || score < 0 || score > 1) {
    return { ok: false, error: `score ${String(score)} is outside [0, 1]` };
  }
  const reason = Object.hasOwn(o, "reason") ? o.reason : "";
  if (typeof reason !== "string") {
    return { ok: false, error: `reason must be a string, got ${shown(reason, redact)}` };
  }
  return { ok: true, score: score === 0 ? 0 : score, reason };
}

/** Decodes model text with the engine's exact JSON (Python's `json.loads`), then checks it. */
export function parseReplyText(text: string, options?: ReplyOptions): ReplyParse {
  const r = canonicalize(text, options);
  if (!r.ok) {
    return {
      ok: false,
      error: `reply is not JSON (${r.error.code} at ${r.error.offset}): ${
        shown(text, options?.redact)
      }`,
    };
  }
  return checkScore(materialize(r.canonical), options?.redact);
}

function envelope(body: string, redact: Redactor | undefined):
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: string } {
  let v: unknown;
  try {
    v = parseJson(body);
  } catch {
    return { ok: false, error: `response body is not JSON: ${shown(body, redact)}` };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    return { ok: false, error: `response body is not a JSON object: ${shown(body, redact)}` };
  }
  return { ok: true, value: v as Record<string, unknown> };
}

/**
 * Reads the judge reply out of a successful (2xx) response body.
 *
 * Anthropic: the `record_score` `tool_use` block's `input`, else the text blocks joined and
 * parsed as JSON. OpenAI: `choices[0].message.content` parsed as JSON.
 *
 * @param spec The parsed judge model.
 * @param body The response body.
 * @param options The engine for exact JSON, and the redactor for quoted fragments.
 * @returns The score and reason, or why the reply is malformed.
 */
export function parseResponse(
  spec: JudgeModelSpec,
  body: string,
  options?: ReplyOptions,
): ReplyParse {
  const redact = options?.redact;
  const env = envelope(body, redact);
  if (!env.ok) return env;
  if (spec.provider === "anthropic") {
    const content = env.value.content;
    if (!Array.isArray(content)) return { ok: false, error: "response has no content array" };
    const blocks = content.filter((b): b is Record<string, unknown> =>
      typeof b === "object" && b !== null
    );
    const tool = blocks.find((b) => b.type === "tool_use" && b.name === "record_score");
    if (tool) return checkScore(tool.input, redact);
    const texts = blocks.filter((b) => b.type === "text" && typeof b.text === "string");
    if (texts.length === 0) return { ok: false, error: "response has no tool_use or text block" };
    return parseReplyText(texts.map((b) => b.text as string).join(""), options);
  }
  const choices = env.value.choices;
  const message = Array.isArray(choices) && typeof choices[0] === "object" && choices[0] !== null
    ? (choices[0] as Record<string, unknown>).message
    : undefined;
  if (typeof message !== "object" || message === null) {
    return { ok: false, error: "response has no choices[0].message" };
  }
  const m = message as Record<string, unknown>;
  if (typeof m.content !== "string") {
    const refusal = typeof m.refusal === "string" ? `: refusal ${shown(m.refusal, redact)}` : "";
    return { ok: false, error: `choices[0].message.content is not a string${refusal}` };
  }
  return parseReplyText(m.content, options);
}
