// Normalises the expected/predicted tool calls of the tool metrics: one call or a list of
// calls per example, `{name, arguments}`, OpenAI's `{type: "function", function: {...}}` or an
// Anthropic `{type: "tool_use", name, input}` block, arguments as an object (written by
// canonicalValue) or a JSON string. All argument texts of one metric call go through the engine
// in one canonicalizeBatch (and, when pairs are needed, one flattenArgumentsBatch over the
// distinct canonical texts).
import type { Engine } from "../engine/mod.ts";
import { callKeysProblem, canonicalizeBatch, canonicalValue, jsonKind } from "../engine/mod.ts";
import { flattenArgumentsBatch } from "../engine/mod.ts";
import type { CallRef, PairTable } from "./assignment.ts";

/** One example's calls: the valid predicted calls, and how many predicted calls were invalid. */
export interface NormalExample {
  /** Expected calls (always valid). */
  expected: CallRef[];
  /** Valid predicted calls. */
  predicted: CallRef[];
  /** Invalid predicted calls: wrong shape, or arguments that are not a JSON object. */
  invalid: number;
}

/** A whole metric call's input, normalised. */
export interface NormalInput {
  /** Per example. */
  examples: NormalExample[];
  /** Distinct canonical argument texts, sorted; CallRef.args indexes this. */
  canonicals: string[];
}

// A call read: its name and argument text, why it is invalid, or undefined for no call.
type RawCall = { name: string; text: string } | { reason: string } | undefined;

// The blocks of an Anthropic message's content that are no calls, as the anthropic decoder
// (src/formats) reads them: text, thinking and server tools' results.
const notCall = (type: unknown) =>
  type === "text" || type === "thinking" || type === "redacted_thinking" ||
  typeof type === "string" && type.endsWith("_tool_result");

const isObject = (x: unknown): x is object =>
  typeof x === "object" && x !== null && !Array.isArray(x);

// Reads one call: `{name, arguments}`, OpenAI's `{type: "function", function: {name,
// arguments}}` (with an optional `id`) or an Anthropic `{type: "tool_use", name, input}` block
// (with optional `id`, `cache_control` and `caller`, as the anthropic decoder takes them; `input`
// read as `arguments` is), with exactly those keys. Any other shape is an invalid call with its
// reason, never a call with `{}` arguments. A block that is no call (`notCall`) is undefined.
function readCall(x: unknown): RawCall {
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

function entries(entry: unknown): unknown[] {
  return Array.isArray(entry) ? entry : [entry];
}

/**
 * Normalises expected and predicted calls.
 * @throws {TypeError} When either side is not an array, or an expected call is malformed.
 * @throws {RangeError} When the two lengths differ.
 */
export function normalizeToolCalls(
  expected: unknown,
  predicted: unknown,
  engine: Engine | undefined,
): NormalInput {
  if (!Array.isArray(expected)) throw new TypeError("Expected calls must be an array of examples");
  if (!Array.isArray(predicted)) {
    throw new TypeError("Predicted calls must be an array of examples");
  }
  if (expected.length !== predicted.length) {
    throw new RangeError(
      `Expected and predicted calls differ in length: ${expected.length} and ${predicted.length}`,
    );
  }
  const textIndex = new Map<string, number>();
  const texts: string[] = [];
  const intern = (t: string): number => {
    let i = textIndex.get(t);
    if (i === undefined) textIndex.set(t, i = texts.push(t) - 1);
    return i;
  };
  // A call, null for an invalid predicted call, undefined for no call (kept for the indices).
  type Pending = { name: string; text: number } | null | undefined;
  const rawE: Pending[][] = [], rawP: Pending[][] = [];
  for (let i = 0; i < expected.length; i++) {
    const list = entries(expected[i]);
    rawE.push(list.map((x, k) => {
      const r = readCall(x);
      if (r && "reason" in r) {
        throw new TypeError(`Expected call ${k} of example ${i} is malformed: ${r.reason}`);
      }
      return r && { name: r.name, text: intern(r.text) };
    }));
    rawP.push(
      entries(predicted[i]).map((x) => {
        const r = readCall(x);
        return r && ("reason" in r ? null : { name: r.name, text: intern(r.text) });
      }),
    );
  }
  const results = canonicalizeBatch(texts, { engine });
  const canonicalOf = results.map((r) => r.ok && r.canonical.startsWith("{") ? r.canonical : null);
  const canonicals = [...new Set(canonicalOf.filter((c): c is string => c !== null))].sort();
  const slot = new Map(canonicals.map((c, i) => [c, i]));
  const examples: NormalExample[] = [];
  for (let i = 0; i < rawE.length; i++) {
    const ex: NormalExample = { expected: [], predicted: [], invalid: 0 };
    rawE[i]!.forEach((c, k) => {
      if (!c) return;
      const canonical = canonicalOf[c.text];
      if (canonical == null) {
        const r = results[c.text]!;
        const why = r.ok ? "they are not a JSON object" : `${r.error.code} at ${r.error.offset}`;
        throw new TypeError(
          `Expected call ${k} of example ${i} has invalid arguments: ${why}`,
        );
      }
      ex.expected.push({ name: c.name, args: slot.get(canonical)! });
    });
    for (const c of rawP[i]!) {
      const canonical = c && canonicalOf[c.text];
      if (canonical) ex.predicted.push({ name: c!.name, args: slot.get(canonical)! });
      else if (c !== undefined) ex.invalid++;
    }
    examples.push(ex);
  }
  return { examples, canonicals };
}

/** Builds the pair table of the canonical texts with one flattenArgumentsBatch. */
export function pairTable(canonicals: readonly string[], engine: Engine | undefined): PairTable {
  const flat = flattenArgumentsBatch(canonicals, { engine });
  const keys = flat.map((r) => r.ok ? r.pairs.map((p) => `${p.path}\u0000${p.value}`) : []);
  const sets: (Set<string> | undefined)[] = [];
  const set = (i: number): Set<string> => (sets[i] ??= new Set(keys[i]));
  return {
    count: (i) => keys[i]!.length,
    overlap(e, p) {
      if (e === p) return keys[e]!.length;
      const ps = set(p);
      let n = 0;
      for (const k of keys[e]!) if (ps.has(k)) n++;
      return n;
    },
    subset(e, p) {
      if (canonicals[e] === "{}" || e === p) return true;
      const ps = set(p);
      for (const k of keys[e]!) if (!ps.has(k)) return false;
      return true;
    },
  };
}
