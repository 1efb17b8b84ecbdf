// An adversarial corpus for `assay score`, written apart from _score_corpus.ts and _varied_corpus.ts
// (by someone who did not write the scorer) to aim at the places an exact scorer breaks:
//
// - lines: CRLF, a BOM at the start of a file, blank and whitespace-only lines, a last line without
//   `\n`, JSON whitespace around a row, lines of more than 1 MiB (past the kernel's chunks);
// - ids: non-ASCII, NFC beside NFD, escaped in one file and raw in another, quotes, backslashes and
//   control characters, 5 KB long, numeric-looking;
// - numbers: floats that round at the edges of the double range (subnormals, the largest double,
//   halfway cases, 17+ significant digits, huge exponents), each written several ways that read as
//   the same double; random doubles of every exponent, spelled by their shortest digits, 17 or 21
//   digits, their exact decimal with the point anywhere, or the exact midpoint to the next double
//   (nudged either way or not), and their neighbours; `-0.0`, `NaN`, `Infinity`, integers past
//   2^53 and up to 4,300 digits;
// - keys and strings: every escape, surrogate pairs spelled both ways, lone surrogates, raw U+007F,
//   U+2028 and U+FEFF, keys that sort apart by code point and by UTF-16, duplicate keys at depth
//   (also spelled `"a"` and `"\u0061"`), runs of 1 to 35 backslashes before a quote at every
//   offset;
// - outputs: about half broken (truncated, mismatched, bad literals and numbers, raw control
//   characters, too deep, too many digits, wrong shapes, arguments as a JSON string, prose with a
//   `[` before the call, invalid UTF-8 at several places of the output), the rest the gold
//   respelled or slightly wrong, inside markdown fences, prose, or followed by a second call;
// - rows: fields in any order, ignored fields holding NaN, 1e999, 400-deep nesting and 4,300-digit
//   integers, a decoy `output` member before the real one (the last wins), dropped targets of each
//   reason, and (with `missing`) kept examples without a generation.
//
// The generator never predicts a status or a metric: the Python oracle and the two engines decide,
// and the test compares them. `handback: true` adds what the kernel gives back to the general
// reader (lone surrogates in ids and prompts, escaped top-level keys, non-ASCII blank lines, a
// container `target` that a later one overrides), so that both readers see the same kind of data.
import { createHash } from "node:crypto";
import { makeRng, type Rng as BaseRng } from "../_corpus.ts";

/** Options for {@linkcode adversarialCorpus}. */
export interface AdversarialOptions {
  /** Seed: the same options give byte-identical files. */
  seed: number;
  /** Example rows (dropped targets included). */
  count: number;
  /** Write prompts.jsonl (default true). */
  prompts?: boolean;
  /** Lines of more than 1 MiB to add (default 2). */
  bigLines?: number;
  /** Add inputs the scoring kernel gives back to the general reader (default false). */
  handback?: boolean;
  /**
   * Share of kept examples whose generation is left out (default 0), for `allowMissing`: then
   * `scored` holds the examples file without them, which a strict scorer reads alike.
   */
  missing?: number;
}

/** The three files' bytes and what went into them. */
export interface AdversarialCorpus {
  examples: Uint8Array;
  generations: Uint8Array;
  prompts?: Uint8Array;
  /** Counts of what the generator wrote, by kind (for the test's log). */
  counts: Record<string, number>;
  /** What the report must say, known from how the files were made. */
  expect: {
    /** Dropped example ids by reason, in examples-file order. */
    dropped: Record<"multiple_calls" | "empty_target" | "malformed_target", string[]>;
    /** Ids of kept examples without a generation, in code point order. */
    missing: string[];
    /** Non-blank lines of each file. */
    rows: { examples: number; generations: number; prompts: number };
    /** Generations whose output holds invalid UTF-8. */
    invalidUtf8Outputs: number;
  };
  /** With `missing`: the examples file without the examples whose generation is missing. */
  scored?: Uint8Array;
}

/** Orders strings by code point (a lone surrogate is its own code point), not by UTF-16 unit. */
export function byCodePoint(a: string, b: string): number {
  const x = [...a], y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d) return d;
  }
  return x.length - y.length;
}

// ------------------------------------------------------------------ seeded random

/** The shared seeded PRNG (tests/_corpus.ts), with counts of what was drawn, by kind. */
type Rng = BaseRng & { tally: Record<string, number> };

// ------------------------------------------------------------------ values that keep their spelling

/** A JSON value as written: numbers and literals as lexemes, strings as decoded JS strings. */
type Val =
  | { k: "lex"; lex: string }
  | { k: "dbl"; x: number; lex: string }
  | { k: "str"; s: string }
  | { k: "obj"; m: [string, Val][] }
  | { k: "arr"; a: Val[] };

const lex = (l: string): Val => ({ k: "lex", lex: l });
const str = (s: string): Val => ({ k: "str", s });

/**
 * Families of float spellings: every member of a family reads as the same double (Python's float()
 * and JavaScript's Number() round correctly), so a respelled output still matches its gold.
 */
