// The CLI step of build/cross_runtime.ts: the seeded JSONL inputs every runtime scores from bytes,
// written to files and scored by `assay score` on each engine. Each runtime's report must be these
// bytes exactly, engine for engine.
import type { JsonlCorpus } from "../tests/conformance/_jsonl_corpus.ts";
import { sha256Hex } from "../tests/conformance/_sha256.ts";
import { exec, RUN_TIMEOUT_MS } from "./_runs.ts";

/** The CLI's report on one engine. */
export interface CliReport {
  /** SHA-256 of the report file. */
  sha256: string;
  /** Its length. */
  bytes: number;
}

/**
 * Writes the JSONL inputs to `tmp` and runs `assay score --engine wasm` and `--engine ts` on them.
 *
 * @param tmp A scratch directory.
 * @param corpus The seeded JSONL inputs.
 * @returns The report files' digests, by engine.
 * @throws {CrossRuntimeError} When the CLI fails.
 */
export async function scoreWithCli(
  tmp: string,
  corpus: JsonlCorpus,
): Promise<Record<"wasm" | "ts", CliReport>> {
  const dir = `${tmp}/score_cli`;
  await Deno.mkdir(dir, { recursive: true });
  const files = {
    examples: `${dir}/examples.jsonl`,
    generations: `${dir}/generations.jsonl`,
    prompts: `${dir}/prompts.jsonl`,
  };
  for (const [name, path] of Object.entries(files)) {
    await Deno.writeFile(path, corpus[name as keyof typeof files]);
  }
  const out: Partial<Record<"wasm" | "ts", CliReport>> = {};
  for (const engine of ["wasm", "ts"] as const) {
    const report = `${dir}/report.${engine}.json`;
    await exec(
      `assay score --engine ${engine}`,
      Deno.execPath(),
      [
        "run",
        "--no-prompt",
        `--allow-read=${dir}`,
        `--allow-write=${dir}`,
        "cli/main.ts",
        "score",
        "--examples",
        files.examples,
        "--generations",
        files.generations,
        "--prompts",
        files.prompts,
        "--out",
        report,
        "--quiet",
        "--engine",
        engine,
      ],
      RUN_TIMEOUT_MS,
    );
    const bytes = await Deno.readFile(report);
    out[engine] = { sha256: await sha256Hex(bytes), bytes: bytes.length };
  }
  return out as Record<"wasm" | "ts", CliReport>;
}
