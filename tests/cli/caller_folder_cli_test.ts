// `deno task assay` from another folder: relative paths are the caller's (INIT_CWD), not the
// repository's. And `deno task demo` checks its one argument, the folder, as the commands do theirs.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";

const deno = Deno.execPath();
const repo = new URL("../../", import.meta.url).pathname;
const demo = `${repo}samples/demo/`;

/** A temporary folder holding the demo's examples and base generations. */
async function demoFolder(): Promise<string> {
  const dir = await Deno.makeTempDir();
  await Deno.copyFile(`${demo}examples.jsonl`, `${dir}/examples.jsonl`);
  await Deno.copyFile(`${demo}generations.base.jsonl`, `${dir}/generations.jsonl`);
  return dir;
}

const SCORE = ["score", "--quiet", "--examples", "examples.jsonl", "--generations"];

Deno.test("deno task assay reads and writes relative paths in the caller's folder", async () => {
  const dir = await demoFolder();
  // As a user runs it: `deno task` from another folder, which sets INIT_CWD to that folder.
  const env = Deno.env.toObject();
  delete env.INIT_CWD;
  const out = await new Deno.Command(deno, {
    args: ["task", "--config", `${repo}deno.json`, "assay", ...SCORE, "generations.jsonl"].concat(
      ["--out", "report.json"],
    ),
    cwd: dir,
    clearEnv: true,
    env: { ...env, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
  match(new TextDecoder().decode(out.stdout), /Report written to report\.json/);
  const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  strictEqual(report.schema, "assay.evaluation.v2");
  strictEqual(report.metrics.overall.valid_json_rate.denominator, 395);
  let inRepo = true;
  await Deno.stat(`${repo}report.json`).catch(() => inRepo = false);
  strictEqual(inRepo, false);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("deno run elsewhere keeps its own folder under an INIT_CWD left by an outer script", async () => {
  const dir = await demoFolder();
  const other = await Deno.makeTempDir();
  const out = await new Deno.Command(deno, {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env=INIT_CWD",
      `${repo}cli/main.ts`,
      ...SCORE,
      "generations.jsonl",
      "--out",
      "report.json",
    ],
    cwd: dir,
    env: { INIT_CWD: other, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
  strictEqual(
    JSON.parse(await Deno.readTextFile(`${dir}/report.json`)).schema,
    "assay.evaluation.v2",
  );
  deepStrictEqual([...Deno.readDirSync(other)], []);
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(other, { recursive: true });
});

Deno.test("deno task demo writes its folder in the caller's folder", async () => {
  const dir = await Deno.makeTempDir();
  const name = `demo-out-${crypto.randomUUID()}`;
  const env = Deno.env.toObject();
  delete env.INIT_CWD;
  try {
    const out = await new Deno.Command(deno, {
      args: ["task", "--config", `${repo}deno.json`, "demo", name],
      cwd: dir,
      clearEnv: true,
      env: { ...env, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
    for (const arm of ["base", "adapter"]) {
      const report = JSON.parse(await Deno.readTextFile(`${dir}/${name}/${arm}.json`));
      strictEqual(report.metrics.overall.valid_json_rate.denominator, 395);
    }
    let inRepo = true;
    await Deno.stat(`${repo}${name}`).catch(() => inRepo = false);
    strictEqual(inRepo, false);
  } finally {
    await Deno.remove(`${repo}${name}`, { recursive: true }).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task demo shows its usage, and refuses an option, a second folder or a file with exit 2", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/afile`, "");
  const runDemo = (...args: string[]) =>
    new Deno.Command(deno, {
      args: ["run", "--allow-read", "--allow-write", `${repo}build/demo.ts`, ...args],
      cwd: dir,
      env: { INIT_CWD: dir, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
  const dec = new TextDecoder();
  for (const help of ["--help", "-h"]) {
    const out = await runDemo(help);
    strictEqual(out.code, 0, dec.decode(out.stderr));
    ok(dec.decode(out.stdout).startsWith("Usage: deno task demo [FOLDER]\n"));
  }
  const cases: [string[], string][] = [
    [["-x"], 'demo: Unknown option "-x" (see --help)'],
    [["a", "b"], 'demo: Unexpected argument "b": one folder at most'],
    [["afile"], "demo: afile is a file, not a folder"],
  ];
  for (const [args, message] of cases) {
    const out = await runDemo(...args);
    strictEqual(out.code, 2, args.join(" "));
    strictEqual(dec.decode(out.stderr).trim(), message);
  }
  // Nothing was made: no folder named after a flag, and the file is as it was.
  deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["afile"]);
  strictEqual(await Deno.readTextFile(`${dir}/afile`), "");
  await Deno.remove(dir, { recursive: true });
});
