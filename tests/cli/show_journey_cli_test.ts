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

Deno.test("assay show lists two ids that look alike apart, and --id takes each as listed", async () => {
  // The id with a line feed and the id of 11 printable characters `"new\nline"` were both listed
  // as "new\nline", and `--id '"new\nline"'` (as listed) was refused.
  const dir = await Deno.makeTempDir();
  const ids = ["new\nline", '"new\\nline"'];
  const report = scoreToolCalls(
    ids.map((id) => ({ example_id: id, language: "en", target: call(1) })),
    ids.map((id) => ({ example_id: id, output: call(2) })),
  );
  await Deno.writeTextFile(`${dir}/r.json`, formatReport(report));
  const all = await runCli(["show", `${dir}/r.json`, "--failing"]);
  strictEqual(all.code, 0, all.stderr);
  const listed = all.stdout.split("\n").filter((l) => l.includes("[en]")).map((l) =>
    l.slice(0, l.indexOf("  [en]"))
  );
  strictEqual(listed.length, 2);
  strictEqual(new Set(listed).size, 2, listed.join(" | "));
  for (const shown of listed) {
    const one = await runCli(["show", `${dir}/r.json`, "--id", shown]);
    strictEqual(one.code, 0, one.stderr);
    match(one.stdout, new RegExp(`^${RegExp.escape(shown)} {2}\\[en\\]`));
    match(one.stdout, /\n1 of 1 selected examples shown/);
  }
});
