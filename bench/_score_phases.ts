// Where `assay score`'s time goes, for bench/score_bench.ts --phases. Run as its own process
// (pinned like the sides of the bench), it times on the same files, in one process:
//
// - reading the files as the CLI does (4 MiB at a time, into one buffer);
// - their SHA-256 (node:crypto, the CLI's hasher), on bytes already read;
// - the scoring kernel's phases (src/evaluation/_score_kernel.ts), the files already in memory:
//   the first run on a fresh module (Liftoff code, TurboFan compiling in the background) and the
//   median of the warm runs after it, each on a fresh instance;
// - for scale, JSON.parse of every line of the files (see PhaseTimes.jsonParse).
//
// It prints one JSON object: seconds per part. The kernel's reports are not checked here; the
// bench checks the CLI's report against the oracle before any timing counts.
//
// Usage: deno run -A bench/_score_phases.ts DIR [REPS]   (DIR holds the corpus's files)
import { createHash } from "node:crypto";
import { ScoreKernel } from "../src/evaluation/_score_kernel.ts";
import { median } from "./_median.ts";

/** Seconds per part, as printed. */
export interface PhaseTimes {
  read: number;
  sha256: number;
  kernelFirst: Record<string, number>;
  kernelWarm: Record<string, number>;
  /**
   * For scale: V8's own reader on the same bytes, per file (median of the runs): the bytes
   * decoded to a string, split into lines and each line given to JSON.parse. It does less than the
   * kernel (it reads neither the outputs' JSON nor the targets' numbers exactly, and hashes
   * nothing), and is about as fast.
   */
  jsonParse: Record<string, number>;
}

const READ_BYTES = 4 << 20;
const KERNEL_CHUNK = 1 << 20;

/** Reads a file as the CLI does (one 4 MiB buffer, reused); returns the bytes read. */
async function readLikeCli(path: string): Promise<number> {
  let total = 0;
  using file = await Deno.open(path);
  const buffer = new Uint8Array(READ_BYTES);
  for (;;) {
    const n = await file.read(buffer);
    if (n === null) return total;
    total += n;
  }
}

/** Feeds whole lines to a kernel phase, as src/evaluation/_kernel_run.ts does (no BOM here). */
function feed(
  kernel: ScoreKernel,
  bytes: Uint8Array,
  run: (len: number, firstLine: number) => unknown,
): void {
  let line = 1;
  for (let a = 0; a < bytes.length;) {
    const b = Math.min(a + KERNEL_CHUNK, bytes.length);
    let nl = bytes.lastIndexOf(10, b - 1);
    if (nl < a) {
      // A line longer than a chunk goes whole.
      const next = bytes.indexOf(10, b);
      nl = next < 0 ? bytes.length - 1 : next;
    }
    kernel.input(nl + 1 - a).set(bytes.subarray(a, nl + 1));
    const bail = run(nl + 1 - a, line);
    if (bail) throw new Error(`the kernel gave the run back: ${JSON.stringify(bail)}`);
    line = kernel.nextLine;
    a = nl + 1;
  }
}

/**
 * One kernel run over the files: seconds per phase. The records' chunks go to `records`, if given
 * (bench/kernel_ab.ts compares them).
 */
export function kernelRun(
  module: WebAssembly.Module,
  files: Record<string, Uint8Array>,
  records?: (chunk: Uint8Array) => void,
): Record<string, number> {
  const times: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    times[name] = (now - t) / 1000;
    t = now;
  };
  const kernel = new ScoreKernel(module, files.prompts !== undefined);
  feed(kernel, files.examples!, (l, f) => kernel.examples(l, f));
  const frozen = kernel.freeze();
  if (frozen) throw new Error(`the kernel gave the run back: ${JSON.stringify(frozen)}`);
  lap("examples");
  if (files.prompts) {
    feed(kernel, files.prompts, (l, f) => kernel.prompts(l, f));
    lap("prompts");
  }
  feed(kernel, files.generations!, (l, f) => kernel.generations(l, f));
  lap("generations");
  const digest = { sha256: "0".repeat(64), rows: 0 };
  const done = kernel.finish("wasm", {
    examples: digest,
    generations: { ...digest, invalid_utf8_outputs: 0 },
    prompts: null,
  });
  if ("reason" in done) throw new Error(`the kernel gave the run back: ${JSON.stringify(done)}`);
  for (const chunk of kernel.records()) records?.(chunk);
  lap("records");
  return times;
}

/** Seconds to decode `bytes` and JSON.parse each of its lines (a line that is not JSON too). */
function jsonParseSeconds(bytes: Uint8Array): number {
  const t = performance.now();
  for (const line of new TextDecoder().decode(bytes).split("\n")) {
    try {
      JSON.parse(line);
    } catch {
      // a broken line costs its parse up to the error, as in the kernel
    }
  }
  return (performance.now() - t) / 1000;
}

/** The corpus's files in `dir` (examples, prompts if there, generations), read whole. */
export async function readCorpus(dir: string): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const name of ["examples", "prompts", "generations"]) {
    const path = `${dir}/${name}.jsonl`;
    if (await Deno.stat(path).then(() => true, () => false)) {
      files[name] = await Deno.readFile(path);
    }
  }
  return files;
}

/** Times the parts on the corpus in `dir`. */
export async function phaseTimes(dir: string, reps: number): Promise<PhaseTimes> {
  const files = await readCorpus(dir);
  let t = performance.now();
  for (const name of Object.keys(files)) await readLikeCli(`${dir}/${name}.jsonl`);
  const read = (performance.now() - t) / 1000;
  t = performance.now();
  for (const bytes of Object.values(files)) {
    const hash = createHash("sha256");
    for (let a = 0; a < bytes.length; a += READ_BYTES) {
      hash.update(bytes.subarray(a, a + READ_BYTES));
    }
    hash.digest("hex");
  }
  const sha256 = (performance.now() - t) / 1000;
  const module = new WebAssembly.Module(
    await Deno.readFile(new URL("../build/assay.wasm", import.meta.url)),
  );
  const kernelFirst = kernelRun(module, files);
  const warm = Array.from({ length: reps }, () => kernelRun(module, files));
  const kernelWarm = Object.fromEntries(
    Object.keys(kernelFirst).map((k) => [k, median(warm.map((w) => w[k]!))]),
  );
  const jsonParse = Object.fromEntries(
    Object.entries(files).map(([name, bytes]) => [
      name,
      median(Array.from({ length: reps }, () => jsonParseSeconds(bytes))),
    ]),
  );
  return { read, sha256, kernelFirst, kernelWarm, jsonParse };
}

if (import.meta.main) {
  const [dir, reps] = Deno.args;
  if (!dir) throw new Error("Usage: deno run -A bench/_score_phases.ts DIR [REPS]");
  console.log(JSON.stringify(await phaseTimes(dir, Number(reps ?? 5))));
}
