/**
 * `trajectory_match`: whether an agent's tool calls match a reference trajectory, in one of six
 * trajectory modes and four argument modes, with per-tool overrides. Every unordered relation is
 * decided by a maximum bipartite matching and `in_order` by the leftmost scan (exact for
 * subsequences), so the verdict never depends on the order in which equal candidates are tried; each result also says whether
 * greedy first-match (the method of agentevals) would have decided otherwise. See
 * `docs/trace_metrics.md`.
 *
 * @module
 */
import {
  ARGUMENTS_MODES,
  type ArgumentsMode,
  defaultText,
  readRule,
  type ToolRule,
} from "./_trajectory_args.ts";
import { type Call, judge, MAX_TOOL_PAIRS, PairLimit } from "./_trajectory_judge.ts";
import { isRec, oneOf, paramError } from "./_metric_args.ts";
import {
  type ListedCall,
  readCalls,
  readMessage,
  readServerCalls,
  type ServerCalls,
} from "./_tool_calls.ts";
import { checkOptions } from "../engine/mod.ts";

export { SERVER_CALLS, type ServerCalls } from "./_tool_calls.ts";

export { ARGUMENTS_MODES, type ArgumentsMode } from "./_trajectory_args.ts";

/**
 * One tool call, in the shape of any of the APIs agents are built on; each reads as the same call:
 *
 * - `{name, arguments}`: the plain form, and OpenAI's Responses `function_call` items;
 * - `{function: {name, arguments}}`: an OpenAI Chat Completions `tool_calls` item;
 * - `{type: "tool_use", id, name, input}`: an Anthropic `tool_use` content block;
 * - `{name, args, id, type: "tool_call"}`: a LangChain tool call;
 * - `{type: "server_tool_use", id, name, input}` and `{type: "mcp_tool_use", id, server_name,
 *   name, input}`: a call Anthropic's servers or an MCP server ran (see `server_calls` below).
 *
 * The arguments are a JSON value (an object's numbers as JavaScript holds them: `1.0` is `1`), or
 * JSON text (its own number lexemes), whichever key holds them; absent means `{}`. A call with
 * arguments under two of `arguments`, `input` and `args`, or with `function` beside a `name` or
 * arguments of its own, is ambiguous and refused (a `TypeError` naming it), as is a call without
 * a string name. A `server_tool_use` or `mcp_tool_use` block (a call run by Anthropic's servers or
 * an MCP server) is refused too, unless the option `server_calls` says to read it (as a call;
 * an MCP tool's as `mcp__<server_name>__<name>`) or to skip it.
 */
export type TrajectoryCall =
  | { name: string; arguments?: unknown; type?: string; id?: string; call_id?: string }
  | { function: { name: string; arguments?: unknown }; type?: string; id?: string }
  | { type: "tool_use"; name: string; input: unknown; id?: string }
  | { name: string; args: unknown; type?: string; id?: string | null }
  | { type: "server_tool_use"; name: string; input: unknown; id?: string }
  | { type: "mcp_tool_use"; server_name: string; name: string; input: unknown; id?: string };

/**
 * One message of a `strict` trajectory. Its calls are its `tool_calls` (OpenAI, LangChain's
 * `AIMessage`), or the `tool_use` blocks of its `content`, in content order (Anthropic; with its
 * server calls as `server_calls` says), or its legacy OpenAI `function_call` (one call). Calls in
 * two of these places are read once when they are the same calls in the same order (LangChain
 * lists an Anthropic message's `tool_use` blocks again in `tool_calls`, without its server calls),
 * and refused as ambiguous when they differ; LangChain's `invalid_tool_calls` are refused. Text
 * and tool results (`role: "tool"` messages, `tool_result` blocks, a server tool's
 * `*_tool_result` blocks) are no calls: only the role and the calls of each message are compared.
 */
export interface TrajectoryMessage {
  /** `user`, `assistant`, `tool`, ... (compared as written). */
  role: string;
  /** The calls the message makes, if any. */
  tool_calls?: TrajectoryCall[] | null;
  /** Text, or content blocks (Anthropic): its `tool_use` blocks are its calls. */
  content?: unknown;
  /** The legacy OpenAI call: `{name, arguments}`. */
  function_call?: { name: string; arguments?: unknown } | null;
}

/**
 * A LangChain message of a `strict` trajectory, as `model_dump()` writes it (its kind as `type`,
 * no `role`) or as `messages_to_dict()` does (`{type, data}`). `ai` is read as role `assistant`,
 * `human` as `user`, the others as themselves, a `...MessageChunk` as its message's type. Its
 * calls are read as a {@linkcode TrajectoryMessage}'s.
 */
