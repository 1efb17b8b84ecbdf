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

type Path = (string | number)[];

function shapeFailure(reason: string): DecodeResult {
  return { status: "invalid_shape", calls: [], reason };
}

/** A message whose role is there and is not "assistant" is not a model's output. */
function roleFailure(v: { [key: string]: JsonValue }): DecodeResult | undefined {
  if (!Object.hasOwn(v, "role") || v.role === "assistant") return undefined;
  const role = typeof v.role === "string" ? quoted(v.role) : jsonKind(v.role);
  return shapeFailure(`the output is not an assistant message: its role is ${role}`);
}

/** The whole output read exactly as one JSON value. */
function wholeJson(text: string, engine: Engine | undefined): ExactJson | Failure {
  return emptyOutput(text) ?? readJson(text, engine, "the output");
}

/** `parsed_arguments` is what the OpenAI SDKs' `.parse()` helpers add: `arguments` read again. */
const OPENAI_FUNCTION: CallShape = {
  args: "arguments",
  argsAs: "string",
  optional: ["parsed_arguments"],
};

/** One entry of `tool_calls`: `{type?: "function", id?, function: {name, arguments}}`. */
function readToolCall(
  json: ExactJson,
  path: Path,
  item: JsonValue,
  label: string,
  engine: Engine | undefined,
): DecodedCall | Failure {
  if (!isObject(item)) {
    return { status: "invalid_shape", reason: `${label} must be an object, got ${jsonKind(item)}` };
  }
  const problem = callKeysProblem(item, ["function"], ["type", "id"]);
  if (problem !== undefined) {
    return {
      status: "invalid_shape",
      reason: `${label} must be {type?, id?, function}: it has ${problem}`,
    };
  }
  if (Object.hasOwn(item, "type") && item.type !== "function") {
    return { status: "invalid_shape", reason: `${label}'s type must be "function"` };
  }
  return readCall(json, [...path, "function"], OPENAI_FUNCTION, `${label}'s function`, engine);
}

/**
 * `openai-chat`: an assistant message (`tool_calls`, and the legacy `function_call`), a bare
 * `tool_calls` array, or a bare legacy `{name, arguments}`; arguments are JSON strings. A message
 * without calls is a text answer: no calls; a message of another role is invalid_shape.
 */
export function decodeOpenAiChat(text: string, engine: Engine | undefined): DecodeResult {
  const json = wholeJson(text, engine);
  if (failed(json)) return resultOf(json);
  const v = json.value;
  const calls: DecodedCall[] = [];
  const toolCalls = (list: JsonValue[], path: Path): Failure | undefined => {
    for (let i = 0; i < list.length; i++) {
      const c = readToolCall(json, [...path, i], list[i]!, `tool call ${i}`, engine);
      if (failed(c)) return c;
      calls.push(c);
    }
    return undefined;
  };
  if (Array.isArray(v)) return resultOf(toolCalls(v, []) ?? calls);
  if (!isObject(v)) return shapeFailure(`the output must be a message, got ${jsonKind(v)}`);
  if (Object.hasOwn(v, "name") && !Object.hasOwn(v, "role")) {
    const c = readCall(json, [], OPENAI_FUNCTION, "the function call", engine);
    return resultOf(failed(c) ? c : [c]);
  }
  const notAssistant = roleFailure(v);
  if (notAssistant) return notAssistant;
  if (!["role", "content", "tool_calls", "function_call"].some((k) => Object.hasOwn(v, k))) {
    return shapeFailure(
      "the output is not an assistant message (role, content, tool_calls or function_call)",
    );
  }
  if (v.tool_calls !== undefined && v.tool_calls !== null) {
    if (!Array.isArray(v.tool_calls)) {
      return shapeFailure(`tool_calls must be an array, got ${jsonKind(v.tool_calls)}`);
    }
    const f = toolCalls(v.tool_calls, ["tool_calls"]);
    if (f) return resultOf(f);
  }
  if (v.function_call !== undefined && v.function_call !== null) {
    const c = readCall(json, ["function_call"], OPENAI_FUNCTION, "function_call", engine);
    if (failed(c)) return resultOf(c);
    calls.push(c);
  }
  return resultOf(calls);
}

