// One judge call with its retries: transient failures (429, 5xx, timeouts, network errors) back
// off and retry up to maxRetries; malformed replies retry up to maxMalformedRetries; a redirect,
// a body over the cap and any other status are final. Every string that leaves this file is
// redacted of the API keys.
import type { WithEngine } from "../../engine/mod.ts";
import type { JudgeModelSpec } from "./_params.ts";
import { parseResponse, type ProviderRequest } from "./_providers.ts";
import { type Backoff, parseRetryAfter, type Semaphore } from "./_retry.ts";
import type { Redactor } from "./_redact.ts";
import { type Exchange, timedPost } from "./_transport.ts";

/** Why a judge call failed. */
export type JudgeErrorKind =
  | "malformed_reply"
  | "http_error"
  | "rate_limited"
  | "server_error"
  | "timeout"
  | "network_error"
  | "redirect"
  | "response_too_large";

/** One HTTP attempt, or a call answered without one, as reported to `onCall`. */
export interface JudgeCallEvent {
  /** The metric's name. */
  metric: string;
  /** The judge model string. */
  model: string;
  /** What happened: `ok`, a {@linkcode JudgeErrorKind}, `cache_hit` or `skipped` (no request). */
  outcome: "ok" | JudgeErrorKind | "cache_hit" | "skipped";
  /** The 1-based attempt number; 0 when no request was made. */
  attempt: number;
  /** The HTTP status, when a response arrived. */
  status?: number;
  /** The wait before the next attempt, when one follows. */
  retryInMs?: number;
}

/** How the call loop runs: the shared limiter and backoff, injected I/O and the bounds. */
export interface CallConfig extends WithEngine {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  semaphore: Semaphore;
  backoff: Backoff;
  timeoutMs: number;
  maxRetries: number;
  maxMalformedRetries: number;
  maxDelayMs: number;
  maxResponseBytes: number;
  redact: Redactor;
  onCall?: (event: JudgeCallEvent) => void;
  /**
   * The 401s met so far, by endpoint: a key refused once is refused again, so a later call to the
   * same endpoint ends with that error, unsent (the judge's; a fresh map per judge).
   */
  refused: Map<string, { error: string; status: number }>;
}

/** The outcome of a call: a score, or a judge error. */
export type CallResult =
  | { ok: true; score: number; reason: string; attempts: number }
  | { ok: false; kind: JudgeErrorKind; error: string; status?: number; attempts: number };

const EXCERPT = 300;

/** Each C0 control character and DEL becomes a space (error bodies go into one-line messages). */
function spaceControls(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += c < 0x20 || c === 0x7f ? " " : s[i];
  }
  return out;
}

/** The redacted text cut to `max` characters (redacted first, so no key is cut in part). */
function excerpt(redact: Redactor, text: string, cut: boolean, max = EXCERPT): string {
  const clean = spaceControls(redact(text, cut)).trim();
  return clean.length > max ? clean.slice(0, max) + "..." : clean;
}

type Transient = Extract<Exchange, { kind: "response" | "timeout" | "network_error" }>;

function transientKind(ex: Transient): JudgeErrorKind {
  if (ex.kind === "timeout") return "timeout";
  if (ex.kind === "network_error") return "network_error";
  return ex.status === 429 ? "rate_limited" : "server_error";
}

function describe(ex: Exchange, cfg: CallConfig, provider: string): string {
  switch (ex.kind) {
    case "timeout":
      return `No response from ${provider} within ${cfg.timeoutMs} ms`;
    case "network_error":
      return `Request to ${provider} failed: ${cfg.redact(ex.message)}`;
    case "too_large":
      return `HTTP ${ex.status} from ${provider}: the body exceeds maxResponseBytes ` +
        `(${cfg.maxResponseBytes} bytes) and was cut`;
    case "redirect": {
      if (ex.followed) {
        return `The response from ${provider} came through a redirect, which the fetch followed: ` +
          `judge requests must not follow redirects (they carry the API key)`;
      }
      const to = ex.location === null ? "" : ` to ${excerpt(cfg.redact, ex.location, false, 200)}`;
      return `${ex.status === undefined ? "A" : `HTTP ${ex.status}`} redirect from ${provider}` +
        `${to} refused: judge requests never follow redirects (they carry the API key)`;
    }
    case "response": {
      const body = excerpt(cfg.redact, ex.body, ex.cut);
      return `HTTP ${ex.status} from ${provider}${body === "" ? "" : `: ${body}`}`;
    }
  }
}

