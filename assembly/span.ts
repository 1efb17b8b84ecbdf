// Span extraction (CONTRACT §1): the first `{` or `[` up to the bracket that
// empties a string-aware bracket stack. The stack is one bit per level
// (1 = `{`), in a growable region, so there is no depth limit.

import { ONES, zeroBytes } from "./bytes";
import { R_BITS, regionCap, reserve } from "./memory";
import { E_MISMATCHED_BRACKET, E_UNCLOSED_SPAN, fail } from "./text";

export const SPAN_FOUND: i32 = 0;
export const SPAN_NONE: i32 = 1;
export const SPAN_INVALID: i32 = 2;

/** Address of the span's first byte, when one starts. */
export let spanStart: usize = 0;
/** Address just after the span, when found. */
export let spanEnd: usize = 0;

/**
 * The first `{` or `[` of `[p, end)`, where a span starts (CONTRACT §1), or
 * `end` when there is none.
 */
export function firstBracket(p: usize, end: usize): usize {
  while (p + 8 <= end) {
    const x = load<u64>(p) | (ONES * 0x20); // `[` becomes `{`
    const m = zeroBytes(x ^ (ONES * 0x7b));
    if (m != 0) return p + <usize> (ctz(m) >> 3);
    p += 8;
  }
  while (p < end) {
    const c = load<u8>(p);
    if (c == 0x7b || c == 0x5b) break;
    p++;
  }
  return p;
}

/** Extracts the span of `[start, end)`; on SPAN_INVALID the error is recorded. */
export function findSpan(start: usize, end: usize): i32 {
  let p = firstBracket(start, end);
  if (p >= end) return SPAN_NONE;
  spanStart = p;
  let bits = reserve(R_BITS, 0, 64);
  let capBits: usize = regionCap(R_BITS) << 3;
  let depth: usize = 0;
  while (p < end) {
    // Skip bytes that are neither a quote nor a bracket, eight at a time.
    while (p + 8 <= end) {
      const x = load<u64>(p);
      const y = x | (ONES * 0x20);
      const m = zeroBytes(x ^ (ONES * 0x22)) | zeroBytes(y ^ (ONES * 0x7b)) |
        zeroBytes(y ^ (ONES * 0x7d));
      if (m != 0) {
        p += <usize> (ctz(m) >> 3);
        break;
      }
      p += 8;
    }
    if (p >= end) break;
    const c = load<u8>(p);
    if (c == 0x22) {
      // A string: `\` skips the next byte (never a delimiter when it is not a code point's first byte).
      p++;
      while (true) {
        while (p + 8 <= end) {
          const x = load<u64>(p);
          const m = zeroBytes(x ^ (ONES * 0x22)) | zeroBytes(x ^ (ONES * 0x5c));
          if (m != 0) {
            p += <usize> (ctz(m) >> 3);
            break;
          }
          p += 8;
        }
        if (p >= end) {
          fail(E_UNCLOSED_SPAN, end);
          return SPAN_INVALID;
        }
        const d = load<u8>(p);
        if (d == 0x22) break;
        p += d == 0x5c ? 2 : 1;
      }
    } else if (c == 0x7b || c == 0x5b) {
      if (depth >= capBits) {
        bits = reserve(R_BITS, (depth + 7) >> 3, (depth >> 3) + 1);
        capBits = regionCap(R_BITS) << 3;
      }
      const a = bits + (depth >> 3);
      const m = <u32> 1 << <u32> (depth & 7);
      const v = <u32> load<u8>(a);
      store<u8>(a, <u8> (c == 0x7b ? v | m : v & ~m));
      depth++;
    } else if (c == 0x7d || c == 0x5d) {
      depth--;
      const isObject = (<u32> load<u8>(bits + (depth >> 3)) >> <u32> (depth & 7)) & 1;
      if ((c == 0x7d) != (isObject == 1)) {
        fail(E_MISMATCHED_BRACKET, p);
        return SPAN_INVALID;
      }
      if (depth == 0) {
        spanEnd = p + 1;
        return SPAN_FOUND;
      }
    }
    p++;
  }
  fail(E_UNCLOSED_SPAN, end);
  return SPAN_INVALID;
}