/** Items of the given type in a list, each read by `read`; others are skipped. */
function typedItems(
  json: ExactJson,
  path: Path,
  type: string,
  what: string,
  read: (path: Path, label: string) => DecodedCall | Failure,
): DecodeResult {
  const calls: DecodedCall[] = [];
  const items = json.at(path) as JsonValue[];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const label = `${what} ${i}`;
    if (!isObject(item) || typeof item.type !== "string") {
      return shapeFailure(`${label} must be an object with a string type`);
    }
    if (item.type !== type) continue;
    const c = read([...path, i], label);
    if (failed(c)) return resultOf(c);
    calls.push(c);
  }
  return resultOf(calls);
}

/**
 * The calls among the items of `type`: the value itself as a list, its `key` as a list, or the
 * value as the only item (skipped if of another type); `what` names an item in reasons, `where` says what the output must be.
 */
function callItems(
  json: ExactJson,
  key: string,
  type: string,
  what: string,
  where: string,
  read: (path: Path, label: string) => DecodedCall | Failure,
): DecodeResult {
  const v = json.value;
  if (Array.isArray(v)) return typedItems(json, [], type, what, read);
  if (!isObject(v)) return shapeFailure(`the output is not ${where}`);
  if (Array.isArray(v[key])) return typedItems(json, [key], type, what, read);
  if (Object.hasOwn(v, key)) {
    return shapeFailure(`${key} must be an array, got ${jsonKind(v[key])}`);
  }
  if (typeof v.type !== "string") return shapeFailure(`the output is not ${where}`);
  if (v.type !== type) return resultOf([]); // one item of another type, skipped
  const c = read([], `the ${what}`);
  return resultOf(failed(c) ? c : [c]);
}

const RESPONSES_CALL: CallShape = {
  args: "arguments",
  argsAs: "string",
  optional: ["type", "id", "call_id", "status", "parsed_arguments"],
};

/**
 * `openai-responses`: output items of `type: "function_call"` (arguments a JSON string), as a
 * list, as a response object's `output`, or one item alone; other items are skipped.
 */
export function decodeOpenAiResponses(text: string, engine: Engine | undefined): DecodeResult {
  const json = wholeJson(text, engine);
  if (failed(json)) return resultOf(json);
  const read = (path: Path, label: string) => readCall(json, path, RESPONSES_CALL, label, engine);
  const where = "a list of output items, a response with output, or a function_call item";
  return callItems(json, "output", "function_call", "output item", where, read);
}

const TOOL_USE: CallShape = {
  args: "input",
  argsAs: "object",
  optional: ["type", "id", "cache_control", "caller"],
};

/**
 * `anthropic`: a message's `content` blocks (or the blocks alone, or one block) whose type is
 * `tool_use`, each `{type, id?, name, input}` with `input` an object; text and other blocks are
 * skipped. A message whose content is a string is a text answer: no calls; a message of another
 * role than assistant is invalid_shape.
 */
export function decodeAnthropic(text: string, engine: Engine | undefined): DecodeResult {
  const json = wholeJson(text, engine);
  if (failed(json)) return resultOf(json);
  const v = json.value;
  const notAssistant = isObject(v) ? roleFailure(v) : undefined;
  if (notAssistant) return notAssistant;
  if (isObject(v) && typeof v.content === "string") return resultOf([]);
  const read = (path: Path, label: string) => readCall(json, path, TOOL_USE, label, engine);
  const where = "a message with content, a list of content blocks, or a tool_use block";
  return callItems(json, "content", "tool_use", "content block", where, read);
}
