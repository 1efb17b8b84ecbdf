// The scoring kernel: `assay score` on raw JSONL bytes (src/evaluation/_score_kernel.ts
// is its JS side; docs/evaluation.md describes the fast path).
//
// One instance runs one job, in phases: chunks of examples.jsonl (kExamples),
// kFreeze, chunks of prompts.jsonl (kPrompts), chunks of generations.jsonl
// (kGenerations), kFinish (score_records.ts). A chunk is whole lines, which
// the glue writes at the address kInput returns.
//
// Each example leaves an entry in a zone at the bottom of the heap (see
// score_entries.ts); kFreeze adds the tables that join prompts and
// generations to it, and later chunks go above those. Each generation is
// scored as it is read, into its example's entry; kFinish sums the entries and
// kRecords writes their records, a chunk at a time (score_records.ts).
//
// Every phase returns K_OK or a BAIL code: the kernel met something it does
// not read itself, from a malformed line to a broken invariant, and the glue
// reruns the files through the general reader, which gives the same report or
// words the error. So the kernel never words an error, and only has to be
// exact where it succeeds.

import { FIELDS, scanObject, skipWs } from "./jsonl";
import { hashBytes } from "./intern";
import {
  clearReplaced,
  decodeChecked,
  decodedLength,
  decodedLone,
  decodedReplaced,
  setReplaceInvalid,
} from "./jsonl_strings";
import { copyBytes, growMemoryTo, R_PRED, R_TEXT, reserve } from "./memory";
import {
  align8,
  bail,
  BAIL_DIGEST,
  BAIL_DUPLICATE,
  BAIL_FIELD,
  BAIL_LINE,
  BAIL_MISSING,
  BAIL_SURROGATE,
  BAIL_UNKNOWN_ID,
  chunkInput,
  chunkReset,
  emitBase,
  emitUsed,
  fieldEnd,
  fieldStart,
  frozen,
  jobReset,
  K_OK,
  NAMES,
  setChunkInput,
  setFrozen,
  setNames,
  valueOutput,
  withPrompts,
} from "./score_common";
import {
  DIGEST,
  DIGEST_BYTES,
  digestField,
  digestTo,
  E_DIGEST,
  entriesAppend,
  entriesReset,
  entriesTop,
  entryKind,
  entryLayout,
  entryWord,
  example,
  findId,
  idHash,
  freeze,
  goldBlock,
  idAddr,
  KEPT,
  likelyEntry,
  setEntryWord,
  STATE_GENERATION,
  STATE_PROMPT,
  tablesTop,
} from "./score_entries";
import { scoreOutput } from "./score_outputs";
import { extrasReset, mergeExtras, noteExtra } from "./score_extras";
import { bytesEqual, holdsByte } from "./bytes";
import { sha256EqualsMany } from "./sha256_x4";

/** The line after the last chunk's last line. */
export let nextLine: u32 = 1;
/** Non-blank lines of the last chunk. */
export let chunkRows: u32 = 0;
/** Generations whose output held invalid UTF-8, read with U+FFFD replacements. */
export let invalidOutputs: u32 = 0;

// Field names.
const S_EXAMPLE_ID: usize = memory.data<u8>([
  0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x5f, 0x69, 0x64,
]);
const S_LANGUAGE: usize = memory.data<u8>([0x6c, 0x61, 0x6e, 0x67, 0x75, 0x61, 0x67, 0x65]);
const S_ROOT_ID: usize = memory.data<u8>([0x72, 0x6f, 0x6f, 0x74, 0x5f, 0x69, 0x64]);
const S_TARGET: usize = memory.data<u8>([0x74, 0x61, 0x72, 0x67, 0x65, 0x74]);
const S_PROMPT_SHA: usize = memory.data<u8>([
  0x70, 0x72, 0x6f, 0x6d, 0x70, 0x74, 0x5f, 0x73, 0x68, 0x61, 0x32, 0x35, 0x36,
]);
const S_PROMPT: usize = memory.data<u8>([0x70, 0x72, 0x6f, 0x6d, 0x70, 0x74]);
const S_OUTPUT: usize = memory.data<u8>([0x6f, 0x75, 0x74, 0x70, 0x75, 0x74]);

