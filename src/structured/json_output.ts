/**
 * JSON output metrics: JSON validity, JSON Schema compliance, unwanted extra content and
 * required-field accuracy (the "Structured output" part of the reference).
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
import { getDefaultEngine, type WithEngine } from "../engine/mod.ts";
import { type MetricValue, metricValue } from "../stats/mod.ts";
import { materialize } from "../engine/mod.ts";
import {
  EXTRACTION_MODES,
  type ExtractionMode,
  findPayloads,
  type Payload,
  trimmedBounds,
} from "./_payload.ts";
import {
  canonicalLiteral,
  lookupCanonical,
  numericForm,
  splitDottedPath,
} from "./canonical_path.ts";
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

/** {@linkcode requiredFieldAccuracy}'s result. */
export type RequiredFieldResult = MetricValue & {
  details: {
    /** Expected fields absent from a parsed output. */
    missing: number;
    /** Expected fields present with another value. */
    wrongValue: number;
    /** Expected fields of outputs that did not parse. */
    unparseable: number;
    /** Accuracy of each dotted path, pooled over the examples that expect it. */
    byField: Record<string, MetricValue>;
  };
};

function checkOutputs(outputs: readonly string[], what = "outputs"): void {
  if (!Array.isArray(outputs)) throw new TypeError(`Expected ${what} to be an array of strings`);
  for (let i = 0; i < outputs.length; i++) {
    if (typeof outputs[i] !== "string") {
      throw new TypeError(`Expected a string in ${what} at index ${i}, got ${typeof outputs[i]}`);
    }
  }
}

function modeOf(options: JsonOutputOptions | undefined): ExtractionMode {
  const mode = options?.mode ?? "strict";
  if (!EXTRACTION_MODES.includes(mode)) {
    throw new RangeError(
      `Unknown mode ${JSON.stringify(mode)}: expected one of ${EXTRACTION_MODES.join(", ")}`,
    );
  }
  return mode;
}

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
 * @throws {TypeError} If an output is not a string.
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
  checkOutputs(outputs);
  const mode = modeOf(options);
  const payloads = findPayloads(outputs, mode, options?.engine ?? getDefaultEngine());
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
 * @throws {TypeError} If an output is not a string.
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
  checkOutputs(outputs);
  const mode = modeOf(options);
  const compiled = isCompiled(schema) ? schema : compileSchema(schema, {
    ...(options?.formatAssertion !== undefined && { formatAssertion: options.formatAssertion }),
    ...(options?.unknownKeywords !== undefined && { unknownKeywords: options.unknownKeywords }),
  });
  const payloads = findPayloads(outputs, mode, options?.engine ?? getDefaultEngine());
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

