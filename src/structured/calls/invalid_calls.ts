// Why each invalid predicted call of one example is invalid, in the words of the tool metrics'
// rules (docs/tool_metrics.md, "Invalid calls"): what `assay structured` writes on a report's row.
import { canonicalizeBatch, checkOptions, type WithEngine } from "../../engine/mod.ts";
import { objectArguments, readCall } from "./read_call.ts";

/** One invalid predicted call: its place in the example's list of calls, and why. */
export interface InvalidCall {
  /** Its 0-based index in the list (0 for an entry that is no list). */
  index: number;
  /** Why it is invalid. */
  reason: string;
}

/** Options for {@linkcode invalidCalls}. */
export interface InvalidCallsOptions extends WithEngine {
  /** How many invalid calls to give at most, in order (all when absent). */
  limit?: number;
}

// The kind of a canonical JSON text, by its first character.
const KINDS: Record<string, string> = {
  "[": "an array",
  '"': "a string",
  n: "null",
  t: "a boolean",
  f: "a boolean",
};

/**
 * The invalid calls of one predicted entry (a call, a list of calls, or any other value, which is
 * one invalid call), as the tool metrics count them: a call of the wrong shape, or whose arguments
 * are not a JSON object. Arguments given as strings are read with the engine, as the metrics read
 * them, so the reasons are the same on either engine.
 *
 * @param entry One example's predicted entry.
 * @param options The engine, and how many invalid calls to give at most.
 * @returns The invalid calls in order, with how many there are in all.
 */
export function invalidCalls(
  entry: unknown,
  options?: InvalidCallsOptions,
): { calls: InvalidCall[]; count: number } {
  checkOptions(options);
  const list = Array.isArray(entry) ? entry : [entry];
  const found: InvalidCall[] = [];
  // The calls' argument texts, read in one batch as the metrics read them.
  const texts: string[] = [];
  const pending: { index: number; key: string }[] = [];
  list.forEach((x, index) => {
    const r = readCall(x);
    if (r === undefined) return;
    if ("reason" in r) found.push({ index, reason: r.reason });
    else {
      texts.push(r.text);
      pending.push({ index, key: Object(x).type === "tool_use" ? "input is" : "arguments are" });
    }
  });
  canonicalizeBatch(texts, options?.engine ? { engine: options.engine } : undefined)
    .forEach((r, k) => {
      const { index, key } = pending[k]!;
      if (objectArguments(r) !== null) return;
      const why = r.ok
        ? `not a JSON object, got ${KINDS[r.canonical[0]!] ?? "a number"}`
        : `not JSON (${r.error.code} at ${r.error.offset})`;
      found.push({ index, reason: `${key} ${why}` });
    });
  found.sort((a, b) => a.index - b.index);
  const limit = options?.limit ?? Infinity;
  return { calls: found.length > limit ? found.slice(0, limit) : found, count: found.length };
}
