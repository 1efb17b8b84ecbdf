// A verdict's CI outputs (gateOutputs): what every command that gates writes, and where. And
// GITHUB_STEP_SUMMARY as compare, suite run and calibrate --gate take it: checked before any work
// as `assay gate` checks it, ignored without --gate.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { scoreToolCalls } from "../../src/evaluation/mod.ts";
import {
  evaluateGate,
  gateJunit,
  gateMarkdown,
  gateOutputs,
  parseGateRules,
} from "../../src/gate/mod.ts";
import { assay, exists, GATED_COMMANDS } from "../_gated_commands.ts";

Deno.test("gateOutputs() gives the JUnit XML, the Markdown and the step summary's Markdown, each where a path is given", () => {
  const target = { name: "f", arguments: {} };
  const examples = ["a", "b"].map((id) => ({ example_id: id, language: "en", target }));
  const report = scoreToolCalls(examples, [
    { example_id: "a", output: '{"name":"f","arguments":{}}' },
    { example_id: "b", output: "no call" },
  ]);
  const gate = parseGateRules(
    "rules:\n  - metric: full_call_exact_match\n    min: 0.75\n",
    "g.yaml",
  );
  const verdict = evaluateGate(gate, { report });
  const xml = gateJunit(verdict, "g.yaml");
  const md = gateMarkdown(verdict, "g.yaml");
  deepStrictEqual(
    gateOutputs(verdict, "g.yaml", { junit: "j.xml", markdown: "m.md", stepSummary: "s.md" }),
    [
      { output: "junit", path: "j.xml", text: xml, append: false },
      { output: "markdown", path: "m.md", text: md, append: false },
      { output: "stepSummary", path: "s.md", text: md, append: true },
    ],
  );
  deepStrictEqual(gateOutputs(verdict, "g.yaml", { markdown: "m.md", junit: undefined }), [
    { output: "markdown", path: "m.md", text: md, append: false },
  ]);
  deepStrictEqual(gateOutputs(verdict, "g.yaml", {}), []);
});

for (const command of GATED_COMMANDS) {
  Deno.test(`${command.name} --gate checks GITHUB_STEP_SUMMARY before any work, as assay gate does`, async () => {
    const dir = await Deno.makeTempDir();
    await command.setup(dir);
    const rules = `${dir}/rules.yaml`;
    await Deno.writeTextFile(rules, command.rules);
    const args = command.args(dir, rules);
    const nothingWritten = async (what: string) => {
      for (const name of command.outputs) {
        strictEqual(await exists(`${dir}/${name}`), false, `${name} after ${what}`);
      }
    };
    const cases: [string, string][] = [
      [
        `${dir}/none/s.md`,
        `Cannot append to ${dir}/none/s.md (GITHUB_STEP_SUMMARY): folder ${dir}/none does not ` +
        "exist",
      ],
      [dir, `Cannot append to ${dir} (GITHUB_STEP_SUMMARY): it is a folder`],
      [rules, `GITHUB_STEP_SUMMARY ${rules} is the --gate file`],
      [`${dir}/j.xml`, `GITHUB_STEP_SUMMARY ${dir}/j.xml is the --junit file`],
    ];
    for (const [summary, message] of cases) {
      const r = await assay([...args, "--junit", `${dir}/j.xml`], {
        GITHUB_STEP_SUMMARY: summary,
      });
      strictEqual(r.code, 2, `${summary}: ${r.stderr}`);
      strictEqual(r.stderr.trim(), `assay ${command.name}: ${message}`);
      strictEqual(r.stdout, "");
      await nothingWritten(summary);
    }
    strictEqual(await Deno.readTextFile(rules), command.rules);
    // Without --gate there is no verdict to summarize: the variable is not read.
    const ungated = args.filter((a, i) => a !== "--gate" && args[i - 1] !== "--gate");
    const plain = await assay(ungated, { GITHUB_STEP_SUMMARY: `${dir}/none/s.md` });
    strictEqual(plain.code, 0, plain.stderr);
    await Deno.remove(dir, { recursive: true });
  });
}
