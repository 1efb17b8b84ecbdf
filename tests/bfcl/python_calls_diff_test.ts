// Differential test: decodePromptResult() against CPython's ast.parse on seeded texts of Python
// calls, read by BFCL's rules (tests/bfcl/_python_calls_oracle.py, run by /usr/bin/python3): the
// same texts must decode, to the same values (int, float, str, bool, None, list, tuple, dict and
// each call's source text), and the same must fail.
//
// Needs --allow-run (python3) and --allow-read.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { decodePromptResult } from "../../src/bfcl/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { runLineOracle } from "../_debian_python.ts";
import { typed } from "./_python_typed.ts";

const SEED = 0x0bfc1;
const COUNT = 8000;
const ORACLE = new URL("./_python_calls_oracle.py", import.meta.url).pathname;

// Names past ASCII too: CPython reads a name NFKC-normalized (`ｆｕｎｃ` is `func`, `Ｔrue` the
// name `True`, not the constant), with Unicode 14's identifier classes.
const NAMES = [
  "f",
  "math.sqrt",
  "a.b.c",
  "x_1",
  "data",
  "True",
  "None",
  "lambda",
  "ñame",
  "ｆｕｎｃ",
  "ﬁle.ｒｅａｄ",
  "\u{1d431}_\u{1d7cf}",
  "Ｔrue",
  "ﾀﾞ",
  "x·y",
  "℘",
];
const KEYWORDS = ["a", "b", "c", "x", "number", "a", "ｘ", "ª", "ﬁ", "ｂ"];
const STRINGS = [
  "'a'",
  '"b c"',
  "'it\\'s'",
  '"q\\"q"',
  "'''tri\nple'''",
  '"""x"y"""',
  "r'\\d+'",
  "b'by'",
  "u'uni'",
  "f'{x}'",
  "rb'\\x00'",
  "'\\x41\\n\\t'",
  "'\\u00e9\\U0001F600'",
  "'\\101\\7'",
  "'\\q'",
  "'a' 'b'",
  "'a' b'b'",
  "'unterminated",
  "'line\nbreak'",
  "'é'",
  "'\\\nx'",
  "''",
];
const NUMBERS = [
  "0",
  "7",
  "42",
  "1_000",
  "0x1F",
  "0o17",
  "0b101",
  "012",
  "00",
  "1.5",
  ".5",
  "5.",
  "1e5",
  "1E-3",
  "1_0.5e-1_0",
  "1e400",
  "2j",
  "1.5J",
  "123456789012345678901234567890",
  "0.1",
  "1__0",
  "1.e2",
  "9007199254740993",
  "4.35",
  "1e22",
];

function value(r: Rng, depth: number): string {
  const k = r.int(depth > 2 ? 4 : 14);
  switch (k) {
    case 0:
      return r.pick(NUMBERS);
    case 1:
      return r.pick(STRINGS);
    case 2:
      return r.pick(["True", "False", "None", "..."]);
    case 3:
      return r.pick(NAMES).split(".")[0]!;
    case 4:
      return r.pick(["-", "+", "~", "not ", "- "]) +
        (r.chance(0.8) ? r.pick(NUMBERS) : r.pick(["x", "'s'", "None", "True", "-1", "(1)"]));
    case 5:
      return `[${list(r, depth)}]`;
    case 6:
      return r.chance(0.2) ? `(${value(r, depth + 1)},)` : `(${list(r, depth)})`;
    case 7:
      return `{${
        Array.from({ length: r.int(3) }, () => `${value(r, depth + 1)}: ${value(r, depth + 1)}`)
          .join(", ")
      }}`;
    case 8:
      return call(r, depth + 1);
    case 9:
      return `${value(r, depth + 1)} ${
        r.pick(["+", "-", "*", "/", "**", "%", "//", "<", "and", "if x else"])
      } ${value(r, depth + 1)}`;
    case 10:
      return r.pick([
        "lambda x: x",
        "data['k']",
        "a[1:2]",
        "a[::2, b]",
        "a.b",
        "{1, 2}",
        "[i for i in y]",
        "*a",
        "x := 1",
      ]);
    case 11:
      return r.chance(0.5)
        ? `(${value(r, depth + 1)})`
        : `(${value(r, depth + 1)} ${r.pick(["+", "**", "or", "<", "if y else"])} ${
          value(r, depth + 1)
        }) ${r.pick(["*", "**", "and", "-", "is not"])} ${value(r, depth + 1)}`;
    case 12:
      return r.pick(["{**a}", "{'a': 1, **b}", "f(*a)", "g(**k)", "h(x=1)(y=2)"]);
    default:
      return r.pick(NUMBERS);
  }
}

