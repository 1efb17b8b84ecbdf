// Reading JSONL rows of user data with the same acceptance as model outputs (CONTRACT §1:
// Python's json.loads, nesting capped at 512): NaN and Infinity are accepted, integers of more
// than 4,300 digits and deeper nesting are rejected.
import { materialize, parseJson, readExactObject } from "../engine/mod.ts";
import { isDigit, isJsonSpace, MAX_DEPTH, MAX_INT_DIGITS } from "../engine/mod.ts";

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
    } else if (isDigit(c)) {
      let j = i;
      while (isDigit(t.charCodeAt(j))) j++;
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
 * which is fine for the id, digest and output fields read this way. A line JSON.parse refuses
 * (NaN, Infinity) is read by the exact parser, each field the value JSON.parse would give, but
 * with keys in canonical order.
 */
export function readJsonLine(text: string): { value: unknown } | { error: string } {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    // JSON.parse rejects NaN and Infinity, which Python accepts: ask the exact parser.
    const fields = readExactObject(text);
    if (fields === null) return { error: "not a JSON object" };
    // The exact parser's code and offset, not JSON.parse's message, which each runtime words
    // differently.
    if (!(fields instanceof Map)) return { error: `${fields.code} at ${fields.offset}` };
    // Each field as JSON.parse would give it (a number as a number, NaN too), not its text, as an
    // own property (fromEntries defines them: a key "__proto__" is a field, not the prototype).
    return {
      value: Object.fromEntries([...fields].map(([k, f]) => [k, materialize(f.canonical)])),
    };
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

/** Container kinds of the open containers, by depth (1 for an object). */
const kinds = new Uint8Array(MAX_DEPTH + 2);
const OBJECT = 1;

/** The end (exclusive) of the string literal opening at `i`, or -1 when it is not strict JSON. */
function strictStringEnd(t: string, i: number): number {
  const n = t.length;
  let j = i + 1;
  while (j < n) {
    const c = t.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c === 0x5c) {
      const e = t.charCodeAt(j + 1);
      if (e === 0x75) {
        for (let k = j + 2; k < j + 6; k++) {
          const h = t.charCodeAt(k);
          if (!((h >= 0x30 && h <= 0x39) || (h >= 0x61 && h <= 0x66) || (h >= 0x41 && h <= 0x46))) {
            return -1;
          }
        }
        j += 6;
      } else if (
        e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e ||
        e === 0x72 || e === 0x74
      ) {
        j += 2;
      } else {
        return -1;
      }
    } else if (c < 0x20) {
      return -1;
    } else {
      j++;
    }
  }
  return -1;
}

/**
 * The end (exclusive) of the number opening at `i`, or -1 when it is not strict JSON or its
 * integer part has more than the contract's digits (whatever follows it).
 */
function strictNumberEnd(t: string, i: number): number {
  let j = i;
  if (t.charCodeAt(j) === 0x2d) j++;
  const c = t.charCodeAt(j);
  if (c === 0x30) {
    j++;
  } else if (c >= 0x31 && c <= 0x39) {
    const start = j;
    while (isDigit(t.charCodeAt(j))) j++;
    if (j - start > MAX_INT_DIGITS) return -1;
  } else {
    return -1;
  }
  if (t.charCodeAt(j) === 0x2e) {
    j++;
    if (!isDigit(t.charCodeAt(j))) return -1;
    while (isDigit(t.charCodeAt(j))) j++;
  }
  const e = t.charCodeAt(j);
  if (e === 0x65 || e === 0x45) {
    j++;
    const s = t.charCodeAt(j);
    if (s === 0x2b || s === 0x2d) j++;
    if (!isDigit(t.charCodeAt(j))) return -1;
    while (isDigit(t.charCodeAt(j))) j++;
  }
  return j;
}

/** The index after the `:` that follows a key ending at `k` (whitespace allowed), or -1. */
function afterColon(t: string, k: number): number {
  while (isJsonSpace(t.charCodeAt(k))) k++;
  return t.charCodeAt(k) === 0x3a ? k + 1 : -1;
}

/** Which of `names` the string literal `t[start, end)` decodes to, or -1. */
function keyIndex(t: string, start: number, end: number, names: readonly string[]): number {
  let escaped = false;
  for (let j = start + 1; j < end - 1; j++) {
    if (t.charCodeAt(j) === 0x5c) {
      escaped = true;
      break;
    }
  }
  if (escaped) return names.indexOf(JSON.parse(t.slice(start, end)));
  for (let k = 0; k < names.length; k++) {
    const name = names[k]!;
    if (end - start === name.length + 2 && t.startsWith(name, start + 1)) return k;
  }
  return -1;
}

/**
 * Checks that `t` is one JSON object the contract accepts, read conservatively: JSON (as
 * JSON.parse takes it) plus the literals NaN, Infinity and -Infinity, nesting at most 512 deep,
 * and no number whose integer part has more than 4,300 digits (even with a fraction, which the
 * contract would accept). Returns the text of the last top-level member named each of `names`
 * (keys compared as decoded), exactly as written (`undefined` where there is none), or
 * `undefined` when `t` is not such an object; it may still be valid for the contract then (read
 * it another way, which also words the error).
 */
export function scanStrictObject(
  t: string,
  names: readonly string[],
): (string | undefined)[] | undefined {
  const n = t.length;
  let i = 0;
  while (isJsonSpace(t.charCodeAt(i))) i++;
  if (t.charCodeAt(i) !== 0x7b) return undefined;
  const found = new Array<string | undefined>(names.length).fill(undefined);
  let depth = 0;
  let keyStart = -1;
  let keyEnd = -1;
  let memberStart = -1;
  // Reads the key literal at `at` and its colon (noting a top-level key); the index after the
  // colon, or -1.
  const memberKey = (at: number): number => {
    if (t.charCodeAt(at) !== 0x22) return -1;
    const k = strictStringEnd(t, at);
    if (k < 0) return -1;
    if (depth === 1) {
      keyStart = at;
      keyEnd = k;
    }
    return afterColon(t, k);
  };
  // Enter the top-level object; then alternate between reading a value and what follows it.
  for (;;) {
    // A value at i (after whitespace).
    while (isJsonSpace(t.charCodeAt(i))) i++;
    if (depth === 1) memberStart = i;
    const c = t.charCodeAt(i);
    let opened = false;
    if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_DEPTH) return undefined;
      kinds[depth] = c === 0x7b ? OBJECT : 0;
      i++;
      while (isJsonSpace(t.charCodeAt(i))) i++;
      const d = t.charCodeAt(i);
      if (d === (c === 0x7b ? 0x7d : 0x5d)) {
        i++;
        depth--;
      } else {
        opened = true;
      }
    } else if (c === 0x22) {
      i = strictStringEnd(t, i);
    } else if (c === 0x2d && t.charCodeAt(i + 1) === 0x49) {
      if (!t.startsWith("-Infinity", i)) return undefined;
      i += 9;
    } else if (c === 0x2d || isDigit(c)) {
      i = strictNumberEnd(t, i);
    } else if (c === 0x74 && t.startsWith("true", i)) {
      i += 4;
    } else if (c === 0x66 && t.startsWith("false", i)) {
      i += 5;
    } else if (c === 0x6e && t.startsWith("null", i)) {
      i += 4;
    } else if (c === 0x4e && t.startsWith("NaN", i)) {
      i += 3;
    } else if (c === 0x49 && t.startsWith("Infinity", i)) {
      i += 8;
    } else {
      return undefined;
    }
    if (i < 0) return undefined;
    if (opened) {
      if (kinds[depth] !== OBJECT) continue; // the first element of an array
      i = memberKey(i); // the first key of an object
      if (i < 0) return undefined;
      continue;
    }
    // After a complete value: close containers, or go on to the next member or element.
    for (;;) {
      if (depth === 1 && memberStart >= 0) {
        const k = keyIndex(t, keyStart, keyEnd, names);
        if (k >= 0) found[k] = t.slice(memberStart, i);
        memberStart = -1;
      }
      while (isJsonSpace(t.charCodeAt(i))) i++;
      if (depth === 0) return i === n ? found : undefined;
      const d = t.charCodeAt(i);
      const object = kinds[depth] === OBJECT;
      if (d === (object ? 0x7d : 0x5d)) {
        i++;
        depth--;
        continue;
      }
      if (d !== 0x2c) return undefined;
      i++;
      if (object) {
        while (isJsonSpace(t.charCodeAt(i))) i++;
        i = memberKey(i);
        if (i < 0) return undefined;
      }
      break;
    }
  }
}
