// The decoders of outputs logged as API objects: OpenAI's chat completions message, OpenAI's
// Responses output items, and Anthropic's Messages content blocks.
import type { Engine, JsonValue } from "../engine/mod.ts";
import { callKeysProblem, jsonKind } from "../engine/mod.ts";
import type { DecodedCall, DecodeResult } from "./decoded.ts";
import {
  type CallShape,
  type ExactJson,
  failed,
  type Failure,
  isObject,
  readCall,
  readJson,
} from "./_exact.ts";
import { emptyOutput, quoted, resultOf } from "./_text_decoders.ts";
import {
  callItems,
  contentProblem,
  type ItemKinds,
  type Path,
  shapeFailure,
} from "./_typed_items.ts";

/** A message whose role is there and is not "assistant" is not a model's output. */
function roleFailure(v: { [key: string]: JsonValue }): DecodeResult | undefined {
  if (!Object.hasOwn(v, "role") || v.role === "assistant") return undefined;
  const role = typeof v.role === "string" ? quoted(v.role) : jsonKind(v.role);
  return shapeFailure(`the output is not an assistant message: its role is ${role}`);
}

/**
 * The failure of a line of a batch's results read as an output, or undefined: it wraps the output
 * (OpenAI's Batch API line at `response.body`, Anthropic's Message Batches result at
 * `result.message`), which is what a generation must hold.
 */
function batchLine(v: JsonValue, output: string): DecodeResult | undefined {
  if (!isObject(v) || typeof v.custom_id !== "string") return undefined;
  return shapeFailure(
    `the output is a batch result line (custom_id ${quoted(v.custom_id)}): ` +
      `its ${output} is the output to decode`,
  );
}

/** The whole output read exactly as one JSON value. */
function wholeJson(text: string, engine: Engine | undefined): ExactJson | Failure {
  return emptyOutput(text) ?? readJson(text, engine, "the output");
}

/**
 * `parsed_arguments` is what the OpenAI SDKs' `.parse()` helpers add: `arguments` read again. An
 * empty arguments string is a call without arguments, as the API sends for some.
 */
const OPENAI_FUNCTION: CallShape = {
  args: "arguments",
  argsAs: "string",
  optional: ["parsed_arguments"],
  emptyIsNone: true,
};

/**
 * Entry `i` of `tool_calls`: `{type?: "function", id?, index?, extra_content?, function: {name,
 * arguments}}`, where `index`, which a joined stream's calls keep, must be `i`, and
 * `extra_content` (Gemini's OpenAI compatibility puts its `thought_signature` there) is not read.
 */
function readToolCall(
  json: ExactJson,
  path: Path,
  i: number,
  engine: Engine | undefined,
): DecodedCall | Failure {
  const item = json.at([...path, i]);
  const label = `tool call ${i}`;
  if (!isObject(item)) {
    return { status: "invalid_shape", reason: `${label} must be an object, got ${jsonKind(item)}` };
  }
  if (typeof item.type === "string" && item.type !== "function") {
    // A custom tool's call (`{type: "custom", custom: {name, input}}`), which has no JSON
    // arguments to score, named as such rather than by its keys.
    return {
      status: "invalid_shape",
      reason: `${label} is a ${quoted(item.type)} tool call: openai-chat reads "function" calls`,
    };
  }
  const problem = callKeysProblem(item, ["function"], ["type", "id", "index", "extra_content"]);
  if (problem !== undefined) {
    return {
      status: "invalid_shape",
      reason: `${label} must be {type?, id?, index?, extra_content?, function}: it has ${problem}`,
    };
  }
  if (Object.hasOwn(item, "type") && item.type !== "function") {
    return { status: "invalid_shape", reason: `${label}'s type must be "function"` };
  }
  if (Object.hasOwn(item, "index") && item.index !== i) {
    const got = typeof item.index === "number" ? item.index : jsonKind(item.index);
    return {
      status: "invalid_shape",
      reason: `${label}'s index must be ${i}, its place in the list, got ${got}`,
    };
  }
  return readCall(json, [...path, i, "function"], OPENAI_FUNCTION, `${label}'s function`, engine);
}

