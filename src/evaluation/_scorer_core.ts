// The tool-call scorer: examples, prompts and generations in batches; the invariants; one record
// per example; the report. The public face is ToolCallScorer (scorer.ts); the JSONL readers use
// this core directly, with `exactTargets` (their targets are cut out of lines already read as
// JSON, so they need not be canonicalized before they are parsed).
import { compareCodePoints, type Engine, engineOf, sha256Hex } from "../engine/mod.ts";
import { canonicalValue, isWellFormed } from "../engine/mod.ts";
import { formatLocation, inputErrorAt, InvariantViolation, type Violation } from "../jsonl/mod.ts";
import type { ExampleRecord } from "./metrics.ts";
import {
  DROP_REASONS,
  type DroppedIds,
  type DropSummary,
  type EvaluationReport,
  type ExampleInput,
  type GenerationInput,
  type PromptInput,
  type ScoreOptions,
} from "./inputs.ts";
import {
  checkDecoder,
  type GoldCall,
  goldCall,
  goldOf,
  type GoldText,
  type PredictedCall,
  recordOf,
  reportFromRecords,
} from "./_parts.ts";
import {
  dropReason,
  duplicateId,
  IS_OVERALL,
  isDigest,
  isNonEmptyString,
  outputNotString,
  OVERALL,
  requireDigest,
  requireString,
} from "./_row_checks.ts";

/** The core's options: the public ones, and whether string targets are valid JSON already. */
export interface CoreOptions extends ScoreOptions {
  /**
   * String targets are each exactly one valid JSON text, not necessarily canonical (as the JSONL
   * readers cut them out of their lines): an object or array is parsed as it stands (which gives
   * what parsing its canonical text gives), anything else is canonicalized first, and a target
   * that is not one call is canonicalized to classify it. Wrong input here gives wrong scores.
   */
  exactTargets?: boolean;
  /** Outputs may be JSON objects or arrays (the JSONL readers give one as its canonical text). */
  valueOutputs?: boolean;
}

interface ExampleState {
  id: string;
  language: string;
  root_id: string | null;
  line: number | undefined;
  /** The gold call's name and canonical arguments, until the example is scored. */
  gold: GoldText | undefined;
  dropped: boolean;
  record: ExampleRecord | undefined;
  generationLine: number | undefined;
  /** Its generation found a manifest row (so `finish` need not look again). */
  prompted: boolean;
}

/**
 * The scorer behind {@linkcode ToolCallScorer} and the JSONL readers. Its methods are
 * ToolCallScorer's, documented there (their docs are not repeated here: they would be kept in
 * the root's bundle twice). `#order` holds the examples in file order, duplicates left out;
 * `#prompts` maps an example id to its manifest row, an index into `#promptShas` and
 * `#promptLines`; `#canonicalizeSome` canonicalizes `texts[i]` into `out[i]` for each `i` of
 * `which`; `#golds` gives the gold calls of examples being scored, as the predictions are
 * compared with them: their pairs flattened from the canonical arguments (which gives the pairs
 * the parse gives), then the decoder's gold() form. (Notes on members go here: the bundler keeps a
 * member's docs.)
 */
export class ScorerCore {
  #engine: Engine;
  #withPrompts: boolean;
  #src: { examples: string; generations: string; prompts: string };
  #examples = new Map<string, ExampleState>();
  #order: ExampleState[] = [];
  #prompts = new Map<string, number>();
  #promptShas: string[] = [];
  #promptLines: (number | undefined)[] = [];
  #violations: Violation[] = [];
  #drops = Object.fromEntries(DROP_REASONS.map((k) => [k, 0])) as unknown as DropSummary;
  #dropIds = Object.fromEntries(DROP_REASONS.map((k) => [k, []])) as unknown as DroppedIds;
  #generationsSeen = false;
  #exactTargets: boolean;
  #sha256: (text: string) => string;
  #options: CoreOptions;

