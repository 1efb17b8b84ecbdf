// The vendored BFCL 2024-08 files (tests/fixtures/bfcl-v1/): the data and results, gzipped, and
// the published verdicts derived from the score files.
import type { BfclCategory, BfclMatching, BfclRun, BfclSource } from "../../src/bfcl/mod.ts";
import { leaderboardRun } from "./_leaderboard.ts";

const ROOT = new URL("../fixtures/bfcl-v1/", import.meta.url);

export const FC_MODELS = [
  "claude-3-5-sonnet-20240620-FC",
  "firefunction-v2-FC",
  "gpt-3.5-turbo-0125-FC",
  "gpt-4o-2024-05-13-FC",
  "meetkai_functionary-small-v3.1-FC",
  "mistral-large-2407-FC-Any",
];
export const PROMPTING_MODELS = [
  "claude-3-opus-20240229",
  "gorilla-openfunctions-v2",
  "gpt-4-0613",
  "meta-llama_Meta-Llama-3-70B-Instruct",
  "mistral-large-2407",
];
export const AST_CATEGORIES: BfclCategory[] = [
  "simple",
  "multiple_function",
  "parallel_function",
  "parallel_multiple_function",
];

/** A vendored gzipped file's text. */
export async function gunzipText(path: string): Promise<string> {
  const bytes = await Deno.readFile(new URL(path, ROOT));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

async function source(path: string): Promise<BfclSource> {
  return { name: path.replace(/\.gz$/, ""), text: await gunzipText(path) };
}

/** Runs our checker on a model's category, as BFCL's leaderboard ran it (or with `matching`). */
export function runModel(
  model: string,
  category: BfclCategory,
  matching: BfclMatching = "greedy",
): Promise<BfclRun> {
  return leaderboardRun(model, category, source, matching);
}

/** One published score file, reduced: its counts and the error_type of each failing id. */
export interface Published {
  correct: number;
  total: number;
  failing: Map<number, string>;
}

const published = new Map<string, Published>();
for (
  const line of (await Deno.readTextFile(new URL("published_verdicts.jsonl", ROOT))).split("\n")
) {
  if (line === "") continue;
  const o = JSON.parse(line);
  published.set(`${o.model}/${o.category}`, {
    correct: o.correct_count,
    total: o.total_count,
    failing: new Map(o.failing),
  });
}

/** The published verdicts of a model's category. */
export function publishedScore(model: string, category: string): Published {
  const p = published.get(`${model}/${category}`);
  if (!p) throw new Error(`No published score for ${model}/${category}`);
  return p;
}

/** Where our verdicts differ from the published ones: `id: ours vs published`. */
export function disagreements(run: BfclRun, pub: Published): Map<number, string> {
  const out = new Map<number, string>();
  for (const r of run.records) {
    const theirs = pub.failing.get(r.id) ?? "pass";
    const ours = r.valid ? "pass" : r.errorType!;
    if (ours !== theirs) out.set(r.id, `${ours} vs ${theirs}`);
  }
  return out;
}

/** The published score files vendored whole (scores/MODEL/CATEGORY_score.json.gz). */
export const PUBLISHED_SCORES: [string, BfclCategory][] = [
  ["gpt-4o-2024-05-13-FC", "simple"],
  ["gpt-4o-2024-05-13-FC", "parallel_multiple_function"],
  ["mistral-large-2407-FC-Any", "javascript"],
  ["mistral-large-2407-FC-Any", "relevance"],
  // Decoded by the JavaScript and Java call readers: values as strings, code fences as tagged
  // templates, and BFCL's messages for the entries that fail to decode.
  ["gpt-4-0613", "javascript"],
  ["mistral-large-2407", "java"],
];
