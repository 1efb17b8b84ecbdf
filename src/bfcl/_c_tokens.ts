// The tokens of Java and JavaScript call texts, for BFCL's Java and JavaScript decoders: names,
// numbers, quoted literals, template strings (JavaScript), punctuation. Comments and spaces are
// skipped, but each token records whether a line break came before it (JavaScript's automatic
// semicolons). A character that starts no token makes the text a syntax error, as a tree-sitter
// ERROR node makes it for BFCL.

/** A token: its kind, its span in the text, and whether a line break precedes it. */
export interface CToken {
  /** `name`, `number`, `string` (`"…"`), `char` (`'…'`), `template` (`` `…` ``), `punct`, `eof`. */
  kind: "name" | "number" | "string" | "char" | "template" | "punct" | "eof";
  /** The token's text. */
  text: string;
  /** Where it starts, as a UTF-16 offset. */
  start: number;
  /** Where it ends. */
  end: number;
  /** Whether a line break (or a comment holding one) comes between it and the token before. */
  newlineBefore: boolean;
}

/** Thrown where the text has no reading: BFCL's parsers find an ERROR node there. */
export class CSyntaxError extends Error {
  /**
   * A failure.
   *
   * @param message What is wrong, for us.
   * @param bfclMessage The message of the exception BFCL raises, when not a syntax error's.
   */
  constructor(message: string, readonly bfclMessage?: string) {
    super(message);
  }
}

/** Longest first: the operators of both languages, then single characters. */
const PUNCTUATION = [
  ...">>>= ... === !== **= <<= >>= >>> &&= ||= ??= => -> :: == != <= >= && || ?? ?. ++ -- += -= *= /= %= &= |= ^= << >> **"
    .split(" "),
  ..."{}()[];,.<>+-*/%&|^!~?:=@",
];

const NAME = /[A-Za-z_$\u00c0-\uffff][\w$\u00c0-\uffff]*/y;
const DECIMAL = String.raw`(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?`;
const RADIX = String.raw`0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO]?[0-7_]+`;
/** Java's suffixes are l, f and d (a hexadecimal's f is a digit); JavaScript's n, on integers. */
const NUMBER: Record<Dialect, RegExp> = {
  java: new RegExp(String.raw`(?:${RADIX})[lL]?|${DECIMAL}[lLfFdD]?`, "y"),
  js: new RegExp(String.raw`(?:${RADIX}|\d[\d_]*)n|${RADIX}|${DECIMAL}`, "y"),
};

/** Which quoted forms the language has: `'…'` is a Java char literal, a JavaScript string. */
export type Dialect = "java" | "js";

/**
 * Splits a text into tokens.
 *
 * @param text The text.
 * @param dialect Java or JavaScript (quotes, templates).
 * @returns The tokens, ending with an `eof` token.
 * @throws {CSyntaxError} At a character no token starts with, or an unclosed literal.
 */
export function cTokens(text: string, dialect: Dialect): CToken[] {
  const out: CToken[] = [];
  let i = 0;
  let newline = false;
  const push = (kind: CToken["kind"], end: number) => {
    out.push({ kind, text: text.slice(i, end), start: i, end, newlineBefore: newline });
    newline = false;
    i = end;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029") {
      newline = true;
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (text.startsWith("//", i)) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) throw new CSyntaxError("an unclosed comment");
      if (/[\n\r]/.test(text.slice(i, end))) newline = true;
      i = end + 2;
    } else if (c === '"' || c === "'") {
      const kind = c === '"' || dialect === "js" ? "string" : "char";
      push(kind, quoted(text, i, c, kind === "char"));
    } else if (c === "`" && dialect === "js") {
      push("template", template(text, i));
    } else if (/\d/.test(c) || (c === "." && /\d/.test(text[i + 1] ?? ""))) {
      const pattern = NUMBER[dialect];
      pattern.lastIndex = i;
      pattern.exec(text);
      push("number", pattern.lastIndex);
    } else if ((NAME.lastIndex = i, NAME.test(text))) {
      push("name", NAME.lastIndex);
    } else {
      const p = PUNCTUATION.find((s) => text.startsWith(s, i));
      if (p === undefined) throw new CSyntaxError(`no token starts with ${JSON.stringify(c)}`);
      push("punct", i + p.length);
    }
  }
  out.push({ kind: "eof", text: "", start: i, end: i, newlineBefore: newline });
  return out;
}

/** The end of a quoted literal starting at `start`: escapes, no line break; a char not empty. */
function quoted(text: string, start: number, quote: string, nonEmpty: boolean): number {
  let i = start + 1;
  let length = 0;
  while (i < text.length && text[i] !== quote) {
    if (text[i] === "\n") break;
    i += text[i] === "\\" ? 2 : 1;
    length++;
  }
  if (text[i] !== quote || (nonEmpty && length === 0)) {
    throw new CSyntaxError("an unclosed literal");
  }
  return i + 1;
}

/** The end of a JavaScript template string, with `${…}` substitutions read by brace depth. */
function template(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== "`") {
    if (text[i] === "\\") i += 2;
    else if (text.startsWith("${", i)) {
      let depth = 0;
      for (; i < text.length; i++) {
        if (text[i] === "{") depth++;
        else if (text[i] === "}" && --depth === 0) break;
      }
      i++;
    } else i++;
  }
  if (text[i] !== "`") throw new CSyntaxError("an unclosed template string");
  return i + 1;
}
