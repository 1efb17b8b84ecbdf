/**
 * The engine: raw model outputs to parse statuses, tool calls, canonical JSON and flattened
 * argument pairs, exactly as Python's `json` module would, on a WebAssembly engine or its
 * pure-TS twin; and the kernel that resamples the paired bootstrap.
 *
 * Every function takes an optional `engine` (from {@linkcode createEngine}); without one, the
 * default engine runs (`auto`: Wasm where it can be instantiated, otherwise TS).
 *
 * @example Parse a tool call from a raw model output
 * ```ts
 * import { parseToolCall } from "@assay/assay/engine";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const r = parseToolCall('Sure! {"name": "search", "arguments": {"q": "assay", "k": 5.0}}');
 * assertEquals(r.status, "ok");
 * assertEquals(r.canonicalArguments, '{"k":5.0,"q":"assay"}');
 * ```
 *
 * @module
 */
export * from "./engine.ts";
export * from "./span.ts";
export * from "./tool_call.ts";
export * from "./canonical.ts";
export * from "./canonical_value.ts";
export * from "./flatten.ts";
export * from "./float_repr.ts";
export * from "./ids.ts";
export * from "./version.ts";
export type * from "./types.ts";
export * from "./materialize.ts";
export * from "./code_point_order.ts";
export * from "./well_formed.ts";
export * from "./sha256.ts";
export * from "./prng.ts";
export { COLUMNS, makeJob } from "./resample.ts";
export type { DirectJob, GroupedJob, ResampleJob } from "./resample.ts";
export * from "./exact_fields.ts";
export * from "./canonical_lookup.ts";
export * from "./limits.ts";
export * from "./parse_json.ts";
