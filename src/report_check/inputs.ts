/**
 * The input files a BFCL or IFEval report was scored against, as their SHA-256 digests: IFEval's
 * input file (the prompts and their instructions), and each BFCL category's question and answer
 * files; the suite file a suite run was scored under, and its goldens and catalog files; and a
 * structured report's expected rows and schema, with its extraction mode. Two reports scored against different
 * inputs (or suites) cannot be compared, whatever their entries' ids say: `bfcl compare`,
 * `ifeval compare` and the gate refuse them. A report that records no
 * digest (written before 2026-12-05, or built in memory without them) is read, with a note.
 *
 * @module
 */
import type { GateDifference } from "../compare/mod.ts";
import { sha256Digest } from "../engine/mod.ts";

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === "object" && x !== null;

/** The digest of one input file. */
export interface FileDigest {
  /** SHA-256 (lowercase hex) of the file's bytes. */
  sha256: string;
}

/** An input file as a room reads it (its text), with its bytes when known. */
export interface DigestedSource {
  /** The file's text. */
  text: string;
  /** The file's bytes, when known; else the digest is of the text's UTF-8. */
  bytes?: Uint8Array;
}

const encoder = new TextEncoder();

/**
 * The SHA-256 of a source's bytes (or of its text's UTF-8, when its bytes are not given), by
 * Web Crypto where the runtime has it (the engine's `sha256Digest`, the evaluation room's path).
 *
 * @param source The file.
 * @returns Its digest.
 * @throws {never} Never.
 *
 * @example
 * ```ts
 * import { digestSource } from "@assay/assay/report-check";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(await digestSource({ text: "abc" }), {
 *   sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
 * });
 * ```
 */
export async function digestSource(source: DigestedSource): Promise<FileDigest> {
  return { sha256: await sha256Digest(source.bytes ?? encoder.encode(source.text)) };
}

/** What a report's inputs were: each compared file's digest (null: no such file), by name, and
 * whether the report records them all (a merged BFCL report may hold older categories). */
interface Digests {
  files: Map<string, string | null>;
  complete: boolean;
  /** What an older report of its kind lacks, and what was therefore not compared. */
  lacks: string[];
}

// What an older report lacks, and what was therefore not compared: for the note.
const INPUTS_SINCE_05 = [
  "no input digest (written before 2026-12-05, or built without one)",
  "inputs",
];
const INPUTS_SINCE_06 = [
  "no goldens' or catalog's digest (written before 2026-12-06, or built without them)",
  "goldens and catalog",
];
const SETTINGS_SINCE_06 = ["no settings (written before 2026-12-06)", "settings"];

const sha = (x: unknown): string | null =>
  isObject(x) && typeof x.sha256 === "string" ? x.sha256 : null;

// Each compared input of a report, under a name that says what it is; undefined for a report of
// another kind.
function digestsOf(report: unknown): Digests | undefined {
  if (!isObject(report)) return undefined;
  const files = new Map<string, string | null>();
  if (report.schema === "assay.suite_run.v1") {
    // The suite decides every score and verdict (metrics, params, thresholds, rubrics); the
    // goldens and the catalog are what they are scored against (recorded since 2026-12-06).
    files.set("suite files'", typeof report.suite_sha256 === "string" ? report.suite_sha256 : null);
    if (isObject(report.inputs)) {
      files.set("goldens files'", sha(report.inputs.goldens));
      files.set("catalog files'", sha(report.inputs.catalog));
    }
    return { files, complete: isObject(report.inputs), lacks: INPUTS_SINCE_06 };
  }
  if (report.schema === "assay.structured.v1") {
    // The expected rows and the schema are the gold; the outputs are the model's, and differ.
    const inputs = isObject(report.inputs) ? report.inputs : {};
    files.set("expected files'", sha(inputs.expected));
    files.set("schema files'", sha(inputs.schema));
    // Its settings (numbers, match, ...) are compared as its inputs are (settingDifferences).
    return { files, complete: isObject(report.settings), lacks: SETTINGS_SINCE_06 };
  }
  if (report.schema === "assay.ifeval.v1") {
    const inputs = report.inputs;
    if (isObject(inputs)) files.set("input files'", sha(inputs.input));
    return { files, complete: isObject(inputs), lacks: INPUTS_SINCE_05 };
  }
  if (report.schema !== "assay.bfcl.v1" || !Array.isArray(report.categories)) return undefined;
  let complete = true;
  for (const c of report.categories as unknown[]) {
    if (!isObject(c) || !isObject(c.inputs)) {
      complete = false;
      continue;
    }
    files.set(`${c.category} question files'`, sha(c.inputs.questions));
    files.set(`${c.category} answer files'`, sha(c.inputs.answers));
  }
  return { files, complete, lacks: INPUTS_SINCE_05 };
}

