// House rules that the type checker cannot see.
import { deepStrictEqual as assertEquals } from "node:assert/strict";

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
