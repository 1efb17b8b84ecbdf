// The suite's in-memory path against its file readers, differentially: seeded valid goldens,
// traces and catalogs, each case spoiled one way (a misspelt key, a wrong type, a missing field, a
// row that is no object, an unknown call or message block, a golden id or run given twice, no
// runs...), written as files and read back by readGoldens, readTraces and readCatalog before
// runSuite (as `assay suite run` reads them), and given to runSuite as the objects themselves.
// Both must refuse, with the same message apart from where (file and line, or list and index),
// or both accept and give the same report, byte for byte.
import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import {
  clusterKeys,
  type Golden,
  GOLDEN_SCHEMA,
  keptRepeats,
  locateRunInputError,
  readCatalog,
  readGoldens,
  readTraces,
  repeatsReport,
  RunInputError,
  runSuite,
  type SchemaCatalog,
  type Suite,
  suiteChecks,
  SuiteInputError,
  suiteRunReport,
  type Trace,
  TRACE_SCHEMA,
} from "../../src/suite/mod.ts";
import { loadSuite } from "../../src/suite/mod.ts";
import { jsonArrayHint } from "../../src/jsonl/mod.ts";
import { makeRng, type Rng, shuffled } from "../_corpus.ts";

const CASES = 480;
const SEED = 0x5e1f_2026;

type Row = Record<string, unknown>;

/** One case's inputs, as objects. */
interface Inputs {
  suite: Suite;
  goldens: Row[];
  traces: Row[];
  catalog: unknown;
}

const IDS = ["g1", "g2", "g3", "__proto__", "g\u{1F600}"];
const ARMS = ["base", "adapter", "Ω"];

function call(rng: Rng): Row {
  const name = rng.pick(["list_views", "run_sql"]);
  const args = { x: rng.int(2) };
  switch (rng.int(4)) {
    case 0:
      return { name, arguments: args };
    case 1:
      return { function: { name, arguments: JSON.stringify(args) } };
    case 2:
      return { type: "tool_use", id: `t${rng.int(9)}`, name, input: args };
    default:
      return { name, args };
  }
}

function calls(rng: Rng): Row[] {
  return Array.from({ length: rng.int(4) }, () => call(rng));
}

function messages(rng: Rng): Row[] {
  return [{ role: "user", content: "q" }, { role: "assistant", tool_calls: calls(rng) }];
}

/** Valid inputs: a suite of every deterministic metric, goldens, traces and a catalog. */
function validInputs(rng: Rng): Inputs {
  const mode = rng.pick(["exact", "unordered", "superset", "strict"]);
  const metrics = [
    { type: "schema_membership" },
    { type: "expected_view_recall" },
    { type: "reference_value_match" },
    { type: "step_efficiency", threshold: rng.pick([0.5, 0.8]) },
    { type: "hit_limit" },
    { type: "trajectory_match", params: { trajectory: mode } },
  ];
  const suite = loadSuite(JSON.stringify({ metrics: shuffled(rng, metrics) }), {
    format: "jsonc",
    ...suiteChecks(),
  });
  const goldens: Row[] = shuffled(rng, IDS).slice(0, 2 + rng.int(3)).map((id) => ({
    id,
    question: "?",
    ...(rng.chance(0.6) && { expected_views: [rng.pick(["orders", "refunds"])] }),
    ...(rng.chance(0.6) && { reference_values: { v: rng.pick([1, 2, "two", null]) } }),
    ...(rng.chance(0.4) && { reference_answer_text: "an answer" }),
    ...(rng.chance(0.7) && {
      reference_trajectory: mode === "strict" ? messages(rng) : calls(rng),
    }),
    ...(rng.chance(0.3) && { topic: rng.pick(["sales", 3]) }),
  }));
  const traces: Row[] = [];
  for (const arm of shuffled(rng, ARMS).slice(0, 1 + rng.int(2))) {
    for (const g of goldens) {
      for (let repeat = 0; repeat < 1 + rng.int(2); repeat++) {
        traces.push({
          golden_id: g.id,
          arm,
          repeat,
          tool_calls: calls(rng),
          sql: rng.chance(0.7) ? [rng.pick(["SELECT v FROM orders", "SELECT w FROM nowhere"])] : [],
          final_rows: rng.chance(0.3) ? null : [{ v: rng.pick([1, 2, "two"]) }],
          final_answer: rng.chance(0.2) ? null : "an answer",
          submitted: rng.chance(0.8),
          hit_turn_limit: rng.chance(0.2),
          ...(rng.chance(mode === "strict" ? 0.9 : 0.3) && { messages: messages(rng) }),
        });
      }
    }
  }
  const catalog = {
    views: [{ name: "orders", columns: ["v"] }, { name: "refunds", columns: ["v"] }],
  };
  return { suite, goldens, traces: shuffled(rng, traces), catalog };
}

