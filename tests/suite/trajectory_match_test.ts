// trajectoryMatch(): a table over every (trajectory mode, argument mode) pair with the expected
// verdict and reasons, number handling, each override kind, agentevals' published cases
// rewritten as inputs and expected verdicts, misuse, and the suite metric.
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import {
  loadSuite,
  RunInputError,
  runSuite,
  suiteChecks,
  SuiteError,
  trajectoryMatch,
  trajectoryMatchMetric,
  type TrajectoryMatchOptions,
  type TrajectoryReason,
  type TrajectoryResult,
} from "../../src/suite/mod.ts";

type Call = { name: string; arguments?: unknown };
const f = (args: unknown = {}): Call => ({ name: "f", arguments: args });
const g = (args: unknown = {}): Call => ({ name: "g", arguments: args });
const h = (args: unknown = {}): Call => ({ name: "h", arguments: args });
const miss = (reference: number, name: string, closest?: [number, string[]]): TrajectoryReason => ({
  kind: "missing",
  reference,
  name,
  ...(closest && { closest: { output: closest[0], paths: closest[1] } }),
});
const extra = (output: number, name: string): TrajectoryReason => ({ kind: "extra", output, name });

interface Case {
  title: string;
  ref: unknown[];
  out: unknown[];
  options: TrajectoryMatchOptions;
  pass: boolean;
  reasons?: TrajectoryReason[];
  greedyDisagrees?: boolean;
}

const REF = [f({ a: 1 }), g({ b: 2 })];
const CE_REF = [f({ a: 1 }), f({ a: 1, b: 2 })];
const CE_OUT = [f({ a: 1, b: 2 }), f({ a: 1, c: 3 })];

const msg = (role: string, ...calls: Call[]) =>
  calls.length ? { role, tool_calls: calls } : { role };

