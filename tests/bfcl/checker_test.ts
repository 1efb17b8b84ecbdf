// checkBfclEntry() rule by rule, on small questions of our own: each of BFCL's error types, the
// Python type rules, the string standardisation, the greedy parallel matching and the name rewrite.
import { strictEqual } from "node:assert/strict";
import {
  type BfclCategory,
  checkBfclEntry,
  PyDict,
  PyFloat,
  PyInt,
  type PyValue,
} from "../../src/bfcl/mod.ts";

const int = (n: number) => new PyInt(BigInt(n));
const float = (n: number) => new PyFloat(n);
const dict = (o: Record<string, PyValue>) => new PyDict(Object.entries(o));

/** A function doc: each parameter's declared type (and item type after a colon). */
function fn(name: string, params: Record<string, string>, required: string[]): PyDict {
  const props = Object.entries(params).map(([p, t]) => {
    const [type, items] = t.split(":");
    const d = dict({ type: type! });
    if (items) d.set("items", dict({ type: items }));
    return [p, d] as const;
  });
  return dict({
    name,
    parameters: dict({ type: "dict", properties: new PyDict(props), required }),
  });
}

/** The verdict of one FC result: `pass` or the error type. */
function verdict(
  docs: PyValue,
  answer: PyDict,
  calls: [string, string][],
  category: BfclCategory = "simple",
  underscoreToDot = false,
): string {
  const result = calls.map(([name, args]) => dict({ [name]: args }));
  const v = checkBfclEntry(
    { question: dict({ function: docs }), possibleAnswer: answer, result },
    { category, underscoreToDot },
  );
  return v.valid ? "pass" : v.errorType!;
}

const area = fn("geo.area", { base: "integer", unit: "string", scale: "float" }, ["base"]);
const areaAnswer = dict({
  "geo.area": dict({ base: [int(10)], unit: ["units", ""], scale: ["", float(1)] }),
});
const simple = (args: string) => verdict(area, areaAnswer, [["geo.area", args]]);

Deno.test("checkBfclEntry() checks names, required, unexpected and optional parameters", () => {
  strictEqual(simple('{"base": 10}'), "pass");
  strictEqual(simple('{"base": 10, "unit": "Units"}'), "pass");
  strictEqual(
    verdict(area, areaAnswer, [["area", '{"base": 10}']]),
    "simple_function_checker:wrong_func_name",
  );
  strictEqual(simple('{"unit": "units"}'), "simple_function_checker:missing_required");
  strictEqual(simple('{"base": 10, "color": "red"}'), "simple_function_checker:unexpected_param");
  strictEqual(verdict(area, areaAnswer, []), "simple_function_checker:wrong_count");
  const strict = dict({ "geo.area": dict({ base: [int(10)], unit: ["units"] }) });
  strictEqual(
    verdict(area, strict, [["geo.area", '{"base": 10}']]),
    "simple_function_checker:missing_optional",
  );
});

Deno.test("checkBfclEntry() applies Python's type(): bool is not int, int becomes float only at the top", () => {
  strictEqual(simple('{"base": true}'), "type_error:simple");
  strictEqual(simple('{"base": 10.0}'), "type_error:simple");
  strictEqual(simple('{"base": "10"}'), "type_error:simple");
  strictEqual(simple('{"base": 11}'), "value_error:others");
  strictEqual(simple('{"base": 10, "scale": 1}'), "pass");
  strictEqual(simple('{"base": 10, "scale": 2}'), "value_error:others");
  const curve = fn("curve", { interval: "array:float" }, ["interval"]);
  const curveAnswer = dict({ curve: dict({ interval: [[float(1), float(3)]] }) });
  strictEqual(verdict(curve, curveAnswer, [["curve", '{"interval": [1.0, 3.0]}']]), "pass");
  strictEqual(
    verdict(curve, curveAnswer, [["curve", '{"interval": [1, 3]}']]),
    "type_error:nested",
  );
  strictEqual(
    verdict(curve, curveAnswer, [["curve", '{"interval": [1.0, 2.0]}']]),
    "value_error:list/tuple",
  );
});

