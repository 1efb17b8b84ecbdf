// The bundled demo scored through the CLI, for the tests of the comparison page, show and gates.
import { strictEqual } from "node:assert/strict";
import type { EvaluationReport } from "../mod.ts";

const root = new URL("../", import.meta.url);
const demo = new URL("samples/demo/", root).pathname;

/**
 * The arguments of `assay score --quiet` on the demo's base generations (no prompts), then `extra`
 * (`--out FILE`, `--json`): what the CLI tests of writing and exit codes run.
 */
export const demoScoreArgs = (...extra: string[]): string[] => [
  "score",
  "--quiet",
  "--examples",
  `${demo}examples.jsonl`,
  "--generations",
  `${demo}generations.base.jsonl`,
  ...extra,
];

/** Scores the demo's `model` generations into `dir` with `assay score` (plus `extra` flags). */
export async function scoreDemo(
  dir: string,
  model: "base" | "adapter",
  extra: string[] = [],
): Promise<EvaluationReport> {
  const out = `${dir}/${model}.json`;
  const res = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      new URL("cli/main.ts", root).pathname,
      "score",
      "--quiet",
      ...extra,
      "--examples",
      `${demo}examples.jsonl`,
      "--prompts",
      `${demo}prompts.jsonl`,
      "--generations",
      `${demo}generations.${model}.jsonl`,
      "--out",
      out,
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  strictEqual(res.code, 0, new TextDecoder().decode(res.stderr));
  return JSON.parse(await Deno.readTextFile(out));
}
