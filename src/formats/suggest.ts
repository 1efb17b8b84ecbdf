/**
 * Which decoder a run's outputs want, from a sample of them: for the hint `assay score` gives when
 * it read almost none of the outputs as calls, and no decoder was asked for. An output that is an
 * API's whole response (an OpenAI chat completion, an Anthropic message), a `[TOOL_CALLS]` list or
 * a Python call list is not one JSON call, so the engine's own parser finds no call in it: every
 * example scores zero, as `invalid_shape` or `no_json`, and nothing says why.
 *
 * @module
 */
import {
  checkOptions,
  decodeCanonicalString,
  engineOf,
  fieldsOfCanonical,
  type WithEngine,
} from "../engine/mod.ts";
import { DECODER_NAMES, type DecoderName, getDecoder } from "./decoders.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** How many of the sampled outputs one decoder reads as calls. */
export interface DecoderFit {
  /** The decoder. */
  format: DecoderName;
  /** The outputs it reads as one call or more (status `ok`). */
  ok: number;
}

/** What {@linkcode suggestDecoder} found in a sample of a run's outputs. */
export interface DecoderSuggestion {
  /** The outputs sampled: the generation lines' `output` members, strings or JSON values. */
  sampled: number;
  /** Of them, those the engine's own parser (a run with no decoder) reads as one call. */
  parsed: number;
  /**
   * The decoder that reads the most of them as calls (the first in `DECODER_NAMES` on a tie), when
   * it reads at least half of them and twice as many as the engine's parser or more; else absent.
   */
  best?: DecoderFit;
}

/** Options for {@linkcode suggestDecoder}. */
export interface SuggestDecoderOptions extends WithEngine {
  /** The most lines read from the start of the bytes (default 100). */
  lines?: number;
}

/**
 * Samples a generations file's first lines and tries every decoder on their outputs, to say which
 * one the run wants when the engine's own parser reads almost none of them as calls. Each output
 * is read as scoring reads it: a string as its text, a JSON object or array as its canonical text.
 * Only whole lines are read (a cut last line is left out), and a line that is not an object with
 * an `output` is skipped: the scoring run words those errors.
 *
 * @param generations The start of a generations file (JSON lines), as bytes.
 * @param options The engine, and how many lines to read at most.
 * @returns The outputs sampled, how many the engine's parser read, and the best decoder, if any.
 * @throws {RangeError} For `lines` that is not a whole number of at least 1.
 *
 * @example Responses logged whole want `--format openai-chat`
 * ```ts
 * import { suggestDecoder } from "@assay/assay/formats";
 * import { strictEqual } from "node:assert/strict";
 *
 * const message = {
 *   role: "assistant",
 *   tool_calls: [{ type: "function", function: { name: "f", arguments: '{"x": 1}' } }],
 * };
 * const line = JSON.stringify({ example_id: "1", output: { choices: [{ message }] } });
 * const found = suggestDecoder(new TextEncoder().encode(line + "\n"));
 * strictEqual(found.parsed, 0);
 * strictEqual(found.best?.format, "openai-chat");
 * ```
 */
export function suggestDecoder(
  generations: Uint8Array,
  options?: SuggestDecoderOptions,
): DecoderSuggestion {
  checkOptions(options);
  checkOptionNames("suggestDecoder", options, { engine: 1, lines: 1 });
  if (!(generations instanceof Uint8Array)) throw new TypeError("Expected the bytes of lines");
  const most = options?.lines ?? 100;
  // 0, NaN or -1 sampled nothing and suggested nothing, in silence.
  if (!Number.isSafeInteger(most) || most < 1) {
    throw new RangeError(`Option lines must be a whole number of at least 1, got ${most}`);
  }
  const engine = engineOf(options?.engine);
  const end = generations.lastIndexOf(10);
  const lines = new TextDecoder().decode(generations.subarray(0, end + 1)).split("\n")
    .slice(0, most).filter((l) => l.trim() !== "");
  const outputs: string[] = [];
  engine.canonicalizeBatch(lines).forEach((c) => {
    const output = c.ok ? fieldsOfCanonical(c.canonical)?.get("output") : undefined;
    if (output?.kind === "string") outputs.push(decodeCanonicalString(output.canonical));
    else if (output?.kind === "object" || output?.kind === "array") outputs.push(output.canonical);
  });
  const parsed = engine.parseToolCallBatch(outputs, { arguments: false })
    .filter((call) => call.status === "ok").length;
  let best: DecoderFit | undefined;
  for (const format of DECODER_NAMES) {
    if (format === "sommelier") continue; // the engine's parser, as a decoder
    const decoder = getDecoder(format);
    const ok = outputs.filter((text) => {
      const r = decoder.decode(text, { engine });
      return r.status === "ok" && r.calls.length > 0;
    }).length;
    if (ok > (best?.ok ?? 0)) best = { format, ok };
  }
  // (best.ok is at least 1, so twice the parser's count is more than the parser's count.)
  const wanted = best !== undefined && best.ok >= 2 * parsed && best.ok * 2 >= outputs.length;
  return { sampled: outputs.length, parsed, ...(wanted && { best }) };
}