Deno.test("checkBfclEntry() accepts a variable's name where the answer holds one", () => {
  const doc = fn("f", { n: "integer" }, ["n"]);
  const answer = dict({ f: dict({ n: ["count"] }) });
  strictEqual(verdict(doc, answer, [["f", '{"n": "count"}']]), "pass");
  strictEqual(verdict(doc, answer, [["f", '{"n": "Count"}']]), "value_error:others");
  strictEqual(verdict(doc, answer, [["f", '{"n": 3}']]), "value_error:others");
});

Deno.test("checkBfclEntry() standardises strings: case, spaces and ,./-_*^ do not count", () => {
  const doc = fn("f", { city: "string" }, ["city"]);
  const answer = dict({ f: dict({ city: ["New York, NY"] }) });
  strictEqual(verdict(doc, answer, [["f", '{"city": "new york ny"}']]), "pass");
  strictEqual(verdict(doc, answer, [["f", '{"city": "NEW-YORK_NY."}']]), "pass");
  strictEqual(verdict(doc, answer, [["f", '{"city": "New York City"}']]), "value_error:string");
});

Deno.test("checkBfclEntry() checks dicts and lists of dicts against each possible answer", () => {
  const doc = fn("f", { opts: "dict", rows: "array:dict" }, []);
  const answer = dict({
    f: dict({
      opts: [dict({ a: [int(1)], b: ["x"] }), ""],
      rows: [[dict({ k: ["v"] })], ""],
    }),
  });
  const one = (args: string) => verdict(doc, answer, [["f", args]]);
  strictEqual(one('{"opts": {"a": 1, "b": "X"}}'), "pass");
  strictEqual(one('{"opts": {"a": 2, "b": "x"}}'), "value_error:dict_value");
  strictEqual(one('{"opts": {"a": 1}}'), "value_error:dict_items");
  strictEqual(one('{"opts": {"a": 1, "c": "x"}}'), "value_error:dict_key");
  strictEqual(one('{"rows": [{"k": "v"}]}'), "pass");
  strictEqual(one('{"rows": [{"k": "v"}, {"k": "v"}]}'), "value_error:list_dict_count");
  // The last possible answer ("", optional) decides the error: its length is not 1.
  strictEqual(one('{"rows": [{"k": "w"}]}'), "value_error:list_dict_count");
});

Deno.test("checkBfclEntry() matches parallel calls greedily in the answer's order, as BFCL does", () => {
  const doc = fn("f", { x: "integer" }, ["x"]);
  const answer = dict({ f_1: dict({ x: [int(1), int(2)] }), f_2: dict({ x: [int(1)] }) });
  const run = (calls: [string, string][]) => verdict(doc, answer, calls, "parallel_function");
  strictEqual(run([["f", '{"x": 2}'], ["f", '{"x": 1}']]), "pass");
  // A matching exists (f_1 takes x=2, f_2 takes x=1), but f_1 takes x=1 first and BFCL does not
  // look back.
  strictEqual(
    run([["f", '{"x": 1}'], ["f", '{"x": 2}']]),
    "parallel_function_checker_no_order:cannot_find_match",
  );
  strictEqual(run([["f", '{"x": 1}']]), "parallel_function_checker_no_order:wrong_count");
});

Deno.test("checkBfclEntry() finds each answer's function in multiple categories by name", () => {
  const docs = [fn("math.sum", { a: "integer" }, ["a"]), fn("math.mul", { a: "integer" }, ["a"])];
  const answer = dict({ "math.mul": dict({ a: [int(3)] }) });
  strictEqual(verdict(docs, answer, [["math.mul", '{"a": 3}']], "multiple_function"), "pass");
  strictEqual(verdict(docs, answer, [["math_mul", '{"a": 3}']], "multiple_function", true), "pass");
  strictEqual(
    verdict(docs, answer, [["math.mul", '{"a": 3}']], "multiple_function", true),
    "parallel_function_checker_no_order:cannot_find_match",
  );
});

