// The harness of kernel_rules_test.ts: one instance of the Wasm module, and each rule of the
// scoring kernel run on one input through the entry points of assembly/rules.ts (the field checks
// through the kernel's own phases, on a job made for the line), inputs written into linear memory
// and results read back.
import { createEngine, type Engine } from "../../src/engine/mod.ts";
import type { ParseStatus } from "../../src/engine/mod.ts";
import { DROP_REASONS } from "../../src/evaluation/mod.ts";

interface RuleExports {
  memory: WebAssembly.Memory;
  kStart(prompts: number): void;
  kInput(cap: number): number;
  kExamples(len: number, firstLine: number): number;
  kFreeze(): number;
  kPrompts(len: number, firstLine: number): number;
  kGenerations(len: number, firstLine: number): number;
  ruleScanLine(phase: number, len: number): number;
  ruleDropKind(len: number): number;
  ruleScore(len: number): number;
  ruleRecordLine(
    idLen: number,
    langLen: number,
    rootLen: number,
    status: number,
    nameMatch: number,
    argsMatch: number,
    matched: number,
    predicted: number,
    gold: number,
  ): number;
  DROPS: WebAssembly.Global;
}

/** The three files' lines, as the kernel's phases number them. */
export type Phase = "examples" | "prompts" | "generations";
const PHASES: readonly Phase[] = ["examples", "prompts", "generations"];

/** The fields each phase's lines are scanned for, in the kernel's order. */
export const PHASE_FIELDS: Record<Phase, readonly string[]> = {
  examples: ["example_id", "language", "root_id", "target"],
  prompts: ["example_id", "prompt_sha256", "prompt"],
  generations: ["example_id", "prompt_sha256", "output"],
};

/** What the kernel does with a line: reads it, gives the run back, or skips it as blank. */
export type Verdict = "read" | "give back" | "blank";
const VERDICTS: readonly Verdict[] = ["read", "give back", "blank"];

/** The kernel's line scan of one line. */
export interface KernelScan {
  verdict: Verdict;
  /** Each named field's raw value bytes (`undefined` when absent). */
  fields: (Uint8Array | undefined)[];
  /** The prompt or output as the scan decoded it (prompts and generations), and its flag. */
  decoded: Uint8Array;
  decodedLone: boolean;
  /** Whether invalid UTF-8 in the output was replaced (generations only). */
  decodedReplaced: boolean;
  /**
   * Whether `decoded` is the canonical text of an output written as a JSON object or array
   * (generations only), as the general reader reads such an output.
   */
  value: boolean;
}

/** Target kinds, as the kernel's entries and the drop summary name them. */
export type TargetKind =
  | "kept"
  | "multiple_calls"
  | "empty_target"
  | "malformed_target"
  | "unread"
  | "field";
// Kind k + 1 is drop reason k, in the order reports list them (and the kernel counts them).
const KINDS: readonly TargetKind[] = ["kept", ...DROP_REASONS];

/** The kernel's reading of an example's target. */
export interface KernelTarget {
  kind: TargetKind;
  /** For a kept target: its gold's name literal, canonical arguments and pair count. */
  gold?: { name: string; canonical: string; pairs: number };
}

/** One example's record, as both sides score it. */
export interface CallRecord {
  status: ParseStatus;
  name_match: boolean;
  arguments_match: boolean;
  matched_pairs: number;
  predicted_pairs: number;
  gold_pairs: number;
}

const STATUSES: readonly ParseStatus[] = ["ok", "no_json", "invalid_json", "invalid_shape"];
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One instance of the module, running the kernel's rules one input at a time. */
export class KernelRules {
  readonly module: WebAssembly.Module;
  readonly #ex: RuleExports;
  /** Whether the job holds a kept gold (setGold). */
  #gold: string | undefined;

  /** @param module A module compiled from assembly/test_entry.ts (tests/_test_wasm.ts). */
  constructor(module: WebAssembly.Module) {
    this.module = module;
    this.#ex = new WebAssembly.Instance(module, {}).exports as unknown as RuleExports;
  }

  #u32(at: number, k: number): number {
    return new Uint32Array(this.#ex.memory.buffer, at, k + 1)[k]!;
  }

  #bytes(at: number, n: number): Uint8Array {
    return new Uint8Array(this.#ex.memory.buffer, at, n).slice();
  }

  /** Writes `bytes` where the kernel takes its next chunk; their length. */
  #write(bytes: Uint8Array): number {
    const at = this.#ex.kInput(bytes.length);
    new Uint8Array(this.#ex.memory.buffer, at, bytes.length).set(bytes);
    return bytes.length;
  }

