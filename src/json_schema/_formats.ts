/**
 * Format checkers for the JSON Schema `format` keyword (asserted only with `formatAssertion: true`).
 * Each checker takes a string and says whether it is in the format; non-strings always pass.
 *
 * @module
 */

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([zZ]|([+-])([0-9]{2}):([0-9]{2}))$/;
const DURATION =
  /^P(?:(?:[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?|[0-9]+M(?:[0-9]+D)?|[0-9]+D)(?:T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S))?|T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)|[0-9]+W)$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const IPV4_OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;
const LABEL = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;
// Patterns avoid alternation inside `*` (V8 would need a backtracking stack as long as the input,
// which overflows on 100 MB strings): escapes such as `~0` or `%41` are checked separately.
const JSON_POINTER = /^(?:\/[^/]*)*$/;
const REL_JSON_POINTER = /^(?:0|[1-9][0-9]*)(?:#|(?:\/[^/]*)*)$/;
const BAD_TILDE = /~(?![01])/;
const EMAIL_ATOM = /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const EMAIL_QUOTED = /^"[\x20\x21\x23-\x5b\x5d-\x7e]*"$/;
const QUOTED_PAIR = /\\[\x20-\x7e]/g;
const BAD_PERCENT = /%(?![0-9a-fA-F]{2})/;
// RFC 3986 (ASCII only); `iri` variants additionally allow non-ASCII characters (RFC 3987, loosely).
const U = "a-zA-Z0-9\\-._~!$&'()*+,;=%";
const I = U + "\\u00a0-\\ud7ff\\uf900-\\ufdcf\\ufdf0-\\uffef\\u{10000}-\\u{10fffd}";

/** A URI (or IRI) regex over the class of unreserved, sub-delims and `%` characters `u`. */
function uriPattern(u: string, absolute: boolean): RegExp {
  const p = `[${u}:@]`; // pchar
  const pNc = `[${u}@]`; // pchar without ":"
  const ip6 = "\\[[0-9a-fA-F:.]+\\]|\\[[vV][0-9a-fA-F]+\\.[a-zA-Z0-9\\-._~!$&'()*+,;=:]+\\]";
  const authority = `(?:[${u}:]*@)?(?:${ip6}|[${u}]*)(?::[0-9]*)?`;
  const path = `(?:/${p}*)*`;
  const hier = `(?://${authority}${path}|/(?:${p}+${path})?|${p}+${path}|)`;
  const rel = `(?://${authority}${path}|/(?:${p}+${path})?|${pNc}+${path}|)`;
  const tail = `(?:\\?[${u}:@/?]*)?(?:#[${u}:@/?]*)?`;
  const scheme = "[a-zA-Z][a-zA-Z0-9+.-]*:";
  const body = absolute ? `${scheme}${hier}${tail}` : `(?:${scheme}${hier}|${rel})${tail}`;
  return new RegExp(`^${body}$`, "u");
}

const URI = uriPattern(U, true);
const URI_REF = uriPattern(U, false);
const IRI = uriPattern(I, true);
const IRI_REF = uriPattern(I, false);

function leapYear(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (m === null) return false;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = mo === 2 ? (leapYear(y) ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  return d <= days;
}

function isTime(s: string): boolean {
  const m = TIME.exec(s);
  if (m === null) return false;
  const h = Number(m[1]), mi = Number(m[2]), sec = Number(m[3]);
  if (h > 23 || mi > 59 || sec > 60) return false;
  let oh = 0, om = 0;
  if (m[6] !== undefined) {
    oh = Number(m[7]);
    om = Number(m[8]);
    if (oh > 23 || om > 59) return false;
    if (m[6] === "+") {
      oh = -oh;
      om = -om;
    }
  }
  if (sec === 60) {
    // A leap second is only valid at 23:59:60 UTC.
    const utc = ((h * 60 + mi + oh * 60 + om) % 1440 + 1440) % 1440;
    return utc === 23 * 60 + 59;
  }
  return true;
}

function isDateTime(s: string): boolean {
  return (s[10] === "T" || s[10] === "t") && isDate(s.slice(0, 10)) && isTime(s.slice(11));
}

function isIpv4(s: string): boolean {
  const parts = s.split(".");
  return parts.length === 4 && parts.every((p) => IPV4_OCTET.test(p) && Number(p) <= 255);
}

function isIpv6(s: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(s)) return false;
  let str = s;
  if (s.indexOf(".") >= 0) {
    const lastColon = s.lastIndexOf(":");
    if (lastColon < 0 || !isIpv4(s.slice(lastColon + 1))) return false;
    str = s.slice(0, lastColon + 1) + "0:0";
  }
  const dbl = str.indexOf("::");
  if (dbl >= 0) {
    if (str.indexOf("::", dbl + 1) >= 0) return false;
    const head = str.slice(0, dbl), tail = str.slice(dbl + 2);
    const groups = [
      ...(head === "" ? [] : head.split(":")),
      ...(tail === "" ? [] : tail.split(":")),
    ];
    return groups.length <= 7 && groups.every((g) => HEX_GROUP.test(g));
  }
  const groups = str.split(":");
  return groups.length === 8 && groups.every((g) => HEX_GROUP.test(g));
}

function isHostname(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  // Labels with "--" in positions 3-4 are only allowed as A-labels ("xn--"); Punycode is not decoded.
  return s.split(".").every((l) => LABEL.test(l) && (!/^..--/.test(l) || /^xn--/i.test(l)));
}

function isEmail(s: string, idn = false): boolean {
  const at = s.lastIndexOf("@");
  if (at <= 0) return false;
  let local = s.slice(0, at), domain = s.slice(at + 1);
  if (idn) {
    // RFC 6531: UTF-8 (any non-ASCII code point) is allowed where ASCII atom text is.
    local = local.replace(/[\u0080-\u{10ffff}]/gu, "a");
    domain = domain.replace(/[\u0080-\u{10ffff}]+/gu, "a");
  }
  if (!EMAIL_ATOM.test(local) && !EMAIL_QUOTED.test(local.replace(QUOTED_PAIR, "a"))) return false;
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const lit = domain.slice(1, -1);
    return lit.startsWith("IPv6:") ? isIpv6(lit.slice(5)) : isIpv4(lit);
  }
  return isHostname(domain);
}

