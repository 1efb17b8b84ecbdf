// How the suite finds an agent's tool calls in a golden or a trace, whatever API's shape they were
// recorded in: one rule for `trajectory_match`, `step_efficiency` and the `view_tools` of
// `expected_view_recall`. A call is `{name, arguments}` (OpenAI Responses items too),
// `{function: {name, arguments}}` (OpenAI Chat Completions), `{type: "tool_use", name, input}`
// (Anthropic) or `{name, args}` (LangChain); a message's calls are its `tool_calls`, its
// `tool_use` content blocks, or its legacy `function_call`. A call run by a server (Anthropic's
// `server_tool_use`, `mcp_tool_use`) is refused, read or skipped as the metric's `server_calls`
// says. What cannot be read, or could be read two ways, is a TypeError naming where it is
// (`output[3].content[1]`): never a dropped call.
import { argumentTree, nodeText } from "./_trajectory_args.ts";
import type { Call } from "./_trajectory_judge.ts";
import { isRec, oneOf } from "./_metric_args.ts";
import { RunInputError } from "./types.ts";

/** What the readers do with a call run by a server: the values of `server_calls`. */
export const SERVER_CALLS = ["refuse", "read", "skip"] as const;

/**
 * What the readers do with a `server_tool_use` or `mcp_tool_use` block (a call that Anthropic's
 * servers or an MCP server ran, not the agent's own tools): `refuse` it as bad input (the
 * default), `read` it as a call (an MCP tool's name as `mcp__<server_name>__<name>`), or `skip`
 * it as no call.
 */
export type ServerCalls = (typeof SERVER_CALLS)[number];

/** The `server_calls` param or option, checked: `refuse` when absent. */
export function readServerCalls(v: unknown): ServerCalls {
  return v === undefined ? "refuse" : oneOf("server_calls", v, SERVER_CALLS);
}

// What scopes a call's name to a tool group (an OpenAI Responses item's namespace, an Anthropic
// toolset member's block): `crm`'s `get` must not pass for a tool named `get`.
const SCOPES = ["namespace", "toolset_name"] as const;

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

// Whether `c` is a block of a call run by a server: its type ends in `_tool_use` and is not
// `tool_use` (Anthropic's `server_tool_use`, `mcp_tool_use`).
const isServerCall = (c: unknown): boolean =>
  isRec(c) && typeof c.type === "string" && c.type.endsWith("_tool_use");

/**
 * The name and arguments of a call in any of the read shapes, or undefined for a server's call
 * that `server` skips. Under `read` a `server_tool_use` block is a call of its `name` (`web_search`)
 * and an `mcp_tool_use` block a call of `mcp__<server_name>__<name>`, so that one MCP server's
 * tool is told from another's and from the agent's own.
 *
 * @throws {TypeError} Naming `at`, if it is none of them, is a server's call under `refuse` (or
 *   of another type than `server_tool_use` and `mcp_tool_use`), an `mcp_tool_use` block whose
 *   `server_name` is not a string without `__`, a LangChain `invalid_tool_call` or a call of a
 *   tool group (a `namespace` or `toolset_name` that is not null), or holds its
 *   name or arguments in two places at once (`function` beside a `name`; two of `arguments`,
 *   `input`, `args`).
 */
function findCall(c: unknown, at: string, server: ServerCalls): FoundCall | undefined {
  const type = isRec(c) ? c.type : undefined;
  if (isServerCall(c)) {
    // A call run by Anthropic's servers or an MCP server: read as a tool call, it could pass for
    // one the agent's own tools ran; read as no call, it is dropped. The metric's param decides.
    if (server === "refuse") {
      throw new TypeError(
        `${at} is a "${type}" block, a call run by a server, which is not read as a tool call: ` +
          "give it as a tool_use block to compare it, or set server_calls to read or skip",
      );
    }
    if (type !== "server_tool_use" && type !== "mcp_tool_use") {
      throw new TypeError(
        `${at} is a "${type}" block, which server_calls: ${server} does not know: it reads ` +
          "server_tool_use and mcp_tool_use blocks",
      );
    }
    if (server === "skip") return undefined;
  }
  if (type === "invalid_tool_call") throw invalidCall(at);
  const scope = SCOPES.find((k) => isRec(c) && c[k] != null);
  if (scope !== undefined) {
    throw new TypeError(
      `${at} is a call of a tool group (its ${scope}), which is not read: its name alone could ` +
        "be another tool's",
    );
  }
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
  const args = keys.length === 1 ? f[keys[0]!] : undefined;
  if (type !== "mcp_tool_use") return { name: f.name, args };
  const s = (c as Record<string, unknown>).server_name;
  if (typeof s !== "string" || s === "" || s.includes("__")) {
    // `__` would let mcp__a__b__c be a's tool b__c or a__b's tool c.
    throw new TypeError(
      `${at} is an "mcp_tool_use" block whose server_name must be a non-empty string without ` +
        `"__" to name its tool mcp__<server_name>__<name>, got ` +
        (typeof s === "string" ? JSON.stringify(s) : String(s)),
    );
  }
  return { name: `mcp__${s}__${f.name}`, args };
}

/** A call as `trajectory_match` compares it: its name and argument tree. */
const tree = ({ name, args }: FoundCall, numeric: boolean): Call => ({
  name,
  args: argumentTree(args, numeric),
});

/** A call of a list, with its index in the list (a skipped server call keeps its place). */
export type ListedCall<C> = C & { index: number };

