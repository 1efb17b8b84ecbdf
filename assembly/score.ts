// The scoring kernel: `assay score` on raw JSONL bytes (src/_score_kernel.ts
// is its JS side; docs/evaluation.md describes the fast path).
//
// One instance runs one scoring job, in phases: chunks of examples.jsonl
// (kExamples), kFreeze, chunks of prompts.jsonl (kPrompts), chunks of
// generations.jsonl (kGenerations), kFinish. A chunk is whole lines, written
// by the JS glue at the address kInput returns.
//
// Each example leaves an entry (below) in a zone at the bottom of the heap,
// which grows chunk by chunk; kFreeze adds tables after it (entry addresses,
// states, prompt digests, records, the id and language hash tables), and
// later chunks go above those. Each scored generation leaves a record; an
// example whose gold or prediction holds something only the JS glue formats
// (a float the module leaves to JS, a path too long for the path text) is
// queued for the glue, which scores it and sets its record (kSetRecord).
// kFinish writes the records as the report's JSON lines and sums the counts
// per language.
//
// Every phase returns K_OK or a BAIL code: the kernel met something it does
// not read itself, from a malformed line to a broken invariant, and the glue
// reruns the files through the general reader, which gives the same report or
// words the error. So the kernel never words an error, and only has to be
// exact where it succeeds.

import { checkShape, argumentsEnd, argumentsStart, nameEnd, nameStart } from "./shape";
import { FLOAT_MARK, membersReset } from "./canonical";
import { flatten, leavesAddress, pairsAddress, pairsReset, pairsUsed, pathTextAddress, skipString, skipValue } from "./flatten";
import { hashBytes, internReset } from "./intern";
import { parseValue } from "./json";
import { decodedLone, decodeString, FIELDS, scanObject, validUtf8, writeJsonString } from "./jsonl";
import { growMemoryTo, outBase, outPos, outReset, outRewind, R_EMIT, R_PRED, R_QUEUE, R_TEXT, regionCap, regionsReset, reserve } from "./memory";
import { sha256Equals } from "./sha256";
import { findSpan, SPAN_FOUND, SPAN_NONE, spanEnd, spanStart } from "./span";
import { setText } from "./text";

export const K_OK: i32 = 0;
/** Not UTF-8. */
export const BAIL_UTF8: i32 = 1;
/** A line that is not one object in the strict reading. */
export const BAIL_LINE: i32 = 2;
/** A field missing, mistyped or empty. */
export const BAIL_FIELD: i32 = 3;
/** A lone surrogate in an id, language or prompt. */
export const BAIL_SURROGATE: i32 = 4;
/** An id twice in one file. */
export const BAIL_DUPLICATE: i32 = 5;
/** A prompt or generation whose id is not an example's. */
export const BAIL_UNKNOWN_ID: i32 = 6;
/** A digest that is malformed or does not match. */
export const BAIL_DIGEST: i32 = 7;
/** An example without its generation, or without its prompt. */
export const BAIL_MISSING: i32 = 8;
/** A queued example the glue did not score. */
export const BAIL_UNSCORED: i32 = 9;

/** The line of the last bail (1-based), or 0. */
export let bailLine: u32 = 0;
/** The line after the last chunk's last line. */
export let nextLine: u32 = 1;
/** Non-blank lines of the last chunk. */
export let chunkRows: u32 = 0;

// Entry layout: u32 words, then the bytes of id, language, root id (unless
// null), the gold name literal and canonical arguments, padded to 4, then the
// gold pair keys (u32 hash, u32 length, bytes padded to 4).
const E_SIZE: usize = 0;
const E_LINE: usize = 4;
const E_KIND: usize = 8;
const E_ID: usize = 12;
const E_LANG: usize = 16;
const E_ROOT: usize = 20;
const E_NAME: usize = 24;
const E_CANON: usize = 28;
const E_PAIRS: usize = 32;
const E_HASH: usize = 36;
const E_LANG_INDEX: usize = 40;
const E_DATA: usize = 44;
const NULL_ROOT: u32 = 0xffff_ffff;

/** Entry kinds: kept, or dropped for a reason (in DropSummary's order). */
const KEPT: u32 = 0;
const MULTIPLE_CALLS: u32 = 1;
const EMPTY_TARGET: u32 = 2;
const MALFORMED_TARGET: u32 = 3;
/** Set in E_KIND when the gold is left to the glue (E_PAIRS is then 0). */
const GOLD_TO_GLUE: u32 = 0x100;

/** Record layout: flags (status | name << 8 | arguments << 9 | SET), matched, predicted, gold. */
const RECORD_SIZE: usize = 16;
const SET: u32 = 0x1_0000;
const STATE_PROMPT: u32 = 1;
const STATE_GENERATION: u32 = 2;

const STATUS_OK: u32 = 0;
const STATUS_NO_JSON: u32 = 1;
const STATUS_INVALID_JSON: u32 = 2;
const STATUS_INVALID_SHAPE: u32 = 3;

/** Counts per language in kFinish's table, as f64. */
export const COUNT_FIELDS: u32 = 11;

