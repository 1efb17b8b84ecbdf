// Character sets and classes: the set node, and `[...]` classes with ranges, negation and the
// Annex B reading of a range with a class escape at one end.
import { normalizeRanges, type RegexNode } from "./_sets.ts";
import { characterEscape, classEscape } from "./_escapes.ts";
import type { PatternCursor } from "./_pattern_cursor.ts";

type ClassAtom = { cp: number } | { set: number[] };

/** A set node over sorted ranges (`[lo, hi, lo, hi, ...]`), negated or not. */
export function setNode(ranges: number[], negate: boolean): RegexNode {
  return { t: "set", set: { ranges, negate } };
}

/** A character class at `[`. */
export function charClass(r: PatternCursor): RegexNode {
  const start = r.pos;
  r.pos++;
  let negate = false;
  if (r.peek() === 0x5e) {
    negate = true;
    r.pos++;
  }
  const pairs: number[] = [];
  const add = (a: ClassAtom) => {
    if ("cp" in a) pairs.push(a.cp, a.cp);
    else pairs.push(...a.set);
  };
  for (;;) {
    if (r.peek() === -1) r.fail("unterminated character class", start);
    if (r.peek() === 0x5d) break;
    const rangeStart = r.pos;
    const a = classAtom(r);
    if (r.peek() === 0x2d && r.peek(1) !== 0x5d && r.peek(1) !== -1) {
      r.pos++;
      const b = classAtom(r);
      if ("cp" in a && "cp" in b) {
        if (a.cp > b.cp) r.fail("range out of order in character class", rangeStart);
        pairs.push(a.cp, b.cp);
      } else {
        if (r.flags.u) r.fail("invalid character class range", rangeStart);
        add(a); // Annex B: [\w-.] is \w, '-' and '.'
        add(b);
        pairs.push(0x2d, 0x2d);
      }
    } else add(a);
  }
  r.pos++;
  return setNode(normalizeRanges(pairs), negate);
}

export function classAtom(r: PatternCursor): ClassAtom {
  if (r.peek() !== 0x5c) return { cp: r.sourceChar() };
  const start = r.pos;
  r.pos++;
  const c = r.peek();
  if (c === -1) r.fail("\\ at end of pattern", start);
  if (c === 0x62 /* b */) {
    r.pos++;
    return { cp: 8 };
  }
  if (c === 0x2d && r.flags.u) {
    r.pos++;
    return { cp: 0x2d };
  }
  if (c === 0x6b /* k */) r.unsupported("'\\k' in a character class", start);
  const set = classEscape(r);
  if (set !== undefined) return { set };
  return { cp: characterEscape(r, start, true) };
}
