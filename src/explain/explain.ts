/**
 * Why each example scored as it did: the detail a run writes into its records on request
 * (`assay score --details`), and those records as text a person reads (`assay show`).
 *
 * @module
 */
import {
  type ArgumentPair,
  callKeysProblem,
  checkOptions,
  compareCodePoints,
  sha256Hex,
} from "../engine/mod.ts";
import type { DetailWriter, ExampleDetail, ExampleRecord } from "../evaluation/mod.ts";
import { recordDetailProblem } from "./detail_shape.ts";
import { DETAIL_OUTPUT_CHARS, shownJson } from "./_units.ts";
import { printableString, printableText, textHead } from "./text/mod.ts";

export { DETAIL_OUTPUT_CHARS } from "./_units.ts";

/** The output's first {@linkcode DETAIL_OUTPUT_CHARS} code units, no character split. */
const outputHead = (output: string) => textHead(output, DETAIL_OUTPUT_CHARS);

/**
 * The argument paths that differ between gold and predicted flattened pairs (each path is a
 * canonical JSON array of keys, unique within one side).
 *
 * @param gold The gold call's pairs.
 * @param predicted The predicted call's pairs.
 * @returns The paths only in gold, only in the prediction, and in both with different values,
 *   each in code point order.
 *
 * @example
 * ```ts
 * import { diffPairs } from "@assay/assay/explain";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const d = diffPairs(
 *   [{ path: '["text"]', value: '"hi"' }, { path: '["to"]', value: '"fr"' }],
 *   [{ path: '["to"]', value: '"de"' }],
 * );
 * deepStrictEqual(d.missing, [{ path: '["text"]', gold: '"hi"' }]);
 * deepStrictEqual(d.different, [{ path: '["to"]', gold: '"fr"', predicted: '"de"' }]);
 * ```
 */
export function diffPairs(
  gold: readonly ArgumentPair[],
  predicted: readonly ArgumentPair[],
): ExampleDetail["paths"] {
  const byPath = (pairs: readonly ArgumentPair[]) => new Map(pairs.map((p) => [p.path, p.value]));
  const g = byPath(gold);
  const p = byPath(predicted);
  const order = (a: { path: string }, b: { path: string }) => compareCodePoints(a.path, b.path);
  const paths: ExampleDetail["paths"] = { missing: [], extra: [], different: [] };
  for (const [path, value] of g) {
    const other = p.get(path);
    if (other === undefined) paths.missing.push({ path, gold: value });
    else if (other !== value) paths.different.push({ path, gold: value, predicted: other });
  }
  for (const [path, value] of p) if (!g.has(path)) paths.extra.push({ path, predicted: value });
  paths.missing.sort(order);
  paths.extra.sort(order);
  paths.different.sort(order);
  return paths;
}

/**
 * The detail writer a run takes (`scoreJsonl`'s and `scoreToolCalls`' `detail` option): each
 * record gets the output (its first {@linkcode DETAIL_OUTPUT_CHARS} code units, never part of a
 * character, see `textHead`; its length and SHA-256), the gold and predicted calls in canonical JSON, the
 * JSON error of an `invalid_json` output, and the differing argument paths.
 *
 * @param options The SHA-256 of a string's UTF-8 bytes (default the engine's pure-TS one).
 * @returns The writer.
 * @throws {TypeError} If `options` is not an object or has a key but `sha256`, as when
 *   `explainScore` itself, not called, is given as the writer.
 *
 * @example
 * ```ts
 * import { explainScore } from "@assay/assay/explain";
 * import { scoreToolCalls } from "@assay/assay";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const report = scoreToolCalls(
 *   [{ example_id: "a", language: "en", target: { name: "f", arguments: { x: 1, y: 2 } } }],
 *   [{ example_id: "a", output: '{"name": "f", "arguments": {"x": 1}}' }],
 *   { detail: explainScore() },
 * );
 * deepStrictEqual(report.records[0]!.detail!.paths.missing, [{ path: '["y"]', gold: "2" }]);
 * ```
 */
