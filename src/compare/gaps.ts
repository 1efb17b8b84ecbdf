/**
 * Language gaps inside one evaluation report: target language − reference
 * language (CONTRACT §7).
 *
 * The `primary` estimate joins every target row with a `root_id` to its exact
 * root row in the reference slice and bootstraps those pairs. Rows that
 * cannot be joined are counted in `coverage` and `unjoined`, never ignored.
 * `marginal_full_slices` compares the two full slices, descriptively, with no
 * interval: the two cohorts can differ.
 *
 * @module
 */
import {
  type BootstrapOptions,
  type BootstrapSettings,
  bootstrapSettings,
  type MetricValue,
  metricValue,
} from "../stats/mod.ts";
import { bootstrapPacked, packRecords } from "./paired_bootstrap.ts";
import { indicesByLanguage } from "./_by_language.ts";
import type { EvaluationReport } from "../evaluation/mod.ts";
import {
  evaluationReportProblem,
  type ExampleRecord,
  METRIC_NAMES,
  type MetricName,
  toolCallMetrics,
} from "../evaluation/mod.ts";
import { checkOptions, Sfc32 } from "../engine/mod.ts";
import { canonicalValue, sha256Hex } from "../engine/mod.ts";
import { compareCodePoints } from "../engine/mod.ts";
import { TOOL } from "../engine/mod.ts";

/** Options for {@linkcode languageGaps}. */
export interface GapOptions extends BootstrapOptions {
  /** The reference language (default `en`). */
  reference?: string;
}

/** A metric of the full slices: target, reference and their plain difference. */
export interface MarginalDelta {
  /** The target slice. */
  target: MetricValue;
  /** The reference slice. */
  reference: MetricValue;
  /** `target.value − reference.value`. */
  delta: number;
}

/**
 * A metric of the joined pairs: target, reference, the paired delta and its interval. With no
 * pair joined there is no estimate: `delta` and `ci` are null (and both sides 0 of 0).
 */
export interface PairedGap {
  /** The target rows of the pairs. */
  target: MetricValue;
  /** Their root rows in the reference slice (a root counts once per pair). */
  reference: MetricValue;
  /** `target.value − reference.value`; null without pairs. */
  delta: number | null;
  /** The paired-bootstrap percentile interval of the delta; null without pairs. */
  ci: [number, number] | null;
}

/** The gap of one target language. */
export interface LanguageGap {
  /** The paired estimate over rows joined to their roots. */
  primary: {
    /** Joined (target, root) pairs. */
    n_pairs: number;
    /** Joined rows over all rows of the target slice. */
    coverage: MetricValue;
    /** Target rows not joined, by reason. */
    unjoined: { no_root_id: number; root_not_in_reference: number };
    /** SHA-256 of the sorted pair set, as canonical JSON `[["target_id","root_id"],...]`. */
    pair_set_sha256: string;
    /** Per metric. */
    metrics: Record<MetricName, PairedGap>;
  };
  /** The difference of the two full slices: descriptive only, no interval. */
  marginal_full_slices: {
    /** Always true: the cohorts can differ, so this is no estimate of the gap. */
    descriptive: true;
    /** Rows in the target slice. */
    n_target: number;
    /** Rows in the reference slice. */
    n_reference: number;
    /** Per metric. */
    metrics: Record<MetricName, MarginalDelta>;
  };
}

/** The `assay.gaps.v1` report. */
export interface GapReport {
  /** Always `assay.gaps.v1`. */
  schema: "assay.gaps.v1";
  /** The tool that wrote it. */
  tool: { name: string; version: string };
  /** The evaluation report's parser contract. */
  parser_id: string;
  /** The evaluation report's canonical-JSON contract. */
  canonical_id: string;
  /** The reference language. */
  reference: string;
  /** How the intervals were made. */
  bootstrap: BootstrapSettings & { streams: string };
  /** The evaluation report's input digests. */
  inputs: EvaluationReport["inputs"];
  /** The metric names. */
  metric_names: MetricName[];
  /** Target languages, sorted. */
  targets: string[];
  /** Per target language. */
  gaps: Record<string, LanguageGap>;
}

/**
 * The SHA-256 of a pair set: the pairs sorted by target id then root id (code-point order),
 * written as canonical JSON `[["t1","r1"],["t2","r2"]]`.
 *
 * @param pairs `[target_id, root_id]` pairs, in any order.
 * @returns 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import { pairSetSha256, sha256Hex } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(pairSetSha256([["de-2", "en-2"], ["de-1", "en-1"]]), sha256Hex('[["de-1","en-1"],["de-2","en-2"]]'));
 * ```
 */
export function pairSetSha256(pairs: readonly (readonly [string, string])[]): string {
  const sorted = [...pairs].sort((x, y) =>
    compareCodePoints(x[0], y[0]) || compareCodePoints(x[1], y[1])
  );
  return sha256Hex(canonicalValue(sorted));
}