/** The keys of which a Chat Completions message has at least one. */
const MESSAGE_KEYS = ["role", "content", "tool_calls", "function_call"];

/** The calls of the assistant message at `path` (`tool_calls`, then `function_call`). */
function readMessage(json: ExactJson, path: Path, engine: Engine | undefined): DecodeResult {
  const v = json.at(path) as { [key: string]: JsonValue };
  const notAssistant = roleFailure(v);
  if (notAssistant) return notAssistant;
  if (!MESSAGE_KEYS.some((k) => Object.hasOwn(v, k))) {
    return shapeFailure(
      "the output is not an assistant message (role, content, tool_calls or function_call)",
    );
  }
  const content = contentProblem(v.content, "content", ["text", "refusal", "thinking"], true);
  if (content !== undefined) return shapeFailure(content);
  const calls: DecodedCall[] = [];
  if (v.tool_calls !== undefined && v.tool_calls !== null) {
    if (!Array.isArray(v.tool_calls)) {
      return shapeFailure(`tool_calls must be an array, got ${jsonKind(v.tool_calls)}`);
    }
    for (let i = 0; i < v.tool_calls.length; i++) {
      const c = readToolCall(json, [...path, "tool_calls"], i, engine);
      if (failed(c)) return resultOf(c);
      calls.push(c);
    }
  }
  if (v.function_call !== undefined && v.function_call !== null) {
    const c = readCall(json, [...path, "function_call"], OPENAI_FUNCTION, "function_call", engine);
    if (failed(c)) return resultOf(c);
    calls.push(c);
  }
  return resultOf(calls);
}

/** A Chat Completions response: the message of its one choice. */
function readResponse(json: ExactJson, engine: Engine | undefined): DecodeResult {
  const choices = json.at(["choices"]);
  if (!Array.isArray(choices)) {
    return shapeFailure(`choices must be an array, got ${jsonKind(choices)}`);
  }
  if (choices.length !== 1) {
    return shapeFailure(
      `the response has ${choices.length} choices: the decoder reads one (a request with n = 1)`,
    );
  }
  const choice = choices[0];
  if (!isObject(choice) || !isObject(choice.message)) {
    const what = !isObject(choice)
      ? jsonKind(choice)
      : Object.hasOwn(choice, "message")
      ? `a message that is ${jsonKind(choice.message)}`
      : Object.hasOwn(choice, "delta")
      ? "a stream chunk's delta: join the stream's chunks into one message first"
      : "no message";
    return shapeFailure(`choice 0 must be an object with a message object, got ${what}`);
  }
  return readMessage(json, ["choices", 0, "message"], engine);
}

/**
 * `openai-chat`: a response with one choice, an assistant message (`tool_calls`, and the legacy
 * `function_call`), a bare `tool_calls` array, or a bare legacy `{name, arguments}`; arguments
 * are JSON strings. A message without calls is a text answer: no calls; a message of another role
 * is invalid_shape.
 */
export function decodeOpenAiChat(text: string, engine: Engine | undefined): DecodeResult {
  const json = wholeJson(text, engine);
  if (failed(json)) return resultOf(json);
  const v = json.value;
  if (Array.isArray(v)) {
    const calls: DecodedCall[] = [];
    for (let i = 0; i < v.length; i++) {
      const c = readToolCall(json, [], i, engine);
      if (failed(c)) return resultOf(c);
      calls.push(c);
    }
    return resultOf(calls);
  }
  if (!isObject(v)) return shapeFailure(`the output must be a message, got ${jsonKind(v)}`);
  const batch = batchLine(v, "response.body");
  if (batch) return batch;
  if (Object.hasOwn(v, "choices") && !Object.hasOwn(v, "role")) return readResponse(json, engine);
  if (Object.hasOwn(v, "name") && !Object.hasOwn(v, "role")) {
    const c = readCall(json, [], OPENAI_FUNCTION, "the function call", engine);
    return resultOf(failed(c) ? c : [c]);
  }
  if (Array.isArray(v.output) && !MESSAGE_KEYS.some((k) => Object.hasOwn(v, k))) {
    return shapeFailure(
      "the output is a Responses API response (output items): read it with " +
        "openai-responses",
    );
  }
  return readMessage(json, [], engine);
}

