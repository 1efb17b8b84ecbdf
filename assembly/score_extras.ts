// Manifest rows whose id is no example's: a subset of the examples scored against the whole
// manifest. The general reader checks such a row as it checks any other (its digest, its
// prompt's digest, that its id is not repeated) and keeps nothing else of it; so does the kernel.
//
// Each such row leaves a 64-bit key of its id: two independent hashes of its bytes. A chunk's
// keys wait in the emit region; once the chunk is read they are sorted and merged into one sorted
// list of the run's keys at the top of the tables, which then rises (kInput puts the next chunk
// above it). Two equal keys give the run back: an id repeated, which the general reader refuses,
// or (about once in 2^64 pairs) two ids whose keys collide, which it reads.

import { hashBytes } from "./intern";
import { align8, emitBase, emitNeed, emitSet, emitUsed } from "./score_common";
import { raiseTablesTop, tablesTop } from "./score_entries";

let listAt: usize = 0;
let listCount: usize = 0;

/** Starts a job with no such row. */
export function extrasReset(): void {
  listAt = 0;
  listCount = 0;
}

/** Notes the id of `n` bytes at `p` (its id hash `h`) of a manifest row of no example. */
export function noteExtra(p: usize, n: usize, h: u32): void {
  store<u64>(emitNeed(8), (<u64> h << 32) | <u64> hashBytes(p, n, 0x5eed));
  emitSet(emitUsed + 8);
}

/**
 * Merges the keys the chunk just read noted into the run's sorted list: false when one of them is
 * already there, or twice in the chunk. The list grows into the chunk's own bytes, which are read
 * by then: each key takes 8 bytes of a line far longer.
 */
export function mergeExtras(): bool {
  const k = emitUsed >> 3;
  if (k == 0) return true;
  const b = emitBase;
  // Shellsort (gaps 1, 4, 13, 40, …): a chunk holds a few thousand keys at most.
  let gap: usize = 1;
  while (gap < k / 3) gap = 3 * gap + 1;
  for (; gap > 0; gap /= 3) {
    for (let i = gap; i < k; i++) {
      const key = load<u64>(b + (i << 3));
      let j = i;
      while (j >= gap && load<u64>(b + ((j - gap) << 3)) > key) {
        store<u64>(b + (j << 3), load<u64>(b + ((j - gap) << 3)));
        j -= gap;
      }
      store<u64>(b + (j << 3), key);
    }
  }
  if (listCount == 0) listAt = align8(tablesTop);
  // From the back, so that the list's unread keys are never overwritten.
  let a = listAt + (listCount << 3); // past the list's next key
  let c = b + (k << 3); // past the chunk's next key
  let o = a + (k << 3);
  while (c > b) {
    const key = load<u64>(c - 8);
    if (c - 8 > b && load<u64>(c - 16) == key) return false;
    let next = key;
    if (a > listAt) {
      const x = load<u64>(a - 8);
      if (x == key) return false;
      if (x > key) next = x;
    }
    o -= 8;
    store<u64>(o, next);
    if (next == key) c -= 8;
    else a -= 8;
  }
  listCount += k;
  raiseTablesTop(listAt + (listCount << 3));
  emitSet(0);
  return true;
}
