// One tool call as the tool metrics read it (`readCall`), apart from the metrics so that what
// says why a call is invalid (`invalid_calls.ts`) reads it the same way.
import {
  callKeysProblem,
  type CanonicalResult,
  canonicalValue,
  jsonKind,
} from "../../engine/mod.ts";

/**
 * A call's arguments as canonical text when they are a JSON object, else null: the one rule of
 * which read calls are valid (their argument text read by the engine's canonicalizer).
 */
export function objectArguments(r: CanonicalResult): string | null {
  return r.ok && r.canonical.startsWith("{") ? r.canonical : null;
}

/** A call read: its name and argument text, why it is invalid, or undefined for no call. */
export type RawCall = { name: string; text: string } | { reason: string } | undefined;

// The blocks of an Anthropic message's content that are no calls, as the anthropic decoder
// (src/formats) reads them: text, thinking and server tools' results.
const notCall = (type: unknown) =>
  type === "text" || type === "thinking" || type === "redacted_thinking" ||
  typeof type === "string" && type.endsWith("_tool_result");

const isObject = (x: unknown): x is object =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * Reads one call: `{name, arguments}`, OpenAI's `{type: "function", function: {name, arguments}}`
 * (with an optional `id`) or an Anthropic `{type: "tool_use", name, input}` block (with optional
 * `id`, `cache_control` and `caller`, as the anthropic decoder takes them; `input` read as
 * `arguments` is), with exactly those keys. Any other shape is an invalid call with its reason,
 * never a call with `{}` arguments. A block that is no call (a `text`, `thinking` or
 * `redacted_thinking` block, a server tool's `*_tool_result`) is undefined. Arguments given as a
 * string are its text, not yet read.
 *
 * @param x A call, as given.
 * @returns Its name and argument text, why it is invalid, or undefined for no call.
 */
export function readCall(x: unknown): RawCall {
  if (!isObject(x)) return { reason: `a call must be an object, got ${jsonKind(x)}` };
  let call = x as {
    name?: unknown;
    arguments?: unknown;
    type?: unknown;
    function?: unknown;
    input?: unknown;
  };
  if (notCall(call.type)) return;
  const key = call.type === "tool_use" ? "input" : "arguments";
  if (key === "input") {
    const odd = callKeysProblem(call, ["name", "input"], ["type", "id", "cache_control", "caller"]);
    if (odd) return { reason: `a tool_use block has ${odd}` };
    call = { name: call.name, arguments: call.input };
  } else if (Object.hasOwn(call, "function")) {
    const wrapper = callKeysProblem(call, ["function"], ["type", "id"]);
    if (wrapper !== undefined) return { reason: `an OpenAI tool call has ${wrapper}` };
    if (call.type !== undefined && call.type !== "function") {
      return { reason: `a call's type must be "function"` };
    }
    if (typeof call.function !== "object" || call.function === null) {
      return { reason: `a call's function must be an object, got ${jsonKind(call.function)}` };
    }
    call = call.function as typeof call;
  }
  const shape = callKeysProblem(call, ["name", "arguments"]);
  if (shape !== undefined) return { reason: `a call must be {name, arguments}: it has ${shape}` };
  if (typeof call.name !== "string" || call.name === "") {
    return { reason: "a call needs a non-empty string name" };
  }
  const args = call.arguments;
  if (typeof args === "string") return { name: call.name, text: args };
  if (!isObject(args)) {
    return { reason: `${key} must be an object or a JSON string, got ${jsonKind(args)}` };
  }
  try {
    return { name: call.name, text: canonicalValue(args) };
  } catch (e) {
    // undefined, functions, Dates, cycles, nesting deeper than 512: not JSON.
    if (e instanceof TypeError) {
      return {
        reason: `${key === "input" ? "input is" : "arguments are"} not JSON (${e.message})`,
      };
    }
    throw e;
  }
}