const RESPONSES_CALL: CallShape = {
  args: "arguments",
  argsAs: "string",
  optional: ["type", "id", "call_id", "status", "parsed_arguments", "namespace"],
  emptyIsNone: true,
};

/**
 * A `function_call` item: its call, if its `namespace` is absent or null. A namespace (a tool
 * group's, such as an MCP server's) scopes the name, which a call `{name, arguments}` cannot say:
 * such a call is refused, as Anthropic's toolset_name is.
 */
function readResponsesCall(
  json: ExactJson,
  path: Path,
  label: string,
  engine: Engine | undefined,
): DecodedCall | Failure {
  const c = readCall(json, path, RESPONSES_CALL, label, engine);
  if (failed(c)) return c;
  const ns = (json.at(path) as { [key: string]: JsonValue }).namespace;
  if (ns === undefined || ns === null) return c;
  const reason = typeof ns === "string"
    ? `${label} has namespace ${quoted(ns)}, which scopes its name: ` +
      "a namespaced tool's call is not read (only a null namespace)"
    : `${label}'s namespace must be null or a string, got ${jsonKind(ns)}`;
  return { status: "invalid_shape", reason };
}

const RESPONSES_ITEMS: ItemKinds = {
  decoder: "openai-responses",
  call: "function_call",
  noun: "item",
  skips: ["message", "reasoning", "mcp_list_tools"],
  check: (item, label) =>
    item.type === "message"
      ? contentProblem(item.content, `${label}'s content`, ["output_text", "refusal"], false)
      : undefined,
};

/** The statuses of a response that holds no finished output (failed, or not yet run). */
const UNFINISHED = ["failed", "cancelled", "queued", "in_progress"];

/**
 * The failure of a response object (an object with `output` and no type) that failed, was
 * cancelled, or has not finished (a background request polled early), or has an `error`, or
 * undefined: what its output holds is not the model's answer, and an empty output would pass as
 * a text answer, which a gold of no call would credit. An incomplete response (stopped at
 * max_output_tokens) is read: a call it cut short has arguments that do not parse.
 */
function unfinished(v: JsonValue): DecodeResult | undefined {
  if (!isObject(v) || typeof v.type === "string" || !Object.hasOwn(v, "output")) return undefined;
  const status = typeof v.status === "string" && UNFINISHED.includes(v.status)
    ? `its status is ${quoted(v.status)}`
    : undefined;
  const error = v.error === undefined || v.error === null
    ? undefined
    : `it has an error${
      isObject(v.error) && typeof v.error.code === "string" ? ` (${quoted(v.error.code)})` : ""
    }`;
  if (status === undefined && error === undefined) return undefined;
  return shapeFailure(
    `the response holds no finished output: ${[status, error].filter(Boolean).join(" and ")}; ` +
      "retry the request rather than score it",
  );
}

/**
 * `openai-responses`: output items of `type: "function_call"` (arguments a JSON string, a
 * namespace absent or null), as a
 * list, as a response object's `output`, or one item alone; `message` (text and refusal parts
 * only), `reasoning` and `mcp_list_tools` items are no calls, and any other item is refused.
 */
