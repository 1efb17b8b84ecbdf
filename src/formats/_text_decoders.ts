// The decoders of outputs written as text around JSON: sommelier (the engine's parser), hermes
// (<tool_call> blocks), llama3 (`<|python_tag|>` and `;`) and mistral (`[TOOL_CALLS]`); json-list
// is in _json_list.ts, on the helpers exported here.
import {
  type Engine,
  extractSpan,
  jsonKind,
  parseToolCall,
  type SpanResult,
} from "../engine/mod.ts";
import type { DecodedCall, DecodeResult } from "./decoded.ts";
import {
  type CallShape,
  type ExactJson,
  failed,
  type Failure,
  isObject,
  readCall,
  readCalls,
  readJson,
} from "./_exact.ts";

/** A decoding's result from its calls or its failure. */
export function resultOf(r: DecodedCall[] | Failure): DecodeResult {
  return failed(r) ? { status: r.status, calls: [], reason: r.reason } : { status: "ok", calls: r };
}

/**
 * `extractSpan` of the text from `at` (offsets from `at`), given the engine in windows that
 * double from 16 code units: a span is settled by the text up to where it balances, so a window
 * that holds it gives the answer the whole rest would, and a run of many short values costs
 * linear time rather than handing the rest of the text to the engine once per value.
 */
export function spanFrom(text: string, at: number, engine: Engine | undefined): SpanResult {
  for (let width = 16;; width *= 2) {
    const span = extractSpan(text.slice(at, at + width), { engine });
    if (span.status === "found" || at + width >= text.length) return span;
  }
}

/** Whether the text holds only whitespace from `at` (as `trim` reads it), without copying it. */
function blankFrom(text: string, at: number): boolean {
  NON_SPACE.lastIndex = at;
  return !NON_SPACE.test(text);
}
const NON_SPACE = /\S/g;

/** The failure of an empty output, or undefined. */
export function emptyOutput(text: string): Failure | undefined {
  return text.trim() === "" ? { status: "no_json", reason: "the output is empty" } : undefined;
}

export const NAME_ARGUMENTS: CallShape = { args: "arguments", argsAs: "object" };

/**
 * The first balanced JSON span of a text from `from` (its first `{` or `[` there), read exactly,
 * and where it ends; offsets count from the text's start.
 */
export function firstSpan(
  text: string,
  engine: Engine | undefined,
  from = 0,
): FirstSpan | Failure {
  const span = extractSpan(from === 0 ? text : text.slice(from), { engine });
  if (span.status === "no_json") {
    return { status: "no_json", reason: "the output holds no JSON object or array" };
  }
  if (span.status === "invalid_json") {
    return {
      status: "invalid_json",
      reason: `the JSON is not balanced: ${span.error!.code} at ${from + span.error!.offset}`,
    };
  }
  const start = from + span.start!;
  const end = from + span.end!;
  const json = readJson(text.slice(start, end), engine, "the JSON", start);
  return failed(json) ? json : { json, end };
}

export interface FirstSpan {
  json: ExactJson;
  end: number;
}

/** `sommelier`: the engine's parser (`assay.parser.v1`), one call, its reasons worded. */
export function decodeSommelier(text: string, engine: Engine | undefined): DecodeResult {
  const r = parseToolCall(text, { engine, arguments: false });
  if (r.status === "ok") {
    return { status: "ok", calls: [{ name: r.name!, arguments: r.canonicalArguments! }] };
  }
  const first = emptyOutput(text) ?? firstSpan(text, engine);
  if (failed(first)) return { status: r.status, calls: [], reason: first.reason };
  const json = first.json;
  // invalid_shape: say why, with the shape rule the other decoders use.
  const v = json.value;
  if (Array.isArray(v) && v.length !== 1) {
    const reason = `the JSON is a list of ${v.length} items: the parser takes one call`;
    return { status: "invalid_shape", calls: [], reason };
  }
  const call = readCall(json, Array.isArray(v) ? [0] : [], NAME_ARGUMENTS, "the call", engine);
  const reason = failed(call)
    ? call.reason
    : "the JSON is not {name, arguments} or a one-element list of it";
  return { status: "invalid_shape", calls: [], reason };
}

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

