// How canonical JSON writes a string (CONTRACT §2): per UTF-16 code unit, printable ASCII as
// itself, `"` and `\` and the five control characters with a short form as their two-character
// escape, anything else (other controls, DEL, non-ASCII, each surrogate half) as `\u` and four
// lowercase hex digits. The parser writes its strings with these escapes, and canonicalValue
// with canonicalString.

const HEX = "0123456789abcdef";

/** `\\u` and the four lowercase hex digits of a code unit. */
export function hex4(u: number): string {
  return "\\u" + HEX[(u >> 12) & 15] + HEX[(u >> 8) & 15] + HEX[(u >> 4) & 15] + HEX[u & 15];
}

/** The canonical escape of one UTF-16 code unit that is not printable ASCII. */
export function escapeUnit(u: number): string {
  switch (u) {
    case 0x22:
      return '\\"';
    case 0x5c:
      return "\\\\";
    case 0x08:
      return "\\b";
    case 0x09:
      return "\\t";
    case 0x0a:
      return "\\n";
    case 0x0c:
      return "\\f";
    case 0x0d:
      return "\\r";
  }
  return u >= 0x20 && u <= 0x7e ? String.fromCharCode(u) : hex4(u);
}

/** A string as a canonical JSON string literal, quotes included. */
export function canonicalString(s: string): string {
  let out = '"';
  let plain = 0;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0x20 && u <= 0x7e && u !== 0x22 && u !== 0x5c) continue;
    out += s.slice(plain, i) + escapeUnit(u);
    plain = i + 1;
  }
  return out + s.slice(plain) + '"';
}
