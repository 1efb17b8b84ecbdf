// The layout of one example's entry in the scoring kernel's zone (see
// score_entries.ts), and its accessors.
//
// Entry: E_HEAD bytes of u32 words (E_*), then, with a manifest, the digest its
// prompt's row gives (32 bytes); then the bytes of the id, the language and the
// root id (unless null), padded to 4; then, for a kept example, its gold block:
//   u32 name length, u32 canonical length, u32 pair count, the name literal,
//   the canonical arguments, padded to 4.
// An entry's size follows from its lengths, so the zone is walked entry by
// entry and needs no index: kFreeze hashes the ids into a table of (hash,
// entry) slots, and kFinish and kRecords walk the zone in file order.

import { align4 } from "./score_common";

export const E_LINE: usize = 0;
/** The word: the kind (KIND_MASK), the state (STATE_*) and, once scored, the record's flags. */
export const E_WORD: usize = 4;
export const E_ID: usize = 8;
export const E_LANG: usize = 12;
export const E_ROOT: usize = 16;
/** The language's number (set by kFreeze). */
export const E_LANG_INDEX: usize = 20;
/**
 * The record's pair counts: matched and predicted (the gold's is its gold block's). A dropped
 * example has no record: its E_MATCHED holds the next dropped one's entry (see firstDropped).
 */
export const E_MATCHED: usize = 24;
export const E_PREDICTED: usize = 28;
export const E_HEAD: usize = 32;
/** With a manifest: the digest its prompt's row gives, after the words. */
export const E_DIGEST: usize = E_HEAD;
export const DIGEST_BYTES: usize = 32;

// The word's bits.
export const KIND_MASK: u32 = 0x3;
export const STATE_PROMPT: u32 = 0x4;
export const STATE_GENERATION: u32 = 0x8;
/** The parse status (0 ok, no_json, invalid_json, invalid_shape), at bit STATUS_SHIFT. */
export const STATUS_SHIFT: u32 = 4;
export const NAME_MATCH: u32 = 0x40;
export const ARGS_MATCH: u32 = 0x80;

export const NULL_ROOT: u32 = 0xffff_ffff;

/** Entry kinds: kept, or dropped for a reason (in DropSummary's order). */
export const KEPT: u32 = 0;
export const MULTIPLE_CALLS: u32 = 1;
export const EMPTY_TARGET: u32 = 2;
export const MALFORMED_TARGET: u32 = 3;
// A target the parser does not accept as it stands in the line: the run goes back to the
// general reader (never stored in an entry).
export const TARGET_UNREAD: u32 = 0x800;

/** The bytes before an entry's strings: its words, and its prompt's digest with a manifest. */
export let entryHead: usize = E_HEAD;

/** Lays entries out for a job with (or without) a manifest. */
export function entryLayout(prompts: bool): void {
  entryHead = prompts ? E_HEAD + DIGEST_BYTES : E_HEAD;
}

export function entryLine(e: usize): u32 {
  return load<u32>(e + E_LINE);
}

export function entryWord(e: usize): u32 {
  return load<u32>(e + E_WORD);
}

export function setEntryWord(e: usize, w: u32): void {
  store<u32>(e + E_WORD, w);
}

export function entryKind(e: usize): u32 {
  return load<u32>(e + E_WORD) & KIND_MASK;
}

export function idAddr(e: usize): usize {
  return e + entryHead;
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

// The bytes of the entry's id, language and root id.
function stringBytes(e: usize): usize {
  const r = load<u32>(e + E_ROOT);
  return idLength(e) + langLength(e) + (r == NULL_ROOT ? 0 : <usize> r);
}

/** The gold block of a kept entry. */
export function goldBlock(e: usize): usize {
  return e + entryHead + align4(stringBytes(e));
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

/** The entry after `e` in the zone. */
export function nextEntry(e: usize): usize {
  const g = goldBlock(e);
  if (entryKind(e) != KEPT) return g;
  return g + align4(12 + goldNameLength(g) + goldCanonLength(g));
}
