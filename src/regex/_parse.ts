/**
 * The parser of the linear-time regex engine: ECMAScript pattern syntax (without the `v` flag)
 * into a small tree of character sets, sequences, alternations, repetitions and assertions.
 *
 * Only what a full-match verdict needs survives parsing: groups become plain subtrees, and
 * lazy quantifiers become greedy ones (for a yes/no answer they are the same). Features the
 * engine cannot run in linear time (backreferences, lookaround) and legacy Annex B forms that are
 * usually mistakes (`\Z`, `\A`, octal escapes) raise a SyntaxError naming the feature and its
 * position, never a silent different answer.
 *
 * @module
 */

import {
  BOL,
  complementRanges,
  DIGITS,
  EOL,
  LINE_TERMINATORS,
  MAX_NESTING,
  normalizeRanges,
  NOT_WORD_BOUNDARY,
  type RegexFlags,
  type RegexNode,
  SPACE,
  WORD_BOUNDARY,
  wordRanges,
} from "./_sets.ts";

const SYNTAX_CHARS = "^$\\.*+?()[]{}|/";
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isAsciiLetter = (c: number) => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
const GROUP_NAME = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

type ClassAtom = { cp: number } | { set: number[] };

/** Parses an ECMAScript pattern under the given flags. */
export function parseRegex(source: string, flags: RegexFlags): RegexNode {
  return new Parser(source, flags).parse();
}

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly names = new Set<string>();
  private readonly max: number;

  constructor(private readonly src: string, private readonly flags: RegexFlags) {
    this.max = flags.u ? 0x10ffff : 0xffff;
  }

  parse(): RegexNode {
    const node = this.disjunction();
    if (this.pos < this.src.length) this.fail("unmatched ')'");
    return node;
  }

  private fail(what: string, pos = this.pos): never {
    throw new SyntaxError(`Invalid regex ${this.quoted()}: ${what} at position ${pos}`);
  }

  private unsupported(what: string, pos = this.pos): never {
    throw new SyntaxError(
      `Unsupported regex feature in ${this.quoted()}: ${what} at position ${pos}`,
    );
  }

  private quoted(): string {
    const s = this.src.length > 60 ? `${this.src.slice(0, 60)}…` : this.src;
    return `/${s}/`;
  }

  private peek(offset = 0): number {
    const c = this.src.charCodeAt(this.pos + offset);
    return Number.isNaN(c) ? -1 : c;
  }

  /** Reads one pattern character: a code point with `u`, a code unit without. */
  private sourceChar(): number {
    if (this.flags.u) {
      const cp = this.src.codePointAt(this.pos)!;
      this.pos += cp > 0xffff ? 2 : 1;
      return cp;
    }
    return this.src.charCodeAt(this.pos++);
  }

  private disjunction(): RegexNode {
    const alts = [this.alternative()];
    while (this.peek() === 0x7c /* | */) {
      this.pos++;
      alts.push(this.alternative());
    }
    return alts.length === 1 ? alts[0]! : { t: "alt", items: alts };
  }

  private alternative(): RegexNode {
    const items: RegexNode[] = [];
    for (;;) {
      const c = this.peek();
      if (c === -1 || c === 0x7c || c === 0x29 /* ) */) break;
      items.push(this.term());
    }
    return items.length === 1 ? items[0]! : { t: "seq", items };
  }

  private term(): RegexNode {
    const start = this.pos;
    const c = this.peek();
    let kind = -1;
    if (c === 0x5e) kind = BOL;
    else if (c === 0x24) kind = EOL;
    else if (c === 0x5c && this.peek(1) === 0x62) kind = WORD_BOUNDARY;
    else if (c === 0x5c && this.peek(1) === 0x42) kind = NOT_WORD_BOUNDARY;
    if (kind >= 0) {
      this.pos += kind >= WORD_BOUNDARY ? 2 : 1;
      if (this.quantifierAhead()) this.fail("nothing to repeat (a quantified assertion)");
      return { t: "assert", kind };
    }
    const atom = this.atom();
    const q = this.quantifier();
    if (q === undefined) return atom;
    if (this.quantifierAhead()) this.fail("nothing to repeat");
    if (q.min > q.max) this.fail("numbers out of order in {} quantifier", start);
    return { t: "rep", body: atom, min: q.min, max: q.max };
  }

  /** Whether a quantifier starts here (`*`, `+`, `?`, or a well-formed `{n}`, `{n,}`, `{n,m}`). */
  private quantifierAhead(): boolean {
    const c = this.peek();
    if (c === 0x2a || c === 0x2b || c === 0x3f) return true;
    return c === 0x7b && this.braces(false) !== undefined;
  }

  /** Reads `{n}`, `{n,}` or `{n,m}` when `consume`; otherwise only looks. */
  private braces(consume: boolean): { min: number; max: number } | undefined {
    let p = this.pos + 1;
    const digits = (): number | undefined => {
      const from = p;
      while (isDigit(this.src.charCodeAt(p))) p++;
      if (p === from) return undefined;
      const n = Number(this.src.slice(from, p));
      return n > 2 ** 32 ? Infinity : n; // no string is that long: the same as unbounded
    };
    const min = digits();
    if (min === undefined) return undefined;
    let max = min;
    if (this.src.charCodeAt(p) === 0x2c /* , */) {
      p++;
      max = digits() ?? Infinity;
    }
    if (this.src.charCodeAt(p) !== 0x7d /* } */) return undefined;
    if (consume) this.pos = p + 1;
    return { min, max };
  }

  private quantifier(): { min: number; max: number } | undefined {
    const c = this.peek();
    let q: { min: number; max: number } | undefined;
    if (c === 0x2a) q = { min: 0, max: Infinity };
    else if (c === 0x2b) q = { min: 1, max: Infinity };
    else if (c === 0x3f) q = { min: 0, max: 1 };
    if (q !== undefined) this.pos++;
    else if (c === 0x7b) {
      q = this.braces(true);
      if (q === undefined && this.flags.u) this.fail("incomplete quantifier");
    }
    if (q !== undefined && this.peek() === 0x3f) this.pos++; // lazy: same verdict
    return q;
  }

  private atom(): RegexNode {
    const c = this.peek();
    switch (c) {
      case 0x28: // (
        return this.group();
      case 0x5b: // [
        return this.charClass();
      case 0x2e: // .
        this.pos++;
        return this.set(
          this.flags.s ? [0, this.max] : complementRanges(LINE_TERMINATORS, this.max),
          false,
        );
      case 0x5c: // \
        return this.atomEscape();
      case 0x2a:
      case 0x2b:
      case 0x3f:
        this.fail("nothing to repeat");
        break;
      case 0x7b: // {
        if (this.braces(false) !== undefined) this.fail("nothing to repeat");
        if (this.flags.u) this.fail("lone quantifier brackets");
        break;
      case 0x7d: // }
      case 0x5d: // ]
        if (this.flags.u) this.fail("lone quantifier brackets");
        break;
    }
    const cp = this.sourceChar();
    return this.set([cp, cp], false);
  }

  private set(ranges: number[], negate: boolean): RegexNode {
    return { t: "set", set: { ranges, negate } };
  }

  private group(): RegexNode {
    const start = this.pos;
    this.pos++;
    if (this.peek() === 0x3f /* ? */) {
      const k = this.peek(1);
      if (k === 0x3a /* : */) this.pos += 2;
      else if (k === 0x3d) this.unsupported("lookahead '(?='", start);
      else if (k === 0x21) this.unsupported("negative lookahead '(?!'", start);
      else if (k === 0x3c && this.peek(2) === 0x3d) this.unsupported("lookbehind '(?<='", start);
      else if (k === 0x3c && this.peek(2) === 0x21) {
        this.unsupported("negative lookbehind '(?<!'", start);
      } else if (k === 0x3c) {
        const end = this.src.indexOf(">", this.pos + 2);
        const name = end < 0 ? "" : this.src.slice(this.pos + 2, end);
        if (name.includes("\\")) this.unsupported("escape in a group name", start);
        if (!GROUP_NAME.test(name)) this.fail("invalid capture group name", start);
        if (this.names.has(name)) this.unsupported(`duplicate group name '${name}'`, start);
        this.names.add(name);
        this.pos = end + 1;
      } else {
        this.unsupported(`group syntax '(?${this.src.slice(this.pos + 1, this.pos + 2)}'`, start);
      }
    }
    if (++this.depth > MAX_NESTING) {
      throw new RangeError(`Regex groups nest deeper than ${MAX_NESTING} at position ${start}`);
    }
    const body = this.disjunction();
    this.depth--;
    if (this.peek() !== 0x29) this.fail("unterminated group", start);
    this.pos++;
    return body;
  }

  private atomEscape(): RegexNode {
    const start = this.pos;
    this.pos++; // the backslash
    const c = this.peek();
    if (c === -1) this.fail("\\ at end of pattern", start);
    const set = this.classEscape();
    if (set !== undefined) return this.set(set, false);
    if (c === 0x6b /* k */) this.unsupported("named backreference '\\k'", start);
    if (c >= 0x31 && c <= 0x39) {
      this.unsupported(`backreference '\\${String.fromCharCode(c)}'`, start);
    }
    const cp = this.characterEscape(start, false);
    return this.set([cp, cp], false);
  }

  /** `\d \D \s \S \w \W` (after the backslash), or undefined. `\p` is rejected. */
  private classEscape(): number[] | undefined {
    const c = this.peek();
    let base: number[];
    switch (c | 0x20) {
      case 0x64:
        base = DIGITS;
        break;
      case 0x73:
        base = SPACE;
        break;
      case 0x77:
        base = wordRanges(this.flags);
        break;
      case 0x70:
        if (this.flags.u) this.unsupported(`Unicode property escape '\\${String.fromCharCode(c)}'`);
        return undefined;
      default:
        return undefined;
    }
    this.pos++;
    return c >= 0x61 ? base : complementRanges(base, this.max);
  }

  /** A CharacterEscape after the backslash at `start`; returns its code point. */
  private characterEscape(start: number, inClass: boolean): number {
    const u = this.flags.u;
    const c = this.peek();
    const simple: Record<number, number> = { 0x66: 12, 0x6e: 10, 0x72: 13, 0x74: 9, 0x76: 11 };
    if (simple[c] !== undefined) {
      this.pos++;
      return simple[c]!;
    }
    if (c === 0x63 /* c */) {
      const l = this.peek(1);
      if (!isAsciiLetter(l)) this.unsupported("'\\c' not followed by a letter", start);
      this.pos += 2;
      return l % 32;
    }
    if (c === 0x30 /* 0 */) {
      if (isDigit(this.peek(1))) this.unsupported("legacy octal escape", start);
      this.pos++;
      return 0;
    }
    if (c >= 0x31 && c <= 0x39) this.unsupported("octal escape or backreference", start);
    if (c === 0x78 /* x */ && isHex(this.peek(1)) && isHex(this.peek(2))) {
      const v = parseInt(this.src.slice(this.pos + 1, this.pos + 3), 16);
      this.pos += 3;
      return v;
    }
    if (c === 0x75 /* u */) {
      const v = this.unicodeEscape();
      if (v !== undefined) return v;
    }
    if (u) {
      if (SYNTAX_CHARS.includes(String.fromCharCode(c)) || (inClass && c === 0x2d)) {
        this.pos++;
        return c;
      }
      this.fail("invalid escape", start);
    }
    if (isAsciiLetter(c) || isDigit(c)) {
      this.unsupported(
        `escape '\\${String.fromCharCode(c)}' (ECMAScript reads it as a plain '${
          String.fromCharCode(c)
        }' without the u flag)`,
        start,
      );
    }
    this.pos++;
    return c;
  }

  /** `\uXXXX` (a surrogate pair of them with `u`) or `\u{...}` with `u`; after the backslash. */
  private unicodeEscape(): number | undefined {
    const hex4 = (p: number): number | undefined => {
      const s = this.src.slice(p, p + 4);
      return /^[0-9a-fA-F]{4}$/.test(s) ? parseInt(s, 16) : undefined;
    };
    if (this.flags.u && this.peek(1) === 0x7b /* { */) {
      const end = this.src.indexOf("}", this.pos + 2);
      const digits = end < 0 ? "" : this.src.slice(this.pos + 2, end);
      if (!/^[0-9a-fA-F]+$/.test(digits) || parseInt(digits, 16) > 0x10ffff) {
        this.fail("invalid Unicode escape", this.pos - 1);
      }
      this.pos = end + 1;
      return parseInt(digits, 16);
    }
    const v = hex4(this.pos + 1);
    if (v === undefined) {
      if (this.flags.u) this.fail("invalid Unicode escape", this.pos - 1);
      return undefined;
    }
    this.pos += 5;
    if (this.flags.u && v >= 0xd800 && v <= 0xdbff && this.src.startsWith("\\u", this.pos)) {
      const lo = hex4(this.pos + 2);
      if (lo !== undefined && lo >= 0xdc00 && lo <= 0xdfff) {
        this.pos += 6;
        return 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
      }
    }
    return v;
  }

  private charClass(): RegexNode {
    const start = this.pos;
    this.pos++;
    let negate = false;
    if (this.peek() === 0x5e) {
      negate = true;
      this.pos++;
    }
    const pairs: number[] = [];
    const add = (a: ClassAtom) => {
      if ("cp" in a) pairs.push(a.cp, a.cp);
      else pairs.push(...a.set);
    };
    for (;;) {
      if (this.peek() === -1) this.fail("unterminated character class", start);
      if (this.peek() === 0x5d) break;
      const rangeStart = this.pos;
      const a = this.classAtom();
      if (this.peek() === 0x2d && this.peek(1) !== 0x5d && this.peek(1) !== -1) {
        this.pos++;
        const b = this.classAtom();
        if ("cp" in a && "cp" in b) {
          if (a.cp > b.cp) this.fail("range out of order in character class", rangeStart);
          pairs.push(a.cp, b.cp);
        } else {
          if (this.flags.u) this.fail("invalid character class range", rangeStart);
          add(a); // Annex B: [\w-.] is \w, '-' and '.'
          add(b);
          pairs.push(0x2d, 0x2d);
        }
      } else add(a);
    }
    this.pos++;
    return this.set(normalizeRanges(pairs), negate);
  }

  private classAtom(): ClassAtom {
    if (this.peek() !== 0x5c) return { cp: this.sourceChar() };
    const start = this.pos;
    this.pos++;
    const c = this.peek();
    if (c === -1) this.fail("\\ at end of pattern", start);
    if (c === 0x62 /* b */) {
      this.pos++;
      return { cp: 8 };
    }
    if (c === 0x2d && this.flags.u) {
      this.pos++;
      return { cp: 0x2d };
    }
    if (c === 0x6b /* k */) this.unsupported("'\\k' in a character class", start);
    const set = this.classEscape();
    if (set !== undefined) return { set };
    return { cp: this.characterEscape(start, true) };
  }
}
