// The judge's transport: a redirect is an error of the call and never a re-send (another origin,
// which records whatever reaches it, receives nothing), and a response body is read up to
// maxResponseBytes and cut there, so an endless body fails the call instead of growing memory.
import { deepStrictEqual as assertEquals, ok, strictEqual, throws } from "node:assert/strict";
import {
  createJudge,
  type JudgeContext,
  type JudgeMetric,
  type JudgeOptions,
} from "../../src/suite/judge/judge.ts";
import {
  anthropicTool,
  apiError,
  type JudgeServer,
  openaiContent,
  redirect,
  startJudgeServer,
} from "./_judge_server.ts";

const KEY_ANTHROPIC = "sk-ant-api03-transport-test-key-0123";
const KEY_OPENAI = "sk-proj-transport-test-key-4567";
const KEY_LOCAL = "sk-local-transport-test-key-89ab";

const CTX: JudgeContext = {
  golden: { id: "g1", question: "What was revenue in Q3?" },
  trace: {
    golden_id: "g1",
    arm: "base",
    repeat: 0,
    tool_calls: [],
    sql: [],
    final_rows: null,
    final_answer: "Q3 revenue was $4.2M.",
    submitted: true,
    hit_turn_limit: false,
  },
};

const metric = (model: string): JudgeMetric => ({
  name: "correctness",
  threshold: 0.5,
  params: { criteria: "Is the answer correct?", judge_model: model },
});

function optionsFor(server: JudgeServer, extra: Partial<JudgeOptions> = {}): JudgeOptions {
  return {
    apiKeys: { anthropic: KEY_ANTHROPIC, openai: KEY_OPENAI, openaiCompatible: KEY_LOCAL },
    baseUrls: { anthropic: server.baseUrl, openai: server.baseUrl },
    sleep: () => Promise.resolve(),
    ...extra,
  };
}

const models = (server: JudgeServer) => [
  "anthropic:claude-sonnet-5",
  "openai:gpt-5",
  `openai-compatible:judge-1@${server.baseUrl}`,
];

Deno.test("createJudge() refuses every redirect: no request reaches the other origin", async () => {
  const server = startJudgeServer();
  const other = startJudgeServer(openaiContent('{"score": 1, "reason": "stolen"}'));
  try {
    const judge = createJudge(optionsFor(server));
    for (const model of models(server)) {
      for (const status of [301, 302, 303, 307, 308]) {
        for (const location of [`${other.baseUrl}/v1/messages`, "/v1/chat/completions"]) {
          server.script.push(redirect(status, location));
          const before = server.requests.length;
          const s = await judge.score(metric(model), CTX);
          const label = `${model} ${status} ${location}`;
          assertEquals(
            [s.score, s.details?.error_kind, s.details?.status, s.attempts],
            [null, "redirect", status, 1],
            label,
          );
          ok(
            String(s.details?.error).startsWith(`HTTP ${status} redirect from `),
            String(s.details?.error),
          );
          // Not followed, not retried: the same origin saw this one request only.
          strictEqual(server.requests.length - before, 1, label);
        }
      }
    }
    strictEqual(other.requests.length, 0, JSON.stringify(other.requests.map((r) => r.headers)));
  } finally {
    await server.close();
    await other.close();
  }
});

Deno.test("createJudge() asks fetch not to follow redirects, and refuses one a fetch followed", async () => {
  const seen: (RequestRedirect | undefined)[] = [];
  const followed: typeof fetch = (_input, init) => {
    seen.push(init?.redirect);
    const res = Response.json({ choices: [{ message: { content: '{"score": 1}' } }] });
    Object.defineProperty(res, "redirected", { value: true });
    return Promise.resolve(res);
  };
  const judge = createJudge({ apiKeys: { openai: KEY_OPENAI }, fetch: followed });
  const s = await judge.score(metric("openai:gpt-5"), CTX);
  assertEquals(seen, ["manual"]);
  assertEquals([s.score, s.details?.error_kind], [null, "redirect"]);
});

