/**
 * Punkt sentence splitting as nltk 3.8's `PunktSentenceTokenizer.tokenize` does it, driven by
 * trained parameters (by default nltk's English model). IFEval counts sentences with it, and
 * `word_tokenize` splits into sentences with it before tokenizing words.
 *
 * @module
 */
import { ALPHA, D, isLower, isUpper, NS, pyLower, pyRstrip, pyStrip, S } from "./_python_text.ts";
import { PUNKT_ENGLISH } from "./_punkt_english.generated.ts";

/** Trained Punkt parameters as plain data (the fields of nltk's `PunktParameters`). */
export interface PunktData {
  /** Abbreviation types, lower case and without their final period. */
  abbrev_types: readonly string[];
  /** Collocations: pairs of types that an abbreviation-like period never breaks. */
  collocations: readonly (readonly [string, string])[];
  /** Frequent sentence starters (types). */
  sent_starters: readonly string[];
  /** Each type's orthographic context flags. */
  ortho_context: Readonly<Record<string, number>>;
}

const BEG_UC = 1 << 1, MID_UC = 1 << 2, UNK_UC = 1 << 3;
const BEG_LC = 1 << 4, MID_LC = 1 << 5, UNK_LC = 1 << 6;
const ORTHO_UC = BEG_UC + MID_UC + UNK_UC;
const ORTHO_LC = BEG_LC + MID_LC + UNK_LC;

// PunktLanguageVars' regexes, with Python's character classes.
const NON_WORD = `[)";}\\]*:@'({\\[?!]`;
const MULTI_CHAR = `(?:-{2,}|\\.{2,}|(?:\\.${S}){2,}\\.)`;
const WORD_START = `[^("\`{\\[:;&#*@)}\\]\\-,]`;
const WORD_RE = new RegExp(
  `${MULTI_CHAR}|(?=${WORD_START})${NS}+?(?=${S}|$|${NON_WORD}|${MULTI_CHAR}|,(?=$|${S}|${NON_WORD}|${MULTI_CHAR}))|${NS}`,
  "gu",
);
const PERIOD_CONTEXT = new RegExp(
  `[.?!](?=(?<after>${NON_WORD}|${S}+(?<next>${NS}+)))`,
  "gu",
);
const REALIGN = new RegExp(`^["')\\]}]+?(?:${S}+|(?=--)|(?=\\n|$))`, "u");
const NUMERIC = new RegExp(`^-?[.,]?${D}(?:${D}|[,.-])*\\.?(?=\\n?$)`, "u");
const INITIAL = new RegExp(`^${ALPHA}\\.(?=\\n?$)`, "u");
const ELLIPSIS = /^\.\.+(?=\n?$)/;
const PUNCTUATION = new Set([";", ":", ",", ".", "!", "?"]);

interface Token {
  tok: string;
  type: string;
  periodFinal: boolean;
  sentbreak: boolean;
  abbr: boolean;
  ellipsis: boolean;
}

function token(tok: string): Token {
  const lower = pyLower(tok);
  return {
    tok,
    type: NUMERIC.test(lower) ? "##number##" : lower,
    periodFinal: tok.endsWith("."),
    sentbreak: false,
    abbr: false,
    ellipsis: false,
  };
}

function typeNoPeriod(t: Token): string {
  return t.type.length > 1 && t.type.endsWith(".") ? t.type.slice(0, -1) : t.type;
}

function typeNoSentperiod(t: Token): string {
  return t.sentbreak ? typeNoPeriod(t) : t.type;
}

function firstChar(t: Token): string {
  return String.fromCodePoint(t.tok.codePointAt(0)!);
}

/** A Punkt sentence splitter with fixed parameters. */
export class PunktSentenceSplitter {
  readonly #abbrevs: Set<string>;
  readonly #collocations: Set<string>;
  readonly #starters: Set<string>;
  readonly #ortho: Map<string, number>;

