// The single-pass XML 1.0 well-formedness scanner behind src/xml/xml.ts.
//
// One left-to-right pass over the UTF-16 code units, linear in the input: open elements live on
// an explicit stack (no recursion), in-scope namespace prefixes in a map of stacks. The first
// violation ends the scan with a code, its offset (in UTF-16 units) and a short message.
import {
  codePointAt,
  isNameChar,
  isNameStartChar,
  isNcName,
  isXmlChar,
  isXmlSpace,
} from "./_chars.ts";
import { scanXmlDeclaration } from "./_declaration.ts";
import { excerpt, type XmlErrorCode, XmlFault } from "./_fault.ts";
import { checkStartTagNamespaces, NamespaceScope } from "./_namespaces.ts";

export { type XmlErrorCode, XmlFault };

const LT = 0x3c, GT = 0x3e, AMP = 0x26, QUESTION = 0x3f, BANG = 0x21, SLASH = 0x2f, RSQB = 0x5d;

class Scanner {
  i = 0;
  readonly n: number;
  /** Where the name of each open element starts (an explicit stack: no recursion). */
  open = new Int32Array(64);
  depth = 0;
  readonly ns = new NamespaceScope();
  // Scratch for one start tag, reused.
  readonly attrNames: string[] = [];
  readonly attrOffsets: number[] = [];
  readonly declValues: (string | null)[] = [];
  /** The xml:id values seen so far (xml:id Recommendation §4: they are unique). */
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

  /** Checks the character at `j` is a Char; returns the index after it. */
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

  /** Reads a Name at `i` (advancing), or returns "" without moving. */
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

  /** The Name at `at`, without moving. */
  nameAt(at: number): string {
    const i = this.i;
    this.i = at;
    const name = this.name();
    this.i = i;
    return name;
  }

  /** A reference at `i` (`&`): returns its replacement text. */
  reference(): string {
    const s = this.s, start = this.i;
    if (s.charCodeAt(start + 1) === 0x23) {
      const hex = s.charCodeAt(start + 2) === 0x78;
      let j = start + (hex ? 3 : 2);
      const first = j;
      let value = 0;
      for (;; j++) {
        const c = s.charCodeAt(j);
        let d: number;
        if (c >= 0x30 && c <= 0x39) d = c - 0x30;
        else if (hex && c >= 0x61 && c <= 0x66) d = c - 0x57;
        else if (hex && c >= 0x41 && c <= 0x46) d = c - 0x37;
        else break;
        value = Math.min(value * (hex ? 16 : 10) + d, 0x110000);
      }
      if (j === first || s.charCodeAt(j) !== 0x3b) {
        return this.fail("reference", start, "Malformed character reference");
      }
      if (!isXmlChar(value)) {
        return this.fail(
          "reference",
          start,
          `Character reference ${excerpt(s.slice(start, j + 1))} is not a Char`,
        );
      }
      this.i = j + 1;
      return String.fromCodePoint(value);
    }
    this.i = start + 1;
    const name = this.name();
    if (name === "" || s.charCodeAt(this.i) !== 0x3b) {
      return this.fail("reference", start, "Malformed entity reference");
    }
    this.i++;
    switch (name) {
      case "lt":
        return "<";
      case "gt":
        return ">";
      case "amp":
        return "&";
      case "apos":
        return "'";
      case "quot":
        return '"';
    }
    return this.fail("reference", start, `Undefined entity &${excerpt(name)};`);
  }

