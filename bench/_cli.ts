// How the benches start the Assay CLI: as `deno task assay` does, with that task's flags from
// deno.json (its permissions and its V8 flags), so that they time what users run.

const ROOT = new URL("../", import.meta.url);

/** The arguments after `deno` that run cli/main.ts as `deno task assay` does. */
export async function assayRun(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const task = String(config.tasks?.assay ?? "");
  const words = task.split(/\s+/).filter((w) => w !== "");
  if (words[0] !== "deno" || words[1] !== "run" || words.at(-1) !== "cli/main.ts") {
    throw new Error(`Unexpected assay task in deno.json: ${task}`);
  }
  return ["run", ...words.slice(2, -1), decodeURIComponent(new URL("cli/main.ts", ROOT).pathname)];
}
