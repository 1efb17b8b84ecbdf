/**
 * The cross-runtime conformance run: every batch API, on every engine, over a
 * fixed seeded corpus, reduced to one SHA-256.
 *
 * Runtime-agnostic: only Web and ECMAScript APIs, so the same code runs on
 * Deno, Node, Bun and workerd (see `build/cross_runtime.ts`). Two runs agree
 * exactly when their `sha256` fields are equal; the per-section digests say
 * which API differed.
 *
 * @module
 */
import {
  canonicalize,
  canonicalizeBatch,
  createEngine,
  Engine,
  type EngineChoice,
  extractSpan,
  extractSpanBatch,
  flattenArguments,
  flattenArgumentsBatch,
  parseToolCall,
  parseToolCallBatch,
} from "../../mod.ts";
import { buildCorpus, type Corpus, CORPUS_PRNG, CORPUS_SEED } from "./_corpus.ts";
import { evaluationSection } from "./_evaluation.ts";
import { structuredSection, suiteSection } from "./_structured.ts";
import type { ConformanceFailure, ConformanceReport } from "./_report.ts";
import { buildJsonlCorpus } from "./_jsonl_corpus.ts";
import { defaultJsonlCorpus, scoreJsonlSection } from "./_score_jsonl.ts";
import { structuredJsonlSection } from "./_structured_jsonl.ts";
import { ifevalSection } from "./_ifeval.ts";
import { bfclDepthSection, formatsInputs, formatsSection } from "./_formats.ts";
import { sha256Hex } from "./_sha256.ts";

export type { ConformanceFailure, ConformanceReport } from "./_report.ts";
export { ERROR_CODES, missingErrorCodes } from "./_report.ts";

/** Options for {@linkcode runConformance}. */
export interface ConformanceOptions {
  /** An engine, or the choice to pass to `createEngine`. */
  engine: Engine | EngineChoice;
  /** A precompiled `build/assay.wasm`, for hosts that cannot compile Wasm from bytes. */
  wasmModule?: WebAssembly.Module;
  /** The corpus; built from the default seed when absent. */
  corpus?: Corpus;
}

/** Names the runtime this code runs on, from globals only. */
export function detectRuntime(): { runtime: string; runtimeVersion: string } {
  const g = globalThis as Record<string, unknown>;
  const deno = g.Deno as { version?: { deno?: string } } | undefined;
  if (deno?.version?.deno) {
    return { runtime: "deno", runtimeVersion: deno.version.deno };
  }
  const bun = g.Bun as { version?: string } | undefined;
  if (bun?.version) return { runtime: "bun", runtimeVersion: bun.version };
  const ua = (g.navigator as { userAgent?: string } | undefined)?.userAgent ??
    "";
  if (ua === "Cloudflare-Workers") {
    return { runtime: "workerd", runtimeVersion: "" };
  }
  const proc = g.process as { versions?: { node?: string } } | undefined;
  if (proc?.versions?.node) {
    return { runtime: "node", runtimeVersion: proc.versions.node };
  }
  return { runtime: "unknown", runtimeVersion: ua };
}

/**
 * Serializes any result deterministically: object keys sorted, `undefined`
 * members dropped, numbers exact (`-0`, `NaN`, `Infinity` spelled out), and
 * every string unit outside printable ASCII escaped, so lone surrogates stay
 * distinct and the text is pure ASCII.
 */
export function stableSerialize(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join("");
}

function writeString(s: string, out: string[]): void {
  let r = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) r += s[i];
    else r += "\\u" + c.toString(16).padStart(4, "0");
  }
  out.push(r + '"');
}