const GOLDEN_FIELDS = Object.keys(GOLDEN_SCHEMA.properties);
const TRACE_FIELDS = Object.keys(TRACE_SCHEMA.properties);
const WRONG_VALUES: unknown[] = [null, 0, 1.5, -1, "", "x", true, [], {}, [1], [{}], { a: 1 }];

/** `name` misspelt one way: case, `_` and `-` changed, or a character dropped, added or changed. */
function misspelt(rng: Rng, name: string): string {
  const at = rng.int(name.length);
  switch (rng.int(6)) {
    case 0:
      return name.replace(/_(.)/g, (_, c: string) => c.toUpperCase());
    case 1:
      return name.toUpperCase();
    case 2:
      return name.replaceAll("_", rng.pick(["", "-"]));
    case 3:
      return name.slice(0, at) + name.slice(at + 1);
    case 4:
      return name.slice(0, at) + rng.pick(["e", "_", "s"]) + name.slice(at);
    default:
      return name.slice(0, at) + rng.pick(["a", "t", "x"]) + name.slice(at + 1);
  }
}

/** `row` with `key` renamed to `to`, its value kept. */
function renamed(row: Row, key: string, to: string): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k === key ? to : k] = v;
  return out;
}

const pickIndex = (rng: Rng, rows: unknown[]) => rng.int(rows.length);

