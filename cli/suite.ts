// `assay suite validate|run|scorecard|compare` and `assay calibrate`.
import * as nodeCrypto from "node:crypto";
import { parseOptions, unknownWord } from "./_options.ts";
import { GateFailed, InputError, quote, UsageError } from "./_errors.ts";
import { decodeUtf8 } from "../src/jsonl/mod.ts";
import { compareCodePoints } from "../src/engine/mod.ts";
import { writeAtomic } from "./_atomic.ts";
import { decompressWhole, readTextFile } from "./_io.ts";
import { checkDistinct, checkInputs, checkStore, reportKind } from "./_paths.ts";
import { checkGatePaths, GATE_OUTPUT_FLAGS, gateOutputsHelp } from "./_gate_outputs.ts";
import { rate, table } from "./_table.ts";
import { printableString, printableText, textHead } from "../src/explain/text/mod.ts";
import { MetricStore, type StoredRun, type StoredScore } from "./_store.ts";
import { readPassCounts } from "./_store_history.ts";
import { loadSuite, type Suite, SuiteError } from "../src/suite/mod.ts";
import { RunInputError, type RunResult, runSuite, suiteChecks } from "../src/suite/mod.ts";
import { locateRunInputError } from "../src/suite/mod.ts";
import { readCalibrationLabels, readCatalog, readGoldens, readTraces } from "../src/suite/mod.ts";
import { scorecard, type ScoreRow, storedRowProblem } from "../src/suite/mod.ts";
import { compareArms, type Trace } from "../src/suite/mod.ts";
import { keptRepeats, passCounts, passRates } from "../src/suite/mod.ts";
import {
  deltaRow,
  interval,
  printNote,
  printReducedComparison,
  printRepeats,
  printStoredJson,
  storedRepeats,
  storedRun,
  suiteBootstrap,
} from "./_suite_repeats.ts";
import { type CalibrationReport, calibrationReport, suiteRunReport } from "../src/suite/mod.ts";
import { calibrationOptions } from "../src/suite/mod.ts";
import {
  createJudge,
  type JudgeApiKeys,
  type JudgeCallEvent,
  type JudgeOptions,
} from "../src/suite/mod.ts";
import { type JudgeProvider, parseJudgeModel, validateJudgeParams } from "../src/suite/mod.ts";

// The suite's help, in parts: the whole for `assay suite --help`, a command's own for
// `assay suite <command> --help`.
const COMMANDS = `Commands:
  validate SUITE            check a suite file (YAML or JSONC; - reads stdin); exit 0 when
                            valid, 2 otherwise
  run SUITE --goldens G --traces T --catalog C [--store DB] [--no-judge]
                            score every (golden, arm, repeat) run; write the rows to the store
  scorecard --store DB      per arm: pass rate and mean scores, with CIs clustered by golden;
                            with the suite's repeats, the repeats section as run prints it
  compare ARM_A ARM_B --store DB
                            ARM_B − ARM_A, paired by golden, with bootstrap CIs; with the
                            suite's repeats, also ARM_B − ARM_A on the reduced per-golden scores

`;
const RUN_OPTIONS = `Options of run:
  --goldens FILE     goldens JSONL ({id, question, expected_views?, reference_values?, ...})
  --traces FILE      traces JSONL, one line per (golden, arm, repeat) run
  --catalog FILE     the schema catalog JSON ({"views": [{"name", "columns"}]})
  --store FILE       the SQLite metric store (created when missing; history is kept);
                     an existing FILE must be an SQLite database
  --no-judge         skip every llm_judge: no calls, no cost, fully deterministic
  --concurrency N    judge calls in flight (default 4)
  --timeout-ms N     per judge call (default 60000)
  --anthropic-base-url URL, --openai-base-url URL
                     send anthropic: or openai: judge calls to a proxy or gateway
  --out FILE         also write the run's results as JSON; an existing FILE must be such
                     a report (or empty); no output may be an input
  --force            let --out, --junit or --markdown replace a file of another kind
  --json             print the results as JSON instead of tables
  --quiet            no progress on stderr
  --fail-under P     exit 3 (after the results) when an arm's pass rate is under P, in [0, 1]
  --gate RULES       exit 3 (after the results) when a rule of RULES fails on this run's
                     report (see 'assay gate --help'; metrics pass_rate, overall_score and
                     the suite's, slices overall or an arm); a bad RULES is exit 2 up front
${gateOutputsHelp(21, true)}  --seed N, --resamples N
                     the bootstrap of the scorecard and of the suite's repeats (default 0, 10000)
  --baseline ARM     the arm the repeats compare every other arm with, each delta that arm
                     minus ARM (default: the suite's repeats.baseline, else the first arm in
                     code-point order; never the order of the traces); exit 2 for a suite
                     without repeats
Judge API keys come from ANTHROPIC_API_KEY, OPENAI_API_KEY and OPENAI_COMPATIBLE_API_KEY only.

`;
const VIEW_OPTIONS = `Options of scorecard and compare:
  --store FILE       the metric store (required)
  --suite NAME       the suite (default: the one suite in the store)
  --run ID           a stored run (default: the suite's latest run)
  --seed N           bootstrap seed, also of the repeats section (default 0)
  --resamples N      bootstrap resamples, likewise (default 10000)
  --json             print JSON; with repeats, scorecard adds "repeats" (as run's report has
                     it) and compare "reduced_comparison"
A run stored before runs kept their repeats has no repeats section: the command says so in
one line (on stderr with --json, where "repeats" or "reduced_comparison" is null).

`;
const EXIT_CODES =
  `Exit codes: 0 on success (validate: the suite is valid), 2 on bad usage or bad input (validate:
the suite is not valid), 3 when run's --fail-under or --gate fails (after the results), 1 on an
internal error or when the store stays locked by another process for 60 s (run it again later).
`;