// Field names: u32 address, u32 length each.
const S_EXAMPLE_ID: usize = memory.data<u8>([0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x5f, 0x69, 0x64]);
const S_LANGUAGE: usize = memory.data<u8>([0x6c, 0x61, 0x6e, 0x67, 0x75, 0x61, 0x67, 0x65]);
const S_ROOT_ID: usize = memory.data<u8>([0x72, 0x6f, 0x6f, 0x74, 0x5f, 0x69, 0x64]);
const S_TARGET: usize = memory.data<u8>([0x74, 0x61, 0x72, 0x67, 0x65, 0x74]);
const S_PROMPT_SHA: usize = memory.data<u8>([
  0x70, 0x72, 0x6f, 0x6d, 0x70, 0x74, 0x5f, 0x73, 0x68, 0x61, 0x32, 0x35, 0x36,
]);
const S_PROMPT: usize = memory.data<u8>([0x70, 0x72, 0x6f, 0x6d, 0x70, 0x74]);
const S_OUTPUT: usize = memory.data<u8>([0x6f, 0x75, 0x74, 0x70, 0x75, 0x74]);
const NAMES: usize = memory.data(4 * 8);

function setNames(a: usize, an: u32, b: usize, bn: u32, c: usize, cn: u32, d: usize, dn: u32): void {
  store<u32>(NAMES, <u32> a);
  store<u32>(NAMES, an, 4);
  store<u32>(NAMES, <u32> b, 8);
  store<u32>(NAMES, bn, 12);
  store<u32>(NAMES, <u32> c, 16);
  store<u32>(NAMES, cn, 20);
  store<u32>(NAMES, <u32> d, 24);
  store<u32>(NAMES, dn, 28);
}

function fieldStart(k: usize): usize {
  return <usize> load<u32>(FIELDS + (k << 3));
}

function fieldEnd(k: usize): usize {
  return <usize> load<u32>(FIELDS + (k << 3), 4);
}

// The canonical texts of flatten's constant values, as (offset, length) into CONSTANT_TEXT.
const CONSTANT_TEXT: usize = memory.data<u8>([
  0x74, 0x72, 0x75, 0x65, 0x66, 0x61, 0x6c, 0x73, 0x65, 0x6e, 0x75, 0x6c, 0x6c, 0x7b, 0x7d, 0x5b,
  0x5d, 0x4e, 0x61, 0x4e, 0x49, 0x6e, 0x66, 0x69, 0x6e, 0x69, 0x74, 0x79, 0x2d, 0x49, 0x6e, 0x66,
  0x69, 0x6e, 0x69, 0x74, 0x79,
]);
const CONSTANT_AT: usize = memory.data<u8>([0, 4, 4, 5, 9, 4, 13, 2, 15, 2, 17, 3, 20, 8, 28, 9]);

function align8(p: usize): usize {
  return (p + 7) & ~(<usize> 7);
}

function align4(p: usize): usize {
  return (p + 3) & ~(<usize> 3);
}

// ---- Job state.

let withPrompts: bool = false;
let zone: usize = 0;
let entriesTop: usize = 0;
let entryCount: u32 = 0;
let frozen: bool = false;
let chunkInput: usize = 0;
// After kFreeze: per example, its entry address, state, record and prompt digest.
let entryAt: usize = 0;
let stateAt: usize = 0;
let recordAt: usize = 0;
let promptAt: usize = 0;
let idTable: usize = 0;
let idMask: u32 = 0;
let langTable: usize = 0;
let langFirst: usize = 0;
/** Distinct languages, in order of first appearance. */
export let langCount: u32 = 0;
/** Kept examples. */
export let keptCount: u32 = 0;
/** Dropped examples by reason: multiple_calls, empty_target, malformed_target. */
export const DROPS: usize = memory.data(12);
let frozenTop: usize = 0;

/** Starts a job; `prompts` says whether a manifest is part of it. */
export function kStart(prompts: bool): void {
  withPrompts = prompts;
  zone = align8(__heap_base);
  entriesTop = zone;
  entryCount = 0;
  frozen = false;
  langCount = 0;
  keptCount = 0;
  memory.fill(DROPS, 0, 12);
  nextLine = 1;
  bailLine = 0;
}

/** The address where the glue writes the next chunk of up to `cap` bytes. */
export function kInput(cap: u32): usize {
  chunkInput = align8(frozen ? frozenTop : entriesTop);
  growMemoryTo(<u64> chunkInput + <u64> cap + 8);
  return chunkInput;
}

// ---- Per-chunk scratch: the emit region (entries, then the records' text).

let emitBase: usize = 0;
let emitUsed: usize = 0;
let emitCap: usize = 0;

function emitNeed(n: usize): usize {
  if (emitUsed + n > emitCap) {
    emitBase = reserve(R_EMIT, emitUsed, emitUsed + n);
    emitCap = regionCap(R_EMIT);
  }
  return emitBase + emitUsed;
}

// Room for `n` bytes in region `r`; its base.
function scratch(r: i32, n: usize): usize {
  return reserve(r, 0, n);
}

let queueCount: u32 = 0;

// Lays out the regions above the chunk `[chunkInput, end)`.
function chunkReset(end: usize, len: usize): void {
  regionsReset(align8(end));
  emitBase = reserve(R_EMIT, 0, 4096);
  emitCap = regionCap(R_EMIT);
  emitUsed = 0;
  queueCount = 0;
  internReset();
  pairsReset(len * 2 + (1 << 20));
  outReset(len * 2 + 1024);
}

