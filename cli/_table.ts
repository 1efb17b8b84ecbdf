// Plain-text tables for the terminal.
import { displayWidth } from "../src/explain/text/mod.ts";

/**
 * Lays out rows in columns: the first `left` columns left-aligned, the others right-aligned.
 * Cells are measured in terminal columns (`displayWidth`), so that a slice or id in CJK, with
 * emoji or combining marks keeps its column in line; no cell is cut.
 */
export function table(header: string[], rows: string[][], left = 1): string {
  const widths = header.map((_, i) =>
    Math.max(...[header, ...rows].map((r) => displayWidth(r[i] ?? "")))
  );
  const line = (cells: string[]) =>
    cells.map((c, i) => {
      const pad = " ".repeat(widths[i]! - displayWidth(c));
      return i < left ? c + pad : pad + c;
    }).join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** A rate with its counts, e.g. `0.750 (3/4)`. */
export function rate(m: { value: number; numerator: number; denominator: number }): string {
  return `${m.value.toFixed(3)} (${m.numerator}/${m.denominator})`;
}
