// Calls read from a suite's files keep their number lexemes: readGoldens and readTraces remember,
// for each object and array of a line that lost a lexeme to JS (`1.0` is `1`, `1e2` is `100`,
// 9007199254740993 is 9007199254740992), its canonical text as the file wrote it, and the metrics
// that compare arguments (trajectory_match, step_efficiency) read that text. On seeded goldens and
// traces whose calls hold their arguments as JSON objects, in every call shape, each verdict must
// be the one given by the same calls with their arguments as JSON text, which keeps its lexemes.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  readGoldens,
  readTraces,
  stepEfficiency,
  type Trace,
  trajectoryMatch,
} from "../../src/suite/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";

// Numbers by value: the lexemes of one class are one double, of two classes two doubles, except
// that the two large integers are one double but two JSON numbers.
const CLASSES = [
  ["1", "1.0", "1e0", "10e-1", "1.00"],
  ["100", "1e2", "1E+2", "100.0"],
  ["9007199254740993"],
  ["9007199254740992", "9007199254740992.0"],
  ["0", "-0", "0.0", "-0.0", "0e5"],
  ["1.5", "1.50", "15e-1"],
  ["0.1", "0.10", "1e-1"],
];
const KEYS = ["a", "b", "größe", "x", "数"];

type Tree = number | string | Tree[] | { [k: string]: Tree };

/** A random argument tree: numbers are class indexes, strings stay strings. */
function tree(rng: Rng, depth = 0): Tree {
  if (depth === 0 || (depth < 3 && rng.chance(0.3))) {
    const keys = KEYS.filter(() => rng.chance(0.5));
    return Object.fromEntries(keys.map((k) => [k, tree(rng, depth + 1)]));
  }
  if (depth < 3 && rng.chance(0.2)) {
    return Array.from({ length: rng.int(3) }, () => tree(rng, depth + 1));
  }
  return rng.chance(0.15) ? rng.pick(["1.0", "x"]) : rng.int(CLASSES.length);
}

/** The output's tree: the reference's, now and then with a number of another class. */
function near(rng: Rng, t: Tree): Tree {
  if (typeof t === "number") return rng.chance(0.1) ? rng.int(CLASSES.length) : t;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.map((x) => near(rng, x));
  return Object.fromEntries(Object.entries(t).map(([k, x]) => [k, near(rng, x)]));
}

/** JSON text of a tree, each number a random lexeme of its class, compact or spaced. */
function text(rng: Rng, t: Tree): string {
  const sp = rng.chance(0.5) ? " " : "";
  if (typeof t === "number") return rng.pick(CLASSES[t]!);
  if (typeof t === "string") return JSON.stringify(t);
  if (Array.isArray(t)) return `[${t.map((x) => text(rng, x)).join(`,${sp}`)}]`;
  return `{${Object.entries(t).map(([k, x]) => `${JSON.stringify(k)}:${sp}${text(rng, x)}`)}}`;
}

/** A call in a random shape, with its arguments as the object `args` (JSON text of one). */
function call(rng: Rng, name: string, args: string): string {
  const n = JSON.stringify(name);
  switch (rng.int(4)) {
    case 0:
      return `{"name": ${n}, "arguments": ${args}}`;
    case 1:
      return `{"type": "tool_use", "id": "toolu_1", "name": ${n}, "input": ${args}}`;
    case 2:
      return `{"name": ${n}, "args": ${args}, "id": "call_1", "type": "tool_call"}`;
    default:
      return `{"type": "function", "function": {"name": ${n}, "arguments": ${args}}}`;
  }
}

const goldenLine = (calls: string[]) =>
  `{"id": "g1", "question": "q", "reference_trajectory": [${calls.join(", ")}]}`;
const traceLine = (calls: string[]) =>
  `{"golden_id": "g1", "arm": "a", "repeat": 0, "tool_calls": [${calls.join(", ")}], ` +
  `"sql": [], "final_rows": null, "final_answer": null, "submitted": true, ` +
  `"hit_turn_limit": false}`;

