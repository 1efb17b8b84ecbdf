// A loopback HTTP server speaking the Anthropic Messages and OpenAI Chat Completions wire formats
// for the judge tests: it records every request, counts requests in flight, and answers from a
// script (one reply per request, in order) or a fallback reply. A reply may be computed from the
// request (to echo the key back), may redirect, and may flood: an endless body, produced only as
// fast as the client reads it, so the server itself stays small.

/** One scripted reply. */
export interface Reply {
  /** HTTP status (default 200). */
  status?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** The body: a string as is, anything else as JSON. */
  body?: unknown;
  /** Wait this long before answering (cut short when the server closes). */
  delayMs?: number;
  /** Send the body as a stream, without a Content-Length. */
  chunked?: boolean;
  /** Instead of `body`, an endless `{"a":"aaa…` in 64 KiB chunks (or until `limitBytes`). */
  flood?: { limitBytes?: number };
}

/** A reply, or a function of the request that makes one (to echo the key back). */
export type Script = Reply | ((request: Seen) => Reply);

/** One request as the server saw it. */
export interface Seen {
  /** The request method. */
  method: string;
  /** The request path. */
  path: string;
  /** The request headers, lower-cased names. */
  headers: Record<string, string>;
  /** The JSON body (`{}` when empty, `{$text}` when not JSON). */
  body: Record<string, unknown>;
}

/** The running server. */
export interface JudgeServer {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** Every request received, in arrival order. */
  requests: Seen[];
  /** Replies still to be used, in order. */
  script: Script[];
  /** The most requests ever in flight at once. */
  maxInFlight: number;
  /** Holds each request until this many are in flight (or 1 s passed); 0 disables. */
  holdUntil: number;
  /** Bytes of flood bodies handed to the network so far. */
  floodBytes: number;
  /** Flood bodies the client cancelled (closed its end) before their limit. */
  floodsCancelled: number;
  /** Stops the server and waits for it. */
  close(): Promise<void>;
}

/** An Anthropic Messages reply whose `record_score` tool call carries `input`. */
export function anthropicTool(input: unknown): Reply {
  return {
    body: {
      id: "msg_01",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-5",
      content: [{ type: "tool_use", id: "toolu_01", name: "record_score", input }],
      stop_reason: "tool_use",
      usage: { input_tokens: 100, output_tokens: 20 },
    },
  };
}

/** An Anthropic Messages reply with one text block. */
export function anthropicText(text: string): Reply {
  return {
    body: {
      id: "msg_02",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-5",
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      usage: { input_tokens: 100, output_tokens: 20 },
    },
  };
}

/** An OpenAI Chat Completions reply whose message content is `content`. */
export function openaiContent(content: string | null, refusal?: string): Reply {
  return {
    body: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "gpt-5",
      choices: [{
        index: 0,
        message: { role: "assistant", content, refusal: refusal ?? null },
        finish_reason: "stop",
      }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    },
  };
}

/** An API error reply in the providers' error shape. */
export function apiError(status: number, message: string, headers?: Record<string, string>): Reply {
  const reply: Reply = { status, body: { type: "error", error: { type: "api_error", message } } };
  if (headers) reply.headers = headers;
  return reply;
}

/** A redirect to `location`. */
export function redirect(status: number, location: string): Reply {
  return { status, headers: { location }, body: "moved" };
}

/** The key a request carried: its `x-api-key`, else its Bearer token, else undefined. */
export function keyOf(request: Seen): string | undefined {
  return request.headers["x-api-key"] ??
    request.headers["authorization"]?.replace(/^Bearer /, "");
}

const FLOOD_CHUNK = new TextEncoder().encode("a".repeat(65536));

/**
 * Starts the server on 127.0.0.1 with an OS-chosen port.
 *
 * @param fallback The reply when the script is empty.
 */
export function startJudgeServer(fallback: Script = { status: 500, body: "no reply scripted" }) {
  let inFlight = 0;
  let waiters: (() => void)[] = [];
  const state: Omit<JudgeServer, "baseUrl" | "close"> = {
    requests: [],
    script: [],
    maxInFlight: 0,
    holdUntil: 0,
    floodBytes: 0,
    floodsCancelled: 0,
  };
  let closing = false;
  const releaseAll = () => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const delays = new Set<() => void>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        delays.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      delays.add(done);
    });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    try {
      const text = await req.text();
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => headers[k] = v);
      let parsed: Record<string, unknown>;
      try {
        parsed = text === "" ? {} : JSON.parse(text);
      } catch {
        parsed = { $text: text };
      }
      const seen = { method: req.method, path: new URL(req.url).pathname, headers, body: parsed };
      state.requests.push(seen);
      if (state.holdUntil > 0) {
        if (inFlight >= state.holdUntil) releaseAll();
        else {
          await new Promise<void>((resolve) => {
            const t = setTimeout(() => {
              waiters = waiters.filter((f) => f !== go);
              resolve();
            }, 1000);
            const go = () => {
              clearTimeout(t);
              resolve();
            };
            waiters.push(go);
          });
        }
      }
      const next = state.script.shift() ?? fallback;
      const reply = typeof next === "function" ? next(seen) : next;
      if (reply.delayMs) await wait(reply.delayMs);
      const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
      const stream = reply.chunked ? ReadableStream.from([new TextEncoder().encode(body)]) : body;
      return new Response(reply.flood ? flood(reply.flood.limitBytes) : stream, {
        status: reply.status ?? 200,
        headers: { "content-type": "application/json", ...reply.headers },
      });
    } finally {
      inFlight--;
    }
  });
  function flood(limit = Infinity): ReadableStream<Uint8Array> {
    let sent = 0;
    let first = true;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (closing || sent >= limit) return controller.close();
        const chunk = first ? new TextEncoder().encode('{"a":"') : FLOOD_CHUNK;
        first = false;
        sent += chunk.byteLength;
        state.floodBytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        state.floodsCancelled++;
      },
    }, { highWaterMark: 0 });
  }
  const addr = server.addr as Deno.NetAddr;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${addr.port}`,
    close: async () => {
      closing = true;
      releaseAll();
      for (const done of [...delays]) done();
      await server.shutdown();
    },
  }) as JudgeServer;
}