/** The ways a case is spoiled, by name: each changes the inputs one way. */
const SPOILS: Record<string, (rng: Rng, x: Inputs) => void> = {
  none: () => {},
  metadata: (rng, x) => {
    const rows = rng.chance(0.5) ? x.goldens : x.traces;
    const key = rng.pick(["notes", "difficulty", "model", "reference_sql", "submitted_at", "tags"]);
    rows[pickIndex(rng, rows)]![key] = rng.pick(WRONG_VALUES);
  },
  "misspelt golden field": (rng, x) => {
    const i = pickIndex(rng, x.goldens);
    const g = x.goldens[i]!;
    const key = rng.pick(Object.keys(g).filter((k) => GOLDEN_FIELDS.includes(k)));
    x.goldens[i] = renamed(g, key, misspelt(rng, key));
  },
  "misspelt trace field": (rng, x) => {
    const i = pickIndex(rng, x.traces);
    const t = x.traces[i]!;
    const key = rng.pick(Object.keys(t).filter((k) => TRACE_FIELDS.includes(k)));
    x.traces[i] = renamed(t, key, misspelt(rng, key));
  },
  "misspelt field added": (rng, x) => {
    const golden = rng.chance(0.5);
    const rows = golden ? x.goldens : x.traces;
    const fields = golden ? GOLDEN_FIELDS : TRACE_FIELDS;
    rows[pickIndex(rng, rows)]![misspelt(rng, rng.pick(fields))] = rng.pick([[], "x", {}]);
  },
  "wrong type": (rng, x) => {
    const golden = rng.chance(0.5);
    const rows = golden ? x.goldens : x.traces;
    rows[pickIndex(rng, rows)]![rng.pick(golden ? GOLDEN_FIELDS : TRACE_FIELDS)] = rng.pick(
      WRONG_VALUES,
    );
  },
  "field missing": (rng, x) => {
    const golden = rng.chance(0.5);
    const rows = golden ? x.goldens : x.traces;
    delete rows[pickIndex(rng, rows)]![rng.pick(golden ? GOLDEN_FIELDS : TRACE_FIELDS)];
  },
  "not an object": (rng, x) => {
    const rows = rng.chance(0.5) ? x.goldens : x.traces;
    rows[pickIndex(rng, rows)] = rng.pick<unknown>([null, 3, "g1", [], [{}]]) as Row;
  },
  "bad golden value": (rng, x) => {
    const g = x.goldens[pickIndex(rng, x.goldens)]!;
    const [field, value] = rng.pick<[string, unknown]>([
      ["expected_views", ["orders", "orders"]],
      ["expected_views", [""]],
      ["expected_views", [3]],
      ["reference_values", { v: {} }],
      ["reference_values", { v: [1] }],
      ["reference_trajectory", ["run_sql"]],
      ["reference_trajectory", [{ arguments: {} }]],
      ["reference_trajectory", [{ name: "get", arguments: {}, namespace: "crm" }]],
      ["reference_trajectory", [{ type: "web_search_tool_use", name: "s", input: {} }]],
      ["reference_trajectory", [{ role: "assistant", tool_calls: [{ name: "f" }] }]],
      ["id", ""],
    ]);
    g[field] = value;
  },
  "unknown call block": (rng, x) => {
    const t = x.traces[pickIndex(rng, x.traces)]!;
    (t.tool_calls as unknown[]).splice(
      0,
      0,
      rng.pick<Row>([
        { name: "f" },
        { name: "f", arguments: 1 },
        { name: "f", arguments: {}, extra: 1 },
        { name: "get", arguments: {}, namespace: "crm" },
        { name: "get", arguments: {}, namespace: null },
        { type: "invalid_tool_call", name: "f", args: {} },
        { type: "mcp_tool_use", name: "f", input: {} },
        { type: "mcp_tool_use", server_name: "a__b", name: "f", input: {} },
        { type: "mcp_tool_use", server_name: "crm", name: "f", input: {} },
        { type: "server_tool_use", id: "s1", name: "web_search", input: {} },
        { type: "web_search_tool_use", name: "s", input: {} },
        { function: { name: "f", arguments: "{}" }, name: "f" },
        { function: { name: "f", arguments: "{}", extra: 1 } },
      ]),
    );
  },
  "unknown message block": (rng, x) => {
    const t = x.traces[pickIndex(rng, x.traces)]!;
    t.messages = rng.pick<unknown[]>([
      [{}],
      [{ type: "bogus" }],
      [{ role: 5 }],
      [{ type: "ai", content: "", tool_calls: [{ name: "f", args: {} }] }],
      [{ role: "assistant", tool_calls: [{ name: "f" }] }],
      [{ role: "assistant", content: [{ type: "tool_use", name: "f", input: {} }] }],
      [{
        role: "assistant",
        content: [{ type: "tool_use", name: "f", input: {}, namespace: "c" }],
      }],
      [{ role: "assistant", function_call: { name: "f", arguments: "{}" } }],
    ]);
  },
  "bad trace value": (rng, x) => {
    const t = x.traces[pickIndex(rng, x.traces)]!;
    const [field, value] = rng.pick<[string, unknown]>([
      ["repeat", -1],
      ["repeat", 1.5],
      ["repeat", 2 ** 53],
      ["repeat", "0"],
      ["sql", [1]],
      ["final_rows", [1]],
      ["final_rows", [[]]],
      ["arm", ""],
      ["golden_id", ""],
    ]);
    t[field] = value;
  },
  "golden id twice": (rng, x) => {
    const [i, j] = shuffled(rng, x.goldens.map((_, i) => i));
    x.goldens[j!]!.id = x.goldens[i!]!.id;
  },
  "trace of no golden": (rng, x) => {
    x.traces[pickIndex(rng, x.traces)]!.golden_id = rng.pick(["zz", "G1", "g1 "]);
  },
  "arm overall": (rng, x) => {
    x.traces[pickIndex(rng, x.traces)]!.arm = "overall";
  },
  "run twice": (rng, x) => {
    const t = x.traces[pickIndex(rng, x.traces)]!;
    x.traces.splice(rng.int(x.traces.length + 1), 0, { ...t, final_answer: "another" });
  },
  "no traces": (_, x) => {
    x.traces.length = 0;
  },
  "bad catalog": (rng, x) => {
    x.catalog = rng.pick<unknown>([
      [],
      null,
      {},
      { views: [{ name: "orders" }] },
      { views: [{ name: "orders", columns: ["v", "v"] }] },
      { views: [{ name: "orders", columns: [1] }] },
      { views: [{ name: "orders", columns: [], extra: 1 }] },
      { views: {} },
    ]);
  },
};

