// JSONL lines for the scoring kernel (score.ts): a strict scan of one line as
// a JSON object that finds the values of named top-level members, checking
// UTF-8 inside its strings (their decoding is in jsonl_strings.ts).
//
// The scan accepts a line only when the general reader (cli/score.ts) reads
// it the same way for certain: one JSON object (JSON.parse's grammar plus NaN,
// Infinity and -Infinity), nested at most MAX_DEPTH deep, no integer part
// longer than MAX_INT_DIGITS, and no top-level key with an escape. Anything
// else sends the whole run back to the general reader, which words the error
// or reads the rare line.

import { escapedChar, hex4, MAX_DEPTH, MAX_INT_DIGITS, parseValue, setRawBytes } from "./json";
import { membersReset } from "./canonical";
import { outPos } from "./memory";
import { setText } from "./text";
import { decodeChecked, utf8Length } from "./jsonl_strings";
import { bytesEqual } from "./bytes";
import { bracketRun, lineFeed, lineQuoteRun, stopsTo } from "./simd";

/** Most named members a line is scanned for. */
const MAX_FIELDS: i32 = 4;
/** Value range (start, end addresses) of each named member; 0, 0 when absent. */
export const FIELDS: usize = memory.data(MAX_FIELDS * 8);

// The kind (`{` or `[`) of each open container, by depth.
const KINDS: usize = memory.data(<i32> MAX_DEPTH + 2);

const LIT_TRUE: usize = memory.data<u8>([0x74, 0x72, 0x75, 0x65]);
const LIT_FALSE: usize = memory.data<u8>([0x66, 0x61, 0x6c, 0x73, 0x65]);
const LIT_NULL: usize = memory.data<u8>([0x6e, 0x75, 0x6c, 0x6c]);
const LIT_NAN: usize = memory.data<u8>([0x4e, 0x61, 0x4e]);
const LIT_INFINITY: usize = memory.data<u8>([0x49, 0x6e, 0x66, 0x69, 0x6e, 0x69, 0x74, 0x79]);

/** Skips the whitespace JSON allows within a line: space, tab and CR (a LF ends the line). */
export function skipWs(p: usize, end: usize): usize {
  while (p < end) {
    const c = load<u8>(p);
    if (c != 0x20 && c != 0x0d && c != 0x09) break;
    p++;
  }
  return p;
}

function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

/**
 * The address after the closing quote of the strict JSON string literal whose
 * opening quote is at `q`, or 0 when there is none before `end` or its bytes
 * are not UTF-8.
 */
export function stringEnd(q: usize, end: usize): usize {
  let p = q + 1;
  while (true) {
    // Sixteen bytes at a time to the next control byte, `"`, `\` or non-ASCII byte (see stopsTo).
    const m = stopsTo(v128.load(p), p, end, 0x80);
    if (m == 0) {
      p += 16;
      continue;
    }
    p += <usize> ctz(m);
    if (p >= end) return 0;
    const c = <u32> load<u8>(p);
    if (c == 0x22) return p + 1;
    if (c < 0x20) return 0;
    if (c >= 0x80) {
      const n = utf8Length(p, end);
      if (n == 0) return 0;
      p += n;
      continue;
    }
    if (p + 1 >= end) return 0;
    const e = <u32> load<u8>(p + 1);
    if (e == 0x75) {
      if (p + 6 > end || hex4(p + 2, end) < 0) return 0;
      p += 6;
    } else if (escapedChar(e) >= 0) {
      p += 2;
    } else {
      return 0;
    }
  }
  return 0;
}

// The end of the strict JSON number at `p`, or 0 (also when its integer part
// has more than MAX_INT_DIGITS digits, whatever follows).
function numberEnd(p: usize, end: usize): usize {
  if (load<u8>(p) == 0x2d) p++;
  if (p >= end) return 0;
  const c = <u32> load<u8>(p);
  if (c == 0x30) {
    p++;
  } else if (c >= 0x31 && c <= 0x39) {
    const start = p;
    while (p < end && isDigit(<u32> load<u8>(p))) p++;
    if (p - start > MAX_INT_DIGITS) return 0;
  } else {
    return 0;
  }
  if (p < end && load<u8>(p) == 0x2e) {
    p++;
    if (p >= end || !isDigit(<u32> load<u8>(p))) return 0;
    while (p < end && isDigit(<u32> load<u8>(p))) p++;
  }
  if (p < end && (load<u8>(p) | 0x20) == 0x65) {
    p++;
    if (p < end && (load<u8>(p) == 0x2b || load<u8>(p) == 0x2d)) p++;
    if (p >= end || !isDigit(<u32> load<u8>(p))) return 0;
    while (p < end && isDigit(<u32> load<u8>(p))) p++;
  }
  return p;
}

