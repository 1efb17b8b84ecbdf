// One batch: the JS glue writes every text into linear memory, then one call
// processes them all in one mode and leaves a result table, one ASCII output
// area and (for pairs) a word table.
//
// Header words (at the address `prepare` returns):
//   0 offsets table: count+1 u32 byte offsets of the texts, relative to the input
//   1 lengths table: count u32 UTF-16 lengths
//   2 input bytes
//   3 results: count records of RESULT_WORDS u32
//   4 output area, 5 its length in bytes
//   6 pair words, 7 their count
//   8 path nodes (see intern.ts), 9 their count
//  10 leaves (see flatten.ts), 11 their count
//  12, 13 unused (0)
//  14 path text, 15 its length in bytes
// Result record words:
//   0 status, 1 error code, 2 error offset (UTF-16), 3 span start, 4 span end,
//   5/6 canonical range (output offsets), 7/8 name literal range,
//   9 first pair word, 10 pair count (pair words: see flatten.ts)

import { membersReset } from "./canonical";
import {
  flatten,
  leafCount,
  leavesAddress,
  pairsAddress,
  pairsReset,
  pairsUsed,
  pathTextAddress,
  pathTextUsed,
} from "./flatten";
import { internReset, nodeCount, nodes } from "./intern";
import { parseDocument, parseValue } from "./json";
import {
  growMemoryTo,
  outBase,
  outPos,
  outReset,
  outRewind,
  regionsReset,
} from "./memory";
import { argumentsEnd, argumentsStart, checkShape, nameEnd, nameStart } from "./shape";
import { findSpan, SPAN_FOUND, SPAN_NONE, spanEnd, spanStart } from "./span";
import { errCode, errPos, setText, textEnd, textStart, utf16Offset } from "./text";

export const MODE_SPANS: i32 = 0;
export const MODE_TOOL_CALLS: i32 = 1;
export const MODE_TOOL_CALLS_PAIRS: i32 = 2;
export const MODE_CANONICAL: i32 = 3;
export const MODE_FLATTEN: i32 = 4;

export const STATUS_OK: u32 = 0; // found / ok
export const STATUS_NO_JSON: u32 = 1;
export const STATUS_INVALID: u32 = 2; // invalid_json / rejected
export const STATUS_INVALID_SHAPE: u32 = 3;

const RESULT_WORDS: usize = 12;
const HEADER: usize = memory.data(64);

let batchCount: u32 = 0;
let inputBase: usize = 0;

function align8(p: usize): usize {
  return (p + 7) & ~(<usize> 7);
}

/**
 * Lays out a batch of `count` texts with room for `inputCap` input bytes.
 * Returns the header address.
 */
export function prepare(count: u32, inputCap: u32): usize {
  const offsets = align8(__heap_base);
  const lengths = offsets + ((<usize> count + 1) << 2);
  inputBase = align8(lengths + (<usize> count << 2));
  growMemoryTo(<u64> inputBase + <u64> inputCap);
  batchCount = count;
  store<u32>(HEADER, <u32> offsets);
  store<u32>(HEADER, <u32> lengths, 4);
  store<u32>(HEADER, <u32> inputBase, 8);
  return HEADER;
}

/** Makes room for `inputCap` input bytes in the batch being written. */
export function reserveInput(inputCap: u32): void {
  growMemoryTo(<u64> inputBase + <u64> inputCap);
}

// Records an error in a result record.
function recordError(rec: usize, status: u32): void {
  store<u32>(rec, status);
  store<u32>(rec, <u32> errCode, 4);
  store<u32>(rec, utf16Offset(errPos), 8);
}

