// The BFCL step of the cross-runtime run, on Deno, Node (bundled) and Bun: checkBfcl on every
// vendored model result (11 models, 2024-08) in every category it has, with the decoder and name
// rewrite its name gives and BFCL's matching; prints one JSON line with a digest of each run's report and of them all.
// build/cross_runtime.ts compares the lines across runtimes. Reads the fixtures with node:fs and
// node:zlib, which the three runtimes share (workerd has no files: it is not in this step), from
// the folder given as the one argument (a bundle's import.meta.url is not the source's).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { BfclCategory } from "../../src/bfcl/mod.ts";
import { leaderboardRun } from "../bfcl/_leaderboard.ts";
import { sha256Hex } from "./_sha256.ts";

const g = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
const ROOT = `${g.Deno?.args[0] ?? g.process?.argv[2]}/`;
const CATEGORIES: BfclCategory[] = [
  "simple",
  "multiple_function",
  "parallel_function",
  "parallel_multiple_function",
  "relevance",
  "java",
  "javascript",
];

const source = (path: string) => ({
  name: path.replace(/\.gz$/, ""),
  text: gunzipSync(readFileSync(ROOT + path)).toString("utf8"),
});

const digests: Record<string, string> = {};
for (const model of readdirSync(ROOT + "results").sort()) {
  for (const category of CATEGORIES) {
    if (!existsSync(`${ROOT}results/${model}/${category}_result.json.gz`)) continue;
    const run = await leaderboardRun(model, category, source);
    digests[`${model} ${category}`] = (await sha256Hex(JSON.stringify(run))).slice(0, 16);
  }
}
console.log(JSON.stringify({ sha256: await sha256Hex(JSON.stringify(digests)), digests }));
