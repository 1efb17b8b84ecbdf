/**
 * User-written configuration documents (metric suites, gate rules) in YAML or JSONC, parsed into
 * plain values with the line and column of every node, so that errors name the file, line and
 * column.
 *
 * @example A YAML document's positions
 * ```ts
 * import { parseYaml } from "@assay/assay/config";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const doc = parseYaml("rules:\n  - metric: argument_f1\n");
 * ok(!Array.isArray(doc));
 * strictEqual(doc.positions.get("/rules/0/metric")?.line, 2);
 * ```
 *
 * @module
 */
export * from "./located.ts";
