// The scoring kernel's last phase (see score.ts): kFinish checks that every
// kept example has its generation (and its prompt), or with allowMissing counts
// those that have none, and sums the records per language; kRecords then writes
// them as the report's JSON lines, as JSON.stringify writes them, a chunk at a
// time, from the entries (so that memory holds the entries and one chunk, never
// the records' text).

import { decimalLength, writeDecimal } from "./flatten";
import { writeJsonString } from "./jsonl_strings";
import { regionsReset } from "./memory";
import {
  align8,
  BAIL_MISSING,
  bail,
  emitBase,
  emitNeed,
  emitReset,
  emitSet,
  emitUsed,
  K_OK,
  withPrompts,
} from "./score_common";
import {
  ARGS_MATCH,
  E_MATCHED,
  E_PREDICTED,
  entriesTop,
  entryKind,
  entryLine,
  entryWord,
  firstDropped,
  goldBlock,
  goldPairs,
  idAddr,
  idLength,
  KEPT,
  langAddr,
  langCount,
  langIndex,
  langLength,
  languageEntry,
  NAME_MATCH,
  nextEntry,
  rootAddr,
  rootLength,
  STATE_GENERATION,
  STATE_PROMPT,
  STATUS_SHIFT,
  tablesTop,
  zone,
} from "./score_entries";
import {
  COUNT_ARGS,
  COUNT_FIELDS,
  COUNT_FULL,
  COUNT_GOLD,
  COUNT_MATCHED,
  COUNT_N,
  COUNT_NAME,
  COUNT_OK,
  COUNT_PREDICTED,
} from "./abi_kernel";

// kCounts' table: COUNT_FIELDS f64 per language (abi_kernel.ts).

const REC_ID: usize = memory.data<u8>([
  0x20, 0x20, 0x20, 0x20, 0x7b, 0x22, 0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x5f, 0x69, 0x64,
  0x22, 0x3a,
]);
const REC_LANG: usize = memory.data<u8>([
  0x2c, 0x22, 0x6c, 0x61, 0x6e, 0x67, 0x75, 0x61, 0x67, 0x65, 0x22, 0x3a,
]);
const REC_ROOT: usize = memory.data<u8>([
  0x2c, 0x22, 0x72, 0x6f, 0x6f, 0x74, 0x5f, 0x69, 0x64, 0x22, 0x3a,
]);
const REC_STATUS: usize = memory.data<u8>([
  0x2c, 0x22, 0x73, 0x74, 0x61, 0x74, 0x75, 0x73, 0x22, 0x3a,
]);
const REC_NAME: usize = memory.data<u8>([
  0x2c, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x5f, 0x6d, 0x61, 0x74, 0x63, 0x68, 0x22, 0x3a,
]);
const REC_ARGS: usize = memory.data<u8>([
  0x2c, 0x22, 0x61, 0x72, 0x67, 0x75, 0x6d, 0x65, 0x6e, 0x74, 0x73, 0x5f, 0x6d, 0x61, 0x74, 0x63,
  0x68, 0x22, 0x3a,
]);
const REC_MATCHED: usize = memory.data<u8>([
  0x2c, 0x22, 0x6d, 0x61, 0x74, 0x63, 0x68, 0x65, 0x64, 0x5f, 0x70, 0x61, 0x69, 0x72, 0x73, 0x22,
  0x3a,
]);
const REC_PREDICTED: usize = memory.data<u8>([
  0x2c, 0x22, 0x70, 0x72, 0x65, 0x64, 0x69, 0x63, 0x74, 0x65, 0x64, 0x5f, 0x70, 0x61, 0x69, 0x72,
  0x73, 0x22, 0x3a,
]);
const REC_GOLD: usize = memory.data<u8>([
  0x2c, 0x22, 0x67, 0x6f, 0x6c, 0x64, 0x5f, 0x70, 0x61, 0x69, 0x72, 0x73, 0x22, 0x3a,
]);
const LIT_NULL: usize = memory.data<u8>([0x6e, 0x75, 0x6c, 0x6c]);
const LIT_TRUE: usize = memory.data<u8>([0x74, 0x72, 0x75, 0x65]);
const LIT_FALSE: usize = memory.data<u8>([0x66, 0x61, 0x6c, 0x73, 0x65]);
// The status literals ok, no_json, invalid_json, invalid_shape at (offset, length) STATUS_AT.
const STATUS_TEXT: usize = memory.data<u8>([
  0x22, 0x6f, 0x6b, 0x22, 0x22, 0x6e, 0x6f, 0x5f, 0x6a, 0x73, 0x6f, 0x6e, 0x22, 0x22, 0x69, 0x6e,
  0x76, 0x61, 0x6c, 0x69, 0x64, 0x5f, 0x6a, 0x73, 0x6f, 0x6e, 0x22, 0x22, 0x69, 0x6e, 0x76, 0x61,
  0x6c, 0x69, 0x64, 0x5f, 0x73, 0x68, 0x61, 0x70, 0x65, 0x22,
]);
const STATUS_AT: usize = memory.data<u8>([0, 4, 4, 9, 13, 14, 27, 15]);

