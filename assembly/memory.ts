// Linear memory for one batch: growth, relocatable regions and the output buffer.
//
// Layout, rebuilt by every batch:
//   [static data][offsets: (count+1) u32][UTF-16 lengths: count u32][input bytes]
//   [results: count records][regions, bump-allocated above `heapTop`]
//
// A region is a growable byte range addressed by offsets relative to its base,
// so it can move. The topmost region grows in place; any other region that
// outgrows its capacity is copied to the top. Nothing is freed within a batch:
// the next batch starts over.

/** The output region: the ASCII canonical text of every result in the batch. */
export const R_OUT: i32 = 0;
/** Flattened pairs, as u32 words. */
export const R_PAIRS: i32 = 1;
/** The member stack of the open objects, 12 bytes per member. */
export const R_MEMBERS: i32 = 2;
/** Decoded keys that contained escapes. */
export const R_KEYS: i32 = 3;
/** Scratch index arrays for sorting one object's members. */
export const R_SORT: i32 = 4;
/** The bracket bit stack of span extraction. */
export const R_BITS: i32 = 5;
/** Interned path nodes, NODE_SIZE bytes each (see intern.ts). */
export const R_NODES: i32 = 6;
/** The hash table of R_NODES, u32 node ids. */
export const R_NODE_TABLE: i32 = 7;
/** The distinct pair paths of the batch (see flatten.ts). */
export const R_LEAVES: i32 = 8;
/** Their texts, when short enough. */
export const R_PATH_TEXT: i32 = 9;
/** The scoring kernel's output for one chunk: example entries, or records to write. */
export const R_EMIT: i32 = 10;
/** The scoring kernel's decoded string (one at a time). */
export const R_TEXT: i32 = 11;
/** The scoring kernel's pair keys of one prediction. */
export const R_PRED: i32 = 12;
const REGION_COUNT: i32 = 13;

// base: u32, cap: u32 per region.
const REGIONS: usize = memory.data(REGION_COUNT * 8);

/** First free byte above every region. */
export let heapTop: usize = 0;

/**
 * Bytes kept addressable past every end asked of growMemoryTo, so that a copy of a short run
 * may load and store one 16-byte vector past its end (see outCopy).
 */
export const SLACK: u64 = 64;

/**
 * Grows linear memory so that `end` bytes (and SLACK more) are addressable; traps when 4 GiB is
 * not enough.
 */
export function growMemoryTo(end: u64): void {
  end += SLACK;
  if (end > 0x1_0000_0000) unreachable();
  const have = (<u64> memory.size()) << 16;
  if (end <= have) return;
  const need = <i32> ((end - have + 0xffff) >> 16);
  let want = memory.size() >> 2;
  if (want < need) want = need;
  if (memory.grow(want) < 0 && memory.grow(need) < 0) unreachable();
}

/** Places every region, empty, at `top`. */
export function regionsReset(top: usize): void {
  heapTop = top;
  for (let r = 0; r < REGION_COUNT; r++) {
    const slot = REGIONS + (<usize> r << 3);
    store<u32>(slot, <u32> top);
    store<u32>(slot, 0, 4);
  }
}

/** The current base address of region `r`. */
export function regionBase(r: i32): usize {
  return <usize> load<u32>(REGIONS + (<usize> r << 3));
}

/** The current capacity of region `r`, in bytes. */
export function regionCap(r: i32): usize {
  return <usize> load<u32>(REGIONS + (<usize> r << 3), 4);
}

/**
 * Makes region `r` hold at least `need` bytes, keeping its first `used` bytes.
 * Returns the region's base, which may have moved.
 */
// @ts-ignore: decorator
@inline export function reserve(r: i32, used: usize, need: usize): usize {
  const slot = REGIONS + (<usize> r << 3);
  if (need <= <usize> load<u32>(slot, 4)) return <usize> load<u32>(slot);
  return grow(r, used, need);
}

