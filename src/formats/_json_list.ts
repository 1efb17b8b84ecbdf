// `json-list`: the calls of the first JSON value of a text, a list of `{name, arguments}` or one
// such object; a later JSON value that holds a call is refused, not dropped. A `[` or `{` of prose
// (`the list [a, b`, `{see below}`) is passed over in both searches (jsonStart).
import type { Engine, JsonValue } from "../engine/mod.ts";
import type { DecodeResult } from "./decoded.ts";
import { failed, type Failure, isObject, readCall, readCalls, readJson } from "./_exact.ts";
import { emptyOutput, firstSpan, NAME_ARGUMENTS, resultOf, spanFrom } from "./_text_decoders.ts";

const BRACKET = /[[{]/g;
// What can follow `{` in JSON, past JSON whitespace: a key's string or the end. What can follow
// `[`: the end or a value, which starts with `"`, `{`, `[`, a digit, a `-` before a digit or
// Infinity, or is one of the words Python's json.loads reads.
const AFTER_BRACE = /[\t\n\r ]*["}]/y;
const AFTER_BRACKET = /[\t\n\r ]*(?:["{[\]]|-?(?:[0-9]|Infinity)|true|false|null|NaN)/y;

/**
 * Where JSON can begin at or after `from`: the first `[` or `{` whose next character, past JSON
 * whitespace, can follow it in JSON (AFTER_BRACE, AFTER_BRACKET); -1 if none. Any other bracket
 * is prose's and is passed over. The test looks at the bracket's own next token only, so the
 * search is linear in the text: each bracket is tried once, whatever follows it.
 */
function jsonStart(text: string, from: number): number {
  BRACKET.lastIndex = from;
  for (let m = BRACKET.exec(text); m !== null; m = BRACKET.exec(text)) {
    const after = m[0] === "{" ? AFTER_BRACE : AFTER_BRACKET;
    after.lastIndex = m.index + 1;
    if (after.test(text)) return m.index;
    BRACKET.lastIndex = m.index + 1;
  }
  return -1;
}

/** Whether a value is what json-list reads as a call: an object with name and arguments keys. */
function callLike(v: JsonValue): boolean {
  return isObject(v) && Object.hasOwn(v, "name") && Object.hasOwn(v, "arguments");
}

/**
 * The failure of a JSON value after the first span that holds a call (a call, or a list with
 * one), or undefined: the calls it holds would be dropped. Other text, and JSON that holds no call,
 * is prose.
 */
function laterCall(text: string, from: number, engine: Engine | undefined): Failure | undefined {
  for (let at = jsonStart(text, from); at >= 0; at = jsonStart(text, at)) {
    const span = spanFrom(text, at, engine);
    if (span.status !== "found") return undefined;
    const start = at;
    at += span.end!;
    const json = readJson(text.slice(start, at), engine, "", start);
    if (failed(json)) continue;
    const v = json.value;
    if (callLike(v) || (Array.isArray(v) && v.some(callLike))) {
      return {
        status: "invalid_shape",
        reason: `another JSON value at ${start} holds a call: json-list reads the calls of the ` +
          "first JSON value only (write every call in one list)",
      };
    }
  }
  return undefined;
}

/**
 * `json-list`: the first JSON span, a list of `{name, arguments}` or one such object; a later JSON
 * value that holds a call is refused, not dropped. Each span starts at a bracket that can begin
 * JSON ({@linkcode jsonStart}); when none can, the first bracket's span is read (and fails).
 */
export function decodeJsonList(text: string, engine: Engine | undefined): DecodeResult {
  const first = emptyOutput(text) ?? firstSpan(text, engine, Math.max(jsonStart(text, 0), 0));
  if (failed(first)) return resultOf(first);
  const json = first.json;
  const calls = Array.isArray(json.value)
    ? readCalls(json, [], NAME_ARGUMENTS, engine)
    : readCall(json, [], NAME_ARGUMENTS, "the call", engine);
  if (failed(calls)) return resultOf(calls);
  const later = laterCall(text, first.end, engine);
  return resultOf(later ?? (Array.isArray(calls) ? calls : [calls]));
}
