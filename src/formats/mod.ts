/**
 * Decoders of real model outputs into tool calls: OpenAI chat messages and Responses items,
 * Anthropic content blocks, Hermes/Qwen `<tool_call>` blocks, Llama 3 JSON calls, Mistral
 * `[TOOL_CALLS]`, Python call lists (parsed, never evaluated), JSON lists of calls, and the
 * engine's own parser (`sommelier`). Each decoder is named and versioned (`openai-chat@3`), and
 * gives the calls' arguments as exact canonical JSON text. See `docs/formats.md`.
 *
 * @example A Python call list
 * ```ts
 * import { decodeToolCalls } from "@assay/assay/formats";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(decodeToolCalls('[get_weather(city="Paris", days=3.0)]', "pythonic"), {
 *   status: "ok",
 *   calls: [{ name: "get_weather", arguments: '{"city":"Paris","days":3.0}' }],
 * });
 * ```
 *
 * @module
 */
export * from "./decoded.ts";
export * from "./decoders.ts";
export * from "./scoring.ts";
export * from "./suggest.ts";
