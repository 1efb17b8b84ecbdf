// The seeded corpora of bench/score_bench.ts and bench/kernel_ab.ts, by name, written the same way
// for both: `varied`, `classic` (285-byte outputs) and `heldout` (written blind to the engine).
import { writeScoreCorpus } from "../tests/evaluation/_score_corpus.ts";
import { writeVariedCorpus } from "../tests/evaluation/_varied_corpus.ts";
import { writeHeldoutCorpus } from "../tests/evaluation/_heldout_corpus.ts";

/** The corpora's names. */
export const SCORE_CORPORA: readonly string[] = ["varied", "classic", "heldout"];

/**
 * Writes the corpus `name` of `count` examples for `seed` into `dir`; its files (prompts.jsonl
 * unless `prompts` is false).
 *
 * @throws {Error} If `name` is none of {@linkcode SCORE_CORPORA}.
 */
export async function writeBenchCorpus(
  name: string,
  dir: string,
  options: { seed: number; count: number; prompts?: boolean },
): Promise<{ examples: string; generations: string; prompts?: string }> {
  const { seed, count, prompts = true } = options;
  if (name === "varied") return await writeVariedCorpus(dir, { seed, count, prompts });
  if (name === "classic") {
    return await writeScoreCorpus(dir, { seed, count, outputBytes: 285, prompts });
  }
  if (name !== "heldout") {
    throw new Error(`Unknown corpus "${name}": ${SCORE_CORPORA.join(", ")}`);
  }
  const files = await writeHeldoutCorpus(dir, { seed, count });
  return prompts ? files : { examples: files.examples, generations: files.generations };
}
