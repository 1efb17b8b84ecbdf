// dist/ is what the package publishes for its library subpaths (build/build_dist.ts): one set of
// bundled chunks, typed by the TypeScript sources. These tests hold it to the sources: it is
// current, it exports what they export, and it holds one copy of each module, so that what one
// subpath makes (an Engine, an InputError) is what another expects.
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import {
  buildDist,
  distEntries,
  filesUnder,
  loadedModules,
  readConfig,
} from "../build/build_dist.ts";

const root = new URL("../", import.meta.url);
const entries = distEntries(await readConfig());
const STALE = "dist/ is missing or stale: run `deno task build:dist`";

Deno.test("dist/ is what build:dist writes from the sources as they are", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "assay_dist_test_" });
  try {
    const fresh = await buildDist(`${tmp}/dist`);
    const present = await filesUnder(new URL("dist", root).pathname).catch((e) => {
      throw new Error(STALE, { cause: e });
    });
    assertEquals([...present.keys()].sort(), [...fresh.keys()].sort(), STALE);
    for (const file of fresh.keys()) {
      const built = await Deno.readFile(`${tmp}/dist/${file}`);
      const there = await Deno.readFile(new URL(`dist/${file}`, root));
      ok(built.length === there.length && built.every((b, i) => b === there[i]), STALE);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

/** Each library subpath's module, as dist/ has it and as its source has it. */
async function loadBoth(): Promise<
  { subpath: string; dist: Record<string, unknown>; source: Record<string, unknown> }[]
> {
  return await Promise.all(entries.map(async (e) => ({
    subpath: e.subpath,
    dist: await import(new URL(e.dist, root).href),
    source: await import(new URL(e.source, root).href),
  })));
}

Deno.test("each dist/ export has its source's names, of the same kinds and values", async () => {
  ok(entries.length >= 12, `deno.json exports ${entries.length} dist/ files`);
  for (const { subpath, dist, source } of await loadBoth()) {
    assertEquals(Object.keys(dist).sort(), Object.keys(source).sort(), subpath);
    for (const [name, value] of Object.entries(source)) {
      assertEquals(typeof dist[name], typeof value, `${subpath}: ${name}`);
      if (typeof value !== "object" && typeof value !== "function") {
        assertEquals(dist[name], value, `${subpath}: ${name}`);
      }
    }
  }
});

Deno.test("dist/ holds one copy of each module: subpaths share a value where their sources do", async () => {
  const modules = await loadBoth();
  let shared = 0;
  for (let i = 0; i < modules.length; i++) {
    for (let j = i + 1; j < modules.length; j++) {
      const a = modules[i]!;
      const b = modules[j]!;
      for (const name of Object.keys(a.source)) {
        if (!(name in b.source)) continue;
        const same = a.source[name] === b.source[name];
        if (same) shared++;
        assertEquals(
          a.dist[name] === b.dist[name],
          same,
          `${name}, exported by ${a.subpath} and ${b.subpath}`,
        );
      }
    }
  }
  // The root re-exports each core room's names, so most of them are shared with a subpath.
  ok(shared > 100, `only ${shared} names are shared`);
});

Deno.test("an engine made by the root's dist/ scores through ./evaluation's", async () => {
  const load = (subpath: string) =>
    import(new URL(entries.find((e) => e.subpath === subpath)!.dist, root).href);
  const [rootModule, evaluation] = await Promise.all([load("."), load("./evaluation")]);
  const encode = (lines: unknown[]) =>
    new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  for (const name of ["ts", "wasm"]) {
    const engine = rootModule.createEngine({ engine: name });
    const { report } = await evaluation.scoreJsonl({
      examples: encode([{ example_id: "1", language: "en", target: { name: "f", arguments: {} } }]),
      generations: encode([
        {
          example_id: "1",
          prompt_sha256: "0".repeat(64),
          output: '{"name": "f", "arguments": {}}',
        },
      ]),
    }, { engine });
    assertEquals(report.engine, name);
    assertEquals(report.metrics.overall.argument_exact_match.value, 1);
  }
  // An engine of another copy of the package (the sources, beside dist/) is named as such: it was
  // "Expected an Engine from createEngine(), got object", to one who had called createEngine().
  const { engineOf } = await import("../src/engine/mod.ts");
  throws(
    () => engineOf(rootModule.createEngine({ engine: "ts" })),
    /^TypeError: Expected an Engine from createEngine\(\), got one from another copy of @assay\/assay/,
  );
  throws(() => engineOf({}), /^TypeError: Expected an Engine from createEngine\(\), got object$/);
});

Deno.test("the published CLI (dist/cli/main.js) writes the source CLI's report bytes, output and exit codes", async () => {
  const cli = entries.find((e) => e.subpath === "./cli");
  ok(cli, "deno.json exports no ./cli in dist/");
  const { writeScoreCorpus } = await import("./evaluation/_score_corpus.ts");
  const tmp = await Deno.makeTempDir({ prefix: "assay_dist_cli_" });
  try {
    const files = await writeScoreCorpus(tmp, { seed: 71, count: 40, lineNoise: true });
    const run = async (entry: string, args: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-read", "--allow-write", new URL(entry, root).pathname, ...args],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = (b: Uint8Array) => new TextDecoder().decode(b).replaceAll(tmp, "TMP");
      return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
    };
    const inputs = {
      examples: files.examples,
      generations: files.generations,
      prompts: files.prompts!,
    };
    const score = (
      out: string,
    ) => [
      "score",
      ...Object.entries(inputs).flatMap(([k, v]) => [`--${k}`, v]),
      "--out",
      `${tmp}/${out}`,
    ];
    const cases: [string, (side: string) => string[]][] = [
      ["score", (side) => score(`${side}.json`)],
      ["score --engine ts", (side) => [...score(`${side}_ts.json`), "--engine", "ts"]],
      ["a misspelled flag", () => ["score", "--exmaples", "x"]],
      ["a missing file", (side) => ["score", "--examples", `${tmp}/none`, "--out", `${side}.x`]],
      ["--help", () => ["--help"]],
    ];
    for (const [what, args] of cases) {
      const published = await run(cli.dist, args("dist"));
      const source = await run(cli.source, args("src"));
      assertEquals(
        { ...published, stdout: published.stdout.replaceAll("dist", "SIDE") },
        { ...source, stdout: source.stdout.replaceAll("src", "SIDE") },
        what,
      );
    }
    for (const name of ["", "_ts"]) {
      const dist = await Deno.readFile(`${tmp}/dist${name}.json`);
      const src = await Deno.readFile(`${tmp}/src${name}.json`);
      ok(dist.length > 1000 && dist.length === src.length && dist.every((b, i) => b === src[i]));
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("the root as published loads only its own files: no node: module, no npm package", async () => {
  const entry = new URL(entries.find((e) => e.subpath === ".")!.dist, root).href;
  // The code graph: the TypeScript an entry names for its types is not loaded when it runs.
  const seen = [...(await loadedModules(entry)).keys()];
  ok(seen.includes(entry), `${entry} is not in its own graph`);
  assertEquals(seen.filter((s) => !s.startsWith("file:")), []);
  ok(seen.length >= 2 && seen.length <= 20, `${seen.length} files`);
});

Deno.test("the package publishes what its README links to, its NOTICE, and Arm's notice in dist/", async () => {
  // The README is the package's page on JSR: its links to docs/ were dead there.
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const include: string[] = config.publish.include;
  const published = (path: string) =>
    include.some((p) => p.endsWith("/") ? path.startsWith(p) : path === p);
  const readme = await Deno.readTextFile(new URL("README.md", root));
  const links = [...readme.matchAll(/\]\(([^)#:]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
  ok(links.length > 10, `${links.length} links`);
  assertEquals(links.filter((l) => !published(l)), []);
  for (const file of ["NOTICE", "LICENSE", "src/ifeval/NOTICE"]) ok(published(file), file);
  // The bundler drops // comments: the MIT notice of Arm's pow travels as a legal comment.
  const pow = [...(await filesUnder(new URL("dist", root).pathname)).keys()].filter((f) =>
    Deno.readTextFileSync(new URL(`dist/${f}`, root)).includes("POW_LOG_TABLE")
  );
  ok(pow.length > 0, "no dist file holds the pow tables");
  for (const f of pow) {
    ok(
      Deno.readTextFileSync(new URL(`dist/${f}`, root)).includes(
        "Copyright (c) 2018-2022, Arm Limited",
      ),
      f,
    );
  }
});
