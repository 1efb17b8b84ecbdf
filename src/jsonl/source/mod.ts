/**
 * The byte sources of a run: bytes, a stream, an async iterable of chunks or a function that opens
 * one, read in passes with their SHA-256 taken as they are read. One reader for `scoreJsonl` and
 * `scoreStructuredJsonl`. Outside the root's exports, whose budget is spent; `evaluation` and
 * `structured_jsonl` import it.
 *
 * @module
 */
export * from "./source.ts";