export function explainScore(
  options: { sha256?: (text: string) => string } = {},
): DetailWriter {
  checkOptions(options);
  // Its names are checked here, not by checkOptionNames: `detail: explainScore` (not called)
  // would be a writer that writes a function, which the report's JSON leaves out: no detail, in
  // silence.
  const odd = callKeysProblem(options, [], ["sha256"]);
  if (odd) {
    throw new TypeError(
      `explainScore takes { sha256? } and makes the writer (detail: explainScore()): ${odd}`,
    );
  }
  const sha256 = options.sha256 ?? sha256Hex;
  return ({ output, gold, call }) => {
    const ok = call.status === "ok";
    return {
      output: {
        text: outputHead(output),
        length: output.length,
        sha256: sha256(output),
      },
      gold: { name: gold.name, arguments: gold.canonical },
      predicted: ok ? { name: call.name!, arguments: call.canonicalArguments! } : null,
      error: call.error ? { code: call.error.code, offset: call.error.offset } : null,
      paths: diffPairs(gold.pairs, ok ? call.pairs ?? [] : []),
    };
  };
}

const mark = (yes: boolean) => (yes ? "yes" : "NO");

/**
 * One record as text: its id, slice and status, whether name and arguments match, and with a
 * detail the gold and predicted calls, the differing paths and the output. A call's arguments, a
 * path or a value longer than {@linkcode DETAIL_OUTPUT_CHARS} code units is cut there, as the
 * output is, and followed by its length: `… (100042 characters)`.
 *
 * @param record A record of an evaluation report.
 * @returns Lines of text, ending with a newline.
 * @throws {RangeError} If the record or its detail is malformed (`recordDetailProblem`).
 *
 * @example
 * ```ts
 * import { formatExample } from "@assay/assay/explain";
 * import { ok } from "node:assert/strict";
 *
 * const text = formatExample({ example_id: "a", language: "en", root_id: null, status: "no_json",
 *   name_match: false, arguments_match: false, matched_pairs: 0, predicted_pairs: 0, gold_pairs: 1 });
 * ok(text.startsWith("a  [en]  no_json"));
 * ```
 */
export function formatExample(record: ExampleRecord): string {
  const problem = recordDetailProblem(record);
  if (problem) throw new RangeError(`The record is malformed: record${problem}`);
  const r = record;
  const t = printableText;
  const lines = [
    `${t(r.example_id)}  [${t(r.language)}]  ${r.status}  name ${mark(r.name_match)}  arguments ${
      mark(r.arguments_match)
    }  pairs ${r.matched_pairs} matched of ${r.gold_pairs} gold, ${r.predicted_pairs} predicted`,
  ];
  if (r.reason) lines.push(`  reason:    ${t(r.reason)}`);
  const d = r.detail;
  if (d) {
    const r = shownJson;
    lines.push(`  gold:      ${t(d.gold.name)}(${r(d.gold.arguments)})`);
    lines.push(
      `  predicted: ${
        d.predicted ? `${t(d.predicted.name)}(${r(d.predicted.arguments)})` : "(none)"
      }`,
    );
    if (d.error) lines.push(`  error:     ${d.error.code} at offset ${d.error.offset}`);
    for (const m of d.paths.missing) lines.push(`  missing:   ${r(m.path)} = ${r(m.gold)}`);
    for (const e of d.paths.extra) lines.push(`  extra:     ${r(e.path)} = ${r(e.predicted)}`);
    for (const x of d.paths.different) {
      lines.push(`  different: ${r(x.path)}: gold ${r(x.gold)}, predicted ${r(x.predicted)}`);
    }
    const cut = d.output.length > d.output.text.length;
    lines.push(
      `  output:    ${printableString(d.output.text)}${cut ? " …" : ""} (${d.output.length} ` +
        `characters, sha256 ${d.output.sha256.slice(0, 12)}…)`,
    );
  }
  return lines.join("\n") + "\n";
}