// deno-fmt-ignore
const CASES: Case[] = [
  // ---- unordered × every argument mode
  { title: "unordered/exact: the same calls in another order", ref: REF, out: [g({ b: 2 }), f({ a: 1 })], options: { trajectory: "unordered" }, pass: true },
  { title: "unordered/exact: a call missing", ref: REF, out: [f({ a: 1 })], options: { trajectory: "unordered" }, pass: false, reasons: [miss(1, "g")] },
  { title: "unordered/exact: an argument differs", ref: REF, out: [f({ a: 1 }), g({ b: 3 })], options: { trajectory: "unordered" }, pass: false, reasons: [miss(1, "g", [1, ["b"]]), extra(1, "g")] },
  { title: "unordered/exact: an extra call", ref: REF, out: [f({ a: 1 }), g({ b: 2 }), h()], options: { trajectory: "unordered" }, pass: false, reasons: [extra(2, "h")] },
  { title: "unordered/ignore: any arguments", ref: REF, out: [g({ b: 3 }), f()], options: { trajectory: "unordered", arguments: "ignore" }, pass: true },
  { title: "unordered/ignore: names still count", ref: REF, out: [g(), g()], options: { trajectory: "unordered", arguments: "ignore" }, pass: false, reasons: [miss(0, "f"), extra(0, "g")] },
  { title: "unordered/subset: output arguments within the reference's", ref: REF, out: [f(), g({ b: 2 })], options: { trajectory: "unordered", arguments: "subset" }, pass: true },
  { title: "unordered/subset: an output argument the reference lacks", ref: REF, out: [f({ a: 1, z: 0 }), g({ b: 2 })], options: { trajectory: "unordered", arguments: "subset" }, pass: false, reasons: [miss(0, "f", [0, ["z"]]), extra(0, "f")] },
  { title: "unordered/superset: output arguments beyond the reference's", ref: REF, out: [f({ a: 1, z: 0 }), g({ b: 2 })], options: { trajectory: "unordered", arguments: "superset" }, pass: true },
  { title: "unordered/superset: a reference argument absent", ref: REF, out: [f(), g({ b: 2 })], options: { trajectory: "unordered", arguments: "superset" }, pass: false, reasons: [miss(0, "f", [0, ["a"]]), extra(0, "f")] },
  { title: "unordered/superset: the greedy counter-example with equal counts", ref: CE_REF, out: CE_OUT, options: { trajectory: "unordered", arguments: "superset" }, pass: true, greedyDisagrees: true },
  // ---- subset
  { title: "subset/exact: fewer calls", ref: REF, out: [f({ a: 1 })], options: { trajectory: "subset" }, pass: true },
  { title: "subset/exact: no calls", ref: REF, out: [], options: { trajectory: "subset" }, pass: true },
  { title: "subset/exact: a call outside the reference", ref: REF, out: [f({ a: 1 }), h()], options: { trajectory: "subset" }, pass: false, reasons: [extra(1, "h")] },
  { title: "subset/exact: a reference call used twice", ref: REF, out: [f({ a: 1 }), f({ a: 1 })], options: { trajectory: "subset" }, pass: false, reasons: [extra(0, "f")] },
  { title: "subset/ignore: one f in the reference, two in the output", ref: REF, out: [f({ q: 1 }), f({ r: 2 })], options: { trajectory: "subset", arguments: "ignore" }, pass: false, reasons: [extra(0, "f")] },
  { title: "subset/subset: fewer arguments", ref: REF, out: [g()], options: { trajectory: "subset", arguments: "subset" }, pass: true },
  { title: "subset/superset: more arguments", ref: REF, out: [g({ b: 2, c: 1 })], options: { trajectory: "subset", arguments: "superset" }, pass: true },
  { title: "subset/superset: the counter-example, matched backwards (greedy fails too)", ref: CE_REF, out: CE_OUT, options: { trajectory: "subset", arguments: "superset" }, pass: true, greedyDisagrees: true },
  // ---- superset
  { title: "superset/exact: extra calls allowed", ref: REF, out: [h(), f({ a: 1 }), g({ b: 2 })], options: { trajectory: "superset" }, pass: true },
  { title: "superset/exact: a reference call missing", ref: REF, out: [f({ a: 1 })], options: { trajectory: "superset" }, pass: false, reasons: [miss(1, "g")] },
  { title: "superset/exact: a reference call twice needs two output calls", ref: [f({ a: 1 }), f({ a: 1 })], out: [f({ a: 1 }), g()], options: { trajectory: "superset" }, pass: false, reasons: [miss(0, "f", [0, []])] },
  { title: "superset/ignore: any arguments", ref: REF, out: [g(), f({ x: 1 })], options: { trajectory: "superset", arguments: "ignore" }, pass: true },
  { title: "superset/subset: output arguments within the reference's", ref: REF, out: [f(), g()], options: { trajectory: "superset", arguments: "subset" }, pass: true },
  { title: "superset/superset: the greedy counter-example (greedy fails, optimal passes)", ref: CE_REF, out: CE_OUT, options: { trajectory: "superset", arguments: "superset" }, pass: true, greedyDisagrees: true },
  { title: "superset/superset: the counter-example's output reversed (greedy agrees)", ref: CE_REF, out: [CE_OUT[1]!, CE_OUT[0]!], options: { trajectory: "superset", arguments: "superset" }, pass: true, greedyDisagrees: false },
  { title: "superset/superset: unsatisfiable however matched", ref: CE_REF, out: [f({ a: 1, c: 3 }), f({ a: 1, c: 4 })], options: { trajectory: "superset", arguments: "superset" }, pass: false, reasons: [miss(1, "f", [0, ["b"]])] },
  // ---- in_order
  { title: "in_order/exact: the reference as a subsequence", ref: REF, out: [f({ a: 1 }), h(), g({ b: 2 })], options: { trajectory: "in_order" }, pass: true },
  { title: "in_order/exact: out of order", ref: REF, out: [g({ b: 2 }), f({ a: 1 })], options: { trajectory: "in_order" }, pass: false, reasons: [{ kind: "order", reference: 1, name: "g" }] },
  { title: "in_order/exact: a call missing", ref: REF, out: [f({ a: 1 })], options: { trajectory: "in_order" }, pass: false, reasons: [miss(1, "g")] },
  { title: "in_order/exact: an empty reference", ref: [], out: [f()], options: { trajectory: "in_order" }, pass: true },
  { title: "in_order/ignore: any arguments", ref: REF, out: [f(), g()], options: { trajectory: "in_order", arguments: "ignore" }, pass: true },
  { title: "in_order/subset: fewer arguments, with calls between", ref: REF, out: [f(), h(), g({ b: 2 })], options: { trajectory: "in_order", arguments: "subset" }, pass: true },
  { title: "in_order/superset: the counter-example cannot be in order", ref: CE_REF, out: CE_OUT, options: { trajectory: "in_order", arguments: "superset" }, pass: false, reasons: [{ kind: "order", reference: 1, name: "f" }] },
  { title: "in_order/superset: a later, wider call", ref: CE_REF, out: [f({ a: 1, c: 3 }), f({ a: 1, b: 2, c: 3 })], options: { trajectory: "in_order", arguments: "superset" }, pass: true },
  // ---- exact
  { title: "exact/exact: the same sequence", ref: REF, out: [f({ a: 1 }), g({ b: 2 })], options: { trajectory: "exact" }, pass: true },
  { title: "exact/exact: swapped", ref: REF, out: [g({ b: 2 }), f({ a: 1 })], options: { trajectory: "exact" }, pass: false, reasons: [miss(0, "f", [1, []]), miss(1, "g", [0, []]), extra(0, "g"), extra(1, "f")] },
  { title: "exact/exact: one more call", ref: REF, out: [f({ a: 1 }), g({ b: 2 }), h()], options: { trajectory: "exact" }, pass: false, reasons: [extra(2, "h")] },
  { title: "exact/ignore: names in order", ref: REF, out: [f({ z: 1 }), g()], options: { trajectory: "exact", arguments: "ignore" }, pass: true },
  { title: "exact/subset: fewer arguments", ref: REF, out: [f(), g({ b: 2 })], options: { trajectory: "exact", arguments: "subset" }, pass: true },
  { title: "exact/superset: more arguments", ref: REF, out: [f({ a: 1, x: 1 }), g({ b: 2 })], options: { trajectory: "exact", arguments: "superset" }, pass: true },
  { title: "exact/superset: a reference argument absent", ref: REF, out: [f({ x: 1 }), g({ b: 2 })], options: { trajectory: "exact", arguments: "superset" }, pass: false, reasons: [miss(0, "f", [0, ["a"]]), extra(0, "f")] },
  // ---- strict (messages)
  { title: "strict/exact: a message's calls in another order", ref: [msg("user"), msg("assistant", f({ a: 1 }), g({ b: 2 })), msg("tool"), msg("tool"), msg("assistant")], out: [msg("user"), msg("assistant", g({ b: 2 }), f({ a: 1 })), msg("tool"), msg("tool"), msg("assistant")], options: { trajectory: "strict" }, pass: true },
  { title: "strict/exact: calls spread over two messages", ref: [msg("assistant", f({ a: 1 }), g({ b: 2 }))], out: [msg("assistant", f({ a: 1 })), msg("assistant", g({ b: 2 }))], options: { trajectory: "strict" }, pass: false, reasons: [{ kind: "messages", reference: 1, output: 2 }, { kind: "missing", reference: 1, name: "g", message: 0 }] },
  { title: "strict/exact: a role differs", ref: [msg("user"), msg("assistant", f())], out: [msg("system"), msg("assistant", f())], options: { trajectory: "strict" }, pass: false, reasons: [{ kind: "role", message: 0, reference: "user", output: "system" }] },
  { title: "strict/exact: an argument differs", ref: [msg("assistant", f({ a: 1 }))], out: [msg("assistant", f({ a: 2 }))], options: { trajectory: "strict" }, pass: false, reasons: [{ kind: "missing", reference: 0, name: "f", message: 0, closest: { output: 0, paths: ["a"] } }, { kind: "extra", output: 0, name: "f", message: 0 }] },
  { title: "strict/ignore: arguments differ", ref: [msg("assistant", f({ a: 1 }))], out: [msg("assistant", f({ a: 2 }))], options: { trajectory: "strict", arguments: "ignore" }, pass: true },
  { title: "strict/subset: fewer arguments", ref: [msg("assistant", f({ a: 1, b: 2 }))], out: [msg("assistant", f({ a: 1 }))], options: { trajectory: "strict", arguments: "subset" }, pass: true },
  { title: "strict/superset: the counter-example inside one message", ref: [msg("assistant", ...CE_REF)], out: [msg("assistant", ...CE_OUT)], options: { trajectory: "strict", arguments: "superset" }, pass: true, greedyDisagrees: true },
  { title: "strict/exact: OpenAI-form calls with JSON-text arguments", ref: [msg("assistant", { function: { name: "f", arguments: '{"a": 1}' } } as unknown as Call)], out: [msg("assistant", f({ a: 1 }))], options: { trajectory: "strict" }, pass: true },
  // ---- numbers and canonical JSON
  { title: "exact: 150 and 150.0 differ in JSON text", ref: [f('{"n": 150}')], out: [f('{"n": 150.0}')], options: { trajectory: "exact" }, pass: false, reasons: [miss(0, "f", [0, ["n"]]), extra(0, "f")] },
  { title: "numeric: 150 equals 150.0", ref: [f('{"n": 150}')], out: [f('{"n": 150.0}')], options: { trajectory: "exact", numbers: "numeric" }, pass: true },
  { title: "numeric: 1e2 equals 100", ref: [f('{"n": 1e2}')], out: [f({ n: 100 })], options: { trajectory: "exact", numbers: "numeric" }, pass: true },
  { title: "numeric: a float never equals a big integer it cannot represent", ref: [f('{"n": 9007199254740993}')], out: [f('{"n": 9007199254740993.0}')], options: { trajectory: "exact", numbers: "numeric" }, pass: false, reasons: [miss(0, "f", [0, ["n"]]), extra(0, "f")] },
  { title: "numeric: the float equals the integer it is", ref: [f('{"n": 9007199254740992}')], out: [f('{"n": 9007199254740993.0}')], options: { trajectory: "exact", numbers: "numeric" }, pass: true },
  { title: "numeric: strings are not numbers", ref: [f('{"n": "1"}')], out: [f('{"n": 1}')], options: { trajectory: "exact", numbers: "numeric" }, pass: false, reasons: [miss(0, "f", [0, ["n"]]), extra(0, "f")] },
  { title: "exact: key order and whitespace do not matter", ref: [f('{"a": 1, "b": [2, 3]}')], out: [f({ b: [2, 3], a: 1 })], options: { trajectory: "exact" }, pass: true },
  { title: "exact: a nested difference is named by its path", ref: [f({ q: { limit: 10, sort: "asc" } })], out: [f({ q: { limit: 20, sort: "asc" } })], options: { trajectory: "exact" }, pass: false, reasons: [miss(0, "f", [0, ["q.limit"]]), extra(0, "f")] },
  { title: "exact: array items by index", ref: [f({ ids: [1, 2] })], out: [f({ ids: [2, 1] })], options: { trajectory: "exact" }, pass: false, reasons: [miss(0, "f", [0, ["ids[0]", "ids[1]"]]), extra(0, "f")] },
  { title: "exact: arrays of other lengths", ref: [f({ ids: [1] })], out: [f({ ids: [1, 2] })], options: { trajectory: "exact" }, pass: false, reasons: [miss(0, "f", [0, ["ids"]]), extra(0, "f")] },
  { title: "exact: arguments that are not JSON equal only the same text", ref: [f("not json")], out: [f("not json")], options: { trajectory: "exact" }, pass: true },
  { title: "exact: arguments that are not JSON differ from JSON", ref: [f("not json")], out: [f("{}")], options: { trajectory: "exact" }, pass: false, reasons: [miss(0, "f", [0, ["$"]]), extra(0, "f")] },
  { title: "exact: absent arguments are {}", ref: [{ name: "f" }], out: [f("{}")], options: { trajectory: "exact" }, pass: true },
  // ---- overrides, one per kind
  { title: "override mode: ignore f's arguments only", ref: REF, out: [f({ a: 9 }), g({ b: 2 })], options: { trajectory: "unordered", tools: { f: "ignore" } }, pass: true },
  { title: "override mode: g still exact", ref: REF, out: [f({ a: 9 }), g({ b: 3 })], options: { trajectory: "unordered", tools: { f: "ignore" } }, pass: false, reasons: [miss(1, "g", [1, ["b"]]), extra(1, "g")] },
  { title: "override object mode: superset for f", ref: REF, out: [f({ a: 1, x: 0 }), g({ b: 2 })], options: { trajectory: "exact", tools: { f: { arguments: "superset" } } }, pass: true },
  { title: "override keys: only q.limit compared", ref: [f({ q: { limit: 10 }, x: 1 })], out: [f({ q: { limit: 10 }, x: 2 })], options: { trajectory: "exact", tools: { f: ["q.limit"] } }, pass: true },
  { title: "override keys: q.limit differs", ref: [f({ q: { limit: 10 } })], out: [f({ q: { limit: 11 } })], options: { trajectory: "exact", tools: { f: { keys: ["q.limit"] } } }, pass: false, reasons: [miss(0, "f", [0, ["q.limit"]]), extra(0, "f")] },
  { title: "override keys: absent on both sides is equal", ref: [f({ a: 1 })], out: [f({ a: 2 })], options: { trajectory: "exact", tools: { f: ["missing.key"] } }, pass: true },
  { title: "override ignore: *_id globs", ref: [f({ a: 1, req_id: "x" })], out: [f({ a: 1, req_id: "y", trace_id: "z" })], options: { trajectory: "exact", tools: { f: { ignore: ["*_id"] } } }, pass: true },
  { title: "override ignore: * stays within a segment", ref: [f({ m: { req_id: 1 } })], out: [f({ m: { req_id: 2 } })], options: { trajectory: "exact", tools: { f: { ignore: ["*_id"] } } }, pass: false, reasons: [miss(0, "f", [0, ["m.req_id"]]), extra(0, "f")] },
  { title: "override ignore: ** crosses segments", ref: [f({ m: { req_id: 1 } })], out: [f({ m: { req_id: 2 } })], options: { trajectory: "exact", tools: { f: { ignore: ["**_id"] } } }, pass: true },
  { title: "override defaults: an omitted default equals the default given", ref: [f({ q: "x" })], out: [f({ q: "x", limit: 10 })], options: { trajectory: "exact", tools: { f: { defaults: { limit: 10 } } } }, pass: true },
  { title: "override defaults: another value still differs", ref: [f({ q: "x" })], out: [f({ q: "x", limit: 20 })], options: { trajectory: "exact", tools: { f: { defaults: { limit: 10 } } } }, pass: false, reasons: [miss(0, "f", [0, ["limit"]]), extra(0, "f")] },
  { title: "override defaults: a nested default by dotted path", ref: [f({ q: { sort: "asc" } })], out: [f({ q: {} })], options: { trajectory: "exact", tools: { f: { defaults: { "q.sort": "asc" } } } }, pass: true },
  { title: "override min: too few calls of f", ref: [f({ a: 1 })], out: [f({ a: 1 })], options: { trajectory: "superset", tools: { f: { min: 2 } } }, pass: false, reasons: [{ kind: "count", name: "f", count: 1, min: 2 }] },
  { title: "override max: too many calls of f", ref: [f({ a: 1 })], out: [f({ a: 1 }), f({ a: 1 })], options: { trajectory: "superset", tools: { f: { max: 1 } } }, pass: false, reasons: [{ kind: "count", name: "f", count: 2, max: 1 }] },
  { title: "override min and max: within bounds", ref: [f({ a: 1 })], out: [f({ a: 1 }), f({ a: 1 })], options: { trajectory: "superset", tools: { f: { min: 1, max: 2 } } }, pass: true },
  { title: "override max 0: a forbidden tool", ref: [f({ a: 1 })], out: [f({ a: 1 }), h()], options: { trajectory: "superset", tools: { h: { max: 0 } } }, pass: false, reasons: [{ kind: "count", name: "h", count: 1, max: 0 }] },
];

