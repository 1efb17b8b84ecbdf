/**
 * A linear-time full-match regex engine for ECMAScript patterns: Thompson's construction and a
 * state-set simulation (no backtracking), so a verdict costs O(program × text) time and
 * O(program) memory whatever the pattern and the text.
 *
 * The syntax and semantics are ECMAScript's (`_parse.ts` reads the dialect;
 * `docs/instruction_metrics.md` describes it). The verdict is "the whole text matches", like
 * Python's `re.fullmatch` or JavaScript's `^(?:p)$` without the `m` flag.
 *
 * @module
 */
import { caseEquivalents } from "./_case.ts";
import { parseRegex } from "./_parse.ts";
import { showPattern } from "./_pattern_cursor.ts";
import {
  BOL,
  type CharClass,
  EOL,
  normalizeRanges,
  parseFlags,
  type RegexFlags,
  type RegexNode,
  WORD_BOUNDARY,
  wordRanges,
} from "./_sets.ts";

/** A pattern the host's RegExp accepts that this engine rejects on purpose, and why. */
export interface KnownIssue {
  /** The pattern. */
  pattern: string;
  /** Its flags. */
  flags: string;
  /** Why it raises a SyntaxError here. */
  reason: string;
}

/**
 * Every kind of pattern that RegExp accepts and this engine rejects (a SyntaxError naming the
 * feature). No accepted pattern gets a different verdict; tests check that each entry still
 * diverges and that `docs/instruction_metrics.md` lists it.
 */
export const KNOWN_ISSUES: readonly KnownIssue[] = [
  {
    pattern: "(a)\\1",
    flags: "",
    reason: "backreference: not a regular language, no linear-time algorithm",
  },
  { pattern: "(?<n>a)\\k<n>", flags: "", reason: "named backreference: as above" },
  { pattern: "(?=a)a", flags: "", reason: "lookahead: not implemented" },
  { pattern: "(?<=a)b", flags: "", reason: "lookbehind: not implemented" },
  { pattern: "(?i:a)", flags: "", reason: "ES2025 pattern modifiers: not implemented" },
  {
    pattern: "(?<n>a)|(?<n>b)",
    flags: "",
    reason: "ES2025 duplicate group names: not implemented",
  },
  { pattern: "[a&&b]", flags: "v", reason: "the v flag (set notation): not implemented" },
  {
    pattern: "\\Z",
    flags: "",
    reason:
      "Annex B reads an unknown letter escape (\\Z, \\A, \\e, [\\B], ...) as the letter; Python's end-of-text \\Z would silently mean Z",
  },
  {
    pattern: "\\1",
    flags: "",
    reason: "Annex B reads a backreference to no group as the octal escape \\x01",
  },
  { pattern: "\\07", flags: "", reason: "Annex B legacy octal escape" },
  { pattern: "\\8", flags: "", reason: "Annex B reads \\8 as 8" },
  {
    pattern: "\\c1",
    flags: "",
    reason: "Annex B reads \\c before a non-letter as a backslash and c",
  },
  { pattern: "[\\c_]", flags: "", reason: "Annex B class control escape \\c_ (U+001F)" },
  { pattern: "\\u{61}", flags: "", reason: "without u, Annex B reads this as u repeated 61 times" },
  { pattern: "\\x4", flags: "", reason: "Annex B reads an incomplete \\x escape as x" },
  { pattern: "(?<\\u0061>x)", flags: "", reason: "escapes in group names: not implemented" },
  { pattern: "\\k", flags: "", reason: "Annex B reads \\k as k when there are no named groups" },
];

/** The default cap on compiled instructions (counted repetition is expanded). */
export const DEFAULT_MAX_PROGRAM = 50_000;

const CHAR = 0, SPLIT = 1, JMP = 2, ASSERT = 3, MATCH = 4;

/** A compiled character set: an ASCII table and sorted ranges for the rest. */
interface SetMatcher {
  ascii: Uint8Array;
  ranges: Int32Array;
  negate: boolean;
}

