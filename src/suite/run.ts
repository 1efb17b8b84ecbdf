/**
 * Runs a metric suite: scores every (golden, arm, repeat) run of an agent from its trace, with
 * the deterministic metrics and, unless turned off, the LLM judges.
 *
 * @module
 */
import type { WithEngine } from "../engine/mod.ts";
import { type Judge, JUDGE_PRESETS, judgeParamsIssues, type JudgeScore } from "./judge/mod.ts";
import { type RunOverall, runOverall, type ScoreRow } from "./scorecard.ts";
import { closestName, type LoadSuiteOptions, type ParamsCheck, type Suite } from "./suite.ts";
import { type Golden, RunInputError, type SchemaCatalog, type Trace } from "./types.ts";
import {
  DETERMINISTIC_METRIC_PARAMS,
  DETERMINISTIC_METRICS,
  type DeterministicMetricName,
} from "./trace_metrics.ts";
import type { ParamErrorMarks } from "./_metric_args.ts";
import { checkOptions, compareCodePoints } from "../engine/mod.ts";
import { checkMemoryInputs } from "./_input_checks.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

export { armProblem } from "./_input_checks.ts";

const EMPTY_GOLDEN: Golden = { id: "", question: "" };
const EMPTY_TRACE: Trace = {
  golden_id: "",
  arm: "",
  repeat: 0,
  tool_calls: [],
  sql: [],
  final_rows: null,
  final_answer: null,
  submitted: true,
  hit_turn_limit: false,
};

function deterministicCheck(type: DeterministicMetricName): ParamsCheck {
  return (params) => {
    const allowed = DETERMINISTIC_METRIC_PARAMS[type];
    const unknown = Object.keys(params).filter((k) => !allowed.includes(k));
    if (unknown.length > 0) {
      return unknown.map((k) => {
        const suggestion = closestName(k, allowed);
        return {
          field: k,
          message: allowed.length === 0
            ? `Unknown param "${k}": ${type} takes no params`
            : `Unknown param "${k}" (params: ${allowed.join(", ")})`,
          ...(suggestion !== undefined && { suggestion }),
          key: true as const,
        };
      });
    }
    // The metric checks its own values: run it on an empty run, with each param on its own
    // (beside what the metric requires) so that every bad one is named, then with all of them.
    const issues = Object.keys(params).flatMap((k) =>
      paramIssues(type, { ...REQUIRED_PARAMS[type], [k]: params[k] }, k)
    );
    return issues.length > 0 ? issues : paramIssues(type, params, "");
  };
}

// A valid value of each param a metric requires, for checking the other params on their own.
const REQUIRED_PARAMS: Partial<Record<DeterministicMetricName, Record<string, unknown>>> = {
  trajectory_match: { trajectory: "exact" },
};

// The problem the metric finds in `params`, at the param its error names (else at `field`).
function paramIssues(
  type: DeterministicMetricName,
  params: Record<string, unknown>,
  field: string,
) {
  try {
    DETERMINISTIC_METRICS[type]({
      golden: EMPTY_GOLDEN,
      trace: EMPTY_TRACE,
      catalog: { views: [] },
    }, params);
    return [];
  } catch (e) {
    const marks = (e ?? {}) as Partial<ParamErrorMarks>;
    return [{
      field: typeof marks.field === "string" ? marks.field : field,
      message: e instanceof Error ? e.message : String(e),
      ...(typeof marks.suggestion === "string" && { suggestion: marks.suggestion }),
      ...(marks.key === true && { key: true as const }),
    }];
  }
}

/**
 * The suite-loading options that check every metric's params and offer the judge presets:
 * pass them to `loadSuite`.
 *
 * @returns Options for `loadSuite` (add `source`).
 *
 * @example
 * ```ts
 * import { loadSuite } from "@assay/assay/suite";
 * import { suiteChecks } from "@assay/assay/suite";
 * import { throws } from "node:assert/strict";
 *
 * throws(
 *   () => loadSuite("- type: step_efficiency\n  params: {windw: 3}\n", suiteChecks()),
 *   /Unknown param "windw"/,
 * );
 * ```
 */
