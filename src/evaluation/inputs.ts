/**
 * The rows and the report of a tool-call evaluation: examples, prompts and generations as they
 * come from examples.jsonl, prompts.jsonl and generations.jsonl, and the `assay.evaluation.v2`
 * report (docs/evaluation.md).
 *
 * @module
 */
import type { ArgumentPair, Engine, ParseStatus } from "../engine/mod.ts";
import type {
  DetailWriter,
  ExampleRecord,
  MetricName,
  RecordStatus,
  ToolCallMetrics,
} from "./metrics.ts";

/** One row of examples.jsonl. */
export interface ExampleInput {
  /** Unique id. */
  example_id: string;
  /** The language slice. */
  language: string;
  /**
   * The gold target: one call `{name, arguments}` or a list of calls. A string is read as JSON
   * text with the exact parser (so `1.0` and big integers survive); any other value is written
   * as canonical JSON (`canonicalValue`), and one that is not JSON (undefined, a Date, a Map, a
   * bigint, a cycle) is an `InputError` at its row.
   */
  target: unknown;
  /** The English row this one translates, if any. */
  root_id?: string | null;
  /** 1-based line in its file, for messages. */
  line?: number;
}

/** One row of the formatter's manifest, prompts.jsonl. */
export interface PromptInput {
  /** The example's id. */
  example_id: string;
  /** SHA-256 (hex) of the formatted prompt. */
  prompt_sha256: string;
  /** The prompt itself; when present it must hash to `prompt_sha256`. */
  prompt?: string;
  /** 1-based line in its file. */
  line?: number;
}

/** One row of generations.jsonl. */
export interface GenerationInput {
  /** The example's id. */
  example_id: string;
  /**
   * SHA-256 (hex) of the prompt the output answers; checked against the manifest when there is
   * one. Required in generations.jsonl; optional for library callers without a manifest.
   */
  prompt_sha256?: string;
  /** The raw model output. */
  output: string;
  /** 1-based line in its file. */
  line?: number;
}

/** Why examples were dropped before scoring. */
export interface DropSummary {
  /** A list of two or more calls. */
  multiple_calls: number;
  /** An empty list. */
  empty_target: number;
  /** Anything else that is not one call. */
  malformed_target: number;
}

/**
 * Every drop reason, in the order a report writes them (`drop_summary`, `dropped_ids`) and the
 * scoring kernel counts them.
 */
export const DROP_REASONS: readonly (keyof DropSummary)[] = [
  "multiple_calls",
  "empty_target",
  "malformed_target",
];

/** The ids of the examples dropped before scoring, by reason, in examples-file order. */
export type DroppedIds = Record<keyof DropSummary, string[]>;

/** Digest and row count of one input file. */
export interface InputDigest {
  /** SHA-256 (hex) of the file's bytes. */
  sha256: string;
  /** Non-blank lines. */
  rows: number;
  /**
   * For generations read from bytes: the rows whose `output` held bytes that are not UTF-8, read
   * with U+FFFD replacements as TextDecoder reads them (invalid UTF-8 anywhere else in any file
   * is an input error).
   */
  invalid_utf8_outputs?: number;
}

/** The schemas of evaluation reports: the one written, and the older one still read. */
export const EVALUATION_SCHEMAS = ["assay.evaluation.v2", "assay.evaluation.v1"] as const;

/** An evaluation report's schema. */
export type EvaluationSchema = (typeof EVALUATION_SCHEMAS)[number];

/**
 * The `assay.evaluation.v2` report. v2 adds `dropped_ids`, and the optional
 * `missing_generations` and records' `detail`, to v1; readers take both (`EVALUATION_SCHEMAS`).
 */
