/**
 * Tool-call evaluation: join examples and generations, check the invariants,
 * score each example and pool the five metrics overall and per language
 * (CONTRACT §4–5, docs/evaluation.md).
 *
 * {@linkcode scoreToolCalls} takes arrays; {@linkcode ToolCallScorer} takes the
 * same rows in batches, so that a caller streaming files keeps only the
 * per-example records in memory.
 *
 * @module
 */
import { type Engine, getDefaultEngine } from "./engine.ts";
import { formatLocation, InputError, InvariantViolation, type Violation } from "./errors.ts";
import { CANONICAL_ID, PARSER_ID } from "./ids.ts";
import {
  countRecords,
  type ExampleRecord,
  METRIC_NAMES,
  type MetricName,
  metricsFromCounts,
  type ToolCallMetrics,
} from "./metrics.ts";
import { sha256Hex } from "./sha256.ts";
import { compareCodePoints } from "./_order.ts";
import { materialize } from "./_materialize.ts";
import type { ParseStatus } from "./types.ts";
import { TOOL } from "./version.ts";

/** One row of examples.jsonl. */
export interface ExampleInput {
  /** Unique id. */
  example_id: string;
  /** The language slice. */
  language: string;
  /**
   * The gold target: one call `{name, arguments}` or a list of calls. A string is read as JSON
   * text with the exact parser (so `1.0` and big integers survive); any other value is
   * serialized with `JSON.stringify` first.
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

/** Digest and row count of one input file. */
export interface InputDigest {
  /** SHA-256 (hex) of the file's bytes. */
  sha256: string;
  /** Non-blank lines. */
  rows: number;
}

/** The `assay.evaluation.v1` report. */
export interface EvaluationReport {
  /** Always `assay.evaluation.v1`. */
  schema: "assay.evaluation.v1";
  /** The tool that wrote it. */
  tool: { name: string; version: string };
  /** The parser contract. */
  parser_id: string;
  /** The canonical-JSON contract. */
  canonical_id: string;
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
  /** Records per parse status. */
  parse_status_counts: Record<ParseStatus, number>;
  /** The metric names, in order. */
  metric_names: MetricName[];
  /** The language slices, sorted. */
  slices: string[];
  /** The metrics overall and per language. */
  metrics: { overall: ToolCallMetrics; by_language: Record<string, ToolCallMetrics> };
  /** One record per scored example, in examples order. */
  records: ExampleRecord[];
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
  /**
   * String targets are already canonical JSON from an engine (as `assay score` reads them), so
   * they are not canonicalized again. Wrong input here gives wrong scores: leave it off unless
   * the texts come from `canonicalizeBatch`.
   */
  canonicalTargets?: boolean;
  /** SHA-256 (hex) of a string's UTF-8 bytes; defaults to the pure-TS {@linkcode sha256Hex}. */
  sha256?: (text: string) => string;
}

interface Gold {
  name: string;
  canonical: string;
  paths: string[];
  values: string[];
}

interface ExampleState {
  language: string;
  root_id: string | null;
  line: number | undefined;
  gold: Gold | undefined;
  dropped: boolean;
  record: ExampleRecord | undefined;
  generationLine: number | undefined;
}

const STATUSES: ParseStatus[] = ["ok", "no_json", "invalid_json", "invalid_shape"];

/** Scores tool-call generations against examples, one batch at a time. */
export class ToolCallScorer {
  #engine: Engine;
  #withPrompts: boolean;
  #src: { examples: string; generations: string; prompts: string };
  #examples = new Map<string, ExampleState>();
  #order: string[] = [];
  #prompts = new Map<string, { sha: string; line: number | undefined }>();
  #violations: Violation[] = [];
  #drops: DropSummary = { multiple_calls: 0, empty_target: 0, malformed_target: 0 };
  #generationsSeen = false;
  #canonicalTargets: boolean;
  #sha256: (text: string) => string;

  /**
   * Creates a scorer.
   *
   * @param options The engine, whether prompts are part of the inputs, and source names.
   */
  constructor(options: ScoreOptions = {}) {
    this.#engine = options.engine ?? getDefaultEngine();
    this.#withPrompts = options.withPrompts ?? false;
    this.#canonicalTargets = options.canonicalTargets ?? false;
    this.#sha256 = options.sha256 ?? sha256Hex;
    this.#src = {
      examples: options.sources?.examples ?? "examples",
      generations: options.sources?.generations ?? "generations",
      prompts: options.sources?.prompts ?? "prompts",
    };
  }