/** Starts a job; `prompts` says whether a manifest is part of it. */
export function kStart(prompts: bool): void {
  jobReset(prompts);
  entryLayout(prompts);
  const zone = align8(__heap_base);
  growMemoryTo(<u64> zone + 8);
  entriesReset(zone);
  nextLine = 1;
  invalidOutputs = 0;
  extrasReset();
}

/** The address where the glue writes the next chunk, of up to `cap` bytes. */
export function kInput(cap: u32): usize {
  const at = align8(frozen ? tablesTop : entriesTop);
  setChunkInput(at);
  growMemoryTo(<u64> at + <u64> cap + 8);
  return at;
}

/** Whether `[p, e)` is blank: only ASCII whitespace that String.prototype.trim removes. */
export function blank(p: usize, e: usize): bool {
  while (p < e) {
    const c = load<u8>(p);
    if (c != 0x20 && (c < 0x09 || c > 0x0d)) return false;
    p++;
  }
  return true;
}

export const PHASE_EXAMPLES: i32 = 0;
export const PHASE_PROMPTS: i32 = 1;
export const PHASE_GENERATIONS: i32 = 2;

/** Sets the names a phase's lines are scanned for (see scanObject). */
// @ts-ignore: decorator
@inline export function phaseNames(phase: i32): void {
  if (phase == PHASE_EXAMPLES) {
    setNames(S_EXAMPLE_ID, 10, S_LANGUAGE, 8, S_ROOT_ID, 7, S_TARGET, 6);
  } else if (phase == PHASE_PROMPTS) {
    setNames(S_EXAMPLE_ID, 10, S_PROMPT_SHA, 13, S_PROMPT, 6, 0, 0);
  } else {
    setNames(S_EXAMPLE_ID, 10, S_PROMPT_SHA, 13, S_OUTPUT, 6, 0, 0);
  }
}

