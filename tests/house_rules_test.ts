// House rules that the type checker cannot see.
import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";

const root = new URL("../", import.meta.url);

async function* tsFiles(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(new URL(dir, root))) {
    const path = `${dir}${e.name}`;
    if (e.isDirectory && e.name !== "node_modules") yield* tsFiles(`${path}/`);
    else if (e.isFile && e.name.endsWith(".ts")) yield path;
  }
}

async function offenders(dirs: string[], bad: RegExp): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    for await (const path of tsFiles(dir)) {
      const lines = (await Deno.readTextFile(new URL(path, root))).split("\n");
      lines.forEach((line, i) => {
        if (bad.test(line) && !/^\s*(\/\/|\*)/.test(line)) found.push(`${path}:${i + 1}`);
      });
    }
  }
  return found;
}

Deno.test("library code under src/ uses no node:* imports and no Deno.* APIs", async () => {
  assertEquals(await offenders(["src/"], /from\s+["']node:|\bDeno\./), []);
});

Deno.test("the repository's own code imports the sources, not @assay/assay (which is dist/)", async () => {
  // `@assay/assay` resolves to dist/ (deno.json's exports): a test importing it beside a source
  // module would hold two copies of one class. dist/ has its own test (tests/dist_test.ts).
  const bad =
    /^\s*(?:import\b.*|export\b.*|\}\s*)from\s*["']@assay\/assay|\bimport\(\s*["']@assay\/assay/;
  assertEquals(await offenders(["src/", "cli/", "build/", "tests/", "bench/"], bad), []);
});

Deno.test("tests import only the strict asserts (Deno's named deepEqual/equal are loose)", async () => {
  // In Deno 2.9 the named deepEqual and equal exports of node:assert/strict are the loose
  // ones: deepEqual([1], ["1"]) passes. deepStrictEqual and strictEqual are strict.
  const found: string[] = [];
  for (const dir of ["src/", "tests/", "bench/", "build/", "cli/"]) {
    for await (const path of tsFiles(dir)) {
      const text = await Deno.readTextFile(new URL(path, root));
      for (const m of text.matchAll(/import\s*\{[^}]*\}\s*from\s*["']node:assert[^"']*["']/g)) {
        const names = m[0].slice(m[0].indexOf("{") + 1, m[0].indexOf("}")).split(",");
        for (const n of names) {
          const imported = n.trim().split(/\s+as\s+/)[0];
          if (imported && ["deepEqual", "equal", "notDeepEqual", "notEqual"].includes(imported)) {
            found.push(`${path}: ${imported}`);
          }
        }
      }
    }
  }
  assertEquals(found, []);
});

Deno.test("reports written into the repository do not fail deno fmt --check or deno lint", async () => {
  // `deno task assay score ... --out report.json` at the repository's root, or the demo's
  // demo-out/, puts unformatted JSON and HTML beside the sources: fmt and lint must not see it.
  const id = crypto.randomUUID().slice(0, 8);
  const file = new URL(`report-probe-${id}.json`, root);
  const folder = new URL(`report-probe-${id}/`, root);
  const odd = '{"schema":"assay.evaluation.v1",  "records" :[ {"a":1},\n{"b" :2}]}';
  try {
    await Deno.writeTextFile(file, odd);
    await Deno.mkdir(folder);
    await Deno.writeTextFile(new URL("comparison.json", folder), odd);
    await Deno.writeTextFile(new URL("comparison.html", folder), "<html><body><p>x</p></body>");
    await Deno.writeTextFile(new URL("stray.js", folder), "var unused = 1\n");
    const run = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args,
        cwd: root,
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).output();
    // The probe itself is unformatted: fmt without the repository's config refuses it.
    strictEqual((await run(["fmt", "--no-config", "--check", file.pathname])).code, 1);
    for (const args of [["fmt", "--check"], ["lint"]]) {
      const out = await run(args);
      strictEqual(out.code, 0, `deno ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    }
  } finally {
    await Deno.remove(file).catch(() => {});
    await Deno.remove(folder, { recursive: true }).catch(() => {});
  }
});

Deno.test("the demo's output folder is ignored by git", async () => {
  const ignored = (await Deno.readTextFile(new URL(".gitignore", root))).split("\n");
  strictEqual(ignored.includes("demo-out/"), true);
});

/** The repository's files: tracked and new ones, without what git ignores. */
async function repositoryFiles(): Promise<string[]> {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!out.success) throw new Error("git ls-files failed");
  return new TextDecoder().decode(out.stdout).split("\0").filter((p) => p !== "");
}

Deno.test("no file cites documents outside the repository", async () => {
  // Built from parts, so that this file does not cite them itself.
  const outside = [
    ["..", "shared", ""].join("/"),
    ["shared", "reference"].join("/"),
    ["CONTRACT", "md"].join("."),
    ...["toolcall_scoring", "structured_output", "suite"].map((name) => `${name}_metrics.md`),
  ];
  const found: string[] = [];
  for (const path of await repositoryFiles()) {
    let text: string;
    try {
      text = await Deno.readTextFile(new URL(path, root));
    } catch {
      continue; // deleted in the work tree, or not a file
    }
    text.split("\n").forEach((line, i) => {
      for (const name of outside) if (line.includes(name)) found.push(`${path}:${i + 1}: ${name}`);
    });
  }
  assertEquals(found, []);
});

Deno.test("the README states the Wasm module's measured sizes", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", root));
  const m = /`build\/assay\.wasm`, is about (\d+) KB \((\d+) KB gzipped\)/.exec(readme);
  ok(m, "the README states the module's size and gzipped size");
  const bytes = await Deno.readFile(new URL("build/assay.wasm", root));
  const gzipped = await new Response(
    new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip")),
  ).arrayBuffer();
  // Rounded to whole kilobytes (1,000 bytes), as the README writes them.
  strictEqual(Number(m[1]), Math.round(bytes.length / 1000), `${bytes.length} bytes`);
  strictEqual(Number(m[2]), Math.round(gzipped.byteLength / 1000), `${gzipped.byteLength} gzipped`);
});

Deno.test("the README's JSON Schema suite figure is the one docs/json_schema.md states", async () => {
  // docs/json_schema.md's figure is checked against the suite by json_schema_suite_test.ts.
  const readme = await Deno.readTextFile(new URL("README.md", root));
  const doc = await Deno.readTextFile(new URL("docs/json_schema.md", root));
  const documented = /\*\*Required files: (\d+\/\d+) passed\*\*/.exec(doc)?.[1];
  ok(documented, "docs/json_schema.md states the required figure");
  ok(readme.includes(`${documented} required tests`), `the README states ${documented}`);
});

Deno.test("the root mod.ts reaches no npm package and no node: module (deno info)", async () => {
  // The edge-safe core: yaml, jsonc-parser and node-sql-parser stay behind ./suite.
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "mod.ts"],
    cwd: new URL(".", root).pathname,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assertEquals(out.success, true);
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string }[];
  };
  const outside = graph.modules.map((m) => m.specifier).filter((s) => !s.startsWith("file:"));
  assertEquals(outside, []);
  assertEquals(graph.modules.some((m) => m.specifier.endsWith("/src/engine/mod.ts")), true);
  // Each module costs the root's import about 0.1 ms, and pytext's tables about 4 ms: the rooms
  // behind their own subpaths, and pytext, which only they use, stay out of the root's graph.
  const rooms = new Set(graph.modules.map((m) => /\/src\/([^/]+)\//.exec(m.specifier)?.[1]));
  const behind = [
    "pytext",
    "bfcl",
    "ifeval",
    "explain",
    "formats",
    "report_check",
    "structured_jsonl",
  ];
  for (const room of behind) {
    assertEquals(rooms.has(room), false, `the root loads src/${room}/`);
  }
});

Deno.test("README.md links the assay.wasm of deno.json's version", async () => {
  const { version } = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const readme = await Deno.readTextFile(new URL("README.md", root));
  const urls = [
    ...readme.matchAll(/https:\/\/jsr\.io\/@assay\/assay\/([^/\s]+)\/build\/assay\.wasm/g),
  ];
  assertEquals(urls.length > 0, true);
  for (const m of urls) assertEquals(m[1], version);
});

Deno.test("no file under src/ is over 400 lines, generated ones aside", async () => {
  const long: string[] = [];
  for await (const path of tsFiles("src/")) {
    if (path.endsWith(".generated.ts")) continue;
    const lines = (await Deno.readTextFile(new URL(path, root))).split("\n").length - 1;
    if (lines > 400) long.push(`${path} (${lines})`);
  }
  assertEquals(long, []);
});

/** The relative import specifiers of a TypeScript file (static imports, re-exports, import()). */
function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g)) {
    out.push(m[1]!);
  }
  return out;
}

Deno.test("private files are imported only from their own folder, and cli/ imports only mod.ts files", async () => {
  const found: string[] = [];
  for (const dir of ["src/", "cli/"]) {
    for await (const path of tsFiles(dir)) {
      const text = await Deno.readTextFile(new URL(path, root));
      const folder = path.slice(0, path.lastIndexOf("/") + 1);
      for (const spec of importsOf(text)) {
        const target = new URL(spec, new URL(path, root)).pathname.slice(root.pathname.length);
        const targetFolder = target.slice(0, target.lastIndexOf("/") + 1);
        const name = target.slice(targetFolder.length);
        if (!target.startsWith("src/")) continue;
        if (dir === "cli/" && name !== "mod.ts") found.push(`${path} imports ${target}`);
        // A private file, or a subfolder's file other than its mod.ts, from another folder.
        const privateFile = name.startsWith("_") && targetFolder !== folder;
        const intoSubfolder = targetFolder !== folder && targetFolder.startsWith(folder) &&
          name !== "mod.ts";
        const crossRoom = dir === "src/" && targetFolder !== folder &&
          !targetFolder.startsWith(folder) && !folder.startsWith(targetFolder) && name !== "mod.ts";
        if (dir === "src/" && (privateFile || intoSubfolder || crossRoom)) {
          found.push(`${path} imports ${target}`);
        }
      }
    }
  }
  assertEquals(found, []);
});

Deno.test("tests mirror the rooms: every folder under src/ has its folder under tests/", async () => {
  const missing: string[] = [];
  for await (const entry of Deno.readDir(new URL("src/", root))) {
    if (!entry.isDirectory) continue;
    const tests = await Deno.stat(new URL(`tests/${entry.name}/`, root)).then(
      (s) => s.isDirectory,
      () => false,
    );
    if (!tests) missing.push(`src/${entry.name}/`);
  }
  assertEquals(missing, []);
});

Deno.test("outside the root's rooms, every checkOptions(options) checks the names too, or says why not", async () => {
  // A misspelt option ran as absent (src/jsonl/options/): the rooms whose bundle is not the
  // root's check names at run time. The root's rooms (mod.ts re-exports them) cannot afford it.
  const rootText = await Deno.readTextFile(new URL("mod.ts", root));
  const rootRooms = new Set(
    [...rootText.matchAll(/"\.\/src\/([^/]+)\/mod\.ts"/g)].map((m) => m[1]),
  );
  const missing: string[] = [];
  let checked = 0;
  for await (const path of tsFiles("src/")) {
    if (rootRooms.has(path.split("/")[1])) continue;
    const lines = (await Deno.readTextFile(new URL(path, root))).split("\n");
    lines.forEach((line, i) => {
      if (!/^\s*checkOptions\(options\);/.test(line)) return;
      const near = lines.slice(Math.max(0, i - 3), i + 3).join("\n");
      const says = /checkOptionNames\(|names are not checked|names are checked (here|by)/;
      if (says.test(near)) checked++;
      else missing.push(`${path}:${i + 1}`);
    });
  }
  assertEquals(missing, []);
  ok(checked >= 25, `${checked} calls`);
});