Deno.test("trajectoryMatch() gives each table case its verdict and reasons", () => {
  ok(CASES.length >= 60, `${CASES.length} cases`);
  const pairs = new Set(
    CASES.map((c) => `${c.options.trajectory}/${c.options.arguments ?? "exact"}`),
  );
  for (const t of ["strict", "unordered", "subset", "superset", "in_order", "exact"]) {
    for (const a of ["exact", "ignore", "subset", "superset"]) {
      ok(pairs.has(`${t}/${a}`), `${t}/${a}`);
    }
  }
  for (const c of CASES) {
    const expected: TrajectoryResult = {
      pass: c.pass,
      reasons: c.reasons ?? [],
      greedyDisagrees: c.greedyDisagrees ?? false,
    };
    const got = trajectoryMatch(c.ref as Call[], c.out as Call[], c.options);
    assertEquals(got, expected, c.title);
  }
});

// agentevals' published trajectory cases (python/tests/test_trajectory.py), rewritten as inputs
// and the verdict each of its four evaluators gives. Its evaluators of that version compare
// arguments only in strict mode, so these run with `arguments: "ignore"`; strict's own
// argument check is the last case.
const weather = (city: string): Call => ({ name: "get_weather", arguments: { city } });
const U = msg("user"), T = msg("tool"), A = msg("assistant");
const AGENTEVALS: {
  title: string;
  out: ReturnType<typeof msg>[];
  ref: ReturnType<typeof msg>[];
  verdicts: { unordered: boolean; superset: boolean; subset: boolean; strict: boolean };
}[] = [
  {
    title: "one call, its argument worded differently",
    out: [U, msg("assistant", weather("SF")), T, A],
    ref: [U, msg("assistant", weather("San Francisco")), T, A],
    verdicts: { unordered: true, superset: true, subset: true, strict: true },
  },
  {
    title: "parallel calls listed in the other order",
    out: [U, msg("assistant", weather("SF"), weather("London")), T, T, A],
    ref: [U, msg("assistant", weather("London"), weather("SF")), T, T, A],
    verdicts: { unordered: true, superset: true, subset: true, strict: true },
  },
  {
    title: "the same calls over more messages",
    out: [U, msg("assistant", weather("SF")), T, msg("assistant", weather("London")), T, A],
    ref: [U, msg("assistant", weather("London"), weather("SF")), T, T, A],
    verdicts: { unordered: true, superset: true, subset: true, strict: false },
  },
  {
    title: "one of two reference calls made",
    out: [U, msg("assistant", weather("SF")), T, A],
    ref: [U, msg("assistant", weather("London"), weather("SF")), T, T, A],
    verdicts: { unordered: false, superset: false, subset: true, strict: false },
  },
  {
    title: "another tool called",
    out: [U, msg("assistant", weather("SF")), T, A],
    ref: [U, msg("assistant", { name: "accuweather_forecast", arguments: { city: "SF" } }), T, A],
    verdicts: { unordered: false, superset: false, subset: false, strict: false },
  },
  {
    title: "two calls where the reference makes one",
    out: [U, msg("assistant", weather("San Francisco"), weather("London")), T, T, A],
    ref: [U, msg("assistant", weather("SF and London")), T, A],
    verdicts: { unordered: false, superset: true, subset: false, strict: false },
  },
  {
    title: "one call where the reference makes two",
    out: [U, msg("assistant", weather("SF and London")), T, A],
    ref: [U, msg("assistant", weather("San Francisco"), weather("London")), T, T, A],
    verdicts: { unordered: false, superset: false, subset: true, strict: false },
  },
];

