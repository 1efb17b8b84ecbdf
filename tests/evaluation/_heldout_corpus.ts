/**
 * The held-out corpus (`_heldout_corpus.py`): examples, generations and prompts written by a
 * generator made without sight of the engine or its other corpora, so that a check or a bench on
 * it measures data the kernel was not tuned for. Needs --allow-run (python3) and --allow-write.
 *
 * @module
 */

const GENERATOR = new URL("./_heldout_corpus.py", import.meta.url).pathname;

/** The files {@linkcode writeHeldoutCorpus} wrote. */
export interface HeldoutCorpusFiles {
  examples: string;
  generations: string;
  prompts: string;
}

/**
 * Writes the held-out corpus of `count` examples for `seed` into `dir` (the same bytes for the
 * same seed and count).
 *
 * @throws {Error} If the generator fails, with its stderr.
 */
export async function writeHeldoutCorpus(
  dir: string,
  options: { seed: number; count: number },
): Promise<HeldoutCorpusFiles> {
  const out = await new Deno.Command("python3", {
    args: [GENERATOR, dir, "--seed", String(options.seed), "--count", String(options.count)],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`_heldout_corpus.py failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return {
    examples: `${dir}/examples.jsonl`,
    generations: `${dir}/generations.jsonl`,
    prompts: `${dir}/prompts.jsonl`,
  };
}
