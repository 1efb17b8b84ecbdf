// Exact JSON for the decoders: a text read by the engine's canonicalizer (Python's acceptance,
// `1.0` kept apart from `1`, big integers with their digits), materialised for finding one's way
// and cut back into canonical text where a call's arguments are; and the reading of one call
// object under the one shape rule (callKeysProblem).
import {
  callKeysProblem,
  canonicalize,
  canonicalValue,
  type Engine,
  forEachItem,
  jsonKind,
  type JsonValue,
  lookupCanonical,
  materialize,
  parseJson,
} from "../engine/mod.ts";
import type { DecodedCall, DecodeStatus } from "./decoded.ts";

/** A rejected output: its status and why. */
export interface Failure {
  status: Exclude<DecodeStatus, "ok">;
  reason: string;
}

/** Whether a reading failed. */
export function failed(x: unknown): x is Failure {
  return typeof x === "object" && x !== null && "reason" in x && "status" in x;
}

/** A JSON text read exactly. */
export class ExactJson {
  constructor(readonly canonical: string, readonly value: JsonValue) {}

  /** The value at a path of keys and indices (which the caller knows to be there). */
  at(path: readonly (string | number)[]): JsonValue {
    let x = this.value;
    for (const p of path) x = (x as Record<string, JsonValue>)[p]!;
    return x;
  }

  /** The items' canonical texts of each array read so far, by its path. */
  #lists = new Map<string, string[]>();

  /**
   * The canonical text of the value at a path of keys and indices. An array on the way is split
   * into its items once and kept, so reading every call of a list is linear in its text, not
   * quadratic (a lookup by index scans the array from its start).
   */
  textAt(path: readonly (string | number)[]): string {
    const j = path.findLastIndex((p) => typeof p === "number");
    if (j < 0) return lookupPath(this.canonical, path);
    const key = JSON.stringify(path.slice(0, j));
    let items = this.#lists.get(key);
    if (items === undefined) {
      const list = this.textAt(path.slice(0, j));
      const texts: string[] = [];
      forEachItem(list, 0, (start, end) => void texts.push(list.slice(start, end)));
      this.#lists.set(key, items = texts);
    }
    return lookupPath(items[path[j] as number]!, path.slice(j + 1));
  }
}

/** The canonical text at a path of keys and indices, by one lookup from the text's start. */
function lookupPath(canonical: string, path: readonly (string | number)[]): string {
  const segments = path.map(String);
  const literals = path.map((p) => typeof p === "string" ? canonicalValue(p) : String(p));
  return lookupCanonical(canonical, segments, literals)!;
}

/** Reads a JSON text exactly; `what` names it in the reason, `base` is its offset in the output. */
export function readJson(
  text: string,
  engine: Engine | undefined,
  what: string,
  base = 0,
): ExactJson | Failure {
  const r = canonicalize(text, { engine });
  if (!r.ok) {
    return {
      status: "invalid_json",
      reason: `${what} is not JSON: ${r.error.code} at ${base + r.error.offset}`,
    };
  }
  return new ExactJson(r.canonical, valueOf(r.canonical));
}

/**
 * materialize(canonical), four times as fast: parseJson (JSON.parse, guarded against V8's misread
 * of escaped keys) reads canonical text alike, but refuses NaN and the infinities.
 */
function valueOf(canonical: string): JsonValue {
  try {
    return parseJson(canonical) as JsonValue;
  } catch {
    return materialize(canonical);
  }
}

/** Whether a value is a JSON object. */
export function isObject(x: unknown): x is { [key: string]: JsonValue } {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** The text of a call object's keys and how its arguments come. */
export interface CallShape {
  /** The key of the arguments: `arguments`, `input` or `parameters`. */
  args: string;
  /** How the arguments come: an object, a JSON text holding an object, or either. */
  argsAs: "object" | "string" | "either";
  /** Keys a call may have besides `name` and the arguments. */
  optional?: readonly string[];
  /** Whether an empty arguments string is a call without arguments (`{}`). */
  emptyIsNone?: boolean;
}

function shapeText(shape: CallShape): string {
  return `{name, ${shape.args}${(shape.optional ?? []).map((k) => `, ${k}?`).join("")}}`;
}

/**
 * Reads the call object at `path` of `json`: exactly `name` and the arguments (and some of the
 * optional keys), a non-empty string name, arguments as the shape says. `label` names the call
 * in reasons ("call 2").
 */
export function readCall(
  json: ExactJson,
  path: readonly (string | number)[],
  shape: CallShape,
  label: string,
  engine: Engine | undefined,
): DecodedCall | Failure {
  const x = json.at(path);
  if (!isObject(x)) {
    return { status: "invalid_shape", reason: `${label} must be an object, got ${jsonKind(x)}` };
  }
  const problem = callKeysProblem(x, ["name", shape.args], shape.optional);
  if (problem !== undefined) {
    return {
      status: "invalid_shape",
      reason: `${label} must be ${shapeText(shape)}: it has ${problem}`,
    };
  }
  const name = x.name;
  if (typeof name !== "string" || name === "") {
    return { status: "invalid_shape", reason: `${label} needs a non-empty string name` };
  }
  const args = x[shape.args];
  if (isObject(args) && shape.argsAs !== "string") {
    return { name, arguments: json.textAt([...path, shape.args]) };
  }
  if (args === "" && shape.emptyIsNone) return { name, arguments: "{}" };
  if (typeof args === "string" && shape.argsAs !== "object") {
    return argumentsText(args, `${label}'s ${shape.args}`, name, engine);
  }
  const wanted = shape.argsAs === "object"
    ? "an object"
    : shape.argsAs === "string"
    ? "a JSON string"
    : "an object or a JSON string";
  return {
    status: "invalid_shape",
    reason: `${label}'s ${shape.args} must be ${wanted}, got ${jsonKind(args)}`,
  };
}

/** A call whose arguments come as a JSON text, read exactly; it must hold an object. */
export function argumentsText(
  text: string,
  what: string,
  name: string,
  engine: Engine | undefined,
): DecodedCall | Failure {
  const r = canonicalize(text, { engine });
  if (!r.ok) {
    return {
      status: "invalid_json",
      reason: `${what} are not JSON: ${r.error.code} at ${r.error.offset}`,
    };
  }
  if (!r.canonical.startsWith("{")) {
    return {
      status: "invalid_shape",
      reason: `${what} must hold a JSON object, got ${jsonKind(materialize(r.canonical))}`,
    };
  }
  return { name, arguments: r.canonical };
}

/** Reads each call of an array at `path`; the first failure rejects them all. */
export function readCalls(
  json: ExactJson,
  path: readonly (string | number)[],
  shape: CallShape,
  engine: Engine | undefined,
): DecodedCall[] | Failure {
  const calls: DecodedCall[] = [];
  const list = json.at(path) as JsonValue[];
  for (let i = 0; i < list.length; i++) {
    const c = readCall(json, [...path, i], shape, `call ${i}`, engine);
    if (failed(c)) return c;
    calls.push(c);
  }
  return calls;
}
