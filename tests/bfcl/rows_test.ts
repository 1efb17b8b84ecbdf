// The rows of a category's files as checkBfcl() reads them (src/bfcl/_rows.ts): each question and
// answer of its category's shape in BFCL's 2024-08 files, ids of the category, ids of any JSON
// type lined up as written, and a leading BOM dropped.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import {
  type BfclCategory,
  bfclReport,
  checkBfcl,
  checkBfclEntry,
  compareBfclReports,
  PyDict,
  PyInt,
} from "../../src/bfcl/mod.ts";
import { InputError } from "../../src/jsonl/mod.ts";
import { checkCall } from "../../src/bfcl/_function_checker.ts";
import { AST_CATEGORIES, gunzipText } from "./_fixtures.ts";

const FN = {
  name: "f",
  parameters: {
    type: "dict",
    properties: { x: { type: "integer" } },
    required: ["x"],
  },
};
const ANSWER = { f: { x: [1] } };
const RESULT = [{ f: '{"x": 1}' }];

/** One entry's three files, each a line of JSON with the entry's id. */
function files(
  question: Record<string, unknown>,
  answer: Record<string, unknown>,
  category: string = "simple",
  id: unknown = `${category}_0`,
) {
  const line = (o: Record<string, unknown>) => JSON.stringify({ id, ...o }) + "\n";
  return {
    questions: { name: "q.json", text: line(question) },
    answers: { name: "a.json", text: line(answer) },
    results: { name: "r.json", text: line({ result: RESULT }) },
  };
}

/** The InputError checkBfcl throws, or "scored N/M". */
function outcome(f: ReturnType<typeof files>, category: BfclCategory = "simple"): string {
  try {
    const run = checkBfcl(f, { category });
    return `scored ${run.correct}/${run.total}`;
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return e.message;
  }
}

const q = (fn: unknown) => outcome(files({ function: fn }, { ground_truth: ANSWER }));
const a = (gt: unknown) => outcome(files({ function: FN }, { ground_truth: gt }));
const withParams = (parameters: unknown) => q({ name: "f", parameters });
const withX = (x: unknown) => withParams({ properties: { x }, required: ["x"] });

Deno.test("checkBfcl() refuses a question not of its category's shape, naming the file, line and id", () => {
  strictEqual(q(FN), "scored 1/1");
  const refusals: [string, string][] = [
    [outcome(files({}, { ground_truth: ANSWER })), 'no "function"'],
    [q("f"), 'function is not an object: "f"'],
    [q(5), "function is not an object: 5"],
    [q([]), "function is not an object: []"],
    [q({ parameters: FN.parameters }), "no function.name"],
    [q({ ...FN, name: 5 }), "function.name is not a string: 5"],
    [q({ name: "f" }), "no function.parameters"],
    [withParams(null), "function.parameters is not an object: null"],
    [withParams({ properties: {} }), "no function.parameters.required"],
    [
      withParams({ properties: {}, required: "x" }),
      'function.parameters.required is not a list of strings: "x"',
    ],
    [withParams({ required: [] }), "no function.parameters.properties"],
    [
      withParams({ properties: [1], required: [] }),
      "function.parameters.properties is not an object: [1]",
    ],
    [withX(null), 'function.parameters.properties["x"] is not an object: null'],
    [withX({}), 'no function.parameters.properties["x"].type'],
    [withX({ type: 5 }), 'function.parameters.properties["x"].type is not a string: 5'],
    [
      withX({ type: "wibble" }),
      'function.parameters.properties["x"].type is "wibble", not a type BFCL\'s checker knows ' +
      "(string, integer, float, boolean, array, tuple, dict, any)",
    ],
    [withX({ type: "array" }), 'no function.parameters.properties["x"].items'],
    [
      withX({ type: "tuple", items: { type: "list" } }),
      'function.parameters.properties["x"].items.type is "list", not a type BFCL\'s checker ' +
      "knows (string, integer, float, boolean, array, tuple, dict, any)",
    ],
  ];
  for (const [got, problem] of refusals) strictEqual(got, `q.json:1: ${problem} (id simple_0)`);
});

