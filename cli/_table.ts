// Plain-text tables for the terminal.

/** Lays out rows in columns: the first `left` columns left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][], left = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < left ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** A rate with its counts, e.g. `0.750 (3/4)`. */
export function rate(m: { value: number; numerator: number; denominator: number }): string {
  return `${m.value.toFixed(3)} (${m.numerator}/${m.denominator})`;
}