const THINK = "<think>";
const UNTHINK = "</think>";

/**
 * Where the thinking a chat template opened in the prompt ends: past a `</think>` that comes
 * before any `<think>` (at `think`) and is not inside a `<tool_call>` block; else 0.
 */
function promptThinkingEnd(text: string, think: number): number {
  const close = text.indexOf(UNTHINK);
  if (close < 0 || (think >= 0 && think < close)) return 0;
  const open = text.lastIndexOf(OPEN, close);
  const shut = open < 0 ? -1 : text.indexOf(CLOSE, open);
  return open >= 0 && (shut < 0 || shut > close) ? 0 : close + UNTHINK.length;
}

/**
 * `hermes`: every `<tool_call>{...}</tool_call>` block outside `<think>` sections; other text is
 * ignored. A `</think>` before any `<think>` (outside a block) ends a section the chat template
 * opened in the prompt: the text before it is thinking too. A `<think>` never closed is
 * invalid_shape.
 */
export function decodeHermes(text: string, engine: Engine | undefined): DecodeResult {
  const empty = emptyOutput(text);
  if (empty) return resultOf(empty);
  const calls: DecodedCall[] = [];
  let think = text.indexOf(THINK);
  let pos = promptThinkingEnd(text, think);
  // The next <think> and <tool_call> at or after pos, each found again only once pos passes it
  // (finding both at every step was quadratic in the number of sections).
  let at = text.indexOf(OPEN, pos);
  for (;;) {
    if (think >= 0 && think < pos) think = text.indexOf(THINK, pos);
    if (at >= 0 && at < pos) at = text.indexOf(OPEN, pos);
    if (think >= 0 && (at < 0 || think < at)) {
      const close = text.indexOf(UNTHINK, think + THINK.length);
      if (close < 0) {
        const reason = `the ${THINK} section at ${think} is not closed: the output ends in it`;
        return resultOf({ status: "invalid_shape", reason });
      }
      pos = close + UNTHINK.length;
      continue;
    }
    if (at < 0) break;
    const from = at + OPEN.length;
    const end = text.indexOf(CLOSE, from);
    const label = `the <tool_call> block at ${at}`;
    if (end < 0) return resultOf({ status: "invalid_json", reason: `${label} is not closed` });
    const json = readJson(text.slice(from, end), engine, label, from);
    if (failed(json)) return resultOf(json);
    const call = readCall(json, [], NAME_ARGUMENTS, `the call of ${label}`, engine);
    if (failed(call)) return resultOf(call);
    calls.push(call);
    pos = end + CLOSE.length;
  }
  return resultOf(calls);
}

/**
 * JSON values one after another from `from`, separated by `separator` and whitespace, to the
 * end of the text; each read exactly.
 */
function jsonSequence(
  text: string,
  from: number,
  separator: string,
  engine: Engine | undefined,
): ExactJson[] | Failure {
  const out: ExactJson[] = [];
  let at = from;
  for (;;) {
    const span = spanFrom(text, at, engine);
    const label = `call ${out.length}`;
    if (span.status === "found" && text.slice(at, at + span.start!).trim() !== "") {
      return { status: "invalid_shape", reason: `text before ${label} at ${at}` };
    }
    if (span.status === "no_json") {
      return { status: "no_json", reason: `no JSON object for ${label} at ${at}` };
    }
    if (span.status === "invalid_json") {
      return {
        status: "invalid_json",
        reason: `${label} is not balanced: ${span.error!.code} at ${at + span.error!.offset}`,
      };
    }
    const json = readJson(
      text.slice(at + span.start!, at + span.end!),
      engine,
      label,
      at + span.start!,
    );
    if (failed(json)) return json;
    out.push(json);
    at += span.end!;
    while (at < text.length && text[at]!.trim() === "") at++;
    if (at === text.length) return out;
    if (!text.startsWith(separator, at)) {
      return {
        status: "invalid_shape",
        reason: `expected ${JSON.stringify(separator)} or the end after ${label}, at ${at}`,
      };
    }
    at += separator.length;
    if (blankFrom(text, at)) return out; // a trailing separator
  }
}