  constructor(options: CoreOptions = {}) {
    this.#engine = engineOf(options.engine);
    checkDecoder(options.decoder);
    this.#withPrompts = options.withPrompts ?? false;
    this.#exactTargets = options.exactTargets ?? false;
    this.#sha256 = options.sha256 ?? sha256Hex;
    this.#options = options;
    this.#src = {
      examples: options.sources?.examples ?? "examples",
      generations: options.sources?.generations ?? "generations",
      prompts: options.sources?.prompts ?? "prompts",
    };
  }

  addExamples(batch: readonly ExampleInput[]): void {
    if (this.#generationsSeen) throw new TypeError("Add all examples before any generation");
    const texts: string[] = new Array(batch.length);
    for (let i = 0; i < batch.length; i++) {
      const ex: ExampleInput = Object(batch[i]); // a row that is no object has no field
      const at = () => ({ source: this.#src.examples, line: ex.line, id: ex.example_id });
      const badRoot = ex.root_id != null && typeof ex.root_id !== "string";
      if (
        typeof ex.example_id !== "string" || ex.example_id === "" ||
        typeof ex.language !== "string" || ex.language === "" || ex.language === OVERALL ||
        badRoot || ex.target === undefined
      ) {
        requireString(ex.example_id, "example_id", at());
        requireString(ex.language, "language", at());
        throw inputErrorAt(
          at(),
          ex.language === OVERALL
            ? `field "language"${IS_OVERALL}`
            : badRoot
            ? 'field "root_id" must be a string or null'
            : 'missing field "target"',
        );
      }
      try {
        texts[i] = typeof ex.target === "string" ? ex.target : canonicalValue(ex.target);
      } catch (e) {
        throw inputErrorAt(at(), `field "target": ${(e as Error).message}`);
      }
    }
    // The canonical text of each target, where known; it classifies dropped targets.
    let canonical: (string | undefined)[];
    let parsed = texts;
    if (this.#exactTargets) {
      // An object or array parses alike as it stands and canonical, unless a raw surrogate half
      // meets an escaped one (canonical text escapes both, which pairs them); text decoded from
      // UTF-8 has no lone surrogates. Anything else is canonicalized first.
      canonical = new Array(texts.length);
      const other: number[] = [];
      for (let i = 0; i < texts.length; i++) {
        const t = texts[i]!;
        const c = t.charCodeAt(0);
        if ((c !== 0x7b && c !== 0x5b) || !isWellFormed(t)) other.push(i);
      }
      this.#canonicalizeSome(batch, texts, other, canonical);
      for (const i of other) texts[i] = canonical[i]!;
    } else {
      canonical = parsed = this.#canonicalize(batch, texts);
    }
    // An example keeps its gold's name and canonical arguments only: the pairs, and the form the
    // decoder compares (gold()), are made when it is scored (#golds), so the examples do not hold
    // them all at once (the pairs were a third of the general reader's heap).
    const calls = this.#engine.parseToolCallBatch(parsed, { pairs: false, arguments: false });
    if (this.#exactTargets) {
      const other: number[] = [];
      for (let i = 0; i < calls.length; i++) {
        if (calls[i]!.status !== "ok" && canonical[i] === undefined) other.push(i);
      }
      this.#canonicalizeSome(batch, texts, other, canonical);
    }
    for (let i = 0; i < batch.length; i++) {
      const ex = batch[i]!;
      const call = calls[i]!;
      const prior = this.#examples.get(ex.example_id);
      if (prior) {
        this.#violations.push(duplicateId(ex.example_id, this.#src.examples, prior.line, ex.line));
        continue;
      }
      const ok = call.status === "ok";
      const state: ExampleState = {
        id: ex.example_id,
        language: ex.language,
        root_id: ex.root_id ?? null,
        line: ex.line,
        gold: ok ? goldOf(call) : undefined,
        dropped: !ok,
        record: undefined,
        generationLine: undefined,
        prompted: false,
      };
      if (!ok) {
        const reason = dropReason(canonical[i]!);
        this.#drops[reason]++;
        this.#dropIds[reason].push(ex.example_id);
      }
      this.#examples.set(ex.example_id, state);
      this.#order.push(state);
    }
  }

  #canonicalizeSome(
    batch: readonly ExampleInput[],
    texts: readonly string[],
    which: readonly number[],
    out: (string | undefined)[],
  ): void {
    if (which.length === 0) return;
    const canon = this.#canonicalize(
      which.map((i) => batch[i]!),
      which.map((i) => texts[i]!),
    );
    for (let k = 0; k < which.length; k++) out[which[k]!] = canon[k]!;
  }

  #canonicalize(batch: readonly ExampleInput[], texts: string[]): string[] {
    const canon = this.#engine.canonicalizeBatch(texts);
    return canon.map((c, i) => {
      if (c.ok) return c.canonical;
      const ex = batch[i]!;
      throw inputErrorAt(
        { source: this.#src.examples, line: ex.line, id: ex.example_id },
        `target is not valid JSON (${c.error.code} at ${c.error.offset})`,
      );
    });
  }

  addPrompts(batch: readonly PromptInput[]): void {
    if (this.#generationsSeen) throw new TypeError("Add all prompts before any generation");
    this.#withPrompts = true;
    for (const row of batch) {
      const p: PromptInput = Object(row);
      // A prompt that hashes to its prompt_sha256 vouches for the digest's spelling.
      const actual = typeof p.prompt === "string" && isNonEmptyString(p.example_id)
        ? this.#sha256(p.prompt)
        : undefined;
      if (
        !isNonEmptyString(p.example_id) ||
        ((actual === undefined || actual !== p.prompt_sha256) && !isDigest(p.prompt_sha256))
      ) {
        const at = { source: this.#src.prompts, line: p.line, id: p.example_id };
        requireString(p.example_id, "example_id", at);
        requireDigest(p.prompt_sha256, at);
      }
      const prior = this.#prompts.get(p.example_id);
      if (prior !== undefined) {
        const first = this.#promptLines[prior];
        this.#violations.push(duplicateId(p.example_id, this.#src.prompts, first, p.line));
        continue;
      }
      if (p.prompt !== undefined) {
        const at = () => ({ source: this.#src.prompts, line: p.line, id: p.example_id });
        if (actual === undefined) {
          throw inputErrorAt(at(), 'field "prompt" must be a string');
        }
        if (actual !== p.prompt_sha256) {
          this.#violations.push({
            kind: "prompt_text_digest_mismatch",
            detail: `${formatLocation(at())}: prompt hashes to ${actual.slice(0, 12)}…, ` +
              `prompt_sha256 says ${p.prompt_sha256.slice(0, 12)}…`,
          });
        }
      }
      this.#prompts.set(p.example_id, this.#promptShas.length);
      this.#promptShas.push(p.prompt_sha256);
      this.#promptLines.push(p.line);
    }
  }

  addGenerations(batch: readonly GenerationInput[]): void {
    this.#generationsSeen = true;
    const outputs: string[] = [];
    const states: ExampleState[] = [];
    const withPrompts = this.#withPrompts;
    for (const row of batch) {
      const g: GenerationInput = Object(row);
      const at = () => ({ source: this.#src.generations, line: g.line, id: g.example_id });
      if (!isNonEmptyString(g.example_id)) requireString(g.example_id, "example_id", at());
      if (typeof g.output !== "string") {
        const why = g.output === undefined
          ? 'missing field "output"'
          : outputNotString(g.output, this.#options.valueOutputs);
        throw inputErrorAt(at(), why);
      }
      // The manifest's digests were checked: one equal to the generation's vouches for it.
      const manifest = withPrompts ? this.#prompts.get(g.example_id) : undefined;
      const manifestSha = manifest === undefined ? undefined : this.#promptShas[manifest];
      if (
        (withPrompts || g.prompt_sha256 !== undefined) &&
        (manifestSha === undefined || manifestSha !== g.prompt_sha256) &&
        !isDigest(g.prompt_sha256)
      ) {
        requireDigest(g.prompt_sha256, at());
      }
      const state = this.#examples.get(g.example_id);
      if (!state) {
        this.#violations.push({
          kind: "orphan_generation",
          detail: `${formatLocation(at())} has no example in ${this.#src.examples}`,
        });
        continue;
      }
      if (state.generationLine !== undefined || state.record !== undefined) {
        const first = state.generationLine;
        this.#violations.push(duplicateId(g.example_id, this.#src.generations, first, g.line));
        continue;
      }
      state.generationLine = g.line ?? 0;
      if (withPrompts) {
        state.prompted = manifest !== undefined;
        if (manifestSha === undefined) {
          this.#violations.push({
            kind: "missing_prompt",
            detail: `${formatLocation(at())} has no row in ${this.#src.prompts}`,
          });
        } else if (manifestSha !== g.prompt_sha256) {
          const line = this.#promptLines[manifest!];
          this.#violations.push({
            kind: "prompt_digest_mismatch",
            detail:
              `${formatLocation(at())}: prompt_sha256 ${g.prompt_sha256!.slice(0, 12)}… differs ` +
              `from ${this.#src.prompts}:${line ?? "?"} (${manifestSha.slice(0, 12)}…)`,
          });
        }
      }
      if (!state.dropped) {
        outputs.push(g.output);
        states.push(state);
      }
    }
    if (outputs.length === 0) return;
    const calls: PredictedCall[] = this.#options.decoder?.predict(outputs, this.#engine) ??
      this.#engine.parseToolCallBatch(outputs, { pairs: true, arguments: false });
    const golds = this.#golds(states);
    for (let i = 0; i < states.length; i++) {
      const state = states[i]!;
      state.record = recordOf(state, golds[i]!, calls[i]!, outputs[i]!, this.#options.detail);
      state.gold = undefined;
    }
  }

  #golds(states: readonly ExampleState[]): GoldCall[] {
    const flat = this.#engine.flattenArgumentsBatch(states.map((s) => s.gold!.canonical));
    let calls: PredictedCall[] = states.map((s, i) => {
      const f = flat[i]!;
      // Canonical arguments of a call are an object, which flattens.
      if (!f.ok) throw new Error(`Gold arguments of ${JSON.stringify(s.id)} did not flatten`);
      const { name, canonical } = s.gold!;
      return { status: "ok", name, canonicalArguments: canonical, pairs: f.pairs };
    });
    calls = this.#options.decoder?.gold(calls) ?? calls;
    return calls.map(goldCall);
  }

  finish(inputs: Partial<EvaluationReport["inputs"]> = {}): EvaluationReport {
    const records: ExampleRecord[] = [];
    const missing: string[] = [];
    for (const state of this.#order) {
      if (state.dropped) continue;
      const id = state.id;
      const at = () => ({ source: this.#src.examples, line: state.line, id });
      // The manifest is complete once generations come, so a generation's lookup stands.
      if (this.#withPrompts && !state.prompted && !this.#prompts.has(id)) {
        this.#violations.push({
          kind: "missing_prompt",
          detail: `${formatLocation(at())} has no row in ${this.#src.prompts}`,
        });
      }
      if (!state.record) {
        if (this.#options.allowMissing) missing.push(id);
        else {
          this.#violations.push({
            kind: "missing_generation",
            detail: `${formatLocation(at())} has no generation in ${this.#src.generations}`,
          });
        }
        continue;
      }
      records.push(state.record);
    }
    if (this.#violations.length > 0) throw new InvariantViolation(this.#violations);
    const report = reportFromRecords(
      records,
      this.#drops,
      this.#dropIds,
      this.#engine.name,
      inputs,
      this.#options.decoder,
    );
    // Only when some are missing: a run that misses none gives the strict run's report.
    if (missing.length > 0) {
      report.missing_generations = { count: missing.length, ids: missing.sort(compareCodePoints) };
    }
    return report;
  }
}