  /**
   * Adds examples. All examples come before any generation.
   *
   * @param batch Example rows.
   * @throws {InputError} If a target is not valid JSON or a field is mistyped.
   */
  addExamples(batch: readonly ExampleInput[]): void {
    if (this.#generationsSeen) throw new TypeError("Add all examples before any generation");
    const texts: string[] = [];
    for (const ex of batch) {
      const at = { source: this.#src.examples, line: ex.line, id: ex.example_id };
      requireString(ex.example_id, "example_id", at);
      requireString(ex.language, "language", at);
      if (ex.root_id !== undefined && ex.root_id !== null && typeof ex.root_id !== "string") {
        throw new InputError(`${formatLocation(at)}: field "root_id" must be a string or null`);
      }
      if (ex.target === undefined) {
        throw new InputError(`${formatLocation(at)}: missing field "target"`);
      }
      texts.push(typeof ex.target === "string" ? ex.target : JSON.stringify(ex.target));
    }
    const canonical = this.#canonicalTargets ? texts : this.#canonicalize(batch, texts);
    const calls = this.#engine.parseToolCallBatch(canonical, { pairs: true, arguments: false });
    for (let i = 0; i < batch.length; i++) {
      const ex = batch[i]!;
      const call = calls[i]!;
      const prior = this.#examples.get(ex.example_id);
      if (prior) {
        this.#violations.push({
          kind: "duplicate_id",
          detail: `example_id ${JSON.stringify(ex.example_id)} in ${this.#src.examples} at lines ` +
            `${prior.line ?? "?"} and ${ex.line ?? "?"}`,
        });
        continue;
      }
      const state: ExampleState = {
        language: ex.language,
        root_id: ex.root_id ?? null,
        line: ex.line,
        gold: undefined,
        dropped: false,
        record: undefined,
        generationLine: undefined,
      };
      if (call.status === "ok") {
        state.gold = {
          name: call.name!,
          canonical: call.canonicalArguments!,
          paths: call.pairs!.map((p) => p.path),
          values: call.pairs!.map((p) => p.value),
        };
      } else {
        state.dropped = true;
        this.#drops[dropReason(canonical[i]!)]++;
      }
      this.#examples.set(ex.example_id, state);
      this.#order.push(ex.example_id);
    }
  }

