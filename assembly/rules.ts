// One rule of the scoring kernel (score.ts) at a time, on one input: entry points for the
// differential tests against the general reader's TS twins (tests/evaluation/kernel_rules_test.ts;
// the harness is tests/evaluation/_kernel_rules.ts). Each runs the kernel's own functions; the
// kernel never calls them. The glue starts a job (kStart) and writes the input where kInput says;
// each returns RESULT, u32 words described per rule.

import { FIELDS, scanObject, skipWs } from "./jsonl";
import {
  clearReplaced,
  decodedLength,
  decodedLone,
  decodedReplaced,
  setReplaceInvalid,
} from "./jsonl_strings";
import { copyBytes, R_TEXT, reserve } from "./memory";
import { blank, kFreeze, PHASE_EXAMPLES, PHASE_GENERATIONS, phaseNames } from "./score";
import {
  align4,
  BAIL_LINE,
  chunkInput,
  chunkReset,
  emitBase,
  emitNeed,
  emitSet,
  fieldStart,
  K_OK,
  NAMES,
  valueOutput,
} from "./score_common";
import {
  ARGS_MATCH,
  E_ID,
  E_LANG,
  E_LINE,
  E_MATCHED,
  E_PREDICTED,
  E_ROOT,
  E_WORD,
  entriesAppend,
  entryCount,
  entryHead,
  entryKind,
  entryWord,
  example,
  goldBlock,
  goldCanon,
  goldCanonLength,
  goldName,
  goldNameLength,
  goldOf,
  goldPairs,
  KEPT,
  NAME_MATCH,
  NULL_ROOT,
  setEntryWord,
  STATE_GENERATION,
  STATUS_SHIFT,
  TARGET_UNREAD,
  zone,
} from "./score_entries";
import { scoreOutput, setRecord } from "./score_outputs";
import { kFinish, kRecords, kRecordsText } from "./score_records";

const RESULT: usize = memory.data(64);

/** Line verdicts: the kernel reads the line, gives the run back, or skips it as blank. */
const READ: u32 = 0;
const GIVE_BACK: u32 = 1;
const BLANK: u32 = 2;

// The line scan leaves where the line's object starts and where its line ends.
let lineObject: usize = 0;
let lineEnd: usize = 0;

// The verdict on the line `[s, end)` of `phase`, as eachLine (score.ts) reads a line: its names,
// then its first byte, the object's scan and what may follow it (restated from eachLine, whose
// loop this is one turn of).
function scanLine(phase: i32, s: usize, end: usize, text: usize): u32 {
  phaseNames(phase);
  const q = skipWs(s, end);
  if (q >= end || load<u8>(q) != 0x7b) return blank(q, end) ? BLANK : GIVE_BACK;
  clearReplaced();
  setReplaceInvalid(phase == PHASE_GENERATIONS);
  const o = phase == PHASE_EXAMPLES
    ? scanObject(q, end, NAMES, 4, -1, text, 3)
    : scanObject(q, end, NAMES, 3, 2, text, phase == PHASE_GENERATIONS ? 2 : -1);
  setReplaceInvalid(false);
  if (o == 0) return GIVE_BACK;
  const r = skipWs(o, end);
  if (r < end && load<u8>(r) != 0x0a) return GIVE_BACK;
  lineObject = q;
  lineEnd = r;
  return READ;
}

/**
 * The line scan: the line of `phase` (0 examples, 1 prompts, 2 generations) in the `len` bytes
 * at chunkInput. An example's container target is parsed by the scan, and read as example()
 * reads it (goldOf). RESULT: the verdict (0 read, 1 give back, 2 blank), the
 * value range of each named field (start, end addresses; 0, 0 when absent), then the decoded
 * prompt or output (address, length, lone surrogate, invalid UTF-8 replaced) as the scan left
 * it, and 1 when that is the canonical text of an output written as a JSON value (valueOutput).
 */
export function ruleScanLine(phase: i32, len: u32): usize {
  const s = chunkInput;
  const end = s + <usize> len;
  chunkReset(end, <usize> len);
  const text = reserve(R_TEXT, 0, 3 * <usize> len + 16);
  decodedLength = 0;
  decodedLone = false;
  let verdict = scanLine(phase, s, end, text);
  if (verdict == READ && phase == PHASE_EXAMPLES) {
    const t = fieldStart(3);
    if (t != 0) {
      const c = load<u8>(t);
      if ((c == 0x7b || c == 0x5b) && goldOf() == TARGET_UNREAD) verdict = GIVE_BACK;
    }
  }
  let length = decodedLength;
  let lone = decodedLone;
  let replaced = decodedReplaced;
  const value = verdict == READ && phase == PHASE_GENERATIONS ? valueOutput(text) : -1;
  if (value >= 0) {
    length = <usize> value;
    lone = false;
    replaced = false;
  } else if (verdict == READ && phase == PHASE_GENERATIONS) {
    // A container output the kernel does not read gives the run back (generation()).
    const o = fieldStart(2);
    if (o != 0 && (load<u8>(o) == 0x7b || load<u8>(o) == 0x5b)) verdict = GIVE_BACK;
  }
  store<u32>(RESULT, verdict);
  copyBytes(RESULT + 4, FIELDS, 32);
  store<u32>(RESULT, <u32> text, 36);
  store<u32>(RESULT, <u32> length, 40);
  store<u32>(RESULT, lone ? 1 : 0, 44);
  store<u32>(RESULT, replaced ? 1 : 0, 48);
  store<u32>(RESULT, value >= 0 ? 1 : 0, 52);
  return RESULT;
}