Deno.test("createJudge() cuts an endless 200 body at maxResponseBytes and fails the call", async () => {
  // The flood stops after 64 MiB so that a judge without a cap ends too (and fails here).
  const server = startJudgeServer({ flood: { limitBytes: 64 * 2 ** 20 } });
  try {
    const judge = createJudge(optionsFor(server, { maxRetries: 3, maxMalformedRetries: 3 }));
    for (const model of models(server)) {
      const before = server.floodBytes;
      const s = await judge.score(metric(model), CTX);
      assertEquals(
        [s.score, s.details?.error_kind, s.details?.status, s.attempts],
        [null, "response_too_large", 200, 1],
        model,
      );
      strictEqual(
        s.details?.error,
        `HTTP 200 from ${
          model.split(":")[0]
        }: the body exceeds maxResponseBytes (1048576 bytes) and was cut`,
      );
      // The server produces only as fast as the judge reads: 1 MiB and the socket buffers.
      const sent = server.floodBytes - before;
      ok(sent < 24 * 2 ** 20, `the judge read ${sent} bytes`);
    }
  } finally {
    await server.close();
  }
});

Deno.test("createJudge() reads a body of exactly maxResponseBytes and refuses one byte more", async () => {
  const server = startJudgeServer();
  try {
    const reply = anthropicTool({ score: 0.5, reason: "" });
    const size = new TextEncoder().encode(JSON.stringify(reply.body)).byteLength;
    for (const [cap, kind] of [[size, undefined], [size - 1, "response_too_large"]] as const) {
      // Once with a Content-Length, once streamed without one.
      for (const chunked of [false, true]) {
        server.script.push(
          chunked ? { ...reply, chunked: true } : reply,
        );
        const judge = createJudge(optionsFor(server, { maxResponseBytes: cap }));
        const s = await judge.score(metric("anthropic:claude-sonnet-5"), CTX);
        strictEqual(s.details?.error_kind, kind, `cap ${cap}, chunked ${chunked}`);
        strictEqual(s.score, kind === undefined ? 0.5 : null);
      }
    }
    // An error body longer than the cap keeps its status: a 500 is retried, a 400 is final.
    server.script.push(apiError(500, "x".repeat(5000)), apiError(400, "y".repeat(5000)));
    const s = await createJudge(optionsFor(server, { maxResponseBytes: 1000, maxRetries: 1 }))
      .score(metric("openai:gpt-5"), CTX);
    assertEquals([s.details?.error_kind, s.details?.status, s.attempts], ["http_error", 400, 2]);
    ok(/^HTTP 400 from openai: \{"type":"error".*yyy\.\.\.$/.test(String(s.details?.error)));
  } finally {
    await server.close();
  }
  for (const bad of [0, -1, 1.5, 2 ** 31]) {
    throws(() => createJudge({ maxResponseBytes: bad }), RangeError, String(bad));
  }
});

Deno.test("createJudge() leaves no part of a key that the cap cut in two", async () => {
  const server = startJudgeServer();
  try {
    // Two percent-encoded copies of the key shrink to markers, so the excerpt would reach the
    // cut, which falls in the middle of a third, raw copy.
    const pct = [...KEY_OPENAI].map((c) => "%" + c.charCodeAt(0).toString(16)).join("");
    const head = `${pct} ${pct} `;
    const cap = head.length + 16;
    server.script.push({ status: 400, body: head + KEY_OPENAI + " end" });
    const s = await createJudge(optionsFor(server, { maxResponseBytes: cap }))
      .score(metric("openai:gpt-5"), CTX);
    strictEqual(s.details?.error_kind, "http_error");
    const error = String(s.details?.error);
    ok(error.startsWith("HTTP 400 from openai: [redacted]"), error);
    ok(!error.includes(KEY_OPENAI.slice(0, 10)), error);
  } finally {
    await server.close();
  }
});