function write(value: unknown, out: string[]): void {
  if (value === null) out.push("null");
  else if (typeof value === "string") writeString(value, out);
  else if (typeof value === "number") {
    out.push(Object.is(value, -0) ? "-0" : String(value));
  } else if (typeof value === "boolean") out.push(value ? "true" : "false");
  else if (Array.isArray(value)) {
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(",");
      write(value[i], out);
    }
    out.push("]");
  } else if (typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const proto = Object.getPrototypeOf(obj);
    // A polluted or exotic prototype is a difference too.
    out.push(
      proto === Object.prototype ? "{" : proto === null ? "{#null-proto " : "{#exotic ",
    );
    let first = true;
    for (const k of Object.keys(obj).sort()) {
      if (obj[k] === undefined) continue;
      if (!first) out.push(",");
      first = false;
      writeString(k, out);
      out.push(":");
      write(obj[k], out);
    }
    out.push("}");
  } else {
    out.push(`#${typeof value}`);
  }
}

type Tally = Record<string, number>;

function bump(t: Tally, key: string): void {
  t[key] = (t[key] ?? 0) + 1;
}

type Tallied = { status?: string; ok?: boolean; error?: { code: string } };

function tally(results: readonly Tallied[]): Tally {
  const t: Tally = {};
  for (const r of results) {
    bump(t, r.status ?? (r.ok ? "ok" : "error"));
    if (r.error) bump(t, `error:${r.error.code}`);
  }
  // Sorted, so that the printed line is stable.
  return Object.fromEntries(
    Object.entries(t).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

let defaultCorpus: Corpus | undefined;

/** The corpus built from the default seed, built once per process. */
export function defaultConformanceCorpus(): Corpus {
  return (defaultCorpus ??= buildCorpus());
}

/** One API's results over its inputs, in order. */
export interface ConformanceSection {
  /** The section name, e.g. `toolCalls`. */
  name: string;
  /** The input of each result (a label for the empty-batch section). */
  inputs: string[];
  /** One result per input. */
  results: unknown[];
}

/**
 * Runs every batch API, the empty batches and the single-text functions (on a
 * sample) on one engine over the corpus.
 *
 * @param engine The engine.
 * @param corpus The texts.
 * @returns One section per API, each with its inputs and results.
 */
export function conformanceSections(
  engine: Engine,
  corpus: Corpus,
): ConformanceSection[] {
  const { outputs, documents } = corpus;
  const all = [...outputs, ...documents];
  // The single-text functions on a sample: they must agree with the batches.
  const sample = all.filter((_, i) => i % 17 === 0);
  return [
    { name: "spans", inputs: all, results: extractSpanBatch(all, { engine }) },
    {
      name: "toolCalls",
      inputs: outputs,
      results: parseToolCallBatch(outputs, {
        engine,
        pairs: true,
        arguments: false,
      }),
    },
    {
      name: "toolCallsWithArguments",
      inputs: outputs,
      results: parseToolCallBatch(outputs, { engine, pairs: false }),
    },
    {
      name: "canonical",
      inputs: all,
      results: canonicalizeBatch(all, { engine }),
    },
    {
      name: "flatten",
      inputs: documents,
      results: flattenArgumentsBatch(documents, { engine }),
    },
    {
      name: "empty",
      inputs: [
        "extractSpanBatch([])",
        "parseToolCallBatch([])",
        "canonicalizeBatch([])",
        "flattenArgumentsBatch([])",
      ],
      results: [
        extractSpanBatch([], { engine }),
        parseToolCallBatch([], { engine }),
        canonicalizeBatch([], { engine }),
        flattenArgumentsBatch([], { engine }),
      ],
    },
    {
      name: "evaluation",
      inputs: ["score, compare, gaps"],
      results: evaluationSection(engine, outputs),
    },
    {
      name: "structured",
      inputs: ["json output, schema, xml, tool and instruction metrics"],
      results: structuredSection(engine, outputs),
    },
    {
      name: "suite",
      inputs: ["suite loader, trace metrics, scorecard, calibration, judge prompts"],
      results: suiteSection(engine),
    },
    {
      name: "ifeval",
      inputs: ["checkers strict and loose, Punkt, Treebank, langdetect"],
      results: ifevalSection(),
    },
    {
      name: "formats",
      inputs: formatsInputs(documents),
      results: formatsSection(engine, formatsInputs(documents)),
    },
    {
      name: "bfclDepth",
      inputs: ["BFCL's Python, Java and JavaScript readers on deep nesting"],
      results: bfclDepthSection(),
    },
    {
      name: "single",
      inputs: sample,
      results: sample.map((t) => [
        extractSpan(t, { engine }),
        parseToolCall(t, { engine, pairs: true }),
        canonicalize(t, { engine }),
        flattenArguments(t, { engine }),
      ]),
    },
  ];
}

/**
 * Runs the conformance on one engine over the corpus.
 *
 * @param options The engine (or engine choice) and, for workerd, the module.
 * @returns Counts per API and the digests of all results.
 * @throws {Error} If `wasm` is asked for and cannot be instantiated.
 */
export async function runConformance(
  options: ConformanceOptions,
): Promise<ConformanceReport> {
  const requested: EngineChoice = options.engine instanceof Engine
    ? options.engine.name
    : options.engine;
  const engine = options.engine instanceof Engine ? options.engine : createEngine(
    options.wasmModule
      ? { engine: requested, wasmModule: options.wasmModule }
      : { engine: requested },
  );
  const corpus = options.corpus ?? defaultConformanceCorpus();
  const { outputs, documents } = corpus;
  const computed = conformanceSections(engine, corpus);
  const results = (name: string) => computed.find((x) => x.name === name)!.results as Tallied[];
  const jsonl = options.corpus
    ? await buildJsonlCorpus(outputs)
    : await defaultJsonlCorpus(outputs);
  const scored = await scoreJsonlSection(engine, jsonl);

  // The corpora first: a difference there is the generator's, not an engine's.
  const sectionValues: [string, unknown][] = [
    ["corpus", [outputs, documents]],
    [
      "jsonlInputs",
      await Promise.all([jsonl.examples, jsonl.generations, jsonl.prompts].map(sha256Hex)),
    ],
    ...computed.map((x): [string, unknown] => [x.name, x.results]),
    ["scoreJsonl", scored.neutral],
    ["structuredJsonl", await structuredJsonlSection(engine, outputs)],
  ];
  const sections: Record<string, string> = {};
  let summary = "";
  for (const [name, value] of sectionValues) {
    sections[name] = await sha256Hex(stableSerialize(value));
    summary += `${name}:${sections[name]}\n`;
  }

  const report: ConformanceReport = {
    ...detectRuntime(),
    requested,
    engine: engine.name,
    corpus: {
      prng: CORPUS_PRNG,
      seed: CORPUS_SEED,
      outputs: outputs.length,
      documents: documents.length,
    },
    counts: {
      spans: tally(results("spans")),
      toolCalls: tally(results("toolCalls")),
      canonical: tally(results("canonical")),
      flatten: tally(results("flatten")),
    },
    scoreJsonl: scored.run,
    sections,
    sha256: await sha256Hex(summary),
  };
  if (engine.fallbackReason !== undefined) {
    report.fallbackReason = engine.fallbackReason;
  }
  return report;
}

/**
 * Runs the conformance on `wasm`, `ts` and `auto`, recording (not throwing)
 * when an engine cannot start.
 *
 * @param options `wasmModule` for hosts that cannot compile Wasm from bytes.
 * @returns One entry per requested engine.
 */
export async function runAllEngines(
  options: { wasmModule?: WebAssembly.Module; engines?: EngineChoice[] } = {},
): Promise<(ConformanceReport | ConformanceFailure)[]> {
  const out: (ConformanceReport | ConformanceFailure)[] = [];
  for (
    const choice of options.engines ?? ["wasm", "ts", "auto"] as EngineChoice[]
  ) {
    try {
      out.push(
        await runConformance(
          options.wasmModule
            ? { engine: choice, wasmModule: options.wasmModule }
            : { engine: choice },
        ),
      );
    } catch (e) {
      out.push({
        ...detectRuntime(),
        requested: choice,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
  return out;
}
