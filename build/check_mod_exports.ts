// Keeps every room's mod.ts in step with its folder (docs/architecture.md):
//
// - each public file of a folder under src/ (a .ts file whose name does not start with `_` and is
//   not generated) is re-exported by that folder's mod.ts, and each subfolder has a mod.ts too;
// - the root mod.ts re-exports every room but suite, bfcl, config, gate, formats, explain, ifeval,
//   report_check and structured_jsonl, which stay behind their subpaths;
// - deno.json exports each room's mod.ts.
import { sourceOf } from "./build_dist.ts";

const ROOT = new URL("../", import.meta.url);
const problems: string[] = [];
const read = (path: string) => Deno.readTextFile(new URL(path, ROOT));

async function checkFolder(folder: string): Promise<void> {
  let mod: string;
  try {
    mod = await read(`${folder}/mod.ts`);
  } catch {
    problems.push(`${folder}/ has no mod.ts`);
    return;
  }
  for await (const entry of Deno.readDir(new URL(`${folder}/`, ROOT))) {
    const name = entry.name;
    if (entry.isDirectory) {
      // A subfolder is its parent's business: it has a mod.ts, which the parent may keep private.
      await checkFolder(`${folder}/${name}`);
      continue;
    }
    if (!name.endsWith(".ts") || name.startsWith("_") || name === "mod.ts") continue;
    if (name.endsWith(".generated.ts")) continue;
    if (!mod.includes(`"./${name}"`)) problems.push(`${folder}/mod.ts does not re-export ${name}`);
  }
}

const rootMod = await read("mod.ts");
const exports = (JSON.parse(await read("deno.json")) as { exports: Record<string, string> })
  .exports;
// The TypeScript each export is built from (dist/'s files are built from src/, build/build_dist.ts).
const exported = new Set(Object.values(exports).map(sourceOf));
// The rooms with npm dependencies (suite; config and gate, which read YAML and JSONC) and those the
// root bundle's budget leaves out (bfcl, formats, explain, ifeval, report_check, structured_jsonl)
// have only their own subpaths.
// regex is reached through structured and json_schema; pytext (CPython's text rules) serves bfcl,
// ifeval and explain alone, so that the root does not load its tables. Neither has a subpath.
const NO_SUBPATH = new Set(["regex", "pytext"]);
const OWN_SUBPATH_ONLY = new Set([
  "suite",
  "bfcl",
  "config",
  "gate",
  "formats",
  "explain",
  "ifeval",
  "report_check",
  "structured_jsonl",
]);
for await (const entry of Deno.readDir(new URL("src/", ROOT))) {
  if (!entry.isDirectory) {
    problems.push(`src/${entry.name} is outside every room`);
    continue;
  }
  const room = entry.name;
  await checkFolder(`src/${room}`);
  const inRoot = rootMod.includes(`"./src/${room}/mod.ts"`);
  const ownSubpathOnly = OWN_SUBPATH_ONLY.has(room);
  if (ownSubpathOnly && inRoot) problems.push(`mod.ts must not re-export the ${room} room`);
  if (!ownSubpathOnly && !NO_SUBPATH.has(room) && !inRoot) {
    problems.push(`mod.ts does not re-export src/${room}/mod.ts`);
  }
  if (!NO_SUBPATH.has(room) && !exported.has(`./src/${room}/mod.ts`)) {
    problems.push(`deno.json does not export src/${room}/mod.ts`);
  }
}
if (problems.length > 0) {
  console.error(problems.sort().join("\n"));
  Deno.exit(1);
}
console.log(
  "every mod.ts re-exports its folder's public files; the root re-exports every room but suite, bfcl, config, gate, formats, explain, ifeval, report_check and structured_jsonl",
);