const HELP = `Usage: deno task assay suite <command> [options]

${COMMANDS}${RUN_OPTIONS}${VIEW_OPTIONS}${EXIT_CODES}`;

/** A command's lines of the commands' list (its own, and those continuing it). */
function commandLines(command: string): string {
  const lines = COMMANDS.split("\n");
  const at = lines.findIndex((l) => l.startsWith(`  ${command} `));
  let end = at + 1;
  while (end < lines.length && /^ {4,}/.test(lines[end]!)) end++;
  return lines.slice(at, end).join("\n") + "\n";
}

/** Each command's help: its usage, its line of the commands' list, its options, exit codes. */
const COMMAND_HELP: Record<string, string> = {
  validate: `Usage: deno task assay suite validate SUITE\n\n${commandLines("validate")}\n` +
    EXIT_CODES,
  run: "Usage: deno task assay suite run SUITE --goldens G --traces T --catalog C [options]\n\n" +
    `${commandLines("run")}\n${RUN_OPTIONS}${EXIT_CODES}`,
  scorecard: "Usage: deno task assay suite scorecard --store DB [options]\n\n" +
    `${commandLines("scorecard")}\n${VIEW_OPTIONS}${EXIT_CODES}`,
  compare: "Usage: deno task assay suite compare ARM_A ARM_B --store DB [options]\n\n" +
    `${commandLines("compare")}\n${VIEW_OPTIONS}${EXIT_CODES}`,
};

const CALIBRATE_HELP =
  `Usage: deno task assay calibrate --labels L.jsonl [--threshold T] [--kappa-bar K]
       deno task assay calibrate --labels L.jsonl --store DB --metric NAME [--run ID]

Checks a judge criterion against human labels before anyone trusts it: n, MAE, Pearson and
Spearman correlation, Cohen's kappa and the confusion matrix at the threshold, and a verdict.

Each line of L.jsonl has "human" (a label in [0, 1]) and either "judge" (the judge's score) or,
with --store and --metric, the run's "golden_id", "arm" and "repeat" to look the score up.

Options:
  --labels FILE      the human labels (required)
  --store FILE       the metric store whose judge scores are checked (with --metric)
  --metric NAME      the judge metric of the stored run to check (with --store)
  --suite NAME       the suite of the run (default: the one suite in the store)
  --run ID           the stored run (default: the suite's latest run)
  --threshold T      the pass threshold on both sides (default: the metric's, else 0.5)
  --kappa-bar K      the kappa a judge needs to be trusted (default 0.6)
  --min-n N          fewer labels than this is insufficient data (default 10)
  --json             print the report (assay.calibration.v1) as JSON
  --out FILE         write that report to FILE (atomically), e.g. for assay gate
  --force            let --out, --junit or --markdown replace a file of another kind
  --fail-under K     exit 3 (after the statistics) when Cohen's kappa is under K, in [0, 1],
                     or cannot be computed
  --gate RULES       exit 3 when a min or max rule of RULES fails on the report (metrics
                     kappa, agreement, mae, pearson, spearman; see 'assay gate --help')
${gateOutputsHelp(21, true)}
Exit codes: 0 on success, 2 on bad usage or bad input, 3 when --fail-under or --gate fails
(after the statistics), 1 on an internal error or when the store stays locked by another
process for 60 s (run it again later).
`;

/**
 * A user file's bytes, decompressed when they are gzip: a file that cannot be read is an input
 * error naming it.
 */
async function readBytes(path: string): Promise<Uint8Array> {
  return await decompressWhole(rawBytes(path), path);
}

/** A file's bytes as they are: a file that cannot be read is an input error naming it. */
function rawBytes(path: string): Uint8Array {
  try {
    return Deno.readFileSync(path);
  } catch (e) {
    throw new InputError(`Cannot read ${path}: ${e instanceof Error ? e.message : e}`, {
      cause: e,
    });
  }
}

/** A suite file's text: invalid UTF-8 is an input error at its line and byte. */
function readText(path: string): string {
  return decodeUtf8(rawBytes(path), path);
}

/**
 * A suite file, loaded and checked. A metric named as a suite run's own (`pass_rate`), which a gate
 * would refuse to read later, is refused at its name, by the gate's own rule (`suiteRunShape`).
 */
async function loadSuiteFile(
  path: string,
  text = readText(path),
): Promise<{ suite: Suite; text: string }> {
  const { suiteRunShape } = await import("../src/gate/mod.ts");
  const nameCheck = (name: string) => {
    try {
      suiteRunShape([name]);
      return undefined;
    } catch (e) {
      if (e instanceof RangeError) return e.message;
      throw e;
    }
  };
  try {
    return { suite: loadSuite(text, { source: path, ...suiteChecks(), nameCheck }), text };
  } catch (e) {
    if (e instanceof SuiteError) throw new InputError(e.message, { cause: e });
    throw e;
  }
}

/** The environment variable that holds each provider's API key. */
const KEY_VARIABLES: Record<JudgeProvider, string> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  "openai-compatible": "OPENAI_COMPATIBLE_API_KEY",
};
const KEY_OPTIONS = {
  anthropic: "anthropic",
  openai: "openai",
  "openai-compatible": "openaiCompatible",
} as const;

/**
 * The API keys the suite's judges need, read from the environment and checked before anything is
 * created: a key that is not set (the `openai-compatible` one is optional), empty, or not at least
 * 8 printable ASCII characters without spaces is a usage error that names its variable and never
 * quotes it. Only the keys a judge uses are passed on. Also returns each judge metric's provider.
 */
