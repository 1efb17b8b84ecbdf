// The judge instance: validates options once, then scores runs with a shared concurrency limit,
// jitter stream and cache.
import type { WithEngine } from "../../engine/mod.ts";
import type { CriterionScore } from "../types.ts";
import { apiRoot, type JudgeModelSpec, parseModel, validateParams } from "./_params.ts";
import {
  checkContext,
  contextValue,
  isTruthy,
  type JudgeContext,
  type RenderedJudgePrompt,
  renderPrompt,
  rubricHash,
} from "./_prompt.ts";
import type { JudgeMetric } from "./_presets.ts";
import { buildRequest, checkScore } from "./_providers.ts";
import { Backoff, Semaphore } from "./_retry.ts";
import { type CallConfig, callJudge, type JudgeCallEvent } from "./_call.ts";
import { makeRedactor, MIN_KEY_LENGTH, type Redactor } from "./_redact.ts";
import { judgeCacheKey } from "./_rubric.ts";
import { checkOptions } from "../../engine/mod.ts";
import { checkOptionNames } from "../../jsonl/options/mod.ts";

/** A judge's score of one run: a {@linkcode CriterionScore} stamped with its provenance. */
export interface JudgeScore extends CriterionScore {
  /** The metric's name. */
  metric: string;
  /** The judge model string. */
  model: string;
  /** SHA-256 of the rendered prompt (see {@linkcode renderJudgePrompt}). */
  prompt_sha256: string;
  /** SHA-256 of the rubric (see {@linkcode rubricSha256}). */
  rubric_sha256: string;
  /** Whether the score came from the cache (no request made). */
  cached: boolean;
  /** HTTP requests made for this score (0 when skipped or cached). */
  attempts: number;
}

/** What the cache stores for one judge call: the valid score and its reason. */
export interface JudgeCacheEntry {
  /** The score, in [0, 1]. */
  score: number;
  /** The judge's reason. */
  reason: string;
}

/** A cache of judge replies keyed by {@linkcode judgeCacheKey}; only valid scores are stored. */
export interface JudgeCache {
  /** The entry for a key, if any (an entry that is not a valid score counts as a miss). */
  get(key: string): Promise<JudgeCacheEntry | undefined> | JudgeCacheEntry | undefined;
  /** Stores an entry after a successful call. */
  set(key: string, entry: JudgeCacheEntry): Promise<void> | void;
}

/** API keys, passed in by the caller (the library never reads the environment). */
export interface JudgeApiKeys {
  /** For `anthropic:` models (required by them). */
  anthropic?: string;
  /** For `openai:` models (required by them). */
  openai?: string;
  /** For `openai-compatible:` models (optional: sent as a Bearer token when given). */
  openaiCompatible?: string;
}

/** Options of {@linkcode createJudge}. */
export interface JudgeOptions extends WithEngine {
  /** API keys (each at least 8 printable ASCII characters, no spaces); they never appear, in any
   * encoding, in results, errors or events (see `docs/judge.md`, "API keys"). */
  apiKeys?: JudgeApiKeys;
  /** The `fetch` to use (default `globalThis.fetch`). */
  fetch?: typeof fetch;
  /** API roots replacing `https://api.anthropic.com` and `https://api.openai.com` (e.g. a proxy). */
  baseUrls?: { anthropic?: string; openai?: string };
  /** A reply cache; a hit makes no request. */
  cache?: JudgeCache;
  /** Most requests in flight at once across this judge (default 4). */
  concurrency?: number;
  /** Per-request timeout in ms, body included (default 60000, at most 2^31 − 1, setTimeout's
   * limit); a timeout is retried like a 5xx. */
  timeoutMs?: number;
  /** Most bytes of a response body read (default 1 MiB, at most 1 GiB): a 2xx body over it is
   * cut, its stream cancelled, and the call ends as `response_too_large`. */
  maxResponseBytes?: number;
  /** Retries after 429, 5xx, timeouts and network errors (default 4). */
  maxRetries?: number;
  /** Retries after a malformed reply (default 2). */
  maxMalformedRetries?: number;
  /** Backoff base in ms: retry k waits uniformly in [c/2, c), c = min(maxDelayMs, base·2^k) (default 1000). */
  baseDelayMs?: number;
  /** Longest wait in ms, at most 2^31 − 1; a longer `Retry-After` ends the call as a judge error
   * (default 60000). */
  maxDelayMs?: number;
  /** Seed of the jitter's sfc32 stream, an integer in [0, 2^32) (default 0). */
  jitterSeed?: number;
  /** Waits `ms` milliseconds (default a `setTimeout` promise). */
  sleep?: (ms: number) => Promise<void>;
  /** The clock for `Retry-After` dates, in epoch ms (default `Date.now`). */
  now?: () => number;
  /** `max_tokens` of each request (default 1024). */
  maxTokens?: number;
  /** Called after each attempt, cache hit and skip (for progress display). */
  onCall?: (event: JudgeCallEvent) => void;
}

