// trajectoryMatch() reads a call in each API's shape as its plain {name, arguments} equivalent:
// on 3,000 seeded random trajectories in every trajectory mode, argument mode and number rule,
// each call (each message, in strict) is rewritten into a shape drawn at random (OpenAI Chat
// Completions, OpenAI Responses, Anthropic tool_use, LangChain, legacy function_call, LangChain's
// AIMessage of an Anthropic model with its calls in both places, LangChain's messages dumped with
// their type for a role), on each side independently, and
// the whole result (verdict, reasons, greedy) must equal the plain one's.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  ARGUMENTS_MODES,
  TRAJECTORY_MODES,
  trajectoryMatch,
  type TrajectoryMatchOptions,
} from "../../src/suite/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";

type Plain = { name: string; arguments?: Record<string, unknown> };
type Msg = { role: string; tool_calls?: Plain[] };
type Opts = TrajectoryMatchOptions;

function randomValue(rng: Rng, depth: number): unknown {
  const k = rng.int(depth > 1 ? 3 : 5);
  if (k === 0) return rng.pick([0, 1, 2, 1.5, 150, -7, 1e-7]);
  if (k === 1) return rng.pick(["x", "é", "1", "", "a\u0000b"]);
  if (k === 2) return rng.pick([true, false, null]);
  if (k === 3) return Array.from({ length: rng.int(3) }, () => randomValue(rng, depth + 1));
  return randomArgs(rng, depth + 1);
}

function randomArgs(rng: Rng, depth = 0): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const k of ["a", "b", "c"]) if (rng.chance(0.45)) args[k] = randomValue(rng, depth);
  return args;
}

function randomCall(rng: Rng): Plain {
  const name = rng.pick(["f", "g"]);
  return rng.chance(0.1) ? { name } : { name, arguments: randomArgs(rng) };
}

// An output close to the reference, so that many pass: some calls kept, some changed, shuffled.
function near(rng: Rng, calls: Plain[]): Plain[] {
  const out = calls.filter(() => rng.chance(0.85)).map((c) =>
    rng.chance(0.2) ? randomCall(rng) : c
  );
  if (rng.chance(0.3)) out.push(randomCall(rng));
  if (rng.chance(0.3)) out.reverse();
  return out;
}

const randomCalls = (rng: Rng) => Array.from({ length: rng.int(5) }, () => randomCall(rng));

const args = (c: Plain) => c.arguments ?? {};
const text = (c: Plain) => JSON.stringify(args(c), null, 0);

/** The call in a shape drawn at random. */
function reshape(rng: Rng, c: Plain, id: string): unknown {
  switch (rng.int(6)) {
    case 0:
      return c;
    case 1:
      return { id, type: "function", function: { name: c.name, arguments: text(c) } };
    case 2:
      return { id, type: "function", function: { name: c.name, arguments: args(c) } };
    case 3:
      return { type: "function_call", call_id: id, name: c.name, arguments: text(c) };
    case 4:
      return { type: "tool_use", id, name: c.name, input: args(c) };
    default:
      return { name: c.name, args: args(c), id, type: "tool_call" };
  }
}

// LangChain's message types, by the role they stand for.
const LANGCHAIN_TYPES: Record<string, string> = { assistant: "ai", user: "human", tool: "tool" };

const toolUse = (c: Plain, id: string) => ({ type: "tool_use", id, name: c.name, input: args(c) });