Deno.test("trajectoryMatch() agrees with agentevals' published verdicts", () => {
  for (const c of AGENTEVALS) {
    for (const [mode, verdict] of Object.entries(c.verdicts)) {
      const flat = mode !== "strict";
      const calls = (ms: ReturnType<typeof msg>[]) =>
        flat ? ms.flatMap((m) => m.tool_calls ?? []) : ms;
      const r = trajectoryMatch(calls(c.ref), calls(c.out), {
        trajectory: mode as TrajectoryMatchOptions["trajectory"],
        arguments: "ignore",
      });
      assertEquals(r.pass, verdict, `${c.title}: ${mode}`);
      assertEquals(r.reasons.length === 0, verdict, `${c.title}: ${mode} reasons`);
    }
  }
  // Strict with exact arguments: "SF" is not "San Francisco".
  const [c] = AGENTEVALS;
  assertEquals(trajectoryMatch(c!.ref, c!.out, { trajectory: "strict" }).pass, false);
});

Deno.test("trajectoryMatch() refuses bad options and trajectories", () => {
  const run = (o: unknown, ref: unknown = [], out: unknown = []) => () =>
    trajectoryMatch(ref as Call[], out as Call[], o as TrajectoryMatchOptions);
  throws(run({}), /trajectory must be one of strict, unordered/);
  throws(run({ trajectory: "ordered" }), RangeError);
  throws(run({ trajectory: "exact", arguments: "fuzzy" }), /arguments must be one of/);
  throws(run({ trajectory: "exact", numbers: "approx" }), /numbers must be exact or numeric/);
  throws(run({ trajectory: "exact", strict: true }), /Unknown option "strict"/);
  throws(
    run({ trajectory: "exact", tools: { f: { min: -1 } } }),
    /tools\.f\.min must be an integer/,
  );
  throws(run({ trajectory: "exact", tools: { f: { min: 3, max: 2 } } }), /min 3 exceeds max 2/);
  throws(run({ trajectory: "exact", tools: { f: { ignore: "x" } } }), TypeError);
  throws(run({ trajectory: "exact", tools: { f: { mode: "x" } } }), /unknown field "mode"/);
  throws(run({ trajectory: "exact" }, [{ arguments: {} }]), /reference\[0\] must be a call/);
  throws(run({ trajectory: "strict" }, [{ tool_calls: [] }]), /must be a message/);
  throws(run({ trajectory: "exact" }, {}), /must be a list of calls/);
});

