// The number lexemes of the JSON lines a suite reads from its files. A line is parsed into JS
// values, which lose what JSON text says of a number beyond its double: `1.0` is `1`, `1e2` is
// `100`, `9007199254740993` is `9007199254740992`. The calls' arguments compare as canonical JSON
// (`exact`: `1` ≠ `1.0`), so a golden's `{"x": 1.0}` would miss an agent's `{"x": 1.0}` and match
// its `{"x": 1}`. `rememberExact` keeps, for each object and array of a line's call fields that
// lost a lexeme, its canonical text as the file wrote it; `exactText` gives it back for as long as
// the value is still what that text parses to (an object edited since is read as it is now).
import { canonicalize, canonicalValue, lookupCanonical, parseJson } from "../engine/mod.ts";

const EXACT = new WeakMap<object, string>();

/**
 * Remembers the canonical text, as `line` writes it, of each object and array inside the
 * `fields` of `value` (the line parsed) that says more of a number than `value` keeps. Only the
 * fields that hold calls are looked into (a trace's `final_rows` may be large and holds none).
 */
export function rememberExact(value: unknown, line: string, fields: readonly string[]): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  const record = value as Record<string, unknown>;
  const held = fields.filter((f) => typeof record[f] === "object" && record[f] !== null);
  if (held.length === 0) return;
  const r = canonicalize(line);
  if (!r.ok) return;
  const canonical = r.canonical;
  const index = new Map();
  const segments: string[] = [];
  const literals: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v !== "object" || v === null) return;
    const text = lookupCanonical(canonical, segments, literals, index);
    if (text === undefined) return;
    EXACT.set(v, text);
    const entries: [string, unknown][] = Array.isArray(v)
      ? v.map((x, i) => [String(i), x])
      : Object.entries(v);
    for (const [key, x] of entries) {
      segments.push(key);
      literals.push(canonicalValue(key));
      walk(x);
      segments.pop();
      literals.pop();
    }
  };
  for (const field of held) {
    const literal = canonicalValue(field);
    // Nothing lost in this field: its values say all the file does.
    if (lookupCanonical(canonical, [field], [literal], index) === canonicalValue(record[field])) {
      continue;
    }
    segments.push(field);
    literals.push(literal);
    walk(record[field]);
    segments.pop();
    literals.pop();
  }
}

/**
 * The canonical text of an object or array as its file wrote it, number lexemes and all, if it
 * was read by `rememberExact` and is still what that text parses to; else undefined.
 */
export function exactText(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const text = EXACT.get(value);
  if (text === undefined) return undefined;
  try {
    return canonicalValue(parseJson(text)) === canonicalValue(value) ? text : undefined;
  } catch {
    return undefined; // no longer JSON (a cycle, a BigInt added since): read as it is
  }
}
