// The structure of a result line's `result`, which BFCL's model handlers wrote from the API's
// response: a list of calls, each `{name: arguments_json}`, or the model's text. A provider's own
// payload (an OpenAI chat completion, its tool calls, Anthropic content blocks) is not that shape:
// BFCL's FC decoder reads an item's first key as the function's name and would fail every such
// entry (`decoder_failed`), and an item of several keys would have all but its first read by no
// one. Since the structure is the harness's, not the model's, it is refused as bad input, with the
// line BFCL's handler would have written. An empty object in the list (`[{}]`) is no provider's
// payload, and BFCL's decoder fails on it (taking the first key of a dict that has none), so it
// stays a verdict, as an item that is not an object does.
import { InputError } from "../jsonl/mod.ts";
import { PyDict, pyJsonDumps, type PyValue } from "./py_value.ts";
import { idOf } from "./_rows.ts";
import type { BfclSource } from "./files.ts";

/** BFCL's shape of a call, written out for a message: `{"name": "arguments"}`. */
const asBfcl = (name: PyValue | undefined, args: PyValue | undefined) =>
  typeof name === "string"
    ? `. BFCL's handler wrote this one ${
      pyJsonDumps(new PyDict([[name, typeof args === "string" ? args : pyJsonDumps(args ?? "")]]))
    }`
    : "";

/** What a provider's call-like object is, and how BFCL writes it, for a message, if known. */
function describePayload(item: PyDict): string | undefined {
  const fn = item.get("function");
  const type = item.get("type");
  if (fn instanceof PyDict) {
    return "an OpenAI chat tool call ({type, id, function: {name, arguments}})" +
      asBfcl(fn.get("name"), fn.get("arguments"));
  }
  if (type === "function_call") {
    return "an OpenAI Responses function_call item" +
      asBfcl(item.get("name"), item.get("arguments"));
  }
  if (type === "tool_use") {
    return "an Anthropic tool_use block" + asBfcl(item.get("name"), item.get("input"));
  }
  if (type === "text" || type === "output_text") {
    return `a ${JSON.stringify(type)} block. BFCL's handler wrote a text answer as the result's ` +
      "text, not in a list";
  }
  if (item.has("name") && (item.has("arguments") || item.has("input"))) {
    return "a call object {name, arguments}" +
      asBfcl(item.get("name"), item.get("arguments") ?? item.get("input"));
  }
  return undefined;
}

/** What an item of a result's list is, for a message: one that is not `{}` or a call. */
function describeItem(item: PyDict): string {
  return describePayload(item) ??
    (item.size > 1
      ? `an object of ${item.size} keys, of which BFCL reads only the first as a call`
      : "an object whose value is not the arguments' JSON text");
}

/** What a whole result that is an object is, for a message. */
function describeResult(result: PyDict): string {
  if (result.has("choices")) {
    return "an OpenAI chat completion. BFCL's handler wrote its message's tool_calls, each " +
      "as {name: arguments}, or its content when it made no call";
  }
  if (result.has("tool_calls")) {
    return "an OpenAI chat message. BFCL's handler wrote its tool_calls, each as " +
      "{name: arguments}, or its content when it made no call";
  }
  if (Array.isArray(result.get("content"))) {
    return "an Anthropic message. BFCL's handler wrote its tool_use blocks, each as " +
      "{name: input as JSON text}, or its text when it made no call";
  }
  if (result.has("role") || typeof result.get("content") === "string") {
    return "a chat message. BFCL's handler wrote its calls, each as {name: arguments}, in a " +
      "list, or its content when it made no call";
  }
  const payload = describePayload(result);
  if (payload !== undefined) return "an object, not a list of calls: " + payload;
  // BFCL iterates a dict's keys, strings, and fails on the first: no key is read as a call.
  const callLike = (v: PyValue) => typeof v === "string" && v.trimStart().startsWith("{");
  if (result.values().every(callLike)) {
    const calls = result.entries().map(([name, args]) => new PyDict([[name, args]]));
    return result.size === 1
      ? `one call, not a list of calls. BFCL's handler wrote it in a list, ${pyJsonDumps(calls)}`
      : `an object of ${result.size} calls, not a list of calls. BFCL's handler wrote each ` +
        "as an object {name: arguments} of its own, in a list";
  }
  return `an object of ${result.size} ${result.size === 1 ? "key" : "keys"}, not a list of calls`;
}

/**
 * What is wrong with a result's structure, for a message, or undefined. A string, an empty object
 * and a list of `{name: arguments_json}` items are BFCL's shapes, as are values that are not a
 * list or an object and items of the list that are `{}` or not objects (which fail to decode, as
 * in BFCL); a non-empty object, and an item of a list that is an object of more than one key or
 * whose one value is not a string, are not.
 */
export function resultShapeProblem(result: PyValue): string | undefined {
  if (result instanceof PyDict) {
    return result.size === 0 ? undefined : `the result is ${describeResult(result)}`;
  }
  if (!Array.isArray(result)) return undefined;
  for (const [i, item] of result.entries()) {
    // Not a dict, or a dict without a key: BFCL's decoder fails on it, a verdict.
    if (!(item instanceof PyDict) || item.size === 0) continue;
    if (item.size === 1 && typeof item.values()[0] === "string") continue;
    return `result[${i}] is ${describeItem(item)}`;
  }
  return undefined;
}

/**
 * Refuses the first result line whose `result` is not of BFCL's shape (see
 * {@linkcode resultShapeProblem}), naming the file, the line and the id.
 */
export function checkResultShapes(source: BfclSource, rows: readonly PyDict[]): void {
  rows.forEach((row, i) => {
    const problem = resultShapeProblem(row.get("result") ?? null);
    if (problem === undefined) return;
    throw new InputError(
      `${source.name}:${i + 1} (id ${idOf(row)}): a BFCL result is a list of calls, each ` +
        `{name: arguments as JSON text}, or the model's text, but ${problem}`,
    );
  });
}
