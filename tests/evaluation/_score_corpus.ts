// Seeded corpora for `assay score`: examples.jsonl, generations.jsonl and prompts.jsonl, written to a
// directory. Used by tests/evaluation/score_diff_test.ts (against tests/evaluation/_score_oracle.py) and
// bench/score_bench.ts.
//
// The corpus looks like an evaluation run: several languages, translated rows linked to their root
// by root_id, gold targets with nested arguments, floats (1 versus 1.0), big integers and unicode,
// and a few targets that scoring drops (multi-call lists, empty lists, malformed calls). Each
// generation is derived from its gold call: the right call in other spellings, wrong names, wrong,
// missing or extra arguments, prose-wrapped and fenced calls, truncated or invalid JSON, wrong
// shapes, no JSON at all, and a share of hostile outputs from tests/_corpus.ts.
//
// It never produces an input error or an invariant violation: every row is well formed and every
// kept example has exactly one generation. Readings the texts leave open (see the docstring of
// tests/evaluation/_score_oracle.py) are not exercised here; score_diff_test.ts tests them one by one.
import { createHash } from "node:crypto";
import { makeRng, randomJsonText, randomToolCallOutput, type Rng } from "../_corpus.ts";

/** Options for {@linkcode writeScoreCorpus}. */
export interface ScoreCorpusOptions {
  /** PRNG seed: the same options give byte-identical files. */
  seed: number;
  /** Number of example rows (dropped targets included). */
  count: number;
  /** Approximate mean length of a model output, in UTF-8 bytes (default 300). */
  outputBytes?: number;
  /** Write prompts.jsonl, the formatter's manifest (default true). */
  prompts?: boolean;
  /** Share of examples whose target is dropped (default 0.04). */
  dropRate?: number;
  /** Share of outputs taken from `randomToolCallOutput` (default 0.08). */
  fuzzRate?: number;
  /** Share of gold arguments taken from `randomJsonText` (default 0.03). */
  hostileGoldRate?: number;
  /** End lines with CRLF, start files with a UTF-8 BOM, sprinkle blank lines (default false). */
  lineNoise?: boolean;
  /** Record each generation's kind in the result (default false). */
  trackKinds?: boolean;
  /** Example ids prefix (default `ex<seed>`). */
  idPrefix?: string;
}

/** What {@linkcode writeScoreCorpus} wrote. */
export interface ScoreCorpusFiles {
  examples: string;
  generations: string;
  /** Present when `prompts` was not false. */
  prompts?: string;
  /** Example rows, generation rows, dropped examples. */
  rows: { examples: number; generations: number; dropped: number };
  /** Total and mean output lengths in UTF-8 bytes. */
  outputBytes: { total: number; mean: number };
  /** How many outputs each generator kind produced. */
  kinds: Record<string, number>;
  /** The generator kind of each generation, by example_id (with `trackKinds`). */
  kindById?: Map<string, string>;
}

// ------------------------------------------------------------------ JSON values as trees

/** A JSON value that remembers number lexemes exactly (so 1 and 1.0 stay apart). */
type Node =
  | { k: "o"; m: [string, Node][] }
  | { k: "a"; v: Node[] }
  | { k: "s"; v: string }
  | { k: "n"; v: string }
  | { k: "l"; v: "true" | "false" | "null" | "NaN" | "Infinity" | "-Infinity" }
  | { k: "raw"; v: string };

const o = (...m: [string, Node][]): Node => ({ k: "o", m });
const a = (...v: Node[]): Node => ({ k: "a", v });
const s = (v: string): Node => ({ k: "s", v });
const n = (v: string | number): Node => ({ k: "n", v: String(v) });
const l = (v: "true" | "false" | "null" | "NaN" | "Infinity" | "-Infinity"): Node => ({
  k: "l",
  v,
});

/** How to spell a tree as text. `canonicalSafe` variants keep the parsed value unchanged. */
interface Style {
  rng: Rng;
  /** Probability of whitespace at each place that allows it. */
  ws: number;
  /** Probability of writing a non-ASCII character as a `\u` escape. */
  escape: number;
  /** Shuffle object members. */
  shuffle: boolean;
  /** Respell numbers with the same value (1.0 as 1.00 or 10e-1; -0 as 0). */
  respell: boolean;
  /** No line breaks: the text goes inside a JSONL line. */
  inline?: boolean;
}

