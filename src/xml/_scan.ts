// The single-pass XML 1.0 well-formedness scanner behind src/xml/xml.ts.
//
// One left-to-right pass over the UTF-16 code units, linear in the input: open elements live on
// an explicit stack (no recursion), in-scope namespace prefixes in a map of stacks. The first
// violation ends the scan with a code, its offset (in UTF-16 units) and a short message.
import { isXmlSpace } from "./_chars.ts";
import { BANG, Cursor, LT, QUESTION, SLASH } from "./_cursor.ts";
import { excerpt, type XmlErrorCode, XmlFault } from "./_fault.ts";
import { bang, pi, xmlDecl } from "./_markup.ts";
import { endTag, startTag } from "./_tags.ts";
import { text } from "./_text.ts";

export { type XmlErrorCode, XmlFault };

/** The document: an optional declaration, then misc, exactly one root element, and misc. */
function run(sc: Cursor): void {
  const s = sc.s, n = sc.n;
  if (s.charCodeAt(0) === 0xfeff) sc.i = 1; // a byte order mark
  if (s.startsWith("<?xml", sc.i) && isXmlSpace(s.charCodeAt(sc.i + 5))) xmlDecl(sc);
  let rootSeen = false;
  for (;;) {
    if (sc.depth === 0) {
      sc.skipSpace();
      if (sc.i >= n) break;
      const at = sc.i;
      if (s.charCodeAt(at) !== LT) {
        sc.fail("content-outside-root", at, "Text outside the root element");
      }
      const c = s.charCodeAt(at + 1);
      if (c === QUESTION) pi(sc);
      else if (c === BANG) bang(sc, false);
      else if (c === SLASH) {
        sc.fail("content-outside-root", at, "End tag outside the root element");
      } else if (rootSeen) sc.fail("multiple-roots", at, "A second root element");
      else {
        rootSeen = true;
        startTag(sc);
      }
    } else {
      text(sc);
      if (sc.i >= n) {
        const open = sc.nameAt(sc.open[sc.depth - 1]!);
        sc.fail("unclosed-element", n, `Unclosed element <${excerpt(open)}>`);
      }
      const c = s.charCodeAt(sc.i + 1);
      if (c === SLASH) endTag(sc);
      else if (c === QUESTION) pi(sc);
      else if (c === BANG) bang(sc, true);
      else startTag(sc);
    }
  }
  if (!rootSeen) sc.fail("no-root", n, "No root element");
}

/**
 * Scans `s` for XML 1.0 well-formedness (namespace-aware, DOCTYPE rejected).
 *
 * @param s The text.
 * @returns The first violation, or null when the text is well-formed.
 */
export function scanXml(s: string): XmlFault | null {
  try {
    run(new Cursor(s));
    return null;
  } catch (e) {
    if (e instanceof XmlFault) return e;
    throw e;
  }
}