// Whether `[p, e)` is blank: only ASCII whitespace that String.prototype.trim removes.
function blank(p: usize, e: usize): bool {
  while (p < e) {
    const c = load<u8>(p);
    if (c != 0x20 && (c < 0x09 || c > 0x0d)) return false;
    p++;
  }
  return true;
}

const PHASE_EXAMPLES: i32 = 0;
const PHASE_PROMPTS: i32 = 1;
const PHASE_GENERATIONS: i32 = 2;

// Runs one phase's line function over the chunk of `len` bytes at chunkInput.
function eachLine(len: u32, firstLine: u32, phase: i32): i32 {
  const start = chunkInput;
  const end = start + <usize> len;
  chunkRows = 0;
  if (!validUtf8(start, end)) {
    bailLine = firstLine;
    return BAIL_UTF8;
  }
  chunkReset(end, <usize> len);
  let p = start;
  let line = firstLine;
  while (p < end) {
    let nl = p;
    while (nl + 8 <= end) {
      const x = load<u64>(nl) ^ 0x0a0a0a0a0a0a0a0a;
      const m = (x - 0x0101010101010101) & ~x & 0x8080808080808080;
      if (m != 0) {
        nl += <usize> (ctz(m) >> 3);
        break;
      }
      nl += 8;
    }
    while (nl < end && load<u8>(nl) != 0x0a) nl++;
    let e = nl;
    if (e > p && load<u8>(e - 1) == 0x0d) e--;
    if (!blank(p, e)) {
      chunkRows++;
      let r: i32;
      if (phase == PHASE_EXAMPLES) r = example(p, e, line);
      else if (phase == PHASE_PROMPTS) r = prompt(p, e);
      else r = generation(p, e);
      if (r != K_OK) {
        bailLine = line;
        return r;
      }
    }
    line++;
    p = nl + 1;
  }
  nextLine = line;
  return K_OK;
}

// ---- Examples.

/** Reads a chunk of examples.jsonl: `len` bytes of whole lines, the first numbered `firstLine`. */
export function kExamples(len: u32, firstLine: u32): i32 {
  if (frozen) unreachable();
  setNames(S_EXAMPLE_ID, 10, S_LANGUAGE, 8, S_ROOT_ID, 7, S_TARGET, 6);
  const r = eachLine(len, firstLine, PHASE_EXAMPLES);
  if (r != K_OK) return r;
  // Move the chunk's entries down to the zone, over the dead input.
  memory.copy(entriesTop, emitBase, emitUsed);
  entriesTop += emitUsed;
  return K_OK;
}

// Decodes the string literal of field `k` to the emit region; its length, or -1 when the field
// is not a non-empty string without lone surrogates (or null when `nullable`: then -2).
function emitString(k: usize, nullable: bool): i32 {
  const s = fieldStart(k);
  if (s == 0) return nullable ? -2 : -1;
  const c = load<u8>(s);
  if (c != 0x22) return nullable && c == 0x6e ? -2 : -1;
  const e = fieldEnd(k);
  const n = decodeString(s, e, emitNeed(e - s));
  if (decodedLone || (n == 0 && !nullable)) return -1;
  emitUsed += n;
  return <i32> n;
}

// Whether the canonical text at output offsets `[p, e)` is a call object.
function isCall(p: usize, e: usize): bool {
  const base = outBase;
  // `{"arguments":{` ... `},"name":"` ... `"}`
  if (e - p < 27 || load<u64>(base + p) != 0x656d75677261227b || load<u32>(base + p + 8) != 0x2273746e) {
    return false;
  }
  if (load<u16>(base + p + 12) != 0x7b3a) return false;
  const a = skipValue(p + 13, e);
  if (a + 9 > e || load<u64>(base + a) != 0x3a22656d616e222c || load<u8>(base + a + 8) != 0x22) {
    return false;
  }
  const n = skipString(a + 8);
  return n - (a + 8) > 2 && n + 1 == e && load<u8>(base + n) == 0x7d;
}

// Why the canonical target at output offsets `[p, e)`, not one call, is dropped.
function dropKind(p: usize, e: usize): u32 {
  const base = outBase;
  if (load<u8>(base + p) != 0x5b) return MALFORMED_TARGET;
  if (e - p == 2) return EMPTY_TARGET;
  let count: u32 = 0;
  let calls = true;
  let q = p + 1;
  while (q < e - 1) {
    const r = skipValue(q, e - 1);
    if (!isCall(q, r)) calls = false;
    count++;
    q = r + 1; // past the comma (or onto the closing bracket)
  }
  return count >= 2 && calls ? MULTIPLE_CALLS : MALFORMED_TARGET;
}

/**
 * Writes the key of pair `j` of the pair table (path text, a NUL, value text)
 * at `o`, which has room for `room` bytes. Returns the key's length, or -1
 * when the path or value is left to the glue, or -2 when there is no room.
 */