function sortedRecord<T>(r: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(r).sort()) {
    Object.defineProperty(out, k, {
      value: r[k],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
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
  checkOutputs(outputs);
  const payloads = findPayloads(outputs, "lenient", options?.engine ?? getDefaultEngine());
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

/** Options of {@linkcode requiredFieldAccuracy}. */
export interface RequiredFieldOptions extends JsonOutputOptions {
  /**
   * `exact` (default): values compare as canonical JSON, so `1` and `1.0` differ (CONTRACT §2).
   * `numeric`: numbers compare by value, so `1`, `1.0` and `1e0` agree; `true` still differs
   * from `1`.
   */
  numbers?: "exact" | "numeric";
  /**
   * The expected values are JSON texts (strings) rather than values, so that `5.0` or a
   * 30-digit integer read from a file keeps its exact form. Default false.
   */
  valuesAsJson?: boolean;
}

/**
 * Required-field accuracy: the share of expected fields present in the parsed output with the
 * expected value, pooled over all examples. A missing field or an unparseable output counts as
 * wrong.
 *
 * Each example expects an object mapping dotted paths to values: `{"user.name": "Ada",
 * "items.0.id": 3}`. A segment indexes an array when it is a decimal index, and is a key
 * otherwise; write `\.` for a dot inside a key. Values compare as canonical JSON.
 *
 * @param expected Per example, the expected value of each dotted path.
 * @param outputs Model outputs, one per example.
 * @param options `mode`, `numbers` and the engine.
 * @returns The pooled rate; `details` splits the misses and gives each field's accuracy.
 * @throws {TypeError} If an expected entry is not an object of JSON values, or an output is not a string.
 * @throws {RangeError} If the lists differ in length, a path is malformed, or `mode` is unknown.
 *
 * @example
 * ```ts
 * import { requiredFieldAccuracy } from "@assay/assay/structured";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const r = requiredFieldAccuracy(
 *   [{ answer: 18 }, { "user.name": "Ada", "user.age": 36 }],
 *   ['{"answer": 18}', '{"user": {"name": "Ada", "age": 37}}'],
 * );
 * assertEquals([r.numerator, r.denominator], [2, 3]);
 * assertEquals(r.details.byField["user.age"], { value: 0, numerator: 0, denominator: 1 });
 * ```
 */
export function requiredFieldAccuracy(
  expected: readonly Record<string, unknown>[],
  outputs: readonly string[],
  options?: RequiredFieldOptions,
): RequiredFieldResult {
  checkOutputs(outputs);
  if (!Array.isArray(expected)) {
    throw new TypeError("Expected `expected` to be an array of objects");
  }
  if (expected.length !== outputs.length) {
    throw new RangeError(
      `Expected one output per example: ${expected.length} examples, ${outputs.length} outputs`,
    );
  }
  const numbers = options?.numbers ?? "exact";
  if (numbers !== "exact" && numbers !== "numeric") {
    throw new RangeError(
      `Unknown numbers option ${JSON.stringify(numbers)}: expected exact or numeric`,
    );
  }
  const mode = modeOf(options);
  const engine = options?.engine ?? getDefaultEngine();

  // Every expected value goes through the engine, in one batch.
  interface Field {
    example: number;
    path: string;
    segments: string[];
    literals: string[];
    valueIndex: number;
  }
  const fields: Field[] = [];
  const texts: string[] = [];
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    if (typeof e !== "object" || e === null || Array.isArray(e)) {
      throw new TypeError(`Expected an object of dotted paths at index ${i}`);
    }
    for (const path of Object.keys(e)) {
      const segments = splitDottedPath(path);
      const json = options?.valuesAsJson ? jsonText(e[path], i, path) : toJson(e[path], i, path);
      const valueIndex = texts.push(json) - 1;
      fields.push({
        example: i,
        path,
        segments,
        literals: segments.map(canonicalLiteral),
        valueIndex,
      });
    }
  }
  const canon = engine.canonicalizeBatch(texts).map((r, k) => {
    if (!r.ok) {
      const f = fields.find((f) => f.valueIndex === k)!;
      throw new TypeError(
        `Expected a JSON text for ${JSON.stringify(f.path)} at index ${f.example}, got ` +
          JSON.stringify(texts[k]!.slice(0, 60)),
      );
    }
    return r.canonical;
  });
  const payloads = findPayloads(outputs, mode, engine);
  const norm = numbers === "numeric" ? numericForm : (t: string) => t;

  let hit = 0;
  const details = { missing: 0, wrongValue: 0, unparseable: 0 };
  const byField: Record<string, [number, number]> = Object.create(null);
  for (const f of fields) {
    const tally = byField[f.path] ??= [0, 0];
    tally[1]++;
    const p = payloads[f.example]!;
    if (!p.ok) {
      details.unparseable++;
      continue;
    }
    const got = lookupCanonical(p.canonical, f.segments, f.literals);
    if (got === undefined) details.missing++;
    else if (norm(got) !== norm(canon[f.valueIndex]!)) details.wrongValue++;
    else {
      hit++;
      tally[0]++;
    }
  }
  const fieldRates: Record<string, MetricValue> = {};
  for (const path of Object.keys(byField).sort()) {
    const [n, d] = byField[path]!;
    Object.defineProperty(fieldRates, path, {
      value: metricValue(n, d),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ...metricValue(hit, fields.length), details: { ...details, byField: fieldRates } };
}

function jsonText(value: unknown, index: number, path: string): string {
  if (typeof value !== "string") {
    throw new TypeError(
      `Expected a JSON text for ${JSON.stringify(path)} at index ${index}, found ${typeof value}`,
    );
  }
  return value;
}

// JSON text of an expected value; NaN and the infinities are written as Python does.
function toJson(value: unknown, index: number, path: string): string {
  const bad = (what: string): never => {
    throw new TypeError(
      `Expected a JSON value for ${JSON.stringify(path)} at index ${index}, found ${what}`,
    );
  };
  return JSON.stringify(value, (_key, v) => {
    if (v === undefined) return bad("undefined");
    if (typeof v === "function" || typeof v === "symbol" || typeof v === "bigint") {
      return bad(`a ${typeof v}`);
    }
    if (typeof v === "number" && !Number.isFinite(v)) return bad(String(v));
    return v;
  }) ?? bad("undefined");
}
