// The fixed, seeded corpus of the cross-runtime conformance run.
//
// Only ECMAScript here: the same module runs on Deno, Node, Bun and workerd,
// and must build the same strings everywhere. The generator writes JSON text
// directly (never JSON.stringify) so that it controls lexemes: `1` versus
// `1.0`, escapes versus raw characters, whitespace, duplicate keys.

import {
  edgeCases,
  KEYS,
  LITERALS,
  NAMES,
  NO_JSON,
  NUMBERS,
  PROSE,
  TRAILERS,
  WS,
} from "./_corpus_data.ts";

/** The PRNG behind the corpus, named in the conformance output. */
export const CORPUS_PRNG = "mulberry32";

/** The default seed. */
export const CORPUS_SEED = 0x5eed_a55a;

/** Texts for each batch API. */
export interface Corpus {
  /** Raw model outputs: prose around tool calls, broken calls, no JSON at all. */
  outputs: string[];
  /** Whole JSON documents (valid and broken) for canonicalization and flattening. */
  documents: string[];
}

/** A seeded PRNG (mulberry32) with the helpers the generator needs. */
class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  /** A uniform float in [0, 1). */
  next(): number {
    let t = (this.#s = (this.#s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

/** The same PRNG as a function returning uniform floats in [0, 1) (for other seeded inputs). */
export function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

/** Generates JSON text (optionally with raw control characters and other faults). */
class Writer {
  constructor(readonly rng: Rng) {}

  ws(): string {
    return this.rng.pick(WS);
  }

  /** `n` random decimal digits, the first one non-zero. */
  digits(n: number): string {
    let d = String(1 + this.rng.int(9));
    for (let i = 1; i < n; i++) d += String(this.rng.int(10));
    return d;
  }

  // Numbers are built from digit strings only: float arithmetic such as
  // `10 ** -7` is not exactly specified, and differs between V8 and JSC.
  number(): string {
    const r = this.rng;
    const sign = r.chance(0.3) ? "-" : "";
    switch (r.int(6)) {
      case 0:
        return r.pick(NUMBERS);
      case 1: {
        // Fixed notation, up to 17 significant digits.
        const d = this.digits(1 + r.int(17));
        if (r.chance(0.3)) return sign + "0." + "0".repeat(r.int(6)) + d;
        const point = 1 + r.int(d.length);
        return sign + d.slice(0, point) + "." + (d.slice(point) || "0");
      }
      case 2: {
        // Scientific notation across the whole double range and beyond.
        const d = this.digits(1 + r.int(r.chance(0.1) ? 30 : 17));
        const e = r.int(700) - 350;
        const m = d.length > 1 ? d[0] + "." + d.slice(1) : d;
        return sign + m + r.pick(["e", "E"]) +
          (e < 0 ? "-" : r.pick(["", "+"])) + Math.abs(e);
      }
      case 3:
        return sign + this.digits(1 + r.int(r.chance(0.1) ? 60 : 18));
      case 4: {
        // Many significant digits: where correct rounding is hardest.
        const d = this.digits(18 + r.int(25));
        const point = 1 + r.int(17);
        return sign + d.slice(0, point) + "." + d.slice(point) +
          (r.chance(0.5) ? "e" + (r.int(80) - 40) : "");
      }
      default:
        return String(r.int(1000) - 500);
    }
  }

  /** The body of a string literal, without quotes. */
  stringBody(maxLen = 12): string {
    const r = this.rng;
    const n = r.int(maxLen + 1);
    let s = "";
    for (let i = 0; i < n; i++) {
      switch (r.int(14)) {
        case 0:
          s += r.pick([
            '\\"',
            "\\\\",
            "\\/",
            "\\b",
            "\\f",
            "\\n",
            "\\r",
            "\\t",
          ]);
          break;
        case 1: {
          const u = r.int(0x10000);
          const h = u.toString(16).padStart(4, "0");
          s += "\\u" + (r.chance(0.5) ? h : h.toUpperCase());
          break;
        }
        case 2:
          // Escaped surrogates: pairs, lone highs, lone lows, reversed pairs.
          s += r.pick([
            "\\ud83d\\ude00",
            "\\uD83D\\uDE00",
            "\\ud800",
            "\\udfff",
            "\\ude00\\ud83d",
            "\\ud83d\\u0041",
            "\\udbff\\udfff",
          ]);
          break;
        case 3:
          s += r.pick([
            "é",
            "日",
            "\u007f",
            "\u0080",
            "\u2028",
            "\ue000",
            "\uffff",
            "\u00a0",
          ]);
          break;
        case 4:
          s += r.pick(["\u{1f600}", "\u{10ffff}", "\u{10000}"]);
          break;
        case 5:
          // Raw lone surrogates, alone and next to escaped halves.
          s += r.pick(["\ud800", "\udfff", "\\ud83d\ude00", "\ud83d\\ude00"]);
          break;
        case 6:
          s += r.pick(["{", "}", "[", "]", ",", ":", " "]);
          break;
        default:
          s += String.fromCharCode(0x20 + r.int(0x5f)).replace(/["\\]/, "x");
      }
    }
    return s;
  }

  string(): string {
    return '"' + this.stringBody() + '"';
  }

  key(): string {
    const r = this.rng;
    if (r.chance(0.6)) {
      const k = r.pick(KEYS);
      // Sometimes spell a plain key with escapes; it must decode to the same key.
      if (r.chance(0.15) && k.length > 0 && k.charCodeAt(0) < 0x80) {
        return '"\\u' + k.charCodeAt(0).toString(16).padStart(4, "0") +
          k.slice(1) + '"';
      }
      return '"' + k.replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"';
    }
    return '"' + this.stringBody(6) + '"';
  }

  value(depth: number): string {
    const r = this.rng;
    const roll = r.int(depth > 5 ? 6 : 10);
    switch (roll) {
      case 0:
        return r.pick(LITERALS);
      case 1:
      case 2:
        return this.number();
      case 3:
      case 4:
      case 5:
        return this.string();
      case 6:
      case 7:
        return this.array(depth + 1);
      default:
        return this.object(depth + 1);
    }
  }

  array(depth: number): string {
    const r = this.rng;
    const n = r.chance(0.15) ? 0 : r.int(5);
    if (n === 0) return "[" + this.ws() + "]";
    const items: string[] = [];
    for (let i = 0; i < n; i++) {
      items.push(this.ws() + this.value(depth) + this.ws());
    }
    return "[" + items.join(",") + "]";
  }

  object(depth: number, keys?: string[]): string {
    const r = this.rng;
    const members: string[] = [];
    const n = keys ? keys.length : (r.chance(0.15) ? 0 : r.int(5));
    if (n === 0) return "{" + this.ws() + "}";
    for (let i = 0; i < n; i++) {
      const k = keys ? keys[i]! : this.key();
      members.push(
        this.ws() + k + this.ws() + ":" + this.ws() + this.value(depth) +
          this.ws(),
      );
      // Duplicate keys: the last one wins.
      if (r.chance(0.05)) {
        members.push(this.ws() + k + ":" + this.value(depth) + this.ws());
      }
    }
    return "{" + members.join(",") + "}";
  }

  /** A tool call `{"name": ..., "arguments": {...}}` with members in random order. */
  call(): string {
    const r = this.rng;
    const name = '"' + r.pick(NAMES) + '"';
    const args = this.object(1);
    const members = [
      this.ws() + '"name"' + this.ws() + ":" + this.ws() + name + this.ws(),
      this.ws() + '"arguments"' + this.ws() + ":" + this.ws() + args +
      this.ws(),
    ];
    if (r.chance(0.5)) members.reverse();
    return "{" + members.join(",") + "}";
  }

  /** A call that parses but has the wrong shape, or an oddly spelled valid one. */
  oddCall(): string {
    const r = this.rng;
    const args = this.object(1);
    const variants = [
      `{"name": "f", "arguments": ${args}, "extra": 1}`,
      `{"name": "f"}`,
      `{"arguments": ${args}}`,
      `{"name": "", "arguments": ${args}}`,
      `{"name": 5, "arguments": ${args}}`,
      `{"name": null, "arguments": {}}`,
      `{"name": "f", "arguments": "{\\"a\\": 1}"}`,
      `{"name": "f", "arguments": [1, 2]}`,
      `{"name": "f", "arguments": null}`,
      `[${this.call()}]`,
      `[ ${this.call()} , ${this.call()} ]`,
      `[]`,
      `[[${this.call()}]]`,
      `{"\\u006eame": "f", "arguments": ${args}}`,
      `{"name": "a", "name": "b", "arguments": ${args}}`,
      `{"name": "f", "arguments": {"x": 1}, "arguments": ${args}}`,
      `{"name": "f", "arguments": ${args}, "__proto__": {}}`,
      `{"name": "\\ud800", "arguments": ${args}}`,
      `{"name": "f", "arguments": {}}`,
      `{"function": {"name": "f", "arguments": ${args}}}`,
      `{"name": "f", "arguments": ${args}}`.replace("{", "[") + "]",
    ];
    return r.pick(variants);
  }

  /** Breaks a text with one random edit; most edits make it invalid. */
  mutate(text: string): string {
    const r = this.rng;
    if (text.length === 0) return r.pick(["{", "[", '"']);
    const at = r.int(text.length);
    switch (r.int(6)) {
      case 0:
        return text.slice(0, at) + text.slice(at + 1);
      case 1:
        return text.slice(0, at);
      case 2: {
        const ins = r.pick([
          ",",
          "]",
          "}",
          "[",
          "{",
          '"',
          "\\",
          ":",
          "x",
          "\u0001",
          "\u001f",
          " ",
          "-",
          ".",
        ]);
        return text.slice(0, at) + ins + text.slice(at);
      }
      case 3:
        return text.slice(0, at) + text[at] + text.slice(at);
      case 4:
        return text.slice(0, at) +
          r.pick(["\\x", "\\u12", "\\uZZZZ", "\\", "\n"]) + text.slice(at);
      default:
        return text + r.pick([" x", ",", " 1", "}", "]", "\u00a0"]);
    }
  }
}

/**
 * Builds the conformance corpus. The same seed gives the same strings on
 * every runtime.
 *
 * @param seed The mulberry32 seed.
 * @returns Model outputs and JSON documents.
 */
export function buildCorpus(seed: number = CORPUS_SEED): Corpus {
  const rng = new Rng(seed);
  const w = new Writer(rng);
  const edges = edgeCases();

  const outputs: string[] = [];
  for (let i = 0; i < 1800; i++) {
    const roll = rng.int(20);
    let body: string;
    if (roll < 9) body = w.call();
    else if (roll < 13) body = w.oddCall();
    else if (roll < 18) {
      body = w.mutate(rng.chance(0.7) ? w.call() : w.oddCall());
    } else if (roll < 19) body = w.value(0);
    else body = rng.pick(NO_JSON);
    outputs.push(rng.pick(PROSE) + body + rng.pick(TRAILERS));
  }
  for (const e of edges) outputs.push(e, "Here: " + e + " done");

  const documents: string[] = [];
  for (let i = 0; i < 1800; i++) {
    const valid = w.ws() + w.value(0) + w.ws();
    documents.push(rng.chance(0.35) ? w.mutate(valid) : valid);
  }
  documents.push(...edges);

  // A few large documents, to cross buffer and memory-growth boundaries.
  const big: string[] = [];
  for (let length = 0; length < 300_000;) {
    big.push(w.value(0));
    length += big[big.length - 1]!.length + 1;
  }
  documents.push("[" + big.join(",") + "]");
  documents.push('"' + "\\u00e9\u{1f600}\ud800x\\n".repeat(40_000) + '"');
  const wide: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    wide.push(`"k${i}":${i % 7 === 0 ? "1.5e" + (i % 400) : i}`);
  }
  documents.push("{" + wide.join(",") + "}");
  outputs.push(`Calling: {"name":"bulk","arguments":{${wide.join(",")}}} ok`);

  return { outputs, documents };
}