export function suiteChecks(): LoadSuiteOptions {
  const paramsChecks: LoadSuiteOptions["paramsChecks"] = {
    llm_judge: (params) =>
      judgeParamsIssues(params).map((i) => ({
        field: i.field,
        message: i.message,
        ...(i.suggestion !== undefined && { suggestion: i.suggestion }),
        ...(i.key && { key: true as const }),
      })),
  };
  for (const type of Object.keys(DETERMINISTIC_METRIC_PARAMS) as DeterministicMetricName[]) {
    paramsChecks[type] = deterministicCheck(type);
  }
  return { paramsChecks, presets: JUDGE_PRESETS };
}

/** One criterion of one run, as the metric store keeps it. */
export interface CriterionRow extends ScoreRow {
  /** Why it was skipped or failed, or what it found. */
  details?: Record<string, unknown>;
  /** For judges: the hash of the rendered prompt. */
  prompt_sha256?: string;
  /** For judges: the model that judged. */
  judge_model?: string;
  /** For judges: whether the score came from the cache. */
  cached?: boolean;
}

/** One scored run. */
export interface RunResult {
  /** The golden. */
  golden_id: string;
  /** The arm. */
  arm: string;
  /** The repeat. */
  repeat: number;
  /** Every criterion, in suite order. */
  criteria: CriterionRow[];
  /** The overall score and whether the run passes. */
  overall: RunOverall;
}

/** Options of {@linkcode runSuite}. */
export interface RunSuiteOptions extends WithEngine {
  /** The judge for `llm_judge` metrics; without one, judges are skipped (as with `noJudge`). */
  judge?: Judge;
  /** Skip every `llm_judge` (no calls, no cost): a fully deterministic run. */
  noJudge?: boolean;
  /**
   * Called as each run is scored, with the runs done and their number, for progress: a run with
   * no judge to wait for as soon as its deterministic metrics are (before the first await), a
   * judged run once its judges have scored it. A promise it returns is not waited for before the
   * next run, but before `runSuite` returns, and its rejection is the run's.
   */
  onRun?: (done: number, total: number) => void;
}

/**
 * A suite run's inputs: the rows `readGoldens`, `readTraces` and `readCatalog` return, or the same
 * built in memory, which `runSuite` checks by the readers' rules.
 */
export interface SuiteInputs {
  /** The goldens, by id. */
  goldens: readonly Golden[];
  /** One trace per (golden, arm, repeat) run. */
  traces: readonly Trace[];
  /** The semantic layer's schema catalog. */
  catalog: SchemaCatalog;
}

