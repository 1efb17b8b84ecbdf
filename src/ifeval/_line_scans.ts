// Linear-time equivalents of three IFEval findall patterns that backtrack quadratically on
// adversarial text ("\n" * n, "[" * n, "<<" * n): each gives the matches Python's re.findall
// gives, found by one scan. tests/ifeval/line_scans_test.ts checks them against the regexes.
import { isSpace } from "./_python_text.ts";

/** For each index, the first index at or after it that is not Python whitespace. */
function nextNonSpace(text: string): Int32Array {
  const next = new Int32Array(text.length + 1);
  next[text.length] = text.length;
  for (let i = text.length - 1; i >= 0; i--) next[i] = isSpace(text[i]!) ? next[i + 1]! : i;
  return next;
}

/**
 * The number of `re.findall(r"^\s*\*[^\*].*$", text, re.M)` matches (`marker` "*") or of
 * `r"^\s*-.*$"` (`marker` "-"). A match starts at a line start; `\s*` (which may cross lines) must
 * be followed by the marker, since the marker is not whitespace; it ends at the end of the line
 * of the marker, or of the next line when the star is followed by "\n".
 */
export function countBullets(text: string, marker: "*" | "-"): number {
  const next = nextNonSpace(text);
  let count = 0;
  let pos = 0;
  while (pos <= text.length) {
    let p = pos;
    if (p > 0 && text[p - 1] !== "\n") {
      const nl = text.indexOf("\n", p);
      if (nl < 0) break;
      p = nl + 1;
    }
    const q = next[p]!;
    const ok = text[q] === marker &&
      (marker === "-" || (q + 1 < text.length && text[q + 1] !== "*"));
    if (!ok) {
      pos = p + 1;
      continue;
    }
    count++;
    const from = marker === "*" ? q + 2 : q + 1;
    const nl = text.indexOf("\n", from);
    pos = nl < 0 ? text.length : nl;
    if (pos === text.length) break;
  }
  return count;
}

/** The number of `re.findall(r"\[.*?\]", text)` matches: per line, "[" up to the next "]". */
export function countPlaceholders(text: string): number {
  let count = 0;
  for (const line of text.split("\n")) {
    let i = line.indexOf("[");
    while (i >= 0) {
      const j = line.indexOf("]", i + 1);
      if (j < 0) break;
      count++;
      i = line.indexOf("[", j + 1);
    }
  }
  return count;
}

/**
 * The matches of `re.findall(r"<<[^\n]+>>", text)`: at most one per line, from its first "<<" to
 * its last ">>", when that ">>" leaves at least one character between them.
 */
export function titles(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const i = line.indexOf("<<");
    if (i < 0) continue;
    const j = line.lastIndexOf(">>");
    if (j >= i + 3) out.push(line.slice(i, j + 2));
  }
  return out;
}
