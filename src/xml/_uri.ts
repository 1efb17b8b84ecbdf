// The URI-reference check for namespace names (Namespaces in XML 1.0 §2.2: a namespace
// declaration's normalized value "MUST be either a URI reference … or an empty string").
//
// The grammar is RFC 3986's URI-reference (URI / relative-ref), read the way libxml2's
// xmlParse3986URIReference reads it, so that the verdict matches lxml's, which rejects a
// declaration whose value it cannot parse as a URI. Three details follow libxml2 rather than the
// letter of RFC 3986 (docs/xml.md): an IP literal is anything between `[` and `]`; a fragment may
// also contain `[` and `]`; a port, when `:` follows the host, has one or more digits and is at
// most 2^31 - 1. Only ASCII is allowed: an IRI with raw non-ASCII characters is not a URI.

const enum K {
  Alpha = 1,
  Digit = 2,
  Unreserved = 4, // ALPHA / DIGIT / "-" / "." / "_" / "~"
  SubDelim = 8, // "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
  Hex = 16,
}

const CLASS = (() => {
  const t = new Uint8Array(128);
  for (let c = 0x41; c <= 0x5a; c++) t[c] = K.Alpha | K.Unreserved;
  for (let c = 0x61; c <= 0x7a; c++) t[c] = K.Alpha | K.Unreserved;
  for (let c = 0x30; c <= 0x39; c++) t[c] = K.Digit | K.Unreserved | K.Hex;
  for (const ch of "abcdefABCDEF") t[ch.charCodeAt(0)]! |= K.Hex;
  for (const ch of "-._~") t[ch.charCodeAt(0)] = K.Unreserved;
  for (const ch of "!$&'()*+,;=") t[ch.charCodeAt(0)] = K.SubDelim;
  return t;
})();

function cls(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 0x80 ? CLASS[c]! : 0;
}

/** The length of the unit at `i` if it is unreserved / pct-encoded / sub-delims (/ extra), else 0. */
function unit(s: string, i: number, pchar: boolean): number {
  const c = s.charCodeAt(i);
  if (c === 0x25) return (cls(s, i + 1) & K.Hex) && (cls(s, i + 2) & K.Hex) ? 3 : 0;
  if (cls(s, i) & (K.Unreserved | K.SubDelim)) return 1;
  return pchar && (c === 0x3a || c === 0x40) ? 1 : 0; // ":" / "@"
}

/** Skips a segment; `forbid` is a char code that ends it early (":" in path-noscheme). */
function segment(s: string, i: number, forbid: number): number {
  for (;;) {
    if (s.charCodeAt(i) === forbid) return i;
    const w = unit(s, i, true);
    if (w === 0) return i;
    i += w;
  }
}

/** `*( "/" segment )` */
function slashSegments(s: string, i: number): number {
  while (s.charCodeAt(i) === 0x2f) i = segment(s, i + 1, -1);
  return i;
}

/** authority = [ userinfo "@" ] host [ ":" port ]; returns the end, or -1. */
function authority(s: string, i: number): number {
  let j = i;
  for (;;) {
    const w = s.charCodeAt(j) === 0x3a ? 1 : unit(s, j, false);
    if (w === 0) break;
    j += w;
  }
  if (s.charCodeAt(j) === 0x40) i = j + 1;
  if (s.charCodeAt(i) === 0x5b) {
    const close = s.indexOf("]", i + 1);
    if (close < 0) return -1;
    i = close + 1;
  } else {
    for (;;) {
      const w = unit(s, i, false);
      if (w === 0) break;
      i += w;
    }
  }
  if (s.charCodeAt(i) === 0x3a) {
    i++;
    let port = 0;
    const start = i;
    while (cls(s, i) & K.Digit) {
      port = port * 10 + (s.charCodeAt(i) - 0x30);
      if (port > 0x7fffffff) return -1;
      i++;
    }
    if (i === start) return -1;
  }
  return i;
}

/** `[ "?" query ] [ "#" fragment ]` then the end of the string. */
function tail(s: string, i: number): boolean {
  if (s.charCodeAt(i) === 0x3f) {
    i++;
    for (;;) {
      const c = s.charCodeAt(i);
      const w = c === 0x2f || c === 0x3f ? 1 : unit(s, i, true);
      if (w === 0) break;
      i += w;
    }
  }
  if (s.charCodeAt(i) === 0x23) {
    i++;
    for (;;) {
      const c = s.charCodeAt(i);
      const w = c === 0x2f || c === 0x3f || c === 0x5b || c === 0x5d ? 1 : unit(s, i, true);
      if (w === 0) break;
      i += w;
    }
  }
  return i === s.length;
}

/** hier-part / relative-part after an optional scheme; `noscheme` forbids ":" in the first segment. */
function pathPart(s: string, i: number, noscheme: boolean): number {
  if (s.charCodeAt(i) === 0x2f && s.charCodeAt(i + 1) === 0x2f) {
    const j = authority(s, i + 2);
    return j < 0 ? -1 : slashSegments(s, j);
  }
  if (s.charCodeAt(i) === 0x2f) return slashSegments(s, i);
  if (unit(s, i, true) !== 0 && !(noscheme && s.charCodeAt(i) === 0x3a)) {
    const j = segment(s, i, noscheme ? 0x3a : -1);
    if (j === i) return -1;
    return slashSegments(s, j);
  }
  return i; // path-empty
}

/**
 * Whether `s` is a URI reference (RFC 3986 §4.1, as libxml2 parses it).
 *
 * @param s A namespace name, after attribute-value normalization.
 * @returns True for a URI or a relative reference.
 */
export function isUriReference(s: string): boolean {
  // URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
  if (cls(s, 0) & K.Alpha) {
    let i = 1;
    while (cls(s, i) & (K.Alpha | K.Digit) || "+-.".includes(s[i] ?? "_")) i++;
    if (s.charCodeAt(i) === 0x3a) {
      const j = pathPart(s, i + 1, false);
      if (j >= 0 && tail(s, j)) return true;
    }
  }
  // relative-ref = relative-part [ "?" query ] [ "#" fragment ]
  const j = pathPart(s, 0, true);
  return j >= 0 && tail(s, j);
}
