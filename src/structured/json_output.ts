/**
 * JSON output metrics: JSON validity, JSON Schema compliance and unwanted extra content (with
 * required-field accuracy in `required_fields.ts`, the "Structured output" part of the reference).
 *
 * Every output is parsed through the engine (Python's `json.loads` acceptance, exact numbers),
 * one batch per stage, in one of three extraction modes:
 *
 * - `strict`: the whole output is one JSON text (surrounding whitespace allowed);
 * - `fenced`: strict, or else the output is exactly one fenced code block holding one JSON text;
 * - `lenient`: fenced, or else the first balanced `{...}`/`[...]` span in the prose (CONTRACT §1).
 *
 * @module
 */
import { checkOptions, engineOf, type WithEngine } from "../engine/mod.ts";
import { type MetricValue, metricValue } from "../stats/mod.ts";
import { materialize } from "../engine/mod.ts";
import {
  checkOutputs,
  type ExtractionMode,
  findPayloads,
  modeOf,
  type Payload,
  trimmedBounds,
} from "./_payload.ts";
import { type CompiledSchema, compileSchema, type SchemaOptions } from "../json_schema/mod.ts";

export type { ExtractionMode } from "./_payload.ts";

/** Options shared by the JSON output metrics. */
export interface JsonOutputOptions extends WithEngine {
  /** How the JSON payload is found: `strict` (default), `fenced` or `lenient`. */
  mode?: ExtractionMode;
}

/** Where the payloads of a batch of outputs were found, and why the others failed. */
export interface PayloadCounts {
  /** The whole output was the JSON text. */
  whole: number;
  /** The JSON was the single fenced code block. */
  fenced: number;
  /** The JSON was embedded in prose (lenient mode). */
  embedded: number;
  /** No JSON payload was found at all. */
  noJson: number;
  /** A payload was found but is not valid JSON. */
  invalidJson: number;
}

/** {@linkcode jsonValidity}'s result: the rate and where payloads were found. */
export type JsonValidityResult = MetricValue & { details: PayloadCounts };

/** {@linkcode jsonSchemaCompliance}'s result. */
export type JsonSchemaComplianceResult = MetricValue & {
  details: PayloadCounts & {
    /** Outputs that parsed but failed the schema. */
    schemaViolations: number;
    /** For failing outputs, how often each keyword location failed first. */
    firstErrors: Record<string, number>;
  };
};

/** {@linkcode extraContentRate}'s result. */
export type ExtraContentResult = MetricValue & {
  details: {
    /** Outputs whose payload was a fenced block (the fence itself is extra content). */
    fenced: number;
    /** Outputs with prose around an embedded payload. */
    prose: number;
    /** Outputs with text but no JSON payload at all (all of it is extra content). */
    noPayload: number;
  };
};

function countPayloads(payloads: readonly Payload[]): PayloadCounts {
  const c: PayloadCounts = { whole: 0, fenced: 0, embedded: 0, noJson: 0, invalidJson: 0 };
  for (const p of payloads) {
    if (p.ok) c[p.source]++;
    else if (p.found) c.invalidJson++;
    else c.noJson++;
  }
  return c;
}

/**
 * JSON validity: the share of outputs whose payload parses as JSON.
 *
 * @param outputs Model outputs.
 * @param options `mode` (`strict`, `fenced` or `lenient`) and the engine.
 * @returns The rate, with where payloads were found and why the others failed.
 * @throws {TypeError} If an output is not a string, or the options are not an object.
 * @throws {RangeError} If `mode` is unknown.
 *
 * @example The reference's outputs in fenced mode
 * ```ts
 * import { jsonValidity } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const fence = "`".repeat(3);
 * const outputs = ['{"answer": 18}', `${fence}json\n{"answer": 7}\n${fence}`, "Answer: 41"];
 * const r = jsonValidity(outputs, { mode: "fenced" });
 * assertEquals([r.numerator, r.denominator], [2, 3]);
 * assertEquals(jsonValidity(outputs).numerator, 1);
 * ```
 */
export function jsonValidity(
  outputs: readonly string[],
  options?: JsonOutputOptions,
): JsonValidityResult {
  checkOptions(options);
  checkOutputs(outputs);
  const mode = modeOf(options);
  const payloads = findPayloads(outputs, mode, engineOf(options?.engine));
  const details = countPayloads(payloads);
  const ok = details.whole + details.fenced + details.embedded;
  return { ...metricValue(ok, outputs.length), details };
}

function isCompiled(schema: unknown): schema is CompiledSchema {
  return typeof schema === "object" && schema !== null &&
    typeof (schema as CompiledSchema).isValid === "function" &&
    typeof (schema as CompiledSchema).validate === "function";
}