// Runs one phase's line function over the chunk of `len` bytes at chunkInput. A line is read
// where it starts: its object is scanned up to its end, and only whitespace may follow it.
function eachLine(len: u32, firstLine: u32, phase: i32): i32 {
  const start = chunkInput;
  const end = start + <usize> len;
  const count = phase == PHASE_EXAMPLES ? 4 : 3;
  chunkRows = 0;
  chunkReset(end, <usize> len);
  // The output or prompt of a line is decoded here as it is scanned, one after the other; an
  // output's invalid UTF-8 is replaced, up to three bytes for one.
  const replacing = phase == PHASE_GENERATIONS;
  const room = replacing ? 3 * <usize> len : <usize> len;
  const textAt = reserve(R_TEXT, 0, room + 16 + (BATCH_LINES << 3));
  let textUsed: usize = 0;
  batched = 0;
  let p = start;
  let line = firstLine;
  while (p < end) {
    const q = skipWs(p, end);
    if (q >= end) break; // a blank last line
    const c = load<u8>(q);
    if (c == 0x0a) {
      line++;
      p = q + 1;
      continue;
    }
    if (c != 0x7b) {
      // Blank if only whitespace is left of the line (a vertical tab, a form feed).
      let r = q;
      while (r < end && load<u8>(r) != 0x0a) r++;
      if (!blank(q, r)) return bail(BAIL_LINE, line);
      line++;
      p = r + 1;
      continue;
    }
    const text = phase == PHASE_EXAMPLES ? textAt : textAt + textUsed;
    // An example's target (field 3) is parsed to canonical text as it is scanned (scanObject's
    // `skip` member); example() reads that text, and a container target that did not parse gives
    // the run back.
    clearReplaced();
    setReplaceInvalid(replacing);
    // A generation's output written as a JSON value is parsed as it is scanned too (the `skip`
    // member), and read as its canonical text (valueOutput).
    const o = phase == PHASE_EXAMPLES
      ? scanObject(q, end, NAMES, count, -1, text, 3)
      : scanObject(q, end, NAMES, count, 2, text, replacing ? 2 : -1);
    setReplaceInvalid(false);
    if (o == 0) return bail(BAIL_LINE, line);
    const r = skipWs(o, end);
    if (r < end && load<u8>(r) != 0x0a) return bail(BAIL_LINE, line);
    chunkRows++;
    if (phase == PHASE_EXAMPLES) {
      const code = example(q, r, line);
      if (code != K_OK) return bail(code, line);
    } else {
      // Prompts and generations are joined to their examples a batch at a time (see flush).
      const rec = BATCH + <usize> batched * LINE_BYTES;
      copyBytes(rec, FIELDS, 24);
      store<u32>(rec, line, 24);
      let length = decodedLength;
      let flags: u32 = (decodedLone ? 1 : 0) | (decodedReplaced ? 2 : 0);
      const value = replacing ? valueOutput(text) : -1;
      if (value >= 0) {
        length = <usize> value;
        flags = 4;
      }
      store<u32>(rec, <u32> text, 28);
      store<u32>(rec, <u32> length, 32);
      store<u32>(rec, flags, 36);
      textUsed += (length + 7) & ~(<usize> 7);
      batched++;
      if (batched == BATCH_LINES) {
        const code = flush(phase);
        if (code != K_OK) return code;
        textUsed = 0;
      }
    }
    line++;
    p = r + 1;
  }
  if (batched > 0) {
    const code = flush(phase);
    if (code != K_OK) return code;
  }
  nextLine = line;
  return K_OK;
}

// Prompt and generation lines wait in a batch, each as LINE_BYTES: its six field words
// (FIELDS), its line, its decoded output or prompt (address, length, and 1 for a lone
// surrogate | 2 for replaced UTF-8 | 4 for an output's canonical text), and the hash of its id's
// raw bytes (flush's guess).
const BATCH_LINES: u32 = 32;
const LINE_BYTES: usize = 44;
const BATCH: usize = memory.data(<i32> (<usize> BATCH_LINES * LINE_BYTES));
let batched: u32 = 0;
// The loads of flush's first two passes go here, so they are not optimized away.
let touched: u32 = 0;
// The line being joined: its decoded output or prompt.
let lineText: usize = 0;
let lineTextLength: usize = 0;
let lineLone: bool = false;
let lineReplaced: bool = false;
let lineValue: bool = false; // an output written as a JSON value: the text is its canonical text
let lineHash: u32 = 0; // of its id's raw bytes

/**
 * Joins the batched lines to their examples and reads them. The joins read
 * memory at random (the id table, then the entries), so two first passes load
 * what each line's lookup will read, one load after the other: their cache
 * misses overlap, instead of each line waiting for its own. The prompts the lines carry are
 * hashed together once the lines' other checks are done (sha256_x4.ts, four at a time), and the
 * bail is the first failing line's, as if each prompt had been hashed as its line was read.
 */