/** A judge: scores runs with one shared concurrency limit, backoff stream and cache. */
export interface Judge {
  /**
   * Scores one run. A metric whose `applicable_when` field is falsy is skipped
   * (`applicable: false`) and a cache hit is returned as is, both without a request. A
   * failed call (malformed reply after retries, HTTP error, timeout) is a judge error:
   * `{applicable: true, score: null, details: {error, error_kind, status?}}`, never a score.
   *
   * @param metric The metric (its params are validated).
   * @param context The golden, the trace and the catalog.
   * @returns The score with its hashes.
   * @throws {JudgeParamsError} If the params are invalid.
   * @throws {TypeError} If the metric or context is malformed, or the provider's API key is missing.
   */
  score(metric: JudgeMetric, context: JudgeContext): Promise<JudgeScore>;
}

const PRINTABLE = /^[\x21-\x7e]+$/;

/** The longest delay setTimeout keeps: 2^31 − 1 ms (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

function count(
  name: string,
  x: number | undefined,
  dflt: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const v = x ?? dflt;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `in [${min}, ${max}]`;
    throw new RangeError(`Option ${name} must be an integer ${range}, got ${String(x)}`);
  }
  return v;
}

/** `e` with the keys redacted from its message and stack (an error leaves the judge too). */
function scrubbed(e: unknown, redact: Redactor): unknown {
  if (e instanceof Error) {
    e.message = redact(e.message);
    if (typeof e.stack === "string") e.stack = redact(e.stack);
  }
  return e;
}

function fn<T>(name: string, x: T | undefined, dflt: T): T {
  const v = x ?? dflt;
  if (typeof v !== "function") throw new TypeError(`Option ${name} must be a function`);
  return v;
}

function httpRoot(name: string, x: string | undefined): string | undefined {
  if (x === undefined) return undefined;
  let ok = false;
  try {
    ok = typeof x === "string" && /^https?:$/.test(new URL(x).protocol);
  } catch { /* reported below */ }
  if (!ok) throw new TypeError(`Option ${name} must be an http(s) URL`);
  // As a model string's base URL is read (`…@http://host/v1` is `http://host`).
  const r = apiRoot(x);
  if (r.problem !== undefined) throw new TypeError(`Option ${name} ${r.problem}`);
  return r.root;
}

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates a judge. All calls of one judge share its concurrency limit, jitter stream and cache.
 *
 * @param options Keys, transport, cache, limits and injected clock/sleep.
 * @returns The judge.
 * @throws {TypeError} If an API key is not a string of at least 8 printable-ASCII characters
 * without spaces (the key itself is never quoted), or a function or URL option is invalid.
 * @throws {RangeError} If a numeric option is out of range.
 *
 * @example Score a run against a stand-in for the OpenAI API
 * ```ts
 * import { createJudge } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const fakeFetch = (_url: string | URL | Request, _init?: RequestInit) =>
 *   Promise.resolve(Response.json({
 *     choices: [{ message: { role: "assistant", content: '{"score": 0.8, "reason": "Close."}' } }],
 *   }));
 * const judge = createJudge({ apiKeys: { openai: "sk-test-key" }, fetch: fakeFetch });
 * const trace = {
 *   golden_id: "g1", arm: "base", repeat: 0, tool_calls: [], sql: [], final_rows: null,
 *   final_answer: "About 40.", submitted: true, hit_turn_limit: false,
 * };
 * const s = await judge.score(
 *   { name: "correct", threshold: 0.7, params: { criteria: "Correct?", judge_model: "openai:gpt-5" } },
 *   { golden: { id: "g1", question: "How many?" }, trace },
 * );
 * assertEquals([s.applicable, s.score, s.details, s.cached, s.attempts], [true, 0.8, { reason: "Close." }, false, 1]);
 * ```
 */