function space(st: Style): string {
  if (!st.rng.chance(st.ws)) return "";
  if (st.inline) return st.rng.pick([" ", " ", "\t", "  "]);
  return st.rng.pick([" ", " ", " ", "\n", "\n  ", "\t", "\r\n", "  "]);
}

function hex(cu: number): string {
  return cu.toString(16).padStart(4, "0");
}

function stringText(v: string, st: Style): string {
  let out = '"';
  for (const ch of v) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (c < 0x20) {
      const short =
        ({ 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" } as Record<number, string>)[c];
      out += short !== undefined && !st.rng.chance(st.escape) ? short : "\\u" + hex(c);
    } else if (ch === "/" && st.rng.chance(st.escape)) out += "\\/";
    else if (c < 0x7f) out += ch;
    else if (c >= 0xd800 && c < 0xe000) out += "\\u" + hex(c); // a lone surrogate: escape it
    else if (st.rng.chance(st.escape)) {
      if (c > 0xffff) {
        out += "\\u" + hex(ch.charCodeAt(0)) + "\\u" + hex(ch.charCodeAt(1));
      } else {
        const h = hex(c);
        out += "\\u" + (st.rng.chance(0.2) ? h.toUpperCase() : h);
      }
    } else out += ch;
  }
  return out + '"';
}

function numberText(lex: string, st: Style): string {
  if (!st.respell || !st.rng.chance(0.5)) return lex;
  if (lex === "-0") return "0";
  if (lex === "0") return "-0";
  const m = /^(-?\d+)(\.\d+)?([eE][+-]?\d+)?$/.exec(lex);
  if (!m || (m[2] === undefined && m[3] === undefined)) return lex; // an integer keeps its digits
  const [, int, frac, exp] = m;
  switch (st.rng.int(3)) {
    case 0: // trailing zeros in the fraction
      return int + (frac ?? ".0") + "0".repeat(1 + st.rng.int(3)) + (exp ?? "");
    case 1: // an explicit zero exponent (only without one already)
      return exp === undefined ? int + (frac ?? "") + st.rng.pick(["e0", "E+0", "e-00"]) : lex;
    default: // the exponent letter's case
      return exp === undefined ? lex : int + (frac ?? "") + exp.replace(/e/, "E");
  }
}

function write(node: Node, st: Style): string {
  switch (node.k) {
    case "o": {
      const members = st.shuffle ? shuffled(st.rng, node.m) : node.m;
      if (members.length === 0) return "{" + space(st) + "}";
      const parts = members.map(([key, v]) =>
        space(st) + stringText(key, st) + space(st) + ":" + space(st) + write(v, st) + space(st)
      );
      return "{" + parts.join(",") + "}";
    }
    case "a":
      if (node.v.length === 0) return "[" + space(st) + "]";
      return "[" + node.v.map((v) => space(st) + write(v, st) + space(st)).join(",") + "]";
    case "s":
      return stringText(node.v, st);
    case "n":
      return numberText(node.v, st);
    case "l":
      return node.v;
    case "raw":
      return node.v;
  }
}

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

// ------------------------------------------------------------------ tools and gold calls

const CITIES = [
  "Paris",
  "Oslo",
  "Rome",
  "Zürich",
  "São Paulo",
  "東京",
  "Köln",
  "Reykjavík",
  "İstanbul",
  "Αθήνα",
  "New York",
  "München",
];
const WORDS = [
  "romantic",
  "quiet",
  "pool",
  "wifi",
  "pet-friendly",
  "café",
  "naïve",
  "spa",
  "😀",
  "🏖️",
  "vue sur mer",
  "日本語",
  'say "hi"',
  "back\\slash",
  "line\nbreak",
  "tab\there",
  "a/b",
  "\u007f",
  "\ue000",
  "\u{1f600}x",
];
const CURRENCIES = ["EUR", "USD", "JPY", "CHF", "NOK", "BRL"];

function word(rng: Rng): string {
  return rng.pick(WORDS);
}

/** Floats and integers, exactly as written in a gold target. */
function amount(rng: Rng): Node {
  return n(rng.pick([
    "100",
    "100.0",
    "1.0",
    "1",
    "0.1",
    "12.5",
    "1e2",
    "1E-7",
    "2.5e+3",
    "-0.0",
    "-0",
    "0",
    "19.99",
    "1e16",
    "1.5e300",
    "5e-324",
    "123456789.123456789",
    "9007199254740993",
    "9007199254740993.0",
  ]));
}

function bigInt(rng: Rng): Node {
  const len = 17 + rng.int(30);
  let d = String(1 + rng.int(9));
  for (let i = 1; i < len; i++) d += String(rng.int(10));
  return n((rng.chance(0.2) ? "-" : "") + d);
}

interface Tool {
  name: string;
  args(rng: Rng): Node;
}

const TOOLS: Tool[] = [
  {
    name: "get_weather",
    args: (rng) =>
      o(["city", s(rng.pick(CITIES))], ["units", s(rng.pick(["celsius", "fahrenheit", "kelvin"]))]),
  },
  {
    name: "book_hotel",
    args: (rng) =>
      o(
        ["city", s(rng.pick(CITIES))],
        ["nights", n(1 + rng.int(14))],
        [
          "filters",
          o(
            ["max_price", amount(rng)],
            ["tags", a(...Array.from({ length: rng.int(4) }, () => s(word(rng))))],
            ["stars", rng.chance(0.5) ? n(1 + rng.int(5)) : l("null")],
          ),
        ],
        ["options", rng.chance(0.7) ? o() : o(["late_checkout", l(rng.pick(["true", "false"]))])],
      ),
  },
  {
    name: "search",
    args: (rng) =>
      o(
        ["query", s(Array.from({ length: 1 + rng.int(5) }, () => word(rng)).join(" "))],
        ["limit", n(rng.pick([5, 10, 20, 50]))],
        ...(rng.chance(0.5)
          ? [["lang", s(rng.pick(["en", "de", "fr", "ja"]))] as [string, Node]]
          : []),
      ),
  },
  {
    name: "send_email",
    args: (rng) =>
      o(
        ["to", a(...Array.from({ length: 1 + rng.int(3) }, (_, i) => s(`user${i}@example.com`)))],
        ["subject", s(word(rng) + " " + word(rng))],
        ["body", s(Array.from({ length: 3 + rng.int(10) }, () => word(rng)).join(" "))],
        ["cc", rng.chance(0.5) ? a() : l("null")],
      ),
  },
  {
    name: "convert_currency",
    args: (rng) =>
      o(["amount", amount(rng)], ["from", s(rng.pick(CURRENCIES))], [
        "to",
        s(rng.pick(CURRENCIES)),
      ]),
  },
  {
    name: "transfer_funds",
    args: (rng) =>
      o(
        ["account", bigInt(rng)],
        ["amount", amount(rng)],
        ["memo", rng.chance(0.5) ? s(word(rng)) : l("null")],
        ["instant", l(rng.pick(["true", "false"]))],
      ),
  },
  {
    name: "create_event",
    args: (rng) =>
      o(
        ["title", s(word(rng))],
        ["start", s(`2024-0${1 + rng.int(9)}-1${rng.int(10)}T0${rng.int(10)}:00:00Z`)],
        [
          "attendees",
          a(...Array.from({ length: rng.int(3) }, (_, i) =>
            o(["name", s(rng.pick(["Zoë", "Ana", "李雷", "Jörg"]))], ["email", s(`p${i}@x.org`)]))),
        ],
        [
          "recurrence",
          rng.chance(0.5) ? l("null") : o(["every", n(1 + rng.int(3))], ["unit", s("week")]),
        ],
      ),
  },
  { name: "get_time", args: () => o() },
  {
    name: "set_timer",
    args: (rng) => o(["duration_seconds", n(rng.int(7200))], ["label", s(word(rng))]),
  },
  {
    name: "update_settings",
    args: (rng) =>
      o(
        ["a.b", n(rng.int(3))],
        ["a", o(["b", n(rng.int(3))])],
        ["0", s("zero")],
        ["list", a(s("x"), n(rng.int(2)), l("true"), a(), o())],
        ["\ue000", n(1)],
        ["😀", n(2)],
        ["ä", rng.chance(0.3) ? l("NaN") : l("Infinity")],
      ),
  },
  { name: "天気を取得", args: (rng) => o(["都市", s(rng.pick(CITIES))]) },
  { name: "get.weather", args: (rng) => o(["city", s(rng.pick(CITIES))]) },
];

const LANGUAGES = ["en", "en", "en", "de", "fr", "es", "ja", "pt-BR", "zh-Hans"];

interface Gold {
  name: string;
  args: Node;
}

/** Valid random arguments from tests/_corpus.ts (odd keys, surrogates, huge numbers), as text. */
function hostileArgs(rng: Rng): Node {
  for (;;) {
    const t = randomJsonText(rng, { mutationRate: 0, illegalRate: 0, deepRate: 0, bigIntRate: 0 })
      .trim();
    if (!t.startsWith("{")) continue;
    // A UTF-8 file cannot hold a raw lone surrogate; keep the text well formed.
    // Valid JSON has line breaks only as whitespace: make them spaces, for JSONL lines.
    return { k: "raw", v: t.replace(/\p{Surrogate}/gu, "\ufffd").replace(/[\r\n]/g, " ") };
  }
}

function goldCall(rng: Rng, hostile: number): Gold {
  const tool = rng.pick(TOOLS);
  return { name: tool.name, args: rng.chance(hostile) ? hostileArgs(rng) : tool.args(rng) };
}

const plain = (rng: Rng): Style => ({ rng, ws: 0.1, escape: 0, shuffle: false, respell: false });
const inline = (rng: Rng): Style => ({ ...plain(rng), inline: true });

function callNode(name: Node, args: Node): Node {
  return o(["name", name], ["arguments", args]);
}

/** A target that scoring drops, with its drop reason. */
function droppedTarget(rng: Rng, hostile: number): [Node, string] {
  const k = rng.int(10);
  const call = () => {
    const g = goldCall(rng, hostile);
    return callNode(s(g.name), g.args);
  };
  if (k < 4) return [a(...Array.from({ length: 2 + rng.int(3) }, call)), "multiple_calls"];
  if (k < 5) return [a(), "empty_target"];
  const g = goldCall(rng, 0);
  const bad: Node[] = [
    o(["name", s(g.name)]),
    o(["arguments", g.args]),
    o(["name", s("")], ["arguments", g.args]),
    o(["name", n(7)], ["arguments", g.args]),
    o(["name", s(g.name)], ["arguments", s("{}")]),
    o(["name", s(g.name)], ["arguments", a()]),
    o(["name", s(g.name)], ["arguments", g.args], ["id", s("call_0")]),
    a(o(["name", s(g.name)], ["arguments", l("null")])),
    a(a(callNode(s(g.name), g.args))),
    s(g.name),
    l("null"),
    o(),
  ];
  return [rng.pick(bad), "malformed_target"];
}

// ------------------------------------------------------------------ model outputs

const PROSE: Record<string, string[]> = {
  en: [
    "Sure, I can help with that.",
    "Let me call the right tool for you.",
    "Here is the function call you need:",
    "I will look that up now.",
    "Based on your request, the following call should work.",
    "Note: prices are in the local currency.",
    "Let me know if you need anything else!",
    "Thinking about it (step by step): the user wants a single tool call.",
  ],
  de: ["Gerne, hier ist der Aufruf:", "Ich rufe jetzt das Werkzeug auf.", "Viel Spaß in München!"],
  fr: ["Bien sûr, voici l'appel :", "Je vais vérifier la météo.", "Bonne journée à Zürich !"],
  es: ["Claro, aquí está la llamada:", "Voy a buscarlo ahora mismo.", "¡Que tengas un buen día!"],
  ja: ["承知しました。以下がツール呼び出しです。", "天気を確認します。", "よろしくお願いします。"],
  "pt-BR": ["Claro! Aqui está a chamada:", "Vou verificar agora.", "Até mais, São Paulo."],
  "zh-Hans": ["好的，这是函数调用：", "我来查一下。", "祝你愉快！😀"],
};
const STRAY = [
  "[1] ",
  "(see [note]) ",
  "{draft} ",
  "[] ",
  "Options: [a, b]. ",
  '{"thought": "x"} ',
];

function prose(rng: Rng, lang: string, bytes: number): string {
  const pool = PROSE[lang] ?? PROSE.en!;
  let out = "";
  let len = 0;
  for (;;) {
    const next = (out === "" ? "" : " ") + rng.pick(rng.chance(0.7) ? pool : PROSE.en!);
    const n = utf8Length(next);
    // Stop when the next sentence would overshoot by more than half of it: on average, `bytes`.
    if (out !== "" && len + n / 2 > bytes) return out;
    out += next;
    len += n;
  }
}

const encoder = new TextEncoder();
function utf8Length(t: string): number {
  let len = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c < 0x80) len += 1;
    else if (c < 0x800) len += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < t.length) {
      len += 4;
      i++;
    } else len += 3;
  }
  return len;
}