  #canonicalize(batch: readonly ExampleInput[], texts: string[]): string[] {
    const canon = this.#engine.canonicalizeBatch(texts);
    return canon.map((c, i) => {
      if (c.ok) return c.canonical;
      const ex = batch[i]!;
      throw new InputError(
        `${formatLocation({ source: this.#src.examples, line: ex.line, id: ex.example_id })}: ` +
          `target is not valid JSON (${c.error.code} at ${c.error.offset})`,
      );
    });
  }

  /**
   * Adds rows of the prompts manifest. All prompts come before any generation.
   *
   * @param batch Manifest rows.
   * @throws {InputError} If a field is missing or mistyped.
   */
  addPrompts(batch: readonly PromptInput[]): void {
    if (this.#generationsSeen) throw new TypeError("Add all prompts before any generation");
    this.#withPrompts = true;
    for (const p of batch) {
      const at = { source: this.#src.prompts, line: p.line, id: p.example_id };
      requireString(p.example_id, "example_id", at);
      requireDigest(p.prompt_sha256, at);
      const prior = this.#prompts.get(p.example_id);
      if (prior) {
        this.#violations.push({
          kind: "duplicate_id",
          detail: `example_id ${JSON.stringify(p.example_id)} in ${this.#src.prompts} at lines ` +
            `${prior.line ?? "?"} and ${p.line ?? "?"}`,
        });
        continue;
      }
      if (p.prompt !== undefined) {
        if (typeof p.prompt !== "string") {
          throw new InputError(`${formatLocation(at)}: field "prompt" must be a string`);
        }
        const actual = this.#sha256(p.prompt);
        if (actual !== p.prompt_sha256) {
          this.#violations.push({
            kind: "prompt_text_digest_mismatch",
            detail: `${formatLocation(at)}: prompt hashes to ${actual.slice(0, 12)}…, ` +
              `prompt_sha256 says ${p.prompt_sha256.slice(0, 12)}…`,
          });
        }
      }
      this.#prompts.set(p.example_id, { sha: p.prompt_sha256, line: p.line });
    }
  }

  /**
   * Scores a batch of generations against their examples.
   *
   * @param batch Generation rows.
   * @throws {InputError} If a field is missing or mistyped.
   */
  addGenerations(batch: readonly GenerationInput[]): void {
    this.#generationsSeen = true;
    const toScore: { g: GenerationInput; state: ExampleState }[] = [];
    for (const g of batch) {
      const at = { source: this.#src.generations, line: g.line, id: g.example_id };
      requireString(g.example_id, "example_id", at);
      if (typeof g.output !== "string") {
        throw new InputError(
          `${formatLocation(at)}: ${
            g.output === undefined ? 'missing field "output"' : 'field "output" must be a string'
          }`,
        );
      }
      if (this.#withPrompts || g.prompt_sha256 !== undefined) requireDigest(g.prompt_sha256, at);
      const state = this.#examples.get(g.example_id);
      if (!state) {
        this.#violations.push({
          kind: "orphan_generation",
          detail: `${formatLocation(at)} has no example in ${this.#src.examples}`,
        });
        continue;
      }
      if (state.generationLine !== undefined || state.record !== undefined) {
        this.#violations.push({
          kind: "duplicate_id",
          detail:
            `example_id ${JSON.stringify(g.example_id)} in ${this.#src.generations} at lines ` +
            `${state.generationLine ?? "?"} and ${g.line ?? "?"}`,
        });
        continue;
      }
      state.generationLine = g.line ?? 0;
      if (this.#withPrompts) {
        const manifest = this.#prompts.get(g.example_id);
        if (!manifest) {
          this.#violations.push({
            kind: "missing_prompt",
            detail: `${formatLocation(at)} has no row in ${this.#src.prompts}`,
          });
        } else if (manifest.sha !== g.prompt_sha256) {
          this.#violations.push({
            kind: "prompt_digest_mismatch",
            detail:
              `${formatLocation(at)}: prompt_sha256 ${g.prompt_sha256!.slice(0, 12)}… differs ` +
              `from ${this.#src.prompts}:${manifest.line ?? "?"} (${manifest.sha.slice(0, 12)}…)`,
          });
        }
      }
      if (!state.dropped) toScore.push({ g, state });
    }
    if (toScore.length === 0) return;
    const calls = this.#engine.parseToolCallBatch(toScore.map((t) => t.g.output), {
      pairs: true,
      arguments: false,
    });
    for (let i = 0; i < toScore.length; i++) {
      const { g, state } = toScore[i]!;
      state.record = scoreOne(g.example_id, state, calls[i]!);
      state.gold = undefined;
    }
  }

  /**
   * Checks the remaining invariants and builds the report.
   *
   * @returns The `assay.evaluation.v1` report.
   * @throws {InvariantViolation} If any invariant is broken.
   */
  finish(inputs: Partial<EvaluationReport["inputs"]> = {}): EvaluationReport {
    const records: ExampleRecord[] = [];
    for (const id of this.#order) {
      const state = this.#examples.get(id)!;
      if (state.dropped) continue;
      const at = { source: this.#src.examples, line: state.line, id };
      if (this.#withPrompts && !this.#prompts.has(id)) {
        this.#violations.push({
          kind: "missing_prompt",
          detail: `${formatLocation(at)} has no row in ${this.#src.prompts}`,
        });
      }
      if (!state.record) {
        this.#violations.push({
          kind: "missing_generation",
          detail: `${formatLocation(at)} has no generation in ${this.#src.generations}`,
        });
        continue;
      }
      records.push(state.record);
    }
    if (this.#violations.length > 0) throw new InvariantViolation(this.#violations);
    return buildReport(records, this.#drops, this.#engine.name, inputs);
  }
}

function requireString(value: unknown, field: string, at: Parameters<typeof formatLocation>[0]) {
  if (value === undefined) throw new InputError(`${formatLocation(at)}: missing field "${field}"`);
  if (typeof value !== "string" || value === "") {
    throw new InputError(`${formatLocation(at)}: field "${field}" must be a non-empty string`);
  }
}

function requireDigest(value: unknown, at: Parameters<typeof formatLocation>[0]) {
  if (value === undefined) {
    throw new InputError(`${formatLocation(at)}: missing field "prompt_sha256"`);
  }
  if (typeof value !== "string" || !/^[0-9a-f]{64}$/.test(value)) {
    throw new InputError(
      `${formatLocation(at)}: field "prompt_sha256" must be 64 lowercase hex digits`,
    );
  }
}

/** Whether a materialised value has the call shape of CONTRACT §1. */
function isCallShape(v: unknown): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  if (keys.length !== 2 || !keys.includes("name") || !keys.includes("arguments")) return false;
  const { name, arguments: args } = v as { name: unknown; arguments: unknown };
  return typeof name === "string" && name !== "" && typeof args === "object" && args !== null &&
    !Array.isArray(args);
}

/**
 * Classifies a canonical target that is not exactly one call: a list of two or more calls, an
 * empty list, or anything else (including a list holding something that is not a call).
 */
function dropReason(canonical: string): keyof DropSummary {
  const value = materialize(canonical);
  if (!Array.isArray(value)) return "malformed_target";
  if (value.length === 0) return "empty_target";
  return value.length >= 2 && value.every(isCallShape) ? "multiple_calls" : "malformed_target";
}

