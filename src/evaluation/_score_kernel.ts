// The JS side of the Wasm scoring kernel (assembly/score.ts): `assay score` on raw JSONL bytes.
//
// The caller writes each chunk of whole lines into the view `input` returns (a file read can go
// straight into it), then calls the phase. A phase returns a `KernelBail` when the kernel met
// something it does not read itself; the caller then scores the files with the general reader
// (ToolCallScorer), which gives the same report or words the error. Once finished, the kernel
// writes the records' JSON lines a chunk at a time, from its entries.
import {
  DROP_REASONS,
  type DroppedIds,
  type DropSummary,
  type EvaluationReport,
} from "./inputs.ts";
import { compareCodePoints } from "../engine/mod.ts";
import { emptySliceCounts, PARSE_STATUSES, reportFromCounts, type SliceCounts } from "./_parts.ts";
import { OVERALL } from "./_row_checks.ts";
import {
  BAIL_NAMES,
  COUNT_ARGS,
  COUNT_FIELDS,
  COUNT_FULL,
  COUNT_GOLD,
  COUNT_MATCHED,
  COUNT_N,
  COUNT_NAME,
  COUNT_OK,
  COUNT_PREDICTED,
  DROP_REASONS as DROP_COUNTERS,
  K_OK,
  type KernelExports,
} from "./_kernel_abi.generated.ts";

/** Why the kernel gave a run back, by its name in the ABI. */
const BAIL_REASONS: Record<(typeof BAIL_NAMES)[number], string> = {
  line: "a line it does not read strictly (or not UTF-8)",
  field:
    "a missing, mistyped or empty field, or an output written as a JSON value it does not read",
  surrogate: "a lone surrogate in an id, language or prompt",
  duplicate: "a duplicate id",
  unknown_id: "an id that is not an example's",
  digest: "a malformed or mismatched digest",
  missing: "a missing generation or prompt",
};

/** The kernel gave the run back: why, and at which line of the phase's file. */
export interface KernelBail {
  reason: string;
  line: number;
}

const decoder = new TextDecoder();

/**
 * One scoring job on a fresh instance of the module: `new ScoreKernel(module, withPrompts)`, with
 * the compiled build/assay.wasm as an engine checked it (its `wasmModule`) and whether a prompts
 * manifest is part of the job. Then, a phase at a time:
 *
 * - `input(cap)`: a view of `cap` bytes of linear memory where the next chunk goes (valid until
 *   a call);
 * - `examples(len, firstLine)`: reads a chunk of examples, `len` bytes of whole lines, the first
 *   numbered `firstLine`; `freeze()` ends them (checks ids, builds the tables); `prompts` and
 *   `generations` read theirs alike (and score the generations);
 * - `nextLine`: the line after the last chunk's last line; `chunkRows`: the non-blank lines in
 *   the last chunk; `invalidUtf8Outputs`: generations whose output held invalid UTF-8, read with
 *   U+FFFD replacements;
 * - `finish(engineName, inputs, allowMissing)`: checks that every kept example has its
 *   generation (and prompt), and returns the report without its records; with `allowMissing`,
 *   those with no generation are listed;
 * - `records(size)`: the records' JSON lines (after finish), joined by ",\n", in chunks of about
 *   `size` bytes each ending with a whole line, made as they are read; each call starts again.
 *
 * Each call returns the kernel's bail when it gives the run back. (The members' docs are here: the
 * bundler keeps a class member's docs, in the root's budget.)
 */
export class ScoreKernel {
  readonly #ex: KernelExports;
  #cursor: object | undefined;

  constructor(module: WebAssembly.Module, withPrompts: boolean) {
    // The engine checked the module's exports when it was made (instantiate, src/engine).
    this.#ex = new WebAssembly.Instance(module, {}).exports as unknown as KernelExports;
    this.#ex.kStart(withPrompts ? 1 : 0);
  }

  input(cap: number): Uint8Array {
    const at = this.#ex.kInput(cap);
    return new Uint8Array(this.#ex.memory.buffer, at, cap);
  }

  get nextLine(): number {
    return this.#ex.nextLine.value as number;
  }

  get invalidUtf8Outputs(): number {
    return this.#ex.invalidOutputs.value as number;
  }

  get chunkRows(): number {
    return this.#ex.chunkRows.value as number;
  }

  #bail(code: number): KernelBail | undefined {
    if (code === K_OK) return undefined;
    const name = BAIL_NAMES[code - 1];
    return {
      reason: name === undefined ? `code ${code}` : BAIL_REASONS[name],
      line: this.#ex.bailLine.value as number,
    };
  }

