// Keeps mod.ts in step with src/: every public module (a src/*.ts file not starting with `_`,
// and not generated) must be re-exported from mod.ts.
const mod = await Deno.readTextFile(new URL("../mod.ts", import.meta.url));
const missing: string[] = [];
for await (const entry of Deno.readDir(new URL("../src/", import.meta.url))) {
  const name = entry.name;
  if (!entry.isFile || !name.endsWith(".ts") || name.startsWith("_")) continue;
  if (name.endsWith(".generated.ts")) continue;
  if (!mod.includes(`"./src/${name}"`)) missing.push(`src/${name}`);
}
if (missing.length > 0) {
  console.error(`mod.ts does not re-export: ${missing.sort().join(", ")}`);
  Deno.exit(1);
}
console.log("mod.ts re-exports every public module in src/");
