/**
 * Assay: exact, reproducible scoring for LLM evaluations.
 *
 * The root is the edge-safe core, with no Node-only and no multi-megabyte dependency, so an edge
 * function can import it: the engine (parse statuses, tool calls, canonical JSON, flattened
 * pairs), tool-call evaluation with {@linkcode scoreJsonl}, statistics and comparisons,
 * structured-output metrics, JSON Schema, XML and the reports. Metric suites over agent traces
 * (YAML, SQL, judges) are behind `@assay/assay/suite`.
 *
 * @example Parse a tool call from a raw model output
 * ```ts
 * import { parseToolCall } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const r = parseToolCall('Sure! {"name": "search", "arguments": {"q": "assay", "k": 5.0}}', {
 *   pairs: true,
 * });
 * assertEquals(r.status, "ok");
 * assertEquals(r.canonicalArguments, '{"k":5.0,"q":"assay"}');
 * assertEquals(r.pairs?.length, 2);
 * ```
 *
 * @module
 */
export * from "./src/engine/mod.ts";
export * from "./src/jsonl/mod.ts";
export * from "./src/stats/mod.ts";
export * from "./src/evaluation/mod.ts";
export * from "./src/compare/mod.ts";
export * from "./src/report/mod.ts";
export * from "./src/structured/mod.ts";
export * from "./src/json_schema/mod.ts";
export * from "./src/xml/mod.ts";