function judgeKeys(suite: Suite): { apiKeys: JudgeApiKeys; providers: Map<string, JudgeProvider> } {
  const providers = new Map<string, JudgeProvider>();
  const users = new Map<JudgeProvider, string>();
  for (const m of suite.metrics) {
    if (m.type !== "llm_judge") continue;
    const model = validateJudgeParams(m.params).judge_model!;
    const provider = parseJudgeModel(model).provider;
    providers.set(m.name, provider);
    if (!users.has(provider)) users.set(provider, `metric "${m.name}" judges with ${model}`);
  }
  const apiKeys: JudgeApiKeys = {};
  for (const [provider, user] of users) {
    const name = KEY_VARIABLES[provider];
    const value = Deno.env.get(name);
    const optional = provider === "openai-compatible";
    if (optional && (value === undefined || value === "")) continue;
    const why = value === undefined
      ? "is not set"
      : value === ""
      ? "is empty"
      : value.length < 8
      ? "is not a valid key: it is shorter than 8 characters"
      : !/^[\x21-\x7e]+$/.test(value)
      ? "is not a valid key: it holds a space, a control or a non-ASCII character"
      : undefined;
    if (why !== undefined) throw new UsageError(`${name} ${why} (${user}; or pass --no-judge)`);
    apiKeys[KEY_OPTIONS[provider]] = value;
  }
  return { apiKeys, providers };
}

