/**
 * What a decoder of raw model outputs returns: a status, the calls with their arguments as exact
 * canonical JSON text, and on failure the reason.
 *
 * @module
 */
import type { WithEngine } from "../engine/mod.ts";

/**
 * A decoding's status. `ok`, `no_json`, `invalid_json` and `invalid_shape` mean what they mean
 * for the engine's parser (CONTRACT §1); `invalid_syntax` is a `pythonic` output that is not
 * Python's syntax.
 */
export type DecodeStatus = "ok" | "no_json" | "invalid_json" | "invalid_shape" | "invalid_syntax";

/** One decoded call. */
export interface DecodedCall {
  /** The function's name, non-empty. */
  name: string;
  /**
   * The arguments as canonical JSON text (`assay.canonical.v1`): an object, `1.0` kept apart
   * from `1`, big integers with all their digits.
   */
  arguments: string;
}

/** The outcome of decoding one raw output. */
export interface DecodeResult {
  /** `ok` when every call was read; any failure rejects the whole output. */
  status: DecodeStatus;
  /** The calls, in the output's order; empty unless `ok` (and empty when the output has none). */
  calls: DecodedCall[];
  /** Why the output was rejected; present exactly when the status is not `ok`. */
  reason?: string;
}

/** A named, versioned decoder of raw model outputs into calls. */
export interface ToolCallDecoder {
  /** The decoder's name, such as `openai-chat`. */
  readonly name: string;
  /** Its versioned id, such as `openai-chat@3`, which reports record. */
  readonly id: string;
  /**
   * Decodes one raw output; a bad output is a status with a reason, never an exception.
   *
   * @param text The raw model output.
   * @param options The engine that reads JSON exactly (the default engine when absent).
   * @returns The status, the calls and, on failure, the reason.
   */
  decode(text: string, options?: WithEngine): DecodeResult;
}