export interface EvaluationReport {
  /** `assay.evaluation.v2` as written (`assay.evaluation.v1` when read from an older report). */
  schema: EvaluationSchema;
  /** The tool that wrote it. */
  tool: { name: string; version: string };
  /** The parser contract (`assay.parser.v1`), or the id of the decoder that read the outputs. */
  parser_id: string;
  /** The canonical-JSON contract. */
  canonical_id: string;
  /** Present when numbers compared by value (`150` = `150.0`); absent, they compare exactly. */
  numbers?: "numeric";
  /** The engine that ran. */
  engine: string;
  /** The input files, when known. */
  inputs: {
    examples: InputDigest | null;
    generations: InputDigest | null;
    prompts: InputDigest | null;
  };
  /** Examples scored. */
  n: number;
  /** Examples dropped before scoring, by reason. */
  drop_summary: DropSummary;
  /** Their ids, by reason (absent from a v1 report). */
  dropped_ids?: DroppedIds;
  /** Records per parse status (under a decoder, per {@linkcode RecordStatus}). */
  parse_status_counts: Record<ParseStatus, number> & Partial<Record<RecordStatus, number>>;
  /** The metric names, in order. */
  metric_names: MetricName[];
  /** The language slices, sorted. */
  slices: string[];
  /** The metrics overall and per language. */
  metrics: { overall: ToolCallMetrics; by_language: Record<string, ToolCallMetrics> };
  /** One record per scored example, in examples order. */
  records: ExampleRecord[];
  /**
   * With `allowMissing`, when some are missing: the examples that had no generation, left out
   * of every metric (whose denominators count the scored examples only). A run that misses none
   * has no such field: its report is the strict run's.
   */
  missing_generations?: { count: number; ids: string[] };
}

/** Options for {@linkcode ToolCallScorer} and {@linkcode scoreToolCalls}. */
export interface ScoreOptions {
  /** The engine; the default engine when absent. */
  engine?: Engine;
  /** Whether a prompts manifest is part of the inputs (then every row must be in it). */
  withPrompts?: boolean;
  /** Source names for messages, e.g. file names. */
  sources?: { examples?: string; generations?: string; prompts?: string };
  /** Digests of the input files, recorded in the report. */
  inputs?: Partial<EvaluationReport["inputs"]>;
  /** SHA-256 (lowercase hex) of a string's UTF-8 bytes; defaults to the pure-TS {@linkcode sha256Hex}. */
  sha256?: (text: string) => string;
  /**
   * Reads the outputs (and compares numbers) in place of the engine's parser: from
   * `@assay/assay/formats`' `forScoring`, such as `forScoring("openai-chat")` or
   * `forScoring("sommelier", { numbers: "numeric" })`. Anything else (a name, `getDecoder`'s
   * decoder) is a TypeError naming the option, before any row is read.
   */
  decoder?: OutputDecoder;
  /**
   * Score the examples that have a generation, and list those that have none in the report's
   * `missing_generations`, instead of refusing the run (the default).
   */
  allowMissing?: boolean;
  /**
   * Writes each record's `detail` (output, gold and predicted calls, differing paths): from
   * `@assay/assay/explain`'s `explainScore`.
   */
  detail?: DetailWriter;
}

/** One output as a decoder reads it for scoring: one call, or a status with its reason. */
export interface PredictedOutput {
  /** `ok` for exactly one valid call. */
  status: RecordStatus;
  /** The call's name, when `ok`. */
  name?: string;
  /** Its arguments in canonical JSON, when `ok`. */
  canonicalArguments?: string;
  /** Its flattened argument pairs, when `ok`. */
  pairs?: readonly ArgumentPair[];
  /** Why the output is not one valid call. */
  reason?: string;
}

/**
 * Reads raw outputs for the scorer in place of the engine's parser, injected so that the root
 * module does not carry the decoders: `@assay/assay/formats`' `forScoring` makes one. Scoring
 * takes one call per output: an output of several calls is `multiple_calls`, of none `no_call`,
 * each with its reason.
 */
export interface OutputDecoder {
  /** The report's `parser_id`: the decoder's id (`openai-chat@3`), or `assay.parser.v1`. */
  readonly id: string;
  /** The report's `parse_status_counts` keys, in order. */
  readonly statuses: readonly RecordStatus[];
  /** Set when numbers compare by value (`150` = `150.0`); the report records it. */
  readonly numbers?: "numeric";
  /**
   * Reads a batch of outputs.
   *
   * @param outputs Raw model outputs.
   * @param engine The engine that reads JSON exactly.
   * @returns One prediction per output, in order.
   */
  predict(outputs: readonly string[], engine: Engine): PredictedOutput[];
  /**
   * The gold calls as predictions are compared with them (numbers in value form, or as they are),
   * each a call as the engine parses it (`ok`, with its pairs), when its example is scored.
   *
   * @param calls The gold calls, parsed by the engine.
   * @returns One per call, in order.
   */
  gold(calls: PredictedOutput[]): PredictedOutput[];
}
