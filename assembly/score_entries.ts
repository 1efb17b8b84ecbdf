// The scoring kernel's examples (see score.ts): one entry per example (its
// layout in score_entry.ts) in a zone at the bottom of the heap, then, once
// every example is in, the tables that join prompts and generations to them.

export * from "./score_entry";

import { argumentsEnd, argumentsStart, checkShape, nameEnd, nameStart } from "./shape";
import { droppedMember, leaves } from "./canonical";
import { skipString, skipValue } from "./flatten";
import { hashBytes } from "./intern";
import { HIGHS, ONES } from "./bytes";
import { skipMark, skipParsed } from "./jsonl";
import { decodeChecked, decodedLength, decodedLone } from "./jsonl_strings";
import { copyBytes, growMemoryTo, outBase, outPos } from "./memory";
import {
  align4,
  align8,
  BAIL_DUPLICATE,
  BAIL_FIELD,
  BAIL_LINE,
  bail,
  chunkReset,
  emitBase,
  emitNeed,
  emitSet,
  emitUsed,
  fieldEnd,
  fieldStart,
  K_OK,
  sameBytes,
} from "./score_common";
import { countLeaves } from "./score_pairs";
import {
  E_ID,
  E_LANG,
  E_LANG_INDEX,
  E_LINE,
  E_MATCHED,
  E_ROOT,
  E_WORD,
  EMPTY_TARGET,
  entryHead,
  entryKind,
  entryLine,
  idAddr,
  idLength,
  KEPT,
  langAddr,
  langLength,
  MALFORMED_TARGET,
  MULTIPLE_CALLS,
  nextEntry,
  NULL_ROOT,
  TARGET_UNREAD,
} from "./score_entry";

/** Where the zone starts, and its end (the entries, then the tables). */
export let zone: usize = 0;
export let entriesTop: usize = 0;
/** Examples read. */
export let entryCount: u32 = 0;
/** Distinct languages, in order of first appearance. */
export let langCount: u32 = 0;
/** Dropped examples by reason: multiple_calls, empty_target, malformed_target. */
export const DROPS: usize = memory.data(12);
// After kFreeze: the id table, (hash, entry) slots; the languages' table (their number + 1 per
// slot) and their first entries.
let idTable: usize = 0;
let idMask: u32 = 0;
let langTable: usize = 0;
let langMask: u32 = 0;
let langFirst: usize = 0;

/** Empties the zone, which starts at `at`. */
export function entriesReset(at: usize): void {
  zone = at;
  entriesTop = at;
  entryCount = 0;
  langCount = 0;
  memory.fill(DROPS, 0, 12);
}

/** Moves `n` bytes of entries at `from` to the top of the zone. */
export function entriesAppend(from: usize, n: usize): usize {
  const at = entriesTop;
  memory.copy(at, from, n);
  entriesTop = at + n;
  return at;
}

// ---- Reading examples.

// Decodes the string literal of field `k` to the emit region; its length, or -1 when the field
// is not a non-empty string without lone surrogates (or null when `nullable`: then -2).
function emitString(k: usize, nullable: bool): i32 {
  const s = fieldStart(k);
  if (s == 0) return nullable ? -2 : -1;
  const c = load<u8>(s);
  if (c != 0x22) return nullable && c == 0x6e ? -2 : -1;
  const e = fieldEnd(k);
  decodeChecked(s, e, emitNeed(e - s + 16));
  const n = decodedLength;
  if (decodedLone || (n == 0 && !nullable)) return -1;
  emitSet(emitUsed + n);
  return <i32> n;
}

// Whether the canonical text at output offsets `[p, e)` is a call object:
// `{"arguments":{...},"name":"..."}` with a non-empty name.
function isCall(p: usize, e: usize): bool {
  const base = outBase;
  if (
    e - p < 27 || load<u64>(base + p) != 0x656d75677261227b ||
    load<u32>(base + p + 8) != 0x2273746e || load<u16>(base + p + 12) != 0x7b3a
  ) {
    return false;
  }
  const a = skipValue(p + 13, e);
  if (a + 9 > e || load<u64>(base + a) != 0x3a22656d616e222c || load<u8>(base + a + 8) != 0x22) {
    return false;
  }
  const n = skipString(a + 8);
  return n - (a + 8) > 2 && n + 1 == e && load<u8>(base + n) == 0x7d;
}

