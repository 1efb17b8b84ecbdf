// The scoring kernel's verdict on one output (see score.ts): its parse status,
// and, when it is one call, whether its name and canonical arguments are the
// gold's and how many pairs the two share.

import { membersReset } from "./canonical";
import { parseValue } from "./json";
import { outBase, outPos, outRewind } from "./memory";
import { predictedPairs, sameBytes, sharedPairs } from "./score_common";
import {
  goldBlock,
  goldCanon,
  goldCanonLength,
  goldName,
  goldNameLength,
  goldPairs,
  R_RECORD,
  resultOf,
  SET,
} from "./score_entries";
import { argumentsEnd, argumentsStart, checkShape, nameEnd, nameStart } from "./shape";
import { firstBracket } from "./span";
import { setText } from "./text";

const STATUS_OK: u32 = 0;
const STATUS_NO_JSON: u32 = 1;
const STATUS_INVALID_JSON: u32 = 2;
const STATUS_INVALID_SHAPE: u32 = 3;

/** Sets entry's record: its flags (status, name << 8, arguments << 9) and pair counts. */
export function setRecord(entry: usize, flags: u32, matched: u32, predicted: u32, gold: u32): void {
  const r = resultOf(entry) + R_RECORD;
  store<u32>(r, flags | SET);
  store<u32>(r, matched, 4);
  store<u32>(r, predicted, 8);
  store<u32>(r, gold, 12);
}

// Parsing from the span's first bracket to the end of the text accepts exactly when the span
// (from there to the bracket that balances it, strings skipped) parses: a JSON value ends where
// its brackets balance, and its strings are skipped alike. So the kernel parses from the bracket
// and leaves span.ts's bracket-balancing scan out.

// Scores entry's output, decoded to `[t, t + n)`; false when it is left to the glue.
export function scoreOutput(entry: usize, t: usize, n: usize): bool {
  const g = goldBlock(entry);
  const gold = goldPairs(g);
  membersReset();
  setText(t, t + n, <u32> n);
  const start = firstBracket(t, t + n);
  if (start == t + n) {
    setRecord(entry, STATUS_NO_JSON, 0, 0, gold);
    return true;
  }
  const mark = outPos;
  if (parseValue(start, t + n) == 0) {
    outRewind(mark);
    setRecord(entry, STATUS_INVALID_JSON, 0, 0, gold);
    return true;
  }
  if (!checkShape(mark, outPos)) {
    outRewind(mark);
    setRecord(entry, STATUS_INVALID_SHAPE, 0, 0, gold);
    return true;
  }
  const nameMatch = sameBytes(
    goldName(g),
    goldNameLength(g),
    outBase + nameStart,
    nameEnd - nameStart,
  );
  const argsMatch = sameBytes(
    goldCanon(g),
    goldCanonLength(g),
    outBase + argumentsStart,
    argumentsEnd - argumentsStart,
  );
  // Equal canonical arguments share every pair; otherwise both sides are flattened and matched.
  let predicted = gold;
  let matched = gold;
  if (!argsMatch) {
    const shared = sharedPairs(
      argumentsStart,
      argumentsEnd,
      goldCanon(g),
      goldCanonLength(g),
      gold,
    );
    if (shared < 0) return false;
    matched = <u32> shared;
    predicted = predictedPairs;
  }
  const flags = STATUS_OK | (nameMatch ? 0x100 : 0) | (argsMatch ? 0x200 : 0);
  setRecord(entry, flags, matched, predicted, gold);
  return true;
}
