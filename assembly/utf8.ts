// UTF-8 as a fatal WHATWG decoder reads it: the length of one sequence, or 0
// when it is not one (overlong forms, surrogates, past U+10FFFF, truncated).

function isContinuation(p: usize): bool {
  return (load<u8>(p) & 0xc0) == 0x80;
}

/**
 * The length of the UTF-8 sequence at `p` (its lead byte at least 0x80), as a
 * fatal WHATWG decoder reads it, or 0 when it is not one.
 */
export function utf8Length(p: usize, end: usize): usize {
  const c = <u32> load<u8>(p);
  if (c < 0xc2) return 0;
  if (c < 0xe0) return p + 2 <= end && isContinuation(p + 1) ? 2 : 0;
  if (c < 0xf0) {
    if (p + 3 > end) return 0;
    const b = <u32> load<u8>(p + 1);
    if (c == 0xe0 && b < 0xa0) return 0; // overlong
    if (c == 0xed && b >= 0xa0) return 0; // a surrogate
    return isContinuation(p + 1) && isContinuation(p + 2) ? 3 : 0;
  }
  if (c >= 0xf5 || p + 4 > end) return 0;
  const b = <u32> load<u8>(p + 1);
  if (c == 0xf0 && b < 0x90) return 0; // overlong
  if (c == 0xf4 && b >= 0x90) return 0; // past U+10FFFF
  return isContinuation(p + 1) && isContinuation(p + 2) && isContinuation(p + 3) ? 4 : 0;
}

/**
 * The bytes a replacing WHATWG decoder turns into one U+FFFD at `p` (where utf8Length is 0):
 * the lead byte and the bytes that continue it as a valid sequence would, up to the first that
 * does not (the "maximal subpart"); at least 1.
 */
export function invalidLength(p: usize, end: usize): usize {
  const c = <u32> load<u8>(p);
  let n: usize;
  let lo: u32 = 0x80;
  let hi: u32 = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) n = 1;
  else if (c >= 0xe0 && c <= 0xef) {
    n = 2;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 3;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else return 1;
  let k: usize = 1;
  while (k <= n && p + k < end) {
    const b = <u32> load<u8>(p + k);
    if (b < lo || b > hi) break;
    lo = 0x80;
    hi = 0xbf;
    k++;
  }
  return k;
}