  examples(len: number, firstLine: number): KernelBail | undefined {
    return this.#bail(this.#ex.kExamples(len, firstLine));
  }

  freeze(): KernelBail | undefined {
    return this.#bail(this.#ex.kFreeze());
  }

  prompts(len: number, firstLine: number): KernelBail | undefined {
    return this.#bail(this.#ex.kPrompts(len, firstLine));
  }

  generations(len: number, firstLine: number): KernelBail | undefined {
    return this.#bail(this.#ex.kGenerations(len, firstLine));
  }

  finish(
    engineName: string,
    inputs: Partial<EvaluationReport["inputs"]>,
    allowMissing = false,
  ): EvaluationReport | KernelBail {
    const ex = this.#ex;
    const bail = this.#bail(ex.kFinish(allowMissing ? 1 : 0));
    if (bail) return bail;
    const buffer = ex.memory.buffer;
    const languages = ex.kLanguageCount();
    const counts = new Float64Array(buffer, ex.kCounts(), languages * COUNT_FIELDS);
    const byLanguage = new Map<string, SliceCounts>();
    for (let k = 0; k < languages; k++) {
      const c = k * COUNT_FIELDS;
      const language = decoder.decode(
        new Uint8Array(buffer, ex.kLanguage(k), ex.kLanguageLength(k)),
      );
      // The kernel takes any language; the general reader refuses one named as the overall slice
      // is (a dropped example's too) and words the error with its line.
      if (language === OVERALL) return { reason: BAIL_REASONS.field, line: 0 };
      if (counts[c + COUNT_N] === 0) continue; // only dropped examples speak it
      const slice = emptySliceCounts();
      slice.n = counts[c + COUNT_N]!;
      PARSE_STATUSES.forEach((s, j) => slice.statuses[s] = counts[c + COUNT_OK + j]!);
      slice.ok = slice.statuses.ok;
      slice.name = counts[c + COUNT_NAME]!;
      slice.args = counts[c + COUNT_ARGS]!;
      slice.full = counts[c + COUNT_FULL]!;
      slice.matched = counts[c + COUNT_MATCHED]!;
      slice.predicted = counts[c + COUNT_PREDICTED]!;
      slice.gold = counts[c + COUNT_GOLD]!;
      byLanguage.set(language, slice);
    }
    const drops = new Uint32Array(buffer, ex.DROPS.value as number, DROP_COUNTERS);
    const summary = Object.fromEntries(
      DROP_REASONS.map((k, i) => [k, drops[i]!]),
    ) as unknown as DropSummary;
    // Entry kind k + 1 is the drop reason k (the DROPS counters' order); kind 0, the missing.
    const ids = (kind: number): string[] => {
      const out: string[] = [];
      for (let first = 1;; first = 0) {
        const n = ex.kDropped(kind, first, RECORDS_CHUNK);
        if (n === 0) return out;
        const text = decoder.decode(new Uint8Array(ex.memory.buffer, ex.kRecordsText(), n));
        for (const line of text.split("\n")) if (line) out.push(JSON.parse(line));
      }
    };
    const droppedIds = Object.fromEntries(
      Object.entries(summary).map(([reason, n], k) => [reason, n > 0 ? ids(k + 1) : []]),
    ) as DroppedIds;
    const report = reportFromCounts(byLanguage, summary, droppedIds, engineName, inputs);
    const missing = ex.missingCount.value as number;
    // Only when some are missing: a run that misses none gives the strict run's report.
    if (missing > 0) {
      report.missing_generations = { count: missing, ids: ids(0).sort(compareCodePoints) };
    }
    return report;
  }

  *records(size = RECORDS_CHUNK): Generator<Uint8Array> {
    const ex = this.#ex;
    const me = {};
    for (let made = 0;; made++) {
      let n: number;
      if (this.#cursor === me) n = ex.kRecords(0, size);
      else {
        // The kernel has one cursor: when another iteration moved it (the report's records read,
        // or a second stream of its bytes), this one starts again and skips what it has made,
        // as the chunks are the same each time. It went on from the other's place.
        this.#cursor = me;
        n = ex.kRecords(1, size);
        for (let k = 0; k < made && n !== 0; k++) n = ex.kRecords(0, size);
      }
      if (n === 0) return;
      yield new Uint8Array(ex.memory.buffer, ex.kRecordsText(), n).slice();
    }
  }
}

/** Bytes of records the kernel writes at a time. */
const RECORDS_CHUNK = 1 << 20;