let countsAt: usize = 0;
/** Kept examples with no generation, which kFinish(allowMissing) leaves out of every count. */
export let missingCount: u32 = 0;
// kRecords' next entry, and the lines it wrote so far.
let cursor: usize = 0;
let lines: u32 = 0;

// Writes the literal of `n` bytes at `lit`, eight bytes at a time (up to 7 past its end: the
// record's room has that slack, and what follows overwrites it).
function put(o: usize, lit: usize, n: usize): usize {
  for (let k: usize = 0; k < n; k += 8) store<u64>(o + k, load<u64>(lit + k));
  return o + n;
}

function putBool(o: usize, b: bool): usize {
  return b ? put(o, LIT_TRUE, 4) : put(o, LIT_FALSE, 5);
}

function putDecimal(o: usize, x: u32): usize {
  const end = o + decimalLength(x);
  writeDecimal(end, x);
  return end;
}

function add(at: usize, x: f64): void {
  store<f64>(at, load<f64>(at) + x);
}

/**
 * Checks that every kept example has its generation (and prompt), and sums the
 * records per language. With `allowMissing`, a kept example with no generation
 * (but its prompt, when there is a manifest) is not scored: missingCount counts
 * it, kDropped(0) lists it and kRecords writes no record for it.
 */
export function kFinish(allowMissing: bool): i32 {
  countsAt = align8(tablesTop);
  const countsBytes = <usize> langCount * <usize> COUNT_FIELDS << 3;
  regionsReset(align8(countsAt + countsBytes));
  memory.fill(countsAt, 0, countsBytes);
  missingCount = 0;
  for (let e = zone; e < entriesTop; e = nextEntry(e)) {
    if (entryKind(e) != KEPT) continue;
    const word = entryWord(e);
    if (withPrompts && (word & STATE_PROMPT) == 0) return bail(BAIL_MISSING, entryLine(e));
    if ((word & STATE_GENERATION) == 0) {
      if (!allowMissing) return bail(BAIL_MISSING, entryLine(e));
      missingCount++;
      continue;
    }
    const status = (word >> STATUS_SHIFT) & 3;
    const nameMatch = (word & NAME_MATCH) != 0;
    const argsMatch = (word & ARGS_MATCH) != 0;
    const c = countsAt + (<usize> langIndex(e) * <usize> COUNT_FIELDS << 3);
    add(c + (<usize> COUNT_N << 3), 1);
    add(c + ((<usize> COUNT_OK + <usize> status) << 3), 1);
    if (nameMatch) add(c + (<usize> COUNT_NAME << 3), 1);
    if (argsMatch) add(c + (<usize> COUNT_ARGS << 3), 1);
    if (nameMatch && argsMatch) add(c + (<usize> COUNT_FULL << 3), 1);
    add(c + (<usize> COUNT_MATCHED << 3), <f64> load<u32>(e + E_MATCHED));
    add(c + (<usize> COUNT_PREDICTED << 3), <f64> load<u32>(e + E_PREDICTED));
    add(c + (<usize> COUNT_GOLD << 3), <f64> goldPairs(goldBlock(e)));
  }
  cursor = zone;
  lines = 0;
  return K_OK;
}

/**
 * Writes the next records' JSON lines (after kFinish), each but the very first
 * after ",\n", until at least `cap` bytes are written or the records end;
 * `restart` starts again from the first. Returns the bytes written (0 once
 * every record is), at kRecordsText.
 */