// The slow path of `reserve`: the region moves or grows.
function grow(r: i32, used: usize, need: usize): usize {
  const slot = REGIONS + (<usize> r << 3);
  const base = <usize> load<u32>(slot);
  const cap = <usize> load<u32>(slot, 4);
  let grown: u64 = <u64> cap + (<u64> cap >> 1) + 4096;
  if (grown < <u64> need) grown = <u64> need;
  grown = (grown + 7) & ~(<u64> 7);
  if (base + cap == heapTop) {
    growMemoryTo(<u64> base + grown);
    heapTop = base + <usize> grown;
    store<u32>(slot, <u32> grown, 4);
    return base;
  }
  const moved = heapTop;
  growMemoryTo(<u64> moved + grown);
  if (used > 0) memory.copy(moved, base, used);
  heapTop = moved + <usize> grown;
  store<u32>(slot, <u32> moved);
  store<u32>(slot, <u32> grown, 4);
  return moved;
}

// ---- The output buffer (region R_OUT), written sequentially.

/** Base address of the output region. */
export let outBase: usize = 0;
/** Bytes written to the output region. */
export let outPos: usize = 0;
/** Capacity of the output region. */
export let outCap: usize = 0;

/** Starts an empty output region with room for `cap` bytes. */
export function outReset(cap: usize): void {
  outPos = 0;
  outCap = 0;
  outBase = reserve(R_OUT, 0, cap);
  outCap = regionCap(R_OUT);
}

/** Makes room for `n` more bytes (the slow path of `outNeed`). */
export function outGrow(n: usize): void {
  outBase = reserve(R_OUT, outPos, outPos + n);
  outCap = regionCap(R_OUT);
}

/** Makes room for `n` more bytes. */
// @ts-ignore: decorator
@inline export function outNeed(n: usize): void {
  if (outPos + n > outCap) outGrow(n);
}

/** Appends one byte; the caller has made room. */
// @ts-ignore: decorator
@inline export function outByte(b: u32): void {
  store<u8>(outBase + outPos, <u8> b);
  outPos++;
}

/**
 * Copies `n` bytes from `src` to `dst` (overlapping or not), touching no byte outside the two
 * ranges: up to 32 bytes as two overlapping loads and two stores of the widest size that fits,
 * more with memory.copy (a call, which costs more than the copy for a few bytes).
 */
export function copyBytes(dst: usize, src: usize, n: usize): void {
  if (n >= 16) {
    if (n > 32) {
      memory.copy(dst, src, n);
      return;
    }
    const a = v128.load(src);
    const b = v128.load(src + n - 16);
    v128.store(dst, a);
    v128.store(dst + n - 16, b);
  } else if (n >= 8) {
    const a = load<u64>(src);
    const b = load<u64>(src + n - 8);
    store<u64>(dst, a);
    store<u64>(dst + n - 8, b);
  } else if (n >= 4) {
    const a = load<u32>(src);
    const b = load<u32>(src + n - 4);
    store<u32>(dst, a);
    store<u32>(dst + n - 4, b);
  } else if (n > 0) {
    const a = load<u8>(src);
    const b = load<u8>(src + (n >> 1));
    const c = load<u8>(src + n - 1);
    store<u8>(dst, a);
    store<u8>(dst + (n >> 1), b);
    store<u8>(dst + n - 1, c);
  }
}

/**
 * Appends `n` bytes copied from `src`. Short runs, the usual case, are copied as one or two
 * 16-byte vectors (memory.copy is a call, costly for a few bytes): this reads up to 15 bytes
 * past `src + n`, which SLACK keeps addressable, and writes past the run into room it makes.
 */
export function outCopy(src: usize, n: usize): void {
  if (n <= 32) {
    outNeed(32);
    const o = outBase + outPos;
    v128.store(o, v128.load(src));
    if (n > 16) v128.store(o + 16, v128.load(src + 16));
    outPos += n;
    return;
  }
  outNeed(n);
  memory.copy(outBase + outPos, src, n);
  outPos += n;
}

/** Truncates the output back to `pos`, discarding what a failed text wrote. */
export function outRewind(pos: usize): void {
  outPos = pos;
}