async function runCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, {
    goldens: { type: "string" },
    traces: { type: "string" },
    catalog: { type: "string" },
    store: { type: "string" },
    "no-judge": { type: "boolean" },
    concurrency: { type: "string" },
    "timeout-ms": { type: "string" },
    "anthropic-base-url": { type: "string" },
    "openai-base-url": { type: "string" },
    out: { type: "string" },
    force: { type: "boolean" },
    json: { type: "boolean" },
    quiet: { type: "boolean" },
    "fail-under": { type: "string" },
    gate: { type: "string" },
    ...GATE_OUTPUT_FLAGS,
    seed: { type: "string" },
    resamples: { type: "string" },
    baseline: { type: "string" },
  });
  if (positionals.length !== 1) {
    throw new UsageError("Expected one suite file: suite run SUITE ...");
  }
  const failUnder = unitFlag("--fail-under", values["fail-under"]);
  const bootstrap = suiteBootstrap(values);
  // Always (with --no-judge too), before any file is read or created.
  const judgeOptions = judgeFlags(values);
  for (const f of ["goldens", "traces", "catalog"] as const) {
    if (!values[f]) throw new UsageError(`--${f} is required`);
  }
  const suitePath = positionals[0]!;
  const { paths: gateOutputs } = checkGatePaths(
    [
      ["suite file", suitePath],
      ["--goldens", values.goldens],
      ["--traces", values.traces],
      ["--catalog", values.catalog],
      ["--gate", values.gate],
    ],
    [
      { flag: "--store", path: values.store, kind: "store" },
      { flag: "--out", path: values.out, kind: reportKind("assay.suite_run.v1") },
    ],
    values,
  );
  // A bad rules file is exit 2 before any judge is paid for.
  const gate = values.gate === undefined ? undefined : await gateRules(values.gate);
  const { suite, text: suiteText } = await loadSuiteFile(suitePath);
  // --baseline picks the arm the repeats compare with: it has no effect without them.
  if (values.baseline !== undefined && suite.repeats === undefined) {
    throw new UsageError("--baseline compares the repeats: the suite has none");
  }
  const usesJudge = !values["no-judge"] && suite.metrics.some((m) => m.type === "llm_judge");
  // Before anything is read further or created: a missing key must leave no store behind.
  const keys = usesJudge ? judgeKeys(suite) : undefined;
  const goldenBytes = await readBytes(values.goldens!);
  const goldenRows = readGoldens(goldenBytes, { source: values.goldens! });
  const goldens = goldenRows.map((r) => r.value);
  // A golden without the field the repeats cluster by: exit 2 before any judge is paid for.
  let kept;
  try {
    kept = keptRepeats(suite, goldens);
  } catch (e) {
    if (e instanceof RangeError) {
      throw new InputError(`${values.goldens}: ${e.message}`, { cause: e });
    }
    throw e;
  }
  const traceRows = readTraces(await readBytes(values.traces!), {
    source: values.traces!,
    goldens,
    goldensSource: values.goldens!,
  });
  const traces = traceRows.map((r) => r.value);
  const baseline = baselineArm(values.baseline, suite, suitePath, traces);
  if (gate) {
    // The report's metrics and arms are known now: a rule naming others is exit 2 before work.
    // (A metric the gate reserves was refused as the suite was loaded.)
    const { suiteRunShape } = await import("../src/gate/mod.ts");
    const shape = suiteRunShape(suite.metrics.map((m) => m.name), traces.map((t) => t.arm));
    (await import("./gate.ts")).checkRulesUpFront(gate, shape, false, values.gate!);
  }
  const catalogBytes = await readBytes(values.catalog!);
  const catalog = readCatalog(catalogBytes, { source: values.catalog! });
  const quiet = values.quiet === true;
  // A store that is misshapen or cannot be written is refused before any judge is paid for.
  const store = values.store ? MetricStore.open(values.store, { write: true }) : undefined;
  // On a terminal, one status line: the runs scored (a deterministic run of 100,000 traces takes
  // minutes) and, with judges, their calls.
  const status = quiet || !Deno.stderr.isTerminal() ? undefined : (() => {
    const counts = { runs: 0, total: 0, calls: 0, hits: 0, errors: 0 };
    let shown = 0;
    const show = (now: boolean) => {
      const t = performance.now();
      if (!now && t - shown < 100) return;
      shown = t;
      const judged = usesJudge
        ? `; judge: ${counts.calls} calls, ${counts.hits} cached, ${counts.errors} errors`
        : "";
      Deno.stderr.writeSync(
        new TextEncoder().encode(`\r${counts.runs} of ${counts.total} runs scored${judged}`),
      );
    };
    return {
      onRun: (done: number, total: number) => {
        counts.runs = done;
        counts.total = total;
        show(done === total);
      },
      onCall: (e: JudgeCallEvent) => {
        if (e.outcome === "cache_hit") counts.hits++;
        else if (e.outcome === "ok") counts.calls++;
        else if (e.outcome !== "skipped") counts.errors++;
        show(false);
      },
    };
  })();
  const onCall = status?.onCall;
  const clearStatus = () => status && Deno.stderr.writeSync(new TextEncoder().encode("\r\x1b[K"));
  const judge = keys
    ? createJudge({
      ...judgeOptions,
      apiKeys: keys.apiKeys,
      ...(store && {
        cache: {
          get: (key: string) => store.cacheGet(key),
          set: (key: string, entry: { score: number; reason: string }) =>
            store.cacheSet(key, entry, new Date().toISOString()),
        },
      }),
      ...(onCall && { onCall }),
    })
    : undefined;
  let results: RunResult[];
  try {
    results = await runSuite(suite, { goldens, traces, catalog }, {
      ...(judge && { judge }),
      noJudge: values["no-judge"] === true,
      ...(status && { onRun: status.onRun }),
    });
  } catch (e) {
    store?.close();
    clearStatus();
    if (e instanceof RunInputError) {
      // The golden's line, or the trace's, as the schema checks name them.
      throw locateRunInputError(e, {
        goldens: goldenRows,
        traces: traceRows,
        goldensSource: values.goldens!,
        tracesSource: values.traces!,
      });
    }
    if (e instanceof RangeError) {
      throw new InputError(`${values.traces}: ${e.message}`, { cause: e });
    }
    throw e;
  }
  clearStatus();
  // A key the provider refused (401) fails every call of its judges: the run is not kept.
  const refused = keys &&
    results.flatMap((r) => r.criteria).find((c) =>
      keys.providers.has(c.metric) && c.details?.status === 401
    );
  if (keys && refused) {
    store?.close();
    const provider = keys.providers.get(refused.metric)!;
    const name = KEY_VARIABLES[provider];
    const sent = keys.apiKeys[KEY_OPTIONS[provider]] !== undefined;
    throw new UsageError(
      `${sent ? `The key in ${name} was refused` : `No key was sent (${name} is not set)`}: ` +
        `${refused.details?.error} (metric "${refused.metric}"; the run was not stored)`,
    );
  }
  const createdAt = new Date().toISOString();
  const sha256 = (data: string | Uint8Array) =>
    nodeCrypto.createHash("sha256").update(data).digest("hex");
  const suiteSha = sha256(suiteText);
  const runId = `${createdAt.replace(/[-:.]/g, "").slice(0, 15)}-${suiteSha.slice(0, 8)}-` +
    crypto.randomUUID().slice(0, 8);
  let report;
  let verdict;
  try {
    try {
      report = suiteRunReport(suite, results, goldens, {
        suiteSha256: suiteSha,
        runId: store ? runId : null,
        judge: values["no-judge"] ? "off" : usesJudge ? "on" : "none",
        inputs: { goldensSha256: sha256(goldenBytes), catalogSha256: sha256(catalogBytes) },
        ...bootstrap,
        ...(baseline !== undefined && { baseline }),
      });
    } catch (e) {
      // A golden without the field the repeats cluster by.
      if (e instanceof RangeError) {
        throw new InputError(`${values.goldens}: ${e.message}`, { cause: e });
      }
      throw e;
    }
    // What only the scores decide (max_regressions on a metric that is not right-or-wrong) is
    // refused here, before anything is stored or written.
    verdict = gate && (await import("./gate.ts")).verdictOf(gate, { report }, values.gate!);
  } catch (e) {
    store?.close();
    throw e;
  }
  if (store) {
    const stored: StoredScore[] = results.flatMap((r) =>
      r.criteria.map((c) => ({
        golden_id: c.golden_id,
        arm: c.arm,
        repeat: c.repeat,
        metric: c.metric,
        score: c.score,
        applicable: c.applicable,
        threshold: c.threshold,
        pass: c.score === null ? null : c.score >= c.threshold,
        prompt_sha256: c.prompt_sha256 ?? null,
        rubric_sha256: c.rubric_sha256 ?? null,
        judge_model: c.judge_model ?? null,
        error: typeof c.details?.error === "string" ? c.details.error : null,
      }))
    );
    try {
      store.writeRun({
        run_id: runId,
        suite: suite.name,
        suite_sha256: suiteSha,
        metrics: suite.metrics.map((m) => m.name),
        created_at: createdAt,
        // The arm the repeats compared with, so that scorecard compares as this run did.
        repeats: { ...kept, baseline: report.repeats?.baseline ?? null },
        // What the scorecard's history lists of this run, so that it never rescores the rows.
        passCounts: passCounts(report.scorecard),
      }, stored);
    } finally {
      store.close();
    }
  }
  const { scorecard: card, trajectory, repeats } = report;
  const text = JSON.stringify(report, null, 2) + "\n";
  if (values.out) await writeAtomic(values.out, text);
  if (verdict) {
    await (await import("./gate.ts")).writeGateOutputs(verdict, values.gate!, gateOutputs);
  }
  if (values.json) {
    console.log(text.trimEnd());
  } else {
    printScorecard(card, suite.metrics.map((m) => m.name));
    for (const t of trajectory ?? []) {
      console.log(
        `\n${
          printableText(t.metric)
        }: ${t.passes}/${t.applicable} runs match; greedy first-match would decide ` +
          `${t.greedy_disagreements} of them otherwise`,
      );
    }
    if (repeats) printRepeats(repeats);
    console.log(
      `\n${results.length} runs, suite ${printableText(suite.name)}` +
        (values["no-judge"] ? ", judges skipped (--no-judge)" : "") +
        (store ? `; stored as run ${runId} in ${values.store}` : ""),
    );
    // The causes are in --out and --json only: a failing judge says so where a person looks.
    const warning = keys && judgeWarning(results, keys.providers);
    if (warning) console.error(warning);
  }
  // Both checks print, then the first failure ends the command with exit 3.
  const failed = [
    failUnder === undefined ? undefined : checkPassRates(card, failUnder, values.json),
    verdict && (await import("./gate.ts")).printVerdict(verdict, values.gate!, values.json),
  ].find((f) => f !== undefined);
  if (failed) throw failed;
}