function pairKey(j: usize, o: usize, room: usize): i32 {
  const w = pairsAddress() + j * 12;
  const leaf = leavesAddress() + <usize> load<u32>(w) * 12;
  const t = load<u32>(leaf, 4);
  if (t == 0xffff_ffff) return -1;
  const tn = <usize> (load<u32>(leaf, 8) - t);
  const a = load<u32>(w, 4);
  const b = load<u32>(w, 8);
  let v: usize;
  let vn: usize;
  if (b == 0xffff_fffe) {
    v = CONSTANT_TEXT + <usize> load<u8>(CONSTANT_AT + (<usize> a << 1));
    vn = <usize> load<u8>(CONSTANT_AT + (<usize> a << 1) + 1);
  } else if (b == 0xffff_ffff) {
    return -1;
  } else {
    v = outBase + <usize> a;
    vn = <usize> (b - a);
  }
  if (tn + 1 + vn > room) return -2;
  memory.copy(o, pathTextAddress() + <usize> t, tn);
  store<u8>(o + tn, 0);
  memory.copy(o + tn + 1, v, vn);
  return <i32> (tn + 1 + vn);
}

// Whether the output range `[a, b)` holds a float left to the glue.
function hasFloatMark(a: usize, b: usize): bool {
  for (let p = outBase + a; p < outBase + b; p++) {
    if (<u32> load<u8>(p) == FLOAT_MARK) return true;
  }
  return false;
}

// Appends pair keys `[first, first + count)` as (hash, length, bytes padded to 4): to the emit
// region when `emit` (advancing emitUsed), else to R_PRED from offset 0. Returns the bytes
// written, or -1 when a key is left to the glue (nothing is kept then).
function writeKeys(first: usize, count: u32, emit: bool): i32 {
  const start = emit ? emitUsed : 0;
  let at = start;
  for (let k: u32 = 0; k < count; k++) {
    let len: i32 = -2;
    let room: usize = 256;
    while (len == -2) {
      // `at` bytes of the region are in use: a move keeps them.
      let o: usize;
      if (emit) {
        emitUsed = at;
        o = emitNeed(8 + room);
      } else {
        o = reserve(R_PRED, at, at + 8 + room) + at;
      }
      len = pairKey(first + <usize> k, o + 8, room);
      if (len == -1) {
        if (emit) emitUsed = start;
        return -1;
      }
      if (len >= 0) {
        store<u32>(o, hashBytes(o + 8, <usize> len, 0x5eed));
        store<u32>(o, <u32> len, 4);
        at += 8 + align4(<usize> len);
      }
      room <<= 2;
    }
  }
  if (emit) emitUsed = at;
  return <i32> (at - start);
}

function example(s: usize, e: usize, line: u32): i32 {
  if (!scanObject(s, e, NAMES, 4)) return BAIL_LINE;
  const target = fieldStart(3);
  if (target == 0) return BAIL_FIELD;
  const at = emitUsed;
  emitNeed(E_DATA);
  emitUsed += E_DATA;
  const idLen = emitString(0, false);
  if (idLen < 0) return BAIL_FIELD;
  const langLen = emitString(1, false);
  if (langLen < 0) return BAIL_FIELD;
  const rootLen = emitString(2, true);
  if (rootLen == -1) return BAIL_FIELD;
  let kind = KEPT;
  let nameLen: usize = 0;
  let canonLen: usize = 0;
  let pairCount: u32 = 0;
  const c = load<u8>(target);
  if (c != 0x7b && c != 0x5b) {
    kind = MALFORMED_TARGET;
  } else {
    const end = fieldEnd(3);
    membersReset();
    setText(target, end, <u32> (end - target));
    if (findSpan(target, end) != SPAN_FOUND) return BAIL_LINE;
    const mark = outPos;
    if (parseValue(spanStart, spanEnd) == 0) return BAIL_LINE;
    if (!checkShape(mark, outPos)) {
      kind = dropKind(mark, outPos);
    } else {
      nameLen = nameEnd - nameStart;
      canonLen = argumentsEnd - argumentsStart;
      const o = emitNeed(nameLen + canonLen + 4);
      memory.copy(o, outBase + nameStart, nameLen);
      memory.copy(o + nameLen, outBase + argumentsStart, canonLen);
      emitUsed = align4(emitUsed + nameLen + canonLen);
      if (hasFloatMark(argumentsStart, argumentsEnd)) {
        kind = GOLD_TO_GLUE;
      } else {
        const first = pairsUsed / 3;
        pairCount = flatten(argumentsStart, argumentsEnd);
        if (writeKeys(first, pairCount, true) < 0) {
          kind = GOLD_TO_GLUE;
          pairCount = 0;
        }
      }
    }
  }
  emitNeed(4);
  emitUsed = align4(emitUsed);
  const h = emitBase + at;
  store<u32>(h + E_SIZE, <u32> (emitUsed - at));
  store<u32>(h + E_LINE, line);
  store<u32>(h + E_KIND, kind);
  store<u32>(h + E_ID, <u32> idLen);
  store<u32>(h + E_LANG, <u32> langLen);
  store<u32>(h + E_ROOT, rootLen == -2 ? NULL_ROOT : <u32> rootLen);
  store<u32>(h + E_NAME, <u32> nameLen);
  store<u32>(h + E_CANON, <u32> canonLen);
  store<u32>(h + E_PAIRS, pairCount);
  store<u32>(h + E_HASH, hashBytes(h + E_DATA, <usize> idLen, 0x1d));
  entryCount++;
  return K_OK;
}

// Entry accessors.
function idAddr(e: usize): usize {
  return e + E_DATA;
}

