// What a report of each kind holds beside its list of units, as its command writes it: the
// fields a test's hand-made report needs for checkReportBody (and so the gate, and every command
// that reads reports) to take it. A test spreads them into its report, then sets its own units.

const TOOL = { name: "@assay/assay", version: "0.1.0" };
const none = () => ({ value: 0, numerator: 0, denominator: 0 });

/** An `assay.bfcl.v1` report's fields beside its records and categories, for no records. */
export const BFCL_FIELDS = {
  checker: "bfcl.ast@2024-08",
  model: "m",
  accuracy: none(),
  errorTypes: {},
};

// Entries that passed, of those checked.
function accuracy(records: readonly { valid: boolean }[]) {
  const numerator = records.filter((x) => x.valid).length;
  const denominator = records.length;
  return { value: denominator === 0 ? 0 : numerator / denominator, numerator, denominator };
}

/**
 * An `assay.bfcl.v1` report of `records` in `categories` (each a category's own fields, such as
 * its inputs), each accuracy counting its records' verdicts as the report's writer does.
 */
export function bfclReportOf<R extends { category: string; valid: boolean }>(
  records: R[],
  categories: ({ category: string } & Record<string, unknown>)[],
) {
  return {
    schema: "assay.bfcl.v1",
    ...BFCL_FIELDS,
    accuracy: accuracy(records),
    categories: categories.map((c) => ({
      accuracy: accuracy(records.filter((x) => x.category === c.category)),
      errorTypes: {},
      ...c,
    })),
    records,
  };
}

const scores = () => ({
  prompt_level: none(),
  instruction_level: none(),
  by_instruction: {},
  by_category: {},
});

/** An `assay.ifeval.v1` report's fields beside its prompts. */
export const IFEVAL_FIELDS = {
  checker: "ifeval@google-3f357bde",
  strict: scores(),
  loose: scores(),
};

/** An `assay.structured.v1` report's fields beside its metrics and rows. */
export const STRUCTURED_FIELDS = {
  tool: TOOL,
  engine: "ts",
  mode: "lenient",
  inputs: {
    outputs: { sha256: "0".repeat(64), rows: 0, invalid_utf8_outputs: 0 },
    expected: null,
    schema: null,
  },
  n: 0,
};

/** An `assay.suite_run.v1` report's fields beside its runs and scorecard. */
export const SUITE_RUN_FIELDS = {
  tool: TOOL,
  suite: "s",
  suite_sha256: "5".repeat(64),
  run_id: null,
  judge: "none",
};
