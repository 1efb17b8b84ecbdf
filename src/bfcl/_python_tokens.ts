// A tokenizer for one Python expression (ast.parse(..., mode="eval")): names, keywords,
// numbers, string literals with their escapes, operators and brackets. Newlines inside brackets
// are ignored, as Python's implicit line joining does; one outside is a NEWLINE token.
import { MAX_INT_DIGITS, pyFloatRepr } from "../engine/mod.ts";
import { xidContinue14, xidStart14 } from "../pytext/mod.ts";
import { PyFloat, PyInt, PyOther, type PyValue } from "./py_value.ts";
import { decimalEnd, digitsEnd, intDigitsPastLimit } from "./_python_text.ts";

/** A token. `value` is set for numbers and strings. */
export interface Token {
  kind: "name" | "keyword" | "number" | "string" | "op" | "newline" | "end";
  text: string;
  start: number;
  /** Where the token's source ends (a name's text may be shorter: it is NFKC-normalized). */
  end: number;
  value?: PyValue;
  /**
   * For a number CPython's tokenizer reads but its parser refuses when it makes the value (a
   * decimal integer over Python's 4,300 digits): the SyntaxError's message, raised where the
   * parser meets it, as CPython's parser does. Such a number has no `value`.
   */
  refused?: string;
  /** For strings: `f` for an f-string, `b` for bytes, `s` otherwise. */
  flavor?: "f" | "b" | "s";
}

/** Python's syntax errors, as data. */
export class PySyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PySyntaxError";
  }
}

const KEYWORDS = new Set(
  ("False None True and as assert async await break class continue def del elif else except " +
    "finally for from global if import in is lambda nonlocal not or pass raise return try while " +
    "with yield").split(" "),
);
const OPS = [
  "**=",
  "//=",
  ">>=",
  "<<=",
  "...",
  "->",
  ":=",
  "**",
  "//",
  ">>",
  "<<",
  "<=",
  ">=",
  "==",
  "!=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "^=",
  "@=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "@",
  "&",
  "|",
  "^",
  "~",
  "<",
  ">",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  ".",
  ";",
  "=",
];
// Python's identifiers as CPython 3.11 reads them: a name starts with XID_Start or `_` and goes on
// with XID_Continue, in its Unicode, 14.0 (the host's `\p{...}` tables are newer and differ by
// runtime); a name past ASCII is then NFKC-normalized, so `ｆ(ｘ=1)` calls `f` with `x`. NFKC maps
// an assigned character the same way in every later Unicode version, so the host's is Python's.
const NAME_START = new RegExp(xidStart14(), "u");
const NAME_PART = new RegExp(xidContinue14(), "u");
const radix = (digit: RegExp) => (s: string, i: number) => digit.test(s[i] ?? "");
const RADIX: Record<string, (s: string, i: number) => boolean> = {
  x: radix(/[0-9a-fA-F]/),
  o: radix(/[0-7]/),
  b: radix(/[01]/),
};