Deno.test("calls read from files compare their arguments as the files wrote them: 400 seeded runs, every mode and call shape", () => {
  const rng = makeRng(20261206);
  let passes = 0, fails = 0, lexemeLost = 0;
  for (let n = 0; n < 400; n++) {
    const names = Array.from({ length: 1 + rng.int(3) }, () => rng.pick(["f", "g"]));
    const refTrees = names.map(() => tree(rng));
    const outTrees = refTrees.map((t) => near(rng, t));
    const refTexts = refTrees.map((t) => text(rng, t));
    const outTexts = outTrees.map((t) => text(rng, t));
    const golden = readGoldens(goldenLine(names.map((m, i) => call(rng, m, refTexts[i]!))));
    const goldens = golden.map((r) => r.value);
    const trace = readTraces(traceLine(names.map((m, i) => call(rng, m, outTexts[i]!))), {
      goldens,
    })[0]!.value;
    const asText = (texts: string[]) => names.map((name, i) => ({ name, arguments: texts[i]! }));
    if (JSON.stringify(JSON.parse(`[${refTexts}]`)) !== `[${refTexts}]`) lexemeLost++;
    for (const trajectory of ["exact", "unordered", "superset"] as const) {
      for (const numbers of ["exact", "numeric"] as const) {
        const options = { trajectory, numbers };
        const want = trajectoryMatch(asText(refTexts), asText(outTexts), options);
        const got = trajectoryMatch(
          goldens[0]!.reference_trajectory! as never,
          trace.tool_calls as never,
          options,
        );
        deepStrictEqual(got, want, `run ${n} ${trajectory} ${numbers}: ${refTexts} ~ ${outTexts}`);
        if (want.pass) passes++;
        else fails++;
      }
    }
    // Duplicates: the same calls, once with object arguments read from the file, once as text.
    const plain: Trace = { ...trace, tool_calls: asText(outTexts) };
    const run = (t: Trace) =>
      stepEfficiency({ golden: goldens[0]!, trace: t, catalog: { views: [] } });
    deepStrictEqual(run(trace), run(plain), `run ${n}: ${outTexts}`);
  }
  // Both verdicts are common, and most runs have a lexeme that JS would have lost.
  ok(passes > 300 && fails > 300, `${passes} passes, ${fails} fails`);
  ok(lexemeLost > 300, `${lexemeLost} runs lose a lexeme to JSON.parse`);
});

Deno.test("a golden's 1.0 and big integer match the agent's text only as written, also by value", () => {
  const [g] = readGoldens(
    '{"id": "g1", "question": "q", "reference_trajectory": ' +
      '[{"name": "f", "arguments": {"x": 1.0, "big": 9007199254740993}}]}',
  );
  const ref = g!.value.reference_trajectory! as { name: string; arguments: unknown }[];
  const out = (args: string) => [{ name: "f", arguments: args }];
  const pass = (args: string, numbers: "exact" | "numeric") =>
    trajectoryMatch(ref, out(args), { trajectory: "exact", numbers }).pass;
  strictEqual(pass('{"x": 1.0, "big": 9007199254740993}', "exact"), true);
  strictEqual(pass('{"x": 1, "big": 9007199254740993}', "exact"), false);
  strictEqual(pass('{"x": 1, "big": 9007199254740993}', "numeric"), true);
  // One double, two numbers: different by value too.
  strictEqual(pass('{"x": 1.0, "big": 9007199254740992}', "numeric"), false);
  // A golden edited after it was read compares as it is now.
  (ref[0]!.arguments as Record<string, unknown>).x = 2;
  strictEqual(pass('{"x": 2, "big": 9007199254740992}', "exact"), true);
  strictEqual(pass('{"x": 1.0, "big": 9007199254740993}', "exact"), false);
});

Deno.test("calls built in JS compare their objects as JS holds them (1.0 is 1)", () => {
  const ref = [{ name: "f", arguments: { x: 1.0 } }];
  strictEqual(
    trajectoryMatch(ref, [{ name: "f", arguments: '{"x": 1}' }], { trajectory: "exact" }).pass,
    true,
  );
  strictEqual(
    trajectoryMatch(ref, [{ name: "f", arguments: '{"x": 1.0}' }], { trajectory: "exact" }).pass,
    false,
  );
});

Deno.test("messages read from files keep their calls' lexemes too (strict mode)", () => {
  const [g] = readGoldens(
    '{"id": "g1", "question": "q", "reference_trajectory": [{"role": "assistant", "content": ' +
      '[{"type": "tool_use", "id": "t1", "name": "f", "input": {"t": 20.0}}]}]}',
  );
  const goldens = [g!.value];
  const messages = (input: string) =>
    readTraces(
      `{"golden_id": "g1", "arm": "a", "repeat": 0, "tool_calls": [], "sql": [], ` +
        `"final_rows": null, "final_answer": null, "submitted": true, "hit_turn_limit": false, ` +
        `"messages": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": ${input}, "id": "c1", "type": "tool_call"}]}]}`,
      { goldens },
    )[0]!.value.messages!;
  const pass = (input: string, numbers: "exact" | "numeric") =>
    trajectoryMatch(g!.value.reference_trajectory as never, messages(input) as never, {
      trajectory: "strict",
      numbers,
    }).pass;
  strictEqual(pass('{"t": 20.0}', "exact"), true);
  strictEqual(pass('{"t": 20}', "exact"), false);
  strictEqual(pass('{"t": 20}', "numeric"), true);
  strictEqual(pass('{"t": 2e1}', "numeric"), true);
});
