// Tags: start tags with their attributes (values normalized where namespaces or xml:id need
// them), xml:id checks, and end tags matched against the open element.
import { codePointAt, isNameChar, isNcName, isXmlSpace } from "./_chars.ts";
import { AMP, type Cursor, GT, LT, SLASH } from "./_cursor.ts";
import { excerpt } from "./_fault.ts";
import { checkStartTagNamespaces } from "./_namespaces.ts";
import { reference } from "./_text.ts";

/** An attribute value at `i`; returns the normalized value when `collect` (for xmlns). */
export function attValue(sc: Cursor, collect: boolean): string | null {
  const s = sc.s, n = sc.n, start = sc.i;
  const quote = s.charCodeAt(start);
  if (quote !== 0x22 && quote !== 0x27) sc.fail("attribute", start, "Expected a quoted value");
  let i = start + 1, seg = i, out = "";
  for (;;) {
    if (i >= n) sc.fail("attribute", start, "Unterminated attribute value");
    const c = s.charCodeAt(i);
    if (c === quote) break;
    if (c === LT) sc.fail("attribute", i, "'<' is not allowed in an attribute value");
    if (c === AMP) {
      if (collect) out += s.slice(seg, i);
      sc.i = i;
      const r = reference(sc);
      i = sc.i;
      if (collect) out += r;
      seg = i;
    } else if (collect && (c === 0x9 || c === 0xa || c === 0xd)) {
      out += s.slice(seg, i) + " ";
      i += c === 0xd && s.charCodeAt(i + 1) === 0xa ? 2 : 1; // \r\n is one line end
      seg = i;
    } else if (c >= 0x20 && c < 0xd800) i++;
    else i = sc.char(i);
  }
  sc.i = i + 1;
  return collect ? out + s.slice(seg, i) : null;
}

/** A start tag or empty-element tag at `i`. */
export function startTag(sc: Cursor): void {
  const s = sc.s, start = sc.i;
  sc.i++;
  const qname = sc.name();
  if (qname === "") sc.fail("tag", sc.i, "Invalid element name");
  const names = sc.attrNames, offsets = sc.attrOffsets, values = sc.declValues;
  names.length = offsets.length = values.length = 0;
  let empty = false, id: string | null = null, idAt = 0;
  for (;;) {
    const ws = sc.skipSpace();
    const c = s.charCodeAt(sc.i);
    if (c === GT) {
      sc.i++;
      break;
    }
    if (c === SLASH) {
      if (s.charCodeAt(sc.i + 1) !== GT) sc.fail("tag", sc.i, "Expected '/>'");
      sc.i += 2;
      empty = true;
      break;
    }
    if (sc.i >= sc.n) sc.fail("tag", start, `Unterminated start tag <${excerpt(qname)}>`);
    if (ws === 0) sc.fail("tag", sc.i, "Expected whitespace before an attribute");
    const at = sc.i;
    const aname = sc.name();
    if (aname === "") sc.fail("tag", sc.i, "Invalid attribute name");
    sc.skipSpace();
    if (s.charCodeAt(sc.i) !== 0x3d) {
      sc.fail("attribute", sc.i, `Expected '=' after attribute ${excerpt(aname)}`);
    }
    sc.i++;
    sc.skipSpace();
    if (aname === "xml:id") {
      id = attValue(sc, true);
      idAt = at;
      values.push(null);
    } else values.push(attValue(sc, aname === "xmlns" || aname.startsWith("xmlns:")));
    names.push(aname);
    offsets.push(at);
  }
  const depth = sc.depth;
  const fault = checkStartTagNamespaces(sc.ns, depth, start + 1, qname, names, offsets, values);
  if (fault) sc.fail(fault.code, fault.offset, fault.message);
  if (id !== null) xmlId(sc, id, idAt);
  if (empty) {
    sc.ns.leave(depth);
    return;
  }
  if (depth === sc.open.length) {
    const grown = new Int32Array(depth * 2);
    grown.set(sc.open);
    sc.open = grown;
  }
  sc.open[depth] = start + 1;
  sc.depth = depth + 1;
}

/** An xml:id value: an NCName once blanks around it are trimmed, and unique in the document. */
export function xmlId(sc: Cursor, value: string, at: number): void {
  let from = 0, to = value.length;
  while (from < to && isXmlSpace(value.charCodeAt(from))) from++;
  while (to > from && isXmlSpace(value.charCodeAt(to - 1))) to--;
  if (!isNcName(value.slice(from, to))) {
    sc.fail("xml-id", at, `xml:id value ${JSON.stringify(excerpt(value))} is not an NCName`);
  }
  if (sc.ids.has(value)) {
    sc.fail("xml-id", at, `xml:id value ${JSON.stringify(excerpt(value))} is not unique`);
  }
  sc.ids.add(value);
}

/** An end tag at `i`. */
export function endTag(sc: Cursor): void {
  const start = sc.i;
  sc.i += 2;
  const name = sc.name();
  if (name === "") sc.fail("tag", sc.i, "Invalid end-tag name");
  sc.skipSpace();
  if (sc.s.charCodeAt(sc.i) !== GT) sc.fail("tag", sc.i, "Expected '>'");
  sc.i++;
  const depth = sc.depth - 1, at = sc.open[depth]!;
  // The open name is a maximal Name run at `at`: equal iff it starts with `name` and ends there.
  if (!sc.s.startsWith(name, at) || isNameChar(codePointAt(sc.s, at + name.length))) {
    sc.fail(
      "mismatched-end-tag",
      start,
      `End tag </${excerpt(name)}> does not match <${excerpt(sc.nameAt(at))}>`,
    );
  }
  sc.depth = depth;
  sc.ns.leave(depth);
}
