// What an evaluation report read back must be, as docs/evaluation.md ("The report", "Per-example
// records and pooling") writes it: its records and details (`detailedReportProblem`, what the
// library's readers check), then every other field of the schema, then each record's fields
// beside the others (its status among those the report counts, no match unless it parsed), then
// the fields that are sums of the records (the metrics overall and per slice) and the dropped ids
// by reason. A file edited by hand, cut short or written by another tool is refused by every
// reader alike, naming its first wrong field, instead of read by some and refused for another
// reason by others (a comparison said a report without metrics had overall metrics that were not
// the sums of its records).
import {
  DROP_REASONS,
  EVALUATION_SCHEMAS,
  type ExampleRecord,
  METRIC_NAMES,
  type MetricName,
  RECORD_STATUSES,
  toolCallMetrics,
} from "../evaluation/mod.ts";
import { compareCodePoints } from "../engine/mod.ts";
import { detailedReportProblem } from "../explain/mod.ts";
import {
  checkField,
  checkFields,
  COUNT,
  DIGEST_SPEC,
  type Field,
  groupedBy,
  isRecord,
  type Json,
  malformed,
  METRIC_VALUE,
  objectOf,
  orAbsent,
  orNull,
  STRING,
  STRINGS,
  TOOL,
} from "./_fields.ts";

const BY_REASON = `{${DROP_REASONS.join(", ")}}`;

// An evaluation report's input files, as the comparison page shows them: each null (not recorded)
// or its digest and rows.
const INPUTS = objectOf(
  Object.fromEntries(["examples", "generations", "prompts"].map((k) => [
    k,
    orNull(objectOf({ ...DIGEST_SPEC, rows: COUNT, invalid_utf8_outputs: orAbsent(COUNT) }, "")),
  ])),
  "{examples, generations, prompts}, each null or a {sha256, rows}: 64 lowercase hex digits and " +
    "a count",
);

const DROPPED_IDS = objectOf(
  Object.fromEntries(DROP_REASONS.map((k) => [k, STRINGS])),
  `${BY_REASON}, each a list of ids`,
);

const PARSE_STATUS_COUNTS: Field = {
  test: (v) =>
    isRecord(v) &&
    Object.entries(v).every(([k, n]) =>
      (RECORD_STATUSES as readonly string[]).includes(k) && COUNT.test(n)
    ),
  text: `a count for each status of its parser (of ${RECORD_STATUSES.join(", ")})`,
};

// The fields of the report beside its records, slices and metric names, in the order it is
// written; `metrics` is checked part by part, after them.
function topFields(v2: boolean): Record<string, Field> {
  return {
    tool: TOOL,
    parser_id: STRING,
    canonical_id: STRING,
    numbers: { test: (v) => v === undefined || v === "numeric", text: '"numeric" or absent' },
    engine: STRING,
    inputs: INPUTS,
    n: COUNT,
    drop_summary: objectOf(
      Object.fromEntries(DROP_REASONS.map((k) => [k, COUNT])),
      `${BY_REASON}, each a count`,
    ),
    // v2 added the dropped ids; a v1 report has none.
    dropped_ids: v2 ? DROPPED_IDS : orAbsent(DROPPED_IDS),
    parse_status_counts: PARSE_STATUS_COUNTS,
  };
}

// The examples `assay score --allow-missing` left out: the gate's verdict names them.
const MISSING_GENERATIONS = orAbsent(objectOf(
  { count: COUNT, ids: STRINGS },
  "{count, ids} (a count and a list of that many ids)",
));

const SLICE_METRICS = `{${METRIC_NAMES.join(", ")}}`;

// A slice's metrics: each of the five a MetricValue (`metrics.overall`, `metrics.by_language[…]`).
function checkSliceMetrics(r: Json, path: string, m: unknown): void {
  checkField(r, path, m, { test: isRecord, text: SLICE_METRICS });
  for (const name of METRIC_NAMES) {
    checkField(r, `${path}.${name}`, (m as Json)[name], METRIC_VALUE);
  }
}

// At most this many of the records' languages are named when the slices are not them.
const SHOWN = 10;

// The slices are the records' languages, each once, sorted by code point (docs/contract.md §5): a
// record of another language would be in no slice, and a slice of none would be an empty one.
function checkSlices(r: Json): void {
  const slices = new Set(r.slices as string[]);
  const records = r.records as ExampleRecord[];
  records.forEach((x, i) => {
    if (!slices.has(x.language)) {
      throw malformed(
        r,
        `records[${i}].language ${JSON.stringify(x.language)} is not one of slices`,
      );
    }
  });
  const languages = [...new Set(records.map((x) => x.language))].sort(compareCodePoints);
  const given = r.slices as string[];
  if (given.length !== languages.length || given.some((s, i) => s !== languages[i])) {
    const shown = languages.slice(0, SHOWN).map((l) => JSON.stringify(l)).join(", ");
    const more = languages.length > SHOWN ? `, … ${languages.length} in all` : "";
    throw malformed(
      r,
      `slices is not the records' languages, each once, in code-point order (${shown}${more})`,
    );
  }
}