/**
 * Language gaps of one evaluation report: for each language other than the reference, the
 * paired `primary` estimate with bootstrap intervals, and the descriptive full-slice difference.
 * A language none of whose rows joins a root has no paired estimate: its deltas and intervals
 * are null (and the stream still takes its place, drawing nothing).
 *
 * Draws come from one sfc32 stream, target languages in sorted order.
 *
 * @param report An evaluation report.
 * @param options The reference language (default `en`), seed, resamples, level, and the
 *   engine whose kernel resamples (default: the default engine; both give identical output).
 * @returns The `assay.gaps.v1` report.
 * @throws {RangeError} If the reference language is not a slice of the report, or the report's
 *   records, slices or metric names are malformed (`evaluationReportProblem`).
 *
 * @example
 * ```ts
 * import { languageGaps, scoreToolCalls } from "@assay/assay";
 * import { strictEqual } from "node:assert/strict";
 *
 * const t = { name: "f", arguments: {} };
 * const report = scoreToolCalls(
 *   [
 *     { example_id: "en-1", language: "en", target: t },
 *     { example_id: "de-1", language: "de", target: t, root_id: "en-1" },
 *     { example_id: "de-2", language: "de", target: t, root_id: "en-9" },
 *   ],
 *   [
 *     { example_id: "en-1", output: '{"name":"f","arguments":{}}' },
 *     { example_id: "de-1", output: "kein JSON" },
 *     { example_id: "de-2", output: "kein JSON" },
 *   ],
 * );
 * const gaps = languageGaps(report, { resamples: 100 });
 * const de = gaps.gaps.de!;
 * strictEqual(de.primary.n_pairs, 1);
 * strictEqual(de.primary.coverage.value, 0.5);
 * strictEqual(de.primary.metrics.valid_json_rate.delta, -1);
 * ```
 */
export function languageGaps(report: EvaluationReport, options: GapOptions = {}): GapReport {
  checkOptions(options);
  const problem = evaluationReportProblem(report);
  if (problem) throw new RangeError(`The report is malformed: ${problem}`);
  const settings = bootstrapSettings(options);
  const reference = options.reference ?? "en";
  if (!report.slices.includes(reference)) {
    throw new RangeError(
      `The reference language "${reference}" is not a slice of the report (slices: ${
        report.slices.join(", ")
      })`,
    );
  }
  const records = report.records;
  const packed = packRecords(records);
  const groups = indicesByLanguage(records);
  const refIdx = groups.get(reference) ?? [];
  const refIndex = new Map(refIdx.map((i) => [records[i]!.example_id, i]));
  const refRows = refIdx.map((i) => records[i]!);
  const rm = toolCallMetrics(refRows);
  const targets = [...report.slices].filter((s) => s !== reference).sort(compareCodePoints);
  const rng = new Sfc32(settings.seed);
  const gaps: Record<string, LanguageGap> = {};
  for (const lang of targets) {
    const tIdx: number[] = [];
    const rIdx: number[] = [];
    const pairs: [string, string][] = [];
    let noRoot = 0;
    let missing = 0;
    const slice: ExampleRecord[] = [];
    for (const i of groups.get(lang) ?? []) {
      const r = records[i]!;
      slice.push(r);
      if (r.root_id === null || r.root_id === undefined) {
        noRoot++;
        continue;
      }
      const root = refIndex.get(r.root_id);
      if (root === undefined) {
        missing++;
        continue;
      }
      tIdx.push(i);
      rIdx.push(root);
      pairs.push([r.example_id, r.root_id]);
    }
    const paired = bootstrapPacked(
      packed,
      Int32Array.from(rIdx),
      packed,
      Int32Array.from(tIdx),
      rng,
      settings.resamples,
      settings.level,
      options.engine,
    );
    const primaryMetrics = {} as Record<MetricName, PairedGap>;
    for (const m of METRIC_NAMES) {
      const d = paired[m];
      const some = pairs.length > 0;
      primaryMetrics[m] = {
        target: d.adapter,
        reference: d.base,
        delta: some ? d.delta : null,
        ci: some ? d.ci : null,
      };
    }
    const tm = toolCallMetrics(slice);
    const marginal = {} as Record<MetricName, MarginalDelta>;
    for (const m of METRIC_NAMES) {
      marginal[m] = { target: tm[m], reference: rm[m], delta: tm[m].value - rm[m].value };
    }
    gaps[lang] = {
      primary: {
        n_pairs: pairs.length,
        coverage: metricValue(pairs.length, slice.length),
        unjoined: { no_root_id: noRoot, root_not_in_reference: missing },
        pair_set_sha256: pairSetSha256(pairs),
        metrics: primaryMetrics,
      },
      marginal_full_slices: {
        descriptive: true,
        n_target: slice.length,
        n_reference: refRows.length,
        metrics: marginal,
      },
    };
  }
  return {
    schema: "assay.gaps.v1",
    tool: { ...TOOL },
    parser_id: report.parser_id,
    canonical_id: report.canonical_id,
    reference,
    bootstrap: { ...settings, streams: "one stream: target languages in sorted order" },
    inputs: report.inputs,
    metric_names: [...METRIC_NAMES],
    targets,
    gaps,
  };
}