function langAddr(e: usize): usize {
  return idAddr(e) + <usize> load<u32>(e + E_ID);
}

function rootAddr(e: usize): usize {
  return langAddr(e) + <usize> load<u32>(e + E_LANG);
}

function nameAddr(e: usize): usize {
  const root = load<u32>(e + E_ROOT);
  return rootAddr(e) + (root == NULL_ROOT ? 0 : <usize> root);
}

function keysAddr(e: usize): usize {
  return align4(nameAddr(e) + <usize> load<u32>(e + E_NAME) + <usize> load<u32>(e + E_CANON));
}

// ---- Freezing: the tables.

function sameBytes(a: usize, an: usize, b: usize, bn: usize): bool {
  return an == bn && memory.compare(a, b, an) == 0;
}

/** Lays out the per-example tables after the entries; checks ids are unique. */
export function kFreeze(): i32 {
  let slots: u32 = 16;
  while (slots < entryCount * 2) slots <<= 1;
  let p = align8(entriesTop);
  entryAt = p;
  p += <usize> entryCount << 2;
  stateAt = p;
  p += <usize> entryCount << 2;
  recordAt = align8(p);
  p = recordAt + <usize> entryCount * RECORD_SIZE;
  promptAt = p;
  if (withPrompts) p += <usize> entryCount << 6;
  idTable = align8(p);
  idMask = slots - 1;
  p = idTable + (<usize> slots << 2);
  langTable = p;
  p += <usize> slots << 2;
  langFirst = p;
  p += <usize> entryCount << 2;
  growMemoryTo(<u64> p);
  memory.fill(stateAt, 0, <usize> entryCount << 2);
  memory.fill(recordAt, 0, <usize> entryCount * RECORD_SIZE);
  memory.fill(idTable, 0, <usize> slots << 3);
  frozenTop = p;
  frozen = true;
  let e = zone;
  for (let i: u32 = 0; i < entryCount; i++) {
    store<u32>(entryAt + (<usize> i << 2), <u32> e);
    // The id.
    const n = <usize> load<u32>(e + E_ID);
    let slot = load<u32>(e + E_HASH) & idMask;
    while (true) {
      const v = load<u32>(idTable + (<usize> slot << 2));
      if (v == 0) {
        store<u32>(idTable + (<usize> slot << 2), i + 1);
        break;
      }
      const o = <usize> load<u32>(entryAt + (<usize> (v - 1) << 2));
      if (sameBytes(idAddr(o), <usize> load<u32>(o + E_ID), idAddr(e), n)) {
        bailLine = load<u32>(e + E_LINE);
        return BAIL_DUPLICATE;
      }
      slot = (slot + 1) & idMask;
    }
    // The language.
    const l = langAddr(e);
    const ln = <usize> load<u32>(e + E_LANG);
    slot = hashBytes(l, ln, 0x1a) & idMask;
    while (true) {
      const v = load<u32>(langTable + (<usize> slot << 2));
      if (v == 0) {
        store<u32>(langTable + (<usize> slot << 2), langCount + 1);
        store<u32>(langFirst + (<usize> langCount << 2), <u32> e);
        store<u32>(e + E_LANG_INDEX, langCount);
        langCount++;
        break;
      }
      const o = <usize> load<u32>(langFirst + (<usize> (v - 1) << 2));
      if (sameBytes(langAddr(o), <usize> load<u32>(o + E_LANG), l, ln)) {
        store<u32>(e + E_LANG_INDEX, v - 1);
        break;
      }
      slot = (slot + 1) & idMask;
    }
    const kind = load<u32>(e + E_KIND) & 0xff;
    if (kind == KEPT) keptCount++;
    else store<u32>(DROPS + ((<usize> kind - 1) << 2), load<u32>(DROPS + ((<usize> kind - 1) << 2)) + 1);
    e += <usize> load<u32>(e + E_SIZE);
  }
  return K_OK;
}

// The example whose id is the `n` bytes at `p`, or -1.
function findId(p: usize, n: usize): i32 {
  let slot = hashBytes(p, n, 0x1d) & idMask;
  while (true) {
    const v = load<u32>(idTable + (<usize> slot << 2));
    if (v == 0) return -1;
    const e = <usize> load<u32>(entryAt + (<usize> (v - 1) << 2));
    if (sameBytes(idAddr(e), <usize> load<u32>(e + E_ID), p, n)) return <i32> (v - 1);
    slot = (slot + 1) & idMask;
  }
}

// The example named by field 0 (decoded to R_TEXT), or a negative BAIL code.
function lineExample(): i32 {
  const s = fieldStart(0);
  if (s == 0 || load<u8>(s) != 0x22) return -BAIL_FIELD;
  const e = fieldEnd(0);
  const t = scratch(R_TEXT, e - s);
  const n = decodeString(s, e, t);
  if (n == 0) return -BAIL_FIELD;
  if (decodedLone) return -BAIL_SURROGATE;
  const i = findId(t, n);
  return i < 0 ? -BAIL_UNKNOWN_ID : i;
}

// Whether field 1 is a string literal of 64 lowercase hex digits.
function digestField(): bool {
  const s = fieldStart(1);
  if (s == 0 || fieldEnd(1) - s != 66 || load<u8>(s) != 0x22) return false;
  for (let p = s + 1; p < s + 65; p++) {
    const c = <u32> load<u8>(p);
    if (c - 0x30 >= 10 && c - 0x61 >= 6) return false;
  }
  return true;
}

