// The Java and JavaScript call readers (BFCL's decoding of prompting models' java and javascript
// results) against a table of our own. Each expected value was checked with BFCL's rules applied
// to the trees of tree-sitter-java 0.23.5 and tree-sitter-javascript 0.23.1 (the texts are the
// gpt handler's: BFCL drops their first and last characters before parsing).
import { strictEqual } from "node:assert/strict";
import { decodePromptResult, pyRepr } from "../../src/bfcl/mod.ts";

function decode(text: string, language: "Java" | "JavaScript"): string {
  const r = decodePromptResult(text, "gpt", language);
  return r.ok ? pyRepr(r.value) : `fail: ${r.reason}`;
}

const JAVA: [string, string][] = [
  [
    `[Foo.bar(a="x", b='y', c='abc', d=5, e=5L, f=1.5f, g=true, h=null, i=0x1F)]`,
    "[{'Foo.bar': {'a': 'x', 'b': 'y', 'c': 'abc', 'd': '5', 'e': '5L', 'f': '1.5f', 'g': 'true', 'h': 'null', 'i': '0x1F'}}]",
  ],
  [
    '[f(a=new int[]{1, 2}, b=new String[]{"p", "q"}, c=new int[][]{{1}, {2, 3}})]',
    "[{'f': {'a': 'new int[]{1,2}', 'b': 'new String[]{\"p\",\"q\"}', 'c': 'new int[]{{1},{2,3}}'}}]",
  ],
  [
    '[f(a=new ArrayList<>(Arrays.asList("a", "b")), b=new ArrayList<String>())]',
    "[{'f': {'a': 'new ArrayList<>(Arrays.asList(\"a\", \"b\"))', 'b': 'new ArrayList<String>()'}}]",
  ],
  [
    '[f(m=new HashMap<String, List<String>>() {{ put("k", 1); }})]',
    "[{'f': {'m': 'new HashMap<String,List<String>>()'}}]",
  ],
  [
    "[f(x=-5, y=a.b.c, z=1 + 2, w=(int) 3, v=a ? b : c)]",
    "[{'f': {'x': '-5', 'y': 'a.b.c', 'z': '1+2', 'w': '(int)3', 'v': 'a?b:c'}}]",
  ],
  ["[f(x=String.class, y)]", "[{'f': {'x': 'String.class', None: 'y'}}]"],
  ["[f(a, b)]", "fail: Error: Multiple arguments with the same name are not supported."],
  ["[f(x=1, x=2)]", "fail: Error: Multiple arguments with the same name are not supported."],
  ["[f(x=new int[3])]", "fail: 'NoneType' object has no attribute 'type'"],
  ["[f(x=[1, 2])]", "fail: Error parsing java the source code."],
  ["[f(x={1, 2})]", "fail: Error parsing java the source code."],
  ["[a.b(x=1); c.d(y=2)]", "[{'a.b': {'x': '1'}}]"],
  ["[x = g(y=1)]", "[{'g': {'y': '1'}}]"],
  ["[Here is no call]", "{}"],
  ["[f(x=1)", "fail: Error parsing java the source code."],
  ["[a.b(1).c(x=2)]", "[{'a.b(1).c': {'x': '2'}}]"],
  [`[f(x = "a\\"b", y=' ')]`, "[{'f': {'x': 'a\\\\\"b', 'y': ' '}}]"],
  ['[f(x=g(y=1), z=new Foo(1, "s"))]', "[{'f': {'x': 'g(y=1)', 'z': 'new Foo(1, \"s\")'}}]"],
  ["[f(x=a -> a + 1, y=Foo::bar)]", "[{'f': {'x': 'a->a+1', 'y': 'Foo::bar'}}]"],
  ["[f(s='')]", "fail: Error parsing java the source code."],
  ["[[f(x=1)]]", "[{'f': {'x': '1'}}]"],
  ["[f(x=1), g(y=2)]", "fail: Error parsing java the source code."],
  [
    `[f(x=1) // why
]`,
    "[{'f': {'x': '1'}}]",
  ],
  [
    "[f(x=1.5, y=1e3, z=.5, w=1_000)]",
    "[{'f': {'x': '1.5', 'y': '1e3', 'z': '.5', 'w': '1_000'}}]",
  ],
  ['[f(x="unclosed)]', "fail: Error parsing java the source code."],
  ["[]", "{}"],
];

