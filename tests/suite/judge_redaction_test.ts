// No API key leaves the judge in any encoding: a loopback server echoes the key it received in
// each encoding of tests/suite/_key_encodings.ts, in every place a reply can carry text (the
// reason, a malformed reply, a non-JSON body, 401/400/500 bodies, a redirect's Location, other
// headers), and every string the judge hands back (scores, details, events, thrown errors,
// anything logged) is searched for every form of every key and for their base64 cores.
import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import {
  createJudge,
  type JudgeCallEvent,
  type JudgeContext,
  type JudgeMetric,
  type JudgeOptions,
} from "../../src/suite/judge/judge.ts";
import {
  anthropicText,
  anthropicTool,
  apiError,
  keyOf,
  openaiContent,
  type Reply,
  type Seen,
  startJudgeServer,
} from "./_judge_server.ts";
import { base64Cores, keyForms, leaks } from "./_key_encodings.ts";
import { makeRedactor } from "../../src/suite/judge/_redact.ts";

// Keys with every character the encodings treat specially, one with escape syntax of its own
// (a literal `%41`, `&amp;` and `\u0041`), and a plain one (whose base64 and `\u` forms leaked).
const KEY_ANTHROPIC = `sk-ant-api03-Q7/x&y<z>"w%2F'q+=\\v9Zt-TAIL`;
const KEY_OPENAI = "sk-proj-PLAINkey0123456789abcdefXYZ";
const KEY_LOCAL = "kc-%41&amp;\\u0041&#x41;-local-9";
const KEYS = [KEY_ANTHROPIC, KEY_OPENAI, KEY_LOCAL];

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

type Place =
  | "reason"
  | "malformed text"
  | "score value"
  | "non-JSON body"
  | "401 body"
  | "400 body"
  | "500 body"
  | "redirect Location";
const PLACES: Place[] = [
  "reason",
  "malformed text",
  "score value",
  "non-JSON body",
  "401 body",
  "400 body",
  "500 body",
  "redirect Location",
];

/** The server's reply for `place`, carrying `text` (an encoding of the key it received). */
function echoReply(place: Place, claude: boolean, text: string): Reply {
  const headers = {
    "x-echo": text,
    "www-authenticate": `Bearer error="invalid_token", key="${text}"`,
  };
  const score = (input: unknown, content: string) =>
    claude ? anthropicTool(input) : openaiContent(content);
  let reply: Reply;
  switch (place) {
    case "reason":
      reply = score(
        { score: 0.5, reason: `You sent ${text}` },
        JSON.stringify({ score: 0.5, reason: `You sent ${text}` }),
      );
      break;
    case "malformed text":
      reply = claude ? anthropicText(`${text} is your key`) : openaiContent(`${text} is your key`);
      break;
    case "score value":
      reply = score({ score: text, reason: "x" }, JSON.stringify({ score: text, reason: "x" }));
      break;
    case "non-JSON body":
      reply = { body: `${text} <- key` };
      break;
    case "401 body":
      reply = apiError(401, `invalid x-api-key ${text}`);
      break;
    case "400 body":
      reply = apiError(400, `${text}`);
      break;
    case "500 body":
      reply = apiError(500, `key ${text}`);
      break;
    case "redirect Location":
      reply = {
        status: 307,
        headers: { location: `http://127.0.0.1:9/${text}?k=${text}` },
        body: text,
      };
      break;
  }
  return { ...reply, headers: { ...headers, ...reply.headers } };
}

