// The scoring kernel's last phase (see score.ts): every kept example must have
// its generation (and its prompt); the records are written as the report's
// JSON lines, as JSON.stringify writes them, and counted per language.

import { decimalLength, writeDecimal } from "./flatten";
import { writeJsonString } from "./jsonl_strings";
import { regionsReset } from "./memory";
import {
  align8,
  BAIL_DIGEST,
  BAIL_MISSING,
  BAIL_UNSCORED,
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
  entryCount,
  entryKind,
  entryLine,
  entryOf,
  idAddr,
  idLength,
  KEPT,
  langAddr,
  langCount,
  langIndex,
  langLength,
  languageEntry,
  R_GENERATION_DIGEST,
  R_PROMPT_DIGEST,
  R_RECORD,
  resultOf,
  rootAddr,
  rootLength,
  SET,
  STATE_GENERATION,
  STATE_PROMPT,
  tablesTop,
} from "./score_entries";
import { bytesEqual } from "./bytes";
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

let recordsText: usize = 0;
let recordsLength: usize = 0;
let countsAt: usize = 0;

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
 * Checks that every kept example has its generation (and prompt) and was
 * scored, then writes the records' JSON lines, joined by ",\n", and the counts
 * per language.
 */
export function kFinish(): i32 {
  countsAt = align8(tablesTop);
  const countsBytes = <usize> langCount * <usize> COUNT_FIELDS << 3;
  regionsReset(align8(countsAt + countsBytes));
  memory.fill(countsAt, 0, countsBytes);
  emitReset(1 << 16);
  let lines: u32 = 0;
  for (let i: u32 = 0; i < entryCount; i++) {
    const e = entryOf(i);
    const result = resultOf(e);
    const state = load<u32>(result);
    const r = result + R_RECORD;
    // With a manifest, every generation names the digest of its prompt's row.
    if (withPrompts && (state & STATE_GENERATION) != 0) {
      if ((state & STATE_PROMPT) == 0) return bail(BAIL_MISSING, entryLine(e));
      if (!bytesEqual(result + R_PROMPT_DIGEST, result + R_GENERATION_DIGEST, 32)) {
        return bail(BAIL_DIGEST, entryLine(e));
      }
    }
    if ((entryKind(e) & 0xff) != KEPT) continue;
    if ((state & STATE_GENERATION) == 0 || (withPrompts && (state & STATE_PROMPT) == 0)) {
      return bail(BAIL_MISSING, entryLine(e));
    }
    const flags = load<u32>(r);
    if ((flags & SET) == 0) return bail(BAIL_UNSCORED, entryLine(e));
    const status = flags & 0xff;
    const nameMatch = (flags & 0x100) != 0;
    const argsMatch = (flags & 0x200) != 0;
    const matched = load<u32>(r, 4);
    const predicted = load<u32>(r, 8);
    const gold = load<u32>(r, 12);
    const c = countsAt + (<usize> langIndex(e) * <usize> COUNT_FIELDS << 3);
    add(c + (<usize> COUNT_N << 3), 1);
    add(c + ((<usize> COUNT_OK + <usize> status) << 3), 1);
    if (nameMatch) add(c + (<usize> COUNT_NAME << 3), 1);
    if (argsMatch) add(c + (<usize> COUNT_ARGS << 3), 1);
    if (nameMatch && argsMatch) add(c + (<usize> COUNT_FULL << 3), 1);
    add(c + (<usize> COUNT_MATCHED << 3), <f64> matched);
    add(c + (<usize> COUNT_PREDICTED << 3), <f64> predicted);
    add(c + (<usize> COUNT_GOLD << 3), <f64> gold);
    // The line.
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
    o = putBool(o, nameMatch);
    o = put(o, REC_ARGS, 19);
    o = putBool(o, argsMatch);
    o = put(o, REC_MATCHED, 17);
    o = putDecimal(o, matched);
    o = put(o, REC_PREDICTED, 19);
    o = putDecimal(o, predicted);
    o = put(o, REC_GOLD, 14);
    o = putDecimal(o, gold);
    store<u8>(o, 0x7d);
    emitSet(o + 1 - emitBase);
  }
  recordsText = emitBase;
  recordsLength = emitUsed;
  return K_OK;
}

/** The records' text kFinish wrote: its address (its length is kRecordsLength). */
export function kRecordsText(): usize {
  return recordsText;
}

export function kRecordsLength(): usize {
  return recordsLength;
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