export function decodeOpenAiResponses(text: string, engine: Engine | undefined): DecodeResult {
  const json = wholeJson(text, engine);
  if (failed(json)) return resultOf(json);
  const notOutput = batchLine(json.value, "response.body") ?? unfinished(json.value);
  if (notOutput) return notOutput;
  const v = json.value;
  if (isObject(v) && Object.hasOwn(v, "choices") && !Object.hasOwn(v, "output")) {
    return shapeFailure(
      "the output is a Chat Completions response (choices): read it with " +
        "openai-chat",
    );
  }
  const read = (path: Path, label: string) => readResponsesCall(json, path, label, engine);
  const where = "a list of output items, a response with output, or a function_call item";
  return callItems(json, "output", RESPONSES_ITEMS, "output item", where, read);
}

const TOOL_USE: CallShape = {
  args: "input",
  argsAs: "object",
  optional: ["type", "id", "cache_control", "caller"],
};

const ANTHROPIC_BLOCKS: ItemKinds = {
  decoder: "anthropic",
  call: "tool_use",
  noun: "block",
  skips: ["text", "thinking", "redacted_thinking"],
  skipsSuffix: "_tool_result",
  holder: "message",
};

/** The keys of a Chat Completions message's calls, which an Anthropic message never has. */
const OPENAI_CALLS = ["tool_calls", "function_call"];

/** The stop reasons of a message cut short (Anthropic: "treat the response as truncated"). */
const CUT_SHORT = ["max_tokens", "model_context_window_exceeded"];

/**
 * The failure of a message cut short in its last block, a tool_use, or undefined: the API gives
 * the input it had parsed when the output stopped as an object, so the JSON the model wrote was
 * unfinished and is read as such (nothing is repaired), as a Chat Completions call cut by
 * `finish_reason: "length"` is.
 */
function cutShort(v: JsonValue): Failure | undefined {
  if (!isObject(v) || typeof v.stop_reason !== "string" || !Array.isArray(v.content)) {
    return undefined;
  }
  const last = v.content[v.content.length - 1];
  if (!CUT_SHORT.includes(v.stop_reason) || !isObject(last) || last.type !== "tool_use") {
    return undefined;
  }
  return {
    status: "invalid_json",
    reason: `the message stopped at ${v.stop_reason} in its last block, a tool_use block: ` +
      "its input is cut short",
  };
}

/**
 * `anthropic`: a message's `content` blocks (or the blocks alone, or one block) whose type is
 * `tool_use`, each `{type, id?, name, input}` with `input` an object; `text`, `thinking`,
 * `redacted_thinking` and server tools' `*_tool_result` blocks are no calls, and any other block
 * (`server_tool_use`, another API's call) is refused. A message whose content is a string is a
 * text answer: no calls; a message of another role than assistant, or with a Chat Completions
 * message's `tool_calls` or `function_call` (not null), is invalid_shape; a message that stopped
 * at max_tokens (or the context window) in a tool_use block is invalid_json.
 */
export function decodeAnthropic(text: string, engine: Engine | undefined): DecodeResult {
  const json = wholeJson(text, engine);
  if (failed(json)) return resultOf(json);
  const v = json.value;
  const notOutput = (isObject(v) ? roleFailure(v) : undefined) ?? batchLine(v, "result.message");
  if (notOutput) return notOutput;
  const message = isObject(v) && (typeof v.type !== "string" || v.type === "message");
  if (message) {
    const key = OPENAI_CALLS.find((k) => v[k] !== undefined && v[k] !== null);
    if (key !== undefined) {
      return shapeFailure(
        `the message has ${key} (a Chat Completions message's calls): ` +
          "anthropic reads tool_use blocks",
      );
    }
    if (typeof v.content === "string") return resultOf([]);
  }
  const read = (path: Path, label: string) => readCall(json, path, TOOL_USE, label, engine);
  const where = "a message with content, a list of content blocks, or a tool_use block";
  const r = callItems(json, "content", ANTHROPIC_BLOCKS, "content block", where, read);
  return r.status === "ok" ? resultOf(cutShort(v) ?? r.calls) : r;
}