function scoreOne(
  id: string,
  state: ExampleState,
  call: ReturnType<Engine["parseToolCallBatch"]>[number],
): ExampleRecord {
  const gold = state.gold!;
  const ok = call.status === "ok";
  let matched = 0;
  let predicted = 0;
  if (ok) {
    // A multiset intersection on (path, value); argument lists are short, so a scan with a
    // used-mask beats hashing concatenated keys.
    const pairs = call.pairs!;
    predicted = pairs.length;
    const used = new Uint8Array(gold.paths.length);
    for (const p of pairs) {
      for (let j = 0; j < gold.paths.length; j++) {
        if (used[j] === 0 && gold.paths[j] === p.path && gold.values[j] === p.value) {
          used[j] = 1;
          matched++;
          break;
        }
      }
    }
  }
  return {
    example_id: id,
    language: state.language,
    root_id: state.root_id,
    status: call.status,
    name_match: ok && call.name === gold.name,
    arguments_match: ok && call.canonicalArguments === gold.canonical,
    matched_pairs: matched,
    predicted_pairs: predicted,
    gold_pairs: gold.paths.length,
  };
}

function buildReport(
  records: ExampleRecord[],
  drops: DropSummary,
  engine: string,
  inputs: Partial<EvaluationReport["inputs"]>,
): EvaluationReport {
  const statusCounts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<
    ParseStatus,
    number
  >;
  const byLanguage = new Map<string, ExampleRecord[]>();
  for (const r of records) {
    statusCounts[r.status]++;
    const list = byLanguage.get(r.language);
    if (list) list.push(r);
    else byLanguage.set(r.language, [r]);
  }
  const slices = [...byLanguage.keys()].sort(compareCodePoints);
  const by_language: Record<string, ToolCallMetrics> = {};
  for (const lang of slices) {
    by_language[lang] = metricsFromCounts(countRecords(byLanguage.get(lang)!));
  }
  return {
    schema: "assay.evaluation.v1",
    tool: { name: TOOL.name, version: TOOL.version },
    parser_id: PARSER_ID,
    canonical_id: CANONICAL_ID,
    engine,
    inputs: {
      examples: inputs.examples ?? null,
      generations: inputs.generations ?? null,
      prompts: inputs.prompts ?? null,
    },
    n: records.length,
    drop_summary: { ...drops },
    parse_status_counts: statusCounts,
    metric_names: [...METRIC_NAMES],
    slices,
    metrics: { overall: metricsFromCounts(countRecords(records)), by_language },
    records,
  };
}

/**
 * Scores tool-call generations against examples and returns the evaluation report.
 *
 * @param examples Example rows (gold targets), in file order.
 * @param generations Generation rows (raw model outputs).
 * @param options The engine, an optional prompts manifest, source names and input digests.
 * @returns The `assay.evaluation.v1` report.
 * @throws {InvariantViolation} If the inputs break an invariant (duplicate ids, orphans, missing
 *   generations, digest mismatches).
 * @throws {InputError} If a row is malformed.
 *
 * @example The reference's worked example
 * ```ts
 * import { scoreToolCalls } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const gold = (city: string) => ({ name: "get_weather", arguments: { city, units: "celsius" } });
 * const report = scoreToolCalls(
 *   [
 *     { example_id: "1", language: "en", target: gold("Paris") },
 *     { example_id: "2", language: "en", target: gold("Paris") },
 *     { example_id: "3", language: "en", target: gold("Oslo") },
 *     { example_id: "4", language: "en", target: gold("Rome") },
 *   ],
 *   [
 *     { example_id: "1", output: '{"name": "get_weather", "arguments": {"city": "Paris", "units": "celsius"}}' },
 *     { example_id: "2", output: '{"name": "get_weather", "arguments": {"city": "Paris", "units": "kelvin"}}' },
 *     { example_id: "3", output: '{"name": "fetch_weather", "arguments": {"city": "Oslo", "units": "celsius"}}' },
 *     { example_id: "4", output: "The weather in Rome is sunny." },
 *   ],
 * );
 * assertEquals(report.metrics.overall.argument_f1, { value: 10 / 14, numerator: 10, denominator: 14 });
 * assertEquals(report.metrics.overall.full_call_exact_match.value, 0.25);
 * ```
 */
export function scoreToolCalls(
  examples: readonly ExampleInput[],
  generations: readonly GenerationInput[],
  options: ScoreOptions & { prompts?: readonly PromptInput[] } = {},
): EvaluationReport {
  const scorer = new ToolCallScorer({ ...options, withPrompts: options.prompts !== undefined });
  scorer.addExamples(examples);
  if (options.prompts) scorer.addPrompts(options.prompts);
  scorer.addGenerations(generations);
  return scorer.finish(options.inputs);
}
