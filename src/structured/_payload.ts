// Finds the JSON payload of a model output in one of three modes (docs/json_output.md):
//
// - strict:  the whole output is one JSON text (Python's json.loads: surrounding space, \t, \n
//            and \r are allowed).
// - fenced:  strict, or else the output (surrounding whitespace aside) is exactly one fenced code
//            block (``` or ~~~, any info string) whose content is one JSON text.
// - lenient: fenced, or else the first balanced span (CONTRACT §1) parses as JSON.
//
// Each mode accepts everything the stricter one does. Every parse goes through the engine, one
// batch per stage, so Python's acceptance and exact number semantics hold in every mode. The
// metrics' checks of their outputs and mode live here too.
import { type Engine, isJsonSpace, type JsonError } from "../engine/mod.ts";

/** How the payload is looked for. */
export type ExtractionMode = "strict" | "fenced" | "lenient";

/** The modes, strictest first. */
export const EXTRACTION_MODES: readonly ExtractionMode[] = ["strict", "fenced", "lenient"];

/** Where a payload was found. */
export type PayloadSource = "whole" | "fenced" | "embedded";

/** The payload of one output. */
export type Payload =
  | { ok: true; canonical: string; source: PayloadSource; start: number; end: number }
  | { ok: false; found: false }
  | { ok: false; found: true; start: number; end: number; error: JsonError };

/** Throws a TypeError unless `outputs` is an array of strings. */
export function checkOutputs(outputs: readonly string[], what = "outputs"): void {
  if (!Array.isArray(outputs)) throw new TypeError(`Expected ${what} to be an array of strings`);
  for (let i = 0; i < outputs.length; i++) {
    if (typeof outputs[i] !== "string") {
      throw new TypeError(`Expected a string in ${what} at index ${i}, got ${typeof outputs[i]}`);
    }
  }
}

/**
 * The extraction mode of the options (default `strict`), which their function checked first
 * (checkOptions: `jsonValidity(outputs, "fenced")` would read strictly, in silence); throws a
 * RangeError if unknown.
 */
export function modeOf(options: { mode?: ExtractionMode } | undefined): ExtractionMode {
  const mode = options?.mode ?? "strict";
  if (!EXTRACTION_MODES.includes(mode)) {
    throw new RangeError(
      `Unknown mode ${JSON.stringify(mode)}: expected one of ${EXTRACTION_MODES.join(", ")}`,
    );
  }
  return mode;
}

/** Start and end of `text` with JSON whitespace trimmed on both sides. */
export function trimmedBounds(text: string): [number, number] {
  let s = 0;
  let e = text.length;
  while (s < e && isJsonSpace(text.charCodeAt(s))) s++;
  while (e > s && isJsonSpace(text.charCodeAt(e - 1))) e--;
  return [s, e];
}

/**
 * The content bounds of the single fenced code block that makes up the whole output, or
 * undefined. The opening fence is 3 or more backticks or tildes at the start of the trimmed
 * output, then an info string to the end of the line (no backtick in it for a backtick fence).
 * The block closes at the first later line holding only a run of the same character at least as
 * long (spaces or tabs may follow); that line must end the trimmed output.
 */
export function fencedContent(text: string): [number, number] | undefined {
  const [s, e] = trimmedBounds(text);
  const fence = text.charCodeAt(s);
  if (fence !== 0x60 && fence !== 0x7e) return undefined;
  let p = s;
  while (p < e && text.charCodeAt(p) === fence) p++;
  const width = p - s;
  if (width < 3) return undefined;
  // Info string: up to the end of the line.
  const nl = text.indexOf("\n", p);
  if (nl === -1 || nl >= e) return undefined;
  if (fence === 0x60 && text.slice(p, nl).includes("`")) return undefined;
  const contentStart = nl + 1;
  // Scan the following lines for the first closing fence.
  let lineStart = contentStart;
  while (lineStart <= e) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd === -1 || lineEnd > e) lineEnd = e;
    let q = lineStart;
    while (q < lineEnd && text.charCodeAt(q) === fence) q++;
    let r = q;
    while (r < lineEnd && (text.charCodeAt(r) === 0x20 || text.charCodeAt(r) === 0x09)) r++;
    // A CR before the LF belongs to the line ending.
    if (r === lineEnd - 1 && text.charCodeAt(r) === 0x0d) r++;
    if (q - lineStart >= width && r === lineEnd) {
      // The first closing fence must be the end of the output.
      if (lineEnd !== e) return undefined;
      return [contentStart, lineStart];
    }
    if (lineEnd >= e) break;
    lineStart = lineEnd + 1;
  }
  return undefined;
}

