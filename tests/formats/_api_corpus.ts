// Seeded outputs in the shapes of the OpenAI Chat Completions, OpenAI Responses and Anthropic
// Messages APIs, and of the Hermes, Llama 3 and Mistral tool-call texts, for
// tests/formats/api_decoders_oracle_test.ts: realistic responses, messages, lists and single
// items, with arguments of every kind (floats of every magnitude, big integers, non-ASCII and
// escaped keys, NaN), pretty-printed or compact, keys in any order; and, in about half of them, a
// defect drawn from what the API docs and real logs show: a wrong role, an unknown key or item
// type, a cut or non-object arguments text, a stream chunk, n > 1, a call cut at max_tokens, an
// unclosed block or thinking section, text between calls, a name or call id the format refuses.
import { randomJsonText, type Rng, shuffled } from "../_corpus.ts";

/** The decoders the corpus is written for: the three APIs' and three text formats. */
export const API_FORMATS = [
  "openai-chat",
  "anthropic",
  "openai-responses",
  "hermes",
  "llama3",
  "mistral",
  "json-list",
] as const;
export type ApiFormat = (typeof API_FORMATS)[number];

const NAMES = ["get_weather", "pay", "search_flights", "créer_événement", "検索", "f"];
const KEYS = [
  "city",
  "amount",
  "q",
  "unit",
  "ké",
  "日付",
  String.raw`a\"b`,
  String.raw`\u00e9`,
  "x y",
  "n",
];

/** A value standing for a raw JSON text, put in place once the tree is written. */
class Raw {
  constructor(readonly text: string) {}
}

type Tree = Raw | string | number | boolean | null | Tree[] | { [key: string]: Tree };

/** The JSON text of a tree, its keys in the order given, compact or indented. */
function write(tree: Tree, indent: number): string {
  const raws: string[] = [];
  const text = JSON.stringify(tree, (_k, v) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `\u0000${raws.length - 1}\u0000`;
    }
    return v;
  }, indent);
  return text.replace(/"\\u0000(\d+)\\u0000"/g, (_m, i) => raws[Number(i)]!);
}

/** An object with its keys shuffled (some outputs keep the API's order). */
function obj(rng: Rng, members: [string, Tree | undefined][]): { [key: string]: Tree } {
  const kept = members.filter((m): m is [string, Tree] => m[1] !== undefined);
  return Object.fromEntries(rng.chance(0.5) ? shuffled(rng, kept) : kept);
}

/** Arguments as a JSON text: mostly an object, exact lexemes kept; sometimes not one. */
function argumentsText(rng: Rng): string {
  const r = rng.int(20);
  if (r === 0) return rng.pick(["", " ", "null", "[1, 2]", '"x"', "1.0", '{"a": 1', "{}"]);
  if (r === 1) return randomJsonText(rng, { illegalRate: 0, deepRate: 0, mutationRate: 0.5 });
  const members: string[] = [];
  const n = rng.int(5);
  for (let i = 0; i < n; i++) {
    const key = rng.chance(0.7) ? rng.pick(KEYS) : `k${rng.int(100)}`;
    const value = randomJsonText(rng, {
      illegalRate: 0,
      deepRate: 0,
      mutationRate: 0,
      maxNodes: 6,
    });
    members.push(`"${key}":${rng.chance(0.5) ? " " : ""}${value.trim()}`);
  }
  const sep = rng.chance(0.5) ? ", " : ",";
  return `{${members.join(sep)}}`;
}

/** Whether to put a defect in this output (about half of them have one). */
const defect = (rng: Rng, p = 0.08) => rng.chance(p);

function callName(rng: Rng): Tree {
  if (defect(rng, 0.03)) return rng.pick<Tree>(["", 7, null]);
  return rng.pick(NAMES);
}

// ---- openai-chat

function chatFunction(rng: Rng): Tree {
  const args = argumentsText(rng);
  return obj(rng, [
    ["name", callName(rng)],
    ["arguments", defect(rng, 0.03) ? new Raw(args.trim() === "" ? "{}" : args) : args],
    ["parsed_arguments", rng.chance(0.05) ? {} : undefined],
    ["description", defect(rng, 0.02) ? "extra" : undefined],
  ]);
}

