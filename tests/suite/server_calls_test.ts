// Calls run by a server (Anthropic's server_tool_use and mcp_tool_use blocks) under each value of
// the metrics' server_calls param: refused, read as calls, or skipped, in a list of calls and in
// a message's content, by trajectory_match, step_efficiency and expected_view_recall, in the
// suite file's validation and in TRACE_SCHEMA. Their results (web_search_tool_result,
// mcp_tool_result) are never calls and never refused.
import { deepStrictEqual as assertEquals, ok, strictEqual, throws } from "node:assert/strict";
import {
  expectedViewRecall,
  loadSuite,
  RunInputError,
  SERVER_CALLS,
  type ServerCalls,
  stepEfficiency,
  suiteChecks,
  SuiteError,
  TRACE_SCHEMA,
  trajectoryMatch,
  trajectoryMatchMetric,
} from "../../src/suite/mod.ts";
import { compileSchema } from "../../src/json_schema/mod.ts";
import type { Trace, TrajectoryMode } from "../../src/suite/mod.ts";

const search = (query: string) => ({
  type: "server_tool_use",
  id: `srvtoolu_${query}`,
  name: "web_search",
  input: { query },
});
const searched = (query: string) => ({
  type: "web_search_tool_result",
  tool_use_id: `srvtoolu_${query}`,
  content: [{ type: "web_search_result", url: "https://example.com", title: query }],
});
const mcp = (server_name: string, name: string, input: unknown = {}) => ({
  type: "mcp_tool_use",
  id: `mcptoolu_${server_name}_${name}`,
  server_name,
  name,
  input,
});
const mcpResult = (id: string) => ({
  type: "mcp_tool_result",
  tool_use_id: id,
  is_error: false,
  content: [{ type: "text", text: "ok" }],
});
const f = (a = 1) => ({ type: "tool_use", id: `toolu_${a}`, name: "f", input: { a } });
const plain = (name: string, args: unknown = {}) => ({ name, arguments: args });
const match = (
  reference: unknown[],
  output: unknown[],
  trajectory: TrajectoryMode,
  server_calls?: ServerCalls,
) =>
  trajectoryMatch(reference as never, output as never, {
    trajectory,
    ...(server_calls !== undefined && { server_calls }),
  });
const REFUSED = "a call run by a server, which is not read as a tool call: give it as a " +
  "tool_use block to compare it, or set server_calls to read or skip";

Deno.test("server_calls: refuse (the default) names the block and the param, in a list and in a message", () => {
  for (const mode of [undefined, "refuse"] as const) {
    for (
      const [block, type] of [[search("x"), "server_tool_use"], [mcp("crm", "get"), "mcp_tool_use"]]
    ) {
      throws(() => match([f()], [f(), block], "exact", mode), {
        name: "TypeError",
        message: `output[1] is a "${type}" block, ${REFUSED}`,
      });
      const msg = { role: "assistant", content: [{ type: "text", text: "." }, block] };
      throws(() => match([msg], [msg], "strict", mode), {
        name: "TypeError",
        message: `reference[0].content[1] is a "${type}" block, ${REFUSED}`,
      });
    }
  }
});