Deno.test("trajectoryMatch() reads Anthropic, LangChain and legacy OpenAI calls as their plain equivalents", () => {
  // They were refused (a TypeError), and before that read as calls without arguments (or
  // messages without calls), so that these passed.
  const loose = (x: unknown) => x as Call[];
  const exact = { trajectory: "exact" } as const, strict = { trajectory: "strict" } as const;
  const anthropic = (city: string) => ({ type: "tool_use", id: "t", name: "f", input: { city } });
  const langchain = (q: string) => ({ name: "f", args: { q }, id: "c", type: "tool_call" });
  const run = (ref: unknown, out: unknown, o: TrajectoryMatchOptions = exact) =>
    trajectoryMatch(loose(ref), loose(out), o);
  assertEquals(run([anthropic("Paris")], [anthropic("Oslo")]).reasons, [
    miss(0, "f", [0, ["city"]]),
    extra(0, "f"),
  ]);
  assertEquals(run([anthropic("Paris")], [f({ city: "Paris" })]).pass, true);
  assertEquals(run([f({ q: "x" })], [langchain("y")]).pass, false);
  assertEquals(run([f({ q: "x" })], [langchain("x")]).pass, true);
  assertEquals(run([langchain("x")], [anthropic("x")]).pass, false); // q is not city
  // In strict, an Anthropic message's tool_use blocks are its calls, in content order; its text
  // blocks and the user's tool_result blocks are no calls.
  const said = (...cities: string[]) => [{ role: "user", content: "?" }, {
    role: "assistant",
    content: [{ type: "text", text: "Let me look." }, ...cities.map(anthropic)],
  }, {
    role: "user",
    content: cities.map((_, i) => ({ type: "tool_result", tool_use_id: `t${i}`, content: "ok" })),
  }];
  assertEquals(run(said("Paris", "Oslo"), said("Oslo", "Paris"), strict).pass, true);
  assertEquals(run(said("Paris"), said("Oslo"), strict).reasons, [
    { ...miss(0, "f", [0, ["city"]]), message: 1 },
    { ...extra(0, "f"), message: 1 },
  ]);
  assertEquals(run(said("Paris"), said("Paris", "Paris"), strict).reasons, [
    { ...extra(0, "f"), message: 1 },
  ]);
  const plain = (...cities: string[]) => [
    { role: "user" },
    { role: "assistant", tool_calls: cities.map((city) => f({ city })) },
    { role: "user" },
  ];
  assertEquals(run(plain("Paris"), said("Paris"), strict).pass, true);
  // The legacy function_call is one call.
  const legacy = (a: number) => [{
    role: "assistant",
    content: null,
    function_call: { name: "f", arguments: `{"a": ${a}}` },
  }];
  assertEquals(
    run(legacy(1), [{ role: "assistant", tool_calls: [f({ a: 1 })] }], strict).pass,
    true,
  );
  assertEquals(run(legacy(1), legacy(2), strict).pass, false);
  assertEquals(run([{ role: "assistant" }], legacy(1), strict).reasons, [
    { ...extra(0, "f"), message: 0 },
  ]);
  // LangChain's AIMessage from an Anthropic model lists its tool_use blocks again in tool_calls:
  // the same calls, read once.
  const both = (city: string) => [{
    role: "assistant",
    content: [{ type: "text", text: "On it." }, anthropic(city)],
    tool_calls: [{ name: "f", args: { city }, id: "t", type: "tool_call" }],
  }];
  assertEquals(run(both("Paris"), plain("Paris").slice(1, 2), strict).pass, true);
  assertEquals(run(both("Paris"), both("Oslo"), strict).pass, false);
  // OpenAI's shapes (Chat Completions, Responses items) still read.
  const chat = (q: string) => [{ role: "user", content: "?" }, {
    role: "assistant",
    content: null,
    tool_calls: [{
      id: "c1",
      type: "function",
      function: { name: "f", arguments: `{"q":"${q}"}` },
    }],
  }, { role: "tool", tool_call_id: "c1", content: "[]" }];
  assertEquals(run(chat("x"), chat("x"), strict).pass, true);
  assertEquals(run(chat("x"), chat("y"), strict).pass, false);
  const item = (a: number) => ({
    type: "function_call",
    call_id: "c",
    name: "f",
    arguments: `{"a":${a}}`,
  });
  assertEquals(run([item(1)], [item(2)]).pass, false);
});