Deno.test("checkBfclEntry() converts Java and JavaScript strings to their declared types", () => {
  const java = fn("A.run", { n: "long", flags: "ArrayList:String", on: "boolean" }, ["n"]);
  const javaAnswer = dict({
    "A.run": dict({ n: [int(5)], flags: [["a", "b"], ""], on: [true, ""] }),
  });
  const j = (args: string) => verdict(java, javaAnswer, [["A.run", args]], "java");
  strictEqual(j('{"n": "5L"}'), "pass");
  strictEqual(j('{"n": "5"}'), "type_error:simple");
  strictEqual(j('{"n": 5}'), "type_error:java");
  strictEqual(
    j('{"n": "5L", "flags": "new ArrayList<>(Arrays.asList(\\"a\\", \\"b\\"))"}'),
    "pass",
  );
  strictEqual(j('{"n": "5L", "on": "true"}'), "pass");
  const js = fn("go", { ok: "Boolean", ids: "array:integer", o: "dict" }, ["ok"]);
  const jsAnswer = dict({
    go: dict({ ok: [true], ids: [[int(1), int(2)], ""], o: ["", dict({ k: ["v"] })] }),
  });
  const s = (args: string) => verdict(js, jsAnswer, [["go", args]], "javascript");
  strictEqual(s('{"ok": "true", "ids": "[1, 2]"}'), "pass");
  strictEqual(s('{"ok": true}'), "type_error:js");
  strictEqual(s('{"ok": "true", "o": "{k: \'v\'}"}'), "pass");
  strictEqual(s('{"ok": "true", "ids": "[1, 3]"}'), "value_error:list/tuple");
});

Deno.test("checkBfclEntry() passes relevance when nothing decodes or no call is made", () => {
  const rel = (result: PyValue) =>
    checkBfclEntry({ question: null, result }, { category: "relevance" }).errorType ?? "pass";
  strictEqual(rel("I cannot help with that."), "pass");
  strictEqual(rel([]), "pass");
  strictEqual(rel([dict({ f: '{"a": 1}' })]), "relevance_error:decoder_success");
  strictEqual(rel([dict({ f: "{not json" })]), "pass");
});

Deno.test("checkBfclEntry() counts FC arguments nested past the JSON reader's depth as a call for relevance, up to json.loads' depth", () => {
  // In BFCL's eval runner, Python's json.loads reads up to 992 nested containers (CPython 3.11),
  // so BFCL decodes such arguments and fails the entry; the reader stops at 512 levels, and the
  // entry must not pass for that. A 993rd is json.loads' RecursionError, which BFCL's relevance
  // runner catches as any exception: the entry passes (tests/bfcl/fc_depth_oracle_test.ts checks
  // the boundary against CPython).
  const nested = (n: number) => `{"x": ${"[".repeat(n - 1)}${"]".repeat(n - 1)}}`;
  const rel = (n: number) =>
    checkBfclEntry({ question: null, result: [dict({ f: nested(n) })] }, { category: "relevance" });
  for (const n of [501, 512, 513, 601, 991, 992]) {
    strictEqual(rel(n).errorType, "relevance_error:decoder_success", `${n} levels`);
  }
  for (const n of [993, 994, 5000, 200_000]) strictEqual(rel(n).valid, true, `${n} levels`);
  strictEqual(rel(601).decoded, undefined);
  // A later call that fails to decode, or is too deep for json.loads, is where BFCL's decoder
  // raises: the entry passes.
  for (const bad of ["{not json", nested(993)]) {
    const later = [dict({ f: nested(601) }), dict({ g: bad })];
    strictEqual(
      checkBfclEntry({ question: null, result: later }, { category: "relevance" }).valid,
      true,
    );
  }
  // Elsewhere it stays a decoding failure, whose reason is the reader's, or past json.loads'
  // depth Python's.
  const simple = (n: number) =>
    checkBfclEntry({
      question: dict({ function: area }),
      possibleAnswer: areaAnswer,
      result: [dict({ "geo.area": nested(n) })],
    }, { category: "simple" });
  strictEqual(simple(601).errorType, "ast_decoder:decoder_failed");
  strictEqual(simple(993).errorType, "ast_decoder:decoder_failed");
  strictEqual(
    String(simple(993).error[0]),
    "Invalid syntax. Failed to decode AST. maximum recursion depth exceeded while decoding a " +
      "JSON array from a unicode string",
  );
});