export interface LangChainMessage {
  /** The message's kind. */
  type:
    | "ai"
    | "human"
    | "system"
    | "tool"
    | "function"
    | `${"AI" | "Human" | "System" | "Tool" | "Function"}MessageChunk`;
  /** The calls the message makes, if any (`{name, args, id, type: "tool_call"}`). */
  tool_calls?: TrajectoryCall[] | null;
  /** Text, or content blocks (its `tool_use` blocks are calls, as in Anthropic's messages). */
  content?: unknown;
  /** The message's fields, for a message of `messages_to_dict()` (`{type, data}`). */
  data?: Omit<LangChainMessage, "data">;
}

/** The trajectory modes. */
export const TRAJECTORY_MODES = [
  "strict",
  "unordered",
  "subset",
  "superset",
  "in_order",
  "exact",
] as const;

/** One of {@linkcode TRAJECTORY_MODES}. */
export type TrajectoryMode = (typeof TRAJECTORY_MODES)[number];

/** One tool's override: a mode, a list of dotted key paths to compare, or an object. */
export type ToolOverride = ArgumentsMode | string[] | {
  /** The argument mode for this tool. */
  arguments?: ArgumentsMode;
  /** Compare only these dotted key paths (absent on both sides counts as equal). */
  keys?: string[];
  /** Globs over dotted member paths to drop from both sides (`*` within a segment, `**` across). */
  ignore?: string[];
  /** Dotted member path → default value; a member equal to its default is dropped. */
  defaults?: Record<string, unknown>;
  /** Fewest output calls of this tool. */
  min?: number;
  /** Most output calls of this tool. */
  max?: number;
};

/** Options of {@linkcode trajectoryMatch}. */
export interface TrajectoryMatchOptions {
  /** The trajectory mode. */
  trajectory: TrajectoryMode;
  /** How arguments compare (default `exact`); `subset`: the output's ⊆ the reference's. */
  arguments?: ArgumentsMode;
  /** `exact` (default): `1` ≠ `1.0` in JSON text; `numeric`: numbers compare by exact value. */
  numbers?: "exact" | "numeric";
  /** Per-tool overrides, by tool name. */
  tools?: Record<string, ToolOverride>;
  /**
   * What a `server_tool_use` or `mcp_tool_use` block (a call run by Anthropic's servers or an MCP
   * server) is, on both sides: `refuse` (default: a `TypeError`), `read` (a call; an MCP tool is
   * named `mcp__<server_name>__<name>`) or `skip` (no call).
   */
  server_calls?: ServerCalls;
}

/** Why a trajectory failed. Indexes are into the call list (of the message, in `strict`). */
export type TrajectoryReason =
  | {
    kind: "missing";
    reference: number;
    name: string;
    message?: number;
    /** The closest output call of the same name and the argument paths that differ. */
    closest?: { output: number; paths: string[] };
  }
  | { kind: "extra"; output: number; name: string; message?: number }
  | { kind: "order"; reference: number; name: string }
  | { kind: "count"; name: string; count: number; min?: number; max?: number }
  | { kind: "messages"; reference: number; output: number }
  | { kind: "role"; message: number; reference: string; output: string }
  | {
    kind: "limit";
    /** The tool whose calls would be compared pair by pair past the limit. */
    name: string;
    /** Its reference calls × output calls (of the message, in `strict`). */
    pairs: number;
    limit: number;
    message?: number;
  };

export { MAX_TOOL_PAIRS };

/** What {@linkcode trajectoryMatch} returns. */
export interface TrajectoryResult {
  /** Whether the output matches the reference. */
  pass: boolean;
  /** Why not (empty when it passes). */
  reasons: TrajectoryReason[];
  /** Whether greedy first-match would have given the other verdict. */
  greedyDisagrees: boolean;
}

