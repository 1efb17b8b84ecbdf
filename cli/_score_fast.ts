// `assay score`'s fast path: the three files read straight into the Wasm scoring kernel
// (src/_score_kernel.ts), one chunk of whole lines at a time. It returns undefined when the
// kernel gives the run back (anything it does not read itself, errors included); the caller then
// scores the files with the general reader, which gives the same report or words the error.
import * as nodeCrypto from "node:crypto";
import type { Engine } from "../src/engine.ts";
import type { EvaluationReport, InputDigest } from "../src/evaluation.ts";
import { formatReport } from "../src/report_json.ts";
import { type KernelBail, ScoreKernel } from "../src/_score_kernel.ts";
import { defaultWasmModule } from "../src/_wasm_engine.ts";
import type { Progress } from "./_progress.ts";

/** Bytes read per chunk. */
const READ_BYTES = 4 << 20;
const encoder = new TextEncoder();

/** The fast path's result: the report (records left out) and the report file's bytes. */
export interface FastScore {
  report: EvaluationReport;
  bytes: Uint8Array;
}

/** Why the last fast run gave up, for tests and ASSAY_DEBUG. */
export let lastBail: (KernelBail & { file: string }) | undefined;

/** Streams one file through a kernel phase; its digest, or why the kernel gave up. */
function phase(
  path: string,
  kernel: ScoreKernel,
  run: (len: number, firstLine: number) => KernelBail | undefined,
  progress: Progress,
): InputDigest | KernelBail {
  const hash = nodeCrypto.createHash("sha256");
  const file = Deno.openSync(path, { read: true });
  let rows = 0;
  try {
    let tail = new Uint8Array(0);
    let line = 1;
    let first = true;
    let eof = false;
    while (!eof) {
      const view = kernel.input(tail.length + READ_BYTES);
      view.set(tail);
      let filled = tail.length;
      while (filled < view.length) {
        const n = file.readSync(view.subarray(filled));
        if (n === null) {
          eof = true;
          break;
        }
        hash.update(view.subarray(filled, filled + n));
        progress.add(n, rows);
        filled += n;
      }
      if (first && filled >= 3 && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) {
        view.copyWithin(0, 3, filled);
        filled -= 3;
      }
      first = false;
      let len = filled;
      tail = new Uint8Array(0);
      if (!eof) {
        const nl = view.subarray(0, filled).lastIndexOf(10);
        if (nl < 0) {
          tail = view.slice(0, filled); // a line longer than the chunk: read on
          continue;
        }
        len = nl + 1;
        tail = view.slice(len, filled);
      }
      if (len === 0) continue;
      const bail = run(len, line);
      if (bail) return bail;
      line = kernel.nextLine;
      rows += kernel.chunkRows;
    }
  } finally {
    file.close();
  }
  return { sha256: hash.digest("hex"), rows };
}

/**
 * Scores the files with the kernel. Returns undefined when the kernel gives the run back, or
 * when a file is not a regular file (stdin cannot be read twice).
 */
export function scoreFast(
  paths: { examples: string; generations: string; prompts: string | undefined },
  engine: Engine,
  progress: Progress,
): FastScore | undefined {
  lastBail = undefined;
  for (const p of [paths.examples, paths.generations, paths.prompts]) {
    if (p === undefined) continue;
    if (p === "-") return undefined;
    try {
      if (!Deno.statSync(p).isFile) return undefined;
    } catch {
      return undefined; // the general reader words the error
    }
  }
  const kernel = new ScoreKernel(defaultWasmModule(), engine, paths.prompts !== undefined);
  const gaveUp = (file: string, bail: KernelBail): undefined => {
    lastBail = { ...bail, file };
    return undefined;
  };
  const examples = phase(paths.examples, kernel, (l, f) => kernel.examples(l, f), progress);
  if ("reason" in examples) return gaveUp(paths.examples, examples);
  const frozen = kernel.freeze();
  if (frozen) return gaveUp(paths.examples, frozen);
  let prompts: InputDigest | null = null;
  if (paths.prompts !== undefined) {
    const p = phase(paths.prompts, kernel, (l, f) => kernel.prompts(l, f), progress);
    if ("reason" in p) return gaveUp(paths.prompts, p);
    prompts = p;
  }
  const generations = phase(
    paths.generations,
    kernel,
    (l, f) => kernel.generations(l, f),
    progress,
  );
  if ("reason" in generations) return gaveUp(paths.generations, generations);
  const done = kernel.finish(engine.name, { examples, generations, prompts });
  if ("reason" in done) return gaveUp(paths.examples, done);
  // The report with `"records": []`, its records spliced in as the general writer lays them out.
  const text = formatReport(done.report);
  const end = "[]\n}\n";
  if (!text.endsWith(end)) throw new Error("Unexpected report layout");
  const head = encoder.encode(text.slice(0, -end.length));
  const parts = done.records.length === 0
    ? [head, encoder.encode(end)]
    : [head, encoder.encode("[\n"), done.records, encoder.encode("\n  ]\n}\n")];
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { report: done.report, bytes };
}