// Why the canonical target at output offsets `[p, e)`, not one call, is dropped.
function dropKind(p: usize, e: usize): u32 {
  if (load<u8>(outBase + p) != 0x5b) return MALFORMED_TARGET;
  if (e - p == 2) return EMPTY_TARGET;
  let count: u32 = 0;
  let calls = true;
  let q = p + 1;
  while (q < e - 1) {
    const r = skipValue(q, e - 1);
    if (!isCall(q, r)) calls = false;
    count++;
    q = r + 1; // past the comma, or onto the closing bracket
  }
  return count >= 2 && calls ? MULTIPLE_CALLS : MALFORMED_TARGET;
}

/**
 * Writes a gold block at the emit region's end for the line's container target, which the line
 * scan parsed into the output: KEPT, or TARGET_UNREAD, or the drop kind when it is not one call
 * (no block).
 */
export function goldOf(): u32 {
  // The line scan parsed the target (scanObject's `skip`), a JSON value that starts with its
  // bracket: its span is all of it. The parser read its raw bytes with every check, UTF-8
  // included; one it did not read is given back.
  if (!skipParsed) return TARGET_UNREAD;
  const mark = skipMark;
  if (!checkShape(mark, outPos)) return dropKind(mark, outPos);
  const start = emitUsed;
  const nameLen = nameEnd - nameStart;
  const canonLen = argumentsEnd - argumentsStart;
  const g = emitNeed(12 + nameLen + canonLen + 4);
  store<u32>(g, <u32> nameLen);
  store<u32>(g, <u32> canonLen, 4);
  // Its pairs are only counted here: kGenerations flattens the gold of an output that differs.
  // The parser counted the document's leaves: the arguments' plus the name, unless a duplicated
  // key dropped some (rare), which are counted again.
  store<u32>(g, droppedMember ? countLeaves(argumentsStart, argumentsEnd) : leaves - 1, 8);
  copyBytes(g + 12, outBase + nameStart, nameLen);
  copyBytes(g + 12 + nameLen, outBase + argumentsStart, canonLen);
  emitSet(align4(start + 12 + nameLen + canonLen));
  return KEPT;
}

/** Reads the example on line `line` (its fields scanned) into an entry in the emit region. */
export function example(s: usize, e: usize, line: u32): i32 {
  const target = fieldStart(3);
  if (target == 0) return BAIL_FIELD;
  const at = emitUsed;
  const head = entryHead;
  memory.fill(emitNeed(head), 0, head);
  emitSet(at + head);
  const idLen = emitString(0, false);
  if (idLen < 0) return BAIL_FIELD;
  const langLen = emitString(1, false);
  if (langLen < 0) return BAIL_FIELD;
  const rootLen = emitString(2, true);
  if (rootLen == -1) return BAIL_FIELD;
  emitNeed(4);
  emitSet(align4(emitUsed));
  let kind = MALFORMED_TARGET; // a scalar target
  const c = load<u8>(target);
  if (c == 0x7b || c == 0x5b) {
    kind = goldOf();
    if (kind == TARGET_UNREAD) return BAIL_LINE;
  }
  const h = emitBase + at;
  store<u32>(h + E_LINE, line);
  store<u32>(h + E_WORD, kind);
  store<u32>(h + E_ID, <u32> idLen);
  store<u32>(h + E_LANG, <u32> langLen);
  store<u32>(h + E_ROOT, rootLen == -2 ? NULL_ROOT : <u32> rootLen);
  entryCount++;
  return K_OK;
}

// ---- Freezing: the tables.

