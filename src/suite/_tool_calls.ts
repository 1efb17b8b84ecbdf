// How the suite finds an agent's tool calls in a golden or a trace, whatever API's shape they were
// recorded in: one rule for `trajectory_match`, `step_efficiency` and the `view_tools` of
// `expected_view_recall`. A call is `{name, arguments}` (OpenAI Responses items too),
// `{function: {name, arguments}}` (OpenAI Chat Completions), `{type: "tool_use", name, input}`
// (Anthropic) or `{name, args}` (LangChain); a message's calls are its `tool_calls`, its
// `tool_use` content blocks, or its legacy `function_call`. What cannot be read, or could be read
// two ways, is a TypeError naming where it is (`output[3].content[1]`): never a dropped call.
import { argumentTree, nodeText } from "./_trajectory_args.ts";
import type { Call } from "./_trajectory_judge.ts";
import { isRec } from "./_metric_args.ts";
import { RunInputError } from "./types.ts";

/** Where a call may keep its arguments: OpenAI's key, Anthropic's `tool_use`, LangChain's. */
const ARGUMENT_KEYS = ["arguments", "input", "args"] as const;

const CALL = '{name, arguments}, {function: {name, arguments}}, {type: "tool_use", name, input} ' +
  "or {name, args}";

/** A call as found: its name and its arguments as recorded (undefined when it has none). */
export interface FoundCall {
  name: string;
  args: unknown;
}

const has = (v: Record<string, unknown>, k: string) => Object.hasOwn(v, k) && v[k] !== undefined;

// LangChain's record of a call whose arguments did not parse: its `args` may be null, and its
// place among the message's calls is lost, so it is refused rather than guessed at.
const invalidCall = (at: string) =>
  new TypeError(
    `${at} is a LangChain invalid_tool_call (its arguments did not parse), which is not read: ` +
      "give it as a call with its arguments as text",
  );

/**
 * The name and arguments of a call in any of the read shapes.
 *
 * @throws {TypeError} Naming `at`, if it is none of them, is a `server_tool_use` or
 *   `mcp_tool_use` block or a LangChain `invalid_tool_call`, or holds its name or arguments in two places at once (`function` beside a
 *   `name`; two of `arguments`, `input`, `args`).
 */
function findCall(c: unknown, at: string): FoundCall {
  const type = isRec(c) ? c.type : undefined;
  if (typeof type === "string" && type.endsWith("_tool_use")) {
    // A call run by Anthropic's servers or an MCP server: read as a tool call, it would pass for
    // one the agent's own tools ran; read as no call, it would be dropped.
    throw new TypeError(
      `${at} is a "${type}" block, a call run by a server, which is not read as a tool call: ` +
        "give it as a tool_use block to compare it",
    );
  }
  if (type === "invalid_tool_call") throw invalidCall(at);
  let f = c;
  if (isRec(c) && isRec(c.function)) {
    const beside = ["name", ...ARGUMENT_KEYS].find((k) => has(c, k));
    if (beside !== undefined) {
      throw new TypeError(
        `${at} is ambiguous: it has both function and ${beside}; give the call once`,
      );
    }
    f = c.function;
  }
  if (!isRec(f) || typeof f.name !== "string") throw new TypeError(`${at} must be a call: ${CALL}`);
  const keys = ARGUMENT_KEYS.filter((k) => has(f, k));
  if (keys.length > 1) {
    throw new TypeError(
      `${at} is ambiguous: it has arguments under both "${keys[0]}" and "${keys[1]}"; keep one`,
    );
  }
  return { name: f.name, args: keys.length === 1 ? f[keys[0]!] : undefined };
}

/** A call as `trajectory_match` compares it: its name and argument tree. */
const tree = ({ name, args }: FoundCall, numeric: boolean): Call => ({
  name,
  args: argumentTree(args, numeric),
});

/** A list of calls (`at` names it), each read by {@linkcode findCall}, as argument trees. */
export function readCalls(v: unknown, at: string, numeric: boolean): Call[] {
  if (!Array.isArray(v)) throw new TypeError(`${at} must be a list of calls`);
  return v.map((c, i) => tree(findCall(c, `${at}[${i}]`), numeric));
}

/** One place of a message that holds calls, and its calls, each with its path in the message. */
interface Place {
  where: "tool_calls" | "content" | "function_call";
  calls: { call: FoundCall; path: string }[];
}

