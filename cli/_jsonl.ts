// Reading JSONL rows of user data with the same acceptance as model outputs (CONTRACT §1:
// Python's json.loads, nesting capped at 512): NaN and Infinity are accepted, integers of more
// than 4,300 digits and deeper nesting are rejected.
import { decodeCanonicalString, readExactObject } from "../src/_ts_engine.ts";
import { MAX_DEPTH, MAX_INT_DIGITS } from "../src/_engine_core.ts";

/** Whether a text that JSON.parse accepted breaks the depth or integer-length limits. */
function exceedsLimits(t: string): boolean {
  // Too short to hold 513 nested containers or a 4,301-digit integer.
  if (t.length <= 2 * MAX_DEPTH + 1 && t.length <= MAX_INT_DIGITS) return false;
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: find its closing quote, honouring escapes.
      for (i++; i < t.length; i++) {
        const d = t.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c >= 0x30 && c <= 0x39) {
      let j = i;
      while (j < t.length && t.charCodeAt(j) >= 0x30 && t.charCodeAt(j) <= 0x39) j++;
      const next = t.charCodeAt(j);
      // An integer literal has no fraction and no exponent after its digits.
      if (j - i > MAX_INT_DIGITS && next !== 0x2e && next !== 0x65 && next !== 0x45) return true;
      i = j - 1;
    } else if (c === 0x2e || c === 0x65 || c === 0x45) {
      // Skip a fraction or exponent's digits so they are not read as an integer.
      while (i + 1 < t.length && /[0-9+-]/.test(t[i + 1]!)) i++;
    }
  }
  return false;
}

/**
 * Reads one JSONL line as a JSON value with the contract's acceptance. Returns the value, or the
 * reason it is rejected. Strings are exact (lone surrogates survive); numbers are JS numbers,
 * which is fine for the id, digest and output fields read this way.
 */
export function readJsonLine(text: string): { value: unknown } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // JSON.parse rejects NaN and Infinity, which Python accepts: ask the exact parser.
    const fields = readExactObject(text);
    if (fields === null) return { error: "not a JSON object" };
    if (!(fields instanceof Map)) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
    const row: Record<string, unknown> = {};
    for (const [key, f] of fields) {
      Object.defineProperty(row, key, {
        value: f.kind === "string"
          ? decodeCanonicalString(f.canonical)
          : f.kind === "null"
          ? null
          : f.canonical,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return { value: row };
  }
  if (exceedsLimits(text)) {
    const exact = readExactObject(text);
    return {
      error: exact !== null && !(exact instanceof Map)
        ? `${exact.code} at ${exact.offset}`
        : "exceeds limits",
    };
  }
  return { value };
}
