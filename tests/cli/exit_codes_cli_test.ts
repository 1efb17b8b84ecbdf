// Exit codes (issue 13, item 8): a reader that closes stdout early ends the command quietly with
// exit 0, a full stdout is exit 2 naming it, and an output folder the command may not write to is
// refused with exit 2 before any work. (A folder as input, a missing or non-folder output location
// and an unsupported --format are in paths_cli_test.ts; a --store that is not a database in
// replace_cli_test.ts.)
import { ok, strictEqual } from "node:assert/strict";
import { writeScoreCorpus } from "../evaluation/_score_corpus.ts";
import { demoScoreArgs, scoreDemo } from "../_demo.ts";

const deno = Deno.execPath();
const repo = new URL("../../", import.meta.url).pathname;
const main = `${repo}cli/main.ts`;
const demo = `${repo}samples/demo`;
const dec = new TextDecoder();

/**
 * Runs `assay <args>`, reads `bytes` bytes of its stdout and closes the pipe, as `| head -c`
 * does. Returns the exit code, the signal, what was read and stderr.
 */
async function head(args: string[], bytes: number) {
  const child = new Deno.Command(deno, {
    args: ["run", "-A", main, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.getReader();
  let read = 0;
  while (read < bytes) {
    const chunk = await reader.read();
    if (chunk.done) break;
    read += chunk.value.length;
  }
  await reader.cancel();
  const status = await child.status;
  return { code: status.code, signal: status.signal, read, stderr: await stderr };
}

Deno.test("a closed stdout ends score --json, parse and canonicalize quietly with exit 0", async () => {
  const dir = await Deno.makeTempDir();
  // Many more lines than a pipe holds, so that the command is still writing when it closes.
  const outputs = Deno.readTextFileSync(`${repo}samples/outputs.jsonl`);
  Deno.writeTextFileSync(`${dir}/outputs.jsonl`, outputs.repeat(2000));
  Deno.writeTextFileSync(
    `${dir}/texts.txt`,
    Deno.readTextFileSync(`${repo}samples/json_texts.txt`).repeat(20_000),
  );
  const corpus = await writeScoreCorpus(dir, { seed: 8, count: 5000, prompts: false });
  const cases = [
    [
      "score",
      "--quiet",
      "--json",
      "--examples",
      corpus.examples,
      "--generations",
      corpus.generations,
    ],
    ["parse", `${dir}/outputs.jsonl`],
    ["canonicalize", `${dir}/texts.txt`],
  ];
  for (const args of cases) {
    const r = await head(args, 10);
    strictEqual(r.stderr, "", args.join(" "));
    strictEqual(r.code, 0, args.join(" "));
    strictEqual(r.signal, null);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("an --out folder the command may not write to exits 2 before any work", async () => {
  const dir = await Deno.makeTempDir();
  const other = await Deno.makeTempDir();
  // Permissions stand in for a read-only folder: the tests may run as root, whom modes do not stop.
  const out = await new Deno.Command(deno, {
    args: [
      "run",
      "--allow-read",
      `--allow-write=${other}`,
      main,
      "score",
      "--examples",
      `${demo}/examples.jsonl`,
      "--generations",
      `${demo}/generations.base.jsonl`,
      "--out",
      `${dir}/r.json`,
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  strictEqual(
    dec.decode(out.stderr).trim(),
    `assay score: Cannot write ${dir}/r.json (--out): folder ${dir} does not accept new files ` +
      "(permission denied)",
  );
  strictEqual(out.code, 2);
  strictEqual(dec.decode(out.stdout), "");
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(other, { recursive: true });
});

Deno.test({
  name: "an --out the file system refuses midway exits 2 in one line naming it, and leaves no file",
  // It ended with "internal error: Error: File too large (os error 27)", a stack and exit 1. A
  // file size limit (ulimit -f, SIGXFSZ ignored) makes the write fail as a full disk does.
  ignore: Deno.build.os !== "linux",

  async fn() {
    const dir = await Deno.makeTempDir();
    const lines = Array.from({ length: 20_000 }, (_, i) => `{"k":${i},"v":"${"x".repeat(20)}"}`);
    await Deno.writeTextFile(`${dir}/in.jsonl`, lines.join("\n") + "\n");
    const cases: [string[], string, string][] = [
      [[...demoScoreArgs(), "--details", "--json"], "score", `${dir}/r.json`],
      [["canonicalize", `${dir}/in.jsonl`], "canonicalize", `${dir}/c.jsonl`],
    ];
    for (const [args, name, out] of cases) {
      const r = await new Deno.Command("sh", {
        // 64 blocks of 1,024 bytes: less than either output.
        args: [
          "-c",
          "trap '' XFSZ; ulimit -f 64; exec \"$@\"",
          "sh",
          deno,
          "run",
          "-A",
          main,
          ...args,
          "--out",
          out,
        ],
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).output();
      strictEqual(
        dec.decode(r.stderr),
        `assay ${name}: Cannot write ${out}: File too large (os error 27)\n`,
        args.join(" "),
      );
      strictEqual(r.code, 2, args.join(" "));
      strictEqual(dec.decode(r.stdout), "", args.join(" "));
      // Neither the report nor its temporary file is left.
      const left = [];
      for await (const e of Deno.readDir(dir)) left.push(e.name);
      strictEqual(left.sort().join(" "), "in.jsonl", args.join(" "));
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "a full stdout exits 2 in one line naming stdout, from a write and from console.log",
  // They ended with "internal error: Error: No space left on device (os error 28)", a stack and 1.
  ignore: Deno.build.os !== "linux", // /dev/full

  async fn() {
    const dir = await Deno.makeTempDir();
    await scoreDemo(dir, "base");
    await Deno.writeTextFile(
      `${dir}/rules.yaml`,
      "rules:\n  - metric: full_call_exact_match\n    min: 0.1\n",
    );
    const gate = ["gate", `${dir}/rules.yaml`, "--report", `${dir}/base.json`];
    const score = demoScoreArgs();
    const cases: [string[], string][] = [
      [[...gate, "--json"], "gate"],
      [gate, "gate"],
      [[...score, "--json"], "score"],
      [[...score, "--out", `${dir}/r.json`], "score"],
      [["--help"], ""],
    ];
    for (const [args, name] of cases) {
      const out = await new Deno.Command("sh", {
        args: ["-c", 'exec "$@" > /dev/full', "sh", deno, "run", "-A", main, ...args],
        stdout: "null",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).output();
      strictEqual(
        dec.decode(out.stderr),
        `assay${name && ` ${name}`}: Cannot write stdout: No space left on device (os error 28)\n`,
        args.join(" "),
      );
      strictEqual(out.code, 2, args.join(" "));
    }
    // The report of --out is whole before anything is printed.
    ok(JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).metrics);
    await Deno.remove(dir, { recursive: true });
  },
});
