// The call shape (CONTRACT §1), checked on canonical text: keys are sorted and
// unique there, so a call is exactly `{"arguments":{...},"name":"..."}`,
// possibly as the only element of an array.

import {
  lastObjectEnd,
  lastObjectFirstEnd,
  lastObjectMembers,
  lastObjectStart,
} from "./canonical";
import { outBase } from "./memory";
import { bytesEqual } from "./bytes";

// `{"arguments":{` and `,"name":"`.
const ARGUMENTS_PREFIX: usize = memory.data<u8>([
  0x7b,
  0x22,
  0x61,
  0x72,
  0x67,
  0x75,
  0x6d,
  0x65,
  0x6e,
  0x74,
  0x73,
  0x22,
  0x3a,
  0x7b,
]);
const NAME_PREFIX: usize = memory.data<u8>([0x2c, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22]);

/** Output range of the `arguments` object, when the shape is a call. */
export let argumentsStart: usize = 0;
export let argumentsEnd: usize = 0;
/** Output range of the name's string literal (quotes included). */
export let nameStart: usize = 0;
export let nameEnd: usize = 0;

// Whether the output at offset `p` (before `end`) starts with the `n` bytes at `lit`.
function startsWith(p: usize, end: usize, lit: usize, n: usize): bool {
  return p + n <= end && bytesEqual(outBase + p, lit, n);
}

/**
 * Checks the canonical value the parser just wrote at output offsets
 * `[start, end)`, from what it recorded of the last object it closed (see
 * canonical.ts): the value is that object, or an array holding only it; the
 * object has two members, `arguments` first and an object; and the text after
 * it is `,"name":"…"}` with a name that is not empty. Nothing is walked.
 */
export function checkShape(start: usize, end: usize): bool {
  let p = start;
  let e = end;
  if (load<u8>(outBase + p) == 0x5b) {
    p++;
    e--;
  }
  if (lastObjectStart != p || lastObjectEnd != e || lastObjectMembers != 2) return false;
  if (!startsWith(p, e, ARGUMENTS_PREFIX, 14)) return false;
  argumentsStart = p + 13;
  argumentsEnd = lastObjectFirstEnd;
  if (!startsWith(argumentsEnd, e, NAME_PREFIX, 9)) return false;
  nameStart = argumentsEnd + 8;
  nameEnd = e - 1;
  return nameEnd - nameStart > 2; // not the empty name
}
