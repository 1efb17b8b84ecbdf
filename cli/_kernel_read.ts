// Reading a file, or a byte range of it, into a phase of the Wasm scoring kernel: whole lines
// written straight into the kernel's memory, a chunk at a time. Shared by `assay score`'s fast
// path and its worker.
import type { KernelBail, ScoreKernel } from "../src/evaluation/_score_kernel.ts";
import { EXAMPLE_CHUNK } from "./_score_prestart.ts";

/** Bytes read per chunk. */
const READ_BYTES = 4 << 20;

/** A file two readers share, by claims (see readClaims). */
export interface FileShare {
  path: string;
  size: number;
}

/** A byte range of a file: `[from, to)`. */
export interface FileRange {
  path: string;
  from: number;
  to: number;
}

/**
 * Streams the lines of `range` through a kernel phase (a UTF-8 BOM is dropped at the file's
 * start); returns its non-blank rows, or why the kernel gave up. `progress` sees each read.
 * `open` is the file, already open, when the caller reads more of it; `after` runs after each
 * chunk (and may give up too).
 */
export function readPhase(
  range: FileRange,
  kernel: ScoreKernel,
  run: (len: number, firstLine: number) => KernelBail | undefined,
  progress?: (bytes: number, rows: number) => void,
  open?: Deno.FsFile,
  after?: () => KernelBail | undefined,
): number | KernelBail {
  const file = open ?? Deno.openSync(range.path, { read: true });
  let rows = 0;
  try {
    file.seekSync(range.from, Deno.SeekMode.Start);
    let left = range.to - range.from;
    let tail = new Uint8Array(0);
    let line = 1; // lines of a range after the first are numbered from 1 too: only bails use them
    let first = range.from === 0;
    let eof = false;
    while (!eof) {
      const view = kernel.input(tail.length + READ_BYTES);
      view.set(tail);
      let filled = tail.length;
      while (filled < view.length) {
        const n = left === 0
          ? null
          : file.readSync(view.subarray(filled, filled + Math.min(left, view.length - filled)));
        if (n === null) {
          eof = true;
          break;
        }
        left -= n;
        progress?.(n, rows);
        filled += n;
      }
      if (first && filled >= 3 && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) {
        view.copyWithin(0, 3, filled);
        filled -= 3;
      }
      first = false;
      let len = filled;
      tail = new Uint8Array(0);
      if (!eof) {
        const nl = view.subarray(0, filled).lastIndexOf(10);
        if (nl < 0) {
          tail = view.slice(0, filled); // a line longer than the chunk: read on
          continue;
        }
        len = nl + 1;
        tail = view.slice(len, filled);
      }
      if (len === 0) continue;
      const bail = run(len, line) ?? after?.();
      if (bail) return bail;
      line = kernel.nextLine;
      rows += kernel.chunkRows;
    }
  } finally {
    if (!open) file.close();
  }
  return rows;
}

/** The largest and smallest share of a file one claim takes (see readClaims). */
let claimMax = 2 << 20;
let claimMin = 256 << 10;
/** The chunk two readers take from the two ends of a file (see readEnds). */
let endChunk = EXAMPLE_CHUNK;

/** The chunk of readEnds now (both readers must use the same). */
export function endChunkBytes(): number {
  return endChunk;
}

/**
 * Sets the bounds of a claim and the chunk of readEnds (for tests: small ones make two readers
 * take turns often).
 */
export function setClaimBytes(min: number, max: number, ends: number): void {
  claimMin = min;
  claimMax = max;
  endChunk = ends;
}

/**
 * Two readers sharing a file from its two ends: the file is cut into chunks of `chunk` bytes (the
 * same for both),
 * `taken` (an atomic counter both see) counts those handed out, and each reader takes the next
 * one from its end, the front reader chunks 0, 1, 2, … and the back reader the last, the one
 * before, … (each read forward), until none is left. The front reader's lines are a prefix of
 * the file and the back reader's the rest, however fast each one reads. `chunkDone` runs after
 * each chunk the kernel read. Returns the rows read here, or why the kernel gave up.
 */