const short = (digest: string | null) => digest === null ? "none" : `${digest.slice(0, 12)}…`;

/**
 * How the inputs of two BFCL, IFEval, suite run or structured reports differ: each compared file
 * (IFEval's input file, each shared BFCL category's question and answer files, a suite run's suite
 * file and, where both record them, its goldens and catalog files, a structured report's expected
 * and schema files, `none` where it had none) whose SHA-256
 * is not the same in both; each shared BFCL category whose results file is the same in both but
 * was decoded differently (decoder or name rewrite): one model scored twice, not two models; and
 * structured reports of two extraction modes, or of one outputs file read with two call formats.
 * Reports of other kinds, and a report that records no digest, give none (see
 * {@linkcode unrecordedInputs}).
 *
 * @param a Report A (or the base).
 * @param b Report B (or the candidate).
 * @param names How the two are called in the message (default `A` and `B`).
 * @returns One difference (`examples`) per file, naming both digests cut short, and per category
 *   decoded two ways.
 * @throws {never} Never.
 *
 * @example Two IFEval reports of different input files
 * ```ts
 * import { inputDifferences } from "@assay/assay/report-check";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const report = (sha256: string) => ({ schema: "assay.ifeval.v1", inputs: { input: { sha256 } } });
 * deepStrictEqual(inputDifferences(report("a".repeat(64)), report("a".repeat(64))), []);
 * deepStrictEqual(inputDifferences(report("a".repeat(64)), report("b".repeat(64))), [{
 *   kind: "examples",
 *   detail: "input files' sha256 differ: A aaaaaaaaaaaa…, B bbbbbbbbbbbb…",
 * }]);
 * ```
 */
export function inputDifferences(
  a: unknown,
  b: unknown,
  names: readonly [string, string] = ["A", "B"],
): GateDifference[] {
  const da = digestsOf(a)?.files;
  const db = digestsOf(b)?.files;
  if (da === undefined || db === undefined) return [];
  const out: GateDifference[] = [];
  for (const [file, x] of da) {
    if (!db.has(file) || db.get(file) === x) continue;
    out.push({
      kind: "examples",
      detail: `${file} sha256 differ: ${names[0]} ${short(x)}, ${names[1]} ${short(db.get(file)!)}`,
    });
  }
  out.push(...decodingDifferences(a, b, names));
  return out;
}

/**
 * How two reports of one kind were scored differently, beyond their input files: BFCL's and
 * IFEval's checkers, BFCL's matching (greedy where a report records none), and a structured
 * report's extraction mode, a scoring rule, its call format where both read one outputs file (a
 * decoder is the model's format, so two models may differ in it, but one model's outputs read two
 * ways are not two models), and each of its `settings` (numbers, match, ordered, format,
 * format_assertion) where both reports record them and computed a metric it changes; and whether
 * a suite run's judges ran (its `judge`). `bfcl compare`, `ifeval compare` and the gate refuse each.
 *
 * @param a Report A (or the base).
 * @param b Report B (or the candidate).
 * @param names How the two are called in the message (default `A` and `B`).
 * @returns One difference per setting, naming both values.
 * @throws {never} Never.
 *
 * @example Two BFCL reports, one matched greedily
 * ```ts
 * import { settingDifferences } from "@assay/assay/report-check";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const report = (matching?: string) =>
 *   ({ schema: "assay.bfcl.v1", checker: "bfcl.ast@2024-08", matching });
 * deepStrictEqual(settingDifferences(report(), report("greedy")), []);
 * deepStrictEqual(settingDifferences(report(), report("optimal"), ["base", "candidate"]), [
 *   { kind: "matching", detail: "matchings differ: base greedy, candidate optimal" },
 * ]);
 * ```
 */