Deno.test("server_calls: read makes a server's call a call, an MCP tool's name qualified by its server", () => {
  // A golden names web_search as the call it is, and an MCP tool as mcp__<server>__<tool>.
  const reference = [plain("web_search", { query: "x" }), plain("mcp__crm__get", { id: 7 }), f()];
  const output = [search("x"), mcp("crm", "get", { id: 7 }), f()];
  strictEqual(match(reference, output, "exact", "read").pass, true);
  // The same blocks in the reference read the same way.
  strictEqual(match(output, output, "exact", "read").pass, true);
  // The server's name is part of the call's: another server's get, or the agent's own get, differs.
  for (const other of [plain("get", { id: 7 }), plain("mcp__erp__get", { id: 7 })]) {
    const r = match([other], [mcp("crm", "get", { id: 7 })], "exact", "read");
    assertEquals(r.reasons.map((x) => x.kind), ["missing", "extra"]);
  }
  // Arguments compare as a tool_use block's do.
  const r = match([plain("web_search", { query: "y" })], [search("x")], "exact", "read");
  strictEqual(r.pass, false);
  // An MCP block's server must name it once: no server, or one with "__" (mcp__a__b__c could be
  // a's b__c or a__b's c), is refused.
  for (const [server, got] of [[undefined, "undefined"], ["a__b", '"a__b"'], ["", '""']] as const) {
    const block = { ...mcp("x", "c"), server_name: server };
    throws(() => match([], [block], "exact", "read"), {
      name: "TypeError",
      message: 'output[0] is an "mcp_tool_use" block whose server_name must be a non-empty ' +
        `string without "__" to name its tool mcp__<server_name>__<name>, got ${got}`,
    });
  }
  // A *_tool_use type it does not know is refused under read and skip alike.
  for (const mode of ["read", "skip"] as const) {
    throws(() => match([], [{ type: "computer_tool_use", name: "c", input: {} }], "exact", mode), {
      name: "TypeError",
      message: `output[0] is a "computer_tool_use" block, which server_calls: ${mode} does not ` +
        "know: it reads server_tool_use and mcp_tool_use blocks",
    });
  }
});

Deno.test("server_calls: read finds the server's calls of a message's content, and not their results", () => {
  const content = [
    { type: "text", text: "Searching." },
    search("x"),
    searched("x"),
    mcp("crm", "get"),
    mcpResult("mcptoolu_crm_get"),
    f(),
  ];
  const output = [{ role: "user", content: "?" }, { role: "assistant", content }];
  const reference = [
    { role: "user", content: "?" },
    {
      role: "assistant",
      tool_calls: [
        plain("f", { a: 1 }),
        plain("mcp__crm__get"),
        plain("web_search", { query: "x" }),
      ],
    },
  ];
  strictEqual(match(reference, output, "strict", "read").pass, true);
  // One call fewer in the reference: one output call is extra (the results are not calls).
  const fewer = [reference[0], {
    role: "assistant",
    tool_calls: [plain("f", { a: 1 }), plain("mcp__crm__get")],
  }];
  assertEquals(match(fewer, output, "strict", "read").reasons, [
    { kind: "extra", output: 0, name: "web_search", message: 1 },
  ]);
  // LangChain's AIMessage from Anthropic lists its tool_use blocks again in tool_calls, not its
  // server calls: the two places agree on the agent's own calls, and the content's are read.
  const langchain = {
    type: "ai",
    content: [search("x"), f(), searched("x")],
    tool_calls: [{ name: "f", args: { a: 1 }, id: "toolu_1", type: "tool_call" }],
  };
  const both = [{
    role: "assistant",
    tool_calls: [plain("web_search", { query: "x" }), plain("f", { a: 1 })],
  }];
  strictEqual(match(both, [langchain], "strict", "read").pass, true);
  // Places that differ on the agent's own calls are still refused.
  const differ = {
    ...langchain,
    tool_calls: [{ name: "f", args: { a: 2 }, id: "c", type: "tool_call" }],
  };
  throws(() => match(both, [differ], "strict", "read"), {
    name: "TypeError",
    message: "output[0] is ambiguous: it makes calls in both tool_calls and content, and " +
      "tool_calls[0] and content[1] differ; keep one",
  });
});