/** The special tokens a Llama generation writes around a tool call. */
export interface LlamaTokens {
  /** The tag that opens a tool call at the start of the output. */
  open: string;
  /** The tag that closes it, where the generation has one. */
  close?: string;
  /** The tokens that end a message or a turn, one of which may end the output. */
  ends: readonly string[];
}

/** Llama 3.x: `<|python_tag|>` opens a call; `<|eom_id|>` or `<|eot_id|>` ends the output. */
export const LLAMA3_TOKENS: LlamaTokens = {
  open: "<|python_tag|>",
  ends: ["<|eom_id|>", "<|eot_id|>"],
};
const LLAMA_SHAPE: CallShape = { args: "parameters", argsAs: "object", optional: ["type"] };

/** Where a Llama output's body lies, and whether an opening tag started it. */
export interface LlamaBody {
  /** Whether the output starts (past whitespace) with the opening tag. */
  tagged: boolean;
  /** Where the body starts: just past the tag, or past the leading whitespace. */
  start: number;
  /** Where it ends: before the closing tag and one end token, and the whitespace around them. */
  end: number;
  /** Whether the output has any of the tokens in those places. */
  marked: boolean;
}

/**
 * The body of a Llama output, as Meta's reference decoder reads a message: an opening tag that
 * starts it (the model's tool call; with its closing tag, where the generation has one) and one
 * end token that ends it (the end of its message or turn) are the model's special tokens, not its
 * text; whitespace around them is dropped. The tokens anywhere else (twice at the end, after
 * prose, inside a string, a closing tag without its opening one) are text.
 */
export function llamaBody(text: string, tokens: LlamaTokens = LLAMA3_TOKENS): LlamaBody {
  let end = text.trimEnd().length;
  const token = tokens.ends.find((t) => text.startsWith(t, end - t.length));
  if (token !== undefined) end = text.slice(0, end - token.length).trimEnd().length;
  const lead = text.length - text.trimStart().length;
  const tagged = lead < end && text.startsWith(tokens.open, lead);
  const start = tagged ? lead + tokens.open.length : lead;
  const close = tokens.close;
  if (
    tagged && close !== undefined && end - close.length >= start &&
    text.startsWith(close, end - close.length)
  ) {
    end = text.slice(0, end - close.length).trimEnd().length;
  }
  return { tagged, start, end: Math.max(end, start), marked: tagged || token !== undefined };
}

/**
 * `llama3`: `{"name", "parameters"}` objects separated by `;`, after an optional
 * `<|python_tag|>`; a trailing `<|eom_id|>` or `<|eot_id|>` is dropped ({@linkcode llamaBody}).
 * Without the tag, an output that does not start with `{` is a text answer: no calls.
 */
export function decodeLlama3(text: string, engine: Engine | undefined): DecodeResult {
  const empty = emptyOutput(text);
  if (empty) return resultOf(empty);
  const { tagged, start: from, end } = llamaBody(text);
  if (!tagged && text[from] !== "{") return resultOf([]);
  const body = text.slice(0, end);
  const values = jsonSequence(body, from, ";", engine);
  if (failed(values)) return resultOf(values);
  const calls: DecodedCall[] = [];
  for (let i = 0; i < values.length; i++) {
    const json = values[i]!;
    const v = json.value;
    if (isObject(v) && Object.hasOwn(v, "type") && v.type !== "function") {
      return resultOf({ status: "invalid_shape", reason: `call ${i}'s type must be "function"` });
    }
    const call = readCall(json, [], LLAMA_SHAPE, `call ${i}`, engine);
    if (failed(call)) return resultOf(call);
    calls.push(call);
  }
  return resultOf(calls);
}