/** A JSONL file of `rows` with blank lines, CRLF and a BOM now and then, and each row's line. */
function jsonl(rng: Rng, rows: unknown[]): { text: string; lines: number[] } {
  const parts: string[] = [];
  const lines: number[] = [];
  for (const row of rows) {
    while (rng.chance(0.2)) parts.push("");
    parts.push(JSON.stringify(row));
    lines.push(parts.length);
  }
  const end = rng.pick(["\n", "\r\n"]);
  return { text: (rng.chance(0.2) ? "\uFEFF" : "") + parts.join(end) + end, lines };
}

type Outcome = { report: string } | { error: Error };

function report(suite: Suite, runs: Awaited<ReturnType<typeof runSuite>>, goldens: Golden[]) {
  const options = { suiteSha256: "0".repeat(64), seed: 7, resamples: 40 };
  return JSON.stringify(suiteRunReport(suite, runs, goldens, options));
}

/**
 * What each public entry point that takes goldens in memory, other than runSuite, refused them
 * with (a SuiteInputError's message), or undefined where it took them.
 */
function goldenRefusals(suite: Suite, rows: Row[]): [string, string | undefined][] {
  const goldens = rows as unknown as Golden[];
  const entries: [string, () => unknown][] = [
    ["keptRepeats", () => keptRepeats(suite, goldens)],
    ["suiteRunReport", () => suiteRunReport(suite, [], goldens, { suiteSha256: "0".repeat(64) })],
    ["repeatsReport", () => repeatsReport([], goldens, { n: 1, reducer: "mean" })],
    ["clusterKeys", () => clusterKeys(goldens, "question")],
  ];
  return entries.map(([name, call]) => {
    try {
      call();
      return [name, undefined];
    } catch (e) {
      if (e instanceof SuiteInputError) return [name, e.message];
      throw e;
    }
  });
}

/** The files' way, as `assay suite run` takes it. */
async function fromFiles(dir: string, suite: Suite): Promise<Outcome> {
  try {
    const read = (name: string) => Deno.readFile(`${dir}/${name}`);
    const goldenRows = readGoldens(await read("goldens.jsonl"), { source: "goldens.jsonl" });
    const goldens = goldenRows.map((r) => r.value);
    const traceRows = readTraces(await read("traces.jsonl"), {
      source: "traces.jsonl",
      goldens,
      goldensSource: "goldens.jsonl",
    });
    const traces = traceRows.map((r) => r.value);
    const catalog = readCatalog(await read("catalog.json"), { source: "catalog.json" });
    let runs;
    try {
      runs = await runSuite(suite, { goldens, traces, catalog }, { noJudge: true });
    } catch (e) {
      if (!(e instanceof RunInputError)) throw e;
      const rows = { goldens: goldenRows, traces: traceRows };
      throw locateRunInputError(e, {
        ...rows,
        goldensSource: "goldens.jsonl",
        tracesSource: "traces.jsonl",
      });
    }
    return { report: report(suite, runs, goldens) };
  } catch (e) {
    if (e instanceof SuiteInputError) return { error: e };
    throw e;
  }
}

/** The objects' way. */
async function fromMemory(x: Inputs): Promise<Outcome> {
  const inputs = {
    goldens: x.goldens as unknown as Golden[],
    traces: x.traces as unknown as Trace[],
    catalog: x.catalog as SchemaCatalog,
  };
  try {
    const runs = await runSuite(x.suite, inputs, { noJudge: true });
    return { report: report(x.suite, runs, inputs.goldens) };
  } catch (e) {
    if (e instanceof SuiteInputError || e instanceof RunInputError) return { error: e };
    throw e;
  }
}

/**
 * The message the files' way should give for the memory's error: each row named by its file and
 * line instead of its list and index, and the words of a file for those of a list.
 */