/**
 * The target's kind: the example line in the `len` bytes at chunkInput, scanned, then read by
 * example(). RESULT: the kind (KEPT, MULTIPLE_CALLS, EMPTY_TARGET, MALFORMED_TARGET, or
 * TARGET_UNREAD when the line or its target is not read; 0x1000 | the bail code for another
 * field), then for a kept one its gold block: the name literal (address, length), the canonical
 * arguments (address, length) and the pair count.
 */
export function ruleDropKind(len: u32): usize {
  const s = chunkInput;
  const end = s + <usize> len;
  chunkReset(end, <usize> len);
  memory.fill(RESULT, 0, 24);
  let kind = TARGET_UNREAD;
  if (scanLine(PHASE_EXAMPLES, s, end, 0) == READ) {
    const code = example(lineObject, lineEnd, 1);
    if (code == K_OK) {
      const h = emitBase; // the entry example() wrote, first in the emit region
      kind = entryKind(h);
      if (kind == KEPT) {
        const g = goldBlock(h);
        store<u32>(RESULT, <u32> goldName(g), 4);
        store<u32>(RESULT, <u32> goldNameLength(g), 8);
        store<u32>(RESULT, <u32> goldCanon(g), 12);
        store<u32>(RESULT, <u32> goldCanonLength(g), 16);
        store<u32>(RESULT, goldPairs(g), 20);
      }
    } else if (code != BAIL_LINE) {
      kind = 0x1000 | <u32> code;
    }
  }
  store<u32>(RESULT, kind);
  return RESULT;
}

/**
 * Pair matching: scores the output (decoded, `len` bytes at chunkInput) against the gold of
 * the job's one example, kept, as the generations phase does (scoreOutput). RESULT: 1, or 2 when
 * the example is not kept; then the record: flags (status, name << 8, arguments << 9), matched,
 * predicted and gold pairs.
 */
export function ruleScore(len: u32): usize {
  const t = chunkInput;
  chunkReset(t + <usize> len, <usize> len);
  memory.fill(RESULT, 0, 20);
  const e = zone;
  if (entryKind(e) != KEPT) {
    store<u32>(RESULT, 2);
    return RESULT;
  }
  setEntryWord(e, KEPT);
  scoreOutput(e, t, <usize> len);
  const word = entryWord(e);
  store<u32>(RESULT, 1);
  store<u32>(
    RESULT,
    ((word >> STATUS_SHIFT) & 3) | ((word & NAME_MATCH) != 0 ? 0x100 : 0) |
      ((word & ARGS_MATCH) != 0 ? 0x200 : 0),
    4,
  );
  store<u32>(RESULT, load<u32>(e + E_MATCHED), 8);
  store<u32>(RESULT, load<u32>(e + E_PREDICTED), 12);
  store<u32>(RESULT, goldPairs(goldBlock(e)), 16);
  return RESULT;
}

/**
 * The records' JSON: one kept example whose id, language and root id (`rootLen` -1 for null)
 * are the UTF-8 bytes at chunkInput, one after the other, with the record given, written by
 * kFinish and kRecords. RESULT: kFinish's code, the text's address and length.
 */
export function ruleRecordLine(
  idLen: u32,
  langLen: u32,
  rootLen: i32,
  status: u32,
  nameMatch: bool,
  argsMatch: bool,
  matched: u32,
  predicted: u32,
  gold: u32,
): usize {
  const s = chunkInput;
  const n = <usize> idLen + <usize> langLen + (rootLen < 0 ? 0 : <usize> rootLen);
  chunkReset(s + n, n);
  // The entry, laid out as example() lays it out (with a gold block of `gold` pairs and an
  // empty name and arguments), then moved into the zone as kExamples moves it.
  const head = entryHead;
  const size = head + align4(n) + 12;
  const h = emitNeed(size);
  memory.fill(h, 0, size);
  copyBytes(h + head, s, n);
  store<u32>(h + E_LINE, 1);
  store<u32>(h + E_WORD, KEPT);
  store<u32>(h + E_ID, idLen);
  store<u32>(h + E_LANG, langLen);
  store<u32>(h + E_ROOT, rootLen < 0 ? NULL_ROOT : <u32> rootLen);
  store<u32>(h + head + align4(n), gold, 8);
  emitSet(size);
  entriesAppend(emitBase, size);
  entryCount = 1;
  let code = kFreeze();
  let length: usize = 0;
  if (code == K_OK) {
    const e = zone;
    setEntryWord(e, KEPT | STATE_GENERATION);
    const flags = (nameMatch ? NAME_MATCH : 0) | (argsMatch ? ARGS_MATCH : 0);
    setRecord(e, status, flags, matched, predicted);
    code = kFinish(false);
    if (code == K_OK) length = kRecords(true, 1 << 16);
  }
  store<u32>(RESULT, <u32> code);
  store<u32>(RESULT, <u32> kRecordsText(), 4);
  store<u32>(RESULT, <u32> length, 8);
  return RESULT;
}