/**
 * The warning of a run whose judges failed on some calls (a network error, an HTTP error, replies
 * that are not a score): how many of the judge's calls failed and the first one's cause, cut
 * short and printable. Such runs are incomplete, and the run still exits 0 (docs/judge.md); the
 * scorecard counts them, but without this the causes were only in --out and --json. Undefined
 * when no call failed. A call is a judge's score of one run (its retries included; a cached score
 * counts, one skipped by applicable_when does not).
 */
function judgeWarning(
  results: readonly RunResult[],
  judges: ReadonlyMap<string, unknown>,
): string | undefined {
  const calls = results.flatMap((r) => r.criteria).filter((c) =>
    judges.has(c.metric) && c.applicable
  );
  const failed = calls.filter((c) => c.score === null && typeof c.details?.error === "string");
  if (failed.length === 0) return undefined;
  const cause = printableText(String(failed[0]!.details!.error));
  const cut = cause.length > 160 ? `${textHead(cause, 159)}\u2026` : cause;
  return `warning: the judge failed on ${failed.length} of ${calls.length} calls (first: ${cut}); ` +
    "those runs are incomplete";
}

/**
 * The arm the repeats compare every other arm with: `--baseline`, else the suite's
 * `repeats.baseline`; each must be an arm of the traces (exit 2 otherwise, before anything is
 * scored). Undefined when neither names one: the library's default, the first arm in code-point
 * order. Never the order of the traces' lines, so a shuffled traces file gives the same report.
 */
function baselineArm(
  flag: string | undefined,
  suite: Suite,
  suitePath: string,
  traces: readonly Trace[],
): string | undefined {
  const named = flag ?? suite.repeats?.baseline;
  if (named === undefined) return undefined;
  const arms = [...new Set(traces.map((t) => t.arm))].sort(compareCodePoints);
  if (arms.includes(named)) return named;
  const unknown = `${unknownWord("arm", named, arms)} in the traces`;
  if (flag !== undefined) throw new UsageError(`--baseline: ${unknown}`);
  throw new InputError(`${suitePath}: repeats.baseline: ${unknown}`);
}

/** A --gate rules file, read before the work it checks. */
async function gateRules(path: string) {
  return await (await import("./gate.ts")).readGateRules(path);
}

/** calibrate --fail-under: Cohen's kappa must reach it (a kappa that cannot be computed fails). */
function gateKappa(kappa: number | null, min: number | undefined): GateFailed | undefined {
  if (min === undefined) return;
  if (kappa !== null && kappa >= min) return;
  console.error(
    `FAIL: Cohen's kappa ${
      kappa === null ? "cannot be computed" : kappa.toFixed(4)
    }, under --fail-under ${min}`,
  );
  return new GateFailed(`kappa under --fail-under ${min}`);
}

/** A flag's number (its range is the library's to check). */
function numberFlag(flag: string, v: string): number {
  const x = Number(v);
  if (v.trim() === "" || Number.isNaN(x)) {
    throw new UsageError(`${flag} must be a number, got "${v}"`);
  }
  return x;
}

/** A flag's value in [0, 1], or undefined when not given. */
function unitFlag(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const x = Number(v);
  if (v.trim() === "" || !(x >= 0 && x <= 1)) {
    throw new UsageError(`${flag} must be a number in [0, 1], got "${v}"`);
  }
  return x;
}

/** --fail-under: every arm's pass rate must reach it, else exit 3 (after the scorecard). */
function checkPassRates(card: Card, min: number, json?: boolean): GateFailed | undefined {
  if (card.arms.length === 0) {
    console.error(`FAIL: no arm has runs, so no pass rate reaches ${min}`);
    return new GateFailed(`no arm under --fail-under ${min}`);
  }
  const low = card.arms.filter((a) => a.pass_rate.value === null || a.pass_rate.value < min);
  const say = low.length > 0 || json ? console.error : console.log;
  say(
    low.length > 0
      ? `FAIL: pass rate under ${min} in ${
        low.map((a) => `${printableText(a.arm)} (${a.pass_rate.value?.toFixed(3) ?? "none"})`).join(
          ", ",
        )
      }`
      : `pass: every arm's pass rate is at least ${min}`,
  );
  return low.length > 0
    ? new GateFailed(`${low.length} arm(s) under --fail-under ${min}`)
    : undefined;
}

/**
 * The judge flags as createJudge's options, each checked by createJudge itself (the one place the
 * limits live) and refused by its flag's name, whether or not a judge will run: a typo is not
 * silently ignored under --no-judge, and nothing is read or created before. An empty URL is
 * refused too, not dropped (it would quietly mean the real API).
 */
function judgeFlags(values: Record<string, unknown>): JudgeOptions {
  const given: [flag: string, options: JudgeOptions][] = [];
  const text = (flag: string) => values[flag.slice(2)] as string | undefined;
  for (const p of ["anthropic", "openai"] as const) {
    const v = text(`--${p}-base-url`);
    if (v !== undefined) given.push([`--${p}-base-url`, { baseUrls: { [p]: v } }]);
  }
  for (const [flag, key] of [["--concurrency", "concurrency"], ["--timeout-ms", "timeoutMs"]]) {
    const v = text(flag!);
    // Digits only: Number() read "" as 0, "0x10" as 16 and "1e3" as 1000.
    if (v !== undefined) given.push([flag!, { [key!]: /^\d+$/.test(v) ? Number(v) : NaN }]);
  }
  for (const [flag, options] of given) {
    try {
      createJudge(options);
    } catch (e) {
      const why = (e as Error).message.replace(/^Option \S+ /, "").replace(/, got [^]*$/, "");
      throw new UsageError(`${flag} ${why}, got ${quote(text(flag)!)}`);
    }
  }
  return Object.assign({}, ...given.map(([, o]) => o), {
    baseUrls: Object.assign({}, ...given.map(([, o]) => o.baseUrls ?? {})),
  });
}

