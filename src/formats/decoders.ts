/**
 * The named, versioned decoders of raw model outputs into tool calls, and the way to find one by
 * name or id.
 *
 * @module
 */
import type { Engine, WithEngine } from "../engine/mod.ts";
import { suggestName } from "../jsonl/mod.ts";
import type { DecodeResult, ToolCallDecoder } from "./decoded.ts";
import { decodeHermes, decodeLlama3, decodeMistral, decodeSommelier } from "./_text_decoders.ts";
import { decodeJsonList } from "./_json_list.ts";
import { decodeAnthropic, decodeOpenAiChat, decodeOpenAiResponses } from "./_api_decoders.ts";
import { decodePythonic } from "./_pythonic.ts";
import { checkOptions } from "../engine/mod.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** The decoders' names, the default (`sommelier`) first. */
export const DECODER_NAMES = [
  "sommelier",
  "openai-chat",
  "openai-responses",
  "anthropic",
  "hermes",
  "llama3",
  "mistral",
  "pythonic",
  "json-list",
] as const;

/** A decoder's name. */
export type DecoderName = typeof DECODER_NAMES[number];

const READERS: Record<DecoderName, (text: string, engine: Engine | undefined) => DecodeResult> = {
  "sommelier": decodeSommelier,
  "openai-chat": decodeOpenAiChat,
  "openai-responses": decodeOpenAiResponses,
  "anthropic": decodeAnthropic,
  "hermes": decodeHermes,
  "llama3": decodeLlama3,
  "mistral": decodeMistral,
  "pythonic": decodePythonic,
  "json-list": decodeJsonList,
};

/**
 * Each decoder's version, where it is not 1: a change to what a decoder accepts gets a new one, so
 * that reports decoded before and after it are never taken for the same decoding. Version 2 of
 * the API decoders refuses a call item it cannot score (another API's, a hosted tool's) instead
 * of reading it as no call; of `hermes`, skips blocks inside `<think>`; of `json-list`, refuses a
 * call written after the first JSON value instead of dropping it. Version 3 of `anthropic`
 * refuses a tool_use block a message stopped in at max_tokens (its input cut short), and skips a
 * server tool's result block alone instead of reading its content as blocks. Version 2 of
 * `pythonic` drops Llama 3.x's `<|python_tag|>` before the list and `<|eom_id|>` or `<|eot_id|>`
 * after it (and Llama 4's `<|python_start|>`, `<|python_end|>`, `<|eom|>` and `<|eot|>`), instead
 * of reading the tagged list as a text answer and the ended one as bad syntax.
 * Version 3 of `json-list` passes over a `[` or `{` of prose that cannot begin JSON, before the
 * first value (whose span failed) and after it (where its later calls went unread). Version 3 of
 * `openai-chat` reads a tool call with `extra_content` (Gemini's thought signature), which it
 * refused as an unknown key, and skips Magistral's `thinking` content parts, which it refused; of `openai-responses`, refuses a response that failed, was cancelled
 * or has not finished, or has an error, which it read as a text answer; version 4 of `anthropic`
 * refuses a message with a Chat Completions message's `tool_calls` or `function_call`, whose
 * calls it dropped.
 */
const VERSIONS: Partial<Record<DecoderName, number>> = {
  "openai-chat": 3,
  "openai-responses": 3,
  "anthropic": 4,
  "hermes": 2,
  "pythonic": 2,
  "json-list": 3,
};

const DECODERS: ReadonlyMap<string, ToolCallDecoder> = new Map(
  DECODER_NAMES.map((name) => {
    const read = READERS[name];
    const decoder: ToolCallDecoder = Object.freeze({
      name,
      id: `${name}@${VERSIONS[name] ?? 1}`,
      decode(text: string, options?: WithEngine): DecodeResult {
        if (typeof text !== "string") throw new TypeError(`Expected a string, got ${typeof text}`);
        return read(text, options?.engine);
      },
    });
    return [name, decoder];
  }),
);

/**
 * The decoder of a name (`openai-chat`) or of a versioned id (`openai-chat@3`).
 *
 * @param format The decoder's name or id.
 * @returns The decoder.
 * @throws {RangeError} If no decoder has that name or id (the message suggests the nearest name,
 *   or names this release's version of a decoder given with another).
 *
 * @example Decoding Hermes blocks
 * ```ts
 * import { getDecoder } from "@assay/assay/formats";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const hermes = getDecoder("hermes");
 * assertEquals(hermes.id, "hermes@2");
 * assertEquals(hermes.decode('<tool_call>{"name": "f", "arguments": {"x": 1.0}}</tool_call>'), {
 *   status: "ok",
 *   calls: [{ name: "f", arguments: '{"x":1.0}' }],
 * });
 * ```
 */
export function getDecoder(format: string): ToolCallDecoder {
  const at = typeof format === "string" ? format.lastIndexOf("@") : -1;
  const decoder = DECODERS.get(at < 0 ? format : format.slice(0, at));
  if (decoder !== undefined && at >= 0 && decoder.id !== format) {
    throw new RangeError(
      `Unknown decoder ${JSON.stringify(format)}: this release has ${decoder.id} ` +
        "(a report that records another version was decoded by another release)",
    );
  }
  if (decoder === undefined) {
    const near = typeof format === "string" ? suggestName(format, DECODER_NAMES) : undefined;
    throw new RangeError(
      `Unknown decoder ${JSON.stringify(format)}: expected one of ${DECODER_NAMES.join(", ")}` +
        (near ? ` (did you mean ${near}?)` : ""),
    );
  }
  return decoder;
}

/**
 * Decodes one raw model output into its calls with the named decoder (default `sommelier`).
 *
 * A bad output is a status with a reason, never an exception. The arguments of each call are
 * canonical JSON text, read exactly: `1.0` stays apart from `1` and big integers keep their
 * digits.
 *
 * @param text The raw model output.
 * @param format The decoder's name or id (default `sommelier`).
 * @param options The engine that reads JSON exactly.
 * @returns The status, the calls and, on failure, the reason.
 * @throws {RangeError} If the decoder is unknown.
 * @throws {TypeError} If `text` is not a string.
 *
 * @example Parallel calls of an OpenAI chat message, and a truncated one
 * ```ts
 * import { decodeToolCalls } from "@assay/assay/formats";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const message = JSON.stringify({
 *   role: "assistant",
 *   content: null,
 *   tool_calls: [
 *     { id: "call_1", type: "function", function: { name: "f", arguments: '{"n": 150.0}' } },
 *     { id: "call_2", type: "function", function: { name: "g", arguments: "{}" } },
 *   ],
 * });
 * assertEquals(decodeToolCalls(message, "openai-chat").calls, [
 *   { name: "f", arguments: '{"n":150.0}' },
 *   { name: "g", arguments: "{}" },
 * ]);
 * assertEquals(decodeToolCalls('{"role": "assistant", "tool_calls": [', "openai-chat").status, "invalid_json");
 * ```
 */
export function decodeToolCalls(
  text: string,
  format: string = "sommelier",
  options?: WithEngine,
): DecodeResult {
  checkOptions(options);
  checkOptionNames("decodeToolCalls", options, { engine: 1 });
  return getDecoder(format).decode(text, options);
}