const FLOAT_FAMILIES: readonly string[][] = [
  ["100.0", "1E+2", "1e2", "0.1e3", "1000e-1", "100.000"],
  ["0.1", "0.10", "1e-1", "1E-1", "0.1000000000000000055511151231257827", "10e-2"],
  ["5e-324", "4.9406564584124654e-324", "3e-324", "4e-324", "2.4703282292062328e-324"],
  ["0.0", "0e0", "0E-7", "0e99999999999999", "1e-400", "2.4703282292062327e-324", "0.000"],
  ["-0.0", "-0e0", "-0E+5", "-0.000", "-1e-400"],
  ["1.7976931348623157e308", "1.7976931348623158e308", "179769313486231570e291"],
  ["1e309", "1.7976931348623159e308", "1e99999999999999999999"],
  ["-1e309", "-1.7976931348623159e308", "-2e308"],
  ["9007199254740992.0", "9007199254740993.0", "9.007199254740993e15"],
  ["9007199254740994.0", "9007199254740993.00000000000000000001", "9007199254740995.0"],
  ["1e16", "10000000000000000.0", "1E16", "1.0e+16"],
  ["1e-05", "0.00001", "1E-5", "0.000010"],
  ["0.0001", "1e-4", "0.00010"],
  ["123456789012345680000.0", "1.2345678901234568e20", "123456789012345678901.5"],
  ["2.2250738585072011e-308", "2.2250738585072011e-308"],
  ["2.2250738585072014e-308", "2.22507385850720138e-308"],
  ["1.5e-07", "0.00000015", "15e-8"],
  ["999999999999999.9", "9.999999999999999e14"],
  ["0.30000000000000004", "0.30000000000000004441"],
  ["1." + "0".repeat(600) + "1", "1.0"],
  ["0." + "0".repeat(330) + "1", "0.0"],
  ["1" + "0".repeat(400) + ".5", "1e400"],
];

/** Integer spellings: each family's members are the same integer (only `-0` and `0` differ). */
const INT_FAMILIES: readonly string[][] = [
  ["0", "-0"],
  ["9007199254740993"],
  ["-9007199254740993"],
  ["18446744073709551616"],
  ["1" + "7".repeat(299)],
  ["9".repeat(4300)],
  ["-" + "8".repeat(4300)],
  ["123456789012345678901234567890"],
];

/** Literal families. */
const LITERALS: readonly string[][] = [
  ["NaN"],
  ["Infinity", "1e999"],
  ["-Infinity", "-1e999"],
  ["true"],
  ["false"],
  ["null"],
];

/** Strings whose characters are hard to write (the writer escapes them in varied ways). */
const STRINGS: readonly string[] = [
  "",
  "plain",
  "caf\u00e9",
  "cafe\u0301",
  "\u{1F600} grin",
  "\ud800x",
  "y\udfff",
  'quote " back \\ slash /',
  "ctl \u0000\u0001\b\f\n\r\t\u001f end",
  "del \u007f nel \u0085 ls \u2028 ps \u2029 bom \ufeff",
  "\ue000 \uffff \u{10000} \u{10FFFF}",
  "brackets ]}[{ inside",
  "\\u0041 is not an escape here",
  "\u65e5\u672c\u8a9e",
  "\\",
  "\ufffd",
];

/** Keys, some of which sort apart by code point and by UTF-16 code unit. */
const KEYS: readonly string[] = [
  "a",
  "b",
  "a.b",
  "0",
  "00",
  "name",
  "arguments",
  "__proto__",
  "constructor",
  "\ue000",
  "\uffff",
  "\u{10000}",
  "\u{1F600}",
  "caf\u00e9",
  "cafe\u0301",
  "",
  " ",
  "k\u0000",
  "\ud800z",
  "[0]",
  "<root>",
];

// ------------------------------------------------------------------ random doubles, spelled exactly

const f64 = new Float64Array(1);
const u32s = new Uint32Array(f64.buffer); // little-endian: [low, high]

/**
 * A random finite double: a zero of either sign, any exponent, or one near the subnormal,
 * decimal-switch or top range.
 */
function randomDouble(r: Rng): number {
  if (r.chance(0.08)) return r.chance(0.5) ? 0 : -0;
  const band = r.int(5);
  const exp = band === 0
    ? r.int(3) // subnormal and the smallest normals
    : band === 1
    ? 2046 - r.int(3) // the largest
    : band === 2
    ? 1023 - 17 + r.int(17 + 57) // 1e-5 to 1e17: fixed and exponent notation meet here
    : band === 3
    ? 1023 + r.int(53) // integral values up to 2^53 and past
    : r.int(2047);
  u32s[0] = r.next();
  u32s[1] = ((r.chance(0.5) ? 0x80000000 : 0) | (exp << 20) | (r.next() & 0xfffff)) >>> 0;
  if (r.chance(0.2)) u32s[0] &= 0xffff0000; // short mantissas, exact in fewer digits
  return f64[0]!;
}

/** x = mantissa * 2^exp exactly, for a finite nonzero double. */
function parts(x: number): { m: bigint; e: number } {
  f64[0] = Math.abs(x);
  const hi = u32s[1]!, lo = u32s[0]!;
  const be = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (be) m |= 1n << 52n;
  return { m, e: (be || 1) - 1075 };
}

/** The exact decimal of m * 2^e as digits and a power of ten. */
function exactDecimal(m: bigint, e: number): { d: string; p: number } {
  return e >= 0
    ? { d: (m << BigInt(e)).toString(), p: 0 }
    : { d: (m * 5n ** BigInt(-e)).toString(), p: e };
}

