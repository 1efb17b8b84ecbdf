// Gzip-compressed inputs: every command reads them decompressed (BFCL's files ship as .json.gz,
// harnesses write .jsonl.gz), with the same report as the plain files, digests included; gzip
// data that is corrupt, cut short or followed by other bytes is exit 2 naming the file.
import { match, ok, strictEqual } from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { runCli, runMain } from "./_main.ts";
import { gunzipText } from "../bfcl/_fixtures.ts";
import { decompressed, decompressWhole } from "../../cli/_io.ts";
import { InputError } from "../../mod.ts";

const DEMO = new URL("../../samples/demo/", import.meta.url).pathname;
const SUITE = new URL("../../samples/suite_demo/", import.meta.url).pathname;
const BFCL = new URL("../fixtures/bfcl-v1/", import.meta.url).pathname;

/** `text` gzip-compressed as `members` members (cut at even shares), as `cat a.gz b.gz` makes. */
async function gzip(text: string | Uint8Array, members = 1): Promise<Uint8Array> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < members; i++) {
    const from = Math.floor((bytes.length * i) / members);
    const to = Math.floor((bytes.length * (i + 1)) / members);
    parts.push(new Uint8Array(gzipSync(bytes.subarray(from, to))));
  }
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

/** Runs `assay <args>` as its own process with `stdin` piped in. */
async function withStdin(args: string[], stdin: Uint8Array) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../cli/main.ts", import.meta.url).pathname, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", GITHUB_STEP_SUMMARY: "" },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(stdin);
  await writer.close();
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function withDir(f: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "assay_gzip_" });
  try {
    await f(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Writes each file plain and gzip-compressed (in 3 members) into dir: name -> [plain, gz]. */
async function bothWays(
  dir: string,
  files: Record<string, string>,
): Promise<Record<string, [string, string]>> {
  const out: Record<string, [string, string]> = {};
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    await Deno.writeFile(`${dir}/${name}.gz`, await gzip(text, 3));
    out[name] = [`${dir}/${name}`, `${dir}/${name}.gz`];
  }
  return out;
}

Deno.test("assay score reads gzip inputs, in several members, to the same report as the plain files", async () => {
  await withDir(async (dir) => {
    const f = await bothWays(dir, {
      e: await Deno.readTextFile(`${DEMO}examples.jsonl`),
      g: await Deno.readTextFile(`${DEMO}generations.base.jsonl`),
      p: await Deno.readTextFile(`${DEMO}prompts.jsonl`),
    });
    for (const engine of ["wasm", "ts"]) {
      const reports: string[] = [];
      for (const k of [0, 1] as const) {
        const out = `${dir}/r${k}${engine}.json`;
        const r = await runMain([
          "score",
          ...["--examples", f.e![k], "--generations", f.g![k], "--prompts", f.p![k]],
          ...["--engine", engine, "--quiet", "--out", out],
        ]);
        strictEqual(r.code, 0, r.stderr);
        // The inputs are named as given, so the names are made the same before comparing.
        reports.push((await Deno.readTextFile(out)).replaceAll(".gz", ""));
      }
      strictEqual(reports[1], reports[0], engine);
    }
  });
});

Deno.test("assay score reads a gzip stdin", async () => {
  await withDir(async (dir) => {
    const examples = await Deno.readTextFile(`${DEMO}examples.jsonl`);
    await Deno.writeTextFile(`${dir}/e.jsonl`, examples);
    const args = (e: string, out: string) => [
      "score",
      ...["--examples", e, "--generations", `${DEMO}generations.base.jsonl`, "--quiet"],
      ...["--out", out],
    ];
    const plain = await runMain(args(`${dir}/e.jsonl`, `${dir}/plain.json`));
    strictEqual(plain.code, 0, plain.stderr);
    const piped = await withStdin(args("-", `${dir}/piped.json`), await gzip(examples, 2));
    strictEqual(piped.code, 0, piped.stderr);
    strictEqual(
      (await Deno.readTextFile(`${dir}/piped.json`)).replaceAll('"<stdin>"', "E"),
      (await Deno.readTextFile(`${dir}/plain.json`)).replaceAll(
        JSON.stringify(`${dir}/e.jsonl`),
        "E",
      ),
    );
  });
});

Deno.test("assay bfcl reads BFCL's .json.gz files as they ship", async () => {
  await withDir(async (dir) => {
    const names = {
      questions: "data/gorilla_openfunctions_v1_test_simple.json.gz",
      answers: "data/possible_answer/gorilla_openfunctions_v1_test_simple.json.gz",
      result: "results/gpt-4o-2024-05-13-FC/simple_result.json.gz",
    };
    const plain: string[] = [];
    const gz: string[] = [];
    for (const [flag, name] of Object.entries(names)) {
      await Deno.writeTextFile(`${dir}/${flag}.json`, await gunzipText(name));
      plain.push(`--${flag}`, `${dir}/${flag}.json`);
      gz.push(`--${flag}`, `${BFCL}${name}`);
    }
    const reports: string[] = [];
    for (const [i, files] of [plain, gz].entries()) {
      const r = await runMain([
        "bfcl",
        ...["--checker", "bfcl.ast@2024-08", "--category", "simple", ...files],
        ...["--out", `${dir}/s${i}.json`, "--report", `${dir}/r${i}.json`],
      ]);
      strictEqual(r.code, 0, r.stderr);
      match(
        await Deno.readTextFile(`${dir}/s${i}.json`),
        /"correct_count": 205, "total_count": 400/,
      );
      // The report names its inputs: the rest, digests included, is the same.
      const report = JSON.parse(await Deno.readTextFile(`${dir}/r${i}.json`));
      reports.push(JSON.stringify(report, (k, v) => (k === "file" || k === "path" ? "-" : v)));
    }
    strictEqual(reports[1], reports[0]);
  });
});

Deno.test("assay structured, ifeval, suite run, compare and show read gzip inputs", async () => {
  await withDir(async (dir) => {
    // structured: outputs read as a stream.
    const s = await bothWays(dir, {
      o: '{"id":"a","output":"{\\"x\\": 1.0}"}\n{"id":"b","output":"no json"}\n',
    });
    const structured: string[] = [];
    for (const k of [0, 1] as const) {
      const r = await runMain(["structured", "--outputs", s.o![k], "--json", "--quiet"]);
      strictEqual(r.code, 0, r.stderr);
      ok(r.stdout.includes('"json_validity"'), r.stdout);
      structured.push(r.stdout.replaceAll(".gz", ""));
    }
    strictEqual(structured[1], structured[0]);

    // ifeval: read whole.
    const ifeval = await bothWays(dir, {
      i: '{"key": 1, "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}], ' +
        '"prompt": "Say hi without commas."}\n',
      r: '{"prompt": "Say hi without commas.", "response": "hi there"}\n',
    });
    const verdicts: string[] = [];
    for (const k of [0, 1] as const) {
      const out = `${dir}/ifeval${k}.json`;
      const r = await runMain(
        ["ifeval", "--input", ifeval.i![k], "--responses", ifeval.r![k]].concat(
          ["--out", out],
        ),
      );
      strictEqual(r.code, 0, r.stderr);
      // The report records both files' SHA-256: those of the decompressed bytes.
      verdicts.push((await Deno.readTextFile(out)).replaceAll(".gz", ""));
    }
    strictEqual(verdicts[1], verdicts[0]);

    // suite run: goldens, traces and catalog, whose digests the run records.
    const suite = await bothWays(dir, {
      goldens: await Deno.readTextFile(`${SUITE}goldens.jsonl`),
      traces: await Deno.readTextFile(`${SUITE}traces.jsonl`),
      catalog: await Deno.readTextFile(`${SUITE}catalog.json`),
    });
    const runs: string[] = [];
    for (const k of [0, 1] as const) {
      const r = await runMain([
        ...["suite", "run", `${SUITE}suite.yaml`, "--no-judge", "--json", "--quiet"],
        ...["--goldens", suite.goldens![k], "--traces", suite.traces![k]],
        ...["--catalog", suite.catalog![k]],
      ]);
      strictEqual(r.code, 0, r.stderr);
      ok(r.stdout.includes('"goldens"'), r.stdout.slice(0, 500));
      runs.push(r.stdout.replaceAll(".gz", ""));
    }
    strictEqual(runs[1], runs[0]);

    // compare and show: reports kept compressed.
    const base = `${dir}/base.json`;
    const adapter = `${dir}/adapter.json`;
    for (const [out, generations] of [[base, "base"], [adapter, "adapter"]]) {
      const r = await runMain([
        "score",
        ...["--examples", `${DEMO}examples.jsonl`, "--prompts", `${DEMO}prompts.jsonl`],
        ...["--generations", `${DEMO}generations.${generations}.jsonl`, "--quiet", "--out", out!],
      ]);
      strictEqual(r.code, 0, r.stderr);
      await Deno.writeFile(`${out}.gz`, await gzip(await Deno.readFile(out!), 2));
    }
    for (
      const args of [
        ["compare", base, adapter, "--json"],
        ["show", base, "--failing"],
      ]
    ) {
      // In their own processes: these print to stdout itself.
      const plain = await runCli(args);
      strictEqual(plain.code, 0, plain.stderr);
      ok(plain.stdout.length > 1000, plain.stdout);
      const gz = await runCli(args.map((a) => (a.endsWith(".json") ? `${a}.gz` : a)));
      strictEqual(gz.code, 0, gz.stderr);
      strictEqual(gz.stdout.replaceAll(".gz", ""), plain.stdout, args[0]);
    }
  });
});

Deno.test("gzip data that is corrupt, cut short or followed by other bytes is exit 2 naming the file", async () => {
  await withDir(async (dir) => {
    const whole = await gzip(await Deno.readTextFile(`${DEMO}examples.jsonl`));
    const cases: [string, Uint8Array][] = [
      ["cut.gz", whole.subarray(0, whole.length - 9)],
      ["trailing.gz", new Uint8Array([...whole, 0x41, 0x42, 0x43, 0x0a])],
      ["flipped.gz", whole.map((b, i) => (i === 40 ? b ^ 0xff : b))],
      ["header.gz", Uint8Array.of(0x1f, 0x8b)],
    ];
    for (const [name, bytes] of cases) {
      const path = `${dir}/${name}`;
      await Deno.writeFile(path, bytes);
      for (
        const [args, flag] of [
          [["score", "--examples", path, "--generations", `${DEMO}generations.base.jsonl`], ""],
          [["structured", "--outputs", path], ""],
          [["parse", path], ""],
          [["ifeval", "--input", path, "--responses", path], " (--input)"],
          [["compare", path, path], ""],
        ] as const
      ) {
        const r = await runMain([...args]);
        strictEqual(r.code, 2, `${name} ${args[0]}: ${r.stderr}`);
        match(
          r.stderr,
          new RegExp(
            `${name}${
              flag.replace(/[()]/g, "\\$&")
            } is gzip-compressed, and its gzip data is corrupt`,
          ),
          `${name} ${args[0]}`,
        );
      }
    }
  });
});

Deno.test("a file compressed twice is decompressed once by the CLI, whose bytes the library reads as they are", async () => {
  // The library reads gzip sources decompressed, but the CLI's sources are marked DECOMPRESSED: a
  // .gz.gz file (in one member or three inside) is refused as before, invalid UTF-8 at line 1,
  // not decompressed a second time by the library.
  await withDir(async (dir) => {
    const examples = await Deno.readTextFile(`${DEMO}examples.jsonl`);
    for (const members of [1, 3]) {
      const path = `${dir}/twice${members}.jsonl.gz.gz`;
      await Deno.writeFile(path, await gzip(await gzip(examples, members)));
      const name = `twice${members}.jsonl.gz.gz`;
      const runs: [string, () => Promise<{ code: number; stderr: string }>][] = [
        ["score", () =>
          runMain([
            ...["score", "--examples", path, "--prompts", `${DEMO}prompts.jsonl`],
            ...["--generations", `${DEMO}generations.base.jsonl`, "--quiet"],
          ])],
        ["score --engine ts", () =>
          runMain([
            ...["score", "--examples", path, "--prompts", `${DEMO}prompts.jsonl`],
            ...["--generations", `${DEMO}generations.base.jsonl`, "--quiet", "--engine", "ts"],
          ])],
        ["structured", () => runMain(["structured", "--outputs", path, "--quiet"])],
      ];
      for (const [what, run] of runs) {
        const r = await run();
        strictEqual(r.code, 2, `${what}: ${r.stderr}`);
        match(r.stderr, new RegExp(`${name}:1: invalid UTF-8 at byte 1 of the line`), what);
      }
      const stdin = await withStdin(
        ["score", "--examples", "-", "--generations", `${DEMO}generations.base.jsonl`],
        await Deno.readFile(path),
      );
      strictEqual(stdin.code, 2, stdin.stderr);
      match(stdin.stderr, /<stdin>:1: invalid UTF-8 at byte 1 of the line/);
    }
  });
});

Deno.test("a gzip input read whole is refused past its limit, named, before memory runs out", async () => {
  // 64 MiB of zeros compress to about 64 KB.
  const bomb = gzipSync(new Uint8Array(64 << 20));
  let error: unknown;
  try {
    await decompressWhole(bomb, "bomb.gz", "--input", 1 << 20, ": a hint");
  } catch (e) {
    error = e;
  }
  if (!(error instanceof InputError)) throw new Error(`expected an InputError, got ${error}`);
  strictEqual(
    error.message,
    "bomb.gz (--input) is gzip-compressed and decompresses to more than 1 MiB, more than this " +
      "command reads into memory at once: a hint",
  );
  const small = new TextEncoder().encode("plain\n");
  strictEqual(await decompressWhole(small, "p.txt"), small);
});

/** What `decompressed` gives for `bytes` cut into chunks at `cuts`, or the error it throws. */
async function gunzipAt(bytes: Uint8Array, cuts: number[]): Promise<string> {
  const chunks = [0, ...cuts].map((from, i) => bytes.subarray(from, [...cuts, bytes.length][i]));
  let text = "";
  try {
    for await (const c of decompressed(ReadableStream.from(chunks), "g.gz")) {
      text += new TextDecoder().decode(c);
    }
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return e.message;
  }
  return text;
}

Deno.test("gzip data followed by a NUL and more is refused, and zero padding is read, as gunzip does, however the bytes come", async () => {
  const a = gzipSync("a\n");
  const b = gzipSync("b\n");
  const zeros = (n: number) => new Uint8Array(n);
  const join = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));
  const refused =
    /^g\.gz is gzip-compressed, and its gzip data is corrupt, cut short or followed by bytes that are not gzip/;
  const cases: [Uint8Array, string | RegExp][] = [
    // gunzip -c: "decompression OK, trailing zero bytes ignored" (with -v only), exit 0.
    [join(a, zeros(1)), "a\n"],
    [join(a, b, zeros(700)), "a\nb\n"],
    // gunzip -c: "decompression OK, trailing garbage ignored", exit 2.
    [join(a, zeros(1), b), refused],
    [join(a, zeros(3), b, zeros(2)), refused],
    [join(a, zeros(2), Uint8Array.of(0x78)), refused],
    [join(a, zeros(1), Uint8Array.of(0x1f, 0x8b)), refused],
  ];
  for (const [bytes, want] of cases) {
    // Whole, then cut in two and three at every place.
    const cuts = [[], ...Array.from({ length: bytes.length - 1 }, (_, i) => [i + 1])];
    for (let i = 1; i < bytes.length - 1; i++) cuts.push([i, i + 1]);
    for (const at of cuts) {
      const got = await gunzipAt(bytes, at);
      if (typeof want === "string") strictEqual(got, want, `${bytes.length} bytes cut at ${at}`);
      else match(got, want, `${bytes.length} bytes cut at ${at}`);
    }
  }
});

