// assay structured reads its files chunk by chunk and holds what its report needs, not every
// row's fields, inputs and report row as objects: 30,000 varied rows with expected rows, a schema
// and a format (every metric) are scored in a JS heap of 48 MB. The former path ran out of memory
// there with 96 MB of heap (and peaked at 3.7 GB resident at 200,000 rows); this one runs in 16 MB
// (docs/json_output.md has the resident memory measured). Stdin is read as it comes too, and
// read decompressed when it is gzip.
import { match, strictEqual } from "node:assert/strict";
import { makeRng } from "../_corpus.ts";
import { variedRows } from "../structured_jsonl/_rows.ts";

const MAIN = new URL("../../cli/main.ts", import.meta.url).pathname;

Deno.test("assay structured scores 30,000 rows in a 48 MB heap", async () => {
  const dir = await Deno.makeTempDir({ prefix: "assay_structured_memory_" });
  try {
    const rows = variedRows(makeRng(5309), { count: 30_000 });
    await Deno.writeTextFile(`${dir}/o.jsonl`, rows.outputs);
    await Deno.writeTextFile(`${dir}/e.jsonl`, rows.expected);
    await Deno.writeTextFile(
      `${dir}/s.json`,
      '{"type": "object", "required": ["answer"], "properties": {"answer": {"type": "integer"}}}',
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--v8-flags=--max-old-space-size=48",
        MAIN,
        "structured",
        "--outputs",
        `${dir}/o.jsonl`,
        "--expected",
        `${dir}/e.jsonl`,
        "--schema",
        `${dir}/s.json`,
        "--format",
        "Answer: [0-9]+",
        "--out",
        `${dir}/r.json`,
        "--quiet",
      ],
      stdout: "null",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    strictEqual(out.code, 0, stderr.slice(0, 400));
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    strictEqual(report.n, 30_000);
    strictEqual(report.rows.length, 30_000);
    strictEqual(Object.keys(report.metrics).length, 13);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Runs `assay structured ARGS` with `input` on its stdin. */
async function withStdin(args: string[], input: Uint8Array) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "structured", ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const w = child.stdin.getWriter();
  // In parts, as a pipe gives them: the first of one byte.
  for (let at = 0; at < input.length;) {
    const end = at === 0 ? 1 : Math.min(input.length, at + 65_536);
    await w.write(input.subarray(at, end));
    at = end;
  }
  await w.close();
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("assay structured reads --outputs - from stdin as it comes, and names gzip cut short there", async () => {
  const dir = await Deno.makeTempDir({ prefix: "assay_structured_stdin_" });
  try {
    const rows = variedRows(makeRng(6211), { count: 2_000 });
    const outputs = new TextEncoder().encode(rows.outputs);
    await Deno.writeFile(`${dir}/o.jsonl`, outputs);
    await Deno.writeTextFile(`${dir}/e.jsonl`, rows.expected);
    const args = ["--expected", `${dir}/e.jsonl`, "--quiet", "--engine", "ts", "--out"];
    const piped = await withStdin(["--outputs", "-", ...args, `${dir}/p.json`], outputs);
    strictEqual(piped.code, 0, piped.stderr);
    const fromFile = await withStdin(
      ["--outputs", `${dir}/o.jsonl`, ...args, `${dir}/f.json`],
      new Uint8Array(0),
    );
    strictEqual(fromFile.code, 0, fromFile.stderr);
    strictEqual(await Deno.readTextFile(`${dir}/p.json`), await Deno.readTextFile(`${dir}/f.json`));
    const gz = await withStdin(["--outputs", "-"], Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0));
    strictEqual(gz.code, 2);
    match(gz.stderr, /<stdin> is gzip-compressed, and its gzip data is corrupt, cut short/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
