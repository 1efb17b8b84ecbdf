// Pieces of the tool-call evaluation shared by the general scorer (evaluation.ts) and the Wasm
// scoring kernel's glue (_score_kernel.ts): one call scored against its gold, and the report
// built from counts per language.
import type { DroppedIds, DropSummary, EvaluationReport, OutputDecoder } from "./inputs.ts";
import { CANONICAL_ID, PARSER_ID } from "../engine/mod.ts";
import {
  countRecords,
  type DetailWriter,
  type ExampleRecord,
  METRIC_NAMES,
  type MetricCounts,
  metricsFromCounts,
  RECORD_STATUSES,
  type RecordStatus,
  type ToolCallMetrics,
} from "./metrics.ts";
import { compareCodePoints } from "../engine/mod.ts";
import type { ArgumentPair, ParseStatus } from "../engine/mod.ts";
import { TOOL } from "../engine/mod.ts";

/** A gold call: its name, canonical arguments and flattened pairs. */
export interface GoldCall {
  name: string;
  canonical: string;
  pairs: readonly ArgumentPair[];
}

/** A parsed prediction, as the engine's `parseToolCallBatch` returns it (with pairs). */
export interface PredictedCall {
  status: RecordStatus;
  name?: string;
  canonicalArguments?: string;
  pairs?: readonly ArgumentPair[];
  reason?: string;
}

// The gold call of a target that parsed as one call, as an example keeps it until it is scored:
// its pairs are flattened from `canonical` then (see ScorerCore), so that a run's examples do not
// hold them all at once.
export type GoldText = Omit<GoldCall, "pairs">;

// A gold call with its pairs, as predictions are compared with it.
export function goldCall(call: PredictedCall): GoldCall {
  return { name: call.name!, canonical: call.canonicalArguments!, pairs: call.pairs! };
}

// The gold of a target that parsed as one call (see GoldText).
export function goldOf(call: PredictedCall): GoldText {
  return { name: call.name!, canonical: call.canonicalArguments! };
}

/** One example's scores: its record without the example's names. */
export type CallScore = Omit<ExampleRecord, "example_id" | "language" | "root_id">;