Deno.test("trajectoryMatch() reads an Anthropic input's numbers as JavaScript holds them", () => {
  // An object's numbers are JavaScript's (150.0 is 150); JSON text keeps its lexemes.
  const loose = (x: unknown) => x as Call[];
  const input = [{ type: "tool_use", id: "t", name: "pay", input: { amount: 150.0, n: [1.5] } }];
  const text = (
    amount: string,
  ) => [{ name: "pay", arguments: `{"n": [1.5], "amount": ${amount}}` }];
  const run = (ref: unknown, numbers: "exact" | "numeric") =>
    trajectoryMatch(loose(ref), loose(input), { trajectory: "exact", numbers }).pass;
  assertEquals(run(text("150"), "exact"), true);
  assertEquals(run(text("150.0"), "exact"), false);
  assertEquals(run(text("150.0"), "numeric"), true);
  assertEquals(run(text("1.5e2"), "numeric"), true);
  assertEquals(run(text("151"), "numeric"), false);
  assertEquals(run(text('"150"'), "numeric"), false); // strings are never numbers
});

Deno.test("trajectoryMatch() refuses ambiguous and unread calls, naming their path", () => {
  const loose = (x: unknown) => x as Call[];
  const cases: [string, unknown, RegExp][] = [
    [
      "exact",
      [f(), { name: "f", arguments: { a: 1 }, input: { a: 2 } }],
      /^TypeError: output\[1\] is ambiguous: it has arguments under both "arguments" and "input"; keep one$/,
    ],
    [
      "superset",
      [{ name: "f", input: {}, args: {} }],
      /^TypeError: output\[0\] is ambiguous: .*both "input" and "args"/,
    ],
    [
      "exact",
      [{ name: "f", arguments: "{}", function: { name: "f", arguments: "{}" } }],
      /^TypeError: output\[0\] is ambiguous: it has both function and name/,
    ],
    [
      "exact",
      [{ type: "tool_use", input: {} }],
      /^TypeError: output\[0\] must be a call: \{name, arguments\}, \{function: \{name, arguments\}\}, \{type: "tool_use", name, input\} or \{name, args\}$/,
    ],
    [
      "strict",
      [{
        role: "assistant",
        content: [{ type: "text" }, { type: "tool_use", name: "f", args: {}, input: {} }],
      }],
      /^TypeError: output\[0\]\.content\[1\] is ambiguous: .*"input" and "args"/,
    ],
    [
      "strict",
      [{
        role: "assistant",
        content: [{ type: "server_tool_use", name: "web_search", input: {} }],
      }],
      /^TypeError: output\[0\]\.content\[0\] is a "server_tool_use" block, a call run by a server, which is not read as a tool call/,
    ],
    [
      "strict",
      [{
        role: "assistant",
        tool_calls: [{ name: "f", args: {} }],
        invalid_tool_calls: [{ name: "g", args: "{oops", id: "c", error: null }],
      }],
      /^TypeError: output\[0\]\.invalid_tool_calls\[0\] is a LangChain invalid_tool_call \(its arguments did not parse\), which is not read/,
    ],
    [
      "in_order",
      [{ name: "g", args: null, id: "c", error: "bad", type: "invalid_tool_call" }],
      /^TypeError: output\[0\] is a LangChain invalid_tool_call/,
    ],
    [
      "unordered",
      [f(), { type: "mcp_tool_use", id: "m", name: "f", server_name: "s", input: {} }],
      /^TypeError: output\[1\] is a "mcp_tool_use" block, a call run by a server/,
    ],
    [
      "strict",
      [{ role: "user" }, { role: "assistant", tool_calls: [f()], function_call: g() }],
      /^TypeError: output\[1\] is ambiguous: it makes calls in both tool_calls and function_call, and tool_calls\[0\] and function_call differ; keep one$/,
    ],
    [
      "strict",
      [{
        role: "assistant",
        content: [{ type: "tool_use", name: "f", input: { a: 1 } }],
        tool_calls: [f({ a: 1 }), f()],
      }],
      /^TypeError: output\[0\] is ambiguous: .*tool_calls and content, and tool_calls holds 2 calls and content 1; keep one$/,
    ],
    [
      "strict",
      [{
        role: "assistant",
        content: [{ type: "tool_use", name: "f", input: { a: 1 } }],
        tool_calls: [{ name: "f", args: { a: 1.5 } }],
      }],
      /^TypeError: output\[0\] is ambiguous: .*tool_calls\[0\] and content\[0\] differ/,
    ],
    [
      "strict",
      [{ role: "assistant", function_call: { name: 7 } }],
      /^TypeError: output\[0\]\.function_call must be a call/,
    ],
    [
      "strict",
      [{ role: "assistant", tool_calls: "f()" }],
      /^TypeError: output\[0\]\.tool_calls must be a list of calls$/,
    ],
  ];
  for (const [trajectory, output, words] of cases) {
    throws(
      () => trajectoryMatch([], loose(output), { trajectory } as TrajectoryMatchOptions),
      words,
    );
    // The same call in the reference is named there.
    const ref = new RegExp(words.source.replace("output", "reference"));
    throws(() => trajectoryMatch(loose(output), [], { trajectory } as TrajectoryMatchOptions), ref);
  }
  // An empty tool_calls list holds no call: the blocks are read.
  const blocks = [{
    role: "assistant",
    content: [{ type: "tool_use", name: "f", input: {} }],
    tool_calls: [],
  }];
  const plain = [{ role: "assistant", tool_calls: [f()] }];
  assertEquals(trajectoryMatch(loose(blocks), loose(plain), { trajectory: "strict" }).pass, true);
});

