// The XML declaration (XML 1.0 §2.8, productions [23]-[26], [32], [80]-[81]).
import { isXmlSpace } from "./_chars.ts";

/**
 * Reads the XML declaration that starts at `start` (`<?xml` and whitespace).
 *
 * @param s The text.
 * @param start Where `<?xml` is.
 * @returns The index after `?>`, or where and why the declaration is malformed.
 */
export function scanXmlDeclaration(
  s: string,
  start: number,
): number | { offset: number; message: string } {
  let i = start + 5;
  const space = () => {
    const from = i;
    while (isXmlSpace(s.charCodeAt(i))) i++;
    return i - from;
  };
  // S? key Eq quoted-value, with the value matching `test`; null if `key` is not at `i`.
  const pseudo = (key: string, test: RegExp): string | null | undefined => {
    if (!s.startsWith(key, i)) return undefined;
    i += key.length;
    space();
    if (s.charCodeAt(i) !== 0x3d) return `Expected '=' after ${key}`;
    i++;
    space();
    const q = s.charCodeAt(i);
    if (q !== 0x22 && q !== 0x27) return `Expected a quoted ${key}`;
    const end = s.indexOf(q === 0x22 ? '"' : "'", i + 1);
    if (end < 0 || !test.test(s.slice(i + 1, end))) return `Invalid ${key} value`;
    i = end + 1;
    return null;
  };
  space();
  let error = pseudo("version", /^1\.[0-9]+$/);
  if (error === undefined) return { offset: i, message: "Expected version" };
  if (error !== null) return { offset: i, message: error };
  let ws = space();
  if (ws > 0) {
    error = pseudo("encoding", /^[A-Za-z][A-Za-z0-9._-]*$/);
    if (error) return { offset: i, message: error };
    if (error === null) ws = space();
  }
  if (ws > 0) {
    error = pseudo("standalone", /^(?:yes|no)$/);
    if (error) return { offset: i, message: error };
    if (error === null) space();
  }
  if (!s.startsWith("?>", i)) return { offset: i, message: "Expected '?>' to end the declaration" };
  return i + 2;
}
