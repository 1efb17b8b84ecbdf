// The layout of one example's entry in the scoring kernel's zone (see
// score_entries.ts), and its accessors.
//
// Entry: u32 words (E_*), the result area (RESULT_BYTES), then the bytes of
// the id, the language and the root id (unless null), padded to 4, then (for
// a kept example) its gold block:
//   u32 name length, u32 canonical length, u32 pair count, the name literal,
//   the canonical arguments, padded to 4.
// E_GOLD is the offset from the entry to its gold block, which follows it.

export const E_SIZE: usize = 0;
export const E_LINE: usize = 4;
export const E_KIND: usize = 8;
export const E_ID: usize = 12;
export const E_LANG: usize = 16;
export const E_ROOT: usize = 20;
export const E_HASH: usize = 24;
export const E_LANG_INDEX: usize = 28;
export const E_GOLD: usize = 32;
export const E_INDEX: usize = 36;
/** Where the prompts and generations leave what they find: see resultOf. */
export const E_RESULT: usize = 40;
/**
 * The result area of an entry: u32 state, the record (16 bytes: flags, matched, predicted,
 * gold), the digest of its prompt's row and the one its generation names (32 bytes each).
 */
export const RESULT_BYTES: usize = 84;
export const E_DATA: usize = E_RESULT + RESULT_BYTES;
// In an entry's result area, the state (STATE_* bits) is the first word.
/** The record: flags (status | name << 8 | arguments << 9 | SET), matched, predicted, gold. */
export const R_RECORD: usize = 4;
/** With a manifest: the digest of its prompt's row, and the one its generation names. */
export const R_PROMPT_DIGEST: usize = 20;
export const R_GENERATION_DIGEST: usize = 52;
/** Set in a record's flags once it is scored. */
export const SET: u32 = 0x1_0000;
export const STATE_PROMPT: u32 = 1;
export const STATE_GENERATION: u32 = 2;

export const NULL_ROOT: u32 = 0xffff_ffff;

/** Entry kinds: kept, or dropped for a reason (in DropSummary's order). */
export const KEPT: u32 = 0;
export const MULTIPLE_CALLS: u32 = 1;
export const EMPTY_TARGET: u32 = 2;
export const MALFORMED_TARGET: u32 = 3;
// A target the parser does not accept as it stands in the line: the run goes back to the
// general reader (never stored in an entry).
export const TARGET_UNREAD: u32 = 0x800;

export function entryLine(e: usize): u32 {
  return load<u32>(e + E_LINE);
}

/** The result area of entry `e` (RESULT_BYTES). */
export function resultOf(e: usize): usize {
  return e + E_RESULT;
}

export function entryKind(e: usize): u32 {
  return load<u32>(e + E_KIND);
}

export function idAddr(e: usize): usize {
  return e + E_DATA;
}

export function idLength(e: usize): usize {
  return <usize> load<u32>(e + E_ID);
}

export function langAddr(e: usize): usize {
  return idAddr(e) + idLength(e);
}

export function langLength(e: usize): usize {
  return <usize> load<u32>(e + E_LANG);
}

export function langIndex(e: usize): u32 {
  return load<u32>(e + E_LANG_INDEX);
}

/** The root id's length, or -1 for null. */
export function rootLength(e: usize): i32 {
  const r = load<u32>(e + E_ROOT);
  return r == NULL_ROOT ? -1 : <i32> r;
}

export function rootAddr(e: usize): usize {
  return langAddr(e) + langLength(e);
}

/** The gold block of a kept entry. */
export function goldBlock(e: usize): usize {
  return e + <usize> load<u32>(e + E_GOLD);
}

export function goldNameLength(g: usize): usize {
  return <usize> load<u32>(g);
}

export function goldCanonLength(g: usize): usize {
  return <usize> load<u32>(g, 4);
}

export function goldPairs(g: usize): u32 {
  return load<u32>(g, 8);
}

export function goldName(g: usize): usize {
  return g + 12;
}

export function goldCanon(g: usize): usize {
  return g + 12 + goldNameLength(g);
}

