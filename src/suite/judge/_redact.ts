// Redaction of the API keys from every string that leaves the judge, in whatever encoding a
// server, a proxy or a model echoed them: the text is decoded layer by layer (backslash escapes,
// percent-encoding, HTML character references, base64), each decoder on its own so that a chain
// of them is undone in any order, up to a fixed point; every decoded character remembers the span
// of the original text it came from, and each place where a key is found in any layer is replaced
// in the original by `[redacted]`. The decoders themselves live in _decoders.ts.
import { Builder, decodeBase64, DECODERS, isBase64Digit, texty } from "./_decoders.ts";

/** What replaces each span of the original text that encodes a key. */
export const REDACTED = "[redacted]";
/** What replaces a whole text whose layers of encoding could not all be checked. */
export const UNCHECKED = "[redacted: too many layers of encoding to check for API keys]";

/** Keys shorter than this are refused (a shorter one would match ordinary text). */
export const MIN_KEY_LENGTH = 8;

const MAX_ESCAPE_DEPTH = 8;
const MAX_BASE64_DEPTH = 3;
// A base64 run shorter than this decodes to fewer than MIN_KEY_LENGTH bytes.
const MIN_BASE64_RUN = Math.ceil((MIN_KEY_LENGTH * 4) / 3) + 1;
// A text cut short by the judge (a capped body) may end inside an encoded key: its tail is
// redacted too, as long as the longest key in its most expanded form (12 characters a character,
// as in `\\u0073` or `%2525`) can be.
const EXPANSION = 12;

/** Redacts the keys from `s`; `cut` says that `s` was cut short, so its tail may hold part of one. */
export type Redactor = (s: string, cut?: boolean) => string;

/** One decoded form of the text: its characters and, for each, the span of the original. */
interface Layer {
  text: string;
  /** Original start of each character; null when the layer is the original itself. */
  from: Int32Array | null;
  /** Original end of each character. */
  to: Int32Array | null;
  escapes: number;
  base64: number;
}

class Overflow extends Error {}

/**
 * Makes the redactor of a set of keys.
 *
 * Each key is searched for as it is and as lower- and upper-case hex, in the text and in every
 * layer reached from it by the decoders, each applied on its own, in any order, until none
 * changes the text (or 8 escape layers deep; a text that still decodes further is replaced as a
 * whole by {@linkcode UNCHECKED}, as is one whose layers add up to more than 32 times its length).
 * The decoders: backslash escapes, percent-encoding, HTML references, and base64 (both alphabets,
 * at all four offsets of every run of 11 or more base64 digits, 3 layers deep). A decoded
 * character maps back to the characters it came from, so the original's span is what is
 * replaced: for base64, the digits that carry any bit of the key.
 *
 * @param secrets The keys (each at least {@linkcode MIN_KEY_LENGTH} characters).
 * @returns The redactor.
 */
export function makeRedactor(secrets: readonly string[]): Redactor {
  const targets = new Set<string>();
  for (const k of secrets) {
    if (k.length < MIN_KEY_LENGTH) continue;
    targets.add(k);
    const hex = [...k].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
    targets.add(hex);
    targets.add(hex.toUpperCase());
  }
  const forms = [...targets];
  if (forms.length === 0) return (s) => s;
  const tail = EXPANSION * Math.max(...secrets.map((k) => k.length));
  return (s, cut = false) => {
    // A second pass checks the result: a text reached along two paths of decoding is searched
    // once, so a key could survive in the characters only the other path maps it to.
    let out = s;
    for (let round = 0; round < 4; round++) {
      const spans: number[] = [];
      if (cut && round === 0) spans.push(Math.max(0, out.length - tail), out.length);
      try {
        search(out, forms, spans);
      } catch (e) {
        if (e instanceof Overflow) return UNCHECKED;
        throw e;
      }
      if (spans.length === 0) return out;
      out = replaceSpans(out, spans);
    }
    return UNCHECKED;
  };
}

function search(s: string, forms: string[], spans: number[]): void {
  let budget = 32 * s.length + (1 << 20);
  const seen = new Set<string>([s]);
  const clean = new Set<string>(); // base64 runs whose decodings hold no key

  const origFrom = (l: Layer, i: number) => l.from === null ? i : l.from[i]!;
  const origTo = (l: Layer, i: number) => l.to === null ? i + 1 : l.to[i]!;

  /** Searches one layer and what decodes from it; returns whether any key was found. */
  function explore(l: Layer): boolean {
    budget -= l.text.length;
    if (budget < 0) throw new Overflow();
    let found = false;
    for (const f of forms) {
      for (let i = l.text.indexOf(f); i >= 0; i = l.text.indexOf(f, i + 1)) {
        spans.push(origFrom(l, i), origTo(l, i + f.length - 1));
        found = true;
      }
    }
    for (const [trigger, decode] of DECODERS) {
      if (!l.text.includes(trigger)) continue;
      const b = new Builder(l.text.length);
      decode(l.text, b);
      if (!b.changed) continue;
      if (l.escapes >= MAX_ESCAPE_DEPTH) throw new Overflow();
      const text = b.text();
      if (seen.has(text)) continue;
      seen.add(text);
      if (explore(child(l, b, text, l.escapes + 1, l.base64))) found = true;
    }
    if (l.base64 < MAX_BASE64_DEPTH && exploreBase64(l)) found = true;
    return found;
  }

  function child(l: Layer, b: Builder, text: string, escapes: number, base64: number): Layer {
    const from = new Int32Array(b.n);
    const to = new Int32Array(b.n);
    for (let k = 0; k < b.n; k++) {
      from[k] = origFrom(l, b.from[k]!);
      to[k] = origTo(l, b.to[k]! - 1);
    }
    return { text, from, to, escapes, base64 };
  }

  function exploreBase64(l: Layer): boolean {
    const t = l.text;
    let found = false;
    for (let i = 0; i < t.length;) {
      if (!isBase64Digit(t.charCodeAt(i))) {
        i++;
        continue;
      }
      let j = i;
      while (j < t.length && isBase64Digit(t.charCodeAt(j))) j++;
      if (j - i >= MIN_BASE64_RUN) {
        const run = t.slice(i, j);
        if (!clean.has(run)) {
          let hit = false;
          for (let off = 0; off < 4 && j - i - off >= MIN_BASE64_RUN; off++) {
            if (exploreRun(l, i + off, j)) hit = true;
          }
          if (hit) found = true;
          else clean.add(run);
        }
      }
      i = j;
    }
    return found;
  }

  /** Decodes the base64 digits in [start, end) of a layer and searches the bytes. */
  function exploreRun(l: Layer, start: number, end: number): boolean {
    const b = decodeBase64(l.text, start, end);
    const text = b.text();
    if (!texty(b) && !forms.some((f) => text.includes(f))) return false;
    return explore(child(l, b, text, l.escapes, l.base64 + 1));
  }

  explore({ text: s, from: null, to: null, escapes: 0, base64: 0 });
}

/** Replaces the union of the spans (pairs of start and end) by one marker each. */
function replaceSpans(s: string, flat: number[]): string {
  const pairs: [number, number][] = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let out = "";
  let at = 0;
  let k = 0;
  while (k < pairs.length) {
    let [start, end] = pairs[k++]!;
    while (k < pairs.length && pairs[k]![0] <= end) end = Math.max(end, pairs[k++]![1]);
    out += s.slice(at, start) + REDACTED;
    at = end;
  }
  return out + s.slice(at);
}