/** Processes the prepared batch in `mode`. */
export function run(mode: i32): void {
  const count = batchCount;
  const offsets = <usize> load<u32>(HEADER);
  const lengths = <usize> load<u32>(HEADER, 4);
  const inputBytes = <usize> load<u32>(offsets + (<usize> count << 2));
  const results = align8(inputBase + inputBytes);
  const top = align8(results + <usize> count * (RESULT_WORDS << 2));
  growMemoryTo(<u64> top);
  memory.fill(results, 0, <usize> count * (RESULT_WORDS << 2));
  regionsReset(top);
  const pairs = mode == MODE_TOOL_CALLS_PAIRS || mode == MODE_FLATTEN;
  if (pairs) {
    // Path texts may take twice the input, and 1 MiB more; the JS glue builds the other paths.
    pairsReset(<usize> inputBytes * 2 + (1 << 20));
    internReset();
  }
  // Last, so that the output (the region that grows most) is the topmost one.
  outReset(mode == MODE_SPANS ? 0 : inputBytes + 1024);

  for (let i: u32 = 0; i < count; i++) {
    const rec = results + <usize> i * (RESULT_WORDS << 2);
    const start = inputBase + <usize> load<u32>(offsets + (<usize> i << 2));
    const end = inputBase + <usize> load<u32>(offsets + ((<usize> i + 1) << 2));
    setText(start, end, load<u32>(lengths + (<usize> i << 2)));
    membersReset();

    if (mode == MODE_SPANS || mode == MODE_TOOL_CALLS || mode == MODE_TOOL_CALLS_PAIRS) {
      const span = findSpan(start, end);
      if (span == SPAN_NONE) {
        store<u32>(rec, STATUS_NO_JSON);
        continue;
      }
      if (span != SPAN_FOUND) {
        recordError(rec, STATUS_INVALID);
        store<u32>(rec, utf16Offset(spanStart), 12);
        continue;
      }
      if (mode == MODE_SPANS) {
        store<u32>(rec, STATUS_OK);
        store<u32>(rec, utf16Offset(spanStart), 12);
        store<u32>(rec, utf16Offset(spanEnd), 16);
        continue;
      }
      const mark = outPos;
      if (parseValue(spanStart, spanEnd) == 0) {
        recordError(rec, STATUS_INVALID);
        outRewind(mark);
        continue;
      }
      if (!checkShape(mark, outPos)) {
        store<u32>(rec, STATUS_INVALID_SHAPE);
        outRewind(mark);
        continue;
      }
      store<u32>(rec, STATUS_OK);
      store<u32>(rec, <u32> argumentsStart, 20);
      store<u32>(rec, <u32> argumentsEnd, 24);
      store<u32>(rec, <u32> nameStart, 28);
      store<u32>(rec, <u32> nameEnd, 32);
      if (mode == MODE_TOOL_CALLS_PAIRS) {
        store<u32>(rec, <u32> pairsUsed, 36);
        store<u32>(rec, flatten(argumentsStart, argumentsEnd), 40);
      }
      continue;
    }

    // MODE_CANONICAL, MODE_FLATTEN: the whole text is one document.
    const mark = outPos;
    if (!parseDocument(textStart, textEnd)) {
      recordError(rec, STATUS_INVALID);
      outRewind(mark);
      continue;
    }
    store<u32>(rec, STATUS_OK);
    store<u32>(rec, <u32> mark, 20);
    store<u32>(rec, <u32> outPos, 24);
    if (mode == MODE_FLATTEN) {
      const first = pairsUsed;
      store<u32>(rec, <u32> first, 36);
      store<u32>(rec, flatten(mark, outPos), 40);
    }
  }

  store<u32>(HEADER, <u32> results, 12);
  store<u32>(HEADER, <u32> outBase, 16);
  store<u32>(HEADER, <u32> outPos, 20);
  store<u32>(HEADER, pairs ? <u32> pairsAddress() : 0, 24);
  store<u32>(HEADER, pairs ? <u32> pairsUsed : 0, 28);
  store<u32>(HEADER, pairs ? <u32> nodes : 0, 32);
  store<u32>(HEADER, pairs ? nodeCount : 0, 36);
  store<u32>(HEADER, pairs ? <u32> leavesAddress() : 0, 40);
  store<u32>(HEADER, pairs ? leafCount : 0, 44);
  store<u32>(HEADER, 0, 48);
  store<u32>(HEADER, 0, 52);
  store<u32>(HEADER, pairs ? <u32> pathTextAddress() : 0, 56);
  store<u32>(HEADER, pairs ? <u32> pathTextUsed : 0, 60);
}