function hasRange(ranges: ArrayLike<number>, c: number): boolean {
  let lo = 0, hi = (ranges.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (c < ranges[2 * mid]!) hi = mid - 1;
    else if (c > ranges[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

/** A compiled pattern that answers full-match questions in linear time. */
export class LinearRegex {
  private readonly op: Int32Array;
  private readonly arg: Int32Array;
  private readonly arg2: Int32Array;
  private readonly sets: SetMatcher[];
  private readonly unicode: boolean;
  private readonly multiline: boolean;
  private readonly word: Uint8Array;
  private readonly cur: Int32Array;
  private readonly next: Int32Array;
  private readonly mark: Int32Array;
  private readonly stack: Int32Array;
  private gen = 0;

  /**
   * Compiles a pattern.
   *
   * @param source The pattern, in ECMAScript syntax.
   * @param flags Any of `dgimsuy`; `i`, `m`, `s` and `u` change matching.
   * @param maxProgram The largest program allowed, in instructions.
   */
  constructor(source: string, flags = "", maxProgram = DEFAULT_MAX_PROGRAM) {
    if (!Number.isInteger(maxProgram) || maxProgram < 1) {
      throw new RangeError(`The program size cap must be a positive integer, got ${maxProgram}`);
    }
    const f = parseFlags(flags);
    const tree = parseRegex(source, f);
    const c = new Compiler(f, maxProgram, source);
    c.emit(tree);
    c.push(MATCH, 0, 0);
    this.op = Int32Array.from(c.op);
    this.arg = Int32Array.from(c.arg);
    this.arg2 = Int32Array.from(c.arg2);
    this.sets = c.sets;
    this.unicode = f.u;
    this.multiline = f.m;
    this.word = new Uint8Array(0x2200);
    const w = wordRanges(f);
    for (let k = 0; k < w.length; k += 2) this.word.fill(1, w[k]!, w[k + 1]! + 1);
    const n = this.op.length;
    this.cur = new Int32Array(n);
    this.next = new Int32Array(n);
    this.mark = new Int32Array(n);
    this.stack = new Int32Array(n);
  }

  /** The number of compiled instructions. */
  get size(): number {
    return this.op.length;
  }

  /**
   * Whether the whole of `text` matches.
   *
   * @param text The text.
   * @returns True when the pattern matches all of it.
   */
  fullMatch(text: string): boolean {
    const len = text.length;
    const op = this.op, arg = this.arg, sets = this.sets;
    let cur = this.cur, next = this.next;
    this.newGeneration();
    let count = this.closure(0, 0, text, cur, 0);
    let pos = 0;
    while (pos < len) {
      let c = text.charCodeAt(pos);
      let width = 1;
      if (this.unicode && c >= 0xd800 && c <= 0xdbff && pos + 1 < len) {
        const d = text.charCodeAt(pos + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          width = 2;
        }
      }
      const npos = pos + width;
      this.newGeneration();
      let ncount = 0;
      for (let k = 0; k < count; k++) {
        const pc = cur[k]!;
        if (op[pc] !== CHAR) continue;
        const s = sets[arg[pc]!]!;
        const hit = c < 128 ? s.ascii[c] === 1 : hasRange(s.ranges, c) !== s.negate;
        if (hit) ncount = this.closure(pc + 1, npos, text, next, ncount);
      }
      if (ncount === 0) return false;
      const t = cur;
      cur = next;
      next = t;
      count = ncount;
      pos = npos;
    }
    for (let k = 0; k < count; k++) if (op[cur[k]!] === MATCH) return true;
    return false;
  }

  /** Starts a new generation of state marks (clearing them when the counter wraps). */
  private newGeneration(): void {
    if (++this.gen === 0x7fffffff) {
      this.mark.fill(0);
      this.gen = 1;
    }
  }

  /** Adds `start` and everything reachable from it without input at `pos` to `list`. */
  private closure(start: number, pos: number, text: string, list: Int32Array, n: number): number {
    const op = this.op, arg = this.arg, arg2 = this.arg2, mark = this.mark, stack = this.stack;
    const gen = this.gen;
    if (mark[start] === gen) return n;
    mark[start] = gen;
    let sp = 0;
    stack[sp++] = start;
    while (sp > 0) {
      const pc = stack[--sp]!;
      const o = op[pc]!;
      if (o === CHAR || o === MATCH) {
        list[n++] = pc;
        continue;
      }
      let a = -1, b = -1;
      if (o === JMP) a = arg[pc]!;
      else if (o === SPLIT) {
        a = arg[pc]!;
        b = arg2[pc]!;
      } else if (this.assertion(arg[pc]!, pos, text)) a = pc + 1;
      if (a >= 0 && mark[a] !== gen) {
        mark[a] = gen;
        stack[sp++] = a;
      }
      if (b >= 0 && mark[b] !== gen) {
        mark[b] = gen;
        stack[sp++] = b;
      }
    }
    return n;
  }

  /** Whether the zero-width assertion `kind` holds at `pos`. */
  private assertion(kind: number, pos: number, text: string): boolean {
    const len = text.length;
    if (kind === BOL) {
      return pos === 0 || (this.multiline && isTerminator(text.charCodeAt(pos - 1)));
    }
    if (kind === EOL) return pos === len || (this.multiline && isTerminator(text.charCodeAt(pos)));
    const before = pos > 0 && this.isWord(text.charCodeAt(pos - 1));
    const after = pos < len && this.isWord(text.charCodeAt(pos));
    return (before !== after) === (kind === WORD_BOUNDARY);
  }

  /** Whether code unit `c` is a word character under the flags. */
  private isWord(c: number): boolean {
    return c < this.word.length && this.word[c] === 1;
  }
}

function isTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

class Compiler {
  readonly op: number[] = [];
  readonly arg: number[] = [];
  readonly arg2: number[] = [];
  readonly sets: SetMatcher[] = [];
  private readonly setIds = new Map<string, number>();

  constructor(
    private readonly flags: RegexFlags,
    private readonly maxProgram: number,
    private readonly source: string,
  ) {}

  push(o: number, a: number, b: number): number {
    if (this.op.length >= this.maxProgram) {
      throw new RangeError(
        `Regex ${
          showPattern(this.source)
        } compiles to more than ${this.maxProgram} instructions (counted repetition is expanded)`,
      );
    }
    this.op.push(o);
    this.arg.push(a);
    this.arg2.push(b);
    return this.op.length - 1;
  }

  emit(node: RegexNode): void {
    switch (node.t) {
      case "set":
        this.push(CHAR, this.setId(node.set), 0);
        return;
      case "assert":
        this.push(ASSERT, node.kind, 0);
        return;
      case "seq":
        for (const item of node.items) this.emit(item);
        return;
      case "alt": {
        const jumps: number[] = [];
        for (let k = 0; k < node.items.length; k++) {
          if (k < node.items.length - 1) {
            const split = this.push(SPLIT, 0, 0);
            this.arg[split] = split + 1;
            this.emit(node.items[k]!);
            jumps.push(this.push(JMP, 0, 0));
            this.arg2[split] = this.op.length;
          } else this.emit(node.items[k]!);
        }
        for (const j of jumps) this.arg[j] = this.op.length;
        return;
      }
      case "rep":
        this.repeat(node.body, node.min, node.max);
        return;
    }
  }

  private repeat(body: RegexNode, min: number, max: number): void {
    if (max === 0) return; // x{0} matches the empty string
    const first = this.op.length;
    if (min === 0) {
      // x* = L: SPLIT body, end; body; JMP L.  x{0,m} = (x(x(...)?)?)?
      const split = this.push(SPLIT, first + 1, 0);
      this.emit(body);
      if (this.op.length === first + 1) {
        this.op.length = this.arg.length = this.arg2.length = first; // empty body: matches empty
        return;
      }
      if (max === Infinity) {
        this.push(JMP, split, 0);
        this.arg2[split] = this.op.length;
        return;
      }
      const splits = [split];
      for (let k = 1; k < max; k++) {
        const s = this.push(SPLIT, this.op.length + 1, 0);
        splits.push(s);
        this.emit(body);
      }
      for (const s of splits) this.arg2[s] = this.op.length;
      return;
    }
    const start = this.op.length;
    this.emit(body);
    if (this.op.length === start) return; // empty body: matches empty, any count
    let last = start;
    for (let k = 1; k < min; k++) {
      last = this.op.length;
      this.emit(body);
    }
    if (max === Infinity) this.push(SPLIT, last, this.op.length + 1);
    else if (max > min) this.repeat(body, 0, max - min);
  }

  private setId(set: CharClass): number {
    const key = `${set.negate ? "^" : ""}${set.ranges.join(",")}`;
    const known = this.setIds.get(key);
    if (known !== undefined) return known;
    let ranges = set.ranges;
    if (this.flags.i) ranges = caseClose(ranges, this.flags.u);
    const ascii = new Uint8Array(128);
    for (let c = 0; c < 128; c++) ascii[c] = hasRange(ranges, c) !== set.negate ? 1 : 0;
    const m: SetMatcher = { ascii, ranges: Int32Array.from(ranges), negate: set.negate };
    this.sets.push(m);
    this.setIds.set(key, this.sets.length - 1);
    return this.sets.length - 1;
  }
}

/** Adds to `ranges` every character with a case-equivalent inside them. */
function caseClose(ranges: number[], unicode: boolean): number[] {
  const equivalents = caseEquivalents(unicode);
  if (ranges.length === 2 && ranges[0] === ranges[1]) {
    const others = equivalents.get(ranges[0]!); // one character: its class is its equivalents
    return others === undefined
      ? ranges
      : normalizeRanges([...ranges, ...others.flatMap((o) => [o, o])]);
  }
  const extra: number[] = [];
  for (const [cp, others] of equivalents) {
    if (hasRange(ranges, cp)) continue;
    if (others.some((o) => hasRange(ranges, o))) extra.push(cp, cp);
  }
  return extra.length === 0 ? ranges : normalizeRanges([...ranges, ...extra]);
}