Deno.test("createJudge() redacts every encoding of every key, wherever a reply echoes it", async () => {
  const seen: string[] = [];
  const methods = ["log", "error", "warn", "info", "debug"] as const;
  const saved = methods.map((m) => console[m]);
  for (const m of methods) {
    console[m] = (...args: unknown[]) => void seen.push(args.map(String).join(" "));
  }
  const server = startJudgeServer();
  const events: JudgeCallEvent[] = [];
  const options: JudgeOptions = {
    apiKeys: { anthropic: KEY_ANTHROPIC, openai: KEY_OPENAI, openaiCompatible: KEY_LOCAL },
    baseUrls: { anthropic: server.baseUrl, openai: server.baseUrl },
    maxRetries: 0,
    maxMalformedRetries: 0,
    sleep: () => Promise.resolve(),
    onCall: (e) => events.push(e),
  };
  const providers: [string, string][] = [
    ["anthropic:claude-sonnet-5", KEY_ANTHROPIC],
    ["openai:gpt-5", KEY_OPENAI],
    [`openai-compatible:judge-1@${server.baseUrl}`, KEY_LOCAL],
  ];
  let calls = 0;
  try {
    const shared = createJudge(options);
    for (const [model, key] of providers) {
      const forms = keyForms(key);
      ok(forms.length >= (key === KEY_OPENAI ? 20 : 35), String(forms.length));
      for (const place of PLACES) {
        for (const [i, form] of forms.entries()) {
          server.script.push((req: Seen) => {
            strictEqual(keyOf(req), key, "the server received the key");
            const text = keyForms(keyOf(req)!)[i]!.text;
            return echoReply(place, model.startsWith("anthropic"), text);
          });
          const metric: JudgeMetric = {
            name: "correctness",
            threshold: 0.5,
            params: { criteria: `Correct? (${place}, ${form.name})`, judge_model: model },
          };
          // A judge sends nothing more to an endpoint that refused its key: a fresh judge per 401.
          const judge = place === "401 body" ? createJudge(options) : shared;
          const s = await judge.score(metric, CTX);
          calls++;
          seen.push(JSON.stringify(s));
          for (const v of Object.values(s.details ?? {})) seen.push(String(v));
          if (place !== "reason") strictEqual(s.score, null, `${place}, ${form.name}`);
        }
      }
    }
    // Misuse that quotes the caller's values: a key as a context field name, or as a model.
    for (const key of KEYS) {
      await shared.score({
        name: "m",
        threshold: 0.5,
        params: { criteria: "c", evaluation_params: [key] },
      }, CTX).then(
        () => ok(false, "resolved"),
        (e: Error) => seen.push(String(e), e.message, String(e.stack)),
      );
    }
  } finally {
    methods.forEach((m, i) => console[m] = saved[i]!);
    await server.close();
  }
  strictEqual(server.requests.length, calls);
  seen.push(JSON.stringify(events));
  ok(seen.length > 3 * 8 * 35);
  assertEquals(leaks(seen.join("\n"), KEYS), []);
  // Not vacuous: the redactions are there, and the rest of the texts survived them.
  ok(seen.some((s) => s.includes("You sent [redacted]")));
  ok(seen.some((s) => s.includes("invalid x-api-key [redacted]")));
});

Deno.test("makeRedactor() finds a key at every base64 alignment and in every listed encoding", () => {
  const redact = makeRedactor(KEYS);
  for (const key of KEYS) {
    for (const form of keyForms(key)) {
      for (const [before, after] of [["", ""], ["x", "y"], ["Bearer ", "."], ['{"e":"', '"}']]) {
        const text = `${before}${form.text}${after}`;
        const out = redact(text);
        assertEquals(leaks(out, KEYS), [], `${form.name} in ${JSON.stringify(text)}`);
        ok(out.includes("[redacted]"), `${form.name}: ${out}`);
      }
    }
    // Base64 of text that holds the key at any byte offset, in both alphabets.
    for (let pad = 0; pad < 6; pad++) {
      const t = btoa("P".repeat(pad) + key + "Q".repeat(pad));
      for (const text of [t, t.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")]) {
        assertEquals(leaks(redact(`a ${text} b`), KEYS), [], text);
      }
    }
    ok(base64Cores(key).every((c) => c.length >= 8));
  }
  // Text without a key is left alone, encodings and all.
  const clean = 'Fine: \\u0041 &amp; %41 "Zm9vYmFyYmF6" <b>';
  strictEqual(redact(clean), clean);
});
