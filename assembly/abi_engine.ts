// The engine's ABI: the numbers the JS glue of the batch engine and of the
// resampling kernel (src/engine/_wasm_engine.ts, _wasm_resample.ts) shares with
// the module. build/build_wasm.ts writes them, with the signatures of the
// exports, to src/engine/_abi.generated.ts: each number has one place.

// Batch modes (batch.ts `run`).
export const MODE_SPANS: i32 = 0;
export const MODE_TOOL_CALLS: i32 = 1;
export const MODE_TOOL_CALLS_PAIRS: i32 = 2;
export const MODE_CANONICAL: i32 = 3;
export const MODE_FLATTEN: i32 = 4;

// A result record's status word.
export const STATUS_OK: u32 = 0; // found / ok
export const STATUS_NO_JSON: u32 = 1;
export const STATUS_INVALID: u32 = 2; // invalid_json / rejected
export const STATUS_INVALID_SHAPE: u32 = 3;

// The words of the batch header (the address `prepare` returns), as u32 indices.
export const HEADER_OFFSETS: u32 = 0;
export const HEADER_LENGTHS: u32 = 1;
export const HEADER_INPUT: u32 = 2;
export const HEADER_RESULTS: u32 = 3;
export const HEADER_OUT: u32 = 4;
export const HEADER_OUT_LENGTH: u32 = 5;
export const HEADER_PAIRS: u32 = 6;
export const HEADER_PAIR_COUNT: u32 = 7;
export const HEADER_NODES: u32 = 8;
export const HEADER_NODE_COUNT: u32 = 9;
export const HEADER_LEAVES: u32 = 10;
export const HEADER_LEAF_COUNT: u32 = 11;
export const HEADER_PATH_TEXT: u32 = 14;
export const HEADER_PATH_TEXT_LENGTH: u32 = 15;

// A result record: RESULT_WORDS u32 per text, these words.
export const RESULT_WORDS: u32 = 12;
export const RESULT_STATUS: u32 = 0;
export const RESULT_ERROR_CODE: u32 = 1;
export const RESULT_ERROR_OFFSET: u32 = 2; // UTF-16
export const RESULT_SPAN_START: u32 = 3; // UTF-16
export const RESULT_SPAN_END: u32 = 4; // UTF-16
export const RESULT_CANONICAL_START: u32 = 5; // output offsets
export const RESULT_CANONICAL_END: u32 = 6;
export const RESULT_NAME_START: u32 = 7; // output offsets of the name's literal
export const RESULT_NAME_END: u32 = 8;
export const RESULT_FIRST_PAIR: u32 = 9; // pair word index
export const RESULT_PAIR_COUNT: u32 = 10;

// Path nodes (intern.ts): parent, a, b, hash, leaf, tabled; `a` is INDEX_SEGMENT
// for an array index (then `b` is the index).
export const NODE_WORDS: u32 = 6;
export const INDEX_SEGMENT: u32 = 0xffff_ffff;
// Leaves (flatten.ts): node, path text start, end; the start is LONG_PATH when
// the glue builds the path from the nodes.
export const LEAF_WORDS: u32 = 3;
export const LONG_PATH: u32 = 0xffff_ffff;
// Pairs (flatten.ts): leaf, then a value's output range, or a constant (in the
// order true, false, null, {}, [], NaN, Infinity, -Infinity) and VALUE_CONSTANT.
export const PAIR_WORDS: u32 = 3;
export const VALUE_CONSTANT: u32 = 0xffff_fffe;

// Error codes, named as `JsonErrorCode` in src/engine/types.ts names them.
export const E_EXPECTING_VALUE: i32 = 0;
export const E_EXPECTING_PROPERTY_NAME: i32 = 1;
export const E_EXPECTING_COLON: i32 = 2;
export const E_EXPECTING_COMMA: i32 = 3;
export const E_EXTRA_DATA: i32 = 4;
export const E_UNTERMINATED_STRING: i32 = 5;
export const E_INVALID_CONTROL_CHARACTER: i32 = 6;
export const E_INVALID_ESCAPE: i32 = 7;
export const E_INVALID_UNICODE_ESCAPE: i32 = 8;
export const E_INTEGER_TOO_LONG: i32 = 9;
export const E_NESTING_TOO_DEEP: i32 = 10;
export const E_MISMATCHED_BRACKET: i32 = 11;
export const E_UNCLOSED_SPAN: i32 = 12;