const TOOL_CALLS = "[TOOL_CALLS]";
const ARGS = "[ARGS]";
const CALL_ID = "[CALL_ID]";
const MISTRAL_SHAPE: CallShape = { args: "arguments", argsAs: "either", optional: ["id"] };
// mistral-common's rules for a function's name and (v3+ tokenizers) a call id.
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const CALL_ID_TEXT = /^[A-Za-z0-9]{1,64}$/;

/** A text quoted for a reason, cut short. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * `mistral`: `[TOOL_CALLS]` then a JSON list of `{name, arguments, id?}` (arguments an object or
 * a JSON string), or, in the v11+ tokenizers' form, `[TOOL_CALLS]name[CALL_ID]id[ARGS]{...}`
 * once per call (`[CALL_ID]id` optional, as v13 drops it). An output without `[TOOL_CALLS]` is a
 * text answer: no calls.
 */
export function decodeMistral(text: string, engine: Engine | undefined): DecodeResult {
  const empty = emptyOutput(text);
  if (empty) return resultOf(empty);
  const at = text.indexOf(TOOL_CALLS);
  if (at < 0) return resultOf([]);
  const end = text.replace(/<\/s>\s*$/, "").trimEnd().length;
  let from = at + TOOL_CALLS.length;
  while (from < end && text[from]!.trim() === "") from++;
  const token = text.startsWith(ARGS, from) || text.startsWith(CALL_ID, from);
  if (!token && (text[from] === "[" || text[from] === "{")) {
    const json = readJson(text.slice(from, end), engine, `the JSON after ${TOOL_CALLS}`, from);
    if (failed(json)) return resultOf(json);
    if (Array.isArray(json.value)) return resultOf(readCalls(json, [], MISTRAL_SHAPE, engine));
    const call = readCall(json, [], MISTRAL_SHAPE, "call 0", engine);
    return resultOf(failed(call) ? call : [call]);
  }
  const calls: DecodedCall[] = [];
  for (let start = at + TOOL_CALLS.length; start <= end;) {
    const next = text.indexOf(TOOL_CALLS, start);
    const stop = next < 0 || next > end ? end : next;
    const call = tokenCall(text, start, stop, calls.length, engine);
    if (failed(call)) return resultOf(call);
    calls.push(call);
    start = stop + TOOL_CALLS.length;
  }
  return resultOf(calls);
}

/** The call `name[CALL_ID]id[ARGS]{...}` between `start` and `stop` of the output. */
function tokenCall(
  text: string,
  start: number,
  stop: number,
  index: number,
  engine: Engine | undefined,
): DecodedCall | Failure {
  const label = `call ${index}`;
  const cut = text.indexOf(ARGS, start);
  if (cut < 0 || cut >= stop) {
    return {
      status: "invalid_shape",
      reason: `${label} is neither a JSON list nor name${ARGS}{...}`,
    };
  }
  const head = text.slice(start, cut);
  const idAt = head.indexOf(CALL_ID);
  const name = (idAt < 0 ? head : head.slice(0, idAt)).trim();
  if (name === "") {
    return {
      status: "invalid_shape",
      reason: `${label} has no name before ${idAt < 0 ? ARGS : CALL_ID}, at ${start}`,
    };
  }
  if (!FUNCTION_NAME.test(name)) {
    return {
      status: "invalid_shape",
      reason: `${label}'s name ${quoted(name)} at ${start} is not a function name ` +
        "(letters, digits, _ and -, at most 64)",
    };
  }
  const id = idAt < 0 ? undefined : head.slice(idAt + CALL_ID.length).trim();
  if (id !== undefined && !CALL_ID_TEXT.test(id)) {
    return {
      status: "invalid_shape",
      reason: `${label}'s ${CALL_ID} ${quoted(id)} at ${start + idAt} is not a call id ` +
        "(letters and digits, at most 64)",
    };
  }
  const base = cut + ARGS.length;
  const json = readJson(text.slice(base, stop), engine, `${label}'s arguments`, base);
  if (failed(json)) return json;
  if (!isObject(json.value)) {
    return {
      status: "invalid_shape",
      reason: `${label}'s arguments must be an object, got ${jsonKind(json.value)}`,
    };
  }
  return { name, arguments: json.canonical };
}