  /** The line scan of `phase` on one line's bytes (no LF). */
  scanLine(phase: Phase, line: Uint8Array): KernelScan {
    const ex = this.#ex;
    ex.kStart(0);
    const r = ex.ruleScanLine(PHASES.indexOf(phase), this.#write(line));
    const fields: (Uint8Array | undefined)[] = [];
    for (let k = 0; k < PHASE_FIELDS[phase].length; k++) {
      const s = this.#u32(r, 1 + 2 * k);
      const e = this.#u32(r, 2 + 2 * k);
      fields.push(s === 0 ? undefined : this.#bytes(s, e - s));
    }
    return {
      verdict: VERDICTS[this.#u32(r, 0)]!,
      fields,
      decoded: this.#bytes(this.#u32(r, 9), this.#u32(r, 10)),
      decodedLone: this.#u32(r, 11) !== 0,
      decodedReplaced: this.#u32(r, 12) !== 0,
      value: this.#u32(r, 13) !== 0,
    };
  }

  /** The kind of the target of an example line (the line's bytes, no LF). */
  dropKind(line: Uint8Array): KernelTarget {
    const ex = this.#ex;
    ex.kStart(0);
    const r = ex.ruleDropKind(this.#write(line));
    const kind = this.#u32(r, 0);
    if (kind === 0x800) return { kind: "unread" };
    if (kind >= 0x1000) return { kind: "field" };
    const out: KernelTarget = { kind: KINDS[kind]! };
    if (kind === 0) {
      out.gold = {
        name: decoder.decode(this.#bytes(this.#u32(r, 1), this.#u32(r, 2))),
        canonical: decoder.decode(this.#bytes(this.#u32(r, 3), this.#u32(r, 4))),
        pairs: this.#u32(r, 5),
      };
    }
    return out;
  }

  /**
   * The field checks of `phase` on one line, run by the kernel's phases on a job made for it: an
   * examples line is read by kExamples and kFreeze; a prompts or generations line by kPrompts or
   * kGenerations, after an examples file of one example (dropped, so that nothing is scored) whose
   * id is the line's id literal `idLiteral`, when the examples phase takes it, so that the join
   * finds it. Returns the kernel's code: 0 when it takes the line, else why it gives the run back.
   */
  fields(phase: Phase, line: Uint8Array, idLiteral: string | undefined): number {
    const ex = this.#ex;
    if (phase === "examples") {
      ex.kStart(0);
      const code = ex.kExamples(this.#write(line), 1);
      return code !== 0 ? code : ex.kFreeze();
    }
    const prompts = phase === "prompts" ? 1 : 0;
    const example = (id: string) =>
      encoder.encode(`{"example_id":${id},"language":"l","target":"not a call"}`);
    ex.kStart(prompts);
    if (idLiteral === undefined || ex.kExamples(this.#write(example(idLiteral)), 1) !== 0) {
      ex.kStart(prompts);
      if (ex.kExamples(this.#write(example('"no such id"')), 1) !== 0) {
        throw new Error("the kernel refused the harness's example");
      }
    }
    const frozen = ex.kFreeze();
    if (frozen !== 0) throw new Error(`the kernel refused the harness's examples (${frozen})`);
    const len = this.#write(line);
    return phase === "prompts" ? ex.kPrompts(len, 1) : ex.kGenerations(len, 1);
  }

  /**
   * Starts a job whose one example has the gold `target` (a JSON text): "kept", the drop reason,
   * or "give back" when the examples phase gives the run back.
   */
  setGold(target: string): "kept" | "dropped" | "give back" {
    const ex = this.#ex;
    this.#gold = undefined;
    ex.kStart(0);
    const line = `{"example_id":"g","language":"l","target":${target}}`;
    if (ex.kExamples(this.#write(wtf8(line)), 1) !== 0 || ex.kFreeze() !== 0) return "give back";
    const drops = new Uint32Array(ex.memory.buffer, ex.DROPS.value as number, 3);
    if (drops[0]! + drops[1]! + drops[2]! !== 0) return "dropped";
    this.#gold = target;
    return "kept";
  }

  /**
   * Pair matching: the record the kernel gives the output (a string, written as the scan decodes
   * it) against the job's gold.
   */
  score(output: string): CallRecord {
    if (this.#gold === undefined) throw new Error("no kept gold");
    const r = this.#ex.ruleScore(this.#write(wtf8(output)));
    if (this.#u32(r, 0) !== 1) throw new Error("the gold is not kept");
    const flags = this.#u32(r, 1);
    return {
      status: STATUSES[flags & 0xff]!,
      name_match: (flags & 0x100) !== 0,
      arguments_match: (flags & 0x200) !== 0,
      matched_pairs: this.#u32(r, 2),
      predicted_pairs: this.#u32(r, 3),
      gold_pairs: this.#u32(r, 4),
    };
  }

  /** The JSON line kRecords writes for one record, or its bail code. */
  recordLine(
    r: CallRecord & { example_id: string; language: string; root_id: string | null },
  ): string | number {
    const ex = this.#ex;
    ex.kStart(0);
    const id = encoder.encode(r.example_id);
    const lang = encoder.encode(r.language);
    const root = r.root_id === null ? new Uint8Array(0) : encoder.encode(r.root_id);
    const all = new Uint8Array(id.length + lang.length + root.length);
    all.set(id, 0);
    all.set(lang, id.length);
    all.set(root, id.length + lang.length);
    this.#write(all);
    const at = ex.ruleRecordLine(
      id.length,
      lang.length,
      r.root_id === null ? -1 : root.length,
      STATUSES.indexOf(r.status),
      r.name_match ? 1 : 0,
      r.arguments_match ? 1 : 0,
      r.matched_pairs,
      r.predicted_pairs,
      r.gold_pairs,
    );
    const code = this.#u32(at, 0);
    if (code !== 0) return code;
    return decoder.decode(this.#bytes(this.#u32(at, 1), this.#u32(at, 2)));
  }
}

/** A string's bytes as the kernel holds decoded text: UTF-8, a lone surrogate as three bytes. */
export function wtf8(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) {
      out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    } else {
      out.push(
        0xf0 | (c >> 18),
        0x80 | ((c >> 12) & 0x3f),
        0x80 | ((c >> 6) & 0x3f),
        0x80 | (c & 0x3f),
      );
    }
  }
  return new Uint8Array(out);
}

/** The default engine the general reader scores with in these tests. */
export const WASM_ENGINE: Engine = createEngine({ engine: "wasm" });