// The end of the literal of `n` bytes at `lit` when `p` starts with it, or 0.
function literalEnd(p: usize, end: usize, lit: usize, n: usize): usize {
  return p + n <= end && bytesEqual(p, lit, n) ? p + n : 0;
}

// Records the member `key: value` when the key is one of the `count` names
// (a table of u32 address, u32 length at `names`). False for an escaped key.
function member(
  key: usize,
  keyEnd: usize,
  value: usize,
  valueEnd: usize,
  names: usize,
  count: i32,
): bool {
  const n = keyEnd - key - 2;
  for (let p = key + 1; p < keyEnd - 1; p++) {
    if (load<u8>(p) == 0x5c) return false;
  }
  for (let k = 0; k < count; k++) {
    const name = names + (<usize> k << 3);
    const at = <usize> load<u32>(name);
    if (<usize> load<u32>(name, 4) == n && bytesEqual(key + 1, at, n)) {
      store<u32>(FIELDS + (<usize> k << 3), <u32> value);
      store<u32>(FIELDS + (<usize> k << 3), <u32> valueEnd, 4);
    }
  }
  return true;
}

// Whether the key literal `[key, keyEnd)` is, unescaped, name `k` of `names`.
function isName(key: usize, keyEnd: usize, names: usize, k: i32): bool {
  const name = names + (<usize> k << 3);
  const n = <usize> load<u32>(name, 4);
  return keyEnd - key - 2 == n && bytesEqual(key + 1, <usize> load<u32>(name), n);
}

// The address after the `:` that follows the key literal at `q`, or 0; the key
// ends at `keyEnd` then.
let keyEnd: usize = 0;
function keyColon(q: usize, end: usize): usize {
  if (q >= end || load<u8>(q) != 0x22) return 0;
  keyEnd = stringEnd(q, end);
  if (keyEnd == 0) return 0;
  const p = skipWs(keyEnd, end);
  return p < end && load<u8>(p) == 0x3a ? p + 1 : 0;
}

/**
 * The address after the container that opens at `p`, found by balancing
 * brackets outside strings (a string's `\` skips the next byte), or 0 when
 * the line ends first. Nothing else is checked: the caller parses the
 * container with a parser that checks everything the strict scan would (see
 * scanObject's `skip`), and requires that it end here.
 */
function containerEnd(p: usize, end: usize): usize {
  let depth: u32 = 0;
  while (p < end) {
    p = bracketRun(p, end);
    if (p >= end) break;
    const c = <u32> load<u8>(p);
    if (c == 0x22) {
      p++;
      while (true) {
        p = lineQuoteRun(p, end);
        if (p >= end) return 0;
        const d = <u32> load<u8>(p);
        if (d == 0x22) break;
        if (d == 0x0a) return 0;
        if (d == 0x5c) {
          if (p + 1 >= end || load<u8>(p + 1) == 0x0a) return 0;
          p += 2;
        } else {
          p++;
        }
      }
    } else if (c == 0x7b || c == 0x5b) {
      depth++;
    } else if (c == 0x7d || c == 0x5d) {
      if (--depth == 0) return p + 1;
    } else {
      return 0; // the line's end
    }
    p++;
  }
  return 0;
}

/** Whether the container of the `skip` member parsed, and the output offset where its text starts. */
export let skipParsed: bool = false;
export let skipMark: usize = 0;

