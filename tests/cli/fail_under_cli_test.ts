// Gating outside `assay gate`: suite run --fail-under (each arm's pass rate), calibrate
// --fail-under (Cohen's kappa) and compare, suite run and calibrate --gate RULES exit 0 when they
// hold, 3 when they fail and 2 on a bad threshold or rules file; their reports feed assay gate.
import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { scoreDemo } from "../_demo.ts";
import { runCli } from "./_main.ts";

const root = new URL("../../", import.meta.url).pathname;

const assay = (args: string[]) => runCli(args, {}, root);

/** `suite run` on the demo suite, judges skipped, with more arguments. */
function demoSuiteRun(extra: string[]) {
  const demo = "samples/suite_demo";
  return assay([
    "suite",
    "run",
    `${demo}/suite.yaml`,
    "--goldens",
    `${demo}/goldens.jsonl`,
    "--traces",
    `${demo}/traces.jsonl`,
    "--catalog",
    `${demo}/catalog.json`,
    "--no-judge",
    "--quiet",
    ...extra,
  ]);
}

Deno.test("suite run --fail-under exits 3 when an arm's pass rate is under it, 0 otherwise", async () => {
  const run = (p: string) => demoSuiteRun(["--fail-under", p]);
  // The demo's pass rates without judges: base 0.458 (11/24), adapter 0.625.
  const fail = await run("0.5");
  strictEqual(fail.code, 3, fail.stderr);
  match(fail.stderr, /FAIL: pass rate under 0\.5 in base \(0\.458\)/);
  const pass = await run("0.45");
  strictEqual(pass.code, 0, pass.stderr);
  match(pass.stdout, /pass: every arm's pass rate is at least 0\.45/);
  const bad = await run("1.5");
  strictEqual(bad.code, 2);
  match(bad.stderr, /--fail-under must be a number in \[0, 1\], got "1\.5"/);
});

Deno.test("calibrate --fail-under exits 3 when Cohen's kappa is under it", async () => {
  const labels = "tests/fixtures/calibration/labels.jsonl"; // kappa 0.5
  strictEqual((await assay(["calibrate", "--labels", labels, "--fail-under", "0.5"])).code, 0);
  const fail = await assay(["calibrate", "--labels", labels, "--fail-under", "0.6", "--json"]);
  strictEqual(fail.code, 3);
  match(fail.stderr, /Cohen's kappa 0\.5000, under --fail-under 0\.6/);
  strictEqual(JSON.parse(fail.stdout).kappa, 0.5);
});

Deno.test("compare --gate RULES prints the verdict after the comparison and exits 3 on a failure", async () => {
  const dir = await Deno.makeTempDir();
  await scoreDemo(dir, "base");
  await scoreDemo(dir, "adapter");
  const rules = (k: number) =>
    `rules:\n  - metric: full_call_exact_match\n    max_regressions: ${k}\n`;
  const run = async (k: number, extra: string[] = []) => {
    await Deno.writeTextFile(`${dir}/rules.yaml`, rules(k));
    return await assay([
      "compare",
      `${dir}/base.json`,
      `${dir}/adapter.json`,
      "--resamples",
      "200",
      "--gate",
      `${dir}/rules.yaml`,
      ...extra,
    ]);
  };
  const pass = await run(11);
  strictEqual(pass.code, 0, pass.stderr);
  match(pass.stdout, /passed, 1 of 1 rule holds/);
  const fail = await run(10, ["--json"]);
  strictEqual(fail.code, 3, fail.stderr);
  strictEqual(JSON.parse(fail.stdout).schema, "assay.comparison.v1"); // stdout stays JSON
  match(fail.stderr, /FAILED, 0 of 1 rule holds/);
  await Deno.writeTextFile(`${dir}/rules.yaml`, "rules: [{metric: nope, min: 1}]\n");
  const bad = await assay([
    "compare",
    `${dir}/base.json`,
    `${dir}/adapter.json`,
    "--gate",
    `${dir}/rules.yaml`,
  ]);
  strictEqual(bad.code, 2);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("suite run and calibrate --gate RULES: exit 3 on a failure, 2 on bad rules up front; their reports feed assay gate", async () => {
  const dir = await Deno.makeTempDir();
  const run = demoSuiteRun;
  // The demo without judges: adapter's pass rate 0.625 (15/24), schema_membership 35/46 overall.
  await Deno.writeTextFile(
    `${dir}/suite.yaml`,
    "rules:\n  - metric: pass_rate\n    slice: adapter\n    min: 0.6\n" +
      "  - metric: schema_membership\n    min: 0.8\n",
  );
  const fail = await run(["--gate", `${dir}/suite.yaml`, "--json", "--out", `${dir}/run.json`]);
  strictEqual(fail.code, 3, fail.stderr);
  strictEqual(JSON.parse(fail.stdout).schema, "assay.suite_run.v1"); // stdout stays JSON
  match(fail.stderr, /pass {2}pass_rate \(adapter\) >= 0\.6: 0\.6250 \(15\/24\)/);
  match(fail.stderr, /FAIL {2}schema_membership \(overall\) >= 0\.8: 0\.7609 \(35\/46\)/);
  const again = await assay(["gate", `${dir}/suite.yaml`, "--report", `${dir}/run.json`]);
  strictEqual(again.code, 3, again.stderr);
  match(again.stdout, /FAILED, 1 of 2 rules hold/);
  // Comparative rules on fractional scores (overall_score) resample them: a run against itself is
  // non-inferior at margin 0 (every resample's delta is 0), and not superior.
  await Deno.writeTextFile(
    `${dir}/cmp.yaml`,
    "rules:\n  - metric: overall_score\n    non_inferior: { margin: 0 }\n" +
      "  - metric: overall_score\n    slice: adapter\n    superior: true\n",
  );
  const self = await assay([
    "gate",
    `${dir}/cmp.yaml`,
    "--base",
    `${dir}/run.json`,
    "--candidate",
    `${dir}/run.json`,
  ]);
  strictEqual(self.code, 3, self.stderr);
  match(
    self.stdout,
    /pass {2}overall_score \(overall\) non-inferior, margin 0: delta 0, 95% interval \[0, 0\]/,
  );
  match(self.stdout, /FAIL {2}overall_score \(adapter\) superior/);
  // --fail-under is checked with --json too, on stderr.
  const under = await run(["--fail-under", "0.5", "--json"]);
  strictEqual(under.code, 3, under.stderr);
  match(under.stderr, /FAIL: pass rate under 0\.5 in base/);
  await Deno.writeTextFile(`${dir}/bad.yaml`, "rules:\n  - metric: pass_rate\n    min: 2\n");
  const bad = await run(["--gate", `${dir}/bad.yaml`, "--out", `${dir}/never.json`]);
  strictEqual(bad.code, 2);
  // One problem, on its own line after the heading, as when there are several.
  match(
    bad.stderr,
    /^assay suite run: Invalid gate rules:\n.*bad\.yaml:3:10: min must be a number in \[0, 1\]\n$/,
  );
  strictEqual(await Deno.stat(`${dir}/never.json`).then(() => true, () => false), false);

  const labels = "tests/fixtures/calibration/labels.jsonl"; // kappa 0.5
  await Deno.writeTextFile(
    `${dir}/cal.yaml`,
    "rules:\n  - metric: kappa\n    min: 0.6\n  - metric: agreement\n    min: 0.5\n",
  );
  const cal = await assay([
    "calibrate",
    "--labels",
    labels,
    "--gate",
    `${dir}/cal.yaml`,
    "--out",
    `${dir}/cal.json`,
  ]);
  strictEqual(cal.code, 3, cal.stderr);
  match(cal.stdout, /FAIL {2}kappa \(overall\) >= 0\.6: 0\.5000, needs >= 0\.6/);
  const report = JSON.parse(await Deno.readTextFile(`${dir}/cal.json`));
  deepStrictEqual([report.schema, report.kappa], ["assay.calibration.v1", 0.5]);
  await Deno.writeTextFile(`${dir}/cal.yaml`, "rules:\n  - metric: kappa\n    min: 0.5\n");
  const held = await assay(["gate", `${dir}/cal.yaml`, "--report", `${dir}/cal.json`]);
  strictEqual(held.code, 0, held.stderr);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("suite run, compare and calibrate --gate refuse a rule naming a metric or slice the report lacks before any work: exit 2, nothing written or stored", async () => {
  const dir = await Deno.makeTempDir();
  const exists = (p: string) => Deno.stat(p).then(() => true, () => false);
  const rules = async (metric: string, slice = "overall") => {
    await Deno.writeTextFile(
      `${dir}/rules.yaml`,
      `rules:\n  - metric: ${metric}\n    slice: ${slice}\n    min: 0.5\n`,
    );
    return `${dir}/rules.yaml`;
  };
  const outputs = ["--store", `${dir}/m.db`, "--out", `${dir}/run.json`];
  const misspelt = await demoSuiteRun(["--gate", await rules("pass_rat"), ...outputs]);
  strictEqual(misspelt.code, 2, misspelt.stderr);
  match(
    misspelt.stderr,
    /rules\.yaml: The rule at line 2 \(its metric at line 2, column 13\) names the metric "pass_rat"/,
  );
  strictEqual(misspelt.stdout, ""); // no tables: nothing was scored
  const arm = await demoSuiteRun(["--gate", await rules("pass_rate", "adaptr"), ...outputs]);
  strictEqual(arm.code, 2, arm.stderr);
  match(arm.stderr, /names the slice "adaptr", which the report does not have/);
  deepStrictEqual([await exists(`${dir}/m.db`), await exists(`${dir}/run.json`)], [false, false]);

  await scoreDemo(dir, "base");
  await scoreDemo(dir, "adapter");
  const cmp = await assay([
    "compare",
    `${dir}/base.json`,
    `${dir}/adapter.json`,
    "--gate",
    await rules("full_call_exact_mach"),
    "--out",
    `${dir}/cmp.json`,
    "--html",
    `${dir}/cmp.html`,
  ]);
  strictEqual(cmp.code, 2, cmp.stderr);
  match(cmp.stderr, /names the metric "full_call_exact_mach"/);
  strictEqual(cmp.stdout, "");
  deepStrictEqual([await exists(`${dir}/cmp.json`), await exists(`${dir}/cmp.html`)], [
    false,
    false,
  ]);

  const cal = await assay([
    "calibrate",
    "--labels",
    "tests/fixtures/calibration/labels.jsonl",
    "--gate",
    await rules("kapa"),
    "--out",
    `${dir}/cal.json`,
  ]);
  strictEqual(cal.code, 2, cal.stderr);
  match(cal.stderr, /names the metric "kapa", which an assay\.calibration\.v1 report/);
  strictEqual(cal.stdout, "");
  strictEqual(await exists(`${dir}/cal.json`), false);
  await Deno.remove(dir, { recursive: true });
});