function isRegex(s: string): boolean {
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
}

function checkUri(re: RegExp, s: string): boolean {
  if (BAD_PERCENT.test(s) || !re.test(s)) return false;
  // An IPv6 literal host must be a valid address.
  const m = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?\/\/(?:[^@/?#]*@)?\[([^\]]*)\]/.exec(s);
  return m === null || /^[vV]/.test(m[1]!) || isIpv6(m[1]!);
}

/** The format checkers by format name; formats not listed are annotations only. */
export const FORMATS: ReadonlyMap<string, (s: string) => boolean> = new Map<
  string,
  (s: string) => boolean
>([
  ["date-time", isDateTime],
  ["date", isDate],
  ["time", isTime],
  ["duration", (s) => DURATION.test(s)],
  ["email", isEmail],
  ["idn-email", (s) => isEmail(s, true)],
  ["hostname", isHostname],
  ["ipv4", isIpv4],
  ["ipv6", isIpv6],
  ["uri", (s) => checkUri(URI, s)],
  ["uri-reference", (s) => checkUri(URI_REF, s)],
  ["iri", (s) => checkUri(IRI, s)],
  ["iri-reference", (s) => checkUri(IRI_REF, s)],
  ["uuid", (s) => UUID.test(s)],
  ["json-pointer", (s) => JSON_POINTER.test(s) && !BAD_TILDE.test(s)],
  ["relative-json-pointer", (s) => REL_JSON_POINTER.test(s) && !BAD_TILDE.test(s)],
  ["regex", isRegex],
]);