/** digits * 10^p with the point moved to a random place and a matching exponent. */
function spellDecimal(r: Rng, neg: boolean, d: string, p: number): string {
  const k = r.int(d.length + 1); // digits before the point
  const int = d.slice(0, k) || "0";
  const frac = d.slice(k) || "0";
  const e = p + d.length - k;
  const mark = r.pick(["e", "E"]);
  const sign = e >= 0 && r.chance(0.3) ? "+" : "";
  return (neg ? "-" : "") + int + "." + frac + (e === 0 && r.chance(0.5) ? "" : mark + sign + e);
}

/**
 * A float lexeme that reads as x, or (now and then) one next to it that rounds either way: the
 * shortest digits, 17 significant digits, 21, the exact decimal with the point anywhere, or the
 * exact midpoint to the next double, nudged or not. The oracle decides what each reads as.
 */
function floatSpelling(r: Rng, x: number): string {
  if (x === 0) {
    return Object.is(x, -0)
      ? r.pick(["-0.0", "-0e0", "-0.0E+9"])
      : r.pick(["0.0", "0e0", "0.0e-999"]);
  }
  const neg = x < 0;
  const roll = r.int(6);
  const how = ["shortest", "17_digits", "21_digits", "exact", "midpoint", "midpoint"][roll]!;
  r.tally[`float_spelled_${how}`] = (r.tally[`float_spelled_${how}`] ?? 0) + 1;
  if (roll === 0) {
    const t = String(x);
    return /[.eE]/.test(t) ? t : t + ".0";
  }
  if (roll === 1) return x.toPrecision(17);
  if (roll === 2) return x.toExponential(20);
  const { m, e } = parts(x);
  if (roll === 3) {
    const { d, p } = exactDecimal(m, e);
    return spellDecimal(r, neg, d, p);
  }
  // The midpoint between |x| and the next double up (m*2+1 halves), maybe nudged by a digit.
  const { d, p } = exactDecimal(m * 2n + 1n, e - 1);
  const nudge = r.int(3);
  const digits = nudge === 0 ? d : nudge === 1 ? d + "0000000001" : (BigInt(d) - 1n).toString();
  return spellDecimal(r, neg, digits, nudge === 1 ? p - 10 : p);
}

/** The next double away from zero or toward it. */
function neighbour(r: Rng, x: number): number {
  f64[0] = x;
  const lo = u32s[0]!, hi = u32s[1]!;
  if (r.chance(0.5) || (lo === 0 && (hi & 0x7fffffff) === 0)) {
    u32s[0] = lo + 1;
    if (lo === 0xffffffff) u32s[1] = hi + 1;
  } else {
    u32s[0] = lo - 1;
    if (lo === 0) u32s[1] = hi - 1;
  }
  return Number.isFinite(f64[0]!) ? f64[0]! : x / 2;
}

/** A random string over hard code points. */
function randomString(r: Rng): string {
  const pool = [
    () => String.fromCharCode(0x20 + r.int(95)),
    () => String.fromCharCode(r.int(0x20)),
    () => r.pick(['"', "\\", "/", "\u007f", "\u0085", "\u2028", "\u2029", "\ufeff", "\ufffd"]),
    () => String.fromCharCode(0xa0 + r.int(0xd800 - 0xa0)),
    () => String.fromCharCode(0xe000 + r.int(0x2000)),
    () => String.fromCodePoint(0x10000 + r.int(0x100000)),
    () => String.fromCharCode(0xd800 + r.int(0x800)) + "a", // lone, then ASCII
  ];
  let s = "";
  const n = r.int(12);
  for (let i = 0; i < n; i++) s += r.pick(pool)();
  return s;
}

/**
 * A string with a run of backslashes before a quote at a random offset: written as JSON (and the
 * output again inside its line), runs of odd and even length meet the 16-byte blocks of a vector
 * scan at every offset.
 */
function backslashRun(r: Rng): string {
  return "a".repeat(r.int(40)) + "\\".repeat(1 + r.int(35)) +
    r.pick(['"', "", "\u00e9", "{", "x"]) +
    "b".repeat(r.int(20));
}

/** A leaf value, counted by kind in `r.tally`. */
function scalar(r: Rng): Val {
  const kind = (k: string, v: Val): Val => {
    r.tally[k] = (r.tally[k] ?? 0) + 1;
    return v;
  };
  if (r.chance(0.05)) return kind("leaf_backslash_run", str(backslashRun(r)));
  if (r.chance(0.25)) return kind("leaf_random_double", { k: "dbl", x: randomDouble(r), lex: "" });
  if (r.chance(0.08)) return kind("leaf_random_string", str(randomString(r)));
  const roll = r.int(10);
  if (roll < 4) return kind("leaf_float_edge", lex(r.pick(r.pick(FLOAT_FAMILIES))));
  if (roll < 6) return kind("leaf_integer_edge", lex(r.pick(r.pick(INT_FAMILIES))));
  if (roll < 7) return kind("leaf_literal", lex(r.pick(r.pick(LITERALS))));
  return kind("leaf_string_edge", str(r.pick(STRINGS)));
}

