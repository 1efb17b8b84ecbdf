// Every flag a command accepts is named in its --help: the flags are read from the command's
// parseOptions call in cli/ (its literal keys and the flag sets it spreads in), so a flag added
// to a command without a line of help fails here.
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { runCli, runMain } from "./_main.ts";

const CLI = new URL("../../cli/", import.meta.url);

/** Each parseOptions site, by its file and the line that starts it, and the help that covers it. */
const SITES: { file: string; after: string; help: string[] }[] = [
  { file: "_options.ts", after: "export function parseLineCommand(", help: ["parse", "--help"] },
  { file: "score.ts", after: "parseOptions(args, {", help: ["score", "--help"] },
  { file: "compare.ts", after: "export async function runCompare(", help: ["compare", "--help"] },
  { file: "compare.ts", after: "export async function runGaps(", help: ["gaps", "--help"] },
  { file: "structured.ts", after: "parseOptions(args, {", help: ["structured", "--help"] },
  { file: "gate.ts", after: "parseOptions(args, {", help: ["gate", "--help"] },
  { file: "show.ts", after: "parseOptions(args, {", help: ["show", "--help"] },
  { file: "bfcl.ts", after: "parseOptions(args, {", help: ["bfcl", "--help"] },
  { file: "bfcl_compare.ts", after: "parseOptions(args, {", help: ["bfcl", "compare", "--help"] },
  { file: "ifeval.ts", after: "parseOptions(args, {", help: ["ifeval", "--help"] },
  { file: "ifeval_compare.ts", after: "parseOptions(args,", help: ["ifeval", "compare", "--help"] },
  { file: "suite.ts", after: "async function runCommand(", help: ["suite", "run", "--help"] },
  { file: "suite.ts", after: "function scorecardCommand(", help: ["suite", "scorecard", "--help"] },
  { file: "suite.ts", after: "function compareCommand(", help: ["suite", "compare", "--help"] },
  { file: "suite.ts", after: "export async function runCalibrate(", help: ["calibrate", "--help"] },
];

/** The flag names declared by the object literal starting at `at` in `text` (spreads resolved). */
async function flagsAt(text: string, at: number): Promise<string[]> {
  const open = text.indexOf("{", at);
  let depth = 0;
  let end = open;
  for (; end < text.length; end++) {
    if (text[end] === "{") depth++;
    else if (text[end] === "}" && --depth === 0) break;
  }
  const body = text.slice(open + 1, end);
  const flags: string[] = [];
  // Only the outer object's keys: `name: {` or `"name-with-dashes": {` at nesting depth 0.
  let d = 0;
  for (const m of body.matchAll(/[{}]|(?:"([\w-]+)"|\b([a-z][\w]*))\s*:\s*\{|\.\.\.([A-Z_]+)/g)) {
    if (m[0] === "{") d++;
    else if (m[0] === "}") d--;
    else if (d === 0 && m[3] !== undefined) flags.push(...await spreadFlags(m[3]));
    else if (d === 0) {
      flags.push(m[1] ?? m[2]!);
      d++; // the key's own `{`
    }
  }
  return flags;
}

/** The flags of a flag set declared as `const NAME = {` somewhere in cli/. */
async function spreadFlags(name: string): Promise<string[]> {
  for await (const entry of Deno.readDir(CLI)) {
    if (!entry.name.endsWith(".ts")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, CLI));
    const at = text.search(new RegExp(`const ${name}\\b[^=]*=\\s*\\{`));
    if (at >= 0) return flagsAt(text, at);
  }
  throw new Error(`flag set ${name} not found in cli/`);
}

Deno.test("every flag a command accepts is named in its --help", async () => {
  const missing: string[] = [];
  for (const site of SITES) {
    const text = await Deno.readTextFile(new URL(site.file, CLI));
    const start = text.indexOf(site.after);
    strictEqual(start >= 0, true, `${site.file}: ${site.after} not found`);
    const call = text.indexOf("parseOptions(args", start);
    const named = /^parseOptions\(args,\s*([A-Z_]+)\)/.exec(text.slice(call));
    const flags = named ? await spreadFlags(named[1]!) : await flagsAt(text, call);
    strictEqual(flags.length > 0, true, `${site.file}: no flags read`);
    const { code, stdout } = await runCli(site.help);
    strictEqual(code, 0, site.help.join(" "));
    for (const flag of flags) {
      if (flag === "help") continue;
      if (!new RegExp(`--(?:\\[no-\\])?${flag}\\b`).test(stdout)) {
        missing.push(`${site.help.slice(0, -1).join(" ")}: --${flag}`);
      }
    }
  }
  assertEquals(missing, []);
});

Deno.test("suite scorecard takes no --metrics: it showed the run's metrics or refused", async () => {
  const { code, stderr } = await runMain([
    "suite",
    "scorecard",
    "--store",
    "x.db",
    "--metrics",
    "a",
  ]);
  strictEqual(code, 2);
  strictEqual(stderr.includes('Unknown option "--metrics"'), true, stderr);
});
