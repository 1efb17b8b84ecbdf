// The README's `assay gate` example runs as written after `deno task demo`: the sample rules in
// samples/demo/gate.yaml, the demo's base and adapter reports.
import { match, ok, strictEqual } from "node:assert/strict";
import { scoreDemo } from "../_demo.ts";
import { runCli } from "./_main.ts";

const root = new URL("../../", import.meta.url).pathname;

Deno.test("the README's assay gate example holds on the demo's reports, with the shipped sample rules", async () => {
  // It named rules.yaml and base.json, which a user following the quick start does not have.
  const readme = await Deno.readTextFile(`${root}README.md`);
  ok(
    readme.includes(
      "deno task assay gate samples/demo/gate.yaml --base demo-out/base.json \\\n" +
        "  --candidate demo-out/adapter.json \\\n" +
        "  --junit gate.xml --markdown gate.md",
    ),
  );
  const dir = await Deno.makeTempDir();
  // What `deno task demo` writes to demo-out/.
  await scoreDemo(dir, "base", ["--details"]);
  await scoreDemo(dir, "adapter", ["--details"]);
  const r = await runCli(
    [
      "gate",
      "samples/demo/gate.yaml",
      "--base",
      `${dir}/base.json`,
      "--candidate",
      `${dir}/adapter.json`,
      "--junit",
      `${dir}/gate.xml`,
      "--markdown",
      `${dir}/gate.md`,
    ],
    {},
    root,
  );
  strictEqual(r.code, 0, r.stderr);
  match(r.stdout, /samples\/demo\/gate\.yaml: passed, 4 of 4 rules hold/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay gate lists every rule that does not fit the report, each at the rules file, with the nearest name", async () => {
  // It named the first only, and no metric or slice it might have meant.
  const dir = await Deno.makeTempDir();
  await scoreDemo(dir, "base", []);
  await Deno.writeTextFile(
    `${dir}/rules.yaml`,
    "rules:\n  - metric: argument_f2\n    slice: dee\n    min: 0.5\n",
  );
  const r = await runCli(["gate", `${dir}/rules.yaml`, "--report", `${dir}/base.json`], {}, root);
  strictEqual(r.code, 2, r.stdout);
  const lines = r.stderr.trimEnd().split("\n");
  strictEqual(lines.length, 2, r.stderr);
  match(
    lines[0]!,
    /^assay gate: .*rules\.yaml: The rule at line 2 .*"argument_f2".*did you mean "argument_f1"\?/,
  );
  match(lines[1]!, /^.*rules\.yaml: The rule at line 2 .*"dee".*did you mean "de"\?/);
  await Deno.remove(dir, { recursive: true });
});
