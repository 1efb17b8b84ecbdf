// The contract both engines implement. Private: callers use `Engine` from engine.ts.
import type { Sfc32 } from "./prng.ts";
import type { ResampleJob } from "./resample.ts";
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
 * - `resample`: the paired bootstrap's resampling kernel (src/engine/resample.ts): runs a job from
 *   `rng`'s state, advances `rng` past every draw, and returns the deltas. Bit-identical on
 *   both engines.
 */
export interface EngineCore {
  readonly name: EngineName;
  /** The compiled module a `wasm` engine runs. */
  readonly module?: WebAssembly.Module;
  spans(texts: readonly string[]): SpanResult[];
  toolCalls(texts: readonly string[], pairs: boolean): CoreToolCall[];
  canonical(texts: readonly string[]): CanonicalResult[];
  flatten(texts: readonly string[]): FlattenResult[];
  resample(job: ResampleJob, rng: Sfc32): Float64Array;
}