export function settingDifferences(
  a: unknown,
  b: unknown,
  names: readonly [string, string] = ["A", "B"],
): GateDifference[] {
  if (!isObject(a) || !isObject(b) || a.schema !== b.schema) return [];
  const out: GateDifference[] = [];
  const differ = (kind: GateDifference["kind"], what: string, x: unknown, y: unknown) => {
    if (x !== y) out.push({ kind, detail: `${what} differ: ${names[0]} ${x}, ${names[1]} ${y}` });
  };
  if (a.schema === "assay.bfcl.v1" || a.schema === "assay.ifeval.v1") {
    differ("checker", "checkers", a.checker, b.checker);
  }
  if (a.schema === "assay.bfcl.v1") {
    differ("matching", "matchings", a.matching ?? "greedy", b.matching ?? "greedy");
  }
  // A suite run whose judges were skipped passes and scores its runs on fewer criteria.
  if (a.schema === "assay.suite_run.v1") differ("examples", "judges", a.judge, b.judge);
  if (a.schema !== "assay.structured.v1") return out;
  const quoted = (x: unknown) => JSON.stringify(x ?? null);
  differ("examples", "extraction modes", quoted(a.mode), quoted(b.mode));
  const outputs = (r: Json) => isObject(r.inputs) ? sha(r.inputs.outputs) : null;
  const decoder = (r: Json) => quoted(isObject(r.call_format) ? r.call_format.decoder : null);
  if (outputs(a) !== null && outputs(a) === outputs(b)) {
    differ("examples", "the same outputs' call formats", decoder(a), decoder(b));
  }
  // Each setting both reports record, where both computed a metric it changes.
  const [sa, sb] = [a.settings, b.settings];
  if (!isObject(sa) || !isObject(sb)) return out;
  const computed = (m: string) => [a, b].every((r) => isObject(r.metrics) && m in r.metrics);
  for (const [key, metrics] of STRUCTURED_SETTINGS) {
    if (metrics.some(computed)) {
      differ("examples", `${key} settings`, quoted(sa[key]), quoted(sb[key]));
    }
  }
  return out;
}

// A structured report's settings, and the metrics each changes.
const STRUCTURED_SETTINGS: [string, string[]][] = [
  ["numbers", ["required_field_accuracy"]],
  ["match", ["tool_argument_accuracy", "tool_call_f1"]],
  ["ordered", ["tool_selection_accuracy"]],
  ["format", ["format_compliance"]],
  ["format_assertion", ["json_schema_compliance"]],
];

// A BFCL category's results file and how it was decoded, where the report records both.
function decodings(report: unknown): Map<string, { results: string; decoding: string }> {
  const out = new Map<string, { results: string; decoding: string }>();
  if (!isObject(report) || report.schema !== "assay.bfcl.v1") return out;
  for (const c of Array.isArray(report.categories) ? report.categories as unknown[] : []) {
    if (!isObject(c) || !isObject(c.inputs) || typeof c.decoder !== "string") continue;
    const results = sha(c.inputs.results);
    if (results === null) continue;
    const rewrite = c.underscoreToDot === true ? "with" : "without";
    out.set(String(c.category), { results, decoding: `${c.decoder} ${rewrite} underscore-to-dot` });
  }
  return out;
}

// The same results file decoded two ways is one model scored twice, not two models: refused.
// Two models' results, decoded as each model's handler needs, are what a comparison is for.
function decodingDifferences(
  a: unknown,
  b: unknown,
  names: readonly [string, string],
): GateDifference[] {
  const db = decodings(b);
  const out: GateDifference[] = [];
  for (const [category, x] of decodings(a)) {
    const y = db.get(category);
    if (y === undefined || y.results !== x.results || y.decoding === x.decoding) continue;
    out.push({
      kind: "examples",
      detail: `${category}: the same results decoded differently: ${names[0]} ${x.decoding}, ` +
        `${names[1]} ${y.decoding}`,
    });
  }
  return out;
}

/**
 * Which of two BFCL or IFEval reports records no input digest (for BFCL, for some of its
 * categories), which of two suite runs no goldens' and catalog's digests, or which of two
 * structured reports no settings, so that these could not be checked against the other's: a note
 * for the comparison, or undefined when both record them (or the reports are of another kind).
 *
 * @param a Report A (or the base).
 * @param b Report B (or the candidate).
 * @param names How the two are called (default `A` and `B`).
 * @returns The note, which says to score the report again.
 * @throws {never} Never.
 *
 * @example
 * ```ts
 * import { unrecordedInputs } from "@assay/assay/report-check";
 * import { match, strictEqual } from "node:assert/strict";
 *
 * const recorded = { schema: "assay.ifeval.v1", inputs: { input: { sha256: "a".repeat(64) } } };
 * strictEqual(unrecordedInputs(recorded, recorded), undefined);
 * match(unrecordedInputs(recorded, { schema: "assay.ifeval.v1" })!, /^report B records no input digest/);
 * ```
 */
export function unrecordedInputs(
  a: unknown,
  b: unknown,
  names: readonly [string, string] = ["A", "B"],
): string | undefined {
  const old = [a, b].flatMap((r, i) => {
    const d = digestsOf(r);
    return d?.complete === false ? [{ name: names[i]!, lacks: d.lacks }] : [];
  });
  if (old.length === 0) return undefined;
  const [who, it, its] = old.length === 2
    ? [`reports ${old.map((o) => o.name).join(" and ")} record`, "them", "their"]
    : [`report ${old[0]!.name} records`, "it", "its"];
  const [lacks, what] = old[0]!.lacks;
  return `${who} ${lacks}: ${its} ${what} were not compared; score ${it} again to record them`;
}