/** A node's children, for picking a place to change. */
function leaves(
  node: Node,
  path: (string | number)[] = [],
  out: [(string | number)[], Node][] = [],
) {
  if (node.k === "o" && node.m.length > 0) {
    for (const [k, v] of node.m) leaves(v, [...path, k], out);
  } else if (node.k === "a" && node.v.length > 0) {
    node.v.forEach((v, i) => leaves(v, [...path, i], out));
  } else out.push([path, node]);
  return out;
}

function replaceAt(node: Node, path: (string | number)[], f: (n: Node) => Node | undefined): Node {
  if (path.length === 0) return f(node) ?? node;
  const [head, ...rest] = path;
  if (node.k === "o") {
    const m: [string, Node][] = [];
    for (const [k, v] of node.m) {
      if (k !== head) m.push([k, v]);
      else {
        const r = rest.length === 0 ? f(v) : replaceAt(v, rest, f);
        if (r !== undefined) m.push([k, r]);
      }
    }
    return { k: "o", m };
  }
  if (node.k === "a") {
    const v: Node[] = [];
    node.v.forEach((x, i) => {
      if (i !== head) v.push(x);
      else {
        const r = rest.length === 0 ? f(x) : replaceAt(x, rest, f);
        if (r !== undefined) v.push(r);
      }
    });
    return { k: "a", v };
  }
  return node;
}