  /**
   * Makes a splitter from trained parameters.
   *
   * @param data The parameters; nltk's English model when left out.
   * @throws {TypeError} Never for well-formed data.
   * @example Splitting with the English model
   * ```ts
   * import { PunktSentenceSplitter } from "@assay/assay/ifeval";
   * import { deepStrictEqual } from "node:assert/strict";
   *
   * const punkt = new PunktSentenceSplitter();
   * deepStrictEqual(punkt.split("Mr. Smith went home. He slept."), [
   *   "Mr. Smith went home.",
   *   "He slept.",
   * ]);
   * ```
   */
  constructor(data: PunktData = PUNKT_ENGLISH) {
    this.#abbrevs = new Set(data.abbrev_types);
    this.#collocations = new Set(data.collocations.map(([a, b]) => `${a}\u0000${b}`));
    this.#starters = new Set(data.sent_starters);
    this.#ortho = new Map(Object.entries(data.ortho_context));
  }

  /**
   * Splits a text into sentences, as nltk's `PunktSentenceTokenizer.tokenize(text)`.
   *
   * @param text The text.
   * @returns The sentences, each a slice of `text`.
   * @throws {TypeError} Never for a string.
   * @example Counting sentences
   * ```ts
   * import { PunktSentenceSplitter } from "@assay/assay/ifeval";
   * import { strictEqual } from "node:assert/strict";
   *
   * strictEqual(new PunktSentenceSplitter().split("One. Two! Three?").length, 3);
   * ```
   */
  split(text: string): string[] {
    return this.spans(text).map(([s, e]) => text.slice(s, e));
  }

  /**
   * The sentences' [start, end) offsets (UTF-16) in `text`, as nltk's `span_tokenize`.
   *
   * @param text The text.
   * @returns The spans, in order.
   * @throws {TypeError} Never for a string.
   * @example Spans
   * ```ts
   * import { PunktSentenceSplitter } from "@assay/assay/ifeval";
   * import { deepStrictEqual } from "node:assert/strict";
   *
   * deepStrictEqual(new PunktSentenceSplitter().spans("Hi there. Bye."), [[0, 9], [10, 14]]);
   * ```
   */
  spans(text: string): [number, number][] {
    const slices = this.#slices(text);
    const out: [number, number][] = [];
    let realign = 0;
    for (let i = 0; i < slices.length; i++) {
      const s1: [number, number] = [slices[i]![0] + realign, slices[i]![1]];
      const s2 = slices[i + 1];
      if (s2 === undefined) {
        if (s1[1] > s1[0]) out.push(s1);
        continue;
      }
      const m = REALIGN.exec(text.slice(s2[0], s2[1]));
      if (m) {
        out.push([s1[0], s2[0] + pyRstrip(m[0]).length]);
        realign = m[0].length;
      } else {
        realign = 0;
        if (s1[1] > s1[0]) out.push(s1);
      }
    }
    return out;
  }

