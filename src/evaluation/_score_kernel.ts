// The JS side of the Wasm scoring kernel (assembly/score.ts): `assay score` on raw JSONL bytes.
//
// The caller writes each chunk of whole lines into the view `input` returns (a file read can go
// straight into it), then calls the phase. A phase returns a `KernelBail` when the kernel met
// something it does not read itself; the caller then scores the files with the general reader
// (ToolCallScorer), which gives the same report or words the error. The examples the kernel
// queues (a path too long for its path text) are scored here, with the general engine.
import type { Engine } from "../engine/mod.ts";
import type { DropSummary, EvaluationReport } from "./inputs.ts";
import {
  emptySliceCounts,
  PARSE_STATUSES,
  reportFromCounts,
  scoreCall,
  type SliceCounts,
} from "./_parts.ts";
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
  DROP_REASONS,
  K_OK,
  KERNEL_EXPORTS,
  type KernelExports,
  QUEUE_WORDS,
} from "./_kernel_abi.generated.ts";

/** Why the kernel gave a run back, by its name in the ABI. */
const BAIL_REASONS: Record<(typeof BAIL_NAMES)[number], string> = {
  line: "a line it does not read strictly (or not UTF-8)",
  field: "a missing, mistyped or empty field",
  surrogate: "a lone surrogate in an id, language or prompt",
  duplicate: "a duplicate id",
  unknown_id: "an id that is not an example's",
  digest: "a malformed or mismatched digest",
  missing: "a missing generation or prompt",
  unscored: "an example left unscored",
};

/** The kernel gave the run back: why, and at which line of the phase's file. */
export interface KernelBail {
  reason: string;
  line: number;
}

const decoder = new TextDecoder();

/** One scoring job on a fresh instance of the module. */
export class ScoreKernel {
  readonly #ex: KernelExports;
  readonly #engine: Engine;
  /** Examples the glue scored (the kernel left them to JS). */
  scoredHere = 0;

  /**
   * @param module The compiled build/assay.wasm.
   * @param engine The engine that scores the examples the kernel leaves to JS.
   * @param withPrompts Whether a prompts manifest is part of the job.
   */
  constructor(module: WebAssembly.Module, engine: Engine, withPrompts: boolean) {
    const exports = new WebAssembly.Instance(module, {}).exports;
    const missing = KERNEL_EXPORTS.filter((name) => !(name in exports));
    if (missing.length > 0) {
      throw new TypeError(
        `The module is not this version's scoring kernel: no ${missing.join(", ")}`,
      );
    }
    this.#ex = exports as unknown as KernelExports;
    this.#engine = engine;
    this.#ex.kStart(withPrompts ? 1 : 0);
  }

  /** A view of `cap` bytes of linear memory where the next chunk goes (valid until a call). */
  input(cap: number): Uint8Array {
    const at = this.#ex.kInput(cap);
    return new Uint8Array(this.#ex.memory.buffer, at, cap);
  }

  /** The line after the last chunk's last line. */
  get nextLine(): number {
    return this.#ex.nextLine.value as number;
  }

  /** Non-blank lines in the last chunk. */
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

  /** Reads a chunk of examples: `len` bytes of whole lines, the first numbered `firstLine`. */
  examples(len: number, firstLine: number): KernelBail | undefined {
    return this.#bail(this.#ex.kExamples(len, firstLine));
  }

  /** Ends the examples: checks ids, and builds the tables. */
  freeze(): KernelBail | undefined {
    return this.#bail(this.#ex.kFreeze());
  }

  /** Reads a chunk of prompts. */
  prompts(len: number, firstLine: number): KernelBail | undefined {
    return this.#bail(this.#ex.kPrompts(len, firstLine));
  }

  /** Reads a chunk of generations, and scores what the kernel queued. */
  generations(len: number, firstLine: number): KernelBail | undefined {
    const ex = this.#ex;
    const bail = this.#bail(ex.kGenerations(len, firstLine));
    if (bail) return bail;
    const count = ex.kQueueCount();
    if (count === 0) return undefined;
    const words = new Uint32Array(ex.memory.buffer, ex.kQueue(), count * QUEUE_WORDS).slice();
    const bytes = new Uint8Array(ex.memory.buffer);
    const texts: string[] = [];
    for (let k = 0; k < count; k++) {
      const i = words[k * QUEUE_WORDS]!;
      texts.push(this.#goldText(i));
      texts.push(
        JSON.parse(
          decoder.decode(bytes.subarray(words[k * QUEUE_WORDS + 1]!, words[k * QUEUE_WORDS + 2]!)),
        ),
      );
    }
    const calls = this.#engine.parseToolCallBatch(texts, { pairs: true, arguments: false });
    this.scoredHere += count;
    for (let k = 0; k < count; k++) {
      const gold = calls[2 * k]!;
      if (gold.status !== "ok") throw new Error("The kernel kept a gold that is not one call");
      const s = scoreCall(
        { name: gold.name!, canonical: gold.canonicalArguments!, pairs: gold.pairs! },
        calls[2 * k + 1]!,
      );
      ex.kSetRecord(
        words[k * QUEUE_WORDS]!,
        PARSE_STATUSES.indexOf(s.status),
        s.name_match ? 1 : 0,
        s.arguments_match ? 1 : 0,
        s.matched_pairs,
        s.predicted_pairs,
        s.gold_pairs,
      );
    }
    return undefined;
  }

  /** Example `i`'s gold call as text, built from its canonical parts. */
  #goldText(i: number): string {
    const ex = this.#ex;
    const text = decoder.decode(
      new Uint8Array(ex.memory.buffer, ex.kGold(i), ex.kGoldLength(i)),
    );
    const nameLength = ex.kGoldNameLength(i);
    return `{"arguments":${text.slice(nameLength)},"name":${text.slice(0, nameLength)}}`;
  }

  /**
   * Checks that every kept example was scored, and returns the report (without records) and the
   * records' JSON lines, joined by ",\n" (a view of linear memory, valid until the next call).
   */
  finish(
    engineName: string,
    inputs: Partial<EvaluationReport["inputs"]>,
  ): { report: EvaluationReport; records: Uint8Array } | KernelBail {
    const ex = this.#ex;
    const bail = this.#bail(ex.kFinish());
    if (bail) return bail;
    const buffer = ex.memory.buffer;
    const languages = ex.kLanguageCount();
    const counts = new Float64Array(buffer, ex.kCounts(), languages * COUNT_FIELDS);
    const byLanguage = new Map<string, SliceCounts>();
    for (let k = 0; k < languages; k++) {
      const c = k * COUNT_FIELDS;
      if (counts[c + COUNT_N] === 0) continue; // only dropped examples speak it
      const language = decoder.decode(
        new Uint8Array(buffer, ex.kLanguage(k), ex.kLanguageLength(k)),
      );
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
    const drops = new Uint32Array(buffer, ex.DROPS.value as number, DROP_REASONS);
    const summary: DropSummary = {
      multiple_calls: drops[0]!,
      empty_target: drops[1]!,
      malformed_target: drops[2]!,
    };
    return {
      report: reportFromCounts(byLanguage, summary, engineName, inputs),
      records: new Uint8Array(buffer, ex.kRecordsText(), ex.kRecordsLength()),
    };
  }
}