/**
 * JSON Schema compliance: the share of outputs whose payload parses and validates against a
 * JSON Schema (draft 2020-12, see `@assay/assay/json-schema`).
 *
 * The schema is compiled once. Payload numbers are JS numbers when validated, so integers
 * beyond 2^53 are compared approximately.
 *
 * @param outputs Model outputs.
 * @param schema A JSON Schema, or one compiled with `compileSchema`.
 * @param options `mode`, the engine and the schema options (e.g. `formatAssertion`).
 * @returns The rate; `details` counts parse failures, schema violations and first errors.
 * @throws {TypeError} If an output is not a string, or the options are not an object.
 * @throws {RangeError} If `mode` is unknown.
 * @throws {SchemaError} If the schema is invalid or uses an unknown keyword.
 *
 * @example
 * ```ts
 * import { jsonSchemaCompliance } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const schema = {
 *   type: "object",
 *   properties: { answer: { type: "integer" } },
 *   required: ["answer"],
 * };
 * const fence = "`".repeat(3);
 * const outputs = ['{"answer": 18}', `${fence}json\n{"answer": "7"}\n${fence}`, "Answer: 41"];
 * const r = jsonSchemaCompliance(outputs, schema, { mode: "fenced" });
 * assertEquals([r.numerator, r.denominator], [1, 3]);
 * assertEquals(r.details.firstErrors, { "/properties/answer/type": 1 });
 * ```
 */
export function jsonSchemaCompliance(
  outputs: readonly string[],
  schema: unknown,
  options?: JsonOutputOptions & SchemaOptions,
): JsonSchemaComplianceResult {
  checkOptions(options);
  checkOutputs(outputs);
  const mode = modeOf(options);
  const compiled = isCompiled(schema) ? schema : compileSchema(schema, {
    ...(options?.formatAssertion !== undefined && { formatAssertion: options.formatAssertion }),
    ...(options?.unknownKeywords !== undefined && { unknownKeywords: options.unknownKeywords }),
  });
  const payloads = findPayloads(outputs, mode, engineOf(options?.engine));
  const counts = countPayloads(payloads);
  let valid = 0;
  let schemaViolations = 0;
  const firstErrors: Record<string, number> = Object.create(null);
  for (const p of payloads) {
    if (!p.ok) continue;
    const value = materialize(p.canonical);
    if (compiled.isValid(value)) {
      valid++;
      continue;
    }
    schemaViolations++;
    const first = compiled.validate(value).errors[0];
    const at = first?.keywordLocation ?? "";
    firstErrors[at] = (firstErrors[at] ?? 0) + 1;
  }
  return {
    ...metricValue(valid, outputs.length),
    details: { ...counts, schemaViolations, firstErrors: sortedRecord(firstErrors) },
  };
}

// The keys sorted, each an own property (fromEntries defines them: "__proto__" stays a key).
function sortedRecord<T>(r: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(r).sort().map((k) => [k, r[k]!]));
}

function hasNonWs(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
  }
  return false;
}

/**
 * Unwanted extra-content rate: the share of outputs holding text beyond the JSON payload, such
 * as prose or code fences around JSON that should stand alone.
 *
 * The payload is located as in `lenient` mode, whether or not it then parses. Surrounding
 * whitespace is never extra; a fence is. An output with text but no payload is all extra
 * content; an empty output has none.
 *
 * @param outputs Model outputs.
 * @param options The engine.
 * @returns The rate over all outputs, with counts of fences, prose and payload-free outputs.
 * @throws {TypeError} If an output is not a string.
 *
 * @example
 * ```ts
 * import { extraContentRate } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const fence = "`".repeat(3);
 * const r = extraContentRate(['{"answer": 18}', `${fence}json\n{"answer": 7}\n${fence}`, "Answer: 41"]);
 * assertEquals([r.numerator, r.denominator], [2, 3]);
 * assertEquals(r.details, { fenced: 1, prose: 0, noPayload: 1 });
 * ```
 */
export function extraContentRate(
  outputs: readonly string[],
  options?: WithEngine,
): ExtraContentResult {
  checkOptions(options);
  checkOutputs(outputs);
  const payloads = findPayloads(outputs, "lenient", engineOf(options?.engine));
  const details = { fenced: 0, prose: 0, noPayload: 0 };
  for (let i = 0; i < outputs.length; i++) {
    const text = outputs[i]!;
    const p = payloads[i]!;
    if (!p.ok && !p.found) {
      const [s, e] = trimmedBounds(text);
      if (s < e) details.noPayload++;
      continue;
    }
    if (p.ok && p.source === "fenced") {
      details.fenced++;
      continue;
    }
    if (hasNonWs(text, 0, p.start) || hasNonWs(text, p.end, text.length)) details.prose++;
  }
  return {
    ...metricValue(details.fenced + details.prose + details.noPayload, outputs.length),
    details,
  };
}