  #slices(text: string): [number, number][] {
    const out: [number, number][] = [];
    let lastBreak = 0;
    for (const [m, context] of this.#endContexts(text)) {
      if (this.#containsSentbreak(context)) {
        const end = m.index + m[0].length;
        out.push([lastBreak, end]);
        const after = m.groups!.after!, next = m.groups!.next;
        lastBreak = next !== undefined ? end + after.length - next.length : end;
      }
    }
    out.push([lastBreak, pyRstrip(text).length]);
    return out;
  }

  *#endContexts(text: string): Generator<[RegExpExecArray, string]> {
    let prevStart = 0, prevStop = 0;
    let prev: RegExpExecArray | undefined;
    const context = (m: RegExpExecArray, a: number, b: number) =>
      text.slice(a, b) + m[0] + m.groups!.after!;
    for (const m of text.matchAll(PERIOD_CONTEXT)) {
      const before = text.slice(prevStop, m.index);
      let ws = 0;
      for (let i = before.length - 1; i >= 0; i--) {
        if (" \t\n\r\v\f".includes(before[i]!)) {
          ws = i;
          break;
        }
      }
      const start = ws ? ws + prevStop + 1 : prevStart;
      if (prev && prevStop <= start) yield [prev, context(prev, prevStart, prevStop)];
      prev = m as RegExpExecArray;
      prevStart = start;
      prevStop = m.index;
    }
    if (prev) yield [prev, context(prev, prevStart, prevStop)];
  }

  #containsSentbreak(text: string): boolean {
    const tokens = this.#annotate(tokenizeWords(text));
    for (let i = 0; i < tokens.length - 1; i++) if (tokens[i]!.sentbreak) return true;
    return false;
  }

  #annotate(tokens: Token[]): Token[] {
    for (const t of tokens) {
      const tok = t.tok;
      if (tok === "." || tok === "?" || tok === "!") t.sentbreak = true;
      else if (ELLIPSIS.test(tok)) t.ellipsis = true;
      else if (t.periodFinal && !tok.endsWith("..")) {
        const base = pyLower(tok.slice(0, -1));
        if (this.#abbrevs.has(base) || this.#abbrevs.has(base.split("-").at(-1)!)) t.abbr = true;
        else t.sentbreak = true;
      }
    }
    for (let i = 0; i + 1 < tokens.length; i++) this.#secondPass(tokens[i]!, tokens[i + 1]!);
    return tokens;
  }

  #secondPass(t1: Token, t2: Token): void {
    if (!t1.periodFinal) return;
    const typ = typeNoPeriod(t1);
    const nextTyp = typeNoSentperiod(t2);
    const initial = INITIAL.test(t1.tok);
    if (this.#collocations.has(`${typ}\u0000${nextTyp}`)) {
      t1.sentbreak = false;
      t1.abbr = true;
      return;
    }
    if ((t1.abbr || t1.ellipsis) && !initial) {
      const starter = this.#orthoHeuristic(t2);
      if (starter === true) {
        t1.sentbreak = true;
        return;
      }
      if (isUpper(firstChar(t2)) && this.#starters.has(nextTyp)) {
        t1.sentbreak = true;
        return;
      }
    }
    if (initial || typ === "##number##") {
      const starter = this.#orthoHeuristic(t2);
      if (starter === false) {
        t1.sentbreak = false;
        t1.abbr = true;
        return;
      }
      if (
        starter === "unknown" && initial && isUpper(firstChar(t2)) &&
        !((this.#ortho.get(nextTyp) ?? 0) & ORTHO_LC)
      ) {
        t1.sentbreak = false;
        t1.abbr = true;
      }
    }
  }

  #orthoHeuristic(t: Token): boolean | "unknown" {
    if (PUNCTUATION.has(t.tok)) return false;
    const ortho = this.#ortho.get(typeNoSentperiod(t)) ?? 0;
    const first = firstChar(t);
    if (isUpper(first) && (ortho & ORTHO_LC) && !(ortho & MID_UC)) return true;
    if (isLower(first) && ((ortho & ORTHO_UC) || !(ortho & BEG_LC))) return false;
    return "unknown";
  }
}

/** Punkt's word segmentation: the tokens of each non-blank line. */
function tokenizeWords(text: string): Token[] {
  const out: Token[] = [];
  for (const line of text.split("\n")) {
    if (pyStrip(line) === "") continue;
    for (const m of line.matchAll(WORD_RE)) out.push(token(m[0]));
  }
  return out;
}

let english: PunktSentenceSplitter | undefined;

/**
 * Splits a text into sentences with nltk's English Punkt model, as
 * `nltk.data.load("tokenizers/punkt/english.pickle").tokenize(text)`.
 *
 * @param text The text.
 * @returns The sentences.
 * @throws {TypeError} Never for a string.
 * @example Abbreviations do not end sentences
 * ```ts
 * import { splitSentences } from "@assay/assay/ifeval";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(splitSentences("Dr. No left. Then rain."), [
 *   "Dr. No left.",
 *   "Then rain.",
 * ]);
 * ```
 */
export function splitSentences(text: string): string[] {
  english ??= new PunktSentenceSplitter();
  return english.split(text);
}