Deno.test("trajectoryMatchMetric() scores a run against its golden's reference trajectory", () => {
  const trace = {
    golden_id: "q",
    arm: "base",
    repeat: 0,
    sql: [],
    final_rows: null,
    final_answer: null,
    submitted: true,
    hit_turn_limit: false,
    tool_calls: [{ name: "f", arguments: '{"a": 2}' }],
  };
  const golden = { id: "q", question: "?", reference_trajectory: [f({ a: 1 })] };
  const catalog = { views: [] };
  const r = trajectoryMatchMetric({ golden, trace, catalog }, { trajectory: "superset" });
  assertEquals(r, {
    applicable: true,
    score: 0,
    details: {
      pass: false,
      reasons: [miss(0, "f", [0, ["a"]])],
      n_reasons: 1,
      greedy_disagrees: false,
    },
  });
  const skipped = trajectoryMatchMetric({ golden: { id: "q", question: "?" }, trace, catalog }, {
    trajectory: "superset",
  });
  assertEquals(skipped.applicable, false);
  const strict = trajectoryMatchMetric({ golden, trace, catalog }, { trajectory: "strict" });
  assertEquals(strict.details, { reason: "The trace has no messages (strict mode)" });
  throws(() => trajectoryMatchMetric({ golden, trace, catalog }, {}), /trajectory must be one of/);
});