Deno.test("checkBfcl() refuses an answer not of its category's shape", () => {
  const refusals: [unknown, string][] = [
    ["f", 'ground_truth is not an object: "f"'],
    [5, "ground_truth is not an object: 5"],
    [null, "ground_truth is not an object: null"],
    [[], "ground_truth is not an object: []"],
    [{}, "ground_truth is empty"],
    [{ f: "x" }, 'ground_truth["f"] is not an object: "x"'],
    [{ f: null }, 'ground_truth["f"] is not an object: null'],
    [{ f: { x: 1 } }, 'ground_truth["f"]["x"] is not a list of choices: 1'],
    [{ f: { x: "1" } }, 'ground_truth["f"]["x"] is not a list of choices: "1"'],
    [{ f: { x: { a: 1 } } }, 'ground_truth["f"]["x"] is not a list of choices: {"a": 1}'],
  ];
  for (const [gt, problem] of refusals) strictEqual(a(gt), `a.json:1: ${problem} (id simple_0)`);
  // No choice at all is a shape BFCL reads: nothing passes.
  strictEqual(a({ f: { x: [] } }), "scored 0/1");
  strictEqual(
    outcome(files({ function: FN }, {})),
    'a.json:1: no "ground_truth" (id simple_0)',
  );
});

Deno.test("checkBfcl() names BFCL v3's files, which list the functions and the calls", () => {
  const v3 = "looks like BFCL v3's files; this checker reads the 2024-08 files, where";
  strictEqual(
    outcome(files({ function: [FN] }, { ground_truth: ANSWER })),
    `q.json:1: function is a list of functions: ${v3} a simple question's function is one ` +
      "(id simple_0)",
  );
  strictEqual(
    outcome(files({ function: FN }, { ground_truth: [ANSWER] })),
    `a.json:1: ground_truth is a list of calls: ${v3} it is one object of calls (id simple_0)`,
  );
  // In the multiple categories the functions are a list, but the calls are still one object.
  const multiple = (fn: unknown, gt: unknown) =>
    outcome(
      files({ function: fn }, { ground_truth: gt }, "multiple_function"),
      "multiple_function",
    );
  strictEqual(multiple([FN], ANSWER), "scored 1/1");
  strictEqual(
    multiple([FN], [ANSWER]),
    `a.json:1: ground_truth is a list of calls: ${v3} it is one object of calls ` +
      "(id multiple_function_0)",
  );
  strictEqual(
    multiple(FN, ANSWER),
    `q.json:1: function is not a list of functions: ${
      JSON.stringify(FN).replaceAll(",", ", ")
        .replaceAll(":", ": ").slice(0, 80)
    }\u2026 (id multiple_function_0)`,
  );
  strictEqual(
    multiple([FN, 5], ANSWER),
    "q.json:1: function[1] is not an object: 5 (id multiple_function_0)",
  );
});

Deno.test("checkBfcl() lets through a call of the answer that BFCL never reads, as its own data has", () => {
  // parallel_multiple_function_179's answer has "deck": [[], ""], which no function's name is
  // part of: BFCL fails the entry without reading it. One a function answers to is read.
  const two = { ...ANSWER, deck: [[], ""] };
  const parallel = (fn: unknown) =>
    outcome(
      files({ function: fn }, { ground_truth: two }, "parallel_multiple_function"),
      "parallel_multiple_function",
    );
  strictEqual(parallel([FN]), "scored 0/1");
  strictEqual(
    parallel([FN, { ...FN, name: "deck" }]),
    'a.json:1: ground_truth["deck"] is not an object: [[], ""] (id parallel_multiple_function_0)',
  );
});

Deno.test("checkBfclEntry() refuses a malformed question or answer, so checkCall never prints garbage", () => {
  const question = new PyDict([["function", new PyDict([["name", new PyInt(5n)]])]]);
  throws(
    () =>
      checkBfclEntry({ question, possibleAnswer: new PyDict(), result: [] }, {
        category: "simple",
      }),
    (e: unknown) =>
      e instanceof InputError &&
      e.message === "Bad simple entry: function.name is not a string: 5",
  );
  // checkCall, reached only through them, writes a name or a type that is not a string as Python
  // does, never as undefined or [object Object].
  const ctx = { language: "Python", underscoreToDot: false, matching: "greedy" } as const;
  for (const doc of [new PyDict(), new PyDict([["name", new PyInt(5n)]]), null]) {
    const v = checkCall(doc, new PyDict([["f", new PyDict()]]), new PyDict(), ctx);
    strictEqual(/undefined|object Object/.test(JSON.stringify(v.error)), false, String(v.error));
  }
  const typed = new PyDict([
    ["name", "f"],
    ["parameters", new PyDict([["properties", new PyDict([["x", new PyDict()]])]])],
  ]);
  const v = checkCall(
    typed,
    new PyDict([["f", new PyDict([["x", new PyInt(1n)]])]]),
    new PyDict([["f", new PyDict([["x", ["a"]]])]]),
    ctx,
  );
  strictEqual(/undefined|object Object/.test(JSON.stringify(v.error)), false, String(v.error));
});

