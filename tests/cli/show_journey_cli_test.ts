// A person looking for which examples of a partial run failed: assay show says how many examples
// the run left unscored, why an id is not among the records, and that no example matches.
import { match, strictEqual } from "node:assert/strict";
import { formatReport, scoreToolCalls } from "../../mod.ts";
import { runCli } from "./_main.ts";

const call = (a: number) => JSON.stringify({ name: "f", arguments: { a } });

Deno.test("assay show names the examples a partial run left unscored, and a selection of none", async () => {
  const dir = await Deno.makeTempDir();
  const report = scoreToolCalls(
    ["a", "b", "c", "d"].map((id) => ({ example_id: id, language: "en", target: call(1) })),
    [{ example_id: "c", output: call(1) }, { example_id: "d", output: call(2) }],
    { allowMissing: true },
  );
  await Deno.writeTextFile(`${dir}/p.json`, formatReport(report));
  const failing = await runCli(["show", `${dir}/p.json`, "--failing"]);
  strictEqual(failing.code, 0, failing.stderr);
  match(failing.stdout, /^d {2}\[en\] {2}ok/);
  match(
    failing.stdout,
    /\n1 of 1 selected examples shown \(2 in the report; 2 more had no generation and were not scored\);/,
  );
  const none = await runCli(["show", `${dir}/p.json`, "--failing", "--status", "no_json"]);
  strictEqual(none.code, 0, none.stderr);
  match(none.stdout, /^No example matches the filters given \(2 in the report; 2 more/);
  const unscored = await runCli(["show", `${dir}/p.json`, "--id", "b"]);
  strictEqual(unscored.code, 2);
  match(
    unscored.stderr,
    /p\.json did not score "b" \(no generation: the run was scored with --allow/,
  );
});