function chatToolCall(rng: Rng, i: number): Tree {
  return obj(rng, [
    ["id", rng.chance(0.9) ? `call_${rng.int(1e6)}` : undefined],
    ["type", rng.chance(0.8) ? (defect(rng, 0.03) ? "custom" : "function") : undefined],
    ["index", rng.chance(0.2) ? (defect(rng, 0.1) ? i + 1 : i) : undefined],
    ["function", defect(rng, 0.02) ? "f" : chatFunction(rng)],
    ["name", defect(rng, 0.02) ? "extra" : undefined],
    // Gemini's OpenAI compatibility: a thinking model's thought signature.
    ["extra_content", rng.chance(0.1) ? { google: { thought_signature: "CpcBAdHt" } } : undefined],
  ]);
}

function chatContent(rng: Rng): Tree | undefined {
  const r = rng.int(10);
  if (r < 3) return null;
  if (r < 5) return "Let me look that up for you. 東京 ☕";
  if (r < 6) return undefined;
  if (r < 8) {
    const parts: Tree[] = [{ type: "text", text: "Sure." }];
    if (rng.chance(0.3)) parts.push({ type: "refusal", refusal: "No." });
    // Magistral's reasoning, a part of the message.
    if (rng.chance(0.2)) {
      parts.unshift({ type: "thinking", thinking: [{ type: "text", text: "Hm." }] });
    }
    if (defect(rng, 0.2)) parts.push({ type: "tool_use", id: "toolu_1", name: "f", input: {} });
    return parts;
  }
  return defect(rng, 0.3) ? { text: "x" } : "";
}

function chatMessage(rng: Rng): Tree {
  const calls = rng.int(4) === 0 ? 0 : 1 + (rng.chance(0.2) ? rng.int(3) : 0);
  const legacy = calls > 0 && rng.chance(0.08);
  return obj(rng, [
    [
      "role",
      rng.chance(0.9) ? (defect(rng, 0.04) ? rng.pick(["user", "tool"]) : "assistant") : undefined,
    ],
    ["content", chatContent(rng)],
    [
      "tool_calls",
      legacy
        ? undefined
        : calls > 0 || rng.chance(0.2)
        ? Array.from({ length: calls }, (_, i) => chatToolCall(rng, i))
        : rng.chance(0.3)
        ? null
        : undefined,
    ],
    ["function_call", legacy ? chatFunction(rng) : rng.chance(0.2) ? null : undefined],
    ["refusal", rng.chance(0.3) ? null : undefined],
    ["annotations", rng.chance(0.2) ? [] : undefined],
    ["audio", rng.chance(0.1) ? null : undefined],
  ]);
}

function openAiChat(rng: Rng): Tree {
  const r = rng.int(10);
  if (r < 5) {
    const n = defect(rng, 0.06) ? rng.pick([0, 2]) : 1;
    const stream = defect(rng, 0.04);
    const choices = Array.from({ length: n }, (_, i) =>
      obj(rng, [
        ["index", i],
        [stream ? "delta" : "message", chatMessage(rng)],
        ["logprobs", null],
        ["finish_reason", rng.pick(["tool_calls", "stop", "length"])],
      ]));
    return obj(rng, [
      ["id", `chatcmpl-${rng.int(1e6)}`],
      ["object", stream ? "chat.completion.chunk" : "chat.completion"],
      ["created", 1733500000 + rng.int(1e5)],
      ["model", "gpt-4o-2024-08-06"],
      ["choices", defect(rng, 0.02) ? { "0": choices[0] ?? null } : choices],
      ["usage", { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 }],
      ["system_fingerprint", rng.chance(0.5) ? "fp_1" : undefined],
    ]);
  }
  if (r < 8) return chatMessage(rng);
  if (r < 9) return Array.from({ length: 1 + rng.int(2) }, (_, i) => chatToolCall(rng, i));
  return chatFunction(rng);
}

// ---- anthropic