function flush(phase: i32): i32 {
  const n = batched;
  batched = 0;
  let sink: u32 = 0;
  for (let k: u32 = 0; k < n; k++) {
    const rec = BATCH + <usize> k * LINE_BYTES;
    const s = <usize> load<u32>(rec);
    const e = <usize> load<u32>(rec, 4);
    // The id's raw bytes: escapes are rare, and a wrong guess only costs the touch.
    store<u32>(rec, 0, 40); // no guess
    if (s == 0 || e - s < 2) continue;
    const h = idHash(s + 1, e - s - 2);
    store<u32>(rec, h, 40);
    sink ^= <u32> likelyEntry(h);
  }
  for (let k: u32 = 0; k < n; k++) {
    const rec = BATCH + <usize> k * LINE_BYTES;
    const h = load<u32>(rec, 40);
    if (h == 0) continue;
    const entry = likelyEntry(h);
    // A prompt reads the entry's words, digest and id; a generation its gold block too.
    const far = phase == PHASE_PROMPTS ? idAddr(entry) : goldBlock(entry);
    if (entry != 0) sink ^= load<u32>(entry) ^ load<u32>(far);
  }
  touched ^= sink;
  hashCount = 0;
  extraDigests = 0;
  let code = K_OK;
  let line: u32 = 0;
  for (let k: u32 = 0; k < n; k++) {
    const rec = BATCH + <usize> k * LINE_BYTES;
    copyBytes(FIELDS, rec, 24);
    line = load<u32>(rec, 24);
    lineText = <usize> load<u32>(rec, 28);
    lineHash = load<u32>(rec, 40);
    lineTextLength = <usize> load<u32>(rec, 32);
    const flags = load<u32>(rec, 36);
    lineLone = (flags & 1) != 0;
    lineReplaced = (flags & 2) != 0;
    lineValue = (flags & 4) != 0;
    code = phase == PHASE_PROMPTS ? prompt(line) : generation();
    if (code != K_OK) break;
  }
  // The prompts of the lines read so far are hashed together; the first that does not match
  // comes before the line that stopped the loop, if any, as it would have stopped it first.
  if (hashCount > 0 && sha256EqualsMany(hashCount, HASHES) != 0) {
    for (let j: usize = 0; j < <usize> hashCount; j++) {
      if (load<u32>(HASHES + (j << 4), 12) == 0) {
        return bail(BAIL_DIGEST, load<u32>(HASH_LINES + (j << 2)));
      }
    }
  }
  return code == K_OK ? K_OK : bail(code, line);
}

// ---- Examples.

/** Reads a chunk of examples.jsonl: `len` bytes of whole lines, the first numbered `firstLine`. */
export function kExamples(len: u32, firstLine: u32): i32 {
  if (frozen) unreachable();
  phaseNames(PHASE_EXAMPLES);
  const r = eachLine(len, firstLine, PHASE_EXAMPLES);
  if (r != K_OK) return r;
  entriesAppend(emitBase, emitUsed);
  return K_OK;
}

/** Ends the examples: checks ids are unique and lays out the tables. */
export function kFreeze(): i32 {
  const r = freeze();
  setFrozen();
  return r;
}

// The entry of the example named by field 0, or 0 with `lineBail` set. Without an escape, the
// literal's bytes (which the line scan checked) are the id, and flush hashed them; else the id is
// decoded to R_PRED.
let lineBail: i32 = 0;
// The id lineEntry read last: its bytes, their length and their id hash.
let lineIdAt: usize = 0;
let lineIdLength: usize = 0;
let lineIdHash: u32 = 0;
function lineEntry(): usize {
  const s = fieldStart(0);
  lineBail = BAIL_FIELD;
  if (s == 0 || load<u8>(s) != 0x22) return 0;
  const e = fieldEnd(0);
  let t = s + 1;
  let n = e - s - 2;
  let h = lineHash;
  let lone = false;
  if (holdsByte(t, n, 0x5c)) {
    t = reserve(R_PRED, 0, e - s + 16);
    decodeChecked(s, e, t);
    n = decodedLength;
    lone = decodedLone;
    h = idHash(t, n);
  }
  if (n == 0) return 0;
  lineBail = BAIL_SURROGATE;
  if (lone) return 0;
  lineBail = BAIL_UNKNOWN_ID;
  lineIdAt = t;
  lineIdLength = n;
  lineIdHash = h;
  return findId(t, n, h);
}

// ---- Prompts.