Deno.test("loadSuite() with suiteChecks() places a bad trajectory_match param at its line", () => {
  const text = "metrics:\n  - type: trajectory_match\n    params:\n      trajectory: ordered\n";
  throws(() => loadSuite(text, { ...suiteChecks(), source: "s.yaml" }), (e: unknown) => {
    ok(e instanceof SuiteError);
    assertEquals(e.issues.map((i) => [i.line, i.field]), [[4, "metrics[0].params.trajectory"]]);
    ok(/trajectory must be one of strict/.test(e.message), e.message);
    return true;
  });
  const ok1 = loadSuite(
    "- type: trajectory_match\n  params: {trajectory: superset, tools: {run_sql: ignore}}\n",
    suiteChecks(),
  );
  assertEquals(ok1.metrics[0]!.params, { trajectory: "superset", tools: { run_sql: "ignore" } });
});

Deno.test("trajectory_match names a golden or trace it cannot read, as bad input, not a crash", async () => {
  const trace = {
    golden_id: "q",
    arm: "base",
    repeat: 2,
    sql: [],
    final_rows: null,
    final_answer: null,
    submitted: true,
    hit_turn_limit: false,
    tool_calls: [{ name: "f", arguments: {} }],
  };
  const catalog = { views: [] };
  // [golden's reference_trajectory, trace's messages (strict), mode, input, words]
  const cases: [unknown[], unknown[] | undefined, string, "golden" | "trace", RegExp][] = [
    [
      [{ name: "f" }, { arguments: {} }],
      undefined,
      "superset",
      "golden",
      /^reference_trajectory\[1\] must be a call/,
    ],
    [
      [{ function: { name: 3 } }],
      undefined,
      "unordered",
      "golden",
      /^reference_trajectory\[0\] must be a call/,
    ],
    [
      [{ name: "f" }],
      [{ role: "assistant" }],
      "strict",
      "golden",
      /^reference_trajectory\[0\] must be a message/,
    ],
    [
      [{ role: "assistant", tool_calls: [{ name: "f" }] }],
      [{ role: "assistant", tool_calls: [7] }],
      "strict",
      "trace",
      /^messages\[0\]\.tool_calls\[0\] must be a call/,
    ],
    [
      [{ type: "tool_use", name: "f", input: { a: 1 }, arguments: {} }],
      undefined,
      "exact",
      "golden",
      /^reference_trajectory\[0\] is ambiguous: it has arguments under both "arguments" and "input"/,
    ],
    [
      [{ role: "assistant", tool_calls: [{ name: "f" }] }],
      [
        {
          role: "assistant",
          content: [{ type: "tool_use", name: "f", input: {} }],
          tool_calls: [],
        },
        {
          role: "assistant",
          content: [{ type: "tool_use", name: "f", input: {} }],
          function_call: { name: "g" },
        },
      ],
      "strict",
      "trace",
      /^messages\[1\] is ambiguous: it makes calls in both content and function_call/,
    ],
  ];
  for (const [reference, messages, mode, input, words] of cases) {
    const golden = { id: "q", question: "?", reference_trajectory: reference };
    const run = {
      golden,
      trace: { ...trace, ...(messages !== undefined && { messages }) },
      catalog,
    };
    throws(() => trajectoryMatchMetric(run, { trajectory: mode }), (e: unknown) => {
      ok(e instanceof RunInputError, `${words}: ${e}`);
      assertEquals(e.input, input);
      ok(words.test(e.message), e.message);
      return true;
    }, `${words}: no error`);
  }
  // runSuite says which run and metric met it.
  const suite = loadSuite(
    "- name: route\n  type: trajectory_match\n  params: {trajectory: superset}\n",
  );
  const golden = { id: "q", question: "?", reference_trajectory: [{ name: 1 }] };
  await runSuite(suite, { goldens: [golden], traces: [trace], catalog }).then(
    () => ok(false, "runSuite accepted a reference call without a name"),
    (e: unknown) => {
      ok(e instanceof RunInputError, String(e));
      assertEquals(e.input, "golden");
      assertEquals(
        e.message,
        'Golden "q" (arm base, repeat 2), metric "route": reference_trajectory[0] must be a call: ' +
          '{name, arguments}, {function: {name, arguments}}, {type: "tool_use", name, input} or ' +
          "{name, args}",
      );
    },
  );
});
