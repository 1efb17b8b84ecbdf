// Differential test: string and bytes literals read by the Python parser (parsePythonExpression),
// their values written by pyRepr, against CPython 3.11's ast.parse and repr()
// (tests/bfcl/_python_literals_oracle.py, run by /usr/bin/python3), on seeded random literals:
// every byte value, written as itself, `\xhh`, octal `\o`..`\ooo` (past `\377` too), the simple
// escapes and unknown ones, line continuations after "\n", "\r\n" and "\r", all four quotes,
// raw prefixes, concatenations, and now and then a character past ASCII (a syntax error in
// bytes) or a str beside a bytes literal. The same text must be read, to the same repr, or fail
// alike; where CPython says why a bytes literal fails, with its words.
//
// Needs --allow-run (python3) and --allow-read.
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { parsePythonExpression, pyRepr } from "../../src/bfcl/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { runLineOracle } from "../_debian_python.ts";

const ORACLE = new URL("./_python_literals_oracle.py", import.meta.url).pathname;
const COUNT = 20_000;

const QUOTES = ["'", '"', "'''", '"""'];
const BYTES_PREFIXES = ["b", "B", "rb", "bR", "Rb", "BR", "br"];
const STR_PREFIXES = ["", "u", "r", "R"];
const SIMPLE = ["\\n", "\\t", "\\r", "\\a", "\\b", "\\f", "\\v", "\\\\", "\\'", '\\"', "\\0"];
const UNKNOWN = ["\\q", "\\u00e9", "\\U0001F600", "\\N{DASH}", "\\8", "\\ ", "\\x4", "\\xg1"];
const PAST_ASCII = ["é", "\x85", "\xa0", "\u2028", "€", "\u{1f600}"];
const CONTINUATIONS = ["\\\n", "\\\r\n", "\\\r"];

const hex = (n: number, r: Rng) => {
  const h = n.toString(16).padStart(2, "0");
  return r.chance(0.5) ? h : h.toUpperCase();
};

/** One piece of a literal's body: one byte or character, written some way, or an escape. */
function piece(r: Rng, quote: string, bytes: boolean): string {
  const k = r.int(20);
  const b = r.int(256);
  if (k < 5) {
    // The byte as itself where it can stand so (printable ASCII, not the quote or `\`).
    const ch = String.fromCharCode(b);
    return b >= 0x20 && b < 0x7f && ch !== "\\" && !quote.includes(ch) ? ch : `\\x${hex(b, r)}`;
  }
  if (k < 10) return `\\x${hex(b, r)}`;
  if (k < 13) {
    const n = r.int(4) === 0 ? 256 + r.int(256) : b; // past \377 a quarter of the time
    const o = n.toString(8);
    return "\\" + (r.chance(0.3) ? o.padStart(3, "0") : o);
  }
  if (k < 15) return r.pick(SIMPLE);
  if (k === 15) return r.pick(UNKNOWN);
  if (k === 16) return r.pick(CONTINUATIONS);
  if (k === 17) return r.pick(["'", '"', "'", " ", "\t"]); // a quote may end the literal early
  if (k === 18) return quote.length === 3 ? r.pick(["\n", "\r\n", "\r"]) : `\\x${hex(b, r)}`;
  // A character past ASCII: a syntax error in bytes most of the time, a value in a str.
  return bytes && r.chance(0.8) ? `\\x${hex(b, r)}` : r.pick(PAST_ASCII);
}

function literal(r: Rng, bytes: boolean): string {
  const quote = r.pick(QUOTES);
  const prefix = r.pick(bytes ? BYTES_PREFIXES : STR_PREFIXES);
  let body = "";
  const n = r.int(r.chance(0.1) ? 40 : 8);
  for (let i = 0; i < n; i++) body += piece(r, quote, bytes);
  // A body ending in an odd run of `\` would escape its closing quote.
  if (/(?:^|[^\\])(?:\\\\)*\\$/.test(body)) body += "x";
  return prefix + quote + body + quote;
}

/** A literal, or a few side by side (one of another kind now and then). */
function text(r: Rng): string[] {
  const bytes = r.chance(0.8);
  const parts = [literal(r, bytes)];
  while (r.chance(0.2)) parts.push(literal(r, r.chance(0.9) ? bytes : !bytes));
  return parts;
}

/** What the parser makes of the text: the constant's repr, or the failure. */
function assay(t: string): { ok: true; repr: string | null } | { ok: false; message: string } {
  const r = parsePythonExpression(t);
  if (!r.ok) return { ok: false, message: r.reason };
  // A quote inside may end a literal early, leaving some other expression: no repr then.
  return { ok: true, repr: r.tree.k === "const" ? pyRepr(r.tree.v) : null };
}

// Why a lone bytes literal fails, in CPython's words (other syntax errors' messages are ours,
// and which of two errors a text meets first may differ: CPython checks a concatenation's
// literals one by one as it joins them, this reader each literal as it reads it).
const ASCII_ONLY = "bytes can only contain ASCII literal characters";

Deno.test("string and bytes literals read and repr'd as CPython 3.11 reads and reprs them", async () => {
  const r = makeRng(0xb7e5);
  const literals = Array.from({ length: COUNT }, () => text(r));
  const texts = literals.map((parts) => parts.join(r.pick([" ", "", "  "])));
  const answers = await runLineOracle([ORACLE], texts.map((t) => JSON.stringify({ text: t })));
  const differ: string[] = [];
  let bytesRead = 0, pastAscii = 0, refused = 0;
  texts.forEach((t, i) => {
    const want = JSON.parse(answers[i]!);
    const got = assay(t);
    let same = got.ok === want.ok;
    if (same && got.ok) same = got.repr === want.repr;
    else if (same && literals[i]!.length === 1 && want.message === ASCII_ONLY) {
      same = !got.ok && got.message === ASCII_ONLY;
    }
    if (!same) differ.push(`${JSON.stringify(t)}: ${JSON.stringify(got)} vs ${answers[i]}`);
    if (want.ok && want.repr?.startsWith("b")) {
      bytesRead++;
      if (/\\x[89a-f]/.test(want.repr)) pastAscii++;
    }
    if (!want.ok && want.message === ASCII_ONLY) refused++;
  });
  console.log(
    `${COUNT - differ.length}/${COUNT} agree (${bytesRead} bytes values read, ${pastAscii} with ` +
      `bytes past 0x7f; ${refused} refused for a character past ASCII)`,
  );
  assertEquals(differ.slice(0, 10), []);
  strictEqual(bytesRead > COUNT / 3 && pastAscii > COUNT / 4 && refused > 100, true);
});

Deno.test("a bytes value's repr escapes every byte but printable ASCII, as CPython's does", () => {
  const cases: [string, string][] = [
    ["b'\\xe9'", "b'\\xe9'"],
    ["b'caf\\xc3\\xa9'", "b'caf\\xc3\\xa9'"],
    ["b'\\x7f\\x80\\xff\\x00'", "b'\\x7f\\x80\\xff\\x00'"],
    ["b'\\777'", "b'\\xff'"],
    ['b"it\'s"', 'b"it\'s"'],
    ["b'\\'\"'", "b'\\'\"'"],
    ["b'\\t\\n\\r\\\\'", "b'\\t\\n\\r\\\\'"],
    ["b'a\\\r\nb' b'\\\rc'", "b'abc'"],
  ];
  for (const [src, repr] of cases) assertEquals(assay(src), { ok: true, repr }, src);
  assertEquals(assay("b'\u00e9'"), { ok: false, message: ASCII_ONLY });
  assertEquals(assay("rb'caf\u00e9'"), { ok: false, message: ASCII_ONLY });
});