function asFiles(e: Error, x: Inputs, lines: { goldens: number[]; traces: number[] }): string {
  const file = (list: string) => list === "goldens" ? "goldens.jsonl" : "traces.jsonl";
  const line = (list: string, i: string) => lines[list as "goldens" | "traces"][Number(i)];
  if (e instanceof RunInputError) {
    // The golden's line, or the run's trace's.
    const run = e.run!;
    const i = e.input === "golden"
      ? x.goldens.findIndex((g) => g.id === run.golden_id)
      : x.traces.findIndex((t) =>
        t.golden_id === run.golden_id && t.arm === run.arm && t.repeat === run.repeat
      );
    const list = e.input === "golden" ? "goldens" : "traces";
    return `${file(list)}:${lines[list][i]}: ${e.message}`;
  }
  const row = /^(goldens|traces)\[(\d+)\]( \((?:id|golden_id) "(?:[^"\\]|\\.)*"\))?: (.*)$/s
    .exec(e.message);
  if (row === null) {
    return e.message
      .replace(/^traces: no traces: the list /, "traces.jsonl: no traces: the file ")
      .replace(/^catalog: /, "catalog.json: ");
  }
  const [, list, i, named = "", text] = row;
  const at = line(list!, i!)!;
  // A file's line 1 that is an array gets the hint that JSONL is one object per line.
  const value = x[list as "goldens" | "traces"][Number(i)];
  const hint = Array.isArray(value) ? jsonArrayHint("[", at) : "";
  return `${file(list!)}:${at}${named}: ` + text!
    .replace(/\bat (goldens|traces)\[(\d+)\]/, (_, l, i) => `on line ${line(l, i)}`)
    .replace(/(no golden with this id in) goldens$/, "$1 goldens.jsonl")
    .replace(/^the (golden|trace): /, "the line: ")
    .replace(/a field the (golden|trace) does not give/, "a field the line does not give") +
    hint;
}

