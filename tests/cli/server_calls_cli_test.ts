// `assay suite run` on an agent that used Anthropic's web search and an MCP connector: its trace
// (and a golden written with the same blocks) is refused at its line unless the metrics'
// server_calls say to read or skip the server's calls, and then it scores.
import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { runMain } from "./_main.ts";

const line = (v: unknown) => JSON.stringify(v);
const search = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { q: "x" } };
const get = { type: "mcp_tool_use", id: "mcptoolu_1", server_name: "crm", name: "get", input: {} };
const run = (golden_id: string, tool_calls: unknown[]) => ({
  golden_id,
  arm: "base",
  repeat: 0,
  tool_calls,
  sql: [],
  final_rows: null,
  final_answer: "42",
  submitted: true,
  hit_turn_limit: false,
});

/** Writes the suite (its metrics' server_calls, if given) and its inputs; runs it. */
async function suiteRun(server: string | undefined, reference: unknown[]) {
  const dir = await Deno.makeTempDir();
  const param = server === undefined ? "" : `, server_calls: ${server}`;
  await Deno.writeTextFile(
    `${dir}/suite.yaml`,
    "metrics:\n" +
      `  - type: trajectory_match\n    params: {trajectory: exact${param}}\n` +
      `  - type: step_efficiency\n    params: {${param.slice(2)}}\n`,
  );
  await Deno.writeTextFile(
    `${dir}/goldens.jsonl`,
    [{ id: "g1", question: "?" }, { id: "g2", question: "?", reference_trajectory: reference }]
      .map(line).join("\n") + "\n",
  );
  await Deno.writeTextFile(
    `${dir}/traces.jsonl`,
    [run("g1", []), run("g2", [search, get])].map(line).join("\n") + "\n",
  );
  await Deno.writeTextFile(`${dir}/catalog.json`, '{"views": []}');
  const r = await runMain([
    "suite",
    "run",
    `${dir}/suite.yaml`,
    ...["--goldens", `${dir}/goldens.jsonl`, "--traces", `${dir}/traces.jsonl`],
    ...["--catalog", `${dir}/catalog.json`, "--store", `${dir}/metrics.db`, "--no-judge", "--json"],
  ]);
  await Deno.remove(dir, { recursive: true });
  return r;
}

const REFUSED = 'is a "(server|mcp)_tool_use" block, a call run by a server, which is not read ' +
  "as a tool call: give it as a tool_use block to compare it, or set server_calls to read or skip";

Deno.test("assay suite run refuses a server's call at its trace's or golden's line, naming server_calls", async () => {
  const refused = async (server: string | undefined, reference: unknown[], at: string) => {
    const r = await suiteRun(server, reference);
    strictEqual(r.code, 2, r.stderr);
    match(r.stderr, new RegExp(`${at}\\[0\\] ${REFUSED}`));
  };
  const byName = [{ name: "web_search", arguments: { q: "x" } }, { name: "mcp__crm__get" }];
  const run = 'Golden "g2" \\(arm base, repeat 0\\), metric';
  await refused(undefined, byName, `traces\\.jsonl:2: ${run} "\\w+": tool_calls`);
  await refused(
    "refuse",
    [search, get],
    `goldens\\.jsonl:2: ${run} "trajectory_match": reference_trajectory`,
  );
});

Deno.test("assay suite run scores an agent's server calls with server_calls: read or skip", async () => {
  const criteria = async (server: string, reference: unknown[]) => {
    const r = await suiteRun(server, reference);
    strictEqual(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    const g2 = report.runs.find((x: { golden_id: string }) => x.golden_id === "g2");
    return g2.criteria.map((c: { metric: string; score: number; details: unknown }) => [
      c.metric,
      c.score,
      c.metric === "step_efficiency" ? c.details : undefined,
    ]);
  };
  // Read: the golden names the search and the MCP server's tool as the trace's blocks read.
  const byName = [{ name: "web_search", arguments: { q: "x" } }, { name: "mcp__crm__get" }];
  deepStrictEqual(await criteria("read", byName), [
    ["trajectory_match", 1, undefined],
    ["step_efficiency", 1, { tool_calls: 2, duplicates: 0, duplicate_calls: [] }],
  ]);
  // ... and an MCP tool of another name fails it.
  const other = [byName[0], { name: "get" }];
  deepStrictEqual((await criteria("read", other))[0], ["trajectory_match", 0, undefined]);
  // Skip: the server's calls are none, so an empty reference matches.
  deepStrictEqual(await criteria("skip", []), [
    ["trajectory_match", 1, undefined],
    ["step_efficiency", 1, { tool_calls: 0, duplicates: 0, duplicate_calls: [] }],
  ]);
});