// ---- Prompts.

/** Reads a chunk of prompts.jsonl (after kFreeze). */
export function kPrompts(len: u32, firstLine: u32): i32 {
  if (!frozen) unreachable();
  setNames(S_EXAMPLE_ID, 10, S_PROMPT_SHA, 13, S_PROMPT, 6, 0, 0);
  return eachLine(len, firstLine, PHASE_PROMPTS);
}

function prompt(s: usize, e: usize): i32 {
  if (!scanObject(s, e, NAMES, 3)) return BAIL_LINE;
  if (!digestField()) return BAIL_DIGEST;
  const i = lineExample();
  if (i < 0) return -i;
  const st = stateAt + (<usize> i << 2);
  if ((load<u32>(st) & STATE_PROMPT) != 0) return BAIL_DUPLICATE;
  store<u32>(st, load<u32>(st) | STATE_PROMPT);
  memory.copy(promptAt + (<usize> i << 6), fieldStart(1) + 1, 64);
  const p = fieldStart(2);
  if (p != 0) {
    if (load<u8>(p) != 0x22) return BAIL_FIELD;
    const pe = fieldEnd(2);
    const t = scratch(R_TEXT, pe - p);
    const n = decodeString(p, pe, t);
    if (decodedLone) return BAIL_SURROGATE;
    if (!sha256Equals(t, n, fieldStart(1) + 1)) return BAIL_DIGEST;
  }
  return K_OK;
}

// ---- Generations.

/** Reads a chunk of generations.jsonl (after the prompts, if any). */
export function kGenerations(len: u32, firstLine: u32): i32 {
  if (!frozen) unreachable();
  setNames(S_EXAMPLE_ID, 10, S_PROMPT_SHA, 13, S_OUTPUT, 6, 0, 0);
  return eachLine(len, firstLine, PHASE_GENERATIONS);
}

/** The chunk's queue: `kQueueCount()` triples (example, output literal start, end). */
export function kQueue(): usize {
  return reserve(R_QUEUE, queueCount * 12, queueCount * 12);
}

export function kQueueCount(): u32 {
  return queueCount;
}

function enqueue(i: i32, s: usize, e: usize): void {
  const q = reserve(R_QUEUE, queueCount * 12, (queueCount + 1) * 12) + queueCount * 12;
  store<u32>(q, <u32> i);
  store<u32>(q, <u32> s, 4);
  store<u32>(q, <u32> e, 8);
  queueCount++;
}

function setRecord(i: u32, flags: u32, matched: u32, predicted: u32, gold: u32): void {
  const r = recordAt + <usize> i * RECORD_SIZE;
  store<u32>(r, flags | SET);
  store<u32>(r, matched, 4);
  store<u32>(r, predicted, 8);
  store<u32>(r, gold, 12);
}

/** Sets the record of a queued example, scored by the glue. */
export function kSetRecord(i: u32, status: u32, name: bool, args: bool, matched: u32, predicted: u32, gold: u32): void {
  setRecord(i, status | (name ? 0x100 : 0) | (args ? 0x200 : 0), matched, predicted, gold);
}

function generation(s: usize, e: usize): i32 {
  if (!scanObject(s, e, NAMES, 3)) return BAIL_LINE;
  if (!digestField()) return BAIL_DIGEST;
  const out = fieldStart(2);
  if (out == 0 || load<u8>(out) != 0x22) return BAIL_FIELD;
  const i = lineExample();
  if (i < 0) return -i;
  const st = stateAt + (<usize> i << 2);
  const state = load<u32>(st);
  if ((state & STATE_GENERATION) != 0) return BAIL_DUPLICATE;
  store<u32>(st, state | STATE_GENERATION);
  if (withPrompts) {
    if ((state & STATE_PROMPT) == 0) return BAIL_MISSING;
    if (memory.compare(promptAt + (<usize> i << 6), fieldStart(1) + 1, 64) != 0) return BAIL_DIGEST;
  }
  const entry = <usize> load<u32>(entryAt + (<usize> i << 2));
  const kind = load<u32>(entry + E_KIND);
  if (kind != KEPT) {
    if (kind == GOLD_TO_GLUE) enqueue(i, out, fieldEnd(2));
    return K_OK;
  }
  const gold = load<u32>(entry + E_PAIRS);
  const oe = fieldEnd(2);
  const t = scratch(R_TEXT, oe - out);
  const n = decodeString(out, oe, t);
  membersReset();
  setText(t, t + n, <u32> n);
  const span = findSpan(t, t + n);
  if (span == SPAN_NONE) {
    setRecord(i, STATUS_NO_JSON, 0, 0, gold);
    return K_OK;
  }
  if (span != SPAN_FOUND) {
    setRecord(i, STATUS_INVALID_JSON, 0, 0, gold);
    return K_OK;
  }
  const mark = outPos;
  if (parseValue(spanStart, spanEnd) == 0) {
    outRewind(mark);
    setRecord(i, STATUS_INVALID_JSON, 0, 0, gold);
    return K_OK;
  }
  if (!checkShape(mark, outPos)) {
    outRewind(mark);
    setRecord(i, STATUS_INVALID_SHAPE, 0, 0, gold);
    return K_OK;
  }
  if (hasFloatMark(argumentsStart, argumentsEnd)) {
    enqueue(i, out, oe);
    return K_OK;
  }
  const name = nameAddr(entry);
  const nameMatch = sameBytes(name, <usize> load<u32>(entry + E_NAME), outBase + nameStart, nameEnd - nameStart);
  const argsMatch = sameBytes(
    name + <usize> load<u32>(entry + E_NAME),
    <usize> load<u32>(entry + E_CANON),
    outBase + argumentsStart,
    argumentsEnd - argumentsStart,
  );
  const first = pairsUsed / 3;
  const predicted = flatten(argumentsStart, argumentsEnd);
  const bytes = writeKeys(first, predicted, false);
  if (bytes < 0) {
    enqueue(i, out, oe);
    return K_OK;
  }
  const matched = matchKeys(keysAddr(entry), gold, <usize> bytes);
  setRecord(i, STATUS_OK | (nameMatch ? 0x100 : 0) | (argsMatch ? 0x200 : 0), matched, predicted, gold);
  return K_OK;
}

