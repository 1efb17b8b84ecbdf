// The markup that is not an element: comments, processing instructions, CDATA sections, the
// `<!` forms (a DOCTYPE is rejected) and the XML declaration.
import { isXmlSpace } from "./_chars.ts";
import { type Cursor, GT, QUESTION, RSQB } from "./_cursor.ts";
import { scanXmlDeclaration } from "./_declaration.ts";

/** `<!--` … `-->` at `i`. */
export function comment(sc: Cursor): void {
  const s = sc.s, n = sc.n, start = sc.i;
  let i = start + 4;
  while (i < n) {
    if (s.charCodeAt(i) === 0x2d && s.charCodeAt(i + 1) === 0x2d) {
      if (s.charCodeAt(i + 2) !== GT) sc.fail("comment", i, "'--' is not allowed in a comment");
      sc.i = i + 3;
      return;
    }
    i = sc.char(i);
  }
  sc.fail("comment", start, "Unterminated comment");
}

/** `<?target …?>` at `i`. */
export function pi(sc: Cursor): void {
  const s = sc.s, n = sc.n, start = sc.i;
  sc.i += 2;
  const target = sc.name();
  if (target === "") sc.fail("pi", sc.i, "Invalid processing-instruction target");
  if (target.length === 3 && target.toLowerCase() === "xml") {
    sc.fail("pi", start, "The target 'xml' is reserved: an XML declaration must come first");
  }
  if (target.includes(":")) sc.fail("namespace", start + 2, "A PI target may not contain ':'");
  let i = sc.i;
  if (!(s.charCodeAt(i) === QUESTION && s.charCodeAt(i + 1) === GT)) {
    if (!isXmlSpace(s.charCodeAt(i))) sc.fail("pi", i, "Expected whitespace after the target");
    while (i < n) {
      if (s.charCodeAt(i) === QUESTION && s.charCodeAt(i + 1) === GT) break;
      i = sc.char(i);
    }
    if (i >= n) sc.fail("pi", start, "Unterminated processing instruction");
  }
  sc.i = i + 2;
}

/** `<![CDATA[` … `]]>` at `i`. */
export function cdata(sc: Cursor): void {
  const s = sc.s, n = sc.n, start = sc.i;
  let i = start + 9;
  while (i < n) {
    if (s.charCodeAt(i) === RSQB && s.charCodeAt(i + 1) === RSQB && s.charCodeAt(i + 2) === GT) {
      sc.i = i + 3;
      return;
    }
    i = sc.char(i);
  }
  sc.fail("cdata", start, "Unterminated CDATA section");
}

/** `<!` at `i`, outside (`inContent` false) or inside the root element. */
export function bang(sc: Cursor, inContent: boolean): void {
  const s = sc.s, i = sc.i;
  if (s.startsWith("<!--", i)) return comment(sc);
  if (s.startsWith("<!DOCTYPE", i)) {
    sc.fail("doctype", i, "Document type declarations are rejected (no entity expansion)");
  }
  if (s.startsWith("<![CDATA[", i)) {
    if (inContent) return cdata(sc);
    sc.fail("content-outside-root", i, "CDATA section outside the root element");
  }
  sc.fail("markup", i, "Unknown markup after '<!'");
}

/** The `<?xml` declaration at `i` (already known to be followed by whitespace). */
export function xmlDecl(sc: Cursor): void {
  const r = scanXmlDeclaration(sc.s, sc.i);
  if (typeof r !== "number") sc.fail("xml-declaration", r.offset, r.message);
  sc.i = r;
}