Deno.test("assay score refuses a gzip input whose member a NUL and another member follow", async () => {
  await withDir(async (dir) => {
    const line = JSON.stringify({ example_id: "a", prompt_sha256: "0".repeat(64), output: "x" });
    const member = gzipSync(`${line}\n`);
    const examples = `${dir}/e.jsonl`;
    await Deno.writeTextFile(
      examples,
      `${
        JSON.stringify({ example_id: "a", language: "en", target: { name: "f", arguments: {} } })
      }\n`,
    );
    const run = async (tail: Uint8Array) => {
      await Deno.writeFile(`${dir}/g.gz`, new Uint8Array([...member, ...tail]));
      return await runMain([
        "score",
        ...["--examples", examples, "--generations", `${dir}/g.gz`, "--allow-missing", "--quiet"],
        ...["--out", `${dir}/r.json`, "--force"],
      ]);
    };
    const padded = await run(new Uint8Array(512));
    strictEqual(padded.code, 0, padded.stderr);
    const more = await run(new Uint8Array([0, ...gzipSync("more\n")]));
    strictEqual(more.code, 2, more.stderr);
    match(
      more.stderr,
      /g\.gz is gzip-compressed, and its gzip data is corrupt, cut short or followed by bytes that are not gzip/,
    );
  });
});