/** A gold argument tree, with duplicate keys now and then. */
function tree(r: Rng, depth: number): Val {
  const roll = r.int(10);
  if (depth <= 0 || roll < 4) return scalar(r);
  if (roll < 7) {
    const m: [string, Val][] = [];
    const n = r.int(5);
    for (let i = 0; i < n; i++) {
      m.push([r.chance(0.1) ? randomString(r) : r.pick(KEYS), tree(r, depth - 1)]);
    }
    if (n && r.chance(0.15)) m.push([m[0]![0], tree(r, depth - 1)]); // a duplicate: last wins
    return { k: "obj", m };
  }
  const a: Val[] = [];
  const n = r.int(4);
  for (let i = 0; i < n; i++) a.push(tree(r, depth - 1));
  return { k: "arr", a };
}

function findFamily(l: string): readonly string[] | undefined {
  for (const fs of [FLOAT_FAMILIES, INT_FAMILIES, LITERALS]) {
    for (const f of fs) if (f.includes(l)) return f;
  }
  return undefined;
}

/** The same value in other spellings (numbers from their family, keys kept). */
function respell(r: Rng, v: Val): Val {
  switch (v.k) {
    case "lex": {
      const f = findFamily(v.lex);
      return f && r.chance(0.7) ? lex(r.pick(f)) : v;
    }
    case "dbl":
      return { k: "dbl", x: v.x, lex: floatSpelling(r, v.x) };
    case "str":
      return v;
    case "obj":
      return { k: "obj", m: v.m.map(([k, x]) => [k, respell(r, x)]) };
    case "arr":
      return { k: "arr", a: v.a.map((x) => respell(r, x)) };
  }
}

/**
 * A value a careless reader takes for `v`, or that is `v` in another form: the other sign, the
 * other of integer and float, the last digit changed, a literal's look-alike, a string in the other
 * normal form, with U+FFFD for its lone surrogates, or a character short. (`-0` and `0` are the
 * same integer: that one must still match.)
 */
function nearMiss(r: Rng, v: Val & { k: "lex" | "str" }): Val {
  if (v.k === "str") {
    const s = v.s;
    return str(r.pick([
      s.normalize("NFD"),
      s.normalize("NFC"),
      s + "\u0301",
      s.replace(/[\ud800-\udfff]/g, "\ufffd"),
      s.slice(0, -1),
      s + " ",
    ]));
  }
  const l = v.lex;
  const literal: Record<string, string[]> = {
    NaN: ['"NaN"', "-Infinity", "null"],
    Infinity: ["1.7976931348623157e308", "-Infinity", '"Infinity"'],
    "-Infinity": ["-1.7976931348623157e308", "Infinity"],
    true: ["1", '"true"', "false"],
    false: ["0", "null", "true"],
    null: ["{}", "[]", '""', "false"],
  };
  const options = literal[l] ?? [
    l.startsWith("-") ? l.slice(1) : "-" + l,
    /[.eE]/.test(l) ? l.replace(/[.eE].*$/, "") : l + ".0",
    l.slice(0, -1) + (l.endsWith("1") ? "2" : "1"),
  ];
  const pick = r.pick(options);
  return pick.startsWith('"')
    ? str(JSON.parse(pick))
    : pick === "{}"
    ? { k: "obj", m: [] }
    : pick === "[]"
    ? { k: "arr", a: [] }
    : lex(pick);
}

/**
 * One change somewhere in the tree (a value, a key, an element), or with `leaf`, one leaf found by
 * walking down at random made a near miss.
 */
function mutate(r: Rng, v: Val, leaf = false): Val {
  switch (v.k) {
    case "dbl":
      return { k: "dbl", x: r.chance(leaf ? 0.5 : 0.7) ? neighbour(r, v.x) : -v.x, lex: "" };
    case "lex":
    case "str":
      return !leaf && r.chance(0.2) ? scalar(r) : nearMiss(r, v);
    case "obj": {
      if (!v.m.length) {
        return leaf || r.chance(0.5) ? { k: "arr", a: [] } : { k: "obj", m: [["a", lex("1")]] };
      }
      const m = v.m.slice();
      const i = r.int(m.length);
      const roll = leaf ? 3 : r.int(4);
      if (roll === 0) m.splice(i, 1);
      else if (roll === 1) m[i] = [m[i]![0] + "\u0301", m[i]![1]];
      else if (roll === 2) m.push([m[i]![0], scalar(r)]); // a later duplicate overrides
      else m[i] = [m[i]![0], mutate(r, m[i]![1], leaf)];
      return { k: "obj", m };
    }
    case "arr": {
      if (!v.a.length) return { k: "obj", m: [] };
      const a = v.a.slice();
      const i = r.int(a.length);
      if (!leaf && r.chance(0.3)) a.reverse();
      else a[i] = mutate(r, a[i]!, leaf);
      return { k: "arr", a };
    }
  }
}

// ------------------------------------------------------------------ writing JSON text

const hex4 = (c: number, upper: boolean): string => {
  const h = c.toString(16).padStart(4, "0");
  return "\\u" + (upper ? h.toUpperCase() : h);
};

/**
 * A JSON string literal for `s`: with style 0 nothing is escaped that need not be, with 1
 * everything is, with 2 and 3 each character at random (short escapes or `\u`, upper or lower hex,
 * `\/` or `/`, non-ASCII raw or escaped). A lone surrogate is escaped (it has no UTF-8), but with
 * style 3, for a text that is itself written into a line as a string (an output), where it is left
 * raw: the output then holds it raw, a path of the kernel of its own.
 */
