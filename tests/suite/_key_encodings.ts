// Every encoding of an API key that the judge must redact, written by independent encoders (none
// shares code with src/suite/judge/_redact.ts): the loopback server echoes each of them back, and
// the tests search every output for each of them and for the base64 cores of the key.

/** One encoded form of a key. */
export interface KeyForm {
  /** What the encoding is, for messages. */
  name: string;
  /** The encoded text. */
  text: string;
}

const hex2 = (c: number, upper: boolean) => {
  const h = c.toString(16).padStart(2, "0");
  return upper ? h.toUpperCase() : h;
};
const hex4 = (c: number, upper: boolean) => {
  const h = c.toString(16).padStart(4, "0");
  return upper ? h.toUpperCase() : h;
};
const chars = (s: string) => [...s].map((ch) => ch.charCodeAt(0));

/** JSON string content (without the quotes). */
export const json = (s: string) => JSON.stringify(s).slice(1, -1);
/** Every character as `\uXXXX`. */
export const jsonAllU = (s: string, upper = false) =>
  chars(s).map((c) => "\\u" + hex4(c, upper)).join("");
/** PHP's JSON: `/` as `\/`. */
export const jsonSlash = (s: string) => json(s).replaceAll("/", "\\/");
/** Go's encoding/json: `&`, `<` and `>` as `\u0026`, `\u003c` and `\u003e`. */
export const jsonGo = (s: string) =>
  json(s).replaceAll("&", "\\u0026").replaceAll("<", "\\u003c").replaceAll(">", "\\u003e");
/** Percent-encoding of everything but RFC 3986's unreserved characters, in one hex case. */
export const pct = (s: string, upper = true) =>
  [...s].map((ch) => /[A-Za-z0-9._~-]/.test(ch) ? ch : "%" + hex2(ch.charCodeAt(0), upper))
    .join("");
/** Percent-encoding of every character. */
export const pctAll = (s: string, upper = true) =>
  chars(s).map((c) => "%" + hex2(c, upper)).join("");
/** application/x-www-form-urlencoded: percent-encoding with `+` for a space. */
export const form = (s: string) => pct(s).replaceAll("%20", "+");
/** HTML with the named entities (and `&#39;` for `'`). */
export const htmlNamed = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&#39;");
/** HTML with the five specials as decimal references (`&#38;` …). */
export const htmlDecimal = (s: string) =>
  [...s].map((ch) => /[&<>"']/.test(ch) ? `&#${ch.charCodeAt(0)};` : ch).join("");
/** HTML with every character as a hex reference (`&#x26;`, or `&#X26;` with upper-case digits). */
export const htmlHexAll = (s: string, upper = false) =>
  chars(s).map((c) => upper ? `&#X${c.toString(16).toUpperCase()};` : `&#x${c.toString(16)};`)
    .join("");
/** HTML with every character as a decimal reference. */
export const htmlDecimalAll = (s: string) => chars(s).map((c) => `&#${c};`).join("");
/** Standard base64 (with padding) of the bytes of an ASCII string. */
export const b64 = (s: string) => btoa(s);
/** base64url without padding. */
export const b64url = (s: string) =>
  btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

/** Every encoded form of `key` that the judge must redact (about forty). */
export function keyForms(key: string): KeyForm[] {
  const f: [string, string][] = [
    ["raw", key],
    ["json", json(key)],
    ["json all \\u, lower hex", jsonAllU(key)],
    ["json all \\u, upper hex", jsonAllU(key, true)],
    ["json with \\/", jsonSlash(key)],
    ["Go json (\\u0026 \\u003c \\u003e)", jsonGo(key)],
    ["percent, upper hex", pct(key)],
    ["percent, lower hex", pct(key, false)],
    ["percent of every char, upper", pctAll(key)],
    ["percent of every char, lower", pctAll(key, false)],
    ["encodeURIComponent", encodeURIComponent(key)],
    ["form-encoded Bearer", form("Bearer " + key)],
    ["html named", htmlNamed(key)],
    ["html decimal specials", htmlDecimal(key)],
    ["html decimal all", htmlDecimalAll(key)],
    ["html hex all, lower", htmlHexAll(key)],
    ["html hex all, upper", htmlHexAll(key, true)],
    ["base64", b64(key)],
    ["base64url", b64url(key)],
    ["base64 of Bearer key", b64("Bearer " + key)],
    ["base64url of Bearer key", b64url("Bearer " + key)],
    ["base64 of key: (basic auth user)", b64(key + ":")],
    ["base64 of user:key (basic auth password)", b64("user:" + key)],
    ["base64 at offset 1", b64("x" + key + "y")],
    ["base64 at offset 2", b64("xy" + key)],
    ["base64 of a JSON document", b64(JSON.stringify({ error: { key } }))],
    ["json in json", json(json(key))],
    ["all \\u in json", json(jsonAllU(key))],
    ["json in json in json", json(json(json(key)))],
    ["percent of percent", pct(pct(key))],
    ["percent of percent, lower", pct(pct(key, false), false)],
    ["html of html", htmlNamed(htmlNamed(key))],
    ["json of html", json(htmlNamed(key))],
    ["html of json", htmlNamed(json(key))],
    ["percent of json", pct(json(key))],
    ["json of percent", json(pct(key, false))],
    ["html of percent", htmlNamed(pct(key))],
    ["percent of base64", pct(b64(key))],
    ["json of base64 of Bearer", jsonSlash(b64("Bearer " + key))],
    ["hex, lower", chars(key).map((c) => hex2(c, false)).join("")],
    ["hex, upper", chars(key).map((c) => hex2(c, true)).join("")],
  ];
  const seen = new Set<string>();
  const out: KeyForm[] = [];
  for (const [name, text] of f) {
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({ name, text });
  }
  return out;
}

/**
 * The base64 cores of `s`: for each of the three byte alignments and both alphabets, the
 * characters that depend on the bytes of `s` alone, so that they appear in any base64 text of any
 * bytes that contain `s`.
 */
export function base64Cores(s: string): string[] {
  const out: string[] = [];
  for (let a = 0; a < 3; a++) {
    const enc = btoa("\0".repeat(a) + s + "\0\0\0");
    const first = Math.ceil((8 * a) / 6);
    const last = Math.floor((8 * (a + s.length)) / 6); // exclusive
    const core = enc.slice(first, last);
    out.push(core, core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return out;
}

/**
 * The texts an output must not contain for `key`: every form of {@linkcode keyForms}, the base64
 * cores of the key and of its JSON escape, and the key's middle (so a half-redacted key shows).
 */
export function leakProbes(key: string): KeyForm[] {
  const probes = keyForms(key).filter((f) => !f.name.startsWith("base64"));
  for (const c of [...base64Cores(key), ...base64Cores(json(key))]) {
    probes.push({ name: "base64 core", text: c });
  }
  probes.push({ name: "middle of the key", text: key.slice(4, -4) });
  return probes;
}

/** The probes of `keys` found in `text`, as `name: text` lines (empty when nothing leaked). */
export function leaks(text: string, keys: readonly string[]): string[] {
  const found: string[] = [];
  for (const key of keys) {
    for (const p of leakProbes(key)) {
      if (text.includes(p.text)) found.push(`${p.name}: ${p.text}`);
    }
  }
  return found;
}
