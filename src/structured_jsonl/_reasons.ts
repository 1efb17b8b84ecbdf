// Why a row's predicted calls are invalid, as its report row says (`reasons`): each invalid call's
// reason, named by its place, or why the row's output did not decode. A row's reasons are few and
// short whatever the row holds: at most MAX_REASONS calls' (then how many more), each cut at
// REASON_CHARS code units.
import type { Engine } from "../engine/mod.ts";
import { textHead } from "../jsonl/mod.ts";
import { invalidCalls } from "../structured/calls/mod.ts";

/** The most invalid calls of a row whose reasons are given. */
export const MAX_REASONS = 10;

/** The longest reason, in UTF-16 code units (a longer one is cut, with its length). */
export const REASON_CHARS = 1000;

/** The predicted calls of a row, and why its output did not decode when it did not. */
export interface Predicted {
  calls: unknown;
  /** Whether the row's `tool_calls` is a list (its calls are named by index). */
  listed?: boolean;
  undecoded?: string;
}

/** Why an output did not decode: the decoder's status and reason. */
export function undecoded(status: string, reason: string | undefined): string {
  return `the output does not decode (${status})${reason === undefined ? "" : `: ${reason}`}`;
}

function cut(text: string): string {
  const head = textHead(text, REASON_CHARS);
  return head.length < text.length ? `${head} … (${text.length} characters)` : text;
}

/**
 * The reasons of a row with invalid predicted calls: its calls' from `tool_calls` (`tool_calls[k]`,
 * or `tool_calls` for one call given alone), or from a decoder (`call k`).
 */
export function rowReasons(p: Predicted, decoded: boolean, engine: Engine): string[] {
  if (p.undecoded !== undefined) return [cut(p.undecoded)];
  const { calls, count } = invalidCalls(p.calls, { engine, limit: MAX_REASONS });
  const name = (k: number) => decoded ? `call ${k}` : p.listed ? `tool_calls[${k}]` : "tool_calls";
  const out = calls.map((c) => cut(`${name(c.index)}: ${c.reason}`));
  if (count > calls.length) out.push(`and ${count - calls.length} more invalid calls`);
  return out;
}
