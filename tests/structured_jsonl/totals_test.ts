// The totals of scoreStructuredJsonl are its rows' results added up (Totals), no longer each
// metric's function called again on every row at once: on seeded batches, the sum of each
// example's result alone is the function's result on the batch, key for key and in the same key
// order (the report's bytes), for every metric and its options: counts, rates, the per-example
// lists, errors by code in order of first appearance, and the records the functions sort (first
// errors by keyword location, fields by dotted path, "__proto__" and integer-like paths among
// them).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { createEngine } from "../../mod.ts";
import { compileSchema } from "../../src/json_schema/mod.ts";
import {
  apiCallSuccessRate,
  constraintSatisfactionRate,
  extraContentRate,
  type ExtractionMode,
  formatCompliance,
  instructionComplianceRate,
  instructionRetention,
  jsonSchemaCompliance,
  jsonValidity,
  requiredFieldAccuracy,
  toolArgumentAccuracy,
  toolCallF1,
  toolSelectionAccuracy,
} from "../../src/structured/mod.ts";
import { xmlValidity } from "../../src/xml/mod.ts";
import type { StructuredMetric, StructuredMetricResult } from "../../src/structured_jsonl/mod.ts";
import { Totals } from "../../src/structured_jsonl/_totals.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { variedRows } from "./_rows.ts";

const TS = createEngine({ engine: "ts" });
const SCHEMA = compileSchema({
  type: "object",
  required: ["answer"],
  properties: {
    answer: { type: "integer", maximum: 25 },
    user: { type: "object", required: ["name", "age"] },
  },
});
const XML = [
  "<a/>",
  "<!DOCTYPE a><a/>",
  "<a><b></a>",
  "text",
  "<a/><b/>",
  "<a>x</a> tail",
  "",
  "<?xml version='1.0'?><r/>",
];
const PATHS = ["answer", "user.name", "__proto__", "10", "2", "a.b", "constructor", "é", "k"];

/** A batch of examples: each metric's inputs, one entry per example. */
function batch(rng: Rng, count: number) {
  const rows = variedRows(rng, { count, ids: false });
  const outs = rows.outputs.trimEnd().split("\n").map((l) => JSON.parse(l));
  const exps = rows.expected.trimEnd().split("\n").map((l) => JSON.parse(l));
  const texts = outs.map((o) => rng.chance(0.2) ? rng.pick(XML) : o.output as string);
  const fields = exps.map(() => {
    const f: Record<string, string> = {};
    for (const p of PATHS) {
      if (!rng.chance(0.3)) continue;
      Object.defineProperty(f, p, {
        value: rng.pick(["18", "1.0", '"Ada"', "null", "[1]", `${rng.int(50)}`]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return f;
  });
  const list = (v: unknown) => Array.isArray(v) ? v : [v];
  return {
    texts,
    fields,
    expected: exps.map((e) => e.tool_calls),
    predicted: outs.map((o) => rng.chance(0.05) ? null : o.tool_calls),
    results: outs.map((o) => list(o.api_results)),
    checks: outs.map((o) => o.checks as boolean[]),
    retention: outs.map((o) => o.retention),
  };
}

type Batch = ReturnType<typeof batch>;

/** Each metric on the examples from `from` to `to`, with options drawn by the test. */
function metrics(rng: Rng): [StructuredMetric, (b: Batch, from: number, to: number) => unknown][] {
  const mode = rng.pick<ExtractionMode>(["strict", "fenced", "lenient"]);
  const match = rng.pick(["exact", "name", "subset"] as const);
  const numbers = rng.pick(["exact", "numeric"] as const);
  const ordered = rng.chance(0.5);
  const o = { engine: TS };
  return [
    ["json_validity", (b, f, t) => jsonValidity(b.texts.slice(f, t), { mode, ...o })],
    [
      "json_schema_compliance",
      (b, f, t) => jsonSchemaCompliance(b.texts.slice(f, t), SCHEMA, { mode, ...o }),
    ],
    ["extra_content_rate", (b, f, t) => extraContentRate(b.texts.slice(f, t), o)],
    [
      "required_field_accuracy",
      (b, f, t) =>
        requiredFieldAccuracy(b.fields.slice(f, t), b.texts.slice(f, t), {
          mode,
          numbers,
          valuesAsJson: true,
          ...o,
        }),
    ],
    ["xml_validity", (b, f, t) => xmlValidity(b.texts.slice(f, t))],
    ["format_compliance", (b, f, t) => formatCompliance(b.texts.slice(f, t), "Answer: [0-9]+")],
    [
      "tool_selection_accuracy",
      (b, f, t) =>
        toolSelectionAccuracy(b.expected.slice(f, t), b.predicted.slice(f, t), {
          ordered,
          ...o,
        }),
    ],
    [
      "tool_argument_accuracy",
      (b, f, t) =>
        toolArgumentAccuracy(b.expected.slice(f, t), b.predicted.slice(f, t), {
          match: match === "subset" ? "subset" : "exact",
          ...o,
        }),
    ],
    [
      "tool_call_f1",
      (b, f, t) => toolCallF1(b.expected.slice(f, t), b.predicted.slice(f, t), { match, ...o }),
    ],
    ["api_call_success_rate", (b, f, t) => apiCallSuccessRate(b.results.slice(f, t).flat())],
    ["instruction_compliance_rate", (b, f, t) => instructionComplianceRate(b.checks.slice(f, t))],
    ["constraint_satisfaction_rate", (b, f, t) => constraintSatisfactionRate(b.checks.slice(f, t))],
    ["instruction_retention", (b, f, t) => instructionRetention(b.retention.slice(f, t))],
  ];
}

Deno.test("each metric's totals are its examples' results added up, as its function gives them", () => {
  const rng = makeRng(31337);
  let sortedKeys = 0;
  for (let k = 0; k < 40; k++) {
    const b = batch(rng, 1 + rng.int(60));
    const n = b.texts.length;
    // The options are drawn once per batch: the same for the batch and for each example.
    for (const [metric, run] of metrics(rng)) {
      const whole = run(b, 0, n);
      const totals = new Totals(metric);
      for (let i = 0; i < n; i++) totals.add(run(b, i, i + 1) as StructuredMetricResult);
      const sum = totals.result();
      deepStrictEqual(sum, whole, `${metric}, batch ${k}`);
      // The report's bytes: the same keys in the same order.
      strictEqual(JSON.stringify(sum), JSON.stringify(whole), `${metric}, batch ${k}`);
      if (metric === "required_field_accuracy") {
        const byField = Object.keys((whole as { details: { byField: object } }).details.byField);
        if (byField.includes("__proto__") && byField.includes("10")) sortedKeys++;
      }
    }
  }
  ok(sortedKeys > 10, `${sortedKeys} batches with "__proto__" and "10" among the fields`);
});
