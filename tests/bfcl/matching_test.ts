// Optimal parallel matching (`matching: "optimal"`) beside BFCL's greedy one: hand-made entries
// that greedy matching fails and optimal passes, seeded random entries against a brute force over
// every assignment, and the count of changed verdicts on the 11 vendored models.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { Sfc32 } from "../../mod.ts";
import {
  type BfclCategory,
  type BfclMatching,
  bfclReport,
  checkBfcl,
  checkBfclEntry,
  PyDict,
  PyInt,
  type PyValue,
} from "../../src/bfcl/mod.ts";
import { checkReportBody } from "../../src/report_check/mod.ts";
import { AST_CATEGORIES, FC_MODELS, gunzipText, PROMPTING_MODELS, runModel } from "./_fixtures.ts";

const int = (n: number) => new PyInt(BigInt(n));
const dict = (o: Record<string, PyValue>) => new PyDict(Object.entries(o));

/** A function of integer parameters, all required. */
function fn(name: string, params: string[]): PyDict {
  const props = new PyDict(params.map((p) => [p, dict({ type: "integer" })] as const));
  return dict({ name, parameters: dict({ type: "dict", properties: props, required: params }) });
}

/** An answer: per entry (`f_1`, `f_2`, …), its parameters' choices. */
function answer(entries: [string, Record<string, number[]>][]): PyDict {
  return new PyDict(
    entries.map(([name, params]) => [
      name,
      new PyDict(Object.entries(params).map(([p, xs]) => [p, xs.map(int)] as const)),
    ]),
  );
}

function check(
  docs: PyValue,
  possibleAnswer: PyDict,
  calls: [string, Record<string, number>][],
  matching: BfclMatching,
  category: BfclCategory = "parallel_function",
) {
  const result = calls.map(([name, args]) => dict({ [name]: JSON.stringify(args) }));
  return checkBfclEntry({ question: dict({ function: docs }), possibleAnswer, result }, {
    category,
    matching,
  });
}

const f = fn("f", ["x"]);

Deno.test("checkBfclEntry() with optimal matching passes an entry that greedy matching misses", () => {
  // f_1 takes x=1 first, and f_2 is left with x=2; the matching f_1→x=2, f_2→x=1 exists.
  const a = answer([["f_1", { x: [1, 2] }], ["f_2", { x: [1] }]]);
  const calls: [string, Record<string, number>][] = [["f", { x: 1 }], ["f", { x: 2 }]];
  const greedy = check(f, a, calls, "greedy");
  strictEqual(greedy.errorType, "parallel_function_checker_no_order:cannot_find_match");
  strictEqual(greedy.greedy, undefined);
  const optimal = check(f, a, calls, "optimal");
  strictEqual(optimal.valid, true);
  strictEqual(optimal.greedy?.errorType, "parallel_function_checker_no_order:cannot_find_match");
  // The default is BFCL's greedy matching.
  strictEqual(
    checkBfclEntry({
      question: dict({ function: f }),
      possibleAnswer: a,
      result: calls.map(([n, args]) => dict({ [n]: JSON.stringify(args) })),
    }, { category: "parallel_function" }).valid,
    false,
  );
});

Deno.test("checkBfclEntry() with optimal matching finds a chain of three reassignments", () => {
  // Greedy: f_1→1, f_2→2, f_3 finds nothing; optimal: f_1→3, f_2→1, f_3→2.
  const a = answer([["f_1", { x: [1, 3] }], ["f_2", { x: [2, 1] }], ["f_3", { x: [2] }]]);
  const calls: [string, Record<string, number>][] = [["f", { x: 1 }], ["f", { x: 2 }], [
    "f",
    { x: 3 },
  ]];
  strictEqual(check(f, a, calls, "greedy").valid, false);
  strictEqual(check(f, a, calls, "optimal").valid, true);
});

Deno.test("checkBfclEntry() with optimal matching matches across functions in parallel_multiple_function", () => {
  const docs = [fn("g", ["x"]), fn("h", ["x"])];
  const a = answer([["g", { x: [1, 2] }], ["h", { x: [5] }], ["g_2", { x: [1] }]]);
  // findDoc: "g_2" contains "g". Greedy gives g→x=1, then g_2 has only x=2 left.
  const calls: [string, Record<string, number>][] = [["g", { x: 1 }], ["h", { x: 5 }], ["g", {
    x: 2,
  }]];
  strictEqual(check(docs, a, calls, "greedy", "parallel_multiple_function").valid, false);
  strictEqual(check(docs, a, calls, "optimal", "parallel_multiple_function").valid, true);
});

Deno.test("checkBfclEntry() with optimal matching still fails what no matching passes, with greedy's error", () => {
  const a = answer([["f_1", { x: [1] }], ["f_2", { x: [1] }]]);
  const calls: [string, Record<string, number>][] = [["f", { x: 1 }], ["f", { x: 2 }]];
  deepStrictEqual(check(f, a, calls, "optimal"), check(f, a, calls, "greedy"));
  const short = check(f, a, [["f", { x: 1 }]], "optimal");
  strictEqual(short.errorType, "parallel_function_checker_no_order:wrong_count");
});