Deno.test("server_calls: skip reads a server's call as no call, in a list and in a message", () => {
  // In a list, a reason's index is still the call's place in the list.
  const output = [search("x"), f(1), mcp("crm", "get"), f(2)];
  strictEqual(match([f(1), f(2)], output, "exact", "skip").pass, true);
  assertEquals(match([f(1)], output, "unordered", "skip").reasons, [
    { kind: "extra", output: 3, name: "f" },
  ]);
  assertEquals(match([f(1), f(3)], output, "unordered", "skip").reasons, [
    { kind: "missing", reference: 1, name: "f", closest: { output: 3, paths: ["a"] } },
    { kind: "extra", output: 3, name: "f" },
  ]);
  // A skipped call in the reference keeps its place too.
  assertEquals(match([search("y"), f(1), f(3)], output, "in_order", "skip").reasons, [
    { kind: "missing", reference: 2, name: "f", closest: { output: 3, paths: ["a"] } },
  ]);
  // A message whose only calls are the server's makes none.
  const searching = { role: "assistant", content: [search("x"), searched("x"), mcp("crm", "get")] };
  strictEqual(match([{ role: "assistant" }], [searching], "strict", "skip").pass, true);
  const lc = {
    type: "ai",
    content: [search("x"), f()],
    tool_calls: [{ name: "f", args: { a: 1 } }],
  };
  strictEqual(match([{ role: "assistant", tool_calls: [f()] }], [lc], "strict", "skip").pass, true);
});

Deno.test("server tools' results in a message's content are no calls and refused by no mode", () => {
  const msg = {
    role: "assistant",
    content: [searched("x"), mcpResult("m"), { type: "text", text: "." }],
  };
  for (const mode of [undefined, ...SERVER_CALLS]) {
    const r = match([{ role: "assistant" }], [msg], "strict", mode);
    assertEquals([r.pass, r.reasons], [true, []]);
  }
});

const GOLDEN = { id: "g", question: "?" };
const CATALOG = { views: [{ name: "orders", columns: ["id"] }] };
const trace = (tool_calls: unknown[]): Trace => ({
  golden_id: "g",
  arm: "base",
  repeat: 0,
  tool_calls: tool_calls as Trace["tool_calls"],
  sql: [],
  final_rows: null,
  final_answer: null,
  submitted: true,
  hit_turn_limit: false,
});

Deno.test("step_efficiency: server_calls refuses, reads or skips a trace's server calls", () => {
  const run = (calls: unknown[], server_calls?: ServerCalls) =>
    stepEfficiency(
      { golden: GOLDEN, trace: trace(calls), catalog: CATALOG },
      server_calls === undefined ? undefined : { server_calls },
    ).details;
  for (const mode of [undefined, "refuse"] as const) {
    throws(() => run([f(), mcp("crm", "get")], mode), (e: unknown) => {
      ok(e instanceof RunInputError);
      assertEquals([e.input, e.message], [
        "trace",
        `tool_calls[1] is a "mcp_tool_use" block, ${REFUSED}`,
      ]);
      return true;
    });
  }
  // Read: a search repeated is a duplicate, and so is an MCP tool's call given again by its
  // qualified name; the same tool of another server is not.
  const calls = [
    search("x"),
    search("x"),
    mcp("crm", "get"),
    mcp("erp", "get"),
    plain("mcp__crm__get"),
  ];
  assertEquals(run(calls, "read"), { tool_calls: 5, duplicates: 2, duplicate_calls: [1, 4] });
  // Skip: the server's calls are not counted, and a duplicate keeps its index in the list.
  assertEquals(run([search("x"), f(), search("x"), mcp("crm", "get"), f()], "skip"), {
    tool_calls: 2,
    duplicates: 1,
    duplicate_calls: [4],
  });
});

Deno.test("expected_view_recall: server_calls decides whether an MCP tool's call names a view", () => {
  const golden = { ...GOLDEN, expected_views: ["orders"] };
  const score = (server_calls: ServerCalls) =>
    expectedViewRecall({
      golden,
      trace: trace([mcp("crm", "describe", { view: "orders" })]),
      catalog: CATALOG,
    }, { view_tools: ["mcp__crm__describe"], server_calls }).score;
  assertEquals([score("read"), score("skip")], [1, 0]);
  throws(() => score("refuse"), RunInputError);
});

