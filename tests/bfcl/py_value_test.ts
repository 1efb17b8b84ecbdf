// Python's ==, type(), repr() and json.dumps over PyValue, and checkBfcl()'s named input errors.
import { strictEqual, throws } from "node:assert/strict";
import {
  checkBfcl,
  PyDict,
  pyEquals,
  PyFloat,
  PyInt,
  pyJsonDumps,
  pyRepr,
  PyTuple,
  pyType,
} from "../../src/bfcl/mod.ts";
import { InputError } from "../../src/jsonl/mod.ts";
import { standardize } from "../../src/bfcl/_value_checks.ts";
import { runLineOracle } from "../_debian_python.ts";

const int = (n: number) => new PyInt(BigInt(n));

Deno.test("pyEquals() is Python's ==: numbers across types, containers by type", () => {
  strictEqual(pyEquals(int(1), new PyFloat(1)), true);
  strictEqual(pyEquals(true, int(1)), true);
  strictEqual(pyEquals(false, new PyFloat(0)), true);
  strictEqual(pyEquals(int(1), new PyFloat(1.5)), false);
  strictEqual(pyEquals(new PyFloat(NaN), new PyFloat(NaN)), false);
  strictEqual(pyEquals(new PyInt(2n ** 60n + 1n), new PyFloat(2 ** 60)), false);
  strictEqual(pyEquals([int(1)], new PyTuple([int(1)])), false);
  strictEqual(
    pyEquals(new PyDict([["a", int(1)], ["b", "x"]]), new PyDict([["b", "x"], ["a", true]])),
    true,
  );
  strictEqual(pyEquals("1", int(1)), false);
  strictEqual(pyEquals(null, null), true);
});

Deno.test("pyType() tells bool, int and float apart", () => {
  strictEqual(
    [true, int(1), new PyFloat(1), "s", null, [], new PyTuple([]), new PyDict()].map(pyType).join(),
    "bool,int,float,str,NoneType,list,tuple,dict",
  );
});

Deno.test("pyRepr() and pyJsonDumps() write values as Python does", () => {
  const d = new PyDict([["é", [new PyFloat(1e16), new PyFloat(0.1), int(-3), null, false]], [
    "t",
    new PyTuple([int(1)]),
  ]]);
  strictEqual(pyRepr(d), "{'é': [1e+16, 0.1, -3, None, False], 't': (1,)}");
  strictEqual(pyJsonDumps(d), '{"\\u00e9": [1e+16, 0.1, -3, null, false], "t": [1]}');
  strictEqual(pyRepr("a'b\"c\n"), "'a\\'b\"c\\n'");
  strictEqual(pyRepr(new PyFloat(Infinity)), "inf");
  strictEqual(pyJsonDumps(new PyFloat(Infinity)), "Infinity");
  // A later equal key keeps the first key's place, as a Python dict does.
  strictEqual(pyRepr(new PyDict([[int(1), "a"], ["x", "b"], [true, "c"]])), "{1: 'c', 'x': 'b'}");
});

Deno.test("checkBfcl() names the file, line and id of bad input", () => {
  const results = (text: string) => ({ results: { name: "r.json", text } });
  throws(
    () =>
      checkBfcl(results('{"id": "relevance_0", "result": "x"}\n{oops\n'), {
        category: "relevance",
      }),
    (e: unknown) => e instanceof InputError && /^r\.json:2: not JSON/.test((e as Error).message),
  );
  throws(
    () => checkBfcl(results('{"id": "relevance_7"}\n'), { category: "relevance" }),
    (e: unknown) =>
      e instanceof InputError && (e as Error).message === 'r.json:1: no "result" (id relevance_7)',
  );
  const q = { name: "q.json", text: '{"id": "simple_0", "function": {}}\n' };
  const a = { name: "a.json", text: "" };
  throws(
    () =>
      checkBfcl({ questions: q, answers: a, ...results('{"id": "simple_0", "result": []}\n') }, {
        category: "simple",
      }),
    /a\.json: 0 lines, but r\.json has 1/,
  );
  // BFCL pairs the lines by position: results in another order, or a repeated id, are refused
  // rather than scored against other questions.
  const q2 = {
    name: "q.json",
    text: '{"id": "simple_0", "function": {}}\n{"id": "simple_1", "function": {}}\n',
  };
  const a2 = {
    name: "a.json",
    text: '{"id": "simple_0", "ground_truth": {}}\n{"id": "simple_1", "ground_truth": {}}\n',
  };
  throws(
    () =>
      checkBfcl({
        questions: q2,
        answers: a2,
        ...results('{"id": "simple_1", "result": []}\n{"id": "simple_0", "result": []}\n'),
      }, { category: "simple" }),
    (e: unknown) =>
      e instanceof InputError &&
      (e as Error).message ===
        "r.json:1: id simple_1, but line 1 of q.json is simple_0: BFCL pairs the files' lines in " +
          "order (simple_1 is q.json:2: the results are in another order; write them in q.json's)",
  );
  throws(
    () =>
      checkBfcl(
        results('{"id": "relevance_0", "result": "x"}\n{"id": "relevance_0", "result": "y"}\n'),
        { category: "relevance" },
      ),
    (e: unknown) =>
      e instanceof InputError &&
      (e as Error).message === "r.json:2: id relevance_0 again (line 1)",
  );
  throws(
    () => checkBfcl(results(""), { category: "relevance" }),
    (e: unknown) =>
      e instanceof InputError && (e as Error).message === "r.json: no entry in the file",
  );
});

Deno.test("pyRepr(), pyJsonDumps() and BFCL's string standardization are CPython 3.11's on every code point", async () => {
  // Every code point, 64 to a text, and lone surrogates; Python's repr() escapes what
  // str.isprintable() refuses and lower() has Unicode 14's case, whatever the runtime's Unicode.
  const texts: string[] = ["\ud800", "a\udfffb", "it's", "\"q'", "\\"];
  for (let a = 0; a < 0x110000; a += 64) {
    const cps = Array.from({ length: 64 }, (_, i) => a + i).filter((c) => c < 0xd800 || c > 0xdfff);
    if (cps.length > 0) texts.push(String.fromCodePoint(...cps));
  }
  const script = `
import json, re, sys
for line in sys.stdin:
    t = json.loads(line)
    print(json.dumps([repr(t), re.sub(r"[ ,./\\-_*^]", "", t).lower().replace("'", '"'), json.dumps(t)]))
`;
  const python = await runLineOracle(["-c", script], texts.map((t) => JSON.stringify(t)));
  const differ = texts.flatMap((t, i) => {
    const [repr, std, dumps] = JSON.parse(python[i]!) as [string, string, string];
    const at = `U+${t.codePointAt(0)!.toString(16)}`;
    return [
      ...(pyRepr(t) === repr
        ? []
        : [`${at}: repr ${pyRepr(t).slice(0, 80)} != ${repr.slice(0, 80)}`]),
      ...(standardize(t) === std ? [] : [`${at}: standardize differs`]),
      ...(pyJsonDumps(t) === dumps ? [] : [`${at}: json.dumps differs`]),
    ];
  });
  strictEqual(differ.slice(0, 10).join("\n"), "");
  strictEqual(texts.length, 17381);
});
