// Character data and references: text up to the next `<` (no `]]>` in it), and the five
// predefined entities and character references, each checked to be a Char.
import { isXmlChar } from "./_chars.ts";
import { AMP, type Cursor, GT, LT, RSQB } from "./_cursor.ts";
import { excerpt } from "./_fault.ts";

/** A reference at `i` (`&`): returns its replacement text. */
export function reference(sc: Cursor): string {
  const s = sc.s, start = sc.i;
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
      return sc.fail("reference", start, "Malformed character reference");
    }
    if (!isXmlChar(value)) {
      return sc.fail(
        "reference",
        start,
        `Character reference ${excerpt(s.slice(start, j + 1))} is not a Char`,
      );
    }
    sc.i = j + 1;
    return String.fromCodePoint(value);
  }
  sc.i = start + 1;
  const name = sc.name();
  if (name === "" || s.charCodeAt(sc.i) !== 0x3b) {
    return sc.fail("reference", start, "Malformed entity reference");
  }
  sc.i++;
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
  return sc.fail("reference", start, `Undefined entity &${excerpt(name)};`);
}

/** Character data up to the next `<` or the end. */
export function text(sc: Cursor): void {
  const s = sc.s, n = sc.n;
  let i = sc.i;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === LT) break;
    if (c === AMP) {
      sc.i = i;
      reference(sc);
      i = sc.i;
    } else if (c === RSQB) {
      if (s.charCodeAt(i + 1) === RSQB && s.charCodeAt(i + 2) === GT) {
        sc.fail("cdata-end-in-text", i, "']]>' is not allowed in text");
      }
      i++;
    } else if (c >= 0x20 && c < 0xd800) i++;
    else i = sc.char(i);
  }
  sc.i = i;
}
