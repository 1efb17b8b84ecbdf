// showStructuredRows prints a row's reasons (why its predicted calls are invalid), printable, one
// `reason:` line each, and refuses a report whose row holds reasons that are not strings.
import { ok, strictEqual } from "node:assert/strict";
import { showStructuredRows } from "../../src/explain/mod.ts";
import type { StructuredReport } from "../../src/structured_jsonl/mod.ts";

function report(reasons: unknown): StructuredReport {
  return {
    schema: "assay.structured.v1",
    tool: { name: "@assay/assay", version: "0" },
    engine: "ts",
    mode: "strict",
    inputs: {
      outputs: { sha256: "0".repeat(64), rows: 2, invalid_utf8_outputs: 0 },
      expected: { sha256: "0".repeat(64), rows: 2 },
      schema: null,
    },
    n: 2,
    metrics: { tool_selection_accuracy: { value: 0.5, numerator: 1, denominator: 2 } },
    rows: [
      { line: 1, id: "a", metrics: { tool_selection_accuracy: { numerator: 1, denominator: 1 } } },
      {
        line: 2,
        id: "b",
        metrics: { tool_selection_accuracy: { numerator: 0, denominator: 1 } },
        ...(reasons !== undefined && { reasons: reasons as string[] }),
      },
    ],
  };
}

Deno.test("showStructuredRows prints each reason of a row, printable", () => {
  strictEqual(
    showStructuredRows(
      report(["tool_calls[0]: a call needs a non-empty string name", "x\u001b[2J"]),
      {
        failing: true,
      },
    ),
    "b  line 2\n  failed: tool_selection_accuracy 0/1\n" +
      "  reason: tool_calls[0]: a call needs a non-empty string name\n" +
      '  reason: "x\\u001b[2J"\n\n1 of 1 selected rows shown (2 in the report)\n',
  );
  // A report written before rows had reasons shows as it did.
  strictEqual(
    showStructuredRows(report(undefined), { failing: true }),
    "b  line 2\n  failed: tool_selection_accuracy 0/1\n\n1 of 1 selected rows shown (2 in the report)\n",
  );
  const long = showStructuredRows(report(["y".repeat(5000)]), { ids: ["b"] });
  ok(long.includes(` … (5000 characters)\n`), long);
});
