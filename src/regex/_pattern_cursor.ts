// The regex parser's cursor: the pattern, its flags and the position, with the primitives every
// part of the parser uses: failing (a SyntaxError for bad syntax, another for an unsupported
// feature, both quoting the pattern), peeking and reading one pattern character.
import type { RegexFlags } from "./_sets.ts";

/** A pattern for a message: between slashes, its first 60 code units and an ellipsis if longer. */
export function showPattern(source: string): string {
  return `/${source.length > 60 ? `${source.slice(0, 60)}\u2026` : source}/`;
}

/**
 * The position in a pattern under its flags; `max` is the largest character (per `u`).
 * `sourceChar()` reads one pattern character: a code point with `u`, a code unit without.
 */
export class PatternCursor {
  pos = 0;
  readonly max: number;

  constructor(readonly src: string, readonly flags: RegexFlags) {
    this.max = flags.u ? 0x10ffff : 0xffff;
  }

  fail(what: string, pos = this.pos): never {
    throw new SyntaxError(`Invalid regex ${this.quoted()}: ${what} at position ${pos}`);
  }

  unsupported(what: string, pos = this.pos): never {
    throw new SyntaxError(
      `Unsupported regex feature in ${this.quoted()}: ${what} at position ${pos}`,
    );
  }

  quoted(): string {
    return showPattern(this.src);
  }

  peek(offset = 0): number {
    const c = this.src.charCodeAt(this.pos + offset);
    return Number.isNaN(c) ? -1 : c;
  }

  sourceChar(): number {
    if (this.flags.u) {
      const cp = this.src.codePointAt(this.pos)!;
      this.pos += cp > 0xffff ? 2 : 1;
      return cp;
    }
    return this.src.charCodeAt(this.pos++);
  }
}