const JAVASCRIPT: [string, string][] = [
  [
    `[f(a='x', b="y", c=5, d=[1, 2], e={k: 1}, g=true, h=null, i=undefined)]`,
    "[{'f': {'a': 'x', 'b': 'y', 'c': '5', 'd': '[1, 2]', 'e': '{k: 1}', 'g': 'true', 'h': 'null', 'i': 'undefined'}}]",
  ],
  [`[f(a='x' + 'y', b="it's")]`, "[{'f': {'a': \"x' + 'y\", 'b': \"it's\"}}]"],
  ["[f(true, n=1)]", "[{'f': {None: 'true', 'n': '1'}}]"],
  ["[f(x, y)]", "fail: Error: Multiple arguments with the same name are not supported."],
  ["[f(x=1), g(y=2)]", "None"],
  [
    `[f(x=1)
g(y=2)]`,
    "[{'f': {'x': '1'}}]",
  ],
  ["[obj.f(x=1)]", "[{'obj.f': {'x': '1'}}]"],
  ["[f(x=1 if y else 2)]", "fail: Error js parsing the source code."],
  [
    `[f(x=y => y * 2, z=\`t\${a}\`, w=async () => 1)]`,
    "[{'f': {'x': 'y => y * 2', 'z': '`t${a}`', 'w': 'async () => 1'}}]",
  ],
  ["[f(x=5L)]", "fail: Error js parsing the source code."],
  ["[f(x+=1, y=2)]", "[{'f': {'y': '2'}}]"],
  ["[{'name': 'f', 'arguments': {'x': 1}}]", "None"],
  ["[f(x=1, x=2)]", "fail: Error: Multiple arguments with the same name are not supported."],
  ["[new F(x=1)]", "None"],
  ["[f(a=1)(b=2)]", "[{'f(a=1)': {'b': '2'}}]"],
  ["[x = f(a=1)]", "None"],
  ["[f(x=10n, y=0x1F, z=-1.5e3)]", "[{'f': {'x': '10n', 'y': '0x1F', 'z': '-1.5e3'}}]"],
  [
    "[f(x=[1, [2, 3]], y={'a': {'b': [1]}}, z=[...a])]",
    "[{'f': {'x': '[1, [2, 3]]', 'y': \"{'a': {'b': [1]}}\", 'z': '[...a]'}}]",
  ],
  ["[f(x=function () { return 1; })]", "[{'f': {'x': 'function () { return 1; }'}}]"],
  ["[f(x=1) g(y=2)]", "fail: Error js parsing the source code."],
  ["[f(x=1);]", "[{'f': {'x': '1'}}]"],
  ["[f(x='a)]", "fail: Error js parsing the source code."],
  ["[]", "None"],
];

Deno.test("decodePromptResult(..., 'Java') reads the first method invocation, values as BFCL's strings", () => {
  for (const [text, want] of JAVA) strictEqual(decode(text, "Java"), want, text);
});

Deno.test("decodePromptResult(..., 'JavaScript') reads the first call statement, values as written", () => {
  for (const [text, want] of JAVASCRIPT) strictEqual(decode(text, "JavaScript"), want, text);
});

Deno.test("a code fence is a tagged template for BFCL's JavaScript parser (mistral-large-2407)", () => {
  // The handler adds the missing brackets, BFCL drops them again, and ``` + `json...` + ``
  // parse as two tagged templates: the callee is all but the last two backticks.
  const r = decodePromptResult("```json\n[f(x=1)]\n```", "mistral", "JavaScript");
  strictEqual(r.ok && pyRepr(r.value), "[{'```json\\n[f(x=1)]\\n`': {}}]");
});

Deno.test("no nesting crashes the Java and JavaScript readers: past their limits a text fails to decode", () => {
  const n = 100_000;
  const deep = "fail: nested too deeply for this reader";
  const parens = (k: number) => `[f(a=${"(".repeat(k)}1${")".repeat(k)})]`;
  for (const language of ["Java", "JavaScript"] as const) {
    // 500 nested parts: a parenthesis costs two (its expression and its operand), and the call
    // around it three.
    strictEqual(
      decode(parens(247), language),
      "[{'f': {'a': '" + "(".repeat(247) + "1" + ")".repeat(247) + "'}}]",
    );
    strictEqual(decode(parens(248), language), deep, language);
    for (
      const t of [
        parens(n),
        `[f(a=${"-".repeat(n)}1)]`.replaceAll("--", "- -"),
        `[f(a=${"!".repeat(n)}x)]`,
        `[f(a=${"g(".repeat(n)}${")".repeat(n)})]`,
        `[f(a=${"c ? b : ".repeat(n)}1)]`,
      ]
    ) {
      strictEqual(decode(t, language), deep, `${language} ${t.slice(0, 20)}`);
    }
  }
  // Java's first invocation and its values are found by walking the tree, as BFCL walks it (in
  // Python, recursively): a tree over 1,000 levels fails. JavaScript reads only the top of it.
  const sum = `[f(a=1${"+1".repeat(n)})]`;
  strictEqual(decode(sum, "Java"), deep);
  strictEqual(decode(sum, "JavaScript"), `[{'f': {'a': '1${"+1".repeat(n)}'}}]`);
  strictEqual(decode(`[f(a=new int[]${"{".repeat(n)}${"}".repeat(n)})]`, "Java"), deep);
  strictEqual(decode(`[f(a=${"x => ".repeat(n)}1)]`, "JavaScript"), deep);
  strictEqual(decode(`[f(a=${"[".repeat(n)}${"]".repeat(n)})]`, "JavaScript"), deep);
  strictEqual(decode(`[f(a=${"2 ** ".repeat(n)}2)]`, "JavaScript"), deep);
});
