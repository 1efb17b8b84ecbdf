/**
 * URI and JSON Pointer helpers for the JSON Schema validator: resolving a reference against a base
 * URI (RFC 3986 through the WHATWG `URL` parser, with a fallback for fragment-only references on
 * non-hierarchical bases such as URNs) and escaping pointer tokens (RFC 6901).
 *
 * @module
 */

/** The base URI given to a root schema without an absolute `$id`. */
export const DEFAULT_BASE = "assay:/schema";

/**
 * Escapes one JSON Pointer reference token (`~` → `~0`, `/` → `~1`).
 *
 * @param token The raw token (a property name or an index).
 * @returns The escaped token.
 */
export function escapeToken(token: string): string {
  if (token.indexOf("~") < 0 && token.indexOf("/") < 0) return token;
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Unescapes one JSON Pointer reference token (`~1` → `/`, `~0` → `~`).
 *
 * @param token The escaped token.
 * @returns The raw token.
 */
export function unescapeToken(token: string): string {
  if (token.indexOf("~") < 0) return token;
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * Splits a URI into the part before `#` and the fragment (without `#`).
 *
 * @param uri The URI.
 * @returns `[base, fragment]`; the fragment is `""` when absent.
 */
export function splitFragment(uri: string): [string, string] {
  const i = uri.indexOf("#");
  return i < 0 ? [uri, ""] : [uri.slice(0, i), uri.slice(i + 1)];
}

/**
 * Resolves a URI reference against a base URI.
 *
 * @param ref The reference (relative or absolute).
 * @param base The absolute base URI.
 * @returns The resolved absolute URI, or `undefined` when it cannot be resolved.
 */
export function resolveUri(ref: string, base: string): string | undefined {
  if (ref.startsWith("#")) return splitFragment(base)[0] + ref;
  try {
    // A base with an opaque path (urn:x, tag:y) resolves no relative reference, as WHATWG says
    // and Deno's and Bun's URL do; Node 20's resolves one with a fragment (urn:x/child#a).
    return new URL(ref, /^[a-z][\w+.-]*:(?!\/)/i.test(base) ? undefined : base).href;
  } catch {
    try {
      return new URL(ref).href;
    } catch {
      return undefined;
    }
  }
}

/**
 * Normalises a resource identifier: the URI without a fragment (an empty fragment is dropped).
 *
 * @param uri The absolute URI.
 * @returns The URI without its fragment.
 */
export function resourceKey(uri: string): string {
  return splitFragment(uri)[0];
}

/**
 * Decodes a URI fragment that is a JSON Pointer into its raw reference tokens.
 *
 * @param fragment The fragment without `#`, starting with `/` (or empty for the whole document).
 * @returns The tokens, or `undefined` when the percent-encoding is malformed.
 */
export function fragmentTokens(fragment: string): string[] | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  if (decoded === "") return [];
  return decoded.slice(1).split("/").map(unescapeToken);
}
