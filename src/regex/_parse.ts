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
  EOL,
  LINE_TERMINATORS,
  MAX_NESTING,
  NOT_WORD_BOUNDARY,
  type RegexFlags,
  type RegexNode,
  WORD_BOUNDARY,
} from "./_sets.ts";
import { charClass, setNode } from "./_char_class.ts";
import { characterEscape, classEscape } from "./_escapes.ts";
import { isDigit } from "../engine/mod.ts";
import { PatternCursor } from "./_pattern_cursor.ts";

const GROUP_NAME = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/** Parses an ECMAScript pattern under the given flags. */
export function parseRegex(source: string, flags: RegexFlags): RegexNode {
  return new Parser(source, flags).parse();
}

/**
 * The parser proper. `quantifierAhead()` says whether a quantifier starts here (`*`, `+`, `?`, or a
 * well-formed `{n}`, `{n,}`, `{n,m}`); `braces(consume)` reads `{n}`, `{n,}` or `{n,m}` when
 * `consume`, and otherwise only looks. (Not on the members: the bundler keeps a member's docs.)
 */
class Parser extends PatternCursor {
  private depth = 0;
  private readonly names = new Set<string>();

  parse(): RegexNode {
    const node = this.disjunction();
    if (this.pos < this.src.length) this.fail("unmatched ')'");
    return node;
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

  private quantifierAhead(): boolean {
    const c = this.peek();
    if (c === 0x2a || c === 0x2b || c === 0x3f) return true;
    return c === 0x7b && this.braces(false) !== undefined;
  }

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
        return charClass(this);
      case 0x2e: // .
        this.pos++;
        return setNode(
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
    return setNode([cp, cp], false);
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
    const set = classEscape(this);
    if (set !== undefined) return setNode(set, false);
    if (c === 0x6b /* k */) this.unsupported("named backreference '\\k'", start);
    if (c >= 0x31 && c <= 0x39) {
      this.unsupported(`backreference '\\${String.fromCharCode(c)}'`, start);
    }
    const cp = characterEscape(this, start, false);
    return setNode([cp, cp], false);
  }
}
