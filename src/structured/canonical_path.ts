// Dotted field paths, looked up directly in canonical JSON text (our own output: ASCII, no
// whitespace, keys sorted, depth <= 512), so values compare exactly as canonical text. The
// lookup and the numeric form read the text with the engine's scanner of canonical text.
import { canonicalValue } from "../engine/mod.ts";

export { lookupCanonical, numericForm } from "../engine/mod.ts";

/**
 * Splits a dotted path into segments. `\.` is a literal dot and `\\` a literal backslash, so
 * `a\.b.c` is the key `a.b` then `c`.
 *
 * @throws {RangeError} If the path is empty, has an empty segment or a dangling backslash.
 */
export function splitDottedPath(path: string): string[] {
  const segments: string[] = [];
  let cur = "";
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === "\\") {
      const next = path[i + 1];
      if (next !== "." && next !== "\\") {
        throw new RangeError(
          `Invalid field path ${JSON.stringify(path)}: "\\" must be followed by "." or "\\"`,
        );
      }
      cur += next;
      i++;
    } else if (c === ".") {
      segments.push(cur);
      cur = "";
    } else {
      cur += c;
    }
  }
  segments.push(cur);
  if (segments.some((s) => s === "")) {
    throw new RangeError(`Invalid field path ${JSON.stringify(path)}: empty segment`);
  }
  return segments;
}

/** A string as a canonical JSON string literal (CONTRACT §2: ASCII, lowercase `\uXXXX`). */
export function canonicalLiteral(s: string): string {
  return canonicalValue(s);
}
