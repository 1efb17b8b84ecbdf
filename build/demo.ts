// `deno task demo`: the README's main job on the bundled demo. Scores the base model and the
// adapter, compares them with paired-bootstrap intervals, computes language gaps, and writes
// the JSON reports and a self-contained HTML report to demo-out/, or the folder given, in the
// folder `deno task demo` was started from (INIT_CWD), as `deno task assay` reads and writes there.
import { fileURLToPath } from "node:url";
import { main, moveToCaller } from "../cli/main.ts";

const USAGE = `Usage: deno task demo [FOLDER]

Scores the bundled demo's base model and adapter, compares them and computes the adapter's
language gaps: base.json, adapter.json, comparison.json, gaps.adapter.json and comparison.html,
written to FOLDER (default demo-out), made if missing, in the folder you run it from.`;

/** Says why the demo cannot run, and exits 2 as the CLI does for bad usage. */
function refuse(message: string): never {
  console.error(`demo: ${message}`);
  Deno.exit(2);
}

const demo = fileURLToPath(new URL("../samples/demo", import.meta.url));
moveToCaller();
if (Deno.args.some((a) => a === "-h" || a === "--help")) {
  console.log(USAGE);
  Deno.exit(0);
}
const flag = Deno.args.find((a) => a.startsWith("-"));
if (flag !== undefined) refuse(`Unknown option "${flag}" (see --help)`);
if (Deno.args.length > 1) refuse(`Unexpected argument "${Deno.args[1]}": one folder at most`);
const out = Deno.args[0] ?? "demo-out";
try {
  await Deno.mkdir(out, { recursive: true });
} catch (e) {
  refuse(
    e instanceof Deno.errors.AlreadyExists
      ? `${out} is a file, not a folder`
      : `Cannot make the folder ${out}: ${e instanceof Error ? e.message : e}`,
  );
}
const steps: [string, string[]][] = [];
for (const arm of ["base", "adapter"]) {
  steps.push([`Scoring the ${arm} model`, [
    "score",
    "--quiet",
    "--details",
    "--examples",
    `${demo}/examples.jsonl`,
    "--prompts",
    `${demo}/prompts.jsonl`,
    "--generations",
    `${demo}/generations.${arm}.jsonl`,
    "--out",
    `${out}/${arm}.json`,
  ]]);
}
steps.push(["Comparing adapter − base", [
  "compare",
  `${out}/base.json`,
  `${out}/adapter.json`,
  "--seed",
  "0",
  "--out",
  `${out}/comparison.json`,
  "--html",
  `${out}/comparison.html`,
]]);
steps.push(["Language gaps of the adapter (target − en)", [
  "gaps",
  `${out}/adapter.json`,
  "--out",
  `${out}/gaps.adapter.json`,
]]);
for (const [title, args] of steps) {
  console.log(`\n== ${title}\n`);
  const code = await main(args);
  if (code !== 0) Deno.exit(code);
}
console.log(
  `\nWrote ${out}/base.json, adapter.json, comparison.json, gaps.adapter.json and comparison.html`,
);