// Counts the predicted keys (R_PRED, `bytes` long) that match a distinct gold key, each gold key
// used at most once: the size of the multiset intersection.
function matchKeys(gold: usize, count: u32, bytes: usize): u32 {
  if (count == 0) return 0;
  // A used flag per gold key, after the predicted keys.
  const pred = reserve(R_PRED, bytes, bytes + <usize> count);
  const used = pred + bytes;
  memory.fill(used, 0, <usize> count);
  let matched: u32 = 0;
  for (let p = pred; p < pred + bytes; ) {
    const h = load<u32>(p);
    const n = <usize> load<u32>(p, 4);
    let g = gold;
    for (let k: u32 = 0; k < count; k++) {
      const gn = <usize> load<u32>(g, 4);
      if (load<u8>(used + <usize> k) == 0 && load<u32>(g) == h && sameBytes(g + 8, gn, p + 8, n)) {
        store<u8>(used + <usize> k, 1);
        matched++;
        break;
      }
      g += 8 + align4(gn);
    }
    p += 8 + align4(n);
  }
  return matched;
}

// ---- Finishing.

let finishOut: usize = 0;
let finishLen: usize = 0;
let countsAt: usize = 0;

const REC_ID: usize = memory.data<u8>([0x20, 0x20, 0x20, 0x20, 0x7b, 0x22, 0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x5f, 0x69, 0x64, 0x22, 0x3a]);
const REC_LANG: usize = memory.data<u8>([0x2c, 0x22, 0x6c, 0x61, 0x6e, 0x67, 0x75, 0x61, 0x67, 0x65, 0x22, 0x3a]);
const REC_ROOT: usize = memory.data<u8>([0x2c, 0x22, 0x72, 0x6f, 0x6f, 0x74, 0x5f, 0x69, 0x64, 0x22, 0x3a]);
const REC_STATUS: usize = memory.data<u8>([0x2c, 0x22, 0x73, 0x74, 0x61, 0x74, 0x75, 0x73, 0x22, 0x3a]);
const REC_NAME: usize = memory.data<u8>([0x2c, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x5f, 0x6d, 0x61, 0x74, 0x63, 0x68, 0x22, 0x3a]);
const REC_ARGS: usize = memory.data<u8>([
  0x2c, 0x22, 0x61, 0x72, 0x67, 0x75, 0x6d, 0x65, 0x6e, 0x74, 0x73, 0x5f, 0x6d, 0x61, 0x74, 0x63, 0x68, 0x22, 0x3a,
]);
const REC_MATCHED: usize = memory.data<u8>([
  0x2c, 0x22, 0x6d, 0x61, 0x74, 0x63, 0x68, 0x65, 0x64, 0x5f, 0x70, 0x61, 0x69, 0x72, 0x73, 0x22, 0x3a,
]);
const REC_PREDICTED: usize = memory.data<u8>([
  0x2c, 0x22, 0x70, 0x72, 0x65, 0x64, 0x69, 0x63, 0x74, 0x65, 0x64, 0x5f, 0x70, 0x61, 0x69, 0x72, 0x73, 0x22, 0x3a,
]);
const REC_GOLD: usize = memory.data<u8>([0x2c, 0x22, 0x67, 0x6f, 0x6c, 0x64, 0x5f, 0x70, 0x61, 0x69, 0x72, 0x73, 0x22, 0x3a]);
const LIT_NULL: usize = memory.data<u8>([0x6e, 0x75, 0x6c, 0x6c]);
const LIT_TRUE: usize = memory.data<u8>([0x74, 0x72, 0x75, 0x65]);
const LIT_FALSE: usize = memory.data<u8>([0x66, 0x61, 0x6c, 0x73, 0x65]);
// The status literals, at (offset, length) STATUS_AT[status] in STATUS_TEXT.
const STATUS_TEXT: usize = memory.data<u8>([
  0x22, 0x6f, 0x6b, 0x22, 0x22, 0x6e, 0x6f, 0x5f, 0x6a, 0x73, 0x6f, 0x6e, 0x22, 0x22, 0x69, 0x6e,
  0x76, 0x61, 0x6c, 0x69, 0x64, 0x5f, 0x6a, 0x73, 0x6f, 0x6e, 0x22, 0x22, 0x69, 0x6e, 0x76, 0x61,
  0x6c, 0x69, 0x64, 0x5f, 0x73, 0x68, 0x61, 0x70, 0x65, 0x22,
]);
const STATUS_AT: usize = memory.data<u8>([0, 4, 4, 9, 13, 14, 27, 15]);

