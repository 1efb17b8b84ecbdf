// The decoders against a table of our own: FC results as json.loads reads them, prompting
// results as BFCL's ast_parse reads them (Python's own verdicts on these inputs, checked by hand
// with CPython 3.11), and every refusal as data with its reason.
import { strictEqual } from "node:assert/strict";
import {
  decodeFcResult,
  decodePromptResult,
  decoderForModel,
  PyDict,
  pyRepr,
} from "../../src/bfcl/mod.ts";

function fc(args: string): string {
  const r = decodeFcResult([new PyDict([["f", args]])]);
  return r.ok ? pyRepr(r.value) : `fail: ${r.reason}`;
}

Deno.test("decodeFcResult() reads the arguments as json.loads does, int apart from float", () => {
  const cases: [string, string][] = [
    ['{"a": 1, "b": 1.0, "c": 1e2, "d": -0}', "[{'f': {'a': 1, 'b': 1.0, 'c': 100.0, 'd': 0}}]"],
    ['{"b": 2, "a": 1}', "[{'f': {'b': 2, 'a': 1}}]"],
    ['{"a": 1, "a": 2, "b": 3}', "[{'f': {'a': 2, 'b': 3}}]"],
    [
      '{"x": [true, null, "s"], "y": {"k": NaN}}',
      "[{'f': {'x': [True, None, 's'], 'y': {'k': nan}}}]",
    ],
    ['{"n": 123456789012345678901234567890}', "[{'f': {'n': 123456789012345678901234567890}}]"],
    [
      '{"a": 1,}',
      "fail: Expecting property name enclosed in double quotes: line 1 column 9 (char 8)",
    ],
    ['{\n  "x": tru}', "fail: Expecting value: line 2 column 8 (char 9)"],
    ["[1, 2]", "[{'f': [1, 2]}]"],
  ];
  for (const [args, want] of cases) strictEqual(fc(args), want, args);
});

Deno.test("decodeFcResult() fails on prose and malformed items, as iterating them does in Python", () => {
  strictEqual(decodeFcResult("Sorry, no function fits.").ok, false);
  const empty = decodeFcResult("");
  strictEqual(empty.ok && pyRepr(empty.value), "[]");
  strictEqual(decodeFcResult([new PyDict()]).ok, false);
  strictEqual(decodeFcResult([["f", "{}"]]).ok, false);
  strictEqual(decodeFcResult([new PyDict([["f", new PyDict()]])]).ok, false);
  strictEqual(decodeFcResult(null).ok, false);
});

function prompt(text: string, decoder: "gpt" | "gorilla" | "llama" | "mistral" | "claude" = "gpt") {
  const r = decodePromptResult(text, decoder);
  return r.ok ? pyRepr(r.value) : "fail";
}

Deno.test("decodePromptResult() reads keyword arguments of Python's literal subset", () => {
  const cases: [string, string][] = [
    ["[a.b.c(x=1, y=-2.5, z='s')]", "[{'a.b.c': {'x': 1, 'y': -2.5, 'z': 's'}}]"],
    [
      "[f(x=True, y=None, z=[1, (2, 3)], w={'k': 'v'})]",
      "[{'f': {'x': True, 'y': None, 'z': [1, (2, 3)], 'w': {'k': 'v'}}}]",
    ],
    ['[f(x=name, y="it\'s")]', "[{'f': {'x': 'name', 'y': \"it's\"}}]"],
    ["[f(x='a' 'b', y=r'\\d', z='\\x41\\n')]", "[{'f': {'x': 'ab', 'y': '\\\\d', 'z': 'A\\n'}}]"],
    ["[f(x=1_000, y=0x1F, z=1e3, w=.5)]", "[{'f': {'x': 1000, 'y': 31, 'z': 1000.0, 'w': 0.5}}]"],
    ["[f(1, 2, x=3)]", "[{'f': {'x': 3}}]"],
    ["[f(x=g(y=1))]", "[{'f': {'x': {'g': {'y': 1}}}}]"],
    ["[f(x=g(1, 2))]", "[{'f': {'x': 'g(1, 2)'}}]"],
    ["[f(x=data['k'])]", "[{'f': {'x': \"data['k']\"}}]"],
    ["[f(x=-True)]", "[{'f': {'x': -1}}]"],
    // An operator expression of literals: what BFCL's eval(ast.unparse(...)) gives.
    ["[f(x=1+2, y=2**-1, z=10/4, w=-7//2)]", "[{'f': {'x': 3, 'y': 0.5, 'z': 2.5, 'w': -4}}]"],
    ["[f(x='a'*2 + 'b', y=[1]*2)]", "[{'f': {'x': 'aab', 'y': [1, 1]}}]"],
    // Equal keys are one key, tuples of equal items too; the first keeps its place and spelling.
    [
      "[f(x={(1,): 'a', (1.0,): 'b', (True, 'x'): 1, (1, 'x'): 2})]",
      "[{'f': {'x': {(1,): 'b', (True, 'x'): 2}}}]",
    ],
    ["[f()]", "['f()']"],
    ["[f(x=1, y=0, x=2)]", "[{'f': {'x': 2, 'y': 0}}]"],
    ["[f(x=1, **{None: 1})]", "[{'f': {'x': 1, None: {None: 1}}}]"],
    ["\n[f(x=1)]\n", "[{'f': {'x': 1}}]"],
    ["[f(x=1), # a comment\n g(y=2)]", "[{'f': {'x': 1}}, {'g': {'y': 2}}]"],
  ];
  for (const [text, want] of cases) strictEqual(prompt(text), want, text);
});

