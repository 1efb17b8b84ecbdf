// Python 3.11's repr() of text: a str's (escapes of what str.isprintable() refuses, Unicode 14's
// whatever the runtime's) and a bytes value's (each byte at most 0xff, held as one code unit).
import { nonprintable14 } from "../pytext/mod.ts";

// What Python 3.11's repr() escapes past ASCII: the characters `str.isprintable()` refuses
// (categories C and Z but the space, surrogates included), in Unicode 14, whatever the runtime's.
const NONPRINTABLE = new RegExp(nonprintable14(), "u");

/** The quote both reprs choose: `'`, unless the text holds `'` and no `"`. */
function quoteOf(s: string): string {
  return s.includes("'") && !s.includes('"') ? '"' : "'";
}

/** `\xhh`, lowercase. */
const hex2 = (c: number) => `\\x${c.toString(16).padStart(2, "0")}`;

/** The escape both reprs write for `\`, the quote, `\n`, `\r`, `\t`, or undefined. */
function commonEscape(ch: string, quote: string): string | undefined {
  if (ch === "\\" || ch === quote) return "\\" + ch;
  if (ch === "\n") return "\\n";
  if (ch === "\r") return "\\r";
  if (ch === "\t") return "\\t";
  return undefined;
}

/** `repr(s)` of a Python `str`. */
export function strRepr(s: string): string {
  const quote = quoteOf(s);
  // One replace over the characters that may need an escape (all but printable ASCII other than
  // `\` and the quotes), not one concatenation a character: a string of megabytes built a
  // character at a time held a rope of as many parts.
  const body = s.replace(/[^ -~]|[\\'"]/gu, (ch) => {
    const c = ch.codePointAt(0)!;
    const e = commonEscape(ch, quote);
    if (e !== undefined) return e;
    if (c < 0x20 || c === 0x7f) return hex2(c);
    if (c < 0x7f || !NONPRINTABLE.test(ch)) return ch;
    if (c < 0x100) return hex2(c);
    if (c < 0x10000) return `\\u${c.toString(16).padStart(4, "0")}`;
    return `\\U${c.toString(16).padStart(8, "0")}`;
  });
  return quote + body + quote;
}

/**
 * `repr(b)` of a Python `bytes` value whose bytes are the code units of `bytes` (each at most
 * 0xff): printable ASCII as it is, every other byte (0x7f and all past it) as `\xhh`.
 */
export function bytesRepr(bytes: string): string {
  const quote = quoteOf(bytes);
  let out = "b" + quote;
  for (let i = 0; i < bytes.length; i++) {
    const ch = bytes[i]!;
    const c = ch.charCodeAt(0);
    const e = commonEscape(ch, quote);
    out += e !== undefined ? e : c >= 0x20 && c < 0x7f ? ch : hex2(c);
  }
  return out + quote;
}