/** Wrong arguments: one or two edits that change the canonical value (or, rarely, not). */
function wrongArgs(rng: Rng, args: Node): Node {
  if (args.k !== "o") return o(["x", n(1)]);
  let out: Node = args;
  const edits = 1 + (rng.chance(0.3) ? 1 : 0);
  for (let e = 0; e < edits; e++) {
    const ls = leaves(out);
    const [path, leaf] = rng.pick(ls);
    const k = rng.int(12);
    if (k === 0 && out.k === "o" && out.m.length > 0) {
      // a missing top-level argument
      const drop = rng.int(out.m.length);
      out = { k: "o", m: out.m.filter((_, i) => i !== drop) };
    } else if (k === 1 && out.k === "o") {
      // an extra argument
      out = { k: "o", m: [...out.m, [rng.pick(["verbose", "city", "extra", "units"]), s("yes")]] };
    } else if (k === 2 && leaf.k === "n") {
      // 1 versus 1.0: an integer written as a float, or a float's fraction dropped
      const v = leaf.v;
      const alt = /[.eE]/.test(v)
        ? (Number.isInteger(Number(v)) && Math.abs(Number(v)) < 1e15 ? String(Number(v)) : v + "1")
        : v + ".0";
      out = replaceAt(out, path, () => n(alt));
    } else if (k === 3 && leaf.k === "n" && /^-?\d{17,}$/.test(leaf.v)) {
      // a big integer off by one in the last digit (a double cannot tell these apart)
      const d = leaf.v;
      const last = Number(d[d.length - 1]);
      out = replaceAt(out, path, () => n(d.slice(0, -1) + String((last + 1) % 10)));
    } else if (k === 4 && leaf.k === "s") {
      out = replaceAt(
        out,
        path,
        () => s(leaf.v.toUpperCase() === leaf.v ? leaf.v + "!" : leaf.v.toUpperCase()),
      );
    } else if (k === 5 && leaf.k === "a" && leaf.v.length === 0) {
      out = replaceAt(out, path, () => o()); // [] versus {}
    } else if (k === 6) {
      out = replaceAt(out, path, () => rng.pick([l("null"), s("null"), l("true"), n(1), s("1")]));
    } else if (k === 7) {
      // a list reordered: indices are part of the path
      const lists = leaves(out).filter(([p]) => typeof p[p.length - 1] === "number");
      if (lists.length > 0) {
        const [p] = rng.pick(lists);
        out = replaceAt(
          out,
          p.slice(0, -1),
          (
            x,
          ) => (x.k === "a"
            ? a(...x.v.slice().reverse(), ...(x.v.length === 1 ? [s("more")] : []))
            : x),
        );
      } else out = replaceAt(out, path, () => s("other"));
    } else if (k === 8 && out.k === "o") {
      // dotted key versus nesting, "0" versus index 0
      out = {
        k: "o",
        m: out.m.map(([key, v]) =>
          key === "a.b" ? ["a", o(["b", v])] : key === "0" ? ["list0", a(v)] : [key, v]
        ),
      };
      if (!out.m.some(([key]) => key === "a")) out = { k: "o", m: [...out.m, ["a.b", n(0)]] };
    } else if (k === 9) {
      out = o(); // everything left out
    } else if (k === 10 && out.k === "o") {
      // a value moved one level down
      out = {
        k: "o",
        m: out.m.map(([key, v], i) => (i === 0 ? [key, o(["value", v])] : [key, v])),
      };
    } else {
      out = replaceAt(out, path, () => n(rng.int(100)));
    }
  }
  return out;
}