/**
 * Lays out after the zone the id table (its slots at most half full) and the
 * languages' table (grown as languages come); checks that ids are unique.
 */
export function freeze(): i32 {
  let slots: u32 = 16;
  while (slots < entryCount * 2) slots <<= 1;
  idTable = align8(entriesTop);
  idMask = slots - 1;
  tablesTop = idTable + (<usize> slots << 3);
  growMemoryTo(<u64> tablesTop);
  memory.fill(idTable, 0, <usize> slots << 3);
  langsReset(16);
  firstDropped = 0;
  lastDropped = 0;
  let e = zone;
  for (let i: u32 = 0; i < entryCount; i++) {
    // The id: a slot holds its hash and its entry.
    const n = idLength(e);
    const h = idHash(idAddr(e), n);
    let slot = h & idMask;
    while (true) {
      const at = idTable + (<usize> slot << 3);
      const o = <usize> load<u32>(at, 4);
      if (o == 0) {
        store<u32>(at, h);
        store<u32>(at, <u32> e, 4);
        break;
      }
      if (load<u32>(at) == h && sameBytes(idAddr(o), idLength(o), idAddr(e), n)) {
        return bail(BAIL_DUPLICATE, entryLine(e));
      }
      slot = (slot + 1) & idMask;
    }
    store<u32>(e + E_LANG_INDEX, language(e));
    const kind = entryKind(e);
    if (kind != KEPT) {
      const d = DROPS + ((<usize> kind - 1) << 2);
      store<u32>(d, load<u32>(d) + 1);
      // Chained through their E_MATCHED, which only a kept example's record uses.
      if (lastDropped == 0) firstDropped = e;
      else store<u32>(lastDropped + E_MATCHED, <u32> e);
      lastDropped = e;
    }
    e = nextEntry(e);
  }
  return K_OK;
}

// Lays out an empty languages' table at the top of the tables, with room for `cap` languages
// (a power of two): their first entries, then 2 * cap slots.
function langsReset(cap: u32): void {
  langFirst = align8(tablesTop);
  langTable = langFirst + (<usize> cap << 2);
  langMask = (cap << 1) - 1;
  tablesTop = langTable + (<usize> cap << 3);
  growMemoryTo(<u64> tablesTop);
  memory.fill(langTable, 0, <usize> cap << 3);
}

// Puts language `k` (first spoken by entry `e`) in its slot.
function langSlot(k: u32, e: usize): void {
  let slot = hashBytes(langAddr(e), langLength(e), 0x1a) & langMask;
  while (load<u32>(langTable + (<usize> slot << 2)) != 0) slot = (slot + 1) & langMask;
  store<u32>(langTable + (<usize> slot << 2), k + 1);
}

// The number of entry `e`'s language, a new one if no earlier entry spoke it. A full table
// moves up, twice as large: the old ones stay below it, less in all than it.
function language(e: usize): u32 {
  const l = langAddr(e);
  const ln = langLength(e);
  let slot = hashBytes(l, ln, 0x1a) & langMask;
  while (true) {
    const v = load<u32>(langTable + (<usize> slot << 2));
    if (v == 0) break;
    const o = <usize> load<u32>(langFirst + (<usize> (v - 1) << 2));
    if (sameBytes(langAddr(o), langLength(o), l, ln)) return v - 1;
    slot = (slot + 1) & langMask;
  }
  const cap = (langMask + 1) >> 1;
  if (langCount == cap) {
    const old = langFirst;
    langsReset(cap << 1);
    memory.copy(langFirst, old, <usize> cap << 2);
    for (let k: u32 = 0; k < langCount; k++) {
      langSlot(k, <usize> load<u32>(langFirst + (<usize> k << 2)));
    }
  }
  const k = langCount++;
  store<u32>(langFirst + (<usize> k << 2), <u32> e);
  langSlot(k, e);
  return k;
}

/** The end of the tables. */
export let tablesTop: usize = 0;

/** Moves the top of the tables up to `top`, in memory already grown (see score_extras.ts). */
export function raiseTablesTop(top: usize): void {
  tablesTop = top;
}

