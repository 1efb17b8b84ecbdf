/**
 * Tool-call parsing: from a raw model output to a parse status and a call.
 *
 * @module
 */
import { checkOptions, engineOf, type ParseToolCallOptions, type WithEngine } from "./engine.ts";
import type { ToolCallResult } from "./types.ts";

/** Options for {@linkcode parseToolCall} and {@linkcode parseToolCallBatch}. */
export type ToolCallOptions = ParseToolCallOptions & WithEngine;

/**
 * Parses a raw model output into a tool call (parser `assay.parser.v1`, CONTRACT §1).
 *
 * The status is `ok` only for exactly `{"name": <non-empty string>, "arguments": <object>}`
 * or a one-element array holding exactly that. A bad output is a status, never an exception.
 *
 * @param text A raw model output.
 * @param options `arguments` (default true), `pairs` (default false) and the engine.
 * @returns The status and, when `ok`, the name, arguments and canonical arguments.
 * @throws {TypeError} If `text` is not a string.
 *
 * @example A call wrapped in prose
 * ```ts
 * import { parseToolCall } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const r = parseToolCall('Calling: {"name": "get_weather", "arguments": {"city": "Paris"}}.');
 * assertEquals(r.status, "ok");
 * assertEquals(r.name, "get_weather");
 * assertEquals(r.arguments, { city: "Paris" });
 * assertEquals(r.canonicalArguments, '{"city":"Paris"}');
 * assertEquals(parseToolCall('{"name": "f"}').status, "invalid_shape");
 * ```
 */
export function parseToolCall(text: string, options?: ToolCallOptions): ToolCallResult {
  return parseToolCallBatch([text], options)[0]!;
}

/**
 * The batch form of {@linkcode parseToolCall}: one engine call for many outputs.
 *
 * @param texts Raw model outputs.
 * @param options `arguments` (default true), `pairs` (default false) and the engine.
 * @returns One result per text, in order.
 * @throws {TypeError} If `texts` is not an array of strings.
 *
 * @example Statuses of a batch
 * ```ts
 * import { parseToolCallBatch } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const rs = parseToolCallBatch(
 *   ['{"name":"f","arguments":{}}', "sunny", '{"name":', '[{"name":"f","arguments":[]}]'],
 *   { arguments: false },
 * );
 * assertEquals(rs.map((r) => r.status), ["ok", "no_json", "invalid_json", "invalid_shape"]);
 * ```
 */
export function parseToolCallBatch(
  texts: readonly string[],
  options?: ToolCallOptions,
): ToolCallResult[] {
  checkOptions(options);
  return engineOf(options?.engine).parseToolCallBatch(texts, options);
}

/**
 * Why a call object's keys are not exactly `keys` plus some of `optional`, or `undefined` when
 * they are: the one shape rule of every reader of calls (the tool metrics, the decoders of
 * `@assay/assay/formats`). An Anthropic `{type, name, input}` block read as `{name, arguments}`
 * is thus an invalid call with its reason, never a call with `{}` arguments.
 *
 * @param x The call object (own keys only are read).
 * @param keys The keys it must have.
 * @param optional The keys it may have besides.
 * @returns The problem (`no arguments, an unknown key "input"`), or `undefined`.
 * @throws {TypeError} If `x` is null or undefined (it must be an object).
 *
 * @example An Anthropic block where `{name, arguments}` is expected
 * ```ts
 * import { callKeysProblem } from "@assay/assay/engine";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(
 *   callKeysProblem({ type: "tool_use", name: "f", input: {} }, ["name", "arguments"]),
 *   'no arguments, an unknown key "type", an unknown key "input"',
 * );
 * strictEqual(callKeysProblem({ name: "f", arguments: {} }, ["name", "arguments"]), undefined);
 * ```
 */
export function callKeysProblem(
  x: object,
  keys: readonly string[],
  optional: readonly string[] = [],
): string | undefined {
  const odd = [
    ...keys.filter((k) => !Object.hasOwn(x, k)).map((k) => `no ${k}`),
    ...Object.keys(x).filter((k) => !keys.includes(k) && !optional.includes(k))
      .map((k) => `an unknown key ${JSON.stringify(k.slice(0, 40))}`),
  ];
  return odd.length > 0 ? odd.join(", ") : undefined;
}