/** The message in a shape drawn at random, its calls each in a shape of that API. */
function reshapeMessage(rng: Rng, m: Msg, at: number): unknown {
  const calls = m.tool_calls ?? [];
  const id = (i: number) => `call_${at}_${i}`;
  switch (rng.int(calls.length === 1 ? 8 : 7)) {
    case 0:
      return m;
    case 1: // OpenAI Chat Completions
      return {
        role: m.role,
        content: null,
        ...(calls.length > 0 && {
          tool_calls: calls.map((c, i) => ({
            id: id(i),
            type: "function",
            function: { name: c.name, arguments: text(c) },
          })),
        }),
      };
    case 2: { // Anthropic: text and tool_use blocks, or tool results, in one content list
      const content: unknown[] = [];
      if (rng.chance(0.5)) content.push({ type: "text", text: "Let me look." });
      calls.forEach((c, i) => {
        content.push(toolUse(c, id(i)));
        if (rng.chance(0.2)) content.push({ type: "text", text: "and" });
      });
      if (m.role === "tool") {
        content.push({ type: "tool_result", tool_use_id: id(0), content: [{ type: "text" }] });
      }
      return { role: m.role, content };
    }
    case 3: // LangChain's AIMessage
      return {
        role: m.role,
        content: "",
        tool_calls: calls.map((c, i) => ({ name: c.name, args: args(c), id: id(i) })),
      };
    case 4: // LangChain's AIMessage of an Anthropic model: the same calls in both places
      return {
        role: m.role,
        content: calls.map((c, i) => toolUse(c, id(i))),
        tool_calls: calls.map((c, i) => ({ name: c.name, args: args(c), id: id(i) })),
      };
    case 5: // LangChain's message as model_dump() writes it: its kind as type, no role
    case 6: { // and as messages_to_dict() does: {type, data}
      const fields = {
        type: LANGCHAIN_TYPES[m.role]!,
        content: "",
        ...(calls.length > 0 && {
          tool_calls: calls.map((c, i) => ({ name: c.name, args: args(c), id: id(i) })),
        }),
      };
      return rng.chance(0.5) ? fields : { type: fields.type, data: fields };
    }
    default: // the legacy function_call
      return {
        role: m.role,
        content: null,
        function_call: { name: calls[0]!.name, arguments: text(calls[0]!) },
      };
  }
}

function randomMessages(rng: Rng): Msg[] {
  return Array.from({ length: 1 + rng.int(4) }, (): Msg => {
    const role = rng.pick(["assistant", "assistant", "user", "tool"]);
    return role === "assistant" ? { role, tool_calls: randomCalls(rng) } : { role };
  });
}

function nearMessages(rng: Rng, msgs: Msg[]): Msg[] {
  const out = msgs.map((m) => m.tool_calls ? { ...m, tool_calls: near(rng, m.tool_calls) } : m);
  if (rng.chance(0.1)) out.push({ role: "user" });
  return out;
}

// The overrides of f that some trials draw.
const OVERRIDES: NonNullable<Opts["tools"]>[string][] = [
  ["a"],
  { ignore: ["b.*"] },
  { defaults: { c: 1.5 } },
  { min: 1, max: 2 },
];

Deno.test("trajectoryMatch() gives every shape of 3,000 seeded trajectories its plain verdict", () => {
  const rng = makeRng(0x5a9e);
  let passes = 0, failures = 0;
  for (let t = 0; t < 3_000; t++) {
    const options: Opts = {
      trajectory: TRAJECTORY_MODES[t % TRAJECTORY_MODES.length]!,
      arguments: rng.pick(ARGUMENTS_MODES),
      numbers: rng.chance(0.5) ? "exact" : "numeric",
      tools: rng.chance(0.3) ? { f: rng.pick(OVERRIDES) } : {},
    };
    const { trajectory } = options;
    let ref: unknown[], out: unknown[], refShaped: unknown[], outShaped: unknown[];
    if (trajectory === "strict") {
      const r = randomMessages(rng),
        o = rng.chance(0.8) ? nearMessages(rng, r) : randomMessages(rng);
      ref = r, out = o;
      refShaped = r.map((m, k) => reshapeMessage(rng, m, k));
      outShaped = o.map((m, k) => reshapeMessage(rng, m, k));
    } else {
      const r = randomCalls(rng), o = rng.chance(0.8) ? near(rng, r) : randomCalls(rng);
      ref = r, out = o;
      refShaped = r.map((c, i) => reshape(rng, c, `r${i}`));
      outShaped = o.map((c, i) => reshape(rng, c, `o${i}`));
    }
    const plain = trajectoryMatch(ref as [], out as [], options);
    const at = `trial ${t}: ${JSON.stringify({ refShaped, outShaped, options })}`;
    assertEquals(trajectoryMatch(refShaped as [], outShaped as [], options), plain, at);
    assertEquals(trajectoryMatch(refShaped as [], out as [], options), plain, at);
    assertEquals(trajectoryMatch(ref as [], outShaped as [], options), plain, at);
    if (plain.pass) passes++;
    else failures++;
  }
  ok(passes > 600 && failures > 600, `${passes} passes, ${failures} failures`);
});