Deno.test("checkBfclEntry() reports decoding failures and non-call output as BFCL does", () => {
  const v = (result: PyValue, decoder: "fc" | "gpt") =>
    checkBfclEntry({ question: dict({ function: area }), possibleAnswer: areaAnswer, result }, {
      category: "simple",
      decoder,
    }).errorType;
  strictEqual(v("No call.", "fc"), "ast_decoder:decoder_failed");
  strictEqual(v("[geo.area(10, unit='u')]", "gpt"), "simple_function_checker:missing_required");
  // A call without keywords decodes to its text, which is not a call.
  strictEqual(v("[geo.area(10)]", "gpt"), "ast_decoder:decoder_wrong_output_format");
  strictEqual(v("[geo.area(base=10)]", "gpt"), undefined);
});

Deno.test("checkBfclEntry() fails an empty Claude text as BFCL's decoder did, and passes it for relevance", () => {
  const entry = (category: BfclCategory) =>
    checkBfclEntry(
      { question: dict({ function: area }), possibleAnswer: areaAnswer, result: "" },
      { category, decoder: "claude" },
    );
  strictEqual(entry("simple").errorType, "ast_decoder:decoder_failed");
  strictEqual(entry("relevance").valid, true);
  // Other handlers read "" as no call at all.
  const llama = checkBfclEntry(
    { question: dict({ function: area }), possibleAnswer: areaAnswer, result: "" },
    { category: "simple", decoder: "llama" },
  );
  strictEqual(llama.errorType, "simple_function_checker:wrong_count");
});

Deno.test("checkBfclEntry() fails a non-dict value for a nested dict answer, where BFCL raises", () => {
  // BFCL's dict_checker calls itself on "c" and raises AttributeError ('str' object has no
  // attribute 'keys'), ending its run; docs/bfcl.md lists this among such inputs.
  const doc = fn("f", { d: "dict" }, ["d"]);
  const answer = dict({ f: dict({ d: [dict({ a: dict({ b: ["c"] }) })] }) });
  strictEqual(verdict(doc, answer, [["f", '{"d": {"a": "c"}}']]), "value_error:dict_items");
  strictEqual(verdict(doc, answer, [["f", '{"d": {"a": {"b": "c"}}}']]), "pass");
});

Deno.test("checkBfclEntry() keeps the string where BFCL's converter int() refuses over 4,300 digits", () => {
  // BFCL's java_type_converter calls int() on a long's digits without catching its ValueError,
  // which ends its run; docs/bfcl.md lists this among such inputs. The value stays a string.
  const doc = fn("A.run", { n: "long" }, ["n"]);
  const answer = dict({ "A.run": dict({ n: [int(5)] }) });
  const j = (n: string) => verdict(doc, answer, [["A.run", JSON.stringify({ n })]], "java");
  strictEqual(j("5L"), "pass");
  strictEqual(j(`${"0".repeat(4299)}5L`), "pass"); // 4,300 digits: int() reads them
  strictEqual(j(`${"0".repeat(4300)}5L`), "type_error:simple"); // 4,301: the string is kept
});
