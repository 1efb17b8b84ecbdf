// What the scoring kernel's parts share (see score.ts): codes, the named
// fields of a line and the per-chunk regions (pairs: score_pairs.ts).

import { pairsReset } from "./flatten";
import { internReset } from "./intern";
import { FIELDS, skipMark, skipParsed } from "./jsonl";
import { decodedReplaced } from "./jsonl_strings";
import {
  copyBytes,
  outBase,
  outPos,
  outReset,
  outRewind,
  R_EMIT,
  R_LEAVES,
  R_NODES,
  R_PAIRS,
  R_PATH_TEXT,
  R_PRED,
  R_TEXT,
  regionCap,
  regionsReset,
  reserve,
} from "./memory";
import { bytesEqual } from "./bytes";

// What a phase returns: see abi_kernel.ts.
export {
  BAIL_DIGEST,
  BAIL_DUPLICATE,
  BAIL_FIELD,
  BAIL_LINE,
  BAIL_MISSING,
  BAIL_SURROGATE,
  BAIL_UNKNOWN_ID,
  K_OK,
} from "./abi_kernel";

/** The line of the last bail (1-based), or 0. */
export let bailLine: u32 = 0;

/** Whether a manifest is part of the job. */
export let withPrompts: bool = false;
/** Whether the examples are frozen (the tables laid out). */
export let frozen: bool = false;
/** Where the glue wrote the last chunk (see kInput). */
export let chunkInput: usize = 0;

/** Starts a job. */
export function jobReset(prompts: bool): void {
  withPrompts = prompts;
  frozen = false;
}

/** The examples are frozen. */
export function setFrozen(): void {
  frozen = true;
}

/** The next chunk goes at `at`. */
export function setChunkInput(at: usize): void {
  chunkInput = at;
}

/** Records where a phase gave up; returns `code`. */
export function bail(code: i32, line: u32): i32 {
  bailLine = line;
  return code;
}

export function align8(p: usize): usize {
  return (p + 7) & ~(<usize> 7);
}

export function align4(p: usize): usize {
  return (p + 3) & ~(<usize> 3);
}

export function sameBytes(a: usize, an: usize, b: usize, bn: usize): bool {
  return an == bn && bytesEqual(a, b, an);
}

// ---- Named fields: up to four names (u32 address, u32 length each).

/** The names the line scan looks for (see jsonl.ts `scanObject`). */
export const NAMES: usize = memory.data(4 * 8);

/** Sets the names the next lines are scanned for. */
export function setNames(
  a: usize,
  an: u32,
  b: usize,
  bn: u32,
  c: usize,
  cn: u32,
  d: usize,
  dn: u32,
): void {
  store<u32>(NAMES, <u32> a);
  store<u32>(NAMES, an, 4);
  store<u32>(NAMES, <u32> b, 8);
  store<u32>(NAMES, bn, 12);
  store<u32>(NAMES, <u32> c, 16);
  store<u32>(NAMES, cn, 20);
  store<u32>(NAMES, <u32> d, 24);
  store<u32>(NAMES, dn, 28);
}

/** Where the value of named field `k` starts (0 when the line has none). */
export function fieldStart(k: usize): usize {
  return <usize> load<u32>(FIELDS + (k << 3));
}

/** Where it ends. */
export function fieldEnd(k: usize): usize {
  return <usize> load<u32>(FIELDS + (k << 3), 4);
}

/**
 * The output of the generation line just scanned, when it is written as a JSON object or array
 * (an API's whole response): the general reader scores its canonical text as the output's text,
 * and so does the kernel. The line scan parsed the value (scanObject's `skip` member) into the
 * output region; its canonical text is copied to `text`, where a string output is decoded, and the
 * region is rewound. Returns the text's length, or -1 when the output is not such a value or the
 * kernel does not read it: the parser refused its raw bytes, a string `output` member before it
 * had invalid UTF-8 (the general reader counts that line), or its canonical text is longer than
 * three times its bytes (`1e15` is `1000000000000000.0`), more than the text region keeps for it.
 */
export function valueOutput(text: usize): i32 {
  const s = fieldStart(2);
  if (s == 0) return -1;
  const c = load<u8>(s);
  if (c != 0x7b && c != 0x5b) return -1;
  const n = outPos - skipMark;
  outRewind(skipMark);
  if (!skipParsed || decodedReplaced || n > 3 * (fieldEnd(2) - s)) return -1;
  copyBytes(text, outBase + skipMark, n);
  return <i32> n;
}

// ---- The emit region: a chunk's entries, or the records' text.

export let emitBase: usize = 0;
export let emitUsed: usize = 0;
let emitCap: usize = 0;

/** Room for `n` more bytes; returns the address of the first (emitBase + emitUsed). */
export function emitNeed(n: usize): usize {
  if (emitUsed + n > emitCap) {
    emitBase = reserve(R_EMIT, emitUsed, emitUsed + n);
    emitCap = regionCap(R_EMIT);
  }
  return emitBase + emitUsed;
}

/** Sets the bytes in use. */
export function emitSet(used: usize): void {
  emitUsed = used;
}

/** Empties the emit region, with room for `cap` bytes. */
export function emitReset(cap: usize): void {
  emitBase = reserve(R_EMIT, 0, cap);
  emitCap = regionCap(R_EMIT);
  emitUsed = 0;
}

/**
 * Lays out every region, empty, above `end`, for a chunk of `len` bytes: with
 * room enough that few of them grow, since a region that grows moves.
 */
export function chunkReset(end: usize, len: usize): void {
  regionsReset(align8(end));
  emitReset(2 * len + 4096);
  reserve(R_TEXT, 0, 1 << 16);
  reserve(R_PRED, 0, 1 << 16);
  // The pair and path regions start as large as a chunk usually needs (internReset and
  // pairsReset keep a region that is larger than they ask for).
  reserve(R_NODES, 0, len);
  reserve(R_PAIRS, 0, len >> 1);
  reserve(R_LEAVES, 0, len >> 2);
  reserve(R_PATH_TEXT, 0, len >> 1);
  internReset();
  pairsReset(len * 2 + (1 << 20));
  outReset(len * 2 + 1024);
}