function wrongName(rng: Rng, name: string): string {
  const k = rng.int(6);
  if (k === 0) {
    const other = rng.pick(TOOLS).name;
    return other === name ? name + "_v2" : other;
  }
  if (k === 1) return name.toUpperCase() === name ? name + "x" : name.toUpperCase();
  if (k === 2) return "functions." + name;
  if (k === 3) return name + " ";
  if (k === 4) return name.replace(/_/g, "-") === name ? name + "-" : name.replace(/_/g, "-");
  return name.normalize("NFD") === name ? name.slice(0, -1) : name.normalize("NFD");
}

/** A call's text, spelled in one of many equivalent ways. */
function callText(rng: Rng, name: string, args: Node, nameText?: string): string {
  const st: Style = {
    rng,
    ws: rng.pick([0, 0.3, 0.8]),
    escape: rng.pick([0, 0, 0.1, 1]),
    shuffle: rng.chance(0.5),
    respell: rng.chance(0.4),
  };
  const nm: Node = nameText === undefined ? s(name) : { k: "raw", v: nameText };
  let text = write(o(["name", nm], ["arguments", args]), st);
  if (rng.chance(0.03)) {
    // a duplicated key: the first value is overridden by the last
    text = "{" + space(st) + '"name": 0,' + text.slice(1);
  }
  if (rng.chance(0.2)) text = "[" + space(st) + text + space(st) + "]";
  return text;
}