/**
 * Scans the JSON object at `s` (its `{`), on one line before `end`, and leaves
 * in FIELDS the value range of the last top-level member named each of the
 * `count` names. The string value of the member named `names[decode]` (if
 * `decode` is not -1) is decoded to `dst` as it is read (see decodeChecked).
 * A container value of the member named `names[skip]` (if `skip` is not -1) is
 * parsed with the engine's own parser in its raw-bytes mode, which checks all
 * the scan would and more, up to the line's end: its canonical text is left in
 * the output from skipMark, with skipParsed set. One that does not parse is only
 * balanced (containerEnd), and the caller gives the line back once its other
 * fields are read. No member of that name may then follow it. Returns the address after the object, or 0
 * when it is not such an object in the strict reading (see the header) or the
 * line ends before it does.
 */
export function scanObject(
  s: usize,
  end: usize,
  names: usize,
  count: i32,
  decode: i32,
  dst: usize,
  skip: i32 = -1,
): usize {
  memory.fill(FIELDS, 0, <usize> MAX_FIELDS << 3);
  let i = s;
  let depth: i32 = 0;
  let key: usize = 0;
  let keyStop: usize = 0;
  let value: usize = 0;
  let skipped = false;
  while (true) {
    // A value at i.
    i = skipWs(i, end);
    if (depth == 1) value = i;
    if (i >= end) return 0;
    const c = <u32> load<u8>(i);
    let opened = false;
    // Once a container of that member was only balanced, a later member of its name (which
    // JSON.parse would keep instead) would leave it unchecked.
    if (skipped && depth == 1 && isName(key, keyStop, names, skip)) return 0;
    if ((c == 0x7b || c == 0x5b) && depth == 1 && skip >= 0 && isName(key, keyStop, names, skip)) {
      skipped = true;
      const le = lineFeed(i, end);
      membersReset();
      setText(i, le, <u32> (le - i));
      skipMark = outPos;
      setRawBytes(true);
      const q = parseValue(i, le);
      setRawBytes(false);
      skipParsed = q != 0;
      i = skipParsed ? q : containerEnd(i, end);
    } else if (c == 0x7b || c == 0x5b) {
      if (depth == MAX_DEPTH) return 0;
      depth++;
      store<u8>(KINDS + <usize> depth, <u8> c);
      i = skipWs(i + 1, end);
      if (i < end && <u32> load<u8>(i) == c + 2) {
        i++;
        depth--;
      } else {
        opened = true;
      }
    } else if (c == 0x22) {
      i = depth == 1 && decode >= 0 && isName(key, keyStop, names, decode)
        ? decodeChecked(i, end, dst)
        : stringEnd(i, end);
    } else if (c == 0x2d && i + 1 < end && load<u8>(i + 1) == 0x49) {
      i = literalEnd(i + 1, end, LIT_INFINITY, 8);
    } else if (c == 0x2d || isDigit(c)) {
      i = numberEnd(i, end);
    } else if (c == 0x74) {
      i = literalEnd(i, end, LIT_TRUE, 4);
    } else if (c == 0x66) {
      i = literalEnd(i, end, LIT_FALSE, 5);
    } else if (c == 0x6e) {
      i = literalEnd(i, end, LIT_NULL, 4);
    } else if (c == 0x4e) {
      i = literalEnd(i, end, LIT_NAN, 3);
    } else if (c == 0x49) {
      i = literalEnd(i, end, LIT_INFINITY, 8);
    } else {
      return 0;
    }
    if (i == 0) return 0;
    if (opened) {
      if (<u32> load<u8>(KINDS + <usize> depth) != 0x7b) continue; // an array's first element
      const q = i;
      i = keyColon(q, end);
      if (i == 0) return 0;
      if (depth == 1) {
        key = q;
        keyStop = keyEnd;
      }
      continue;
    }
    // After a complete value: close containers, or go on to the next member or element.
    while (true) {
      if (depth == 1 && value != 0) {
        if (!member(key, keyStop, value, i, names, count)) return 0;
        value = 0;
      }
      if (depth == 0) return i;
      i = skipWs(i, end);
      if (i >= end) return 0;
      const d = <u32> load<u8>(i);
      const kind = <u32> load<u8>(KINDS + <usize> depth);
      if (d == kind + 2) {
        i++;
        depth--;
        continue;
      }
      if (d != 0x2c) return 0;
      i++;
      if (kind == 0x7b) {
        const q = skipWs(i, end);
        i = keyColon(q, end);
        if (i == 0) return 0;
        if (depth == 1) {
          key = q;
          keyStop = keyEnd;
        }
      }
      break;
    }
  }
}
