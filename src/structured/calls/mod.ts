/**
 * One tool call as the tool metrics read it, and why a predicted entry's calls are invalid: the
 * structured room's `_tool_calls_input.ts` and `structured_jsonl` (a report row's `reasons`) both
 * read calls through it. The structured room's `mod.ts` does not re-export it, so that it adds no
 * export to the root.
 *
 * @module
 */
export * from "./invalid_calls.ts";
export * from "./read_call.ts";
