// Gating outside `assay gate`: suite run --fail-under (each arm's pass rate), calibrate
// --fail-under (Cohen's kappa) and compare --gate RULES exit 0 when they hold, 3 when they fail
// and 2 on a bad threshold or rules file.
import { match, strictEqual } from "node:assert/strict";

const deno = Deno.execPath();
const main = new URL("../../cli/main.ts", import.meta.url).pathname;
const root = new URL("../../", import.meta.url).pathname;

async function assay(args: string[]) {
  const out = await new Deno.Command(deno, { args: ["run", "-A", main, ...args], cwd: root })
    .output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("suite run --fail-under exits 3 when an arm's pass rate is under it, 0 otherwise", async () => {
  const demo = "samples/suite_demo";
  const args = (p: string) => [
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
    "--fail-under",
    p,
  ];
  // The demo's pass rates without judges: base 0.25, adapter 0.625.
  const fail = await assay(args("0.5"));
  strictEqual(fail.code, 3, fail.stderr);
  match(fail.stderr, /FAIL: pass rate under 0\.5 in base \(0\.250\)/);
  const pass = await assay(args("0.25"));
  strictEqual(pass.code, 0, pass.stderr);
  match(pass.stdout, /pass: every arm's pass rate is at least 0\.25/);
  const bad = await assay(args("1.5"));
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
  const demo = "samples/demo";
  for (const arm of ["base", "adapter"]) {
    const r = await assay([
      "score",
      "--quiet",
      "--examples",
      `${demo}/examples.jsonl`,
      "--prompts",
      `${demo}/prompts.jsonl`,
      "--generations",
      `${demo}/generations.${arm}.jsonl`,
      "--out",
      `${dir}/${arm}.json`,
    ]);
    strictEqual(r.code, 0, r.stderr);
  }
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
  match(pass.stdout, /passed, 1 of 1 rules hold/);
  const fail = await run(10, ["--json"]);
  strictEqual(fail.code, 3, fail.stderr);
  strictEqual(JSON.parse(fail.stdout).schema, "assay.comparison.v1"); // stdout stays JSON
  match(fail.stderr, /FAILED, 0 of 1 rules hold/);
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