/** An invalid_shape body. */
function wrongShape(rng: Rng, g: Gold): string {
  const st = plain(rng);
  const args = write(g.args, st);
  const name = JSON.stringify(g.name);
  return rng.pick([
    `{"name": ${name}, "arguments": ${args}, "id": "call_1"}`,
    `{"function": ${name}, "arguments": ${args}}`,
    `{"name": ${name}, "parameters": ${args}}`,
    `{"name": ${name}, "arguments": ${JSON.stringify(args)}}`,
    `{"tool_calls": [{"name": ${name}, "arguments": ${args}}]}`,
    `[{"name": ${name}, "arguments": ${args}}, {"name": ${name}, "arguments": ${args}}]`,
    `[]`,
    `[[{"name": ${name}, "arguments": ${args}}]]`,
    `{"name": ${name}}`,
    `{"name": "", "arguments": ${args}}`,
    `{"name": [${name}], "arguments": ${args}}`,
    `{"name": ${name}, "arguments": null}`,
    `{"type": "function", "function": {"name": ${name}, "arguments": ${args}}}`,
    `{}`,
    `[${name}, ${args}]`,
  ]);
}

/** A body with an opening bracket but no valid JSON span. */
function invalidJson(rng: Rng, g: Gold): string {
  const st = plain(rng);
  const args = write(g.args, st);
  const name = JSON.stringify(g.name);
  const good = `{"name": ${name}, "arguments": ${args}}`;
  const k = rng.int(10);
  if (k < 3) return good.slice(0, 1 + rng.int(good.length - 1)); // truncated
  if (k === 3) return good.slice(0, -1) + "]"; // mismatched closer
  if (k === 4) return good.replace(/"/g, "'"); // Python repr
  if (k === 5) return good.replace(/}$/, ",}"); // trailing comma
  if (k === 6) return `{name: ${name}, arguments: ${args}}`; // unquoted keys
  if (k === 7) {
    return good.replace(/true/g, "True").replace(/null/g, "None").replace(/}$/, ', "x": True}');
  }
  if (k === 8) return `{"name": ${name}, // the tool\n"arguments": ${args}}`; // a comment
  return `{"name": "${g.name}\n", "arguments": ${args}}`; // a raw newline inside a string
}