function toolUse(rng: Rng): Tree {
  const args = argumentsText(rng);
  const input = defect(rng, 0.04) ? args : new Raw(/^\s*\{[\s\S]*\}\s*$/.test(args) ? args : "{}");
  return obj(rng, [
    ["type", "tool_use"],
    ["id", rng.chance(0.9) ? `toolu_${rng.int(1e6)}` : undefined],
    ["name", callName(rng)],
    ["input", input],
    ["caller", rng.chance(0.3) ? { type: "direct" } : undefined],
    ["cache_control", rng.chance(0.05) ? { type: "ephemeral" } : undefined],
    [rng.pick(["arguments", "toolset_name"]), defect(rng, 0.03) ? "x" : undefined],
  ]);
}

function anthropicBlock(rng: Rng): Tree {
  const r = rng.int(12);
  if (r < 6) return toolUse(rng);
  if (r < 8) return { type: "text", text: "Let me check. 東京" };
  if (r < 9) return { type: "thinking", thinking: "Hmm.", signature: "sig" };
  if (r < 10) {
    return {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_1",
      content: [{ type: "web_search_result", url: "https://example.com", title: "x" }],
    };
  }
  if (defect(rng, 0.5)) {
    return rng.pick<Tree>([
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "x" } },
      { type: "function", function: { name: "f", arguments: "{}" } },
      { type: "function_call", name: "f", arguments: "{}" },
      { name: "f", input: {} },
      "text",
    ]);
  }
  return { type: "redacted_thinking", data: "abc" };
}

function anthropic(rng: Rng): Tree {
  const blocks = Array.from({ length: rng.int(4) }, () => anthropicBlock(rng));
  // A Chat Completions message (or one with its keys null, as the OpenAI SDKs write them), read
  // with the wrong decoder: its calls must not pass as a text answer's.
  if (defect(rng, 0.08)) {
    const m = chatMessage(rng) as { [key: string]: Tree };
    return rng.chance(0.5) ? m : { ...m, content: blocks };
  }
  const r = rng.int(10);
  if (r < 6) {
    const cut = defect(rng, 0.1);
    if (cut) blocks.push(toolUse(rng));
    return obj(rng, [
      ["id", `msg_${rng.int(1e6)}`],
      ["type", rng.chance(0.9) ? "message" : undefined],
      ["role", defect(rng, 0.04) ? "user" : "assistant"],
      ["model", "claude-sonnet-4-5"],
      ["content", defect(rng, 0.05) ? (rng.chance(0.5) ? "Just text." : { type: "text" }) : blocks],
      [
        "stop_reason",
        cut ? rng.pick(["max_tokens", "model_context_window_exceeded"]) : rng.pick([
          "tool_use",
          "end_turn",
          "max_tokens",
        ]),
      ],
      ["stop_sequence", null],
      ["usage", { input_tokens: 10, output_tokens: 5 }],
    ]);
  }
  if (r < 9) return blocks;
  return anthropicBlock(rng);
}

// ---- openai-responses

function functionCallItem(rng: Rng): Tree {
  return obj(rng, [
    ["type", "function_call"],
    ["id", rng.chance(0.8) ? `fc_${rng.int(1e6)}` : undefined],
    ["call_id", `call_${rng.int(1e6)}`],
    ["name", callName(rng)],
    ["arguments", argumentsText(rng)],
    ["status", rng.chance(0.5) ? "completed" : undefined],
    ["namespace", rng.chance(0.1) ? (defect(rng, 0.4) ? "crm" : null) : undefined],
    ["parsed_arguments", rng.chance(0.05) ? {} : undefined],
    ["input", defect(rng, 0.02) ? "{}" : undefined],
  ]);
}

function responsesItem(rng: Rng): Tree {
  const r = rng.int(12);
  if (r < 6) return functionCallItem(rng);
  if (r < 8) return { type: "reasoning", id: "rs_1", summary: [] };
  if (r < 10) {
    const content: Tree = defect(rng, 0.15)
      ? [{ type: "tool_use", id: "t", name: "f", input: {} }]
      : rng.chance(0.3)
      ? "Hello."
      : [{ type: "output_text", text: "Hello. 東京", annotations: [] }];
    return { type: "message", id: "msg_1", role: "assistant", status: "completed", content };
  }
  if (r < 11) return { type: "mcp_list_tools", id: "mcpl_1", server_label: "s", tools: [] };
  return rng.pick<Tree>([
    { type: "mcp_call", id: "mcp_1", name: "f", arguments: "{}", server_label: "s" },
    { type: "web_search_call", id: "ws_1", status: "completed" },
    { type: "custom_tool_call", call_id: "c", name: "f", input: "x" },
    { type: "tool_use", id: "t", name: "f", input: {} },
    { name: "f", arguments: "{}" },
  ]);
}