/**
 * The first dropped example's entry (0 for none), after kFreeze: each dropped entry's E_MATCHED
 * word holds the next one's (0 after the last), so kDropped walks the dropped ones only.
 */
export let firstDropped: usize = 0;
let lastDropped: usize = 0;

/**
 * The entry in the first slot the id hashed `h` probes (0 for none): a guess,
 * for touching the memory a lookup will read before it does.
 */
export function likelyEntry(h: u32): usize {
  return <usize> load<u32>(idTable + (<usize> (h & idMask) << 3), 4);
}

/** The hash the id table files the id of `n` bytes at `p` under. */
export function idHash(p: usize, n: usize): u32 {
  return hashBytes(p, n, 0x1d);
}

/** The entry of the example whose id is the `n` bytes at `p` (its idHash `h`), or 0. */
export function findId(p: usize, n: usize, h: u32): usize {
  let slot = h & idMask;
  while (true) {
    const at = idTable + (<usize> slot << 3);
    const e = <usize> load<u32>(at, 4);
    if (e == 0) return 0;
    if (load<u32>(at) == h && sameBytes(idAddr(e), idLength(e), p, n)) return e;
    slot = (slot + 1) & idMask;
  }
}

/** Language `k`'s first entry. */
export function languageEntry(k: u32): usize {
  return <usize> load<u32>(langFirst + (<usize> k << 2));
}

// ---- A prompt or generation line's digest field.

/** The digest field of the line being read (field 1), as 32 bytes (see digestField). */
export const DIGEST: usize = memory.data(32);

// Reads the 8 lowercase hex digits at `p` as 4 bytes (the first digit the high nibble of the
// first byte), little-endian in the result's low 32 bits; -1 when one is not such a digit.
function hex8(p: usize): i64 {
  const x = load<u64>(p);
  if ((x & HIGHS) != 0) return -1;
  // Bit 7 of a byte of `x + k * ONES` is set when the byte is at least 0x80 - k (no byte
  // carries: every byte is below 0x80, and k below 0x80).
  const ge0 = x + ONES * (0x80 - 0x30);
  const gt9 = x + ONES * (0x80 - 0x3a);
  const gea = x + ONES * (0x80 - 0x61);
  const gtf = x + ONES * (0x80 - 0x67);
  const digit = ge0 & ~gt9 & HIGHS;
  const letter = gea & ~gtf & HIGHS;
  if ((digit | letter) != HIGHS) return -1;
  // '0'..'9' are 0x30..0x39 and 'a'..'f' 0x61..0x66: the low nibble, plus 9 for a letter.
  const n = (x & (ONES * 0x0f)) + (letter >> 7) * 9;
  // Each 16-bit lane: its first digit times 16 plus its second, in its low byte.
  const t = ((n & 0x000f000f000f000f) << 4) | ((n >> 8) & 0x000f000f000f000f);
  return <i64> ((t & 0xff) | ((t >> 8) & 0xff00) | ((t >> 16) & 0xff0000) |
    ((t >> 24) & 0xff000000));
}

/**
 * Whether field 1 is a string literal of 64 lowercase hex digits; if so, leaves their 32 bytes
 * in DIGEST.
 */
export function digestField(): bool {
  const s = fieldStart(1);
  if (s == 0 || fieldEnd(1) - s != 66 || load<u8>(s) != 0x22) return false;
  for (let k: usize = 0; k < 8; k++) {
    const b = hex8(s + 1 + (k << 3));
    if (b < 0) return false;
    store<u32>(DIGEST + (k << 2), <u32> b);
  }
  return true;
}

/** Copies DIGEST to `o`. */
export function digestTo(o: usize): void {
  store<u64>(o, load<u64>(DIGEST));
  store<u64>(o, load<u64>(DIGEST, 8), 8);
  store<u64>(o, load<u64>(DIGEST, 16), 16);
  store<u64>(o, load<u64>(DIGEST, 24), 24);
}