// The whole output, when it is the payload that failed: nothing at all if it is blank.
function wholeFailure(text: string, error: JsonError): Payload {
  const [s, e] = trimmedBounds(text);
  return s === e
    ? { ok: false, found: false }
    : { ok: false, found: true, start: s, end: e, error };
}

/**
 * Finds the payload of every output, in `mode`, with one engine batch per stage.
 *
 * @param outputs Model outputs.
 * @param mode The extraction mode.
 * @param engine The engine that parses.
 * @returns One payload per output.
 */
export function findPayloads(
  outputs: readonly string[],
  mode: ExtractionMode,
  engine: Engine,
): Payload[] {
  const result: Payload[] = new Array(outputs.length);
  const whole = engine.canonicalizeBatch(outputs);
  const pending: number[] = [];
  for (let i = 0; i < outputs.length; i++) {
    const r = whole[i]!;
    if (r.ok) {
      const [s, e] = trimmedBounds(outputs[i]!);
      result[i] = { ok: true, canonical: r.canonical, source: "whole", start: s, end: e };
    } else if (mode === "strict") {
      result[i] = wholeFailure(outputs[i]!, r.error);
    } else {
      pending.push(i);
    }
  }
  if (pending.length === 0) return result;

  // Fenced blocks.
  const fencedIdx: number[] = [];
  const fencedText: string[] = [];
  const fencedAt: [number, number][] = [];
  const rest: number[] = [];
  for (const i of pending) {
    const at = fencedContent(outputs[i]!);
    if (at) {
      fencedIdx.push(i);
      fencedText.push(outputs[i]!.slice(at[0], at[1]));
      fencedAt.push(at);
    } else {
      rest.push(i);
    }
  }
  const fenced = engine.canonicalizeBatch(fencedText);
  for (let k = 0; k < fencedIdx.length; k++) {
    const i = fencedIdx[k]!;
    const r = fenced[k]!;
    const cs = fencedAt[k]![0];
    const [ts, te] = trimmedBounds(fencedText[k]!);
    if (r.ok) {
      result[i] = {
        ok: true,
        canonical: r.canonical,
        source: "fenced",
        start: cs + ts,
        end: cs + te,
      };
    } else if (mode === "fenced") {
      result[i] = ts === te
        ? { ok: false, found: false }
        : { ok: false, found: true, start: cs + ts, end: cs + te, error: r.error };
    } else {
      rest.push(i);
    }
  }
  if (mode === "fenced") {
    for (const i of rest) {
      // Only outputs whose whole text failed to parse get here.
      result[i] = wholeFailure(outputs[i]!, (whole[i] as { error: JsonError }).error);
    }
    return result;
  }

  // Lenient: the first balanced span.
  rest.sort((a, b) => a - b);
  const spans = engine.extractSpanBatch(rest.map((i) => outputs[i]!));
  const spanIdx: number[] = [];
  const spanText: string[] = [];
  const spanStart: number[] = [];
  for (let k = 0; k < rest.length; k++) {
    const i = rest[k]!;
    const sp = spans[k]!;
    if (sp.status === "found") {
      spanIdx.push(i);
      spanText.push(outputs[i]!.slice(sp.start!, sp.end!));
      spanStart.push(sp.start!);
    } else if (sp.status === "no_json") {
      result[i] = { ok: false, found: false };
    } else {
      result[i] = {
        ok: false,
        found: true,
        start: sp.start!,
        end: outputs[i]!.length,
        error: sp.error!,
      };
    }
  }
  const parsed = engine.canonicalizeBatch(spanText);
  for (let k = 0; k < spanIdx.length; k++) {
    const i = spanIdx[k]!;
    const r = parsed[k]!;
    const start = spanStart[k]!;
    const end = start + spanText[k]!.length;
    result[i] = r.ok
      ? { ok: true, canonical: r.canonical, source: "embedded", start, end }
      : { ok: false, found: true, start, end, error: r.error };
  }
  return result;
}