// The calls of a message, place by place; a place that holds none is left out.
function places(msg: Record<string, unknown>, at: string): Place[] {
  const out: Place[] = [];
  const tc = msg.tool_calls;
  if (tc !== undefined && tc !== null) {
    if (!Array.isArray(tc)) throw new TypeError(`${at}.tool_calls must be a list of calls`);
    const calls = tc.map((c, i) => {
      const path = `tool_calls[${i}]`;
      return { call: findCall(c, `${at}.${path}`), path };
    });
    out.push({ where: "tool_calls", calls });
  }
  if (Array.isArray(msg.invalid_tool_calls) && msg.invalid_tool_calls.length > 0) {
    throw invalidCall(`${at}.invalid_tool_calls[0]`);
  }
  if (Array.isArray(msg.content)) {
    const calls: Place["calls"] = [];
    msg.content.forEach((b, i) => {
      const type = isRec(b) ? b.type : undefined;
      const path = `content[${i}]`;
      if (type === "tool_use" || (typeof type === "string" && type.endsWith("_tool_use"))) {
        calls.push({ call: findCall(b, `${at}.${path}`), path });
      }
    });
    out.push({ where: "content", calls });
  }
  if (msg.function_call !== undefined && msg.function_call !== null) {
    const call = findCall(msg.function_call, `${at}.function_call`);
    out.push({ where: "function_call", calls: [{ call, path: "function_call" }] });
  }
  return out.filter((p) => p.calls.length > 0);
}

// Where two places' calls first differ (name or arguments, compared as recorded), or undefined.
function difference(a: Place, b: Place): string | undefined {
  const n = Math.min(a.calls.length, b.calls.length);
  for (let k = 0; k < n; k++) {
    const x = a.calls[k]!, y = b.calls[k]!;
    const same = x.call.name === y.call.name &&
      nodeText(argumentTree(x.call.args, false)) === nodeText(argumentTree(y.call.args, false));
    if (!same) return `${x.path} and ${y.path} differ`;
  }
  if (a.calls.length === b.calls.length) return undefined;
  return `${a.where} holds ${a.calls.length} calls and ${b.where} ${b.calls.length}`;
}

/**
 * A message of a `strict` trajectory: its role (LangChain's `type` read as one, see
 * {@linkcode messageOf}) and its calls, from `tool_calls`, the `tool_use`
 * blocks of `content` (in content order) or `function_call`. A message holding calls in two of
 * these places is read when they are the same calls in the same order (LangChain's `AIMessage`
 * from an Anthropic model lists its `tool_use` blocks again in `tool_calls`), and refused when
 * they differ. Other content (text, `tool_result` blocks) holds no call.
 *
 * @throws {TypeError} Naming `at` or the item, if it cannot be read or its places disagree.
 */
export function readMessage(
  value: unknown,
  at: string,
  numeric: boolean,
): { role: string; calls: Call[] } {
  const { role, msg } = messageOf(value, at);
  const found = places(msg, at);
  for (const p of found.slice(1)) {
    const diff = difference(found[0]!, p);
    if (diff !== undefined) {
      throw new TypeError(
        `${at} is ambiguous: it makes calls in both ${found[0]!.where} and ${p.where}, and ` +
          `${diff}; keep one`,
      );
    }
  }
  return { role, calls: (found[0]?.calls ?? []).map((c) => tree(c.call, numeric)) };
}

// LangChain names a message's kind by `type` where the others have `role`: a message dumped by
// `model_dump()` holds its fields beside it, and one of `messages_to_dict()` under `data`.
// TRACE_SCHEMA's messages list these types too (a test checks that the two agree).
const LANGCHAIN_ROLES: Readonly<Record<string, string>> = {
  ai: "assistant",
  human: "user",
  system: "system",
  tool: "tool",
  function: "function",
  // A streamed message gathered from its chunks keeps the chunk's type (LangGraph's streams).
  AIMessageChunk: "assistant",
  HumanMessageChunk: "user",
  SystemMessageChunk: "system",
  ToolMessageChunk: "tool",
  FunctionMessageChunk: "function",
};

/**
 * A message's role and the record that holds its calls: its `role`, else the role of LangChain's
 * `type` (`ai` is `assistant`, `human` is `user`; `system`, `tool` and `function` are themselves),
 * with the fields under `data` for a message that holds only `type` and `data`.
 */
function messageOf(msg: unknown, at: string): { role: string; msg: Record<string, unknown> } {
  if (isRec(msg)) {
    if (typeof msg.role === "string") return { role: msg.role, msg };
    const type = msg.type;
    if (typeof type === "string" && Object.hasOwn(LANGCHAIN_ROLES, type)) {
      const { data } = msg;
      const wrapped = isRec(data) && Object.keys(msg).every((k) => k === "type" || k === "data");
      return { role: LANGCHAIN_ROLES[type]!, msg: wrapped ? data : msg };
    }
  }
  throw new TypeError(
    `${at} must be a message: {role, tool_calls?, content?, function_call?}, or LangChain's ` +
      `{type, ...} with type ${Object.keys(LANGCHAIN_ROLES).join(", ")}`,
  );
}

/**
 * The calls of a trace's `tool_calls`, each found by {@linkcode findCall}.
 *
 * @throws {TypeError} If `tool_calls` is not a list.
 * @throws {RunInputError} Of the trace, naming `tool_calls[i]`, if a call cannot be read.
 */
export function traceCalls(trace: unknown): FoundCall[] {
  const calls = isRec(trace) ? trace.tool_calls : undefined;
  if (!Array.isArray(calls)) throw new TypeError("The trace's tool_calls must be a list");
  try {
    return calls.map((c, i) => findCall(c, `tool_calls[${i}]`));
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    throw new RunInputError("trace", e.message, { cause: e });
  }
}
