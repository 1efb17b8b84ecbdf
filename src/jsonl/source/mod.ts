/**
 * The byte sources of a run: bytes, a stream, an async iterable of chunks or a function that opens
 * one, read in passes with their SHA-256 taken as they are read. One reader for `scoreJsonl` and
 * `scoreStructuredJsonl`; and where an offset lies in a text (`textPosition`), for the messages of
 * the readers of whole JSON files. Outside the root's exports, whose budget is spent; `evaluation`,
 * `structured_jsonl`, `suite` and `report_check` import it.
 *
 * @module
 */
export * from "./source.ts";
export * from "./position.ts";
