// The paired bootstrap's resampling kernel, the twin of src/engine/resample.ts (which describes
// the two job layouts, direct and grouped). The sfc32 stream and Lemire's bounded draws run
// here with the state in locals. Column sums are exact integers, and the deltas are taken
// from them with the same IEEE operations, in the same order, as the TS kernel: the two give
// bit-identical deltas.
//
// The JS side lays out one job above `resampleReserve`'s base, in its own instance (the batch
// layout of batch.ts starts at the same address), and runs its resamples in slices of a few
// hundred thousand draws: a host that compiles a baseline tier first can then switch to
// optimized code after the first slices, not only on the next job.
//   state  4 u32: a, b, c, d; read first, written back last
//   sums   12 u64 (scratch)
//   words  12 u32 (scratch, direct)
//   lanes  12 × (word, shift, mask) u32 (direct)
//   table  n rows of `stride` u32 (direct), or
//   groupOf n u32, values groups × 12 u32, counts groups u32 (grouped)
//   out    5 × resamples f64, metric-major

import { growMemoryTo } from "./memory";

const COLUMNS: u32 = 12;

/** Makes `bytes` bytes addressable from the job base; returns the base. */
export function resampleReserve(bytes: u32): usize {
  const base = (__heap_base + 15) & ~(<usize> 15);
  growMemoryTo(<u64> base + <u64> bytes);
  return base;
}

// The deltas of resample r from the sums: see src/engine/resample.ts `deltas`.
// @ts-ignore: decorator
@inline function deltas(sums: usize, n: f64, out: usize, r: u32, resamples: u32): void {
  const step = <usize> resamples << 3;
  const o = out + (<usize> r << 3);
  const s0 = <f64> load<u64>(sums);
  const s1 = <f64> load<u64>(sums, 8);
  const s2 = <f64> load<u64>(sums, 16);
  const s3 = <f64> load<u64>(sums, 24);
  const s4 = <f64> load<u64>(sums, 32);
  const s5 = <f64> load<u64>(sums, 40);
  const s6 = <f64> load<u64>(sums, 48);
  const s7 = <f64> load<u64>(sums, 56);
  const s8 = <f64> load<u64>(sums, 64);
  const s9 = <f64> load<u64>(sums, 72);
  const s10 = <f64> load<u64>(sums, 80);
  const s11 = <f64> load<u64>(sums, 88);
  store<f64>(o, s6 / n - s0 / n);
  store<f64>(o + step, s7 / n - s1 / n);
  store<f64>(o + 2 * step, s8 / n - s2 / n);
  const fa: f64 = s11 == 0.0 ? 0.0 : 2.0 * s10 / s11;
  const fb: f64 = s5 == 0.0 ? 0.0 : 2.0 * s4 / s5;
  store<f64>(o + 3 * step, fa - fb);
  store<f64>(o + 4 * step, s9 / n - s3 / n);
}

// Adds each lane of the packed words to its column's sum.
function flushLanes(words: usize, lanes: usize, sums: usize): void {
  for (let c: usize = 0; c < <usize> COLUMNS; c++) {
    const l = lanes + c * 12;
    const x = load<u32>(words + (<usize> load<u32>(l) << 2));
    const v = (x >>> load<u32>(l, 4)) & load<u32>(l, 8);
    store<u64>(sums + (c << 3), load<u64>(sums + (c << 3)) + <u64> v);
  }
}

/**
 * Runs resamples [from, to) of a direct-layout job: `n` rows of `stride` words (4 or 12) at
 * `table`, flushed every `flush` rows.
 */
