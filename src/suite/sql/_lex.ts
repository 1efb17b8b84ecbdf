// The SQL lexer of the trace metrics: splits SQL text into statements, checks brackets and
// nesting, and records which identifiers were written quoted (node-sql-parser keeps the quote
// marks of columns but drops those of tables).

/** One statement of a SQL text, as the lexer sees it. */
export interface StatementRange {
  start: number;
  end: number;
  /** Only whitespace and comments. */
  blank: boolean;
  /** The deepest nesting of `(` and `[`. */
  depth: number;
  /** Every bracket closes, in order. */
  balanced: boolean;
}

export interface Lexed {
  quoted: Set<string>;
  bare: Set<string>;
}

const BACKSLASH_DIALECTS = new Set(["mysql", "mariadb", "bigquery", "hive"]);
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);
const isIdentStart = (c: number) =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 0x80;
const isIdentPart = (c: number) => isIdentStart(c) || (c >= 48 && c <= 57) || c === 36;
const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*)?\$/y;

/** Reads a quoted run that starts at `i`; a doubled closing quote is an escaped quote. */
function readQuoted(text: string, i: number, close: string, backslash: boolean): [number, string] {
  let out = "";
  let j = i + 1;
  for (;;) {
    let k = text.indexOf(close, j);
    if (backslash) {
      const b = text.indexOf("\\", j);
      if (b >= 0 && (k < 0 || b < k)) {
        out += text.slice(j, b + 2);
        j = b + 2;
        continue;
      }
    }
    if (k < 0) return [text.length, out + text.slice(j)];
    out += text.slice(j, k);
    if (text.startsWith(close, k + 1)) {
      out += close;
      j = k + 2;
      continue;
    }
    k += 1;
    return [k, out];
  }
}

/**
 * Splits SQL text at top-level semicolons, calling `onStatement` for each statement until it
 * returns `false`, and, if asked, collects identifier spellings. Linear, no recursion.
 */
export function lexSql(
  text: string,
  dialect: string,
  collect: boolean,
  onStatement?: (r: StatementRange) => boolean | void,
): Lexed {
  const quoted = new Set<string>(), bare = new Set<string>();
  const bs = BACKSLASH_DIALECTS.has(dialect);
  const dqString = bs; // in these dialects "..." is a string literal
  const brackets = dialect !== "transactsql";
  const n = text.length;
  let i = 0, start = 0, blank = true, wordEnd = -1, word = "";
  let depth = 0, maxDepth = 0, balanced = true;
  const emit = (end: number) => {
    const r = { start, end, blank, depth: maxDepth, balanced: balanced && depth === 0 };
    depth = maxDepth = 0;
    balanced = blank = true;
    return onStatement?.(r) !== false;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 59) {
      if (!emit(i)) return { quoted, bare };
      start = ++i;
      continue;
    }
    if (isSpace(c)) {
      i++;
      continue;
    }
    const d = text.charCodeAt(i + 1);
    if ((c === 45 && d === 45) || (c === 35 && bs)) {
      const j = text.indexOf("\n", i);
      i = j < 0 ? n : j + 1;
      continue;
    }
    if (c === 47 && d === 42) {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        const a = text.charCodeAt(i), b = text.charCodeAt(i + 1);
        if (a === 47 && b === 42) (depth++, i += 2);
        else if (a === 42 && b === 47) (depth--, i += 2);
        else i++;
      }
      continue;
    }
    blank = false;
    if (c === 39) {
      const eString = wordEnd === i && (word === "E" || word === "e");
      i = readQuoted(text, i, "'", bs || eString)[0];
    } else if (c === 34 || c === 96 || (c === 91 && dialect === "transactsql")) {
      const [j, v] = readQuoted(text, i, c === 91 ? "]" : String.fromCharCode(c), false);
      if (collect && !(c === 34 && dqString)) quoted.add(v);
      i = j;
    } else if (c === 36 && !(i > 0 && isIdentPart(text.charCodeAt(i - 1)))) {
      DOLLAR_TAG.lastIndex = i;
      const m = DOLLAR_TAG.exec(text);
      if (m) {
        const j = text.indexOf(m[0], i + m[0].length);
        i = j < 0 ? n : j + m[0].length;
      } else i++;
    } else if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(text.charCodeAt(j))) j++;
      word = text.slice(i, j);
      if (collect) bare.add(word);
      wordEnd = i = j;
    } else {
      if (c === 40 || (c === 91 && brackets)) maxDepth = Math.max(maxDepth, ++depth);
      else if ((c === 41 || (c === 93 && brackets)) && --depth < 0) (balanced = false, depth = 0);
      i++;
    }
  }
  emit(n);
  return { quoted, bare };
}
