// compare, suite run and calibrate --gate RULES write the CI outputs `assay gate` writes: --junit
// and --markdown, byte for byte the files `assay gate` writes of the same reports, and the same
// Markdown appended to GITHUB_STEP_SUMMARY; their paths are checked as `assay gate` checks them,
// before any work. They printed the verdict and set the exit code only.
import { match, ok, strictEqual } from "node:assert/strict";
import { formatReport, scoreToolCalls } from "../../mod.ts";
import { assay, exists, GATED_COMMANDS } from "../_gated_commands.ts";
import { runMain } from "./_main.ts";

for (const command of GATED_COMMANDS) {
  Deno.test(`${command.name} --gate --junit --markdown writes assay gate's files, and appends its Markdown to GITHUB_STEP_SUMMARY`, async () => {
    const dir = await Deno.makeTempDir();
    await command.setup(dir);
    const rules = `${dir}/rules.yaml`;
    await Deno.writeTextFile(rules, command.rules);
    // What earlier steps wrote: the Markdown starts after a blank line whatever the file ends
    // with (it was glued to a last line without a line feed).
    const earlier = "earlier step\n\n";
    await Deno.writeTextFile(`${dir}/s.md`, "earlier step\n");
    await Deno.writeTextFile(`${dir}/gs.md`, "earlier step");
    await Deno.writeTextFile(`${dir}/s2.md`, earlier);
    const own = await assay(
      [...command.args(dir, rules), "--junit", `${dir}/j.xml`, "--markdown", `${dir}/m.md`],
      { GITHUB_STEP_SUMMARY: `${dir}/s.md` },
    );
    strictEqual(own.code, 3, own.stderr);
    const gate = await assay(
      [
        "gate",
        rules,
        ...command.gateArgs(dir),
        "--junit",
        `${dir}/g.xml`,
        "--markdown",
        `${dir}/g.md`,
      ],
      { GITHUB_STEP_SUMMARY: `${dir}/gs.md` },
    );
    strictEqual(gate.code, 3, gate.stderr);
    const read = (name: string) => Deno.readTextFile(`${dir}/${name}`);
    const markdown = await read("g.md");
    match(markdown, /^### assay gate .*: FAILED \(1 of 2 rules hold\)\n/);
    ok((await read("g.xml")).includes('<failure message="'));
    strictEqual(await read("j.xml"), await read("g.xml"));
    strictEqual(await read("m.md"), markdown);
    strictEqual(await read("gs.md"), earlier + markdown);
    strictEqual(await read("s.md"), earlier + markdown);
    // The step summary takes the Markdown without --markdown too, as assay gate's does.
    const bare = await assay(command.args(dir, rules), { GITHUB_STEP_SUMMARY: `${dir}/s2.md` });
    strictEqual(bare.code, 3, bare.stderr);
    strictEqual(await read("s2.md"), earlier + markdown);
    await Deno.remove(dir, { recursive: true });
  });

  Deno.test(`${command.name} --junit and --markdown are checked before any work: exit 2 naming the path, nothing written`, async () => {
    const dir = await Deno.makeTempDir();
    await command.setup(dir);
    const rules = `${dir}/rules.yaml`;
    await Deno.writeTextFile(rules, command.rules);
    const gated = command.args(dir, rules);
    const ungated = gated.filter((a, i) => a !== "--gate" && gated[i - 1] !== "--gate");
    const cases: [string[], string][] = [
      [[...gated, "--junit", dir], `Cannot write ${dir} (--junit): it is a folder`],
      [
        [...gated, "--markdown", `${dir}/none/m.md`],
        `Cannot write ${dir}/none/m.md (--markdown): folder ${dir}/none does not exist`,
      ],
      [
        [...gated, "--markdown", "-"],
        "--markdown -: give a file path; this command does not write --markdown to stdout",
      ],
      [[...gated, "--junit", rules], `--junit ${rules} is the --gate file`],
      [
        [...gated, "--junit", `${dir}/o.xml`, "--markdown", `${dir}/o.xml`],
        `--markdown ${dir}/o.xml is the --junit file`,
      ],
      [
        [...ungated, "--junit", `${dir}/j.xml`],
        "--junit writes the verdict of --gate: give --gate RULES",
      ],
    ];
    await Deno.writeTextFile(`${dir}/report.md`, "notes\n");
    cases.push([
      [...gated, "--markdown", `${dir}/report.md`],
      `--markdown ${dir}/report.md exists and is not an assay gate summary (pass --force to ` +
      "replace it)",
    ]);
    for (const [args, message] of cases) {
      const r = await assay(args);
      strictEqual(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      strictEqual(r.stderr.trim(), `assay ${command.name}: ${message}`);
      strictEqual(r.stdout, "");
      for (const name of [...command.outputs, "j.xml", "o.xml"]) {
        strictEqual(await exists(`${dir}/${name}`), false, `${name} after ${args.join(" ")}`);
      }
    }
    strictEqual(await Deno.readTextFile(`${dir}/report.md`), "notes\n");
    await Deno.remove(dir, { recursive: true });
  });
}

Deno.test("compare, suite run and calibrate --help list --junit and --markdown", async () => {
  for (const args of [["compare"], ["suite", "run"], ["calibrate"]]) {
    const help = await runMain([...args, "--help"]);
    strictEqual(help.code, 0, args.join(" "));
    match(help.stdout, /\n {2}--junit FILE +with --gate, also write its verdict as JUnit XML/);
    match(help.stdout, /\n {2}--markdown FILE +with --gate, also write its verdict as a Markdown/);
    match(help.stdout, /GITHUB_STEP_SUMMARY set, that summary is appended/);
  }
});

Deno.test("compare --on intersection --gate gates the examples the comparison compares", async () => {
  // The gate read the whole reports and refused a partial rerun that the comparison took.
  const dir = await Deno.makeTempDir();
  const call = '{"name":"f","arguments":{"a":1}}';
  const examples = Array.from({ length: 20 }, (_, i) => ({
    example_id: `e${String(i).padStart(2, "0")}`,
    language: "en",
    target: call,
  }));
  const score = (xs: typeof examples) =>
    formatReport(scoreToolCalls(xs, xs.map((e) => ({ example_id: e.example_id, output: call }))));
  await Deno.writeTextFile(`${dir}/base.json`, score(examples));
  await Deno.writeTextFile(`${dir}/adapter.json`, score(examples.slice(5)));
  await Deno.writeTextFile(
    `${dir}/rules.yaml`,
    "rules:\n  - metric: full_call_exact_match\n    max_regressions: 0\n",
  );
  const compare = (...more: string[]) =>
    assay([
      "compare",
      `${dir}/base.json`,
      `${dir}/adapter.json`,
      "--gate",
      `${dir}/rules.yaml`,
      ...more,
    ]);
  const r = await compare(
    "--on",
    "intersection",
    "--resamples",
    "100",
    "--markdown",
    `${dir}/m.md`,
  );
  strictEqual(r.code, 0, r.stderr);
  match(r.stdout, /rules\.yaml: passed, 1 of 1 rule holds/);
  const markdown = await Deno.readTextFile(`${dir}/m.md`);
  match(markdown, /^### assay gate .*rules\\\.yaml: passed \(1 of 1 rule holds\)\n/);
  match(
    markdown,
    /Gated on the 15 examples both reports hold; 5 only in the base, 0 only in the candidate\./,
  );
  // Without --on intersection both refuse, naming the files, and write nothing.
  const whole = await compare("--markdown", `${dir}/m2.md`);
  strictEqual(whole.code, 2, whole.stderr);
  ok(whole.stderr.startsWith(`assay compare: ${dir}/base.json (base) and ${dir}/adapter.json`));
  strictEqual(await exists(`${dir}/m2.md`), false);
  await Deno.remove(dir, { recursive: true });
});