export function resampleDirect(
  n: u32,
  resamples: u32,
  from: u32,
  to: u32,
  stride: u32,
  flush: u32,
  state: usize,
  table: usize,
  out: usize,
): void {
  const sums = state + 16;
  const words = sums + 96;
  const lanes = words + 48;
  let a = load<u32>(state);
  let b = load<u32>(state, 4);
  let c = load<u32>(state, 8);
  let d = load<u32>(state, 12);
  const nn = <u64> n;
  const threshold = <u32> (0x1_0000_0000 % nn);
  const fn = <f64> n;
  for (let r = from; r < to; r++) {
    memory.fill(sums, 0, 96);
    let k: u32 = 0;
    while (k < n) {
      const end = n - k > flush ? k + flush : n;
      if (stride == 4) {
        let x0: u64 = 0;
        let x1: u64 = 0;
        while (k < end) {
          const t = a + b + d;
          d = d + 1;
          a = b ^ (b >>> 9);
          b = c + (c << 3);
          c = rotl<u32>(c, 21) + t;
          const m = <u64> t * nn;
          if (<u32> m < threshold) continue;
          const row = table + (<usize> (m >> 32) << 4);
          x0 += load<u64>(row);
          x1 += load<u64>(row, 8);
          k++;
        }
        store<u64>(words, x0);
        store<u64>(words, x1, 8);
      } else {
        let x0: u64 = 0;
        let x1: u64 = 0;
        let x2: u64 = 0;
        let x3: u64 = 0;
        let x4: u64 = 0;
        let x5: u64 = 0;
        while (k < end) {
          const t = a + b + d;
          d = d + 1;
          a = b ^ (b >>> 9);
          b = c + (c << 3);
          c = rotl<u32>(c, 21) + t;
          const m = <u64> t * nn;
          if (<u32> m < threshold) continue;
          const row = table + <usize> (m >> 32) * 48;
          x0 += load<u64>(row);
          x1 += load<u64>(row, 8);
          x2 += load<u64>(row, 16);
          x3 += load<u64>(row, 24);
          x4 += load<u64>(row, 32);
          x5 += load<u64>(row, 40);
          k++;
        }
        store<u64>(words, x0);
        store<u64>(words, x1, 8);
        store<u64>(words, x2, 16);
        store<u64>(words, x3, 24);
        store<u64>(words, x4, 32);
        store<u64>(words, x5, 40);
      }
      flushLanes(words, lanes, sums);
    }
    deltas(sums, fn, out, r, resamples);
  }
  store<u32>(state, a);
  store<u32>(state, b, 4);
  store<u32>(state, c, 8);
  store<u32>(state, d, 12);
}

/**
 * Runs resamples [from, to) of a grouped-layout job: `n` rows whose groups are at `groupOf`,
 * `groups` groups of COLUMNS values at `values`, and `counts` for one u32 per group.
 */
export function resampleGrouped(
  n: u32,
  resamples: u32,
  from: u32,
  to: u32,
  groups: u32,
  state: usize,
  groupOf: usize,
  values: usize,
  counts: usize,
  out: usize,
): void {
  const sums = state + 16;
  let a = load<u32>(state);
  let b = load<u32>(state, 4);
  let c = load<u32>(state, 8);
  let d = load<u32>(state, 12);
  const nn = <u64> n;
  const threshold = <u32> (0x1_0000_0000 % nn);
  const fn = <f64> n;
  for (let r = from; r < to; r++) {
    memory.fill(counts, 0, <usize> groups << 2);
    for (let k: u32 = 0; k < n;) {
      const t = a + b + d;
      d = d + 1;
      a = b ^ (b >>> 9);
      b = c + (c << 3);
      c = rotl<u32>(c, 21) + t;
      const m = <u64> t * nn;
      if (<u32> m < threshold) continue;
      const g = counts + (<usize> load<u32>(groupOf + (<usize> (m >> 32) << 2)) << 2);
      store<u32>(g, load<u32>(g) + 1);
      k++;
    }
    let s0: u64 = 0, s1: u64 = 0, s2: u64 = 0, s3: u64 = 0, s4: u64 = 0, s5: u64 = 0;
    let s6: u64 = 0, s7: u64 = 0, s8: u64 = 0, s9: u64 = 0, s10: u64 = 0, s11: u64 = 0;
    for (let g: usize = 0; g < <usize> groups; g++) {
      const m = <u64> load<u32>(counts + (g << 2));
      if (m == 0) continue;
      const v = values + g * 48;
      s0 += m * <u64> load<u32>(v);
      s1 += m * <u64> load<u32>(v, 4);
      s2 += m * <u64> load<u32>(v, 8);
      s3 += m * <u64> load<u32>(v, 12);
      s4 += m * <u64> load<u32>(v, 16);
      s5 += m * <u64> load<u32>(v, 20);
      s6 += m * <u64> load<u32>(v, 24);
      s7 += m * <u64> load<u32>(v, 28);
      s8 += m * <u64> load<u32>(v, 32);
      s9 += m * <u64> load<u32>(v, 36);
      s10 += m * <u64> load<u32>(v, 40);
      s11 += m * <u64> load<u32>(v, 44);
    }
    store<u64>(sums, s0);
    store<u64>(sums, s1, 8);
    store<u64>(sums, s2, 16);
    store<u64>(sums, s3, 24);
    store<u64>(sums, s4, 32);
    store<u64>(sums, s5, 40);
    store<u64>(sums, s6, 48);
    store<u64>(sums, s7, 56);
    store<u64>(sums, s8, 64);
    store<u64>(sums, s9, 72);
    store<u64>(sums, s10, 80);
    store<u64>(sums, s11, 88);
    deltas(sums, fn, out, r, resamples);
  }
  store<u32>(state, a);
  store<u32>(state, b, 4);
  store<u32>(state, c, 8);
  store<u32>(state, d, 12);
}