/**
 * Scores every run of a suite. Runs come out sorted by arm, golden and repeat (code-point
 * order), whatever the order of the traces.
 *
 * Every run's deterministic metrics are computed before any judge is called, so that an input
 * they refuse costs no call. A judge metric is skipped (not applicable, no call) with `noJudge`,
 * without a judge, or when its `applicable_when` field is empty; a judge failure is applicable
 * with a null score, never a guess. Deterministic metrics never call anything.
 *
 * Before anything is scored, the inputs are checked by the rules `readGoldens`, `readTraces` and
 * `readCatalog` apply to files, so that goldens built in memory are refused, and scored, as the
 * same goldens read from a file: a key that misspells a field the golden or trace does not give
 * (`refrence_trajectory`, `Messages`), which would otherwise pass as metadata and leave its
 * metric not applicable; a golden, trace or catalog that breaks its schema
 * ({@linkcode GOLDEN_SCHEMA}, {@linkcode TRACE_SCHEMA}, {@linkcode CATALOG_SCHEMA}); a golden id
 * given twice; no traces; a trace of no golden or of the arm `overall`; a run given twice. Each
 * is the readers' message with the list and index (`goldens[2] (id "g03"): ...`) where they name
 * the file and line. Before those, a golden, trace or catalog is refused where it holds what no
 * JSON file can, which the schemas would let through and a metric would read as null or not at
 * all: NaN, Infinity or -Infinity, undefined (a member or in a list), a function, a bigint, a
 * symbol, an object that is not plain (a Date, a Map) or a cycle, named by its path
 * (`goldens[0] (id "g1"): reference_values.v is NaN, which JSON cannot hold`).
 *
 * @param suite The loaded suite.
 * @param inputs Goldens, traces and the catalog.
 * @param options The judge, or `noJudge`, and progress.
 * @returns One result per run.
 * @throws {SuiteInputError} At the first input the readers would refuse, or no file can hold
 *   (above), its `source`
 *   the list (`goldens`, `traces`, `catalog`) and `index` and `id` the row's.
 * @throws {RunInputError} If a deterministic metric cannot read a run's golden or trace: the
 *   message names the golden, arm, repeat and metric, then the field.
 * @throws {TypeError} If the suite is not one `loadSuite` gives (its text, say), or the inputs are
 *   not an object.
 *
 * @example A deterministic run
 * ```ts
 * import { loadSuite } from "@assay/assay/suite";
 * import { runSuite } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * const suite = loadSuite("- type: hit_limit\n- type: step_efficiency\n");
 * const [run] = await runSuite(suite, {
 *   goldens: [{ id: "g1", question: "How many orders?" }],
 *   traces: [{
 *     golden_id: "g1", arm: "base", repeat: 0, tool_calls: [], sql: [], final_rows: null,
 *     final_answer: null, submitted: false, hit_turn_limit: true,
 *   }],
 *   catalog: { views: [] },
 * }, { noJudge: true });
 * strictEqual(run!.overall.overall, 0.5);
 * strictEqual(run!.overall.pass, true);
 * ```
 *
 * @example A misspelt field is refused, as in a file
 * ```ts
 * import { loadSuite, runSuite } from "@assay/assay/suite";
 * import { rejects } from "node:assert/strict";
 *
 * const suite = loadSuite("- type: trajectory_match\n  params: {trajectory: unordered}\n");
 * const trace = {
 *   golden_id: "g1", arm: "base", repeat: 0, tool_calls: [], sql: [], final_rows: null,
 *   final_answer: null, submitted: true, hit_turn_limit: false,
 * };
 * // Built from a payload, say: TypeScript checks no object it did not see written.
 * const golden = { id: "g1", question: "q", refrence_trajectory: [{ name: "f", arguments: {} }] };
 * await rejects(
 *   runSuite(suite, {
 *     goldens: [golden],
 *     traces: [trace],
 *     catalog: { views: [] },
 *   }),
 *   {
 *     name: "SuiteInputError",
 *     index: 0,
 *     message: 'goldens[0] (id "g1"): unknown field "refrence_trajectory" (did you mean ' +
 *       '"reference_trajectory"?), too close to a field the golden does not give to be read ' +
 *       "as metadata",
 *   },
 * );
 * ```
 */