function quote(r: Rng, s: string, style: number): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const esc = style === 0 ? false : style === 1 ? true : r.chance(0.4);
    const rawLone = style === 3 && r.chance(0.7);
    const upper = r.chance(0.3);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c < 0x20) {
      const short: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" };
      out += short[c] && !esc ? short[c] : hex4(c, upper);
    } else if (c === 0x2f) out += esc ? "\\/" : "/";
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        // A pair: raw, or both halves escaped (never one of each: that is a known issue).
        out += esc ? hex4(c, upper) + hex4(d, upper) : s.slice(i, i + 2);
        i++;
      } else out += rawLone ? s[i] : hex4(c, upper);
    } else if (c >= 0xdc00 && c <= 0xdfff) out += rawLone ? s[i] : hex4(c, upper);
    else if (c < 0x7f) out += esc && r.chance(0.2) ? hex4(c, upper) : s[i];
    else out += esc ? hex4(c, upper) : s[i];
  }
  return out + '"';
}

/** No whitespace (0), whitespace that may stand in a JSONL line (1), or with line breaks (2). */
type Pretty = 0 | 1 | 2;

/** JSON whitespace between tokens. */
function ws(r: Rng, pretty: Pretty): string {
  if (pretty === 0) return "";
  return pretty === 1
    ? r.pick(["", " ", "\t", " \r "])
    : r.pick(["", " ", "\t", "\n  ", "\r\n", " \r "]);
}

function write(r: Rng, v: Val, pretty: Pretty, style: number): string {
  switch (v.k) {
    case "lex":
      return v.lex;
    case "dbl":
      return v.lex || floatSpelling(r, v.x);
    case "str":
      return quote(r, v.s, style);
    case "obj": {
      const parts = v.m.map(([k, x]) =>
        ws(r, pretty) + quote(r, k, style) + ws(r, pretty) + ":" + ws(r, pretty) +
        write(r, x, pretty, style)
      );
      return "{" + parts.join(",") + ws(r, pretty) + "}";
    }
    case "arr":
      return "[" + v.a.map((x) => ws(r, pretty) + write(r, x, pretty, style)).join(",") +
        ws(r, pretty) + "]";
  }
}

function callVal(name: Val, args: Val): Val {
  return { k: "obj", m: [["name", name], ["arguments", args]] };
}

function nest(open: string, close: string, n: number, inner: string): string {
  return open.repeat(n) + inner + close.repeat(n);
}

// ------------------------------------------------------------------ outputs

const NAMES = ["get_weather", "f", "caf\u00e9", "cafe\u0301", "\u{1F600}", "a/b", "x\ud800y", "A"];

