// The bundle step of build/cross_runtime.ts: `deno bundle` of the root and of `./suite`, the
// modules each bundle imports (read by `deno info`, which parses the code, so the
// `node:assert/strict` of the JSDoc examples does not count), their sizes and what makes them
// big. The workerd step stages these bundles.
import { bundle, CrossRuntimeError, exec } from "./_runs.ts";

/**
 * The root bundle's budget (`deno bundle mod.ts`, unminified, docs kept): 350 KB, counted as
 * 350,000 bytes. What an edge function imports from the root stays small; the run prints what
 * makes it big.
 */
export const ROOT_BUNDLE_BUDGET = 350_000;

/**
 * Where the README's figures for the root bundle ("`deno bundle mod.ts` is about N KB", "its
 * inlined Wasm (M KB of base85)") are off by more than 2 KB from the measured ones.
 */
export function readmeBundleProblems(readme: string, root: BundleInfo): string[] {
  const problems: string[] = [];
  const text = readme.replace(/\s+/g, " ");
  const total = /`deno bundle mod\.ts` is about (\d+) KB/.exec(text);
  const base85 = /inlined Wasm \((\d+) KB of base85\)/.exec(text);
  const wasm = root.parts.find(([part]) => part.endsWith("the inlined Wasm (base85)"))?.[1] ?? 0;
  for (
    const [m, what, bytes] of [[total, "the root bundle", root.bytes], [
      base85,
      "its base85",
      wasm,
    ]] as const
  ) {
    if (!m) problems.push(`The README does not state the size of ${what}`);
    else if (Math.abs(Number(m[1]) * 1000 - bytes) > 2000) {
      problems.push(`The README says ${what} is about ${m[1]} KB; it is ${bytes} bytes`);
    }
  }
  return problems;
}

/** What one bundle holds. */
export interface BundleInfo {
  /** The entry, e.g. `mod.ts`. */
  entry: string;
  /** `deno` (deno bundle's default) or `browser`. */
  platform: "deno" | "browser";
  /** The bundle file. */
  file: string;
  /** Its size in bytes. */
  bytes: number;
  /** The modules it imports (static or dynamic), such as `node:module`. */
  imports: string[];
  /** Bytes per part (a room of `src/`, an npm package, the inlined Wasm), largest first. */
  parts: [string, number][];
  /** Bytes of JSDoc blocks in it. */
  jsdoc: number;
  /** The `node:` modules each part requires at run time (`__require("node:…")`), by part. */
  nodeRequires: Map<string, string[]>;
}

const decoder = new TextDecoder();

/** The modules a JavaScript file imports, as `deno info` parses them. */
async function importsOf(file: string): Promise<string[]> {
  const out = await exec("deno info", Deno.execPath(), ["info", "--json", file], 60_000);
  const graph = JSON.parse(out) as {
    modules: { specifier: string; dependencies?: { specifier: string }[] }[];
  };
  const url = new URL(`file://${file}`).href;
  const self = graph.modules.find((m) => m.specifier === url);
  if (!self) throw new CrossRuntimeError(`deno info ${file}: the bundle is not in its own graph`);
  return (self.dependencies ?? []).map((d) => d.specifier).sort();
}

/** Where a bundled module's marker comment (`// src/engine/span.ts`) puts its code. */
function partOf(path: string): string {
  const npm = /registry\.npmjs\.org\/(@[^/]+\/[^/]+|[^/]+)\//.exec(path);
  if (npm) return `npm:${npm[1]}`;
  if (path.endsWith("wasm_bytes.generated.ts")) return "src/engine: the inlined Wasm (base85)";
  if (path.endsWith("html_report.ts")) return "src/report: html_report.ts";
  const room = /^(src\/[^/]+)\//.exec(path);
  return room ? room[1]! : path;
}

/**
 * Bytes per part, from the marker comments `deno bundle` writes before each module, and the
 * `node:` modules each part requires.
 */
function parts(text: string): { parts: [string, number][]; nodeRequires: Map<string, string[]> } {
  const sizes = new Map<string, number>();
  const nodeRequires = new Map<string, string[]>();
  const markers = [...text.matchAll(/^\/\/ (\S+\.[cm]?[jt]s)$/gm)];
  const add = (name: string, from: number, to: number) => {
    sizes.set(name, (sizes.get(name) ?? 0) + to - from);
    for (const m of text.slice(from, to).matchAll(/__require\("(node:[^"]+)"\)/g)) {
      const list = nodeRequires.get(name) ?? [];
      if (!list.includes(m[1]!)) list.push(m[1]!);
      nodeRequires.set(name, list);
    }
  };
  let name = "(prelude)";
  let at = 0;
  for (const m of markers) {
    add(name, at, m.index);
    name = partOf(m[1]!);
    at = m.index;
  }
  add(name, at, text.length);
  return { parts: [...sizes].sort((a, b) => b[1] - a[1]), nodeRequires };
}

/**
 * Bundles `entry` for `platform` into `dir` and reads what the bundle holds.
 *
 * @param entry The entry, relative to the repository.
 * @param dir Where the bundle goes.
 * @param platform `deno` (deno bundle's default) or `browser`.
 * @returns The bundle's file, size, imports and parts.
 * @throws {CrossRuntimeError} When `deno bundle` or `deno info` fails.
 */
export async function bundleInfo(
  entry: string,
  dir: string,
  platform: "deno" | "browser",
): Promise<BundleInfo> {
  const file = `${dir}/${entry.replaceAll("/", "_").replace(/\.ts$/, "")}.${platform}.js`;
  await bundle(entry, file, platform);
  const bytes = await Deno.readFile(file);
  const text = decoder.decode(bytes);
  let jsdoc = 0;
  for (const m of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) jsdoc += m[0].length;
  return {
    entry,
    platform,
    file,
    bytes: bytes.length,
    imports: await importsOf(file),
    ...parts(text),
    jsdoc,
  };
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;

/** Two lines about a bundle: its size and imports, then its largest parts. */
export function describeBundle(b: BundleInfo, top = 8): string {
  const imports = b.imports.length === 0 ? "imports nothing" : `imports ${b.imports.join(", ")}`;
  const rest = b.parts.slice(top).reduce((n, [, bytes]) => n + bytes, 0);
  const shown = b.parts.slice(0, top).map(([name, bytes]) => `${name} ${kb(bytes)}`);
  if (rest > 0) shown.push(`the rest ${kb(rest)}`);
  return `${`${b.entry} (deno bundle, ${b.platform})`.padEnd(28)} ${b.bytes} bytes ` +
    `(${(b.bytes / 1024).toFixed(1)} KiB), ${imports}\n` +
    `${"".padEnd(28)} ${shown.join(", ")}; JSDoc ${kb(b.jsdoc)} of it`;
}