export async function runSuite(
  suite: Suite,
  inputs: SuiteInputs,
  options: RunSuiteOptions = {},
): Promise<RunResult[]> {
  checkOptions(options);
  checkOptionNames("runSuite", options, { engine: 1, judge: 1, noJudge: 1, onRun: 1 });
  // Suite text ("Cannot read properties of undefined (reading 'map')"): loadSuite reads it.
  if (!Array.isArray(suite?.metrics)) throw new TypeError("Expected a suite, as loadSuite gives");
  checkMemoryInputs(inputs);
  const goldens = new Map<string, Golden>();
  for (const g of inputs.goldens) goldens.set(g.id, g);
  const traces = [...inputs.traces].sort((a, b) =>
    compareCodePoints(a.arm, b.arm) || compareCodePoints(a.golden_id, b.golden_id) ||
    a.repeat - b.repeat
  );
  const judge = options.noJudge ? undefined : options.judge;
  const onRun = options.onRun;
  if (onRun !== undefined && typeof onRun !== "function") {
    throw new TypeError("Option onRun must be a function");
  }
  const order = suite.metrics.map((m) => m.name);
  const results: RunResult[] = [];
  // What an async onRun returned: awaited at the end, so that a rejection is the run's.
  const counted: unknown[] = [];
  const done = (trace: Trace, criteria: CriterionRow[]) => {
    results.push({
      golden_id: trace.golden_id,
      arm: trace.arm,
      repeat: trace.repeat,
      criteria,
      overall: runOverall(criteria, order),
    });
    const r: unknown = onRun?.(results.length, traces.length);
    // Handled at once (a rejection while judges are awaited is not an unhandled one), thrown
    // at the end.
    if (r instanceof Promise) {
      counted.push(r);
      r.catch(() => {});
    }
  };
  // Every run's deterministic metrics first, in one pass: an input they refuse stops the run
  // before any judge is paid for, and a run without a judge to wait for is done (and counted by
  // onRun) as soon as they are. Judge calls of all runs then go out together; the judge limits
  // its own concurrency.
  type Pending = CriterionRow | (() => Promise<CriterionRow>);
  const judged: [Trace, Pending[]][] = [];
  for (const trace of traces) {
    const golden = goldens.get(trace.golden_id)!;
    const run = { golden, trace, catalog: inputs.catalog };
    const criteria = suite.metrics.map((m): Pending => {
      const base = {
        golden_id: trace.golden_id,
        arm: trace.arm,
        repeat: trace.repeat,
        metric: m.name,
        threshold: m.threshold,
      };
      if (m.type !== "llm_judge") {
        try {
          return { ...base, ...DETERMINISTIC_METRICS[m.type](run, m.params) };
        } catch (e) {
          if (!(e instanceof RunInputError)) throw e;
          const where = `Golden ${JSON.stringify(trace.golden_id)} (arm ${trace.arm}, repeat ` +
            `${trace.repeat}), metric ${JSON.stringify(m.name)}`;
          const at = { golden_id: trace.golden_id, arm: trace.arm, repeat: trace.repeat };
          throw new RunInputError(e.input, `${where}: ${e.message}`, { cause: e, run: at });
        }
      }
      if (!judge) {
        return {
          ...base,
          applicable: false,
          score: null,
          details: { skipped: options.noJudge ? "no_judge" : "no_judge_configured" },
        };
      }
      return () => judgeRow(judge, m, run, base);
    });
    if (criteria.some((c) => typeof c === "function")) judged.push([trace, criteria]);
    else done(trace, criteria as CriterionRow[]);
  }
  await Promise.all(
    judged.map(async ([trace, criteria]) =>
      done(trace, await Promise.all(criteria.map((c) => typeof c === "function" ? c() : c)))
    ),
  );
  await Promise.all(counted);
  return results.sort((a, b) =>
    compareCodePoints(a.arm, b.arm) || compareCodePoints(a.golden_id, b.golden_id) ||
    a.repeat - b.repeat
  );
}

/** A judge metric's row for one run, once the judge has scored it. */
async function judgeRow(
  judge: Judge,
  m: Suite["metrics"][number],
  run: { golden: Golden; trace: Trace; catalog: SchemaCatalog },
  base: Omit<CriterionRow, "applicable" | "score">,
): Promise<CriterionRow> {
  const s: JudgeScore = await judge.score(
    { name: m.name, threshold: m.threshold, params: m.params },
    run,
  );
  return {
    ...base,
    applicable: s.applicable,
    score: s.score,
    ...(s.details !== undefined && { details: s.details }),
    rubric_sha256: s.rubric_sha256,
    prompt_sha256: s.prompt_sha256,
    judge_model: s.model,
    cached: s.cached,
  };
}
