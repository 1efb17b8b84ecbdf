// The contract both engines implement. Private: callers use `Engine` from engine.ts.
import type { Sfc32 } from "./prng.ts";
import type { ResampleJob } from "./_resample.ts";
import type {
  CanonicalResult,
  EngineName,
  FlattenResult,
  SpanResult,
  ToolCallResult,
} from "./types.ts";

/** A tool-call result before `arguments` is materialised by the shared wrapper. */
export type CoreToolCall = Omit<ToolCallResult, "arguments">;

/**
 * One engine. Every method takes a batch and returns one result per input, in
 * order. The two engines must return deep-equal results for every input.
 *
 * - `spans`: CONTRACT §1 span extraction only.
 * - `toolCalls`: span extraction, JSON acceptance on the span, the call-shape
 *   check, canonical arguments and, when `pairs` is true, flattened pairs.
 *   Error offsets are relative to the whole text.
 * - `canonical`: the whole text is one JSON document (surrounding JSON
 *   whitespace allowed), as `json.loads` then canonical `json.dumps`.
 * - `flatten`: the whole text is one JSON document; its flattened pairs.
 * - `resample`: the paired bootstrap's resampling kernel (src/_resample.ts): runs a job from
 *   `rng`'s state, advances `rng` past every draw, and returns the deltas. Bit-identical on
 *   both engines.
 */
export interface EngineCore {
  readonly name: EngineName;
  spans(texts: readonly string[]): SpanResult[];
  toolCalls(texts: readonly string[], pairs: boolean): CoreToolCall[];
  canonical(texts: readonly string[]): CanonicalResult[];
  flatten(texts: readonly string[]): FlattenResult[];
  resample(job: ResampleJob, rng: Sfc32): Float64Array;
}

const cores = new WeakMap<object, EngineCore>();

/** Records the core behind a public `Engine`, for library code that runs kernels on it. */
export function registerCore(engine: object, core: EngineCore): void {
  cores.set(engine, core);
}

/** The core behind a public `Engine`. */
export function coreOf(engine: object): EngineCore {
  const core = cores.get(engine);
  if (core === undefined) throw new TypeError("Expected an Engine from createEngine()");
  return core;
}

/** Nesting deeper than this many containers is rejected (CONTRACT §1). */
export const MAX_DEPTH = 512;

/** Integer literals with more digits than this are rejected (Python's int limit). */
export const MAX_INT_DIGITS = 4300;
