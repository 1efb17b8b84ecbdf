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

import {
  HEADER_INPUT,
  HEADER_LEAF_COUNT,
  HEADER_LEAVES,
  HEADER_LENGTHS,
  HEADER_NODES,
  HEADER_NODE_COUNT,
  HEADER_OFFSETS,
  HEADER_OUT,
  HEADER_OUT_LENGTH,
  HEADER_PAIRS,
  HEADER_PAIR_COUNT,
  HEADER_PATH_TEXT,
  HEADER_PATH_TEXT_LENGTH,
  HEADER_RESULTS,
  MODE_CANONICAL,
  MODE_FLATTEN,
  MODE_SPANS,
  MODE_TOOL_CALLS,
  MODE_TOOL_CALLS_PAIRS,
  RESULT_CANONICAL_END,
  RESULT_CANONICAL_START,
  RESULT_ERROR_CODE,
  RESULT_ERROR_OFFSET,
  RESULT_FIRST_PAIR,
  RESULT_NAME_END,
  RESULT_NAME_START,
  RESULT_PAIR_COUNT,
  RESULT_SPAN_END,
  RESULT_SPAN_START,
  RESULT_STATUS,
  RESULT_WORDS,
  STATUS_INVALID,
  STATUS_INVALID_SHAPE,
  STATUS_NO_JSON,
  STATUS_OK,
} from "./abi_engine";
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
  store<u32>(HEADER + (HEADER_OFFSETS << 2), <u32> offsets);
  store<u32>(HEADER + (HEADER_LENGTHS << 2), <u32> lengths);
  store<u32>(HEADER + (HEADER_INPUT << 2), <u32> inputBase);
  return HEADER;
}

/** Makes room for `inputCap` input bytes in the batch being written. */
export function reserveInput(inputCap: u32): void {
  growMemoryTo(<u64> inputBase + <u64> inputCap);
}

// Records an error in a result record.
function recordError(rec: usize, status: u32): void {
  store<u32>(rec + (RESULT_STATUS << 2), status);
  store<u32>(rec + (RESULT_ERROR_CODE << 2), <u32> errCode);
  store<u32>(rec + (RESULT_ERROR_OFFSET << 2), utf16Offset(errPos));
}

/** Processes the prepared batch in `mode`. */
export function run(mode: i32): void {
  const count = batchCount;
  const offsets = <usize> load<u32>(HEADER + (HEADER_OFFSETS << 2));
  const lengths = <usize> load<u32>(HEADER + (HEADER_LENGTHS << 2));
  const inputBytes = <usize> load<u32>(offsets + (<usize> count << 2));
  const results = align8(inputBase + inputBytes);
  const top = align8(results + <usize> count * (<usize> RESULT_WORDS << 2));
  growMemoryTo(<u64> top);
  memory.fill(results, 0, <usize> count * (<usize> RESULT_WORDS << 2));
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
    const rec = results + <usize> i * (<usize> RESULT_WORDS << 2);
    const start = inputBase + <usize> load<u32>(offsets + (<usize> i << 2));
    const end = inputBase + <usize> load<u32>(offsets + ((<usize> i + 1) << 2));
    setText(start, end, load<u32>(lengths + (<usize> i << 2)));
    membersReset();

    if (mode == MODE_SPANS || mode == MODE_TOOL_CALLS || mode == MODE_TOOL_CALLS_PAIRS) {
      const span = findSpan(start, end);
      if (span == SPAN_NONE) {
        store<u32>(rec + (RESULT_STATUS << 2), STATUS_NO_JSON);
        continue;
      }
      if (span != SPAN_FOUND) {
        recordError(rec, STATUS_INVALID);
        store<u32>(rec + (RESULT_SPAN_START << 2), utf16Offset(spanStart));
        continue;
      }
      if (mode == MODE_SPANS) {
        store<u32>(rec + (RESULT_STATUS << 2), STATUS_OK);
        store<u32>(rec + (RESULT_SPAN_START << 2), utf16Offset(spanStart));
        store<u32>(rec + (RESULT_SPAN_END << 2), utf16Offset(spanEnd));
        continue;
      }
      const mark = outPos;
      if (parseValue(spanStart, spanEnd) == 0) {
        recordError(rec, STATUS_INVALID);
        outRewind(mark);
        continue;
      }
      if (!checkShape(mark, outPos)) {
        store<u32>(rec + (RESULT_STATUS << 2), STATUS_INVALID_SHAPE);
        outRewind(mark);
        continue;
      }
      store<u32>(rec + (RESULT_STATUS << 2), STATUS_OK);
      store<u32>(rec + (RESULT_CANONICAL_START << 2), <u32> argumentsStart);
      store<u32>(rec + (RESULT_CANONICAL_END << 2), <u32> argumentsEnd);
      store<u32>(rec + (RESULT_NAME_START << 2), <u32> nameStart);
      store<u32>(rec + (RESULT_NAME_END << 2), <u32> nameEnd);
      if (mode == MODE_TOOL_CALLS_PAIRS) {
        store<u32>(rec + (RESULT_FIRST_PAIR << 2), <u32> pairsUsed);
        store<u32>(rec + (RESULT_PAIR_COUNT << 2), flatten(argumentsStart, argumentsEnd));
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
    store<u32>(rec + (RESULT_STATUS << 2), STATUS_OK);
    store<u32>(rec + (RESULT_CANONICAL_START << 2), <u32> mark);
    store<u32>(rec + (RESULT_CANONICAL_END << 2), <u32> outPos);
    if (mode == MODE_FLATTEN) {
      const first = pairsUsed;
      store<u32>(rec + (RESULT_FIRST_PAIR << 2), <u32> first);
      store<u32>(rec + (RESULT_PAIR_COUNT << 2), flatten(mark, outPos));
    }
  }

  store<u32>(HEADER + (HEADER_RESULTS << 2), <u32> results);
  store<u32>(HEADER + (HEADER_OUT << 2), <u32> outBase);
  store<u32>(HEADER + (HEADER_OUT_LENGTH << 2), <u32> outPos);
  store<u32>(HEADER + (HEADER_PAIRS << 2), pairs ? <u32> pairsAddress() : 0);
  store<u32>(HEADER + (HEADER_PAIR_COUNT << 2), pairs ? <u32> pairsUsed : 0);
  store<u32>(HEADER + (HEADER_NODES << 2), pairs ? <u32> nodes : 0);
  store<u32>(HEADER + (HEADER_NODE_COUNT << 2), pairs ? nodeCount : 0);
  store<u32>(HEADER + (HEADER_LEAVES << 2), pairs ? <u32> leavesAddress() : 0);
  store<u32>(HEADER + (HEADER_LEAF_COUNT << 2), pairs ? leafCount : 0);
  store<u32>(HEADER + (HEADER_PATH_TEXT << 2), pairs ? <u32> pathTextAddress() : 0);
  store<u32>(HEADER + (HEADER_PATH_TEXT_LENGTH << 2), pairs ? <u32> pathTextUsed : 0);
}
