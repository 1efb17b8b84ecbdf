// Sixteen bytes at a time: finding the end of a run of plain string bytes with
// Wasm SIMD. A string scanner stops at a byte it must look at (a quote, a
// backslash, a control character and, where asked, DEL or a byte past 0x7f);
// everything before it is copied or skipped as a block.
//
// The loops here never load past `end`: the last 15 bytes or fewer are left to
// the caller's byte loop. The string scanners (stringEnd, decodeChecked,
// scanString, writeJsonString) load past it instead (see stopsTo).

/** Stop bits: a byte equal to `"` or `\`, below 0x20, or (with `high`) at least `high`. */
// @ts-ignore: decorator
@inline function stops(v: v128, high: u8): i32 {
  let m = v128.or(
    i8x16.eq(v, i8x16.splat(0x22)),
    i8x16.eq(v, i8x16.splat(0x5c)),
  );
  m = v128.or(m, i8x16.lt_u(v, i8x16.splat(0x20)));
  if (high != 0) m = v128.or(m, i8x16.ge_u(v, i8x16.splat(high)));
  return i8x16.bitmask(m);
}

/**
 * The stop bits (see stops) of the sixteen bytes `v` loaded at `p`, and one more at `end` when
 * that comes first: a string scanner loads up to 15 bytes past `end`, into the slack that
 * growMemoryTo keeps (see outCopy), instead of reading its last few bytes one by one.
 */
// @ts-ignore: decorator
@inline export function stopsTo(v: v128, p: usize, end: usize, high: u8): i32 {
  let m = stops(v, high);
  const left = end - p;
  if (left < 16) m |= 1 << <i32> left;
  return m;
}

/**
 * The first address of `[p, end)` holding `"` or `\`, 16 bytes at a time; or the address where
 * fewer than 16 bytes are left, if that comes first.
 */
// @ts-ignore: decorator
@inline export function quoteRun(p: usize, end: usize): usize {
  while (p + 16 <= end) {
    const v = v128.load(p);
    const m = i8x16.bitmask(
      v128.or(i8x16.eq(v, i8x16.splat(0x22)), i8x16.eq(v, i8x16.splat(0x5c))),
    );
    if (m != 0) return p + <usize> ctz(m);
    p += 16;
  }
  return p;
}

/** The first address of `[p, end)` holding a line feed, 16 bytes at a time; or `end`. */
export function lineFeed(p: usize, end: usize): usize {
  while (p + 16 <= end) {
    const m = i8x16.bitmask(i8x16.eq(v128.load(p), i8x16.splat(0x0a)));
    if (m != 0) return p + <usize> ctz(m);
    p += 16;
  }
  while (p < end && load<u8>(p) != 0x0a) p++;
  return p;
}

/**
 * The first address of `[p, end)` holding `"`, a bracket or a line feed, 16
 * bytes at a time, then byte by byte to `end`.
 */
export function bracketRun(p: usize, end: usize): usize {
  while (p + 16 <= end) {
    const v = v128.load(p);
    const folded = v128.or(v, i8x16.splat(0x20)); // `[` becomes `{`, `]` becomes `}`
    const m = i8x16.bitmask(
      v128.or(
        v128.or(i8x16.eq(v, i8x16.splat(0x22)), i8x16.eq(v, i8x16.splat(0x0a))),
        v128.or(i8x16.eq(folded, i8x16.splat(0x7b)), i8x16.eq(folded, i8x16.splat(0x7d))),
      ),
    );
    if (m != 0) return p + <usize> ctz(m);
    p += 16;
  }
  while (p < end) {
    const c = <u32> load<u8>(p);
    if (c == 0x22 || c == 0x0a || (c | 0x20) == 0x7b || (c | 0x20) == 0x7d) return p;
    p++;
  }
  return p;
}

/**
 * The first address of `[p, end)` holding `"`, `\` or a line feed, 16 bytes
 * at a time, then byte by byte to `end`.
 */
export function lineQuoteRun(p: usize, end: usize): usize {
  while (p + 16 <= end) {
    const v = v128.load(p);
    const m = i8x16.bitmask(
      v128.or(
        v128.or(i8x16.eq(v, i8x16.splat(0x22)), i8x16.eq(v, i8x16.splat(0x5c))),
        i8x16.eq(v, i8x16.splat(0x0a)),
      ),
    );
    if (m != 0) return p + <usize> ctz(m);
    p += 16;
  }
  while (p < end) {
    const c = <u32> load<u8>(p);
    if (c == 0x22 || c == 0x5c || c == 0x0a) return p;
    p++;
  }
  return p;
}