Deno.test("checkBfcl() refuses a file whose ids are of another category", () => {
  // Simple results scored as relevance, and parallel_function questions and answers given with
  // simple results.
  throws(
    () =>
      checkBfcl({ results: files({ function: FN }, { ground_truth: ANSWER }).results }, {
        category: "relevance",
      }),
    (e: unknown) =>
      e instanceof InputError &&
      e.message === 'r.json:1: id "simple_0" is of the simple category, not relevance',
  );
  const other = files({ function: FN }, { ground_truth: ANSWER }, "parallel_function");
  const mixed = { ...other, results: files({ function: FN }, { ground_truth: ANSWER }).results };
  strictEqual(
    outcome(mixed),
    'q.json:1: id "parallel_function_0" is of the parallel_function category, not simple',
  );
  // BFCL v3's and v4's names are named as such, their live ids (`<n>-<m>-<k>`) too; ids of no
  // category are only lined up.
  strictEqual(
    outcome(
      files(
        { function: [FN] },
        { ground_truth: ANSWER },
        "parallel_multiple_function",
        "parallel_multiple_0",
      ),
      "parallel_multiple_function",
    ),
    'r.json:1: id "parallel_multiple_0" is of the parallel_multiple category, not ' +
      "parallel_multiple_function (a name of BFCL v3 or v4; this checker reads the 2024-08 files)",
  );
  for (
    const [id, named] of [["live_simple_0-0-0", "live_simple"], [
      "simple_python_0",
      "simple_python",
    ]]
  ) {
    strictEqual(
      outcome(files({ function: FN }, { ground_truth: ANSWER }, "simple", id)),
      `r.json:1: id "${id}" is of the ${named} category, not simple (a name of BFCL v3 or v4; ` +
        "this checker reads the 2024-08 files)",
    );
  }
  strictEqual(
    outcome(files({ function: FN }, { ground_truth: ANSWER }, "simple", "q_7")),
    "scored 1/1",
  );
});

Deno.test("every vendored file's ids are of its own category, and of no other", async () => {
  const categories: BfclCategory[] = [...AST_CATEGORIES, "java", "javascript", "relevance"];
  const results = new Map<string, string>();
  for (const c of categories) {
    const text = await gunzipText(`results/gpt-4o-2024-05-13-FC/${c}_result.json.gz`);
    results.set(c, text);
    const ids = text.split("\n").filter((l) => l).map((l) => JSON.parse(l).id);
    deepStrictEqual(ids, ids.map((_, i) => `${c}_${i}`));
  }
  for (const c of categories) {
    for (const other of categories) {
      if (other === c) continue;
      throws(
        () =>
          checkBfcl({ results: { name: "r.json", text: results.get(other)! } }, { category: c }),
        (e: unknown) =>
          e instanceof InputError &&
          e.message === `r.json:1: id "${other}_0" is of the ${other} category, not ${c}`,
      );
    }
  }
});

Deno.test("checkBfcl() lines up ids of any JSON type as written, and names them as Python does", () => {
  // BFCL never reads an id: integer ids score as string ids do.
  const int = files({ function: FN }, { ground_truth: ANSWER }, "simple", 0);
  strictEqual(outcome(int), "scored 1/1");
  strictEqual(checkBfcl(int, { category: "simple" }).records[0]!.entryId, "0");
  const mixed = { ...int, results: files({}, {}, "simple", "0").results };
  strictEqual(outcome(mixed), "scored 1/1");
  const twice = (ids: unknown[]) =>
    ids.map((id) => JSON.stringify({ id, result: "No." }) + "\n").join("");
  throws(
    () =>
      checkBfcl({ results: { name: "r.json", text: twice([0, 0]) } }, { category: "relevance" }),
    (e: unknown) => e instanceof InputError && e.message === "r.json:2: id 0 again (line 1)",
  );
  throws(
    () =>
      checkBfcl({ results: { name: "r.json", text: twice([{ a: true }, { a: true }]) } }, {
        category: "relevance",
      }),
    (e: unknown) =>
      e instanceof InputError && e.message === "r.json:2: id {'a': True} again (line 1)",
  );
  const apart = { ...int, results: files({}, {}, "simple", 1).results };
  strictEqual(
    outcome(apart),
    "r.json:1: id 1, but line 1 of q.json is 0: BFCL pairs the files' lines in order",
  );
});

