// The vendored IFEval data (tests/fixtures/ifeval/): GPT-4's responses, the official strict and
// loose verdicts and nltk 3.8's tokenizations of each response, gzipped where large; and the
// Python oracles' runner.
import { PYTHON } from "../_debian_python.ts";
const ROOT = new URL("../fixtures/ifeval/", import.meta.url);

/** The text of a fixture, gunzipped when its name ends in .gz. */
export async function fixtureText(name: string): Promise<string> {
  const bytes = await Deno.readFile(new URL(name, ROOT));
  if (!name.endsWith(".gz")) return new TextDecoder().decode(bytes);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

/** The rows of a JSONL fixture. */
export async function fixtureRows<T>(name: string): Promise<T[]> {
  return (await fixtureText(name)).split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

/** The path of a fixture. */
export function fixturePath(name: string): string {
  return new URL(name, ROOT).pathname;
}

/** GPT-4's responses, in the input file's order. */
export async function responses(): Promise<string[]> {
  return (await fixtureRows<{ response: string }>("responses_gpt4.jsonl")).map((r) => r.response);
}

/** nltk 3.8's tokenizations of each response. */
export interface TokenizerReference {
  sentences: string[];
  word_tokenize: string[];
  words_w: string[];
}

/**
 * Runs one of this folder's Python oracles with Debian's interpreter: `request` as JSON on stdin,
 * the JSON it prints back.
 */
export async function runOracle<T>(script: string, args: string[], request: unknown): Promise<T> {
  const child = new Deno.Command(PYTHON, {
    args: [new URL(script, import.meta.url).pathname, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(request)));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(`the oracle ${script} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}