/** A model output for the gold call, right, respelled, wrong or broken; and its kind. */
function output(r: Rng, name: string, args: Val): { text: string; kind: string; bytes?: true } {
  const pretty: Pretty = r.pick([0, 0, 1, 2]);
  const style = r.int(4);
  const goldText = () => write(r, callVal(str(name), respell(r, args)), pretty, style);
  const roll = r.int(40);
  switch (roll) {
    case 0:
    case 1:
    case 2:
    case 3:
      return { text: goldText(), kind: "respelled" };
    case 4:
    case 5:
    case 35:
    case 36:
    case 37: {
      let near = respell(r, args);
      for (let k = 1 + r.int(2); k > 0; k--) near = mutate(r, near, true);
      return { text: write(r, callVal(str(name), near), pretty, style), kind: "near_miss" };
    }
    case 6:
      return { text: "```json\n" + goldText() + "\n```", kind: "fenced" };
    case 7:
      return { text: "Sure! I will call it: " + goldText() + " Done.", kind: "prose" };
    case 8:
      return { text: goldText() + "\n" + goldText(), kind: "two_spans" };
    case 9:
      return { text: "[" + goldText() + "]", kind: "list_of_one" };
    case 10:
      return { text: "[" + goldText() + "," + goldText() + "]", kind: "list_of_two" };
    case 11:
      return { text: "[]", kind: "empty_list" };
    case 12:
      return { text: "See [1] then " + goldText(), kind: "bracket_first" };
    case 13: {
      const t = goldText();
      return { text: t.slice(0, 1 + r.int(t.length - 1)), kind: "truncated" };
    }
    case 14:
      return {
        text: write(r, callVal(str(name), str(write(r, args, 0, 0))), pretty, style),
        kind: "arguments_as_string",
      };
    case 15:
      return {
        text: write(r, callVal(str(name), mutate(r, args)), pretty, style),
        kind: "wrong_arguments",
      };
    case 16:
      return {
        text: write(r, callVal(str(r.pick(NAMES)), respell(r, args)), pretty, style),
        kind: "other_name",
      };
    case 17: {
      const extra: Val = {
        k: "obj",
        m: [...(callVal(str(name), args) as { m: [string, Val][] }).m, ["id", lex("1")]],
      };
      return { text: write(r, extra, pretty, style), kind: "extra_key" };
    }
    case 18:
      return {
        text: write(
          r,
          { k: "obj", m: [["name", str("g")], ["arguments", args], ["name", str(name)]] },
          pretty,
          style,
        ),
        kind: "duplicate_name_last_wins",
      };
    case 19:
      return { text: write(r, callVal(str(""), args), pretty, style), kind: "empty_name" };
    case 20: {
      // Nested 512 (accepted) or 513 (refused) deep in all.
      const n = 509 + r.int(3);
      return {
        text: `{"name":${quote(r, name, 0)},"arguments":{"x":${nest("[", "]", n, "1")}}}`,
        kind: `depth_${n + 2}`,
      };
    }
    case 21: {
      const n = 508 + r.int(4);
      return {
        text: `{"name":${quote(r, name, 0)},"arguments":${nest('{"a":', "}", n, "{}")}}`,
        kind: `object_depth_${n + 2}`,
      };
    }
    case 22: {
      const bad = r.pick([
        "01",
        "-01",
        "1.",
        ".5",
        "+1",
        "1e",
        "1e+",
        "0x10",
        "-",
        "--1",
        "1_000",
        "nan",
        "-NaN",
        "infinity",
        "Infinityx",
        "True",
        "nul",
        "1" + "2".repeat(4300),
        "-" + "3".repeat(4301),
        "[1,]",
        '{"a":1,}',
        "[,1]",
        '"\\x"',
        '"\\u12"',
        '"\\u12G4"',
        '"\\U0041"',
        '"\t"',
        '"\u0000"',
        '"\u001f"',
        "\u00a01",
        "\f1",
        '{"a" 1}',
        "{1:2}",
        "'a'",
      ]);
      return {
        text: `{"name":${quote(r, name, 0)},"arguments":{"x":${bad}}}`,
        kind: "bad_lexeme",
      };
    }
    case 23:
      return { text: `{"name":${quote(r, name, 0)},"arguments":{"x":[1,2}}}`, kind: "mismatched" };
    case 24:
      return { text: "I cannot help with that.", kind: "no_json" };
    case 25:
      return { text: "", kind: "empty" };
    case 26:
      return { text: "} ] " + goldText(), kind: "closers_first" };
    case 27:
      return { text: goldText().replace(/\}$/, "") + '"}', kind: "unterminated_string" };
    case 28:
      return {
        text: `{"name":${quote(r, name, 0)},"arguments":{"s":"a\\"}b\\\\","t":"]"}}`,
        kind: "escapes_and_brackets",
      };
    case 29:
      return { text: "\ufeff" + goldText(), kind: "bom_in_output" };
    case 30:
      return {
        text: `{"name":${quote(r, name, 0)},"arguments":{"a":1,"\\u0061":2}}`,
        kind: "escaped_duplicate_key",
      };
    case 31:
      return { text: '{"name":' + quote(r, name, 0) + ',"arguments":{}}', kind: "empty_arguments" };
    case 32:
      return { text: "[[" + goldText() + "]]", kind: "list_in_list" };
    case 33:
      return {
        text: `{"name":${quote(r, name, 0)},"arguments":{"s":"${"[".repeat(700)}"}}`,
        kind: "brackets_in_string",
      };
    case 34:
      return { text: goldText(), kind: "invalid_utf8", bytes: true };
    default:
      return { text: goldText(), kind: "respelled" };
  }
}

// ------------------------------------------------------------------ ids and lines

const ID_SHAPES = [
  (i: number) => `e${i}`,
  (i: number) => `\u00e9-${i}`,
  (i: number) => `e\u0301-${i}`,
  (i: number) => `\u{1F600}${i}`,
  (i: number) => `${i}`,
  (i: number) => `0${i}`,
  (i: number) => `${i}.0`,
  (i: number) => `q"uo\\te\n${i}`,
  (i: number) => `tab\t${i}\u0000`,
  (i: number) => `\u2028${i}\u2029`,
  (i: number) => `long${i}-${"x".repeat(5000)}`,
  (i: number) => `/${i}/`,
  (i: number) => `\uff41${i}`,
  (i: number) => `\ue000${i}`,
  (i: number) => `\u{10FFFF}${i}`,
  (i: number) => `${"p".repeat(3000)}${i}`, // a long shared prefix
  (i: number) => `\u007f${i}\ufeff`,
];

const LANGUAGES = [
  "en",
  "EN",
  "de",
  "\u65e5\u672c\u8a9e",
  "\uff41",
  "\u{1F600}",
  "Overall",
  "en\u0000",
  "a",
];

const enc = new TextEncoder();

/** Lines joined with LF or CRLF, after blank lines, maybe a BOM and maybe no final newline. */
function joinLines(
  r: Rng,
  lines: string[],
  counts: Record<string, number>,
  handback: boolean,
): string {
  const blanks = ["", "   ", "\t", "\r", " \t \r"];
  const nonAscii = ["\u00a0", "\ufeff", "\u2028", " \u3000 "];
  let out = r.chance(0.5) ? (counts.bom = (counts.bom ?? 0) + 1, "\ufeff") : "";
  for (const line of lines) {
    if (r.chance(0.05)) {
      const b = handback && r.chance(0.3) ? r.pick(nonAscii) : r.pick(blanks);
      out += b + "\n";
      counts.blank_lines = (counts.blank_lines ?? 0) + 1;
    }
    const crlf = r.chance(0.3);
    if (crlf) counts.crlf_lines = (counts.crlf_lines ?? 0) + 1;
    const pad = r.chance(0.1) ? r.pick([" ", "\t", " \t"]) : "";
    out += pad + line + pad + (crlf ? "\r\n" : "\n");
  }
  if (r.chance(0.5)) {
    out = out.replace(/\r?\n$/, "");
    counts.no_final_newline = (counts.no_final_newline ?? 0) + 1;
  }
  return out;
}

