// Atomic writes that clean up (issue 13, item 2): a report is written to one temporary file with a
// fixed name beside its target (`.<name>.assay-tmp`) and renamed into place; a later write to the
// same target removes a stale one, without following it if it is a symlink; the replaced file
// keeps its permissions.
import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { runMain } from "./_main.ts";
import { demoScoreArgs } from "../_demo.ts";

const repo = new URL("../../", import.meta.url).pathname;

const score = (out: string) => demoScoreArgs("--out", out);

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("a write removes the stale temporary file a killed writer left beside its target", async () => {
  const dir = await Deno.makeTempDir();
  const cases: [string, string[]][] = [
    ["r.json", score(`${dir}/r.json`)],
    ["p.jsonl", ["parse", `${repo}samples/outputs.jsonl`, "--out", `${dir}/p.jsonl`]],
    ["c.txt", ["canonicalize", `${repo}samples/json_texts.txt`, "--out", `${dir}/c.txt`]],
  ];
  for (const [name, args] of cases) {
    Deno.writeTextFileSync(`${dir}/.${name}.assay-tmp`, "half a report from a killed run");
    const r = await runMain(args);
    strictEqual(r.code, 0, r.stderr);
    strictEqual(names(dir).includes(`.${name}.assay-tmp`), false, `${name}: stale temp removed`);
  }
  deepStrictEqual(names(dir), ["c.txt", "p.jsonl", "r.json"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a stale temporary file that is a symlink is removed, not written through", async () => {
  const dir = await Deno.makeTempDir();
  Deno.writeTextFileSync(`${dir}/precious.txt`, "precious\n");
  Deno.symlinkSync(`${dir}/precious.txt`, `${dir}/.r.json.assay-tmp`);
  const r = await runMain(score(`${dir}/r.json`));
  strictEqual(r.code, 0, r.stderr);
  strictEqual(Deno.readTextFileSync(`${dir}/precious.txt`), "precious\n");
  deepStrictEqual(names(dir), ["precious.txt", "r.json"]);
  strictEqual(JSON.parse(Deno.readTextFileSync(`${dir}/r.json`)).schema, "assay.evaluation.v2");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a replaced report keeps the permissions of the file it replaces", async () => {
  const dir = await Deno.makeTempDir();
  const out = `${dir}/r.json`;
  strictEqual((await runMain(score(out))).code, 0);
  Deno.chmodSync(out, 0o600);
  strictEqual((await runMain(score(out))).code, 0);
  strictEqual(Deno.statSync(out).mode! & 0o777, 0o600);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("writeAtomic never takes - for a file name", async () => {
  const { writeAtomic } = await import("../../cli/_atomic.ts");
  const dir = await Deno.makeTempDir();
  const here = Deno.cwd();
  Deno.chdir(dir); // on the old code, the file named - lands here, not in the checkout
  try {
    await rejects(() => writeAtomic("-", "{}\n"), {
      name: "UsageError",
      message: "Cannot write -: give a file path",
    });
    deepStrictEqual([...Deno.readDirSync(dir)], []);
  } finally {
    Deno.chdir(here);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the names of a process's streams are not files to write through a temporary file", async () => {
  const { isStreamPath } = await import("../../cli/_atomic.ts");
  for (const path of ["/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/fd/1", "/proc/self/fd/1"]) {
    strictEqual(isStreamPath(path), true, path);
  }
  for (const path of ["/dev/null", "stdout", "out/dev/stdout", "/dev/fd", "/proc/self/fd/x"]) {
    strictEqual(isStreamPath(path), false, path);
  }
});