  /** Character data up to the next `<` or the end. */
  text(): void {
    const s = this.s, n = this.n;
    let i = this.i;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === LT) break;
      if (c === AMP) {
        this.i = i;
        this.reference();
        i = this.i;
      } else if (c === RSQB) {
        if (s.charCodeAt(i + 1) === RSQB && s.charCodeAt(i + 2) === GT) {
          this.fail("cdata-end-in-text", i, "']]>' is not allowed in text");
        }
        i++;
      } else if (c >= 0x20 && c < 0xd800) i++;
      else i = this.char(i);
    }
    this.i = i;
  }

  /** `<!--` … `-->` at `i`. */
  comment(): void {
    const s = this.s, n = this.n, start = this.i;
    let i = start + 4;
    while (i < n) {
      if (s.charCodeAt(i) === 0x2d && s.charCodeAt(i + 1) === 0x2d) {
        if (s.charCodeAt(i + 2) !== GT) this.fail("comment", i, "'--' is not allowed in a comment");
        this.i = i + 3;
        return;
      }
      i = this.char(i);
    }
    this.fail("comment", start, "Unterminated comment");
  }

  /** `<?target …?>` at `i`. */
  pi(): void {
    const s = this.s, n = this.n, start = this.i;
    this.i += 2;
    const target = this.name();
    if (target === "") this.fail("pi", this.i, "Invalid processing-instruction target");
    if (target.length === 3 && target.toLowerCase() === "xml") {
      this.fail("pi", start, "The target 'xml' is reserved: an XML declaration must come first");
    }
    if (target.includes(":")) this.fail("namespace", start + 2, "A PI target may not contain ':'");
    let i = this.i;
    if (!(s.charCodeAt(i) === QUESTION && s.charCodeAt(i + 1) === GT)) {
      if (!isXmlSpace(s.charCodeAt(i))) this.fail("pi", i, "Expected whitespace after the target");
      while (i < n) {
        if (s.charCodeAt(i) === QUESTION && s.charCodeAt(i + 1) === GT) break;
        i = this.char(i);
      }
      if (i >= n) this.fail("pi", start, "Unterminated processing instruction");
    }
    this.i = i + 2;
  }

  /** `<![CDATA[` … `]]>` at `i`. */
  cdata(): void {
    const s = this.s, n = this.n, start = this.i;
    let i = start + 9;
    while (i < n) {
      if (s.charCodeAt(i) === RSQB && s.charCodeAt(i + 1) === RSQB && s.charCodeAt(i + 2) === GT) {
        this.i = i + 3;
        return;
      }
      i = this.char(i);
    }
    this.fail("cdata", start, "Unterminated CDATA section");
  }

  /** `<!` at `i`, outside (`inContent` false) or inside the root element. */
  bang(inContent: boolean): void {
    const s = this.s, i = this.i;
    if (s.startsWith("<!--", i)) return this.comment();
    if (s.startsWith("<!DOCTYPE", i)) {
      this.fail("doctype", i, "Document type declarations are rejected (no entity expansion)");
    }
    if (s.startsWith("<![CDATA[", i)) {
      if (inContent) return this.cdata();
      this.fail("content-outside-root", i, "CDATA section outside the root element");
    }
    this.fail("markup", i, "Unknown markup after '<!'");
  }

  /** An attribute value at `i`; returns the normalized value when `collect` (for xmlns). */
  attValue(collect: boolean): string | null {
    const s = this.s, n = this.n, start = this.i;
    const quote = s.charCodeAt(start);
    if (quote !== 0x22 && quote !== 0x27) this.fail("attribute", start, "Expected a quoted value");
    let i = start + 1, seg = i, out = "";
    for (;;) {
      if (i >= n) this.fail("attribute", start, "Unterminated attribute value");
      const c = s.charCodeAt(i);
      if (c === quote) break;
      if (c === LT) this.fail("attribute", i, "'<' is not allowed in an attribute value");
      if (c === AMP) {
        if (collect) out += s.slice(seg, i);
        this.i = i;
        const r = this.reference();
        i = this.i;
        if (collect) out += r;
        seg = i;
      } else if (collect && (c === 0x9 || c === 0xa || c === 0xd)) {
        out += s.slice(seg, i) + " ";
        i += c === 0xd && s.charCodeAt(i + 1) === 0xa ? 2 : 1; // \r\n is one line end
        seg = i;
      } else if (c >= 0x20 && c < 0xd800) i++;
      else i = this.char(i);
    }
    this.i = i + 1;
    return collect ? out + s.slice(seg, i) : null;
  }

  /** A start tag or empty-element tag at `i`. */
  startTag(): void {
    const s = this.s, start = this.i;
    this.i++;
    const qname = this.name();
    if (qname === "") this.fail("tag", this.i, "Invalid element name");
    const names = this.attrNames, offsets = this.attrOffsets, values = this.declValues;
    names.length = offsets.length = values.length = 0;
    let empty = false, id: string | null = null, idAt = 0;
    for (;;) {
      const ws = this.skipSpace();
      const c = s.charCodeAt(this.i);
      if (c === GT) {
        this.i++;
        break;
      }
      if (c === SLASH) {
        if (s.charCodeAt(this.i + 1) !== GT) this.fail("tag", this.i, "Expected '/>'");
        this.i += 2;
        empty = true;
        break;
      }
      if (this.i >= this.n) this.fail("tag", start, `Unterminated start tag <${excerpt(qname)}>`);
      if (ws === 0) this.fail("tag", this.i, "Expected whitespace before an attribute");
      const at = this.i;
      const aname = this.name();
      if (aname === "") this.fail("tag", this.i, "Invalid attribute name");
      this.skipSpace();
      if (s.charCodeAt(this.i) !== 0x3d) {
        this.fail("attribute", this.i, `Expected '=' after attribute ${excerpt(aname)}`);
      }
      this.i++;
      this.skipSpace();
      if (aname === "xml:id") {
        id = this.attValue(true);
        idAt = at;
        values.push(null);
      } else values.push(this.attValue(aname === "xmlns" || aname.startsWith("xmlns:")));
      names.push(aname);
      offsets.push(at);
    }
    const depth = this.depth;
    const fault = checkStartTagNamespaces(this.ns, depth, start + 1, qname, names, offsets, values);
    if (fault) this.fail(fault.code, fault.offset, fault.message);
    if (id !== null) this.xmlId(id, idAt);
    if (empty) {
      this.ns.leave(depth);
      return;
    }
    if (depth === this.open.length) {
      const grown = new Int32Array(depth * 2);
      grown.set(this.open);
      this.open = grown;
    }
    this.open[depth] = start + 1;
    this.depth = depth + 1;
  }

  /** An xml:id value: an NCName once blanks around it are trimmed, and unique in the document. */
  xmlId(value: string, at: number): void {
    let from = 0, to = value.length;
    while (from < to && isXmlSpace(value.charCodeAt(from))) from++;
    while (to > from && isXmlSpace(value.charCodeAt(to - 1))) to--;
    if (!isNcName(value.slice(from, to))) {
      this.fail("xml-id", at, `xml:id value ${JSON.stringify(excerpt(value))} is not an NCName`);
    }
    if (this.ids.has(value)) {
      this.fail("xml-id", at, `xml:id value ${JSON.stringify(excerpt(value))} is not unique`);
    }
    this.ids.add(value);
  }

  /** An end tag at `i`. */
  endTag(): void {
    const start = this.i;
    this.i += 2;
    const name = this.name();
    if (name === "") this.fail("tag", this.i, "Invalid end-tag name");
    this.skipSpace();
    if (this.s.charCodeAt(this.i) !== GT) this.fail("tag", this.i, "Expected '>'");
    this.i++;
    const depth = this.depth - 1, at = this.open[depth]!;
    // The open name is a maximal Name run at `at`: equal iff it starts with `name` and ends there.
    if (!this.s.startsWith(name, at) || isNameChar(codePointAt(this.s, at + name.length))) {
      this.fail(
        "mismatched-end-tag",
        start,
        `End tag </${excerpt(name)}> does not match <${excerpt(this.nameAt(at))}>`,
      );
    }
    this.depth = depth;
    this.ns.leave(depth);
  }

  /** The `<?xml` declaration at `i` (already known to be followed by whitespace). */
  xmlDecl(): void {
    const r = scanXmlDeclaration(this.s, this.i);
    if (typeof r !== "number") this.fail("xml-declaration", r.offset, r.message);
    this.i = r;
  }

  run(): void {
    const s = this.s, n = this.n;
    if (s.charCodeAt(0) === 0xfeff) this.i = 1; // a byte order mark
    if (s.startsWith("<?xml", this.i) && isXmlSpace(s.charCodeAt(this.i + 5))) this.xmlDecl();
    let rootSeen = false;
    for (;;) {
      if (this.depth === 0) {
        this.skipSpace();
        if (this.i >= n) break;
        const at = this.i;
        if (s.charCodeAt(at) !== LT) {
          this.fail("content-outside-root", at, "Text outside the root element");
        }
        const c = s.charCodeAt(at + 1);
        if (c === QUESTION) this.pi();
        else if (c === BANG) this.bang(false);
        else if (c === SLASH) {
          this.fail("content-outside-root", at, "End tag outside the root element");
        } else if (rootSeen) this.fail("multiple-roots", at, "A second root element");
        else {
          rootSeen = true;
          this.startTag();
        }
      } else {
        this.text();
        if (this.i >= n) {
          const open = this.nameAt(this.open[this.depth - 1]!);
          this.fail("unclosed-element", n, `Unclosed element <${excerpt(open)}>`);
        }
        const c = s.charCodeAt(this.i + 1);
        if (c === SLASH) this.endTag();
        else if (c === QUESTION) this.pi();
        else if (c === BANG) this.bang(true);
        else this.startTag();
      }
    }
    if (!rootSeen) this.fail("no-root", n, "No root element");
  }
}

/**
 * Scans `s` for XML 1.0 well-formedness (namespace-aware, DOCTYPE rejected).
 *
 * @param s The text.
 * @returns The first violation, or null when the text is well-formed.
 */
export function scanXml(s: string): XmlFault | null {
  try {
    new Scanner(s).run();
    return null;
  } catch (e) {
    if (e instanceof XmlFault) return e;
    throw e;
  }
}
