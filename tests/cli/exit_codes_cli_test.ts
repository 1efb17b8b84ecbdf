// Exit codes (issue 13, item 8): a reader that closes stdout early ends the command quietly with
// exit 0, and an output folder the command may not write to is refused with exit 2 before any
// work. (A folder as input, a missing or non-folder output location and an unsupported --format
// are in paths_cli_test.ts; a --store that is not a database in replace_cli_test.ts.)
import { strictEqual } from "node:assert/strict";
import { writeScoreCorpus } from "../evaluation/_score_corpus.ts";

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