type Card = ReturnType<typeof scorecard>;

function printScorecard(card: Card, metrics: string[]): void {
  for (const arm of card.arms) {
    // Incomplete and unscored runs are counted, so that failing judges are never silent, and so
    // are the runs without a pass verdict: an incomplete run has one when its missing scores
    // cannot change it, and then counts in the pass rate.
    const left = [
      arm.n_incomplete > 0 && `${arm.n_incomplete} incomplete (a judge error)`,
      arm.n_unscored > 0 && `${arm.n_unscored} unscored (no criterion applies)`,
    ].filter((x) => x);
    const undecided = arm.n_runs - arm.pass_rate.denominator;
    console.log(
      `\narm ${printableText(arm.arm)}: ${arm.n_runs} runs over ${arm.n_goldens} goldens` +
        (left.length > 0 ? `; ${left.join(", ")}` : "") +
        (undecided > 0 ? `; ${undecided} without a pass verdict, left out of the pass rate` : ""),
    );
    const rows: string[][] = [
      [
        "pass rate",
        arm.pass_rate.value === null ? "-" : rate({ ...arm.pass_rate, value: arm.pass_rate.value }),
        interval(arm.pass_rate.ci),
      ],
      [
        "overall",
        arm.overall.value === null ? "-" : arm.overall.value.toFixed(3),
        interval(arm.overall.ci),
      ],
    ];
    for (const m of metrics) {
      const s = arm.metrics.find((x) => x.metric === m);
      if (!s) continue;
      const errors = s.n_errors > 0 ? `, ${s.n_errors} judge errors` : "";
      rows.push([
        printableText(m),
        s.mean.value === null
          ? `- (${s.n_applicable} applicable${errors})`
          : `${s.mean.value.toFixed(3)} (n=${s.n_applicable}${errors})`,
        interval(s.mean.ci),
      ]);
    }
    console.log(table(["", "estimate", "95% CI"], rows));
  }
}

function openStore(path: string | undefined): MetricStore {
  if (!path) throw new UsageError("--store is required");
  checkStore("--store", path);
  return MetricStore.open(path);
}

/** The run to read: `runId`, or the latest run of the suite (the store's only suite by default). */
function pickRun(store: MetricStore, suiteName?: string, runId?: string) {
  const runs = store.runs(suiteName);
  if (runs.length === 0) {
    const stored = [...new Set(store.runs().map((r) => r.suite))];
    if (suiteName === undefined || stored.length === 0) {
      throw new InputError("The store has no runs");
    }
    throw new InputError(`${unknownWord("suite", suiteName, stored)} in the store`);
  }
  const suites = [...new Set(runs.map((r) => r.suite))];
  if (!suiteName && suites.length > 1) {
    throw new UsageError(`The store holds several suites (${suites.join(", ")}): pass --suite`);
  }
  const run = runId ? runs.find((r) => r.run_id === runId) : runs[runs.length - 1]!;
  if (!run) throw new InputError(`No run ${runId} in the store`);
  return { run, runs };
}

/**
 * A stored run's rows, as the scorecard reads them; a row that is not what a writer puts there
 * (`storedRowProblem`) is an input error naming the store, the run and the row.
 */
function rowsOf(store: MetricStore, path: string, run: StoredRun): ScoreRow[] {
  return store.scores(run.run_id).map((s) => {
    const problem = storedRowProblem(s, run.metrics);
    if (problem !== undefined) {
      throw new InputError(
        `${path}: run ${run.run_id} has a malformed scores row (golden ${
          JSON.stringify(s.golden_id)
        }, arm ${JSON.stringify(s.arm)}, repeat ${s.repeat}, metric ${
          JSON.stringify(s.metric)
        }): ${problem}`,
      );
    }
    return {
      golden_id: s.golden_id,
      arm: s.arm,
      repeat: s.repeat,
      metric: s.metric,
      score: s.score,
      applicable: s.applicable,
      threshold: s.threshold,
      ...(s.rubric_sha256 !== null && { rubric_sha256: s.rubric_sha256 }),
    };
  });
}

