// `json-list`: the calls of the first JSON value of a text, a list of `{name, arguments}` or one
// such object; a later JSON value that holds a call is refused, not dropped.
import type { Engine, JsonValue } from "../engine/mod.ts";
import type { DecodeResult } from "./decoded.ts";
import { failed, type Failure, isObject, readCall, readCalls, readJson } from "./_exact.ts";
import { emptyOutput, firstSpan, NAME_ARGUMENTS, resultOf, spanFrom } from "./_text_decoders.ts";

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
  for (let at = from; at < text.length;) {
    const span = spanFrom(text, at, engine);
    if (span.status !== "found") return undefined;
    const start = at + span.start!;
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
 * value that holds a call is refused, not dropped.
 */
export function decodeJsonList(text: string, engine: Engine | undefined): DecodeResult {
  const first = emptyOutput(text) ?? firstSpan(text, engine);
  if (failed(first)) return resultOf(first);
  const json = first.json;
  const calls = Array.isArray(json.value)
    ? readCalls(json, [], NAME_ARGUMENTS, engine)
    : readCall(json, [], NAME_ARGUMENTS, "the call", engine);
  if (failed(calls)) return resultOf(calls);
  const later = laterCall(text, first.end, engine);
  return resultOf(later ?? (Array.isArray(calls) ? calls : [calls]));
}