function put(o: usize, lit: usize, n: usize): usize {
  memory.copy(o, lit, n);
  return o + n;
}

function putBool(o: usize, b: bool): usize {
  return b ? put(o, LIT_TRUE, 4) : put(o, LIT_FALSE, 5);
}

function putDecimal(o: usize, x: u32): usize {
  let n: usize = 1;
  for (let y = x; y >= 10; y /= 10) n++;
  let e = o + n;
  do {
    e--;
    store<u8>(e, <u8> (0x30 + x % 10));
    x /= 10;
  } while (x != 0);
  return o + n;
}

/**
 * Checks that every kept example has its generation (and prompt), then writes
 * the records' JSON lines (joined by ",\n") and the counts per language.
 */
export function kFinish(): i32 {
  countsAt = align8(frozenTop);
  const countsBytes = <usize> langCount * <usize> COUNT_FIELDS << 3;
  regionsReset(align8(countsAt + countsBytes));
  memory.fill(countsAt, 0, countsBytes);
  emitBase = reserve(R_EMIT, 0, 1 << 16);
  emitCap = regionCap(R_EMIT);
  emitUsed = 0;
  let lines: u32 = 0;
  for (let i: u32 = 0; i < entryCount; i++) {
    const e = <usize> load<u32>(entryAt + (<usize> i << 2));
    if ((load<u32>(e + E_KIND) & 0xff) != KEPT) continue;
    const state = load<u32>(stateAt + (<usize> i << 2));
    if ((state & STATE_GENERATION) == 0 || (withPrompts && (state & STATE_PROMPT) == 0)) {
      bailLine = load<u32>(e + E_LINE);
      return BAIL_MISSING;
    }
    const r = recordAt + <usize> i * RECORD_SIZE;
    const flags = load<u32>(r);
    if ((flags & SET) == 0) {
      bailLine = load<u32>(e + E_LINE);
      return BAIL_UNSCORED;
    }
    const status = flags & 0xff;
    const nameMatch = (flags & 0x100) != 0;
    const argsMatch = (flags & 0x200) != 0;
    const matched = load<u32>(r, 4);
    const predicted = load<u32>(r, 8);
    const gold = load<u32>(r, 12);
    // Counts: n, ok, no_json, invalid_json, invalid_shape, name, args, full, matched, predicted, gold.
    const c = countsAt + (<usize> load<u32>(e + E_LANG_INDEX) * <usize> COUNT_FIELDS << 3);
    store<f64>(c, load<f64>(c) + 1);
    const s = c + ((1 + <usize> status) << 3);
    store<f64>(s, load<f64>(s) + 1);
    if (nameMatch) store<f64>(c, load<f64>(c, 40) + 1, 40);
    if (argsMatch) store<f64>(c, load<f64>(c, 48) + 1, 48);
    if (nameMatch && argsMatch) store<f64>(c, load<f64>(c, 56) + 1, 56);
    store<f64>(c, load<f64>(c, 64) + <f64> matched, 64);
    store<f64>(c, load<f64>(c, 72) + <f64> predicted, 72);
    store<f64>(c, load<f64>(c, 80) + <f64> gold, 80);
    // The line.
    const idn = <usize> load<u32>(e + E_ID);
    const ln = <usize> load<u32>(e + E_LANG);
    const root = load<u32>(e + E_ROOT);
    const rn: usize = root == NULL_ROOT ? 0 : <usize> root;
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
    o = root == NULL_ROOT ? put(o, LIT_NULL, 4) : writeJsonString(o, rootAddr(e), rn);
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
    emitUsed = o + 1 - emitBase;
  }
  finishOut = emitBase;
  finishLen = emitUsed;
  return K_OK;
}

/** The records' text kFinish wrote: its address. */
export function kRecordsText(): usize {
  return finishOut;
}

/** ... and its length. */
export function kRecordsLength(): usize {
  return finishLen;
}

/** The counts kFinish summed: langCount rows of COUNT_FIELDS f64. */
export function kCounts(): usize {
  return countsAt;
}

/** Language `k`'s bytes (address; its length is kLanguageLength). */
export function kLanguage(k: u32): usize {
  return langAddr(<usize> load<u32>(langFirst + (<usize> k << 2)));
}

export function kLanguageLength(k: u32): u32 {
  return load<u32>(<usize> load<u32>(langFirst + (<usize> k << 2)) + E_LANG);
}

/** Example `i`'s gold name literal and canonical arguments (address; kGoldLength, kNameLength). */
export function kGold(i: u32): usize {
  return nameAddr(<usize> load<u32>(entryAt + (<usize> i << 2)));
}

export function kNameLength(i: u32): u32 {
  return load<u32>(<usize> load<u32>(entryAt + (<usize> i << 2)) + E_NAME);
}

export function kGoldLength(i: u32): u32 {
  const e = <usize> load<u32>(entryAt + (<usize> i << 2));
  return load<u32>(e + E_NAME) + load<u32>(e + E_CANON);
}
