// Normalises the expected/predicted tool calls of the tool metrics: one call or a list of
// calls per example, `{name, arguments}`, OpenAI's `{type: "function", function: {...}}` or an
// Anthropic `{type: "tool_use", name, input}` block, arguments as an object (written by
// canonicalValue) or a JSON string. All argument texts of one metric call go through the engine
// in one canonicalizeBatch (and, when pairs are needed, one flattenArgumentsBatch over the
// distinct canonical texts).
import type { Engine } from "../engine/mod.ts";
import { canonicalizeBatch, flattenArgumentsBatch } from "../engine/mod.ts";
import type { CallRef, PairTable } from "./assignment.ts";
import { objectArguments, readCall } from "./calls/mod.ts";

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
  const canonicalOf = results.map(objectArguments);
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