const slicePath = (slice: string) => `metrics.by_language[${JSON.stringify(slice)}]`;

/** Refuses an evaluation report (v2 or v1) that is not what its schema says. */
export function checkEvaluation(r: Json): void {
  const problem = detailedReportProblem(r);
  if (problem) throw malformed(r, problem);
  checkFields(r, topFields(r.schema === EVALUATION_SCHEMAS[0]));
  checkSlices(r);
  checkField(r, "metrics", r.metrics, {
    test: isRecord,
    text: "{overall, by_language}, each slice's metrics a {value, numerator, denominator}",
  });
  const metrics = r.metrics as Json;
  checkSliceMetrics(r, "metrics.overall", metrics.overall);
  checkField(r, "metrics.by_language", metrics.by_language, {
    test: isRecord,
    text: "an object of each slice's metrics",
  });
  const byLanguage = metrics.by_language as Json;
  const slices = new Set(r.slices as string[]);
  for (const slice of slices) checkSliceMetrics(r, slicePath(slice), byLanguage[slice]);
  for (const key of Object.keys(byLanguage)) {
    if (!slices.has(key)) throw malformed(r, `${slicePath(key)} is not one of slices`);
  }
  const missing = r.missing_generations as { count: number; ids: string[] } | undefined;
  if (!MISSING_GENERATIONS.test(missing) || (missing && missing.count !== missing.ids.length)) {
    throw malformed(r, `missing_generations is not ${MISSING_GENERATIONS.text}`);
  }
  checkRecords(r);
  checkSums(r);
}

// Each record's fields that the record-by-record check (`recordProblem`) leaves: its status among
// those the report counts, its root, and nothing matched or predicted unless its output parsed as
// one call (docs/evaluation.md, "Per-example records").
function checkRecords(r: Json): void {
  const counted = Object.keys(r.parse_status_counts as Json);
  const records = r.records as ExampleRecord[];
  records.forEach((x, i) => {
    const at = `records[${i}]`;
    if (!counted.includes(x.status)) {
      throw malformed(
        r,
        `${at}.status is not one of the parse statuses the report counts (${counted.join(", ")})`,
      );
    }
    checkField(r, `${at}.root_id`, x.root_id, orNull(STRING));
    if (x.status === "ok") return;
    for (const k of ["name_match", "arguments_match"] as const) {
      if (x[k] !== false) {
        throw malformed(
          r,
          `${at}.${k} is ${x[k]}, but its status is ${JSON.stringify(x.status)}, not "ok"`,
        );
      }
    }
    if (x.predicted_pairs !== 0) {
      throw malformed(
        r,
        `${at}.predicted_pairs is ${x.predicted_pairs}, but its status is ` +
          `${JSON.stringify(x.status)}, not "ok"`,
      );
    }
  });
}

// The fields that sum the records: each must be their sum, as the comparisons recompute them.
// `n` and `parse_status_counts` are not among them: a gate on the examples two reports share
// checks the reports restricted to them, whose metrics and slices are recomputed and the rest kept.
function checkSums(r: Json): void {
  const records = r.records as ExampleRecord[];
  const dropped = r.dropped_ids as Record<string, string[]> | undefined;
  const summary = r.drop_summary as Record<string, number>;
  for (const k of dropped ? DROP_REASONS : []) {
    if (dropped![k]!.length !== summary[k]) {
      throw malformed(
        r,
        `dropped_ids.${k} holds ${dropped![k]!.length} ids, not drop_summary.${k} (${summary[k]})`,
      );
    }
  }
  const metrics = r.metrics as { overall: Json; by_language: Record<string, Json> };
  sumsOf(r, "metrics.overall", metrics.overall, records, "the records");
  const bySlice = groupedBy(records, (x) => x.language);
  for (const slice of r.slices as string[]) {
    const own = bySlice.get(slice) ?? [];
    sumsOf(r, slicePath(slice), metrics.by_language[slice]!, own, "its records");
  }
}

function sumsOf(r: Json, path: string, stored: Json, records: ExampleRecord[], whose: string) {
  const sums = toolCallMetrics(records);
  for (const name of METRIC_NAMES as readonly MetricName[]) {
    const s = sums[name];
    const m = stored[name] as { numerator: number; denominator: number };
    if (m.numerator !== s.numerator || m.denominator !== s.denominator) {
      throw malformed(
        r,
        `${path}.${name} is ${m.numerator} of ${m.denominator}, not the sum over ${whose} ` +
          `(${s.numerator} of ${s.denominator})`,
      );
    }
  }
}