export function createJudge(options: JudgeOptions = {}): Judge {
  checkOptions(options);
  checkOptionNames("createJudge", options, {
    engine: 1,
    apiKeys: 1,
    fetch: 1,
    baseUrls: 1,
    cache: 1,
    concurrency: 1,
    timeoutMs: 1,
    maxResponseBytes: 1,
    maxRetries: 1,
    maxMalformedRetries: 1,
    baseDelayMs: 1,
    maxDelayMs: 1,
    jitterSeed: 1,
    sleep: 1,
    now: 1,
    maxTokens: 1,
    onCall: 1,
  });
  const keys = options.apiKeys ?? {};
  const secrets: string[] = [];
  for (const k of ["anthropic", "openai", "openaiCompatible"] as const) {
    const v = keys[k];
    if (v === undefined) continue;
    if (typeof v !== "string" || !PRINTABLE.test(v) || v.length < MIN_KEY_LENGTH) {
      throw new TypeError(
        `Option apiKeys.${k} must be a string of at least ${MIN_KEY_LENGTH} printable ASCII ` +
          "characters without spaces",
      );
    }
    secrets.push(v);
  }
  // The default looks globalThis.fetch up per call and never calls it as a method (workerd and
  // browsers throw "Illegal invocation" when fetch gets another `this`).
  const fetchFn = fn("fetch", options.fetch, (input, init) => globalThis.fetch(input, init));
  // A timer of more than 2^31 − 1 ms fires at once (setTimeout's limit): past it, every call
  // would time out, and every wait end at once.
  const maxDelayMs = count("maxDelayMs", options.maxDelayMs, 60_000, 0, MAX_TIMER_MS);
  const cfg: CallConfig = {
    fetch: fetchFn,
    sleep: fn("sleep", options.sleep, defaultSleep),
    now: fn("now", options.now, Date.now),
    semaphore: new Semaphore(count("concurrency", options.concurrency, 4, 1)),
    backoff: new Backoff(
      count("jitterSeed", options.jitterSeed, 0, 0),
      count("baseDelayMs", options.baseDelayMs, 1000, 0),
      maxDelayMs,
    ),
    timeoutMs: count("timeoutMs", options.timeoutMs, 60_000, 1, MAX_TIMER_MS),
    maxRetries: count("maxRetries", options.maxRetries, 4, 0),
    maxMalformedRetries: count("maxMalformedRetries", options.maxMalformedRetries, 2, 0),
    maxDelayMs,
    maxResponseBytes: count("maxResponseBytes", options.maxResponseBytes, 2 ** 20, 1, 2 ** 30),
    redact: makeRedactor(secrets),
    refused: new Map(),
  };
  const redact = cfg.redact;
  if (options.engine !== undefined) cfg.engine = options.engine;
  if (options.onCall !== undefined) cfg.onCall = fn("onCall", options.onCall, undefined);
  const cache = options.cache;
  if (cache !== undefined) {
    if (typeof cache?.get !== "function" || typeof cache?.set !== "function") {
      throw new TypeError("Option cache must have get and set methods");
    }
  }
  const roots = {
    anthropic: httpRoot("baseUrls.anthropic", options.baseUrls?.anthropic),
    openai: httpRoot("baseUrls.openai", options.baseUrls?.openai),
  };
  const maxTokens = count("maxTokens", options.maxTokens, 1024, 1);
  const engine: WithEngine = options.engine === undefined ? {} : { engine: options.engine };

  const judged = new Map<string, Promise<{ ok: boolean; score: JudgeScore }>>();

  async function score(metric: JudgeMetric, context: JudgeContext): Promise<JudgeScore> {
    if (
      typeof metric !== "object" || metric === null || typeof metric.name !== "string" ||
      metric.name === ""
    ) {
      throw new TypeError("A judge metric needs a non-empty string name");
    }
    checkContext(context);
    const params = validateParams(metric.params);
    const spec = parseModel(params.judge_model);
    const prompt = renderPrompt(params, context, engine);
    // The caller's strings go back out too: they are redacted like the rest.
    const label = { metric: redact(metric.name), model: redact(params.judge_model) };
    const base = {
      ...label,
      prompt_sha256: prompt.prompt_sha256,
      rubric_sha256: rubricHash(params, engine),
      cached: false,
      attempts: 0,
    };
    const gate = params.applicable_when;
    if (gate !== undefined && !isTruthy(contextValue(gate, context))) {
      cfg.onCall?.({ ...label, outcome: "skipped", attempt: 0 });
      return {
        applicable: false,
        score: null,
        details: { skipped: `applicable_when field ${gate} is empty` },
        ...base,
      };
    }
    const key = judgeCacheKey(prompt.prompt_sha256, params.judge_model);
    // One prompt is judged once per judge: a copy asked while it is in flight, or after it
    // scored, shares its outcome (no request; a score as a cache hit), so that a run pays once
    // and scores it alike. A copy asked after a failure tries again.
    const earlier = judged.get(key);
    if (earlier !== undefined) {
      const r = await earlier;
      if (r.ok) cfg.onCall?.({ ...label, outcome: "cache_hit", attempt: 0 });
      return { ...r.score, ...base, cached: r.ok };
    }
    const once = judgeOnce(key, spec, prompt, label, base);
    const shared = once.then((score) => {
      if (score.score === null) judged.delete(key);
      return { ok: score.score !== null, score };
    });
    shared.catch(() => judged.delete(key)); // a refusal (no key) reaches this caller
    judged.set(key, shared);
    return await once;
  }

  async function judgeOnce(
    key: string,
    spec: JudgeModelSpec,
    prompt: RenderedJudgePrompt,
    label: { metric: string; model: string },
    base: Omit<JudgeScore, "applicable" | "score" | "details">,
  ): Promise<JudgeScore> {
    if (cache !== undefined) {
      const hit = checkScore(await cache.get(key));
      if (hit.ok) {
        cfg.onCall?.({ ...label, outcome: "cache_hit", attempt: 0 });
        return {
          applicable: true,
          score: hit.score,
          details: { reason: redact(hit.reason) },
          ...base,
          cached: true,
        };
      }
    }
    const apiKey = spec.provider === "anthropic"
      ? keys.anthropic
      : spec.provider === "openai"
      ? keys.openai
      : keys.openaiCompatible;
    if (apiKey === undefined && spec.provider !== "openai-compatible") {
      throw new TypeError(`No API key for ${spec.provider}: pass apiKeys.${spec.provider}`);
    }
    const rootUrl = spec.provider === "openai-compatible" ? undefined : roots[spec.provider];
    const req = buildRequest(spec, prompt, {
      maxTokens,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(rootUrl === undefined ? {} : { baseUrl: rootUrl }),
    });
    const r = await callJudge(cfg, spec, req, label);
    if (!r.ok) {
      const details: Record<string, unknown> = { error: r.error, error_kind: r.kind };
      if (r.status !== undefined) details.status = r.status;
      return { applicable: true, score: null, details, ...base, attempts: r.attempts };
    }
    if (cache !== undefined) await cache.set(key, { score: r.score, reason: r.reason });
    return {
      applicable: true,
      score: r.score,
      details: { reason: r.reason },
      ...base,
      attempts: r.attempts,
    };
  }
  return {
    score: (metric, context) =>
      score(metric, context).catch((e) => Promise.reject(scrubbed(e, redact))),
  };
}