/** The options, checked; the rule of each tool with its defaults in canonical text. */
function readOptions(options: unknown) {
  if (!isRec(options)) throw new TypeError("Expected options: {trajectory, arguments?, ...}");
  const known = ["trajectory", "arguments", "numbers", "tools", "server_calls"];
  for (const k of Object.keys(options)) {
    if (!known.includes(k)) {
      throw new RangeError(`Unknown option "${k}" (options: ${known.join(", ")})`);
    }
  }
  if (options.trajectory === undefined) {
    const e = new RangeError(
      `trajectory must be one of ${TRAJECTORY_MODES.join(", ")}: it is required`,
    );
    throw paramError(e, "trajectory");
  }
  const mode = oneOf("trajectory", options.trajectory, TRAJECTORY_MODES);
  const base = oneOf("arguments", options.arguments ?? "exact", ARGUMENTS_MODES);
  const numbers = options.numbers ?? "exact";
  if (numbers !== "exact" && numbers !== "numeric") {
    const e = new RangeError(`numbers must be exact or numeric, got ${String(numbers)}`);
    throw paramError(e, "numbers", numbers, ["exact", "numeric"]);
  }
  const numeric = numbers === "numeric";
  const tools = options.tools ?? {};
  if (!isRec(tools)) {
    throw paramError(new TypeError("tools must be an object: tool name → override"), "tools");
  }
  const rules = new Map<string, ToolRule>();
  for (const [name, o] of Object.entries(tools)) {
    const r = readRule(`tools.${name}`, o, base);
    const defaults = new Map<string, string>();
    for (const [k, v] of Object.entries(r.defaults)) defaults.set(k, defaultText(v, numeric));
    rules.set(name, { ...r, defaults });
  }
  const plain: ToolRule = { mode: base, keys: [], ignore: [], defaults: new Map() };
  const server = readServerCalls(options.server_calls);
  return { mode, numeric, rules, plain, server };
}

// The judge indexes the calls it was given: a reason's indexes become the calls' places in the
// lists, where skipped server calls still count.
function placeReasons(
  reasons: TrajectoryReason[],
  refs: ListedCall<Call>[],
  outs: ListedCall<Call>[],
) {
  for (const r of reasons) {
    if (r.kind === "missing" || r.kind === "order") r.reference = refs[r.reference]!.index;
    if (r.kind === "extra") r.output = outs[r.output]!.index;
    if (r.kind === "missing" && r.closest) r.closest.output = outs[r.closest.output]!.index;
  }
}

/**
 * Whether an agent's tool calls match a reference trajectory.
 *
 * Trajectory modes: `strict` (the same messages with the same roles, each message's calls
 * matched one to one in any order), `unordered` (the same multiset of calls), `subset` (no
 * output call outside the reference), `superset` (every reference call present; extras
 * allowed), `in_order` (the reference is a subsequence of the output), `exact` (the same
 * sequence). Two calls match when their names are equal and their arguments match: `exact`
 * (canonical JSON equality; `1` ≠ `1.0` in JSON text unless `numbers: "numeric"`, which compares
 * numbers by exact value), `ignore`, `subset` (the output's top-level members are among the
 * reference's), `superset` (the reference's are among the output's). A tool's override may set
 * its mode, a list of dotted key paths to compare instead, `ignore` globs and `defaults` removed
 * from both sides first, and `min`/`max` counts of its output calls (checked in every mode).
 *
 * A call may be in any of the shapes of {@linkcode TrajectoryCall} (OpenAI, Anthropic, LangChain,
 * mixed freely), a message in those of {@linkcode TrajectoryMessage} or
 * {@linkcode LangChainMessage}. One that cannot be read, or
 * could be read two ways, is a `TypeError` naming where it is (`output[3]`,
 * `reference[1].content[2]`): no call is dropped. A call run by a server is refused, read or
 * skipped on both sides as `server_calls` says; a reason's indexes into a list of calls count the
 * skipped ones.
 *
 * Time is near-linear in the calls, except that under `subset`/`superset` arguments the unordered
 * modes compare a tool's calls pair by pair: past {@linkcode MAX_TOOL_PAIRS} pairs the result
 * fails with the one reason `limit`. `closest` is given on the missing reasons among the first 50.
 *
 * @param reference The reference calls (messages, for `strict`).
 * @param output The agent's calls (messages, for `strict`).
 * @param options The modes and overrides.
 * @returns The verdict, the reasons for a failure, and whether greedy first-match disagrees.
 * @throws {TypeError} If a trajectory or the options have the wrong shape.
 * @throws {RangeError} If a mode, option or count is unknown or out of range.
 *
 * @example Optimal matching passes where greedy first-match fails
 * ```ts
 * import { trajectoryMatch } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const reference = [
 *   { name: "f", arguments: { a: 1 } },
 *   { name: "f", arguments: { a: 1, b: 2 } },
 * ];
 * const output = [
 *   { name: "f", arguments: { a: 1, b: 2 } },
 *   { name: "f", arguments: { a: 1, c: 3 } },
 * ];
 * const r = trajectoryMatch(reference, output, { trajectory: "superset", arguments: "superset" });
 * assertEquals(r, { pass: true, reasons: [], greedyDisagrees: true });
 * ```
 *
 * @example An Anthropic agent's calls against an OpenAI-shaped reference
 * ```ts
 * import { trajectoryMatch } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const reference = [{ function: { name: "search", arguments: '{"q": "assay"}' } }];
 * const output = [{ type: "tool_use" as const, id: "toolu_1", name: "search", input: { q: "assay" } }];
 * assertEquals(trajectoryMatch(reference, output, { trajectory: "exact" }).pass, true);
 * ```
 *
 * @example Calls Anthropic's servers and an MCP server ran, read or skipped
 * ```ts
 * import { trajectoryMatch } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const output = [
 *   { type: "server_tool_use" as const, id: "srvtoolu_1", name: "web_search", input: { q: "x" } },
 *   { type: "mcp_tool_use" as const, id: "mcptoolu_1", server_name: "crm", name: "get", input: {} },
 * ];
 * const reference = [{ name: "web_search", arguments: { q: "x" } }, { name: "mcp__crm__get" }];
 * strictEqual(trajectoryMatch(reference, output, { trajectory: "exact", server_calls: "read" }).pass, true);
 * strictEqual(trajectoryMatch([], output, { trajectory: "exact", server_calls: "skip" }).pass, true);
 * ```
 */
