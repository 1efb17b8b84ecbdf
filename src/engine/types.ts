/**
 * Result types shared by both engines.
 *
 * Every result here is plain data: a hostile model output never throws, it
 * becomes a status. All offsets are UTF-16 code-unit offsets into the text
 * that was passed in, so `text.slice(start, end)` gives the span.
 *
 * @module
 */

/** Parse status of one raw model output (CONTRACT §1). */
export type ParseStatus = "ok" | "no_json" | "invalid_json" | "invalid_shape";

/** Outcome of span extraction alone. */
export type SpanStatus = "found" | "no_json" | "invalid_json";

/**
 * Why a text was not accepted as JSON, or why no balanced span was found.
 *
 * The codes follow Python's `json` error messages where one exists:
 * - `expecting_value`, `expecting_property_name`, `expecting_colon`,
 *   `expecting_comma`, `extra_data`: a token is missing or misplaced;
 * - `unterminated_string`: the input ended inside a string (offset of its `"`);
 * - `invalid_control_character`: a raw U+0000–U+001F inside a string;
 * - `invalid_escape`, `invalid_unicode_escape`: a bad `\` escape (offset of
 *   the backslash);
 * - `integer_too_long`: an integer literal of more than 4,300 digits (offset
 *   of its first character);
 * - `nesting_too_deep`: more than 512 nested containers (offset of the
 *   bracket that opens the 513th level);
 * - `mismatched_bracket`, `unclosed_span`: span extraction failed (offset of
 *   the wrong closer, or the length of the text).
 */
export type JsonErrorCode =
  | "expecting_value"
  | "expecting_property_name"
  | "expecting_colon"
  | "expecting_comma"
  | "extra_data"
  | "unterminated_string"
  | "invalid_control_character"
  | "invalid_escape"
  | "invalid_unicode_escape"
  | "integer_too_long"
  | "nesting_too_deep"
  | "mismatched_bracket"
  | "unclosed_span";

/** A located rejection: the first error met scanning left to right. */
export interface JsonError {
  /** What went wrong. */
  code: JsonErrorCode;
  /** UTF-16 code-unit offset into the text that was passed in. */
  offset: number;
}

/** Result of {@linkcode extractSpan}. */
export interface SpanResult {
  /** `found` when a balanced span exists. */
  status: SpanStatus;
  /** Start of the span (the first `{` or `[`); absent for `no_json`. */
  start?: number;
  /** End of the span, exclusive; present only when `found`. */
  end?: number;
  /** Why the span is unbalanced; present only for `invalid_json`. */
  error?: JsonError;
}

/**
 * One flattened argument pair (CONTRACT §3).
 *
 * `path` is the canonical JSON array of the path's segments, for example
 * `["filters","tags",0]`: keys are strings and list indices are integers, so
 * a key `"a.b"` never collides with the nested path `a` then `b`. The root is
 * `[]`. Use {@linkcode formatPath} for the display form (`filters.tags[0]`).
 */
export interface ArgumentPair {
  /** Canonical JSON array of the path's segments. */
  path: string;
  /** The leaf value in canonical JSON. */
  value: string;
}

/** A JSON value as handed to callers: objects are plain and never have their prototype changed. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** Result of {@linkcode parseToolCall}. */
export interface ToolCallResult {
  /** The parse status; only `ok` carries a call. */
  status: ParseStatus;
  /** The function name, when `ok`. */
  name?: string;
  /**
   * The arguments as a plain object, when `ok`. Numbers become JS numbers, so
   * integers beyond 2^53 lose digits here: `canonicalArguments` is exact.
   */
  arguments?: { [key: string]: JsonValue };
  /** The arguments in canonical JSON (CONTRACT §2), when `ok`. */
  canonicalArguments?: string;
  /** The flattened argument pairs, when `ok` and pairs were requested. */
  pairs?: ArgumentPair[];
  /** Where the JSON was rejected, for `invalid_json`. */
  error?: JsonError;
}

/** Result of {@linkcode canonicalize}: the canonical text, or where the input was rejected. */
export type CanonicalResult =
  | { ok: true; canonical: string }
  | { ok: false; error: JsonError };

/** Result of {@linkcode flattenArguments}: the pairs, or where the input was rejected. */
export type FlattenResult =
  | { ok: true; pairs: ArgumentPair[] }
  | { ok: false; error: JsonError };

/** The name of a concrete engine. */
export type EngineName = "wasm" | "ts";