// The end of the number at `i`: what `0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|
// (?:(?:D)?\.D|D\.?)(?:[eE][+-]?D)?[jJ]?` (D: `\d(?:_?\d)*`) would match, scanned by hand:
// V8's backtracking regex overflows its stack on a run of some 8 million digits.
export function numberEnd(src: string, i: number): number {
  const digit = src[i] === "0" ? RADIX[(src[i + 1] ?? "").toLowerCase()] : undefined;
  if (digit) {
    // `(?:_?X)+`: the radix's digits, an underscore allowed before the first too.
    const end = digitsEnd(src, src[i + 2] === "_" ? i + 3 : i + 2, digit);
    if (end >= 0) return end;
  }
  const end = decimalEnd(src, i);
  return src[end] === "j" || src[end] === "J" ? end + 1 : end;
}
const PREFIX = /^(?:[rRuUfFbB]|[fFbB][rR]|[rR][fFbB])?(?:'''|"""|'|")/;

/**
 * CPython's refusal of a decimal integer literal of more than 4,300 digits (its
 * sys.get_int_max_str_digits() by default; underscores are no digits), or undefined. One that
 * starts with 0 is all zeros (CPython reads it without the limit) or its tokenizer's error.
 */
function intLimitError(text: string): string | undefined {
  if (text[0] === "0" || /[.eEjJ]/.test(text)) return undefined;
  const digits = intDigitsPastLimit(text);
  if (!digits) return undefined;
  return `Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion: value has ` +
    `${digits} digits; use sys.set_int_max_str_digits() to increase the limit - Consider ` +
    `hexadecimal for huge integer literals to avoid decimal conversion limits.`;
}

function numberValue(text: string): PyValue {
  const t = text.replaceAll("_", "");
  if (/[jJ]$/.test(t)) {
    const imag = Number(t.slice(0, -1));
    const repr = Number.isFinite(imag) ? pyFloatRepr(imag).replace(/\.0$/, "") : "inf";
    return new PyOther("complex", `${repr}j`);
  }
  if (/^0[xXoObB]/.test(t)) return new PyInt(BigInt(t.toLowerCase()));
  if (/[.eE]/.test(t)) return new PyFloat(Number(t));
  if (/^0+\d/.test(t) && /[1-9]/.test(t)) {
    throw new PySyntaxError("leading zeros in decimal integer literals are not permitted");
  }
  return new PyInt(BigInt(t));
}

function escapes(body: string, bytes: boolean): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    // The text up to the next backslash goes in as one piece: a character at a time, a string of
    // megabytes was a rope of as many parts.
    const k = body.indexOf("\\", i);
    out += body.slice(i, k < 0 ? body.length : k);
    if (k < 0) break;
    i = k;
    const n = body[++i];
    if (n === undefined) break;
    const simple: Record<string, string> = {
      "\n": "",
      "\\": "\\",
      "'": "'",
      '"': '"',
      a: "\x07",
      b: "\b",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "\t",
      v: "\v",
    };
    if (n in simple) out += simple[n];
    else if (/[0-7]/.test(n)) {
      let j = i;
      while (j < i + 3 && /[0-7]/.test(body[j] ?? "")) j++;
      // Past \377 a bytes escape keeps the low eight bits (b'\777' is b'\xff'), as CPython 3.11
      // does (with a DeprecationWarning).
      const value = parseInt(body.slice(i, j), 8);
      out += String.fromCodePoint(bytes ? value & 0xff : value);
      i = j - 1;
    } else if (n === "x" || (!bytes && (n === "u" || n === "U"))) {
      const len = n === "x" ? 2 : n === "u" ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) {
        throw new PySyntaxError(`truncated \\${n} escape`);
      }
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) throw new PySyntaxError("illegal Unicode character");
      out += String.fromCodePoint(cp);
      i += len;
    } else if (n === "N" && !bytes) {
      throw new PySyntaxError("\\N{...} escapes are not supported by this reader");
    } else out += "\\" + n;
  }
  return out;
}

/** Splits a Python expression's source into tokens. */
export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  let i = 0;
  let lineStart = true;
  while (i < src.length) {
    if (lineStart && depth === 0) {
      // Indentation of a logical line: an expression's lines may not be indented; blank and
      // comment lines may be, but whitespace that runs to the end of the text may not.
      lineStart = false;
      let col = 0;
      while (i < src.length && " \t\f".includes(src[i]!)) col = src[i++] === "\f" ? 0 : col + 1;
      const next = src[i];
      if (next === undefined ? col > 0 : col > 0 && !"\n\r#".includes(next)) {
        throw new PySyntaxError("unexpected indent");
      }
      if (next === undefined) break;
    }
    const c = src[i]!;
    if (c === " " || c === "\t" || c === "\f") {
      i++;
      continue;
    }
    // A line continuation: `\` before a newline, which CPython reads "\r\n" and "\r" as.
    if (c === "\\" && (src[i + 1] === "\n" || src[i + 1] === "\r")) {
      i += src.startsWith("\r\n", i + 1) ? 3 : 2;
      continue;
    }
    if (c === "#") {
      while (i < src.length && src[i] !== "\n" && src[i] !== "\r") i++;
      continue;
    }
    if (c === "\n" || c === "\r") {
      if (depth === 0) {
        tokens.push({ kind: "newline", text: "\n", start: i, end: i + 1 });
        lineStart = true;
      }
      i += c === "\r" && src[i + 1] === "\n" ? 2 : 1;
      continue;
    }
    const prefix = PREFIX.exec(src.slice(i, i + 5));
    if (prefix) {
      i = stringToken(src, i, prefix[0], tokens);
      continue;
    }
    const first = String.fromCodePoint(src.codePointAt(i)!);
    if (NAME_START.test(first)) {
      let j = i + first.length;
      for (;;) {
        const cp = String.fromCodePoint(src.codePointAt(j) ?? 0);
        if (j < src.length && NAME_PART.test(cp)) j += cp.length;
        else break;
      }
      const text = src.slice(i, j);
      // A keyword is one as written: CPython reads `Ｔrue` as the name `True`.
      const keyword = KEYWORDS.has(text);
      const name = keyword || /^[\0-\x7f]*$/.test(text) ? text : text.normalize("NFKC");
      tokens.push({ kind: keyword ? "keyword" : "name", text: name, start: i, end: j });
      i = j;
      continue;
    }
    if (/\d/.test(c) || (c === "." && /\d/.test(src[i + 1] ?? ""))) {
      const end = numberEnd(src, i);
      // CPython's test: what may start a name, so an ASCII letter, `_` or anything past ASCII.
      if (/[A-Za-z_]|[^\0-\x7f]/.test(src[end] ?? "")) {
        throw new PySyntaxError(`invalid decimal literal at ${i}`);
      }
      const text = src.slice(i, end);
      const refused = intLimitError(text);
      tokens.push(
        refused === undefined
          ? { kind: "number", text, start: i, end, value: numberValue(text) }
          : { kind: "number", text, start: i, end, refused },
      );
      i = end;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new PySyntaxError(`invalid character ${JSON.stringify(c)} at ${i}`);
    // CPython's tokenizer refuses a 201st open bracket (MAXLEVEL).
    if ("([{".includes(op) && ++depth > 200) throw new PySyntaxError("too many nested parentheses");
    if (")]}".includes(op)) {
      if (depth === 0) throw new PySyntaxError(`unmatched '${op}'`);
      depth--;
    }
    tokens.push({ kind: "op", text: op, start: i, end: i + op.length });
    i += op.length;
  }
  if (depth > 0) throw new PySyntaxError("'[' was never closed");
  tokens.push({ kind: "end", text: "", start: src.length, end: src.length });
  return tokens;
}

function stringToken(src: string, start: number, prefix: string, tokens: Token[]): number {
  const quote = /'''|"""|'|"$/.exec(prefix)![0];
  const flags = prefix.slice(0, prefix.length - quote.length).toLowerCase();
  const raw = flags.includes("r");
  const bytes = flags.includes("b");
  let i = start + prefix.length;
  const bodyStart = i;
  for (;;) {
    if (i >= src.length) throw new PySyntaxError("unterminated string literal");
    const c = src[i]!;
    if (c === "\\") {
      i += src.startsWith("\r\n", i + 1) ? 3 : 2;
      continue;
    }
    if (quote.length === 1 && (c === "\n" || c === "\r")) {
      throw new PySyntaxError("unterminated string literal");
    }
    if (src.startsWith(quote, i)) break;
    i++;
  }
  // CPython reads the source with its newlines ("\r\n", "\r") made "\n", values included.
  const body = src.slice(bodyStart, i).replace(/\r\n?/g, "\n");
  if (bytes && [...body].some((ch) => ch.charCodeAt(0) > 0x7f)) {
    throw new PySyntaxError("bytes can only contain ASCII literal characters");
  }
  const text = raw ? body : escapes(body, bytes);
  tokens.push({
    kind: "string",
    text: src.slice(start, i + quote.length),
    start,
    end: i + quote.length,
    value: text,
    flavor: flags.includes("f") ? "f" : bytes ? "b" : "s",
  });
  return i + quote.length;
}