export function kRecords(restart: bool, cap: u32): usize {
  if (restart) {
    cursor = zone;
    lines = 0;
  }
  emitReset(<usize> cap + 4096);
  let e = cursor;
  while (e < entriesTop && emitUsed < <usize> cap) {
    if (scored(e)) writeRecord(e);
    e = nextEntry(e);
  }
  cursor = e;
  return emitUsed;
}

// Whether entry `e` has a record: a kept example with its generation.
function scored(e: usize): bool {
  return entryKind(e) == KEPT && (entryWord(e) & STATE_GENERATION) != 0;
}

// Writes entry `e`'s record line.
function writeRecord(e: usize): void {
  const word = entryWord(e);
  const status = (word >> STATUS_SHIFT) & 3;
  const idn = idLength(e);
  const ln = langLength(e);
  const root = rootLength(e);
  const rn: usize = root < 0 ? 0 : <usize> root;
  let o = emitNeed(260 + 6 * (idn + ln + rn));
  if (lines > 0) {
    store<u16>(o, 0x0a2c); // ",\n"
    o += 2;
  }
  lines++;
  o = put(o, REC_ID, 18);
  o = writeJsonString(o, idAddr(e), idn);
  o = put(o, REC_LANG, 12);
  o = writeJsonString(o, langAddr(e), ln);
  o = put(o, REC_ROOT, 11);
  o = root < 0 ? put(o, LIT_NULL, 4) : writeJsonString(o, rootAddr(e), rn);
  o = put(o, REC_STATUS, 10);
  const sa = STATUS_AT + (<usize> status << 1);
  o = put(o, STATUS_TEXT + <usize> load<u8>(sa), <usize> load<u8>(sa + 1));
  o = put(o, REC_NAME, 14);
  o = putBool(o, (word & NAME_MATCH) != 0);
  o = put(o, REC_ARGS, 19);
  o = putBool(o, (word & ARGS_MATCH) != 0);
  o = put(o, REC_MATCHED, 17);
  o = putDecimal(o, load<u32>(e + E_MATCHED));
  o = put(o, REC_PREDICTED, 19);
  o = putDecimal(o, load<u32>(e + E_PREDICTED));
  o = put(o, REC_GOLD, 14);
  o = putDecimal(o, goldPairs(goldBlock(e)));
  store<u8>(o, 0x7d);
  emitSet(o + 1 - emitBase);
}

let dropCursor: usize = 0;

/**
 * Writes the ids of the examples dropped for drop kind `kind` (an entry kind other than KEPT),
 * or with `kind` 0 those of the kept examples with no generation (after kFinish(allowMissing)),
 * in examples order, each as a JSON string and a newline, from where the last call stopped
 * (`restart` starts over), until at least `cap` bytes are written. Returns the bytes written (0
 * when there are no more), at kRecordsText().
 */
export function kDropped(kind: u32, restart: bool, cap: u32): usize {
  const missing = kind == 0;
  if (restart) dropCursor = missing ? zone : firstDropped;
  emitReset(<usize> cap + 4096);
  let e = dropCursor;
  while (e != 0 && e < entriesTop && emitUsed < <usize> cap) {
    if (missing ? entryKind(e) == KEPT && !scored(e) : entryKind(e) == kind) {
      const idn = idLength(e);
      const o = writeJsonString(emitNeed(8 + 6 * idn), idAddr(e), idn);
      store<u8>(o, 0x0a);
      emitSet(o + 1 - emitBase);
    }
    // The next entry, or the next dropped one (see firstDropped).
    e = missing ? nextEntry(e) : <usize> load<u32>(e + E_MATCHED);
  }
  dropCursor = e;
  return emitUsed;
}

/** The records' text kRecords wrote: its address. */
export function kRecordsText(): usize {
  return emitBase;
}

/** The counts kFinish summed: kLanguageCount rows of COUNT_FIELDS f64. */
export function kCounts(): usize {
  return countsAt;
}

export function kLanguageCount(): u32 {
  return langCount;
}

/** Language `k`'s bytes: their address (their length is kLanguageLength). */
export function kLanguage(k: u32): usize {
  return langAddr(languageEntry(k));
}

export function kLanguageLength(k: u32): usize {
  return langLength(languageEntry(k));
}