// The calls of a list (`at` names it), each found by findCall, with their indexes.
function listCalls(v: unknown, at: string, server: ServerCalls): ListedCall<FoundCall>[] {
  if (!Array.isArray(v)) throw new TypeError(`${at} must be a list of calls`);
  const out: ListedCall<FoundCall>[] = [];
  v.forEach((c, index) => {
    const call = findCall(c, `${at}[${index}]`, server);
    if (call !== undefined) out.push({ ...call, index });
  });
  return out;
}

/**
 * A list of calls (`at` names it), each read by {@linkcode findCall}, as argument trees, each
 * with its index in the list: the indexes skip the server calls `server` skips.
 */
export function readCalls(
  v: unknown,
  at: string,
  numeric: boolean,
  server: ServerCalls,
): ListedCall<Call>[] {
  return listCalls(v, at, server).map((c) => ({ ...tree(c, numeric), index: c.index }));
}

/** One place of a message that holds calls, and its calls, each with its path in the message. */
interface Place {
  where: "tool_calls" | "content" | "function_call";
  calls: { call: FoundCall; path: string; server: boolean }[];
}

// The calls of a message, place by place; a place that holds none is left out.
function places(msg: Record<string, unknown>, at: string, server: ServerCalls): Place[] {
  const out: Place[] = [];
  const add = (where: Place["where"], items: [unknown, string][]) => {
    const calls: Place["calls"] = [];
    for (const [c, path] of items) {
      const call = findCall(c, `${at}.${path}`, server);
      if (call !== undefined) calls.push({ call, path, server: isServerCall(c) });
    }
    if (calls.length > 0) out.push({ where, calls });
  };
  const tc = msg.tool_calls;
  if (tc !== undefined && tc !== null) {
    if (!Array.isArray(tc)) throw new TypeError(`${at}.tool_calls must be a list of calls`);
    add("tool_calls", tc.map((c, i) => [c, `tool_calls[${i}]`]));
  }
  if (Array.isArray(msg.invalid_tool_calls) && msg.invalid_tool_calls.length > 0) {
    throw invalidCall(`${at}.invalid_tool_calls[0]`);
  }
  if (Array.isArray(msg.content)) {
    // Its tool_use blocks and server calls; text, tool_result and the server tools' results
    // (web_search_tool_result, mcp_tool_result, ...) hold no call.
    const blocks = msg.content.map((b, i): [unknown, string] => [b, `content[${i}]`]);
    add("content", blocks.filter(([b]) => isRec(b) && b.type === "tool_use" || isServerCall(b)));
  }
  if (msg.function_call !== undefined && msg.function_call !== null) {
    add("function_call", [[msg.function_call, "function_call"]]);
  }
  return out;
}

// Where two places' calls first differ (name or arguments, compared as recorded), or undefined.
// LangChain lists an Anthropic message's tool_use blocks again in tool_calls, but not its server
// calls: unless both places hold server calls, each is compared by its other calls.
function difference(a: Place, b: Place): string | undefined {
  const both = a.calls.some((c) => c.server) && b.calls.some((c) => c.server);
  const compared = (p: Place) => both ? p.calls : p.calls.filter((c) => !c.server);
  const xs = compared(a), ys = compared(b);
  const n = Math.min(xs.length, ys.length);
  for (let k = 0; k < n; k++) {
    const x = xs[k]!, y = ys[k]!;
    const same = x.call.name === y.call.name &&
      nodeText(argumentTree(x.call.args, false)) === nodeText(argumentTree(y.call.args, false));
    if (!same) return `${x.path} and ${y.path} differ`;
  }
  if (xs.length === ys.length) return undefined;
  return `${a.where} holds ${xs.length} calls and ${b.where} ${ys.length}`;
}

/**
 * A message of a `strict` trajectory: its role (LangChain's `type` read as one, see
 * {@linkcode messageOf}) and its calls, from `tool_calls`, the `tool_use` (and, as `server`
 * says, server call) blocks of `content` (in content order) or `function_call`. A message holding
 * calls in two of these places is read when they are the same calls in the same order (LangChain's
 * `AIMessage` from an Anthropic model lists its `tool_use` blocks again in `tool_calls`, without
 * its server calls: the calls of the place that holds those are read), and refused when they
 * differ. Other content (text, `tool_result` and `*_tool_result` blocks) holds no call.
 *
 * @throws {TypeError} Naming `at` or the item, if it cannot be read or its places disagree.
 */
export function readMessage(
  value: unknown,
  at: string,
  numeric: boolean,
  server: ServerCalls,
): { role: string; calls: Call[] } {
  const { role, msg } = messageOf(value, at);
  const found = places(msg, at, server);
  for (const p of found.slice(1)) {
    const diff = difference(found[0]!, p);
    if (diff !== undefined) {
      throw new TypeError(
        `${at} is ambiguous: it makes calls in both ${found[0]!.where} and ${p.where}, and ` +
          `${diff}; keep one`,
      );
    }
  }
  const read = found.find((p) => p.calls.some((c) => c.server)) ?? found[0];
  return { role, calls: (read?.calls ?? []).map((c) => tree(c.call, numeric)) };
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
 * The calls of a trace's `tool_calls`, each found by {@linkcode findCall}, with its index in the
 * list (the server calls `server` skips are left out).
 *
 * @throws {TypeError} If `tool_calls` is not a list.
 * @throws {RunInputError} Of the trace, naming `tool_calls[i]`, if a call cannot be read.
 */
export function traceCalls(trace: unknown, server: ServerCalls): ListedCall<FoundCall>[] {
  const calls = isRec(trace) ? trace.tool_calls : undefined;
  if (!Array.isArray(calls)) throw new TypeError("The trace's tool_calls must be a list");
  try {
    return listCalls(calls, "tool_calls", server);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    throw new RunInputError("trace", e.message, { cause: e });
  }
}
