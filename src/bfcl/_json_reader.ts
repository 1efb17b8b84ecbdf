// JSON text to Python values with `json.loads` semantics: the engine's canonicalizer decides
// acceptance and gives exact values (integers kept apart from floats, last duplicate key wins);
// key order, which canonical text sorts, is taken back from JSON.parse when it can read the text.
import { canonicalize, decodeCanonicalString, parseJson } from "../engine/mod.ts";
import { PyDict, PyFloat, PyInt, type PyValue } from "./py_value.ts";

class CanonicalReader {
  pos = 0;
  constructor(readonly text: string) {}

  value(): PyValue {
    const t = this.text;
    const c = t[this.pos];
    if (c === '"') return this.string();
    if (c === "{") {
      const d = new PyDict();
      this.pos++;
      if (t[this.pos] === "}") {
        this.pos++;
        return d;
      }
      for (;;) {
        const key = this.string();
        this.pos++; // ':'
        d.set(key, this.value());
        if (t[this.pos++] === "}") return d;
      }
    }
    if (c === "[") {
      const items: PyValue[] = [];
      this.pos++;
      if (t[this.pos] === "]") {
        this.pos++;
        return items;
      }
      for (;;) {
        items.push(this.value());
        if (t[this.pos++] === "]") return items;
      }
    }
    let end = this.pos;
    while (end < t.length && !",]}".includes(t[end]!)) end++;
    const token = t.slice(this.pos, end);
    this.pos = end;
    if (token === "null") return null;
    if (token === "true") return true;
    if (token === "false") return false;
    if (token === "NaN") return new PyFloat(NaN);
    if (token === "Infinity") return new PyFloat(Infinity);
    if (token === "-Infinity") return new PyFloat(-Infinity);
    return /[.eE]/.test(token) ? new PyFloat(Number(token)) : new PyInt(BigInt(token));
  }

  string(): string {
    const t = this.text;
    let i = this.pos + 1;
    while (t[i] !== '"') i += t[i] === "\\" ? 2 : 1;
    const literal = t.slice(this.pos, i + 1);
    this.pos = i + 1;
    return decodeCanonicalString(literal);
  }
}

/** Puts each dict's keys back in the order of the JS value parsed from the same text. */
function reorder(value: PyValue, js: unknown): PyValue {
  if (value instanceof PyDict) {
    if (js === null || typeof js !== "object" || Array.isArray(js)) return value;
    const out = new PyDict();
    const o = js as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const v = value.get(k);
      if (v !== undefined) out.set(k, reorder(v, o[k]));
    }
    for (const [k, v] of value.entries()) if (!out.has(k)) out.set(k, v);
    return out;
  }
  if (Array.isArray(value) && Array.isArray(js)) return value.map((v, i) => reorder(v, js[i]));
  return value;
}

/**
 * The outcome of reading one JSON text; a failure has Python's message and the canonicalizer's
 * error code.
 */
export type JsonRead = { ok: true; value: PyValue } | { ok: false; reason: string; code: string };

const MESSAGES: Record<string, string> = {
  expecting_value: "Expecting value",
  expecting_property_name: "Expecting property name enclosed in double quotes",
  expecting_colon: "Expecting ':' delimiter",
  expecting_comma: "Expecting ',' delimiter",
  extra_data: "Extra data",
  unterminated_string: "Unterminated string starting at",
  invalid_control_character: "Invalid control character at",
  invalid_escape: "Invalid \\escape",
  invalid_unicode_escape: "Invalid \\uXXXX escape",
};

/** Python's JSONDecodeError text: the message, then line, column and character (code points). */
function decodeError(text: string, code: string, offset: number): string {
  // Python points one further for a bad \u escape: at the `u`, not the backslash.
  const at = offset + (code === "invalid_unicode_escape" ? 1 : 0);
  const before = [...text.slice(0, at)];
  const pos = before.length;
  const line = before.filter((c) => c === "\n").length + 1;
  const col = pos - before.lastIndexOf("\n");
  const message = MESSAGES[code] ?? code.replaceAll("_", " ");
  return `${message}: line ${line} column ${col} (char ${pos})`;
}

/** Reads one JSON text as Python's `json.loads` would. */
export function readJson(text: string): JsonRead {
  const r = canonicalize(text);
  if (!r.ok) {
    return {
      ok: false,
      reason: decodeError(text, r.error.code, r.error.offset),
      code: r.error.code,
    };
  }
  const value = new CanonicalReader(r.canonical).value();
  let js: unknown;
  try {
    js = parseJson(text);
  } catch {
    return { ok: true, value }; // NaN or Infinity: keys stay in code-point order
  }
  return { ok: true, value: reorder(value, js) };
}

/**
 * The kind of the first container of a JSON text opened `depth` levels deep, or undefined: its
 * brackets outside strings counted, the text not read (in valid JSON they are its containers).
 */
export function openedAtDepth(text: string, depth: number): "array" | "object" | undefined {
  let d = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "[" || c === "{") {
      if (++d === depth) return c === "[" ? "array" : "object";
    } else if (c === "]" || c === "}") d--;
  }
  return undefined;
}