function scorecardCommand(args: string[]): void {
  const { values, positionals } = parseOptions(args, {
    store: { type: "string" },
    suite: { type: "string" },
    run: { type: "string" },
    seed: { type: "string" },
    resamples: { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length > 0) {
    throw new UsageError(
      `Unexpected argument ${quote(positionals[0]!)}: suite scorecard --store DB`,
    );
  }
  const bootstrap = suiteBootstrap(values);
  const store = openStore(values.store);
  try {
    const { run, runs } = pickRun(store, values.suite, values.run);
    const rows = rowsOf(store, values.store!, run);
    const card = storedRun(
      values.store!,
      run,
      () => scorecard(rows, { metrics: run.metrics, ...bootstrap }),
    );
    const { report, note } = storedRepeats(store, values.store!, run, rows, bootstrap);
    if (values.json) {
      printStoredJson(run, { scorecard: card }, { key: "repeats", part: report, note });
      return;
    }
    // Every run's history is read, and checked, before anything is printed: a malformed cell or
    // row is exit 2 with nothing on stdout.
    const hist = runs.length <= 1 ? [] : runs.map((r) => [
      printableText(r.run_id),
      printableText(r.created_at),
      historyPassRates(store, values.store!, r)
        .map(([arm, rate]) => `${printableText(arm)} ${rate?.toFixed(3) ?? "-"}`).join(", "),
    ]);
    console.log(
      `suite ${printableText(run.suite)}, run ${printableText(run.run_id)} ` +
        `(${printableText(run.created_at)}); ${runs.length} run(s) in history`,
    );
    printScorecard(card, run.metrics);
    if (report) printRepeats(report);
    printNote(note && `\n${note}`);
    if (runs.length > 1) {
      console.log("\nhistory (pass rate per arm):");
      console.log(table(["run", "created", "pass rate"], hist, 3));
    }
  } finally {
    store.close();
  }
}

/**
 * A stored run's pass rate per arm, for the history: from the pass counts its writer stored (one
 * cell of `runs`), or, for a run stored before they were, from its rows rescored (a scorecard of
 * one resample: only the pass rates' values are read).
 */
function historyPassRates(
  store: MetricStore,
  path: string,
  run: StoredRun,
): [arm: string, rate: number | null][] {
  const counts = readPassCounts(path, run.run_id, run.pass_counts, () => store.armsOf(run.run_id));
  if (counts) return passRates(counts);
  const rows = rowsOf(store, path, run);
  const card = storedRun(path, run, () => scorecard(rows, { metrics: run.metrics, resamples: 1 }));
  return card.arms.map((a) => [a.arm, a.pass_rate.value]);
}

function compareCommand(args: string[]): void {
  const { values, positionals } = parseOptions(args, {
    store: { type: "string" },
    suite: { type: "string" },
    run: { type: "string" },
    seed: { type: "string" },
    resamples: { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length !== 2) {
    throw new UsageError("Expected two arms: suite compare ARM_A ARM_B");
  }
  const [a, b] = positionals as [string, string];
  if (a === b) throw new UsageError(`Expected two different arms, got ${a} twice`);
  const bootstrap = suiteBootstrap(values);
  const store = openStore(values.store);
  try {
    const { run } = pickRun(store, values.suite, values.run);
    const rows = rowsOf(store, values.store!, run);
    const arms = [...new Set(rows.map((r) => r.arm))].sort();
    for (const arm of positionals) {
      if (!arms.includes(arm)) {
        throw new UsageError(`${unknownWord("arm", arm, arms)} in run ${run.run_id}`);
      }
    }
    const cmp = storedRun(
      values.store!,
      run,
      () => compareArms(rows, [a, b], { metrics: run.metrics, ...bootstrap }),
    );
    const { report, note } = storedRepeats(store, values.store!, run, rows, {
      ...bootstrap,
      arms: [a, b],
    });
    const reduced = report?.comparisons[0];
    if (values.json) {
      const part = report && reduced &&
        { repeats: report.repeats, bootstrap: report.bootstrap, ...reduced };
      printStoredJson(run, { comparison: cmp }, { key: "reduced_comparison", part, note });
      return;
    }
    const [shownA, shownB] = [printableText(a), printableText(b)];
    console.log(
      `${shownB} − ${shownA}, paired by golden (${cmp.n_goldens} goldens), ` +
        `run ${printableText(run.run_id)}`,
    );
    const rowsOut = [deltaRow("pass rate", cmp.pass_rate), deltaRow("overall", cmp.overall)];
    for (const m of cmp.metrics_delta) rowsOut.push(deltaRow(m.metric, m));
    console.log(table(["", shownA, shownB, "delta", "95% CI"], rowsOut));
    if (report && reduced) printReducedComparison(report, reduced);
    printNote(note && `\n${note}`);
  } finally {
    store.close();
  }
}

async function validateCommand(args: string[]): Promise<void> {
  const { positionals } = parseOptions(args, {});
  if (positionals.length !== 1) {
    throw new UsageError("Expected one suite file: suite validate SUITE");
  }
  const path = positionals[0]!;
  checkInputs([["suite file", path, true]]);
  // `-` is stdin, named <stdin> in messages.
  const { name, text } = path === "-"
    ? await readTextFile("suite file", path)
    : { name: path, text: undefined };
  const { suite } = await loadSuiteFile(name, text);
  console.log(
    `${name}: valid suite ${printableString(suite.name)} with ${suite.metrics.length} ` +
      `metric(s): ${suite.metrics.map((m) => printableText(m.name)).join(", ")}`,
  );
}

/** Runs `assay suite <command>`. */
export async function runSuiteCommand(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (command === undefined || command === "--help" || command === "-h") {
    console.log(HELP);
    if (command === undefined) {
      throw new UsageError("Expected a suite command (validate, run, scorecard, compare)");
    }
    return;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(COMMAND_HELP[command] ?? HELP);
    return;
  }
  switch (command) {
    case "validate":
      return await validateCommand(rest);
    case "run":
      return await runCommand(rest);
    case "scorecard":
      return scorecardCommand(rest);
    case "compare":
      return compareCommand(rest);
    default:
      throw new UsageError(
        unknownWord("suite command", command, ["validate", "run", "scorecard", "compare"]),
      );
  }
}

/** Runs `assay calibrate`. */
export async function runCalibrate(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, {
    labels: { type: "string" },
    store: { type: "string" },
    metric: { type: "string" },
    run: { type: "string" },
    suite: { type: "string" },
    threshold: { type: "string" },
    "kappa-bar": { type: "string" },
    "min-n": { type: "string" },
    json: { type: "boolean" },
    out: { type: "string" },
    force: { type: "boolean" },
    "fail-under": { type: "string" },
    gate: { type: "string" },
    ...GATE_OUTPUT_FLAGS,
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    console.log(CALIBRATE_HELP);
    return;
  }
  if (positionals.length > 0) {
    throw new UsageError(`Unexpected argument ${quote(positionals[0]!)}: calibrate --labels L`);
  }
  if (!values.labels) throw new UsageError("--labels is required");
  const failUnder = unitFlag("--fail-under", values["fail-under"]);
  // The flags are checked, by their names, before any file is read.
  const given = {
    ...(values.threshold !== undefined &&
      { threshold: numberFlag("--threshold", values.threshold) }),
    ...(values["kappa-bar"] !== undefined &&
      { kappaBar: numberFlag("--kappa-bar", values["kappa-bar"]) }),
    ...(values["min-n"] !== undefined && { minN: numberFlag("--min-n", values["min-n"]) }),
  };
  try {
    calibrationOptions(given, {
      threshold: "--threshold",
      kappaBar: "--kappa-bar",
      minN: "--min-n",
    });
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
  if ((values.store === undefined) !== (values.metric === undefined)) {
    throw new UsageError("--store and --metric go together");
  }
  for (const flag of ["run", "suite"] as const) {
    if (values[flag] !== undefined && values.store === undefined) {
      throw new UsageError(`--${flag} picks a stored run: it needs --store and --metric`);
    }
  }
  const gated = checkGatePaths([["--labels", values.labels], ["--gate", values.gate]], [
    { flag: "--out", path: values.out, kind: reportKind("assay.calibration.v1") },
  ], values);
  const gate = values.gate === undefined ? undefined : await gateRules(values.gate);
  if (gate) {
    const { CALIBRATION_SHAPE } = await import("../src/gate/mod.ts");
    (await import("./gate.ts")).checkRulesUpFront(gate, CALIBRATION_SHAPE, false, values.gate!);
  }
  if (values.store !== undefined) {
    checkStore("--store", values.store);
    // Opening a store writes to it (the journal mode, the schema): it may not be the labels.
    checkDistinct([["--labels", values.labels]], [
      { flag: "--store", path: values.store, kind: "store" },
      { flag: "--out", path: values.out, kind: reportKind("assay.calibration.v1") },
      ...gated.outputs,
    ]);
  }
  // Decoded before the store is opened: a labels file that is not UTF-8 is named first.
  const labels = decodeUtf8(await readBytes(values.labels), values.labels);
  let lookup: Map<string, ScoreRow> | undefined;
  let threshold = given.threshold;
  if (values.store) {
    const store = openStore(values.store);
    try {
      const { run } = pickRun(store, values.suite, values.run);
      if (!run.metrics.includes(values.metric!)) {
        throw new InputError(
          `${unknownWord("metric", values.metric!, run.metrics)} in run ${run.run_id}`,
        );
      }
      const rows = rowsOf(store, values.store, run);
      refuseUnjudged(store, run, values.metric!);
      lookup = new Map();
      for (const r of rows) {
        if (r.metric === values.metric) {
          lookup.set(JSON.stringify([r.golden_id, r.arm, r.repeat]), r);
        }
      }
      if (lookup.size === 0) {
        throw new InputError(`The run has no scores of metric "${values.metric}"`);
      }
      threshold ??= [...lookup.values()][0]!.threshold;
    } finally {
      store.close();
    }
  }
  const { pairs, skipped } = readCalibrationLabels(labels, {
    source: values.labels,
    ...(lookup && {
      judgeScore: (r: { golden_id: string; arm: string; repeat: number }) =>
        lookup.get(JSON.stringify([r.golden_id, r.arm, r.repeat]))?.score,
      scoreName: values.metric!,
      scoresIn: "the store",
    }),
  });
  const report = calibrationReport(
    pairs,
    { ...given, ...(threshold !== undefined && { threshold }) },
    skipped,
  );
  // Made before --out is written, so that a rule the report refuses writes nothing.
  const verdict = gate && (await import("./gate.ts")).verdictOf(gate, { report }, values.gate!);
  const text = JSON.stringify(report, null, 2) + "\n";
  if (values.out) await writeAtomic(values.out, text);
  if (verdict) {
    await (await import("./gate.ts")).writeGateOutputs(verdict, values.gate!, gated.paths);
  }
  if (values.json) {
    console.log(text.trimEnd());
  } else {
    printCalibration(report);
  }
  const failed = [
    gateKappa(report.kappa, failUnder),
    verdict && (await import("./gate.ts")).printVerdict(verdict, values.gate!, values.json),
  ].find((f) => f !== undefined);
  if (failed) throw failed;
}

/**
 * Refuses to calibrate a metric whose scores in `run` no judge gave (a deterministic metric): only
 * an LLM judge's scores are checked against human labels. A judge metric skipped in the run
 * (`--no-judge`) has no score at all and is let through: its labels are counted as skipped.
 */
function refuseUnjudged(store: MetricStore, run: StoredRun, metric: string): void {
  const unjudged = new Set(
    store.scores(run.run_id).filter((s) => s.score !== null && s.judge_model === null).map((s) =>
      s.metric
    ),
  );
  if (!unjudged.has(metric)) return;
  const judges = run.metrics.filter((m) => !unjudged.has(m)).map((m) => JSON.stringify(m));
  throw new UsageError(
    `--metric ${JSON.stringify(metric)} is not a judge metric (its scores in run ${run.run_id} ` +
      "come from no judge): only an llm_judge metric can be calibrated against human labels; " +
      (judges.length === 0 ? "the run has none" : `the run's: ${judges.join(", ")}`),
  );
}

function printCalibration(result: CalibrationReport): void {
  const f = (x: number | null) => (x === null ? "-" : x.toFixed(4));
  const c = result.confusion;
  console.log(table(["statistic", "value"], [
    ["n", String(result.n)],
    ["MAE", f(result.mae)],
    ["Pearson r", f(result.pearson)],
    ["Spearman rho", f(result.spearman)],
    ["Cohen's kappa", f(result.kappa)],
    ["agreement", f(result.agreement)],
  ]));
  console.log(`\nconfusion at threshold ${result.threshold} (rows: judge, columns: human)`);
  console.log(table(["", "human pass", "human fail"], [
    ["judge pass", String(c.tp), String(c.fp)],
    ["judge fail", String(c.fn), String(c.tn)],
  ]));
  console.log(`\nverdict: ${printableText(result.verdict)} — ${printableText(result.reason)}`);
  const skipped = result.skipped_unscored;
  if (skipped > 0) console.log(`(${skipped} label(s) skipped: the judge gave no score)`);
}