Deno.test("decodePromptResult() refuses what BFCL's decoder cannot read, and evaluates no name or call", () => {
  const refused = [
    "[f(x=a+1)]", // BFCL's eval looks `a` up (NameError here; a builtin would be found): refused
    "[f(x=abs(-2)*3)]", // BFCL's eval calls abs: not evaluated here
    "[f(x=1/0)]", // ZeroDivisionError, in BFCL's eval too
    "[f(x=lambda y: y)]",
    "[f(x={1, 2})]",
    "[f(x=f'{a}')]",
    "[f(x=-y)]",
    "[f(x=a.b)]",
    "[f(x=1 if c else 2)]",
    "[f(x=[i for i in y])]",
    "[f(x=012)]",
    "[f(x=1, 2)]",
    "[f(x='unterminated)]",
    "[1, f(x=1)]",
    " [f(x=1)]",
    "[f(x=1)]\n  ",
    "f(x=1)",
    "[f(x=1)] [g(y=2)]",
    "[f(x=1)\n",
    "[f(x={**a})]",
  ];
  for (const text of refused) strictEqual(prompt(text), "fail", text);
});

Deno.test("decodePromptResult() applies each handler's clean-up before parsing", () => {
  strictEqual(prompt("f(x=1)", "gorilla"), "[{'f': {'x': 1}}]");
  strictEqual(prompt("f(x=1), g(y=2)", "gorilla"), "[{'f': {'x': 1}}, {'g': {'y': 2}}]");
  strictEqual(prompt("\n\nf(x=1)", "llama"), "[{'f': {'x': 1}}]");
  strictEqual(prompt("[f(x='a\\_b')]", "mistral"), "[{'f': {'x': 'a_b'}}]");
  strictEqual(prompt(" f(x=1)", "claude"), "[{'f': {'x': 1}}]");
  strictEqual(prompt("```\n[f(x=1)]\n```", "mistral"), "fail");
  strictEqual(prompt("f(x=1)", "gpt"), "fail");
});

Deno.test("decoderForModel() knows BFCL's FC naming and the five prompting handlers", () => {
  strictEqual(decoderForModel("mistral-large-2407-FC-Any"), "fc");
  strictEqual(decoderForModel("mistral-large-2407"), "mistral");
  strictEqual(decoderForModel("meta-llama/Meta-Llama-3-70B-Instruct"), "llama");
  strictEqual(decoderForModel("unknown-model"), undefined);
});

Deno.test("an empty Claude text fails to decode (BFCL's handler reads func[0]: IndexError)", () => {
  for (const language of ["Python", "Java", "JavaScript"] as const) {
    const r = decodePromptResult("", "claude", language);
    strictEqual(r.ok ? "ok" : r.reason, "string index out of range", language);
  }
  // Llama's and Mistral's handlers add the brackets to it; a space alone is Claude's "[]".
  strictEqual(prompt("", "llama"), "[]");
  strictEqual(prompt(" ", "claude"), "[]");
});
