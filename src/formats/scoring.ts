/**
 * A decoder made ready for `scoreJsonl` and `assay score` (`@assay/assay`'s `OutputDecoder`),
 * with the choice of how numbers compare. Scoring takes one call per output: an output that
 * decodes to several calls is `multiple_calls`, to none `no_call`, each with its reason, and
 * neither counts as valid.
 *
 * @module
 */
import { checkOptions, numericForm, PARSER_ID } from "../engine/mod.ts";
import { type OutputDecoder, type PredictedOutput, RECORD_STATUSES } from "../evaluation/mod.ts";
import { getDecoder } from "./decoders.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** Options of {@linkcode forScoring}. */
export interface ForScoringOptions {
  /**
   * `exact` (default): arguments and pairs compare as canonical text (`1` ≠ `1.0`). `numeric`:
   * numbers compare by exact value, as Python's `==` of int and float does (`150` = `150.0`,
   * `1e2` = `100`, but `12345678901234567890123` ≠ `1.2345678901234568e+22`).
   */
  numbers?: "exact" | "numeric";
}

const PARSE_STATUSES = RECORD_STATUSES.slice(0, 4);
const DECODED_STATUSES = RECORD_STATUSES;

function numericCall(c: PredictedOutput): PredictedOutput {
  if (c.canonicalArguments === undefined) return c;
  return {
    ...c,
    canonicalArguments: numericForm(c.canonicalArguments),
    pairs: c.pairs?.map((p) => ({ path: p.path, value: numericForm(p.value) })),
  };
}

/**
 * The decoder of a name or id, for scoring: `sommelier` reads with the engine's parser itself
 * (the report's `parser_id` stays `assay.parser.v1`), any other decoder's id becomes the report's
 * `parser_id` and its statuses add `invalid_syntax`, `no_call` and `multiple_calls`.
 *
 * @param format The decoder's name or id (default `sommelier`).
 * @param options How numbers compare.
 * @returns The decoder to pass as `scoreJsonl`'s `decoder` option.
 * @throws {RangeError} If the decoder is unknown, or `numbers` is neither `exact` nor `numeric`.
 * @throws {TypeError} If `options` is not an object (`forScoring("hermes", "numeric")`).
 *
 * @example Scoring Hermes outputs: one call scores, two calls are `multiple_calls`
 * ```ts
 * import { scoreJsonl } from "@assay/assay";
 * import { forScoring } from "@assay/assay/formats";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const jsonl = (rows: unknown[]) =>
 *   new TextEncoder().encode(rows.map((r) => JSON.stringify(r) + "\n").join(""));
 * const call = (x: number) => `<tool_call>{"name": "f", "arguments": {"x": ${x}}}</tool_call>`;
 * const sha = "0".repeat(64);
 * const { report } = await scoreJsonl({
 *   examples: jsonl([1, 2].map((i) => ({
 *     example_id: `${i}`,
 *     language: "en",
 *     target: { name: "f", arguments: { x: 150 } },
 *   }))),
 *   generations: jsonl([
 *     { example_id: "1", prompt_sha256: sha, output: call(150.0) },
 *     { example_id: "2", prompt_sha256: sha, output: call(150) + call(2) },
 *   ]),
 * }, { decoder: forScoring("hermes", { numbers: "numeric" }) });
 * assertEquals(report.parser_id, "hermes@2");
 * assertEquals(report.numbers, "numeric");
 * assertEquals(report.records.map((r) => r.status), ["ok", "multiple_calls"]);
 * assertEquals(report.metrics.overall.full_call_exact_match.value, 0.5);
 * ```
 */
export function forScoring(
  format: string = "sommelier",
  options: ForScoringOptions = {},
): OutputDecoder {
  // forScoring("hermes", "numeric") would otherwise compare numbers exactly, in silence.
  checkOptions(options);
  checkOptionNames("forScoring", options, { numbers: 1 });
  const numbers = options.numbers ?? "exact";
  if (numbers !== "exact" && numbers !== "numeric") {
    throw new RangeError(
      `Unknown numbers option ${JSON.stringify(numbers)}: expected exact or numeric`,
    );
  }
  const decoder = getDecoder(format);
  const num = (calls: PredictedOutput[]) => numbers === "numeric" ? calls.map(numericCall) : calls;
  const common = { ...(numbers === "numeric" && { numbers }), gold: num };
  if (decoder.name === "sommelier") {
    return {
      id: PARSER_ID,
      statuses: PARSE_STATUSES,
      ...common,
      predict: (outputs, engine) =>
        num(engine.parseToolCallBatch(outputs, { pairs: true, arguments: false })),
    };
  }
  return {
    id: decoder.id,
    statuses: DECODED_STATUSES,
    ...common,
    predict(outputs, engine) {
      const out: PredictedOutput[] = [];
      const ones: number[] = [];
      for (const text of outputs) {
        const d = decoder.decode(text, { engine });
        const n = d.calls.length;
        if (d.status !== "ok") out.push({ status: d.status, reason: d.reason });
        else if (n === 0) out.push({ status: "no_call", reason: "the output holds no call" });
        else if (n > 1) {
          const names = d.calls.map((c) => c.name).join(", ").slice(0, 200);
          out.push({
            status: "multiple_calls",
            reason: `the output holds ${n} calls (${names}); a score takes one`,
          });
        } else {
          ones.push(out.length);
          out.push({
            status: "ok",
            name: d.calls[0]!.name,
            canonicalArguments: d.calls[0]!.arguments,
          });
        }
      }
      const flat = engine.flattenArgumentsBatch(ones.map((i) => out[i]!.canonicalArguments!));
      ones.forEach((i, k) => {
        const f = flat[k]!;
        // A decoder's arguments are canonical objects: flattening them does not fail.
        if (f.ok) out[i]!.pairs = f.pairs;
        else out[i] = { status: "invalid_shape", reason: `arguments: ${f.error.code}` };
      });
      return num(out);
    },
  };
}