/** Scores a parsed prediction against its gold call (CONTRACT §4). */
export function scoreCall(gold: GoldCall, call: PredictedCall): CallScore {
  const goldPairs = gold.pairs;
  const ok = call.status === "ok";
  let matched = 0;
  let predicted = 0;
  if (ok) {
    // A multiset intersection on (path, value): for a short gold, a scan with a used-mask (it
    // beats hashing); for a longer one, counts by key (path and value texts are JSON, so no NUL
    // is in them), as a scan per pair grew quadratically (50 s for 32,000 keys).
    const pairs = call.pairs!;
    predicted = pairs.length;
    const n = goldPairs.length;
    if (n > 32) {
      const counts = new Map<string, number>();
      for (const q of goldPairs) {
        const k = `${q.path}\0${q.value}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      for (const p of pairs) {
        const k = `${p.path}\0${p.value}`;
        const c = counts.get(k);
        if (c) {
          counts.set(k, c - 1);
          matched++;
        }
      }
    } else {
      let mask = 0;
      for (const p of pairs) {
        for (let j = 0; j < n; j++) {
          const q = goldPairs[j]!;
          if (!(mask & (1 << j)) && q.path === p.path && q.value === p.value) {
            mask |= 1 << j;
            matched++;
            break;
          }
        }
      }
    }
  }
  return {
    status: call.status,
    ...(call.reason !== undefined && { reason: call.reason }),
    name_match: ok && call.name === gold.name,
    arguments_match: ok && call.canonicalArguments === gold.canonical,
    matched_pairs: matched,
    predicted_pairs: predicted,
    gold_pairs: goldPairs.length,
  };
}

/** An example's record: its names, its scores and, when asked, the detail of its scoring. */
export function recordOf(
  example: { id: string; language: string; root_id: string | null },
  gold: GoldCall,
  call: PredictedCall,
  output: string,
  detail?: DetailWriter,
): ExampleRecord {
  return {
    example_id: example.id,
    language: example.language,
    root_id: example.root_id,
    ...scoreCall(gold, call),
    ...(detail && { detail: detail({ output, gold, call }) }),
  };
}

/** The parse statuses, in report order. */
export const PARSE_STATUSES = RECORD_STATUSES.slice(0, 4) as readonly ParseStatus[];

/** Counts of one slice: the metric counts and the parse statuses. */
export interface SliceCounts extends MetricCounts {
  statuses: Record<ParseStatus, number>;
}

// The decoder option: left out or forScoring's. Another value (a name, getDecoder's decoder) is a
// TypeError naming the option, as engineOf's, not an error from inside blamed on a row.
export function checkDecoder(d: unknown): void {
  const x = Object(d);
  if (d !== undefined && typeof x.predict != "function") {
    throw new TypeError(
      "decoder must be a scoring decoder from forScoring(name), got " +
        (x.decode
          ? `a decoder from getDecoder(); pass forScoring(${JSON.stringify(x.name)})`
          : d === null
          ? "null"
          : `a${typeof d == "object" ? "n" : ""} ${typeof d}`),
    );
  }
}

/** Empty slice counts (with a decoder's statuses). */
export function emptySliceCounts(d?: OutputDecoder): SliceCounts {
  const statuses = Object.fromEntries((d?.statuses ?? PARSE_STATUSES).map((s) => [s, 0]));
  return { ...countRecords([]), statuses: statuses as Record<ParseStatus, number> };
}

/**
 * The report without its records (`records: []`), from the counts of each language slice (only
 * slices with records).
 */
export function reportFromCounts(
  byLanguage: ReadonlyMap<string, SliceCounts>,
  drops: DropSummary,
  droppedIds: DroppedIds,
  engine: string,
  inputs: Partial<EvaluationReport["inputs"]>,
  d?: OutputDecoder,
): EvaluationReport {
  const total = emptySliceCounts(d);
  const keys = Object.keys(countRecords([])) as (keyof MetricCounts)[];
  for (const c of byLanguage.values()) {
    for (const k of keys) total[k] += c[k];
    for (const s in total.statuses) {
      total.statuses[s as ParseStatus] += c.statuses[s as ParseStatus];
    }
  }
  const slices = [...byLanguage.keys()].sort(compareCodePoints);
  const by_language: Record<string, ToolCallMetrics> = {};
  for (const lang of slices) by_language[lang] = metricsFromCounts(byLanguage.get(lang)!);
  return {
    schema: "assay.evaluation.v2",
    tool: { ...TOOL },
    parser_id: d?.id ?? PARSER_ID,
    canonical_id: CANONICAL_ID,
    ...(d?.numbers && { numbers: d.numbers }),
    engine,
    inputs: {
      examples: inputs.examples ?? null,
      generations: inputs.generations ?? null,
      prompts: inputs.prompts ?? null,
    },
    n: total.n,
    drop_summary: { ...drops },
    dropped_ids: droppedIds,
    parse_status_counts: { ...total.statuses },
    metric_names: [...METRIC_NAMES],
    slices,
    metrics: { overall: metricsFromCounts(total), by_language },
    records: [],
  };
}

/** The report of records in examples order: their counts pooled per language, and the records. */
export function reportFromRecords(
  records: ExampleRecord[],
  drops: DropSummary,
  droppedIds: DroppedIds,
  engine: string,
  inputs: Partial<EvaluationReport["inputs"]>,
  d?: OutputDecoder,
): EvaluationReport {
  const slices = new Map<string, ExampleRecord[]>();
  for (const r of records) {
    const list = slices.get(r.language);
    if (list) list.push(r);
    else slices.set(r.language, [r]);
  }
  const byLanguage = new Map<string, SliceCounts>();
  for (const [language, list] of slices) {
    const statuses = emptySliceCounts(d).statuses;
    for (const r of list) statuses[r.status as ParseStatus]++;
    byLanguage.set(language, { ...countRecords(list), statuses });
  }
  const report = reportFromCounts(byLanguage, drops, droppedIds, engine, inputs, d);
  report.records = records;
  return report;
}