function openAiResponses(rng: Rng): Tree {
  const items = Array.from({ length: rng.int(4) }, () => responsesItem(rng));
  const r = rng.int(10);
  if (r < 4) {
    return obj(rng, [
      ["id", `resp_${rng.int(1e6)}`],
      ["object", "response"],
      [
        "status",
        defect(rng, 0.1)
          ? rng.pick(["failed", "cancelled", "queued", "in_progress"])
          : rng.pick(["completed", "incomplete"]),
      ],
      ["error", defect(rng, 0.05) ? { code: "server_error", message: "failed" } : null],
      ["model", "gpt-4.1"],
      ["output", defect(rng, 0.05) ? "text" : items],
      ["usage", { input_tokens: 1, output_tokens: 2 }],
    ]);
  }
  if (r < 8) return items;
  return responsesItem(rng);
}

// ---- hermes, llama3, mistral: texts

/** A call object's text: exact arguments as written, keys in any order; sometimes another shape. */
function callText(rng: Rng, argsKey: string, extra: [string, Tree | undefined][] = []): string {
  const key = defect(rng, 0.04) ? rng.pick(["arguments", "parameters", "input"]) : argsKey;
  const args = argumentsText(rng);
  return write(
    obj(rng, [
      ["name", callName(rng)],
      [key, defect(rng, 0.03) ? args : new Raw(args.trim() === "" ? "{}" : args)],
      ...extra,
    ]),
    rng.pick([0, 0, 2]),
  );
}

const PROSE = ["I'll look that up.", "Let me check the weather 東京 ☕.", "", "Sure!\n"];

function hermes(rng: Rng): string {
  const block = () => `<tool_call>\n${callText(rng, "arguments")}\n</tool_call>`;
  let text = "";
  if (rng.chance(0.15)) {
    // Thinking the chat template opened in the prompt, closed here.
    text += "Okay, the user wants the weather." + (rng.chance(0.3) ? block() : "") +
      "\n</think>\n\n";
  }
  const parts = rng.int(4);
  for (let i = 0; i < parts; i++) {
    const r = rng.int(5);
    if (r < 3) text += block() + "\n";
    else if (r < 4) text += rng.pick(PROSE) + "\n";
    else text += `<think>\nMaybe ${rng.chance(0.4) ? block() : "a tool"}.\n</think>\n`;
  }
  if (defect(rng, 0.05)) text += `<tool_call>\n${callText(rng, "arguments")}`;
  else if (defect(rng, 0.04)) text += "<think>\nStill thinking about";
  return text;
}

function llama3(rng: Rng): string {
  if (defect(rng, 0.05)) return rng.pick(["The capital is Paris.<|eot_id|>", "Hello!"]);
  const tagged = rng.chance(0.6);
  const calls = Array.from(
    { length: 1 + (rng.chance(0.3) ? rng.int(3) : 0) },
    () =>
      callText(rng, "parameters", [[
        "type",
        rng.chance(0.2) ? (defect(rng, 0.1) ? "tool" : "function") : undefined,
      ]]),
  );
  let body = calls.map((c, i) =>
    i === 0 ? c : (defect(rng, 0.04) ? rng.pick([" ", "; and "]) : rng.pick([";", "; ", ";\n"])) + c
  ).join("");
  if (rng.chance(0.1)) body += ";";
  if (tagged && defect(rng, 0.03)) body = 'brave_search.call(query="weather")';
  if (defect(rng, 0.02)) body = body.slice(0, rng.int(body.length));
  return (tagged ? "<|python_tag|>" : "") + body + rng.pick(["", "", "<|eom_id|>", "<|eot_id|>"]);
}