interface OutputPlan {
  kind: string;
  text: string;
}

function modelOutput(rng: Rng, g: Gold, lang: string, bytes: number, fuzz: number): OutputPlan {
  let kind: string;
  let body: string;
  const r = rng.float();
  if (rng.chance(fuzz)) {
    kind = "fuzz";
    body = randomToolCallOutput(rng);
  } else if (r < 0.5) {
    kind = "right_call";
    let nameText: string | undefined;
    if (rng.chance(0.05)) nameText = JSON.stringify(g.name).replace(/_/g, "\\u005f"); // same name
    body = g.args.k === "raw" && rng.chance(0.5)
      ? `{"name": ${JSON.stringify(g.name)}, "arguments": ${g.args.v}}`
      : callText(rng, g.name, g.args, nameText);
  } else if (r < 0.58) {
    kind = "wrong_name";
    body = callText(rng, wrongName(rng, g.name), g.args);
  } else if (r < 0.72) {
    kind = "wrong_args";
    body = callText(
      rng,
      rng.chance(0.85) ? g.name : wrongName(rng, g.name),
      wrongArgs(rng, g.args),
    );
  } else if (r < 0.8) {
    kind = "wrong_shape";
    body = wrongShape(rng, g);
  } else if (r < 0.9) {
    kind = "invalid_json";
    body = invalidJson(rng, g);
  } else if (r < 0.95) {
    kind = "no_json";
    return { kind, text: prose(rng, lang, Math.max(10, bytes * (0.3 + rng.float()))) };
  } else if (r < 0.97) {
    kind = "stray_bracket";
    body = rng.pick(STRAY) + callText(rng, g.name, g.args);
  } else {
    kind = "deep_args";
    // Arguments nested so that the whole call is 511 to 514 containers deep.
    const depth = 509 + rng.int(4);
    body = `{"name": ${JSON.stringify(g.name)}, "arguments": {"x": ${"[".repeat(depth)}1${
      "]".repeat(depth)
    }}}`;
  }
  // Wrap: fences, tags, prose before and after, sized to hit the mean output length.
  if (rng.chance(0.2)) body = "```" + rng.pick(["json", "", "tool_call"]) + "\n" + body + "\n```";
  else if (rng.chance(0.1)) body = "<tool_call>\n" + body + "\n</tool_call>";
  const room = bytes - utf8Length(body);
  if (room > 0 && rng.chance(0.85)) {
    const total = room * (0.5 + rng.float());
    const before = rng.chance(0.6) ? total * rng.float() : 0;
    const pre = before > 8 ? prose(rng, lang, before) + rng.pick(["\n", " ", "\n\n"]) : "";
    const post = total - before > 8
      ? rng.pick(["\n", " ", "\n\n"]) + prose(rng, lang, total - before)
      : "";
    body = pre + body + post;
  }
  return { kind, text: body };
}

// ------------------------------------------------------------------ files

function sha256Hex(text: string): string {
  return createHash("sha256").update(encoder.encode(text)).digest("hex");
}

/**
 * Writes examples.jsonl, generations.jsonl and (unless `prompts: false`) prompts.jsonl into `dir`.
 * Generations and prompts are shuffled relative to the examples; the join is by example_id.
 */