function list(r: Rng, depth: number): string {
  const items = Array.from({ length: r.int(4) }, () => value(r, depth + 1));
  return items.join(r.pick([", ", ",", " , ", ",\n  "])) + (r.chance(0.1) ? "," : "");
}

function call(r: Rng, depth: number): string {
  const args: string[] = [];
  const n = r.int(4);
  const used = new Set<string>();
  for (let i = 0; i < n; i++) {
    if (r.chance(0.2)) args.push(value(r, depth + 1));
    else {
      const name = r.pick(KEYWORDS);
      if (used.has(name) && r.chance(0.7)) continue;
      used.add(name);
      args.push(`${name}${r.pick(["=", " = ", "="])}${value(r, depth + 1)}`);
    }
  }
  return `${r.pick(NAMES)}(${args.join(r.pick([", ", ",", ",\n"]))}${r.chance(0.1) ? "," : ""})`;
}

function text(r: Rng): string {
  const calls = Array.from({ length: 1 + r.int(3) }, () => call(r, 0));
  let t = `[${calls.join(r.pick([", ", ",", ",\n", ", # c\n"]))}]`;
  const m = r.int(12);
  if (m === 0) t = " " + t;
  else if (m === 1) t = "\n" + t + "\n";
  else if (m === 2) t = t + "\n  ";
  else if (m === 3) t = t.slice(1);
  else if (m === 4) t = t + " # done";
  else if (m === 5) t = t.replace("(", "( ");
  else if (m === 6) t = t + "`";
  else if (m === 7) t = t.replace(",", "\\\n,");
  return t;
}

const TARGETED = [
  "[f(x=1)]",
  "[f(x=-True)]",
  "[f(x=not 0)]",
  "[f(x=~5)]",
  "[f(x=--5)]",
  "[f(x=-'s')]",
  "[f(x=1, x=2)]",
  "[f(x=1, 2)]",
  "[f(*a, x=1)]",
  "[f(x=1, **{None: 1})]",
  "[f(x={**a})]",
  "[f(x=g(1, y=2))]",
  "[f(x=g(1, 2))]",
  "[f(x=g())]",
  "[f()]",
  "(f(x=1), g(y=2))",
  "{f(x=1)}",
  "f(x=1)",
  "[f(x=1)] [0]",
  "[f(x=1e400, y=-1e400)]",
  "[f(x=0.1 + 0.2)]",
  // Stars: an argument's or a subscript's takes a whole expression; `(*a)` is no tuple.
  "[f(x=a[*b < c])]",
  "[f(x=a[*b])]",
  "[f(x=a[1:2, *b])]",
  "[f(x=a[*b:c])]",
  "[f(x=g(*a if b else c))]",
  "[f(x=g(**a, *b))]",
  "[f(x=(*a))]",
  "[f(x=[(*a)])]",
  "[f(x=(*a,))]",
  "[f(x=())]",
  // Slices are read and written again as ast.unparse writes them.
  "[f(x=a[ 1 : 2 ])]",
  "[f(x=a[1:2, c])]",
  "[f(x=a[:, 0])]",
  "[f(x=a[::])]",
  "[f(x=a[(1)+2::-1])]",
  "[f(x=a[(y:=1):2])]",
  "[f(x=a[y:=1:2])]",
  "[f(x=a[y:=1])]",
  "[f(x=a[b,])]",
  "[f(x=a[1:2:3:4])]",
  // A construct kept as its source ends at its last token, not at a comment or a line break.
  "[g([i for i in y] # c\n)]",
  "[g([i for i in y]\\\n,)]",
  "[g(i for i in y \\\n)]",
];

Deno.test("decodePromptResult() decodes and refuses exactly what CPython's ast.parse and BFCL's rules do", async () => {
  const r = makeRng(SEED);
  const texts = [...TARGETED, ...Array.from({ length: COUNT }, () => text(r))];
  const answers = await runLineOracle([ORACLE], texts.map((t) => JSON.stringify({ text: t })));
  const differ: string[] = [];
  let decoded = 0;
  texts.forEach((t, i) => {
    const want = JSON.parse(answers[i]!);
    const got = decodePromptResult(t, "gpt");
    const mine = got.ok ? { ok: true, value: typed(got.value) } : { ok: false };
    if (want.ok) decoded++;
    if (JSON.stringify(mine) !== JSON.stringify(want)) {
      differ.push(
        `${JSON.stringify(t)}: ours ${JSON.stringify(mine)} python ${JSON.stringify(want)}`,
      );
    }
  });
  console.log(
    `${texts.length - differ.length}/${texts.length} agree (${decoded} decode in Python)`,
  );
  assertEquals(differ.slice(0, 20), []);
});
