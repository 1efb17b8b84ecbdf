// The scoring kernel's ABI: the numbers its JS glue
// (src/evaluation/_score_kernel.ts) shares with the module. build/build_wasm.ts
// writes them, with the signatures of the kernel's exports, to
// src/evaluation/_kernel_abi.generated.ts: each number has one place.

// What a phase returns: K_OK, or why the kernel gives the run back.
export const K_OK: i32 = 0;
/** A line that is not one object in the strict reading (or not UTF-8, or not blank). */
export const BAIL_LINE: i32 = 1;
/** A field missing, mistyped or empty. */
export const BAIL_FIELD: i32 = 2;
/** A lone surrogate in an id, language or prompt. */
export const BAIL_SURROGATE: i32 = 3;
/** An id twice in one file. */
export const BAIL_DUPLICATE: i32 = 4;
/** A generation whose id is not an example's (manifest rows of no example: score_extras.ts). */
export const BAIL_UNKNOWN_ID: i32 = 5;
/** A digest that is malformed or does not match. */
export const BAIL_DIGEST: i32 = 6;
/** An example without its generation, or a generation or example without its prompt. */
export const BAIL_MISSING: i32 = 7;

// kCounts' table: COUNT_FIELDS f64 per language, these fields.
export const COUNT_FIELDS: u32 = 11;
export const COUNT_N: u32 = 0;
export const COUNT_OK: u32 = 1; // then no_json, invalid_json, invalid_shape: the parse statuses
export const COUNT_NAME: u32 = 5;
export const COUNT_ARGS: u32 = 6;
export const COUNT_FULL: u32 = 7;
export const COUNT_MATCHED: u32 = 8;
export const COUNT_PREDICTED: u32 = 9;
export const COUNT_GOLD: u32 = 10;

// DROPS: three u32, the dropped examples by reason (DropSummary's order).
export const DROP_REASONS: u32 = 3;