/** Row fields in random order, with an ignored field now and then. */
function row(r: Rng, fields: [string, string][], lead?: [string, string]): string {
  const f = fields.slice();
  for (let i = f.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [f[i], f[j]] = [f[j]!, f[i]!];
  }
  if (r.chance(0.15)) {
    const junk = r.pick([
      "NaN",
      "-Infinity",
      "1e999",
      "-0.0",
      nest("[", "]", 400, ""),
      "9".repeat(4300),
      '{"a":1,"a":{"b":[true,false,null]}}',
      '"\\ud800"',
    ]);
    f.splice(r.int(f.length + 1), 0, [`"extra"`, junk]);
  }
  if (lead) f.unshift(lead); // a decoy member that a later one overrides
  const sp = r.chance(0.3) ? " " : "";
  return "{" + f.map(([k, v]) => `${k}:${sp}${v}`).join("," + sp) + "}";
}

/** A top-level key as written: sometimes escaped (the kernel gives that back), in handback mode. */
function key(r: Rng, k: string, handback: boolean): string {
  if (handback && r.chance(0.02)) {
    return '"' + [...k].map((c) => hex4(c.charCodeAt(0), false)).join("") + '"';
  }
  return `"${k}"`;
}

/** Builds the three files. */
export function adversarialCorpus(opts: AdversarialOptions): AdversarialCorpus {
  const r: Rng = Object.assign(makeRng(opts.seed), { tally: {} });
  const handback = opts.handback === true;
  const counts: Record<string, number> = {};
  const bump = (k: string) => (counts[k] = (counts[k] ?? 0) + 1);
  const exLines: string[] = [];
  const missingAt = new Set<number>(); // indices into exLines
  const idOf: string[] = []; // the id of each line of exLines
  const droppedIds: AdversarialCorpus["expect"]["dropped"] = {
    multiple_calls: [],
    empty_target: [],
    malformed_target: [],
  };
  const genLines: { line: string; invalidUtf8: boolean }[] = [];
  const prLines: string[] = [];
  const bigAt = new Set<number>();
  for (let b = 0; b < (opts.bigLines ?? 2); b++) bigAt.add(r.int(opts.count));

  for (let i = 0; i < opts.count; i++) {
    let id = r.pick(ID_SHAPES)(i);
    if (handback && r.chance(0.03)) id = `lone\udc00${i}`;
    bump(`id_${/[^\x20-\x7e]/.test(id) ? "non_ascii" : "ascii"}`);
    const language = r.pick(LANGUAGES);
    const name = r.pick(NAMES);
    let args: Val = tree(r, 4);
    if (args.k !== "obj") args = { k: "obj", m: [[r.pick(KEYS), args]] };
    const big = bigAt.has(i);
    if (big) {
      // More than 1 MiB of one string (with escapes), or a long array of numbers.
      args = r.chance(0.5)
        ? { k: "obj", m: [["blob", str('\u00e9"\\\n'.repeat(150_000) + "end")]] }
        : {
          k: "obj",
          m: [["nums", {
            k: "arr",
            a: Array.from({ length: 120_000 }, (_, j) => lex(j % 3 ? `${j}.5e-3` : `${j}`)),
          }]],
        };
      bump("big_lines");
    }
    // The gold target: one call, a list of one, or a dropped shape.
    const drop = big ? 19 : r.int(20); // a big example is kept, and has its generation
    const gold = write(r, callVal(str(name), args), r.pick([0, 0, 1] as const), r.int(3));
    let target = gold;
    if (drop === 0) target = "[]";
    else if (drop === 1) target = `[${gold},${gold}]`;
    else if (drop === 2) target = write(r, callVal(str(name), str("{}")), 0, 0);
    else if (drop === 3) target = `[${gold},1]`;
    else if (drop === 4) target = `[${gold}]`;
    else if (drop === 5) target = write(r, callVal(str(""), args), 0, 0);
    const dropped = drop <= 3 || drop === 5;
    bump(dropped ? "dropped" : "kept");
    if (dropped) {
      droppedIds[drop === 0 ? "empty_target" : drop === 1 ? "multiple_calls" : "malformed_target"]
        .push(id);
    }
    const idInEx = quote(r, id, r.int(3));
    const idInGen = quote(r, id, r.int(3));
    if (idInEx !== idInGen) bump("id_spelled_differently");
    const exFields: [string, string][] = [
      [key(r, "example_id", handback), idInEx],
      [key(r, "language", handback), quote(r, language, r.int(3))],
      [key(r, "target", handback), target],
    ];
    const rootRoll = r.int(4);
    if (rootRoll === 1) exFields.push([`"root_id"`, "null"]);
    else if (rootRoll >= 2) exFields.push([`"root_id"`, quote(r, `root\u00e9${i % 7}`, r.int(3))]);
    // In hand-back mode, now and then a container target that a later one overrides.
    const decoy = handback && r.chance(0.03)
      ? (bump("decoy_target"),
        ['"target"', '{"name":"decoy","arguments":{"a":[1]}}'] as [string, string])
      : undefined;
    exLines.push(row(r, exFields, decoy));
    idOf.push(id);

    const prompt = `Call the tool for ${id}\r\n\u00e9\u{1F600} #${i}`;
    const sha = createHash("sha256").update(enc.encode(prompt)).digest("hex");
    if (opts.prompts !== false) {
      const pf: [string, string][] = [[`"example_id"`, quote(r, id, r.int(3))], [
        `"prompt_sha256"`,
        `"${sha}"`,
      ]];
      if (r.chance(0.6)) pf.push([`"prompt"`, quote(r, prompt, r.int(3))]);
      prLines.push(row(r, pf));
    }
    if (dropped && r.chance(0.5)) continue; // a dropped example needs no generation
    if (!dropped && !big && opts.missing && r.chance(opts.missing)) {
      missingAt.add(exLines.length - 1);
      bump("missing_generation");
      continue;
    }
    const o = big && r.chance(0.5)
      ? {
        text: "x".repeat(1_200_000) + " " + write(r, callVal(str(name), args), 0, 0),
        kind: "big_prose",
      }
      : big
      ? { text: write(r, callVal(str(name), args), 0, r.int(3)), kind: "big_call" }
      : output(r, name, args);
    bump(`out_${o.kind}`);
    const outField = quote(r, o.text, r.int(3));
    const outKey = key(r, "output", handback);
    const gf: [string, string][] = [
      [key(r, "example_id", handback), idInGen],
      [`"prompt_sha256"`, `"${sha}"`],
      [outKey, outField],
    ];
    const decoyOutput = r.chance(0.05)
      ? (bump("duplicate_output_key"),
        ['"output"', quote(r, 'decoy {"name":"zzz","arguments":{}}', 0)] as [string, string])
      : undefined;
    genLines.push({
      line: row(r, gf, decoyOutput),
      invalidUtf8: "bytes" in o && outKey === '"output"',
    });
  }
  // Generations in another order than the examples.
  for (let i = genLines.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [genLines[i], genLines[j]] = [genLines[j]!, genLines[i]!];
  }
  const genText = joinLines(
    r,
    genLines.map((g) => g.invalidUtf8 ? BAD_MARK + g.line : g.line),
    counts,
    handback,
  );
  // Invalid UTF-8 goes inside an output (the only place it is read, as U+FFFD): the marker line's
  // output gets raw bad bytes spliced in after its first character.
  const generations = spliceBadBytes(r, genText, counts);
  Object.assign(counts, r.tally);
  const missing = [...missingAt].map((i) => idOf[i]!).sort(byCodePoint);
  const result: AdversarialCorpus = {
    examples: enc.encode(joinLines(r, exLines, counts, handback)),
    generations,
    counts,
    expect: {
      dropped: droppedIds,
      missing,
      rows: { examples: exLines.length, generations: genLines.length, prompts: prLines.length },
      invalidUtf8Outputs: counts.invalid_utf8_outputs ?? 0,
    },
  };
  if (missingAt.size) {
    result.scored = enc.encode(
      joinLines(r, exLines.filter((_, i) => !missingAt.has(i)), {}, handback),
    );
  }
  if (opts.prompts !== false) {
    for (let i = prLines.length - 1; i > 0; i--) {
      const j = r.int(i + 1);
      [prLines[i], prLines[j]] = [prLines[j]!, prLines[i]!];
    }
    result.prompts = enc.encode(joinLines(r, prLines, counts, false));
  }
  return result;
}