export function trajectoryMatch(
  reference: readonly (TrajectoryCall | TrajectoryMessage | LangChainMessage)[],
  output: readonly (TrajectoryCall | TrajectoryMessage | LangChainMessage)[],
  options: TrajectoryMatchOptions,
): TrajectoryResult {
  checkOptions(options);
  // Its names are checked here (readOptions), as a suite's params: not by checkOptionNames.
  const { mode, numeric, rules, plain, server } = readOptions(options);
  const ruleOf = (name: string) => rules.get(name) ?? plain;
  const reasons: TrajectoryReason[] = [];
  let pass = true, greedyPass = true;
  let counted: Call[] = [];
  try {
    if (mode === "strict") {
      const messages = (v: unknown, at: string) => {
        if (!Array.isArray(v)) throw new TypeError(`${at} must be a list of messages`);
        return v.map((msg, k) => readMessage(msg, `${at}[${k}]`, numeric, server));
      };
      const refs = messages(reference, "reference"), outs = messages(output, "output");
      counted = outs.flatMap((m) => m.calls);
      if (refs.length !== outs.length) {
        reasons.push({ kind: "messages", reference: refs.length, output: outs.length });
        pass = greedyPass = false;
      }
      for (let k = 0; k < Math.min(refs.length, outs.length); k++) {
        const r = refs[k]!, o = outs[k]!;
        if (r.role !== o.role) {
          reasons.push({ kind: "role", message: k, reference: r.role, output: o.role });
          pass = greedyPass = false;
        }
        const d = judge("unordered", r.calls, o.calls, ruleOf, reasons, k);
        pass &&= d.pass;
        greedyPass &&= d.greedyPass;
      }
    } else {
      const refs = readCalls(reference, "reference", numeric, server);
      const outs = readCalls(output, "output", numeric, server);
      counted = outs;
      const d = judge(mode, refs, outs, ruleOf, reasons);
      placeReasons(reasons, refs, outs);
      pass = d.pass, greedyPass = d.greedyPass;
    }
  } catch (e) {
    if (!(e instanceof PairLimit)) throw e;
    const { tool: name, pairs, at } = e;
    const limit = { kind: "limit" as const, name, pairs, limit: MAX_TOOL_PAIRS };
    return {
      pass: false,
      reasons: [{ ...limit, ...(at !== undefined && { message: at }) }],
      greedyDisagrees: false,
    };
  }
  let countsOk = true;
  for (const [name, rule] of rules) {
    if (rule.min === undefined && rule.max === undefined) continue;
    const count = counted.filter((c) => c.name === name).length;
    if (
      (rule.min !== undefined && count < rule.min) || (rule.max !== undefined && count > rule.max)
    ) {
      countsOk = false;
      reasons.push({
        kind: "count",
        name,
        count,
        ...(rule.min !== undefined && { min: rule.min }),
        ...(rule.max !== undefined && { max: rule.max }),
      });
    }
  }
  return {
    pass: pass && countsOk,
    reasons,
    greedyDisagrees: pass !== greedyPass,
  };
}
