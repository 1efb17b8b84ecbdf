// Character classes of XML 1.0 (Fifth Edition): Char (§2.2), S (§2.3) and the Name productions
// NameStartChar / NameChar (§2.3), over Unicode code points.

/** ASCII lookup: bit 1 = NameStartChar, bit 2 = NameChar. */
const ASCII = (() => {
  const t = new Uint8Array(128);
  const set = (from: number, to: number, bits: number) => {
    for (let c = from; c <= to; c++) t[c] = (t[c] ?? 0) | bits;
  };
  set(0x41, 0x5a, 3); // A-Z
  set(0x61, 0x7a, 3); // a-z
  set(0x5f, 0x5f, 3); // _
  set(0x3a, 0x3a, 3); // :
  set(0x30, 0x39, 2); // 0-9
  set(0x2d, 0x2e, 2); // - .
  return t;
})();

/** NameStartChar (XML 1.0 5th ed., production [4]). */
export function isNameStartChar(c: number): boolean {
  if (c < 0x80) return (ASCII[c]! & 1) !== 0;
  return (c >= 0xc0 && c <= 0xd6) || (c >= 0xd8 && c <= 0xf6) || (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) || (c >= 0x37f && c <= 0x1fff) || c === 0x200c || c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) || (c >= 0x2c00 && c <= 0x2fef) || (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xfffd) || (c >= 0x10000 && c <= 0xeffff);
}

/** NameChar (XML 1.0 5th ed., production [4a]). */
export function isNameChar(c: number): boolean {
  if (c < 0x80) return (ASCII[c]! & 2) !== 0;
  return c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040 ||
    isNameStartChar(c);
}

/** Char (XML 1.0 5th ed., production [2]) for a code point. */
export function isXmlChar(c: number): boolean {
  return (c >= 0x20 && c <= 0xd7ff) || c === 0x9 || c === 0xa || c === 0xd ||
    (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

/** S (production [3]): space, tab, line feed or carriage return. */
export function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0xa || c === 0x9 || c === 0xd;
}

/**
 * The code point at `i` of `s` (a surrogate pair is joined; a lone surrogate is returned as
 * itself, which is not a Char), or -1 past the end.
 */
export function codePointAt(s: string, i: number): number {
  return s.codePointAt(i) ?? -1;
}

/** Whether `s` is an NCName (Namespaces in XML 1.0 production [4]: a Name without ':'). */
export function isNcName(s: string): boolean {
  if (s.length === 0) return false;
  for (let j = 0; j < s.length;) {
    const c = codePointAt(s, j);
    if (c === 0x3a || !(j === 0 ? isNameStartChar(c) : isNameChar(c))) return false;
    j += c > 0xffff ? 2 : 1;
  }
  return true;
}
