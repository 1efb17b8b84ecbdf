// Python's `str.lower()` and re.IGNORECASE, with CPython 3.11's Unicode (14.0) on every runtime,
// for the rooms that imitate Python (IFEval's checkers, BFCL's string standardization).
import {
  cased14,
  caseIgnorable14,
  IGNORECASE_GROUPS_14,
  unassigned14,
} from "./unicode14.generated.ts";

// Made on first use, so that a bundle without these functions has no Unicode table.
let newRuns: RegExp | undefined;
let caseIgnorable: RegExp | undefined;
let cased: RegExp | undefined;
let groups: Map<number, string> | undefined;

const SIGMA = "\u03a3";

// JavaScript's toLowerCase, but a code point new since Unicode 14 stays as it is (to Python it
// is unassigned, so it has no case). `s` holds no capital sigma.
function lowerNoSigma(s: string): string {
  let out = "";
  let from = 0;
  newRuns ??= new RegExp(`${unassigned14()}+`, "gu");
  for (const m of s.matchAll(newRuns)) {
    out += s.slice(from, m.index).toLowerCase() + m[0];
    from = m.index + m[0].length;
  }
  return from === 0 ? s.toLowerCase() : out + s.slice(from).toLowerCase();
}

// The code point that ends just before UTF-16 offset `end`.
function codePointBefore(s: string, end: number): number {
  const low = s.charCodeAt(end - 1);
  if (low >= 0xdc00 && low <= 0xdfff && end >= 2) {
    const high = s.charCodeAt(end - 2);
    if (high >= 0xd800 && high <= 0xdbff) return s.codePointAt(end - 2)!;
  }
  return low;
}

// Whether the capital sigma at `i` lowercases to the final form, as CPython's
// handle_capital_sigma decides: a cased code point before it and none after it, skipping
// Case_Ignorable ones (Unicode 14's properties, not the runtime's).
function finalSigma(s: string, i: number): boolean {
  caseIgnorable ??= new RegExp(`^${caseIgnorable14()}$`, "u");
  cased ??= new RegExp(`^${cased14()}$`, "u");
  let j = i;
  let before = "";
  while (j > 0) {
    before = String.fromCodePoint(codePointBefore(s, j));
    j -= before.length;
    if (!caseIgnorable.test(before)) break;
    before = "";
  }
  if (before === "" || !cased.test(before)) return false;
  for (let k = i + 1; k < s.length;) {
    const after = String.fromCodePoint(s.codePointAt(k)!);
    k += after.length;
    if (!caseIgnorable.test(after)) return !cased.test(after);
  }
  return true;
}

/**
 * Python's `str.lower()`: JavaScript's, but with Unicode 14's data where they differ. A code point
 * new since Unicode 14 stays as it is, and a capital sigma becomes final (ς) by Unicode 14's Cased
 * and Case_Ignorable properties, not the runtime's.
 *
 * @param s Any text.
 * @returns `s` lowercased as CPython 3.11 lowercases it.
 * @throws {never} Never.
 */
export function pyLower(s: string): string {
  let i = s.indexOf(SIGMA);
  if (i < 0) return lowerNoSigma(s);
  let out = "";
  let from = 0;
  for (; i >= 0; i = s.indexOf(SIGMA, i + 1)) {
    out += lowerNoSigma(s.slice(from, i)) + (finalSigma(s, i) ? "\u03c2" : "\u03c3");
    from = i + 1;
  }
  return out + lowerNoSigma(s.slice(from));
}

const hex = (cp: number) => `\\u{${cp.toString(16)}}`;

// Code point -> the `u`-flag class of the code points it matches as an IGNORECASE literal.
function ignoreCaseGroups(): Map<number, string> {
  const map = new Map<number, string>();
  let last = 0;
  for (const packed of IGNORECASE_GROUPS_14.split(" ")) {
    const [gap, ...rest] = packed.split(".").map((n) => parseInt(n, 36));
    const first = last + gap!;
    last = first;
    const members = [first, ...rest.map((d) => first + d)];
    const cls = `[${members.map(hex).join("")}]`;
    for (const cp of members) map.set(cp, cls);
  }
  return map;
}

/**
 * The source of a `u`-flag regex (without the `i` flag) that matches `text` as Python 3.11's `re`
 * matches it as a pattern of literal characters under `re.IGNORECASE`: each cased character
 * matches the code points whose simple lowercase is its own or one of `re`'s extra equivalences
 * (so `i` matches I, İ and ı, `ß` matches ẞ), in Unicode 14. JavaScript's `i` flag folds
 * differently, and also widens classes such as a `\w` written beside the text.
 *
 * @param text Literal text: every character stands for itself, regex syntax included.
 * @returns Regex source, each character escaped or written as a class.
 * @throws {never} Never.
 */
export function pyIgnoreCase(text: string): string {
  groups ??= ignoreCaseGroups();
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const cls = groups.get(cp);
    if (cls !== undefined) out += cls;
    else if (/^[A-Za-z0-9 _'"`,:;!@#%&=<>~-]$/.test(ch)) out += ch;
    else out += hex(cp);
  }
  return out;
}