Deno.test("checkBfcl() drops a BOM at the start of a file, as the CLI and the line readers do", () => {
  const f = files({ function: FN }, { ground_truth: ANSWER });
  const bom = (s: { name: string; text: string }) => ({ ...s, text: `\ufeff${s.text}` });
  strictEqual(
    outcome({ questions: bom(f.questions), answers: bom(f.answers), results: bom(f.results) }),
    "scored 1/1",
  );
  // Only at the start: elsewhere it is not JSON, as in json.loads.
  const inside = { ...f, results: { name: "r.json", text: `${f.results.text}\ufeff{}\n` } };
  strictEqual(outcome(inside).startsWith("r.json:2: not JSON"), true);
});

/** Three entries' files; `resultIds` are the result lines' ids in order (undefined: no id). */
function three(resultIds: (string | undefined)[], category = "simple") {
  const rows = (o: (i: number) => Record<string, unknown>, ids: (string | undefined)[]) =>
    ids.map((id, i) => JSON.stringify({ ...(id === undefined ? {} : { id }), ...o(i) }) + "\n")
      .join("");
  const ids = [0, 1, 2].map((i) => `${category}_${i}`);
  return {
    questions: { name: "q.json", text: rows(() => ({ function: FN }), ids) },
    answers: { name: "a.json", text: rows(() => ({ ground_truth: ANSWER }), ids) },
    results: { name: "r.json", text: rows(() => ({ result: RESULT }), resultIds) },
  };
}

const PART = "a result file of part of a category is not scored, since BFCL scores every " +
  "entry; to score part, cut the question and answer files to the same entries";

Deno.test("checkBfcl() names the line where a result file with an entry missing or added parts from the questions", () => {
  // One missing in the middle: named where the lines part, not by the files' lengths, and where
  // the result's id stands in the questions: a result file of part of the category.
  strictEqual(
    outcome(three(["simple_0", "simple_2"])),
    "r.json:2: id simple_2, but line 2 of q.json is simple_1: BFCL pairs the files' lines in " +
      `order (simple_2 is q.json:3, and r.json has 2 lines to q.json's 3: ${PART})`,
  );
  // The same entries in another order are named as such.
  strictEqual(
    outcome(three(["simple_0", "simple_2", "simple_1"])),
    "r.json:2: id simple_2, but line 2 of q.json is simple_1: BFCL pairs the files' lines in " +
      "order (simple_2 is q.json:3: the results are in another order; write them in q.json's)",
  );
  // One given twice: named as a repeat, not as one line too many.
  strictEqual(
    outcome(three(["simple_0", "simple_0", "simple_1", "simple_2"])),
    "r.json:2: id simple_0 again (line 1)",
  );
  // At the end: the first line left over, with its id where it has one.
  strictEqual(
    outcome(three(["simple_0", "simple_1"])),
    `q.json: 3 lines, but r.json has 2 (q.json:3, id simple_2, has no line in r.json): ${PART}`,
  );
  strictEqual(
    outcome(three(["simple_0", "simple_1", "simple_2", "simple_3"])),
    "q.json: 3 lines, but r.json has 4 (r.json:4, id simple_3, has no line in q.json)",
  );
  strictEqual(
    outcome(three([undefined, undefined, undefined, undefined])),
    "q.json: 3 lines, but r.json has 4 (r.json:4, has no line in q.json)",
  );
});

Deno.test("checkBfcl() records a result line without an id under its question's id, so reports compare", () => {
  // BFCL reads no id: results without ids score as with them, and their records carry the
  // question's ids, so two models' reports join (before, every entry was "?", and
  // compareBfclReports refused the report as repeating entries).
  const run = checkBfcl(three([undefined, "simple_1", undefined]), { category: "simple" });
  deepStrictEqual(run.records.map((r) => r.entryId), ["simple_0", "simple_1", "simple_2"]);
  const withIds = checkBfcl(three(["simple_0", "simple_1", "simple_2"]), { category: "simple" });
  const cmp = compareBfclReports(bfclReport([run]), bfclReport([withIds]), { resamples: 10 });
  strictEqual(cmp.n, 3);
  // Relevance has no question file: a line without an id is named by its line.
  const relevance = checkBfcl({
    results: { name: "r.json", text: '{"result": "No."}\n'.repeat(2) },
  }, {
    category: "relevance",
  });
  deepStrictEqual(relevance.records.map((r) => r.entryId), ["line 1", "line 2"]);
  strictEqual(compareBfclReports(bfclReport([relevance]), bfclReport([relevance])).n, 2);
});