export async function writeScoreCorpus(
  dir: string,
  opts: ScoreCorpusOptions,
): Promise<ScoreCorpusFiles> {
  const rng = makeRng(opts.seed);
  const count = opts.count;
  const bytes = opts.outputBytes ?? 300;
  const dropRate = opts.dropRate ?? 0.04;
  const fuzz = opts.fuzzRate ?? 0.08;
  const hostile = opts.hostileGoldRate ?? 0.03;
  const noise = opts.lineNoise ?? false;
  const prefix = opts.idPrefix ?? `ex${opts.seed}`;
  const examples: string[] = [];
  const generations: string[] = [];
  const prompts: string[] = [];
  const kinds: Record<string, number> = {};
  const roots: { id: string; gold: Gold }[] = [];
  const kindById = opts.trackKinds ? new Map<string, string>() : undefined;
  let dropped = 0;
  let outputBytes = 0;
  for (let i = 0; i < count; i++) {
    const id = rng.chance(0.02)
      ? `${prefix}-ü-${i}`
      : `${prefix}-${i.toString(36).padStart(5, "0")}`;
    const lang = rng.pick(LANGUAGES);
    let gold: Gold | undefined;
    let rootPart = "";
    if (lang !== "en" && roots.length > 0 && rng.chance(0.7)) {
      const root = roots[roots.length - 1 - rng.int(Math.min(roots.length, 50))]!;
      rootPart = `,"root_id":${JSON.stringify(root.id)}`;
      if (rng.chance(0.8)) gold = root.gold; // a translation keeps the call
    } else if (rng.chance(0.5)) rootPart = ',"root_id":null';
    let targetText: string;
    const drop = rng.chance(dropRate);
    if (drop) {
      const [t] = droppedTarget(rng, hostile);
      targetText = write(t, inline(rng));
      dropped++;
    } else {
      gold ??= goldCall(rng, hostile);
      if (lang === "en") roots.push({ id, gold });
      const call = callNode(s(gold.name), gold.args);
      targetText = write(rng.chance(0.1) ? a(call) : call, { ...inline(rng), escape: 0.05 });
      if (targetText.startsWith("{") && rng.chance(0.01)) {
        targetText = '{"arguments": 1, ' + targetText.slice(1); // duplicate key, last wins
      }
    }
    const prompt = `<|system|>You can call tools.<|user|>${id} ${lang} ${
      rng.pick(PROSE[lang] ?? PROSE.en!)
    }<|assistant|>`;
    const sha = sha256Hex(prompt);
    const meta = rng.chance(0.3) ? `,"meta":{"source":"synthetic","difficulty":${rng.int(5)}}` : "";
    const order = rng.int(3);
    const fields = [
      `"example_id":${JSON.stringify(id)}`,
      `"language":${JSON.stringify(lang)}`,
      `"target":${targetText}`,
    ];
    const head = order === 0
      ? fields
      : order === 1
      ? fields.slice().reverse()
      : [fields[1], fields[0], fields[2]];
    examples.push("{" + head.join(",") + rootPart + meta + "}");
    prompts.push(JSON.stringify(
      rng.chance(0.5)
        ? { example_id: id, prompt_sha256: sha, prompt }
        : { example_id: id, prompt_sha256: sha },
    ));
    if (drop && rng.chance(0.3)) continue; // a dropped example may have no generation
    const plan = modelOutput(rng, gold ?? goldCall(rng, 0), lang, bytes, fuzz);
    kinds[plan.kind] = (kinds[plan.kind] ?? 0) + 1;
    kindById?.set(id, plan.kind);
    outputBytes += utf8Length(plan.text);
    generations.push(JSON.stringify({ example_id: id, prompt_sha256: sha, output: plan.text }));
  }
  const write_ = async (name: string, lines: string[]) => {
    const path = `${dir}/${name}`;
    let body: string;
    if (noise) {
      const out: string[] = [];
      for (const line of lines) {
        if (rng.chance(0.01)) out.push(rng.pick(["", "  ", "\t"]));
        out.push(line);
      }
      body = "\ufeff" + out.join("\r\n") + "\r\n\r\n";
    } else body = lines.join("\n") + "\n";
    await Deno.writeFile(path, encoder.encode(body));
    return path;
  };
  const genShuffled = shuffled(rng, generations);
  const files: ScoreCorpusFiles = {
    examples: await write_("examples.jsonl", examples),
    generations: await write_("generations.jsonl", genShuffled),
    rows: { examples: count, generations: generations.length, dropped },
    outputBytes: {
      total: outputBytes,
      mean: generations.length ? outputBytes / generations.length : 0,
    },
    kinds,
  };
  if (kindById) files.kindById = kindById;
  if (opts.prompts !== false) files.prompts = await write_("prompts.jsonl", shuffled(rng, prompts));
  return files;
}

if (import.meta.main) {
  // deno run -A tests/evaluation/_score_corpus.ts DIR SEED COUNT [OUTPUT_BYTES]
  const [dir, seed, count, size] = Deno.args;
  if (!dir || !seed || !count) {
    console.error(
      "usage: deno run -A tests/evaluation/_score_corpus.ts DIR SEED COUNT [OUTPUT_BYTES]",
    );
    Deno.exit(2);
  }
  await Deno.mkdir(dir, { recursive: true });
  const files = await writeScoreCorpus(dir, {
    seed: Number(seed),
    count: Number(count),
    outputBytes: size ? Number(size) : 300,
  });
  console.log(JSON.stringify(files, null, 2));
}
