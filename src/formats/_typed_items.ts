// The lists of typed items the API decoders read (Responses output items, Anthropic content
// blocks, a message's content parts): which types are calls, which are skipped as no call, and
// the refusal of any other type, named for the API it belongs to.
import type { JsonValue } from "../engine/mod.ts";
import { jsonKind } from "../engine/mod.ts";
import type { DecodedCall, DecodeResult } from "./decoded.ts";
import { type ExactJson, failed, type Failure, isObject } from "./_exact.ts";
import { quoted, resultOf } from "./_text_decoders.ts";

/** A path of keys and indices into an output's JSON. */
export type Path = (string | number)[];

/** The result of an output refused for its shape. */
export function shapeFailure(reason: string): DecodeResult {
  return { status: "invalid_shape", calls: [], reason };
}

/**
 * The problem of a message's `content`, or undefined: it must be absent, null, a string, or a
 * list of content parts whose types are `parts` (text only: a call there, such as an Anthropic
 * `tool_use` block, is another API's and is refused, never read as text). `label` names it.
 */
export function contentProblem(
  content: JsonValue | undefined,
  label: string,
  parts: readonly string[],
  nullable: boolean,
): string | undefined {
  if (content === undefined || typeof content === "string") return undefined;
  if (content === null && nullable) return undefined;
  if (!Array.isArray(content)) {
    const what = nullable ? "a string, null" : "a string";
    return `${label} must be ${what} or an array of content parts, got ${jsonKind(content)}`;
  }
  for (let i = 0; i < content.length; i++) {
    const part = content[i];
    if (!isObject(part) || typeof part.type !== "string") {
      return `${label} part ${i} must be an object with a string type`;
    }
    if (!parts.includes(part.type)) {
      return `${label} part ${i} is a ${quoted(part.type)} part${foreign(part.type)}: ` +
        `a message's content parts are ${listed(parts, "and")}`;
    }
  }
  return undefined;
}

/** Other APIs' calls and parts, named where one is found in the wrong decoder. */
const FOREIGN_CALLS: { [type: string]: string } = {
  "function": "a Chat Completions tool call",
  "function_call": "a Responses function call",
  "tool_use": "an Anthropic tool call",
  "text": "an Anthropic block",
  "thinking": "an Anthropic block or a Magistral part",
  "output_text": "a Responses message part",
};

function foreign(type: string): string {
  return Object.hasOwn(FOREIGN_CALLS, type) ? ` (${FOREIGN_CALLS[type]})` : "";
}

/** Words joined as a list: "a, b and c". */
function listed(words: readonly string[], last: string): string {
  return words.length < 2
    ? words.join("")
    : `${words.slice(0, -1).join(", ")} ${last} ${words[words.length - 1]}`;
}

/**
 * What a decoder of typed items reads: its calls' type, and the types it skips as no call (each
 * listed, or, if `skipsSuffix`, any type ending with it). Any other type is refused: a call it
 * cannot score (a server tool's, another API's) must not pass as no call.
 */
export interface ItemKinds {
  decoder: string;
  call: string;
  noun: string;
  skips: readonly string[];
  skipsSuffix?: string;
  /** The type of the object that holds the items (Anthropic's `message`), if it has one. */
  holder?: string;
  /** The problem of a skipped item at a path, or undefined. */
  check?: (item: { [key: string]: JsonValue }, label: string) => string | undefined;
}

function skipped(kinds: ItemKinds, type: string): boolean {
  return kinds.skips.includes(type) ||
    (kinds.skipsSuffix !== undefined && type.endsWith(kinds.skipsSuffix));
}

/** Why an item whose type the decoder neither reads nor skips is refused. */
function unknownItem(kinds: ItemKinds, label: string, type: string): DecodeResult {
  const skips = [
    ...kinds.skips,
    ...(kinds.skipsSuffix === undefined ? [] : [`*${kinds.skipsSuffix}`]),
  ];
  return shapeFailure(
    `${label} is a ${quoted(type)} ${kinds.noun}${foreign(type)}: ${kinds.decoder} reads ` +
      `${kinds.call} ${kinds.noun}s and skips ${listed(skips, "and")} ${kinds.noun}s`,
  );
}

/** One item: its call, none if skipped, or its failure. */
function readItem(
  json: ExactJson,
  path: Path,
  label: string,
  kinds: ItemKinds,
  read: (path: Path, label: string) => DecodedCall | Failure,
): DecodedCall | undefined | DecodeResult {
  const item = json.at(path);
  if (!isObject(item) || typeof item.type !== "string") {
    return shapeFailure(`${label} must be an object with a string type`);
  }
  if (item.type === kinds.call) {
    const c = read(path, label);
    return failed(c) ? resultOf(c) : c;
  }
  if (!skipped(kinds, item.type)) return unknownItem(kinds, label, item.type);
  const problem = kinds.check?.(item, label);
  return problem === undefined ? undefined : shapeFailure(problem);
}

/** The calls of a list of typed items; the first failure rejects them all. */
function typedItems(
  json: ExactJson,
  path: Path,
  kinds: ItemKinds,
  what: string,
  read: (path: Path, label: string) => DecodedCall | Failure,
): DecodeResult {
  const calls: DecodedCall[] = [];
  const items = json.at(path) as JsonValue[];
  for (let i = 0; i < items.length; i++) {
    const c = readItem(json, [...path, i], `${what} ${i}`, kinds, read);
    if (c === undefined) continue;
    if ("status" in c) return c;
    calls.push(c);
  }
  return resultOf(calls);
}

/**
 * The calls among typed items: the value itself as a list, its `key` as a list, or the value as
 * the only item; `what` names an item in reasons, `where` says what the output must be. An object
 * with a type of its own (not the holder's) is one item even when it has a `key` of its own (a
 * server tool's result's `content`, a tool output's `output`): that is its payload, not items.
 */
export function callItems(
  json: ExactJson,
  key: string,
  kinds: ItemKinds,
  what: string,
  where: string,
  read: (path: Path, label: string) => DecodedCall | Failure,
): DecodeResult {
  const v = json.value;
  if (Array.isArray(v)) return typedItems(json, [], kinds, what, read);
  if (!isObject(v)) return shapeFailure(`the output is not ${where}`);
  const item = typeof v.type === "string" && v.type !== kinds.holder;
  if (!item && Array.isArray(v[key])) return typedItems(json, [key], kinds, what, read);
  if (!item && Object.hasOwn(v, key)) {
    return shapeFailure(`${key} must be an array, got ${jsonKind(v[key])}`);
  }
  if (typeof v.type !== "string") return shapeFailure(`the output is not ${where}`);
  const c = readItem(json, [], `the ${what}`, kinds, read);
  return c === undefined ? resultOf([]) : "status" in c ? c : resultOf([c]);
}
