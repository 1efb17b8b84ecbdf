// The XML scanner's cursor: the text, the position, the stack of open elements, the namespace
// scope and the scratch of one start tag, with the primitives every part of the scan uses:
// failing at an offset, checking a Char, skipping white space and reading a Name.
import { codePointAt, isNameChar, isNameStartChar, isXmlChar, isXmlSpace } from "./_chars.ts";
import { type XmlErrorCode, XmlFault } from "./_fault.ts";
import { NamespaceScope } from "./_namespaces.ts";

/** The code units the scan dispatches on. */
export const LT = 0x3c, GT = 0x3e, AMP = 0x26, QUESTION = 0x3f, BANG = 0x21, SLASH = 0x2f;
export const RSQB = 0x5d;

/**
 * The scan's state; the parts of the scan are functions of it (`_text`, `_markup`, `_tags`).
 * `open` is where the name of each open element starts (an explicit stack: no recursion); `ids`
 * the xml:id values seen so far (xml:id Recommendation §4: they are unique). `char(j)` checks the
 * character at `j` is a Char and returns the index after it; `name()` reads a Name at `i`
 * (advancing), or returns "" without moving; `nameAt(at)` is the Name at `at`, without moving.
 * (These docs are not on the members: the bundler keeps a class member's docs, in the root's
 * budget.)
 */
export class Cursor {
  i = 0;
  readonly n: number;
  open = new Int32Array(64);
  depth = 0;
  readonly ns = new NamespaceScope();
  // Scratch for one start tag, reused.
  readonly attrNames: string[] = [];
  readonly attrOffsets: number[] = [];
  readonly declValues: (string | null)[] = [];
  readonly ids = new Set<string>();

  constructor(readonly s: string) {
    this.n = s.length;
  }

  fail(code: XmlErrorCode, offset: number, message: string): never {
    if (offset < this.n) {
      const c = codePointAt(this.s, offset);
      if (!isXmlChar(c)) {
        const hex = c.toString(16).toUpperCase().padStart(4, "0");
        throw new XmlFault("invalid-char", offset, `Character U+${hex} is not allowed in XML`);
      }
    }
    throw new XmlFault(code, offset, message);
  }

  char(j: number): number {
    const c = this.s.charCodeAt(j);
    if ((c >= 0x20 && c < 0xd800) || c === 0xa || c === 0x9 || c === 0xd) return j + 1;
    if (c >= 0xe000 && c <= 0xfffd) return j + 1;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = this.s.charCodeAt(j + 1);
      if (d >= 0xdc00 && d <= 0xdfff) return j + 2;
    }
    return this.fail("invalid-char", j, "");
  }

  skipSpace(): number {
    const start = this.i;
    while (isXmlSpace(this.s.charCodeAt(this.i))) this.i++;
    return this.i - start;
  }

  name(): string {
    const s = this.s, start = this.i;
    let j = start;
    let c = codePointAt(s, j);
    if (!isNameStartChar(c)) return "";
    j += c > 0xffff ? 2 : 1;
    for (;;) {
      c = codePointAt(s, j);
      if (!isNameChar(c)) break;
      j += c > 0xffff ? 2 : 1;
    }
    this.i = j;
    return s.slice(start, j);
  }

  nameAt(at: number): string {
    const i = this.i;
    this.i = at;
    const name = this.name();
    this.i = i;
    return name;
  }
}