Deno.test("trajectory_match: a golden may write a server's call as its block or by its name", () => {
  const run = (reference: unknown[], server_calls?: ServerCalls) =>
    trajectoryMatchMetric({
      golden: { ...GOLDEN, reference_trajectory: reference as never },
      trace: trace([search("x"), mcp("crm", "get")]),
      catalog: CATALOG,
    }, { trajectory: "exact", ...(server_calls !== undefined && { server_calls }) });
  const byName = [plain("web_search", { query: "x" }), plain("mcp__crm__get")];
  strictEqual(run(byName, "read").score, 1);
  strictEqual(run([search("x"), mcp("crm", "get")], "read").score, 1);
  // Skipped on both sides: no call against no call.
  strictEqual(run([search("y")], "skip").score, 1);
  throws(() => run([search("x")]), (e: unknown) => {
    ok(e instanceof RunInputError);
    assertEquals([e.input, e.message], [
      "golden",
      `reference_trajectory[0] is a "server_tool_use" block, ${REFUSED}`,
    ]);
    return true;
  });
});

Deno.test("a suite file's server_calls is checked at its line, with the closest value", () => {
  for (const type of ["trajectory_match", "step_efficiency", "expected_view_recall"]) {
    const extra = type === "trajectory_match" ? "trajectory: exact, " : "";
    const text = `metrics:\n  - type: ${type}\n    params: {${extra}server_calls: reed}\n`;
    throws(() => loadSuite(text, { ...suiteChecks(), source: "s.yaml" }), (e: unknown) => {
      ok(e instanceof SuiteError);
      assertEquals(e.issues.map((i) => [i.line, i.field, i.message, i.suggestion]), [[
        3,
        "metrics[0].params.server_calls",
        "server_calls must be one of refuse, read, skip, got reed",
        "read",
      ]]);
      return true;
    });
    for (const mode of SERVER_CALLS) {
      const suite = loadSuite(text.replace("reed", mode), suiteChecks());
      strictEqual(suite.metrics[0]!.params.server_calls, mode);
    }
  }
  // hit_limit reads no calls and takes no server_calls.
  throws(
    () =>
      loadSuite("metrics:\n  - type: hit_limit\n    params: {server_calls: read}\n", suiteChecks()),
    /Unknown param "server_calls": hit_limit takes no params/,
  );
});

Deno.test("TRACE_SCHEMA takes a server's calls, for server_calls to decide, and names an MCP call's server", () => {
  const schema = compileSchema(TRACE_SCHEMA);
  const valid = (call: unknown) => schema.validate(trace([call])).valid;
  for (const call of [search("x"), mcp("crm", "get")]) ok(valid(call), JSON.stringify(call));
  const refused = [
    { type: "mcp_tool_use", id: "m", name: "get", input: {} }, // no server
    mcp("a__b", "get"), // a server whose tool's name could be read two ways
    { ...f(), server_name: "crm" }, // a server's name on another call
    { type: "computer_tool_use", name: "c", input: {} }, // a type no mode reads
    searched("x"), // a result is no call: the call's result is its `result`
  ];
  for (const call of refused) ok(!valid(call), JSON.stringify(call));
});

Deno.test("a call of a tool group (a Responses item's namespace, an Anthropic toolset_name) is refused, not read by its name alone", () => {
  const scoped: [Record<string, unknown>, string][] = [
    [{ type: "function_call", name: "f", arguments: "{}", namespace: "crm" }, "namespace"],
    [{ type: "tool_use", id: "t", name: "f", input: {}, toolset_name: "computer" }, "toolset_name"],
  ];
  for (const [call, key] of scoped) {
    const message = `output[1] is a call of a tool group (its ${key}), which is not read: ` +
      "its name alone could be another tool's";
    throws(() => match([f()], [f(), call], "exact"), { name: "TypeError", message });
    if (call.type !== "tool_use") continue; // a message's content holds calls as tool_use blocks
    const msg = { role: "assistant", content: [{ type: "text", text: "." }, call] };
    throws(() => match([msg], [msg], "strict"), {
      name: "TypeError",
      message: `reference[0].content[1] is a call of a tool group (its ${key}), which is not ` +
        "read: its name alone could be another tool's",
    });
  }
  // Outside a group (null, as the OpenAI SDK writes it), the call is read.
  const open = { type: "function_call", name: "f", arguments: "{}", namespace: null };
  strictEqual(match([plain("f")], [open], "exact").pass, true);
});
