// Reading a file, or a byte range of it, into a phase of the Wasm scoring kernel: whole lines
// written straight into the kernel's memory, a chunk at a time. Shared by `assay score`'s fast
// path and its worker.
import type { KernelBail, ScoreKernel } from "../src/_score_kernel.ts";

/** Bytes read per chunk. */
const READ_BYTES = 4 << 20;

/** A byte range of a file: `[from, to)`. */
export interface FileRange {
  path: string;
  from: number;
  to: number;
}

/**
 * Streams the lines of `range` through a kernel phase (a UTF-8 BOM is dropped at the file's
 * start); returns its non-blank rows, or why the kernel gave up. `progress` sees each read.
 */
export function readPhase(
  range: FileRange,
  kernel: ScoreKernel,
  run: (len: number, firstLine: number) => KernelBail | undefined,
  progress?: (bytes: number, rows: number) => void,
): number | KernelBail {
  const file = Deno.openSync(range.path, { read: true });
  let rows = 0;
  try {
    if (range.from > 0) file.seekSync(range.from, Deno.SeekMode.Start);
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
      const bail = run(len, line);
      if (bail) return bail;
      line = kernel.nextLine;
      rows += kernel.chunkRows;
    }
  } finally {
    file.close();
  }
  return rows;
}

/**
 * Where to cut a file in two for two readers: just after the first line break at or past the
 * `share` of its size (the file's size when there is none).
 */
export function splitPoint(path: string, size: number, share: number): number {
  const file = Deno.openSync(path, { read: true });
  try {
    let at = Math.floor(size * share);
    file.seekSync(at, Deno.SeekMode.Start);
    const buffer = new Uint8Array(1 << 16);
    for (;;) {
      const n = file.readSync(buffer);
      if (n === null) return size;
      const nl = buffer.subarray(0, n).indexOf(10);
      if (nl >= 0) return at + nl + 1;
      at += n;
    }
  } finally {
    file.close();
  }
}
