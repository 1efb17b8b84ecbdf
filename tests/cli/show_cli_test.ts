// `assay show` on the demo: the adapter's regressed fr-0010 shows its missing text argument;
// --failing selects the examples wrong on the full call; bad selections exit 2, and so does a
// report whose detail was edited by hand (not a crash, exit 1, as before).
import { match, ok, strictEqual } from "node:assert/strict";
import { scoreDemo } from "../_demo.ts";
import { runCli, runMain } from "./_main.ts";

const assay = runCli;

Deno.test("assay show prints an example's gold, prediction and missing argument from a detailed report", async () => {
  const dir = await Deno.makeTempDir();
  await scoreDemo(dir, "adapter", ["--details"]);
  const one = await assay(["show", `${dir}/adapter.json`, "--id", "fr-0010"]);
  strictEqual(one.code, 0, one.stderr);
  match(one.stdout, /^fr-0010 {2}\[fr\] {2}ok {2}name yes {2}arguments NO/);
  match(one.stdout, /\n {2}missing: {3}\["text"\] = "récupérer Lena/);
  match(one.stdout, /1 of 1 selected examples shown \(395 in the report\)/);
  const failing = await assay(["show", `${dir}/adapter.json`, "--failing", "--slice", "fr"]);
  strictEqual(failing.code, 0, failing.stderr);
  const report = JSON.parse(await Deno.readTextFile(`${dir}/adapter.json`));
  const wrong = report.records.filter((
    r: { language: string; name_match: boolean; arguments_match: boolean },
  ) => r.language === "fr" && !(r.name_match && r.arguments_match)).length;
  ok(failing.stdout.includes(`${wrong} of ${wrong} selected examples shown`), failing.stdout);
  const unknown = await assay(["show", `${dir}/adapter.json`, "--id", "zz-1"]);
  strictEqual(unknown.code, 2);
  match(unknown.stderr, /has no example "zz-1"/);
  const badMetric = await assay([
    "show",
    `${dir}/adapter.json`,
    "--failing",
    "--metric",
    "argument_f1",
  ]);
  strictEqual(badMetric.code, 2);
  // A detail edited by hand: refused on reading, naming the file and the field, by show and by
  // compare --html (the examples section reads details too).
  report.records[3].detail.paths = null;
  await Deno.writeTextFile(`${dir}/edited.json`, JSON.stringify(report));
  const edited = await assay(["show", `${dir}/edited.json`]);
  strictEqual(edited.code, 2, edited.stderr);
  ok(
    edited.stderr.includes(
      `${dir}/edited.json: The assay.evaluation.v2 report is malformed: ` +
        "records[3].detail.paths is not {missing, extra, different}",
    ),
    edited.stderr,
  );
  const html = await assay([
    "compare",
    `${dir}/adapter.json`,
    `${dir}/edited.json`,
    "--html",
    `${dir}/page.html`,
  ]);
  strictEqual(html.code, 2, html.stderr);
  match(html.stderr, /records\[3\]\.detail\.paths is not/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay show refuses an unknown --status and a --metric without --failing (exit 2)", async () => {
  const dir = await Deno.makeTempDir();
  await scoreDemo(dir, "adapter");
  const report = `${dir}/adapter.json`;
  const near = await assay(["show", report, "--status", "invalid-json"]);
  strictEqual(near.code, 2, near.stderr);
  strictEqual(
    near.stderr.trim(),
    `assay show: ${report} has no parse status "invalid-json" (did you mean invalid_json? it has ` +
      "ok, no_json, invalid_json, invalid_shape)",
  );
  const far = await assay(["show", report, "--status", "zzz"]);
  strictEqual(far.code, 2, far.stderr);
  match(
    far.stderr,
    /has no parse status "zzz" \(it has ok, no_json, invalid_json, invalid_shape\)/,
  );
  const known = await assay(["show", report, "--status", "invalid_json"]);
  strictEqual(known.code, 0, known.stderr);
  match(known.stdout, /2 of 2 selected examples shown/);
  const alone = await assay(["show", report, "--metric", "valid_json_rate"]);
  strictEqual(alone.code, 2, alone.stderr);
  strictEqual(
    alone.stderr.trim(),
    "assay show: --metric needs --failing (it names the metric the examples are wrong on)",
  );
  const help = await assay(["show", "--help"]);
  match(help.stdout, /^Usage: deno task assay show REPORT\.json \[--failing \[--metric M\]\]/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay show and compare read a report from stdin for -", async () => {
  const dir = await Deno.makeTempDir();
  await scoreDemo(dir, "adapter", ["--details"]);
  await scoreDemo(dir, "base");
  const piped = async (args: string[], file: string) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../../cli/main.ts", import.meta.url).pathname, ...args],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(await Deno.readFile(file));
    await writer.close();
    const r = await child.output();
    const text = (b: Uint8Array) => new TextDecoder().decode(b).trim();
    return { code: r.code, stdout: text(r.stdout), stderr: text(r.stderr) };
  };
  // It printed "Cannot read -: No such file or directory (os error 2): stat '-'".
  const file = await assay(["show", `${dir}/adapter.json`, "--id", "fr-0010"]);
  const stdin = await piped(["show", "-", "--id", "fr-0010"], `${dir}/adapter.json`);
  strictEqual(stdin.code, 0, stdin.stderr);
  strictEqual(stdin.stdout, file.stdout.trim());
  const compared = await assay(["compare", `${dir}/base.json`, `${dir}/adapter.json`]);
  const fromStdin = await piped(["compare", "-", `${dir}/adapter.json`], `${dir}/base.json`);
  strictEqual(fromStdin.code, 0, fromStdin.stderr);
  strictEqual(fromStdin.stdout, compared.stdout.trim());
  await Deno.writeTextFile(`${dir}/bad.json`, "{");
  const bad = await piped(["show", "-"], `${dir}/bad.json`);
  strictEqual(bad.code, 2);
  strictEqual(
    bad.stderr,
    "assay show: <stdin> is not JSON: expecting_property_name at 1 (line 1, column 2)",
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay show says --id repeats, in its usage and when --id a b reads b as a report", async () => {
  const help = await assay(["show", "--help"]);
  match(help.stdout, /\[--id ID\]\.\.\./);
  ok(!help.stdout.includes("[--id ID ...]"), help.stdout);
  const r = await assay(["show", "r.json", "--id", "a", "b"]);
  strictEqual(r.code, 2);
  strictEqual(
    r.stderr,
    "assay show: Give one report (see --help; repeat --id for several: --id a --id b)\n",
  );
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  ok(readme.includes("[--id ID]... [--slice S]"), "README's usage of show");
});

Deno.test("assay show refuses a JSON lines file of no kind it reads by what it reads, not an offset (exit 2)", async () => {
  const reads = "(show reads an assay.evaluation.v2, assay.evaluation.v1, assay.bfcl.v1, " +
    "assay.ifeval.v1, assay.structured.v1 or assay.suite_run.v1 report, a BFCL score file or an " +
    "IFEval results file: see --help)";
  // An examples file: it said "is not JSON: extra_data at 341".
  const examples = new URL("../../samples/demo/examples.jsonl", import.meta.url).pathname;
  const r = await runMain(["show", examples]);
  strictEqual(r.code, 2);
  strictEqual(
    r.stderr,
    `assay show: ${examples} is not a report show reads: it is JSON lines, and its first line ` +
      `is an object of no known kind ${reads}`,
  );
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/arrays.jsonl`, "[1]\n[2]\n");
  const arrays = await runMain(["show", `${dir}/arrays.jsonl`]);
  strictEqual(arrays.code, 2);
  strictEqual(
    arrays.stderr,
    `assay show: ${dir}/arrays.jsonl is not a report show reads: it is JSON lines, and its ` +
      `first line is an array ${reads}`,
  );
  // A report on one line with more after it is still placed by the parser's offset.
  await Deno.writeTextFile(`${dir}/two.json`, '{"schema": "assay.evaluation.v2"}\n{}\n');
  const two = await runMain(["show", `${dir}/two.json`]);
  strictEqual(two.code, 2);
  strictEqual(
    two.stderr,
    `assay show: ${dir}/two.json is not JSON: extra_data at 34 (line 2, column 1)`,
  );
  await Deno.remove(dir, { recursive: true });
});
