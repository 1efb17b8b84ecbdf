// A progress bar on stderr, shown only on a terminal and only for large inputs.

/** Reports progress through `total` bytes; silent unless enabled. */
export class Progress {
  #done = 0;
  #last = 0;
  #enabled: boolean;

  constructor(readonly total: number, readonly label: string, enabled: boolean) {
    this.#enabled = enabled && Deno.stderr.isTerminal() && total >= 8 << 20;
  }

  /** Counts bytes read; `rows`, when known, is the rows read so far. */
  add(bytes: number, rows?: number): void {
    this.#done += bytes;
    if (!this.#enabled) return;
    const now = performance.now();
    if (now - this.#last < 100) return;
    this.#last = now;
    const f = Math.min(1, this.#done / this.total);
    const bar = "#".repeat(Math.round(f * 30)).padEnd(30, ".");
    const mb = (this.#done / 1e6).toFixed(0);
    const text = `\r${this.label} [${bar}] ${(f * 100).toFixed(0).padStart(3)}%  ` +
      (rows === undefined ? `${mb} MB` : `${rows} rows`);
    Deno.stderr.writeSync(new TextEncoder().encode(text));
  }

  /** Starts again from zero (a second pass over the same inputs). */
  restart(): void {
    this.#done = 0;
  }

  /** Clears the bar. */
  done(): void {
    if (this.#enabled) Deno.stderr.writeSync(new TextEncoder().encode("\r\x1b[K"));
  }
}

/**
 * Shows `text` on stderr while work that may take minutes runs (a bootstrap of a million
 * examples), on a terminal only; returns what clears it.
 */
export function working(text: string): () => void {
  if (!Deno.stderr.isTerminal()) return () => {};
  const enc = new TextEncoder();
  Deno.stderr.writeSync(enc.encode(`\r${text}\u2026`));
  return () => Deno.stderr.writeSync(enc.encode("\r\x1b[K"));
}
