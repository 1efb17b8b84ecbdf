/**
 * Reading user data: JSONL lines from bytes or streams, read with the contract's exact JSON
 * acceptance, the named errors that say which file, line and id is wrong, and the "did you mean"
 * suggestion for a misspelled name.
 *
 * @example Where a bad row is
 * ```ts
 * import { formatLocation } from "@assay/assay/jsonl";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(formatLocation({ source: "gen.jsonl", line: 4, id: "ex-1" }), 'gen.jsonl:4 (id "ex-1")');
 * ```
 *
 * @module
 */
export * from "./errors.ts";
export * from "./lines.ts";
export * from "./json_line.ts";
export * from "./suggest.ts";
export * from "./utf8.ts";
export * from "./text_head.ts";