/** Reads a chunk of prompts.jsonl (after kFreeze). */
export function kPrompts(len: u32, firstLine: u32): i32 {
  if (!frozen || !withPrompts) unreachable();
  phaseNames(PHASE_PROMPTS);
  const r = eachLine(len, firstLine, PHASE_PROMPTS);
  // A repeated id among the chunk's rows of no example is found once the chunk is read: the
  // chunk's first line stands for its line.
  return r != K_OK || mergeExtras() ? r : bail(BAIL_DUPLICATE, firstLine);
}

// The prompts of a batch, to be checked against their digests together (see flush): per prompt
// its text's address and length, the address of its digest and the word sha256EqualsMany sets;
// and its line.
const HASHES: usize = memory.data(<i32> (<usize> BATCH_LINES << 4));
const HASH_LINES: usize = memory.data(<i32> (<usize> BATCH_LINES << 2));
let hashCount: u32 = 0;

// The digests of the batch's manifest rows of no example, for the check of their prompts.
const EXTRA_DIGESTS: usize = memory.data(<i32> (<usize> BATCH_LINES << 5));
let extraDigests: u32 = 0;

function prompt(line: u32): i32 {
  if (!digestField()) return BAIL_DIGEST;
  const entry = lineEntry();
  let digest: usize;
  if (entry == 0) {
    // A row whose id is no example's is checked as the others are, and its id noted (see
    // score_extras.ts); nothing else of it is kept.
    if (lineBail != BAIL_UNKNOWN_ID) return lineBail;
    noteExtra(lineIdAt, lineIdLength, lineIdHash);
    digest = EXTRA_DIGESTS + (<usize> extraDigests << 5);
    extraDigests++;
  } else {
    const word = entryWord(entry);
    if ((word & STATE_PROMPT) != 0) return BAIL_DUPLICATE;
    setEntryWord(entry, word | STATE_PROMPT);
    digest = entry + E_DIGEST;
  }
  digestTo(digest);
  const p = fieldStart(2);
  if (p != 0) {
    // The prompt was decoded as the line was scanned.
    if (load<u8>(p) != 0x22) return BAIL_FIELD;
    if (lineLone) return BAIL_SURROGATE;
    // Its digest (now in the entry, or with the batch's) is checked when the batch is flushed.
    const h = HASHES + (<usize> hashCount << 4);
    store<u32>(h, <u32> lineText);
    store<u32>(h, <u32> lineTextLength, 4);
    store<u32>(h, <u32> digest, 8);
    store<u32>(HASH_LINES + (<usize> hashCount << 2), line);
    hashCount++;
  }
  return K_OK;
}

// ---- Generations.

/** Reads a chunk of generations.jsonl (after the prompts, if any). */
export function kGenerations(len: u32, firstLine: u32): i32 {
  if (!frozen) unreachable();
  phaseNames(PHASE_GENERATIONS);
  return eachLine(len, firstLine, PHASE_GENERATIONS);
}

function generation(): i32 {
  // The output was decoded as the line was scanned.
  const n = lineTextLength;
  if (!digestField()) return BAIL_DIGEST;
  const out = fieldStart(2);
  if (out == 0 || (load<u8>(out) != 0x22 && !lineValue)) return BAIL_FIELD;
  const entry = lineEntry();
  if (entry == 0) return lineBail;
  const word = entryWord(entry);
  if ((word & STATE_GENERATION) != 0) return BAIL_DUPLICATE;
  // With a manifest, every prompt was read: the generation names the digest of its prompt's row.
  if (withPrompts) {
    if ((word & STATE_PROMPT) == 0) return BAIL_MISSING;
    if (!bytesEqual(entry + E_DIGEST, DIGEST, DIGEST_BYTES)) return BAIL_DIGEST;
  }
  setEntryWord(entry, word | STATE_GENERATION);
  if (lineReplaced) invalidOutputs++;
  if (entryKind(entry) == KEPT) scoreOutput(entry, lineText, n);
  return K_OK;
}