const BAD_BYTES = [
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xf4, 0x90, 0x80, 0x80],
  [0x80],
];

/** Marks a line whose output gets bytes that are not UTF-8 (no line holds a raw U+0000). */
const BAD_MARK = "\u0000BAD\u0000";

/** Encodes `text`, dropping each BAD_MARK and putting bad bytes in the output of its line. */
function spliceBadBytes(
  r: Rng,
  text: string,
  counts: Record<string, number>,
): Uint8Array {
  const parts = text.split(BAD_MARK);
  const chunks: (string | number[])[] = [];
  for (const [i, part] of parts.entries()) {
    if (i === 0) {
      chunks.push(part);
      continue;
    }
    // `part` starts with the row; find its output's string and put bad bytes in it: after its
    // opening quote, or before a `{` or a space of it (never inside an escape).
    const at = part.lastIndexOf('"output":');
    const q = at < 0 ? -1 : part.indexOf('"', at + 9);
    if (q < 0) {
      chunks.push(part);
      continue;
    }
    let end = q + 1;
    while (part[end] !== '"') end += part[end] === "\\" ? 2 : 1;
    const spots = [q + 1];
    for (let k = q + 1; k < end; k++) if (part[k] === "{" || part[k] === " ") spots.push(k);
    const draws = Array.from({ length: 1 + r.int(3) }, () => r.pick(spots));
    const picked = [...new Set(draws)].sort((a, b) => a - b);
    let from = 0;
    for (const k of picked) {
      chunks.push(part.slice(from, k));
      chunks.push(r.pick(BAD_BYTES));
      from = k;
    }
    chunks.push(part.slice(from));
    counts.invalid_utf8_outputs = (counts.invalid_utf8_outputs ?? 0) + 1;
  }
  return bytesOf(...chunks);
}

/** Text (as UTF-8) and raw bytes, joined. */
export function bytesOf(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((p) => typeof p === "string" ? enc.encode(p) : new Uint8Array(p));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  chunks.reduce((at, c) => (out.set(c, at), at + c.length), 0);
  return out;
}