export function readEnds(
  path: string,
  size: number,
  chunk: number,
  taken: Int32Array,
  front: boolean,
  kernel: ScoreKernel,
  run: (len: number, firstLine: number) => KernelBail | undefined,
  progress?: (bytes: number, rows: number) => void,
  chunkDone?: () => void,
): number | KernelBail {
  const chunks = Math.max(1, Math.ceil(size / chunk));
  let mine = 0;
  return readEach(path, size, kernel, run, progress, undefined, chunkDone, () => {
    if (Atomics.add(taken, 0, 1) >= chunks) return undefined;
    const i = front ? mine : chunks - 1 - mine;
    mine++;
    return [i * chunk, Math.min(size, (i + 1) * chunk)];
  });
}

/**
 * Two readers sharing a file: each claims the next byte range from `next[slot]` (an atomic
 * counter both see) and reads the lines that start in it (see claimLines), until the file is
 * claimed. Claims shrink as the file runs out (an eighth of what is left, within the bounds), so
 * the two finish close together however fast each one reads. `after` runs after each chunk.
 * Returns the rows read here, or why the kernel gave up.
 */
export function readClaims(
  path: string,
  size: number,
  next: BigInt64Array,
  slot: number,
  kernel: ScoreKernel,
  run: (len: number, firstLine: number) => KernelBail | undefined,
  progress?: (bytes: number, rows: number) => void,
  after?: () => KernelBail | undefined,
): number | KernelBail {
  return readEach(path, size, kernel, run, progress, after, undefined, () => {
    const left = size - Number(Atomics.load(next, slot));
    if (left <= 0) return undefined;
    const want = Math.min(claimMax, Math.max(claimMin, Math.ceil(left / 8)));
    const from = Number(Atomics.add(next, slot, BigInt(want)));
    return from >= size ? undefined : [from, Math.min(size, from + want)];
  });
}

/**
 * Reads, with one open file, the lines of each claim `claim` hands out (see claimLines) until it
 * hands out none; `after` runs after each chunk of the kernel's, `claimDone` after each claim.
 */
function readEach(
  path: string,
  size: number,
  kernel: ScoreKernel,
  run: (len: number, firstLine: number) => KernelBail | undefined,
  progress: ((bytes: number, rows: number) => void) | undefined,
  after: (() => KernelBail | undefined) | undefined,
  claimDone: (() => void) | undefined,
  claim: () => [number, number] | undefined,
): number | KernelBail {
  const file = Deno.openSync(path, { read: true });
  let rows = 0;
  try {
    for (let c = claim(); c; c = claim()) {
      const [start, end] = claimLines(file, c[0], c[1], size);
      if (start === end) continue;
      const r = readPhase({ path, from: start, to: end }, kernel, run, progress, file, after);
      if (typeof r !== "number") return r;
      rows += r;
      claimDone?.();
    }
  } finally {
    file.close();
  }
  return rows;
}

/**
 * The lines of a claim `[from, to)` of a file of `size` bytes: those that start in it, from the
 * first that starts at or after `from` to the end of the last that starts before `to`, as a byte
 * range (empty when no line starts in the claim). Consecutive claims that cover the file give
 * ranges that cover it too, each line in exactly one.
 */
export function claimLines(
  file: Deno.FsFile,
  from: number,
  to: number,
  size: number,
): [number, number] {
  const start = from === 0 ? 0 : lineAfter(file, from - 1, size);
  if (start >= to) return [start, start];
  return [start, lineAfter(file, to - 1, size)];
}

/** The position just after the first line break at or after `at` (the file's size without one). */
function lineAfter(file: Deno.FsFile, at: number, size: number): number {
  const buffer = new Uint8Array(4096);
  file.seekSync(at, Deno.SeekMode.Start);
  for (;;) {
    const n = file.readSync(buffer);
    if (n === null) return size;
    const nl = buffer.subarray(0, n).indexOf(10);
    if (nl >= 0) return at + nl + 1;
    at += n;
  }
}