/** Whether some one-to-one assignment gives each entry a call among its choices. */
function bruteForce(choices: number[][], calls: number[]): boolean {
  const used = new Array<boolean>(calls.length).fill(false);
  const place = (i: number): boolean => {
    if (i === choices.length) return true;
    for (let j = 0; j < calls.length; j++) {
      if (used[j] || !choices[i]!.includes(calls[j]!)) continue;
      used[j] = true;
      if (place(i + 1)) return true;
      used[j] = false;
    }
    return false;
  };
  return place(0);
}

function shuffled<T>(xs: readonly T[], rng: Sfc32): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.nextBelow(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

Deno.test("checkBfclEntry() with optimal matching passes whenever greedy does, and exactly when a matching exists (seeded)", () => {
  const rng = new Sfc32(2024);
  let rescued = 0;
  for (let trial = 0; trial < 2000; trial++) {
    const k = 1 + rng.nextBelow(5);
    const choices = Array.from({ length: k }, () => {
      const xs = [0, 1, 2, 3].filter(() => rng.nextBelow(3) === 0);
      return xs.length > 0 ? xs : [rng.nextBelow(4)];
    });
    const calls = Array.from({ length: k }, () => rng.nextBelow(4));
    const a = answer(choices.map((xs, i) => [`f_${i + 1}`, { x: xs }]));
    const asCalls = (xs: number[]) => xs.map((x) => ["f", { x }] as [string, { x: number }]);
    const greedy = check(f, a, asCalls(calls), "greedy").valid;
    const optimal = check(f, a, asCalls(calls), "optimal").valid;
    const where = `trial ${trial}: ${JSON.stringify({ choices, calls })}`;
    if (greedy) strictEqual(optimal, true, where);
    strictEqual(optimal, bruteForce(choices, calls), where);
    if (optimal && !greedy) rescued++;
    // The optimal verdict does not depend on the order of the calls or of the entries.
    const order = shuffled(choices.map((_, i) => i), rng);
    const b = answer(order.map((i) => [`f_${i + 1}`, { x: choices[i]! }]));
    strictEqual(check(f, b, asCalls(shuffled(calls, rng)), "optimal").valid, optimal, where);
  }
  // The instances do exercise the difference.
  strictEqual(rescued > 50, true, `${rescued} rescued`);
});

Deno.test("bfclReport() lists the entries that only optimal matching passes, and refuses mixed matchings", async () => {
  const text = await gunzipText("data/gorilla_openfunctions_v1_test_parallel_function.json.gz");
  const first = JSON.parse(text.split("\n")[0]!);
  const q = JSON.stringify({ ...first, id: "p_0", function: first.function });
  const gt = {
    "spotify.play_1": { artist: ["Taylor Swift", "Maroon 5"], duration: [20] },
    "spotify.play_2": { artist: ["Taylor Swift"], duration: [20] },
  };
  const files = {
    questions: { name: "q.json", text: q + "\n" },
    answers: { name: "a.json", text: JSON.stringify({ id: "p_0", ground_truth: gt }) + "\n" },
    results: {
      name: "r.json",
      text: JSON.stringify({
        id: "p_0",
        result: [
          { "spotify.play": '{"artist": "Taylor Swift", "duration": 20}' },
          { "spotify.play": '{"artist": "Maroon 5", "duration": 20}' },
        ],
      }) + "\n",
    },
  };
  const opts = { category: "parallel_function" as const };
  const greedy = bfclReport([checkBfcl(files, opts)]);
  const optimal = bfclReport([checkBfcl(files, { ...opts, matching: "optimal" })]);
  strictEqual(greedy.matching, "greedy");
  deepStrictEqual(greedy.matchingDisagreements, []);
  strictEqual(greedy.accuracy.numerator, 0);
  strictEqual(optimal.matching, "optimal");
  strictEqual(optimal.accuracy.numerator, 1);
  deepStrictEqual(optimal.matchingDisagreements, [{
    category: "parallel_function",
    id: 1,
    entryId: "p_0",
    greedyErrorType: "parallel_function_checker_no_order:cannot_find_match",
  }]);
  // Both are what every reader of a report file takes (the disagreements' shape included).
  for (const r of [greedy, optimal]) checkReportBody(JSON.parse(JSON.stringify(r)));
  throws(
    () => bfclReport([checkBfcl(files, opts), checkBfcl(files, { ...opts, matching: "optimal" })]),
    RangeError,
  );
});

Deno.test("checkBfcl() with optimal matching changes no verdict of the 11 vendored models", async () => {
  // Greedy matching fails 386 entries for want of a match; no maximum matching rescues any.
  let unmatched = 0;
  for (const model of [...FC_MODELS, ...PROMPTING_MODELS]) {
    for (const category of AST_CATEGORIES.filter((c) => c !== "simple")) {
      const greedy = await runModel(model, category);
      const optimal = await runModel(model, category, "optimal");
      unmatched += greedy.records.filter((r) =>
        r.errorType === "parallel_function_checker_no_order:cannot_find_match"
      ).length;
      deepStrictEqual(
        optimal.records.filter((r) =>
          r.greedy !== undefined
        ).map((r) => r.id),
        [],
        `${model}/${category}`,
      );
      strictEqual(optimal.correct, greedy.correct, `${model}/${category}`);
    }
  }
  strictEqual(unmatched, 386);
});
