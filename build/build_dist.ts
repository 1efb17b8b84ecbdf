// Builds dist/, the JavaScript the package publishes for its subpaths and its CLI:
//
//   deno task build:dist     writes dist/ (git-ignored; the gate builds it first, and
//                            `deno task release` builds it before `deno publish`)
//
// Every export of deno.json points to dist/<its source>.js. `deno bundle --code-splitting`
// builds them together, so each module of src/ is in exactly one file: the root and `./suite`
// share one Engine class and one InputError, as the TypeScript modules do. npm packages stay
// imports. Each entry starts with `@ts-self-types`, naming its TypeScript source, so types and
// docs come from src/ and only the run-time code is bundled.
//
// Why: Deno's module loader costs about 0.1–0.2 ms per TypeScript module on every import (it
// hashes each source and reads its cached transpile). The root's graph has 121 modules; as
// bundled chunks it is 11 files (docs/architecture.md, "What is published").
import { exec } from "./_runs.ts";

const ROOT = new URL("../", import.meta.url);
const path = (rel: string) => decodeURIComponent(new URL(rel, ROOT).pathname);

interface Config {
  exports: Record<string, string>;
  imports: Record<string, string>;
}

/** A published subpath: its dist file and the TypeScript module it is built from. */
export interface DistEntry {
  subpath: string;
  /** `./dist/src/engine/mod.js`. */
  dist: string;
  /** `./src/engine/mod.ts`. */
  source: string;
}

/**
 * The module an export is built from: `./src/engine/mod.ts` for `./dist/src/engine/mod.js`, and
 * the export itself when it is not in dist/ (`./cli/main.ts`).
 */
export function sourceOf(target: string): string {
  return target.replace(/^\.\/dist\/(.+)\.js$/, "./$1.ts");
}

/** deno.json's exports and imports. */
export async function readConfig(): Promise<Config> {
  return JSON.parse(await Deno.readTextFile(path("deno.json"))) as Config;
}

/** The exports of deno.json that are dist/ files, with the sources they are built from. */
export function distEntries(config: Pick<Config, "exports">): DistEntry[] {
  return Object.entries(config.exports)
    .filter(([, target]) => target.startsWith("./dist/"))
    .map(([subpath, dist]) => ({ subpath, dist, source: sourceOf(dist) }));
}

/** The bare specifiers deno.json maps to npm packages: they stay imports in dist/. */
function npmSpecifiers(config: Config): string[] {
  return Object.entries(config.imports)
    .filter(([, target]) => target.startsWith("npm:"))
    .map(([name]) => name);
}

/** The `@ts-self-types` path from a dist file to its source, e.g. `../../../src/engine/mod.ts`. */
function selfTypes(entry: DistEntry): string {
  const depth = entry.dist.slice(2).split("/").length - 1;
  return "../".repeat(depth) + entry.source.slice(2);
}

/**
 * Builds every ./dist/ export of deno.json into `outDir`, which must not exist.
 *
 * @param outDir The folder to write, e.g. `dist` in the repository.
 * @returns The files written, relative to `outDir`, with their sizes.
 */
export async function buildDist(outDir: string): Promise<Map<string, number>> {
  const config = await readConfig();
  const entries = distEntries(config);
  if (entries.length === 0) throw new Error("deno.json exports no ./dist/ file");
  await exec(
    "deno bundle (dist)",
    Deno.execPath(),
    [
      "bundle",
      "--quiet",
      "--platform",
      "browser",
      "--format",
      "esm",
      "--code-splitting",
      "--packages",
      "external",
      ...npmSpecifiers(config).flatMap((name) => ["--external", name]),
      "--outdir",
      outDir,
      ...entries.map((e) => path(e.source)),
    ],
    300_000,
  );
  for (const entry of entries) {
    const file = `${outDir}/${entry.dist.slice("./dist/".length)}`;
    const code = await Deno.readTextFile(file).catch(() => {
      throw new Error(`deno bundle wrote no ${file} for ${entry.source}`);
    });
    await Deno.writeTextFile(
      file,
      `// @ts-self-types="${selfTypes(entry)}"\n` +
        `// Built from ${entry.source.slice(2)} by \`deno task build:dist\`: do not edit.\n` + code,
    );
  }
  return await filesUnder(outDir);
}

/**
 * The files under a folder, by their paths relative to it, with their sizes.
 *
 * @param root The folder.
 * @returns Each file's relative path (`src/engine/mod.js`) and size.
 */
export async function filesUnder(root: string): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  const walk = async (dir: string): Promise<void> => {
    for await (const e of Deno.readDir(`${root}/${dir}`)) {
      if (e.isDirectory) await walk(`${dir}${e.name}/`);
      else files.set(`${dir}${e.name}`, (await Deno.stat(`${root}/${dir}${e.name}`)).size);
    }
  };
  await walk("");
  return files;
}

/**
 * The modules a run of `entry` loads, with their sizes: `deno info`'s graph from it through code
 * imports only, without the TypeScript a dist/ file names for its types.
 *
 * @param entry A module's path or URL.
 * @returns Each module's specifier and its size in bytes (0 for a `node:` module).
 */
export async function loadedModules(entry: string): Promise<Map<string, number>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno info ${entry}: ${new TextDecoder().decode(out.stderr)}`);
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: {
      specifier: string;
      size?: number;
      dependencies?: { code?: { specifier?: string } }[];
    }[];
  };
  const bySpecifier = new Map(graph.modules.map((m) => [m.specifier, m]));
  const loaded = new Map<string, number>();
  const stack = [graph.roots[0]!];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (loaded.has(at)) continue;
    const m = bySpecifier.get(at);
    loaded.set(at, m?.size ?? 0);
    for (const d of m?.dependencies ?? []) if (d.code?.specifier) stack.push(d.code.specifier);
  }
  return loaded;
}

/**
 * An import map that sends the repository's own imports of each built source to its dist/ file
 * (with deno.json's own imports), so that code written against the sources runs on dist/: the
 * cross-runtime run gives it to Deno, and to `deno bundle` for Node.
 *
 * @returns The import map, as `--import-map` reads it.
 */
export async function distImportMap(): Promise<{ imports: Record<string, string> }> {
  const config = await readConfig();
  const imports = { ...config.imports };
  for (const e of distEntries(config)) {
    imports[new URL(e.source, ROOT).href] = new URL(e.dist, ROOT).href;
  }
  return { imports };
}

/**
 * Builds dist/ in the repository: into `.tmp/dist`, then in place of the old one.
 *
 * @returns The files written, relative to dist/, with their sizes.
 */
export async function writeDist(): Promise<Map<string, number>> {
  const staging = path(".tmp/dist");
  await Deno.remove(staging, { recursive: true }).catch(() => {});
  await Deno.mkdir(path(".tmp"), { recursive: true });
  const files = await buildDist(staging);
  await Deno.remove(path("dist"), { recursive: true }).catch(() => {});
  await Deno.rename(staging, path("dist"));
  return files;
}

if (import.meta.main) {
  const files = await writeDist();
  const bytes = [...files.values()].reduce((a, b) => a + b, 0);
  console.log(`dist/: ${files.size} files, ${bytes} bytes`);
}
