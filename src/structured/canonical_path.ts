// Dotted field paths, looked up directly in canonical JSON text (our own output: ASCII, no
// whitespace, keys sorted, depth <= 512), so values compare exactly as canonical text.

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

// Index just past the string literal whose opening quote is at `p`.
function skipString(t: string, p: number): number {
  p++;
  for (;;) {
    const d = t.charCodeAt(p);
    if (d === 0x5c) p += 2;
    else if (d === 0x22) return p + 1;
    else p++;
  }
}

// Index just past the value starting at `p`.
function skipValue(t: string, p: number): number {
  let depth = 0;
  for (;;) {
    const c = t.charCodeAt(p);
    if (c === 0x22) {
      p = skipString(t, p);
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      p++;
      continue;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      p++;
    } else if (c === 0x2c || c === 0x3a) {
      // A separator inside a container.
      p++;
      continue;
    } else {
      while (p < t.length) {
        const d = t.charCodeAt(p);
        if (d === 0x2c || d === 0x5d || d === 0x7d || d === 0x3a) break;
        p++;
      }
    }
    if (depth === 0) return p;
  }
}

/**
 * Finds the canonical text of the value at `segments` (each given as its canonical JSON string
 * literal) inside `canonical`, or undefined when the path is absent. A segment that is a
 * decimal index without leading zeros indexes an array; on an object it is a key.
 */
export function lookupCanonical(
  canonical: string,
  segments: readonly string[],
  literals: readonly string[],
): string | undefined {
  let start = 0;
  let end = canonical.length;
  for (let k = 0; k < segments.length; k++) {
    const c = canonical.charCodeAt(start);
    let p = start + 1;
    if (c === 0x7b) {
      const lit = literals[k]!;
      if (canonical.charCodeAt(p) === 0x7d) return undefined;
      for (;;) {
        const keyEnd = skipValue(canonical, p);
        const valueStart = keyEnd + 1;
        const valueEnd = skipValue(canonical, valueStart);
        if (keyEnd - p === lit.length && canonical.startsWith(lit, p)) {
          start = valueStart;
          end = valueEnd;
          break;
        }
        if (canonical.charCodeAt(valueEnd) === 0x7d) return undefined;
        p = valueEnd + 1;
      }
    } else if (c === 0x5b) {
      const seg = segments[k]!;
      if (!/^(0|[1-9][0-9]{0,8})$/.test(seg)) return undefined;
      let index = Number(seg);
      if (canonical.charCodeAt(p) === 0x5d) return undefined;
      for (;;) {
        const valueEnd = skipValue(canonical, p);
        if (index === 0) {
          start = p;
          end = valueEnd;
          break;
        }
        if (canonical.charCodeAt(valueEnd) === 0x5d) return undefined;
        index--;
        p = valueEnd + 1;
      }
    } else {
      return undefined;
    }
  }
  return canonical.slice(start, end);
}

/**
 * Rewrites every number in canonical text so that equal numbers compare equal as text: `1.0`
 * and `1` both become `1`, `1e+16` becomes `10000000000000000`, `-0.0` becomes `0`. Integers
 * keep their exact digits; other floats keep their shortest round-trip digits.
 */
export function numericForm(canonical: string): string {
  let out = "";
  let last = 0;
  let p = 0;
  const t = canonical;
  while (p < t.length) {
    const c = t.charCodeAt(p);
    if (c === 0x22) {
      p = skipString(t, p);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let e = p + 1;
      let isFloat = false;
      while (e < t.length) {
        const d = t.charCodeAt(e);
        if (d === 0x2c || d === 0x5d || d === 0x7d) break;
        if (d === 0x2e || d === 0x65) isFloat = true;
        e++;
      }
      if (isFloat) {
        const x = Number(t.slice(p, e));
        const form = Number.isInteger(x) ? BigInt(x).toString() : String(x);
        out += t.slice(last, p) + form;
        last = e;
      }
      p = e;
    } else {
      p++;
    }
  }
  return last === 0 ? t : out + t.slice(last);
}

/** A string as a canonical JSON string literal (CONTRACT §2: ASCII, lowercase `\uXXXX`). */
export function canonicalLiteral(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u === 0x22) out += '\\"';
    else if (u === 0x5c) out += "\\\\";
    else if (u >= 0x20 && u <= 0x7e) out += s[i];
    else if (u === 0x0a) out += "\\n";
    else if (u === 0x0d) out += "\\r";
    else if (u === 0x09) out += "\\t";
    else if (u === 0x08) out += "\\b";
    else if (u === 0x0c) out += "\\f";
    else out += "\\u" + u.toString(16).padStart(4, "0");
  }
  return out + '"';
}
