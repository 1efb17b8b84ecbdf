// The scoring kernel's verdict on one output (see score.ts): its parse status,
// and, when it is one call, whether its name and canonical arguments are the
// gold's and how many pairs the two share.

import { membersReset } from "./canonical";
import { parseValue } from "./json";
import { outBase, outPos, outRewind } from "./memory";
import { sameBytes } from "./score_common";
import { predictedPairs, sharedPairs } from "./score_pairs";
import {
  ARGS_MATCH,
  E_MATCHED,
  E_PREDICTED,
  entryWord,
  goldBlock,
  goldCanon,
  goldCanonLength,
  goldName,
  goldNameLength,
  goldPairs,
  NAME_MATCH,
  setEntryWord,
  STATUS_SHIFT,
} from "./score_entries";
import { argumentsEnd, argumentsStart, checkShape, nameEnd, nameStart } from "./shape";
import { firstBracket } from "./span";
import { setText } from "./text";

const STATUS_OK: u32 = 0;
const STATUS_NO_JSON: u32 = 1;
const STATUS_INVALID_JSON: u32 = 2;
const STATUS_INVALID_SHAPE: u32 = 3;

/**
 * Sets entry's record: its parse status, whether the name and the arguments match, and the
 * matched and predicted pairs (the gold's pairs are its gold block's).
 */
export function setRecord(entry: usize, status: u32, flags: u32, matched: u32, predicted: u32): void {
  setEntryWord(entry, entryWord(entry) | (status << STATUS_SHIFT) | flags);
  store<u32>(entry + E_MATCHED, matched);
  store<u32>(entry + E_PREDICTED, predicted);
}

// Parsing from the span's first bracket to the end of the text accepts exactly when the span
// (from there to the bracket that balances it, strings skipped) parses: a JSON value ends where
// its brackets balance, and its strings are skipped alike. So the kernel parses from the bracket
// and leaves span.ts's bracket-balancing scan out.

/** Scores entry's output, decoded to `[t, t + n)`, into its record. */
export function scoreOutput(entry: usize, t: usize, n: usize): void {
  const g = goldBlock(entry);
  const gold = goldPairs(g);
  membersReset();
  setText(t, t + n, <u32> n);
  const start = firstBracket(t, t + n);
  if (start == t + n) {
    setRecord(entry, STATUS_NO_JSON, 0, 0, 0);
    return;
  }
  const mark = outPos;
  if (parseValue(start, t + n) == 0) {
    outRewind(mark);
    setRecord(entry, STATUS_INVALID_JSON, 0, 0, 0);
    return;
  }
  if (!checkShape(mark, outPos)) {
    outRewind(mark);
    setRecord(entry, STATUS_INVALID_SHAPE, 0, 0, 0);
    return;
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
  // Equal canonical arguments share every pair; otherwise their pairs are compared (sharedPairs).
  let predicted = gold;
  let matched = gold;
  if (!argsMatch) {
    matched = sharedPairs(argumentsStart, argumentsEnd, goldCanon(g), goldCanonLength(g));
    predicted = predictedPairs;
  }
  const flags = (nameMatch ? NAME_MATCH : 0) | (argsMatch ? ARGS_MATCH : 0);
  setRecord(entry, STATUS_OK, flags, matched, predicted);
}