Deno.test("runSuite given goldens and traces in memory refuses and scores as the file readers do", async () => {
  const dir = await Deno.makeTempDir({ prefix: "assay_memory_parity_" });
  const counts = new Map<string, { refused: number; accepted: number }>();
  let goldensRefused = 0;
  try {
    for (let c = 0; c < CASES; c++) {
      const rng = makeRng(SEED + c);
      const x = validInputs(rng);
      const kinds = Object.keys(SPOILS);
      const kind = kinds[c % kinds.length]!;
      SPOILS[kind]!(rng, x);
      const goldens = jsonl(rng, x.goldens);
      const traces = jsonl(rng, x.traces);
      await Deno.writeTextFile(`${dir}/goldens.jsonl`, goldens.text);
      await Deno.writeTextFile(`${dir}/traces.jsonl`, traces.text);
      await Deno.writeTextFile(`${dir}/catalog.json`, JSON.stringify(x.catalog));
      const files = await fromFiles(dir, x.suite);
      const memory = await fromMemory(x);
      const where = `case ${c} (${kind}; seed ${SEED + c})`;
      // The other entry points given the goldens refuse them as runSuite did, or take them.
      const e = "error" in memory ? memory.error : undefined;
      const refusal = e instanceof SuiteInputError && e.source === "goldens"
        ? e.message
        : undefined;
      for (const [name, message] of goldenRefusals(x.suite, x.goldens)) {
        strictEqual(message, refusal, `${where}: ${name}`);
      }
      if (refusal !== undefined) goldensRefused++;
      const count = counts.get(kind) ?? { refused: 0, accepted: 0 };
      counts.set(kind, count);
      if ("error" in files) {
        ok(
          "error" in memory,
          `${where}: the files were refused (${files.error.message}), not the objects`,
        );
        const lines = { goldens: goldens.lines, traces: traces.lines };
        strictEqual(files.error.message, asFiles(memory.error, x, lines), where);
        const e = memory.error;
        if (e instanceof SuiteInputError && /^(goldens|traces)\[/.test(e.message)) {
          strictEqual(e.index, Number(/\[(\d+)\]/.exec(e.message)![1]), where);
          strictEqual(e.id, (files.error as SuiteInputError).id, where);
        }
        count.refused++;
      } else {
        ok(
          "report" in memory,
          `${where}: the objects were refused (${
            "error" in memory && memory.error.message
          }), not the files`,
        );
        strictEqual(memory.report, files.report, where);
        count.accepted++;
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // Every way of spoiling was met, and the ways that should were refused and accepted both.
  for (const kind of Object.keys(SPOILS)) ok(counts.has(kind), kind);
  const refused = [...counts.values()].reduce((n, c) => n + c.refused, 0);
  const accepted = [...counts.values()].reduce((n, c) => n + c.accepted, 0);
  ok(refused >= 200 && accepted >= 60, `refused ${refused}, accepted ${accepted}`);
  for (const kind of ["misspelt golden field", "misspelt trace field", "misspelt field added"]) {
    const { refused, accepted } = counts.get(kind)!;
    ok(refused >= 5 && accepted >= 1, `${kind}: refused ${refused}, accepted ${accepted}`);
  }
  strictEqual(counts.get("none")!.refused, 0);
  ok(goldensRefused >= 60, `goldens refused ${goldensRefused}`);
});

const SUITE = loadSuite("- type: hit_limit\n", suiteChecks());
// A valid trace (the first of a seeded case) of the golden g1, without messages.
const { messages: _, ...seeded } = validInputs(makeRng(SEED)).traces[0]!;
const TRACE = { ...seeded, golden_id: "g1" } as unknown as Trace;
const CATALOG: SchemaCatalog = { views: [] };

/** What runSuite refused the inputs with: name, message, source, index, line and id. */
async function refusedWith(inputs: unknown) {
  try {
    await runSuite(SUITE, inputs as Parameters<typeof runSuite>[1], { noJudge: true });
  } catch (e) {
    if (!(e instanceof SuiteInputError)) throw e;
    return [e.name, e.message, e.source, e.index, e.line, e.id];
  }
  throw new Error("not refused");
}

Deno.test("runSuite names a row given in memory by its list, index and id, as an error's fields too", async () => {
  const golden = { id: "g1", question: "q" };
  deepStrictEqual(
    await refusedWith({
      goldens: [golden],
      traces: [TRACE, { ...TRACE, repeat: 1, Messages: [] }],
      catalog: CATALOG,
    }),
    [
      "SuiteInputError",
      'traces[1] (golden_id "g1"): unknown field "Messages" (did you mean "messages"?), too close ' +
      "to a field the trace does not give to be read as metadata",
      "traces",
      1,
      undefined,
      "g1",
    ],
  );
  deepStrictEqual(
    await refusedWith({ goldens: [golden, golden], traces: [TRACE], catalog: CATALOG }),
    [
      "SuiteInputError",
      'goldens[1]: duplicate golden id "g1" (first at goldens[0])',
      "goldens",
      1,
      undefined,
      "g1",
    ],
  );
  deepStrictEqual(
    await refusedWith({ goldens: [golden], traces: [], catalog: CATALOG }),
    [
      "SuiteInputError",
      "traces: no traces: the list has no runs to score",
      "traces",
      undefined,
      undefined,
      undefined,
    ],
  );
});

Deno.test("suiteRunReport and repeatsReport refuse a run of no golden given, as runSuite refuses its trace", async () => {
  const goldens = [{ id: "g1", question: "q" }, { id: "g2", question: "q" }];
  const traces = [["g1", 0], ["g1", 1], ["g2", 0]].map(([golden_id, repeat]) => ({
    ...TRACE,
    golden_id,
    repeat,
  })) as Trace[];
  const runs = await runSuite(SUITE, { goldens, traces, catalog: CATALOG }, { noJudge: true });
  // Without g2, its trace is refused by runSuite; its run (a result), by the two reports, by the
  // same words, where it was reduced as a golden (and a cluster) of its own.
  const [first] = goldens;
  const refusal = (source: string) => [
    "SuiteInputError",
    `${source}[2] (golden_id "g2"): no golden with this id in goldens`,
    source,
    2,
    undefined,
    "g2",
  ];
  deepStrictEqual(
    await refusedWith({ goldens: [first], traces, catalog: CATALOG }),
    refusal("traces"),
  );
  const refused = (call: () => unknown) => {
    try {
      call();
    } catch (e) {
      if (!(e instanceof SuiteInputError)) throw e;
      return [e.name, e.message, e.source, e.index, e.line, e.id];
    }
    throw new Error("not refused");
  };
  const repeats = { n: 2, reducer: "mean" as const };
  const options = { suiteSha256: "0".repeat(64) };
  deepStrictEqual(refused(() => suiteRunReport(SUITE, runs, [first!], options)), refusal("runs"));
  deepStrictEqual(refused(() => repeatsReport(runs, [first!], repeats)), refusal("results"));
  // With every golden, both take the runs.
  strictEqual(suiteRunReport(SUITE, runs, goldens, options).runs.length, 3);
  strictEqual(repeatsReport(runs, goldens, repeats).arms[0]!.goldens.length, 2);
});

Deno.test("runSuite refuses a list that is not one, and a hole in one, which no file can give", async () => {
  const golden = { id: "g1", question: "q" };
  strictEqual(
    (await refusedWith({ goldens: { g1: golden }, traces: [TRACE], catalog: CATALOG }))[1],
    "goldens: expected a list (an array) of goldens",
  );
  strictEqual(
    (await refusedWith({ goldens: [golden], traces: "x", catalog: CATALOG }))[1],
    "traces: expected a list (an array) of traces",
  );
  const holed: Golden[] = [golden];
  holed[2] = { id: "g2", question: "q" };
  strictEqual(
    (await refusedWith({ goldens: holed, traces: [TRACE], catalog: CATALOG }))[1],
    "goldens[1]: the golden: Expected object, got undefined",
  );
  strictEqual(
    (await refusedWith({ goldens: [golden], traces: [TRACE], catalog: undefined }))[1],
    "catalog: the catalog: Expected object, got undefined",
  );
});

Deno.test("keptRepeats refuses the goldens readGoldens would, before the field it clusters by", () => {
  const suite = loadSuite(
    "repeats: {n: 1, reducer: mean, cluster: topic}\nmetrics: [{type: hit_limit}]\n",
  );
  throws(
    () => keptRepeats(suite, [{ id: "g1", question: "q", expectedViews: ["orders"] } as Golden]),
    {
      name: "SuiteInputError",
      message: 'goldens[0] (id "g1"): unknown field "expectedViews" (did you mean ' +
        '"expected_views"?), too close to a field the golden does not give to be read as metadata',
    },
  );
  // Without repeats too: what it keeps is then nothing, but the goldens are still not ones.
  throws(() => keptRepeats(SUITE, [{ id: "", question: "q" }]), {
    name: "SuiteInputError",
    message: 'goldens[0] (id ""): /id: String is shorter than 1 characters',
  });
  throws(() => keptRepeats(suite, [{ id: "g1", question: "q" }]), {
    name: "RangeError",
    message: 'Golden "g1" has no topic (a string or number) to cluster by',
  });
});

// Values that no JSON file can hold, with what a message calls them.
const NOT_JSON: [() => unknown, string][] = [
  [() => NaN, "NaN"],
  [() => Infinity, "Infinity"],
  [() => -Infinity, "-Infinity"],
  [() => undefined, "undefined"],
  [() => () => 1, "a function"],
  [() => 7n, "a bigint"],
  [() => Symbol("s"), "a symbol"],
  [() => new Date(0), "a Date"],
  [() => new Map([["k", 1]]), "a Map"],
  [() => new Set(), "a Set"],
  [() => new (class Money {})(), "a Money"],
  [() => new Number(1), "a Number"],
];

/** `path`'s member `key`, as a message writes it: `a.b`, `a[0]`, `a["b c"]`. */
function member(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (!/^[a-z_]+$/.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

/**
 * Puts a value no JSON file can hold somewhere in `row` (in an object or a list it has, at any
 * depth: a new member, an element, a hole, or a reference to a container it is in) and returns
 * what the refusal should say of it (`where is what`) and what kind of value it is.
 */
function spoilDeep(rng: Rng, row: Row, rowName: string): { said: string; kind: string } {
  let node: Row | unknown[] = row;
  let path = "";
  const outer: [object, string][] = [[row, rowName]];
  for (;;) {
    const at = node as Record<string | number, unknown>;
    const keys = Array.isArray(node) ? [...node.keys()] : Object.keys(node);
    const inner = keys.filter((k) => typeof at[k] === "object" && at[k] !== null);
    if (inner.length === 0 || rng.chance(0.35)) break;
    const k = rng.pick(inner);
    node = at[k] as Row | unknown[];
    path = member(path, k);
    outer.push([node, path]);
  }
  let value: unknown;
  let what: string;
  let kind: string;
  if (rng.chance(0.2)) {
    const [target, name] = rng.pick(outer);
    value = target;
    what = `a cycle back to ${name}`;
    kind = "a cycle";
  } else {
    const [make, name] = rng.pick(NOT_JSON);
    value = make();
    what = kind = name;
  }
  if (Array.isArray(node)) {
    const i = rng.int(node.length + 1);
    if (rng.chance(0.2)) {
      // A hole: nothing at i, something after it.
      node.length = i;
      node[i + 1] = 1;
      return { said: `${member(path, i)} is undefined`, kind: "a hole" };
    }
    node[i] = value;
    return { said: `${member(path, i)} is ${what}`, kind };
  }
  const key = rng.pick(["k", "a b", "reference_values", "topic"]);
  delete node[key];
  node[key] = value;
  return { said: `${member(path, key)} is ${what}`, kind };
}

Deno.test("every entry point given goldens or traces in memory refuses a value no JSON file holds, by its path", async () => {
  const seen = new Set<string>();
  for (let c = 0; c < 160; c++) {
    const rng = makeRng(SEED ^ (0x9e37 + c));
    const x = validInputs(rng);
    const inputs = () => ({
      goldens: x.goldens as unknown as Golden[],
      traces: x.traces as unknown as Trace[],
      catalog: x.catalog as SchemaCatalog,
    });
    // Valid as they are; then one value spoiled, somewhere in one golden or trace.
    await runSuite(x.suite, inputs(), { noJudge: true });
    const golden = rng.chance(0.5);
    const rows = golden ? x.goldens : x.traces;
    const i = pickIndex(rng, rows);
    const { said, kind } = spoilDeep(rng, rows[i]!, golden ? "the golden" : "the trace");
    seen.add(kind);
    const [list, idField] = golden ? ["goldens", "id"] : ["traces", "golden_id"];
    const id = rows[i]![idField] as string;
    const expected = {
      name: "SuiteInputError",
      message: `${list}[${i}] (${idField} ${JSON.stringify(id)}): ${said}, which JSON cannot hold`,
      source: list,
      index: i,
      id,
    };
    const where = `case ${c} (seed ${SEED ^ (0x9e37 + c)})`;
    await rejects(runSuite(x.suite, inputs(), { noJudge: true }), expected, where);
    if (!golden) continue;
    for (const [name, message] of goldenRefusals(x.suite, x.goldens)) {
      strictEqual(message, expected.message, `${where}: ${name}`);
    }
  }
  // Every kind of value was met, and a cycle and a hole.
  for (const kind of [...NOT_JSON.map(([, name]) => name), "a cycle", "a hole"]) {
    ok(seen.has(kind), kind);
  }
});

Deno.test("runSuite refuses a catalog holding what no JSON file holds, and walks a value nested past the call stack", async () => {
  const golden = { id: "g1", question: "q" };
  const catalog = { views: [{ name: "orders", columns: ["v"] }], note: { at: new Date(0) } };
  deepStrictEqual(
    await refusedWith({ goldens: [golden], traces: [TRACE], catalog }),
    [
      "SuiteInputError",
      "catalog: note.at is a Date, which JSON cannot hold",
      "catalog",
      undefined,
      undefined,
      undefined,
    ],
  );
  // 200,000 lists deep, as readGoldens reads a line so nested: refused at the NaN in the middle.
  let deep: unknown[] = [];
  const root = deep;
  for (let d = 0; d < 200_000; d++) deep.push(d === 100_000 ? NaN : 0, deep = []);
  const message = (await refusedWith({
    goldens: [{ ...golden, nested: root }],
    traces: [TRACE],
    catalog: CATALOG,
  }))[1] as string;
  ok(/^goldens\[0\] \(id "g1"\): nested(\[1\])+…(\[1\])+\[0\] is NaN, which JSON/.test(message));
});

Deno.test("runSuite refuses inputs that are no object, and a suite that loadSuite did not give", async () => {
  // They failed inside: "Cannot read properties of null (reading 'goldens')", and of undefined
  // (reading 'map') for the suite's text.
  for (const inputs of [null, 5, undefined]) {
    await rejects(
      () => runSuite(SUITE, inputs as never, { noJudge: true }),
      (e: unknown) =>
        e instanceof TypeError && e.message === "Expected the inputs { goldens, traces, catalog }",
    );
  }
  const inputs = { goldens: [{ id: "g1", question: "q" }], traces: [TRACE], catalog: CATALOG };
  for (const suite of ["- type: hit_limit\n", null, {}]) {
    await rejects(
      () => runSuite(suite as never, inputs, { noJudge: true }),
      (e: unknown) =>
        e instanceof TypeError && e.message === "Expected a suite, as loadSuite gives",
    );
  }
});