function mistral(rng: Rng): string {
  if (defect(rng, 0.05)) return "Bonjour ! Comment puis-je vous aider ?";
  const n = 1 + (rng.chance(0.3) ? rng.int(3) : 0);
  let text = defect(rng, 0.03) ? "Sure. " : "";
  if (rng.chance(0.5)) {
    const items = Array.from({ length: n }, () => {
      const args = argumentsText(rng);
      return write(
        obj(rng, [
          ["name", callName(rng)],
          [
            defect(rng, 0.03) ? "parameters" : "arguments",
            rng.chance(0.3) ? args : new Raw(args.trim() === "" ? "{}" : args),
          ],
          ["id", rng.chance(0.7) ? `a${rng.int(1e8)}` : undefined],
        ]),
        rng.pick([0, 0, 2]),
      );
    });
    // One call may come as its object alone.
    text += items.length === 1 && rng.chance(0.2)
      ? `[TOOL_CALLS]${items[0]}`
      : `[TOOL_CALLS][${items.join(", ")}]`;
  } else {
    for (let i = 0; i < n; i++) {
      const name = defect(rng, 0.03)
        ? rng.pick(["get weather!!!", "", "x".repeat(65)])
        : rng.pick(["get_weather", "pay", "search-flights", "f2"]);
      const id = rng.chance(0.5)
        ? `[CALL_ID]${defect(rng, 0.05) ? "x-y" : `a${rng.int(1e8)}`}`
        : "";
      const args = argumentsText(rng);
      const pad = rng.chance(0.1) ? " " : "";
      text += `[TOOL_CALLS]${pad}${name}${pad}${id}${defect(rng, 0.02) ? "" : "[ARGS]"}${args}`;
    }
  }
  return text + rng.pick(["", "", "</s>"]);
}

/** Prose around json-list's value: brackets that cannot begin JSON, and some that can. */
const LIST_PROSE = [
  "Here are the calls:",
  "```json\n",
  "\n```",
  "Note: the list [a, b is long.",
  "{see below}",
  "[the tool]",
  "Use [nullable] fields.",
  "Costs [-5] dollars.",
  "Costs [-x] dollars.",
  "Range [-Infinity, 0].",
  "See [1].",
  '{"x": 1}',
  "[1, 2]",
  "[1, oops {",
  "{ }",
  "",
];

function jsonList(rng: Rng): string {
  const calls = Array.from({ length: rng.int(4) }, () => callText(rng, "arguments"));
  const value = calls.length === 1 && rng.chance(0.4) ? calls[0]! : `[${calls.join(", ")}]`;
  const before = rng.chance(0.5) ? rng.pick(LIST_PROSE) + rng.pick([" ", "\n"]) : "";
  let after = rng.chance(0.4) ? rng.pick([" ", "\n"]) + rng.pick(LIST_PROSE) : "";
  if (defect(rng, 0.05)) {
    const call = callText(rng, "arguments");
    after += rng.chance(0.5) ? ` ${call}` : ` [1, ${call}]`;
  }
  const cut = defect(rng, 0.03) ? value.slice(0, rng.int(value.length)) : value;
  return before + cut + after;
}

const BUILD: Record<ApiFormat, (rng: Rng) => Tree> = {
  "openai-chat": openAiChat,
  anthropic,
  "openai-responses": openAiResponses,
  // A text is written as it is.
  hermes: (rng) => new Raw(hermes(rng)),
  llama3: (rng) => new Raw(llama3(rng)),
  mistral: (rng) => new Raw(mistral(rng)),
  "json-list": (rng) => new Raw(jsonList(rng)),
};

/** `count` outputs for `format`, as text: compact or indented, a few cut or empty. */
export function apiOutputs(rng: Rng, format: ApiFormat, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = write(BUILD[format](rng), rng.pick([0, 0, 2, 4]));
    if (text.length > 0 && defect(rng, 0.02)) text = text.slice(0, rng.int(text.length));
    // Whitespace at an edge that JSON's is not (JavaScript's trim() removes it).
    if (rng.chance(0.02)) {
      const ws = rng.pick(["\u00a0", "\u3000", "\ufeff", "\u2028", "\v"]);
      text = rng.chance(0.5) ? ws + text : text + ws;
    } else if (defect(rng, 0.01)) text = rng.pick(["", "  \n", "Sure, calling the tool now."]);
    out.push(text);
  }
  return out;
}