/**
 * Sends a judge request until it yields a score or a final error.
 *
 * @param cfg The call configuration.
 * @param spec The parsed judge model.
 * @param req The request.
 * @param label The metric and model strings for events.
 * @returns The score, or the judge error with the attempts made.
 */
export async function callJudge(
  cfg: CallConfig,
  spec: JudgeModelSpec,
  req: ProviderRequest,
  label: { metric: string; model: string },
): Promise<CallResult> {
  let attempts = 0;
  let transient = 0;
  let malformed = 0;
  const emit = (e: Omit<JudgeCallEvent, "metric" | "model">) =>
    cfg.onCall?.({ metric: label.metric, model: label.model, ...e });
  for (;;) {
    await cfg.semaphore.acquire();
    let ex: Exchange;
    try {
      // A call that waited while another to its endpoint was refused is not sent.
      const refused = cfg.refused.get(req.url);
      if (refused !== undefined) {
        emit({ outcome: "http_error", attempt: 0, status: refused.status });
        return {
          ok: false,
          kind: "http_error",
          error: `${refused.error} (not sent: an earlier request to this endpoint was refused)`,
          status: refused.status,
          attempts: attempts,
        };
      }
      attempts++;
      ex = await timedPost(cfg.fetch, req.url, req, {
        timeoutMs: cfg.timeoutMs,
        maxBytes: cfg.maxResponseBytes,
      });
    } finally {
      cfg.semaphore.release();
    }
    const status = "status" in ex && ex.status !== undefined ? { status: ex.status } : {};
    if (ex.kind === "redirect" || ex.kind === "too_large") {
      // Final: a re-send would meet the same redirect or the same flood.
      const kind = ex.kind === "redirect" ? "redirect" : "response_too_large";
      emit({ outcome: kind, attempt: attempts, ...status });
      return { ok: false, kind, error: describe(ex, cfg, spec.provider), ...status, attempts };
    }
    if (ex.kind === "response" && ex.status >= 200 && ex.status < 300) {
      const r = parseResponse(spec, ex.body, cfg);
      if (r.ok) {
        emit({ outcome: "ok", attempt: attempts, ...status });
        return { ok: true, score: r.score, reason: cfg.redact(r.reason), attempts };
      }
      if (malformed < cfg.maxMalformedRetries) {
        malformed++;
        emit({ outcome: "malformed_reply", attempt: attempts, ...status, retryInMs: 0 });
        continue;
      }
      emit({ outcome: "malformed_reply", attempt: attempts, ...status });
      return {
        ok: false,
        kind: "malformed_reply",
        error: `Malformed judge reply after ${malformed + 1} tries: ${cfg.redact(r.error)}`,
        attempts,
      };
    }
    const retriable = ex.kind !== "response" || ex.status === 429 || ex.status >= 500;
    const kind = retriable ? transientKind(ex) : "http_error";
    const message = describe(ex, cfg, spec.provider);
    if (!retriable || transient >= cfg.maxRetries) {
      if (ex.kind === "response" && ex.status === 401) {
        cfg.refused.set(req.url, { error: message, status: 401 });
      }
      emit({ outcome: kind, attempt: attempts, ...status });
      const tries = retriable ? ` (gave up after ${attempts} attempts)` : "";
      return { ok: false, kind, error: message + tries, ...status, attempts };
    }
    const after = ex.kind === "response"
      ? parseRetryAfter(ex.headers.get("retry-after"), cfg.now())
      : undefined;
    if (after !== undefined && after > cfg.maxDelayMs) {
      emit({ outcome: kind, attempt: attempts, ...status });
      return {
        ok: false,
        kind,
        error: `${message} (Retry-After ${after} ms exceeds maxDelayMs ${cfg.maxDelayMs})`,
        ...status,
        attempts,
      };
    }
    const delay = after ?? cfg.backoff.delay(transient);
    transient++;
    emit({ outcome: kind, attempt: attempts, ...status, retryInMs: delay });
    await cfg.sleep(delay);
  }
}
