// `assay compare` and `assay gaps`: paired-bootstrap comparisons with readable tables.
import type { EvaluationReport } from "../src/evaluation/mod.ts";
import { compareReports, ComparisonGateError, type ComparisonReport } from "../src/compare/mod.ts";
import { type GapReport, languageGaps } from "../src/compare/mod.ts";
import { BINARY_METRIC_NAMES, EVALUATION_SCHEMAS, METRIC_NAMES } from "../src/evaluation/mod.ts";
import { formatReport } from "../src/evaluation/mod.ts";
import { InputError, readLines } from "../src/jsonl/mod.ts";
import {
  checkReport,
  parseReportJson,
  parseReportLines,
  unscoredNote,
} from "../src/report_check/mod.ts";
import { decompressed, decompressWhole, inputName, readStdin, writeStdout } from "./_io.ts";
import { writeAtomic } from "./_atomic.ts";
import { checkPaths, COMPARISON_PAGE, reportKind } from "./_paths.ts";
import { checkGatePaths, GATE_OUTPUT_FLAGS, gateOutputsHelp } from "./_gate_outputs.ts";
import { oneOf, parseOptions } from "./_options.ts";
import { UsageError } from "./_errors.ts";
import { rate, table } from "./_table.ts";
import { working } from "./_progress.ts";
import { printableText } from "../src/explain/text/mod.ts";
import { levelPercent } from "../src/stats/mod.ts";

/** The help text of the bootstrap and output flags that every comparison command shares. */
export const COMMON = `Bootstrap:
  --seed N         PRNG seed, an integer in [0, 2^32) (default 0)
  --resamples N    resamples per interval (default 10000)
  --level X        interval level (default 0.95)

Output:
  --out FILE       write the JSON report (atomically); FILE may not be an input, and
                   an existing FILE must be a report of the same kind (or empty)
  --force          let --out replace a file of another kind
  --json           print the JSON report to stdout instead of the table
`;

const COMPARE_HELP = `Usage: deno task assay compare BASE.json ADAPTER.json [options]

Compares two evaluation reports (assay.evaluation.v2, or v1) over the same examples: per slice and
overall, per metric, adapter − base with a seeded paired-bootstrap percentile
interval. Refuses (exit 2, nothing written) when the reports differ in metric
names, slices, example ids, parser id, canonical id, number mode or gold (the
examples file's SHA-256, and each example's gold pairs, or gold call when both
were scored with --details; with --on intersection the files may differ when
both were scored with --details, each shared example's gold may not). Prompts
manifests may differ. A '*' marks a delta whose interval excludes zero.

${COMMON}  --html FILE      also write a self-contained HTML report (forest plot, gaps, and the
                   examples with filters; reports scored with --details show each
                   example's gold, outputs and differing paths); an existing FILE must
                   be such a page (or empty), unless --force
  --reference L    reference language for the HTML report's gaps (default en); only
                   with --html
  --gate RULES     also check the two reports against a rules file (see 'assay gate
                   --help'): exit 3 when a rule fails
${gateOutputsHelp(19, true)}  --on all|intersection
                   all (default): both reports must hold the same examples;
                   intersection: compare the examples they share, and report how
                   many (and which) each side left out

Exit codes: 0 on success, 2 on bad usage or bad input (a refusal writes nothing), 3 when a
--gate rule fails (after the table and the files), 1 on an internal error.
`;

const GAPS_HELP = `Usage: deno task assay gaps REPORT.json [--reference en] [options]

Language gaps inside one evaluation report: target − reference language.
'primary' joins each translated row to its exact root row in the reference
slice and bootstraps the pairs (coverage and pair-set digest included; with
no pair joined, "no pairs": the delta and interval are null);
'marginal_full_slices' compares the full slices, descriptively, with no
interval. A '*' marks a delta whose interval excludes zero.

${COMMON}  --reference L    the reference language (default en)

A report whose only language is the reference has no gap: the command says so
(exit 0), and the JSON report has no target.

Exit codes: 0 on success, 2 on bad usage or bad input (a refusal writes nothing), 1 on an
internal error.
`;

/** The bootstrap and output flags that every comparison command shares. */
export const BOOTSTRAP_FLAGS = {
  seed: { type: "string" },
  resamples: { type: "string" },
  level: { type: "string" },
  out: { type: "string" },
  force: { type: "boolean" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function integer(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) {
    throw new UsageError(`--${flag} must be a non-negative integer, got "${text}"`);
  }
  return Number(text);
}

/** The bootstrap options of the flags, or a UsageError. */
export function bootstrapFlags(values: { seed?: string; resamples?: string; level?: string }) {
  const level = values.level === undefined ? 0.95 : Number(values.level);
  if (!(level > 0 && level < 1)) {
    throw new UsageError(`--level must be in (0, 1), got "${values.level}"`);
  }
  const seed = integer("seed", values.seed, 0);
  if (seed > 0xffffffff) throw new UsageError(`--seed must be below 2^32, got ${seed}`);
  const resamples = integer("resamples", values.resamples, 10_000);
  if (resamples < 1 || resamples > 10_000_000) {
    throw new UsageError(`--resamples must be in [1, 10^7], got ${resamples}`);
  }
  return { seed, resamples, level };
}

/**
 * Files larger than this are read a line at a time (parseReportLines): a JavaScript string holds
 * about 512 MiB of text at most, and a report can be larger (a million examples with details).
 */
const WHOLE_TEXT_BYTES = 256 << 20;

/**
 * Reads a JSON file, with named errors for a missing file or one that is not JSON
 * (`parseReportJson`). A file over `wholeTextBytes` (256 MiB) must be a report as Assay lays it
 * out, a record per line.
 */
export async function readJsonFile(
  path: string,
  wholeTextBytes = WHOLE_TEXT_BYTES,
): Promise<unknown> {
  let bytes: Uint8Array;
  if (path === "-") {
    path = inputName(path);
    bytes = await readStdin();
  } else {
    try {
      if ((await Deno.stat(path)).size > wholeTextBytes) {
        using file = await Deno.open(path);
        // A gzip file (which --help allows) is read decompressed, as a smaller one is.
        const bytes = ReadableStream.from(decompressed(file.readable, path));
        return await parseReportLines(readLines(bytes, { source: path }), path);
      }
      bytes = await Deno.readFile(path);
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`Cannot read ${path}: ${e instanceof Error ? e.message : e}`, {
        cause: e,
      });
    }
  }
  // A compressed report is read whole: one too large for that is read a line at a time once
  // decompressed.
  const how = ` (decompress it first: gunzip -k ${path})`;
  bytes = await decompressWhole(bytes, path, undefined, wholeTextBytes, how);
  return parseReportJson(bytes, path);
}

/**
 * Reads a report of one of `schemas` (with an array under `list`, when given): anything else,
 * a body edited by hand or cut short included, is bad input naming the file (`checkReport`).
 */
export async function readReportFile(
  path: string,
  schemas: readonly string[],
  list?: string,
): Promise<Record<string, unknown>> {
  return checkReport(await readJsonFile(path), inputName(path), schemas, list);
}

/** Reads an evaluation report (v2, or v1), with named errors for a missing or wrong file. */
export async function readEvaluation(path: string): Promise<EvaluationReport> {
  return await readReportFile(path, EVALUATION_SCHEMAS, "records") as unknown as EvaluationReport;
}

/**
 * Runs `f`; a ComparisonGateError it throws names the reports' files (`files`) first, as the
 * library knows them only as base and adapter.
 */
export function namingFiles<T>(files: string, f: () => T, intersect?: IntersectHint): T {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof ComparisonGateError)) throw e;
    e.message = `${files}: ${e.message}`;
    // Reports of different examples: say how to read the ones they share.
    if (
      intersect?.on === "all" && e.differences.some((d) => d.kind === "example_ids" && d.only)
    ) {
      e.message += `; pass --on intersection to ${intersect.verb} the examples both reports hold`;
    }
    throw e;
  }
}

/** What a refusal of two reports' different examples says to do: `--on intersection`. */
interface IntersectHint {
  /** The command's --on. */
  on: string;
  /** What the command does to the examples, as `compare` or `gate`. */
  verb: string;
}

/** A delta with its sign and three decimals. */
export function signed(x: number): string {
  return (x >= 0 ? "+" : "") + x.toFixed(3);
}

/** An interval as `[-0.010, +0.020]`. */
export function interval(ci: [number, number]): string {
  return `[${signed(ci[0])}, ${signed(ci[1])}]`;
}

/** The line under a comparison table: its bootstrap, and what `*` marks. */
export function bootstrapNote(b: { resamples: number; prng: string; seed: number }): string {
  return `paired bootstrap, ${b.resamples} resamples, ${b.prng}, seed ${b.seed}; * = interval excludes 0`;
}

/** `*` when the interval excludes zero. */
export function excludesZero(ci: [number, number]): boolean {
  return ci[0] > 0 || ci[1] < 0;
}

/** The readable table of a comparison. */
export function comparisonTable(c: ComparisonReport): string {
  const rows: string[][] = [];
  const slices: [string, ComparisonReport["deltas"]["overall"]][] = [
    ["overall", c.deltas.overall],
    ...c.slices.map((s) => [s, c.deltas.by_language[s]!] as [string, typeof c.deltas.overall]),
  ];
  for (const [slice, deltas] of slices) {
    for (const m of METRIC_NAMES) {
      const d = deltas[m];
      rows.push([
        m === METRIC_NAMES[0] ? printableText(slice) : "",
        m,
        rate(d.base),
        rate(d.adapter),
        signed(d.delta),
        interval(d.ci),
        excludesZero(d.ci) ? "*" : "",
      ]);
    }
  }
  const b = c.bootstrap;
  return [
    table(
      ["slice", "metric", "base", "adapter", "delta", `${levelPercent(b.level)} CI`, ""],
      rows,
      2,
    ),
    "",
    `${c.n} examples; ${bootstrapNote(b)}`,
    "",
    ...flipLines(c),
  ].join("\n");
}

/** At most this many ids are printed per metric; the JSON report lists them all. */
const SHOWN_IDS = 12;

/** The first ids of a list, as printableText writes them, and `…` when there are more. */
function shownIds(ids: string[], count = ids.length): string {
  return ids.slice(0, SHOWN_IDS).map(printableText).join(", ") + (count > SHOWN_IDS ? ", …" : "");
}

/** The examples each right-or-wrong metric flips, overall: regressions first. */
function flipLines(c: ComparisonReport): string[] {
  const lines = [];
  if (c.coverage) {
    const { shared, base_only: b, adapter_only: a } = c.coverage;
    // A side that left out none is not named.
    const sides = ([[b, "base"], [a, "adapter"]] as const).flatMap(([s, arm]) =>
      s.count ? [`${s.count} only in ${arm} (${shownIds(s.ids, s.count)})`] : []
    );
    lines.push(
      `On the ${shared} shared example${shared === 1 ? "" : "s"}: ` +
        `${sides.length ? sides.join(" and ") : "none"} left out`,
      "",
    );
  }
  lines.push("Examples flipped overall (right in base, wrong in adapter = regressed):");
  for (const m of BINARY_METRIC_NAMES) {
    const r = c.regressions.overall[m];
    const i = c.improvements.overall[m];
    const ids = r.count > 0 ? `: ${shownIds(r.ids, r.count)}` : "";
    lines.push(`  ${m}: ${r.count} regressed, ${i.count} improved${ids}`);
  }
  return lines;
}

/** The readable table of language gaps. */
export function gapTable(g: GapReport): string {
  const rows: string[][] = [];
  const reference = printableText(g.reference);
  for (const lang of g.targets) {
    const gap = g.gaps[lang]!;
    for (const m of METRIC_NAMES) {
      const p = gap.primary.metrics[m];
      const marginal = gap.marginal_full_slices.metrics[m];
      rows.push([
        m === METRIC_NAMES[0] ? `${printableText(lang)} − ${reference}` : "",
        m,
        rate(p.target),
        rate(p.reference),
        // No pair joined: no estimate.
        p.ci ? signed(p.delta!) : "no pairs",
        p.ci ? interval(p.ci) : "",
        p.ci && excludesZero(p.ci) ? "*" : "",
        signed(marginal.delta),
      ]);
    }
  }
  const cov = g.targets.map((l) => {
    const p = g.gaps[l]!.primary;
    return `${printableText(l)}: ${p.n_pairs} pairs, coverage ${rate(p.coverage)}` +
      (p.unjoined.root_not_in_reference || p.unjoined.no_root_id
        ? ` (unjoined: ${p.unjoined.no_root_id} without root_id, ${p.unjoined.root_not_in_reference} root not in ${reference})`
        : "");
  });
  return [
    table(
      [
        "gap",
        "metric",
        "target",
        "reference",
        "delta",
        `${levelPercent(g.bootstrap.level)} CI`,
        "",
        "marginal Δ",
      ],
      rows,
      2,
    ),
    "",
    ...cov,
    `primary: paired over joined rows, ${g.bootstrap.resamples} resamples, seed ${g.bootstrap.seed}; * = interval excludes 0`,
    "marginal Δ: full slices, descriptive only (the cohorts can differ), no interval",
  ].join("\n");
}

/** Runs `assay compare`. */
export async function runCompare(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, {
    ...BOOTSTRAP_FLAGS,
    html: { type: "string" },
    reference: { type: "string" },
    on: { type: "string" },
    gate: { type: "string" },
    ...GATE_OUTPUT_FLAGS,
  });
  if (values.help) {
    console.log(COMPARE_HELP);
    return;
  }
  if (positionals.length !== 2) {
    throw new UsageError("Expected two reports: BASE.json ADAPTER.json");
  }
  const options = bootstrapFlags(values);
  const on = oneOf("--on", values.on ?? "all", ["all", "intersection"] as const);
  if (values.reference !== undefined && values.html === undefined) {
    throw new UsageError("--reference chooses the gaps of --html's page: give --html FILE");
  }
  const { paths } = checkGatePaths(
    [
      ["base report", positionals[0], true],
      ["adapter report", positionals[1], true],
      ["--gate", values.gate],
    ],
    [
      { flag: "--out", path: values.out, kind: reportKind("assay.comparison.v1") },
      { flag: "--html", path: values.html, kind: COMPARISON_PAGE },
    ],
    values,
  );
  // The gate's module (and its YAML reader) is loaded only with --gate.
  const gating = values.gate === undefined ? undefined : await import("./gate.ts");
  const rules = gating && await gating.readGateRules(values.gate!);
  const base = await readEvaluation(positionals[0]!);
  const adapter = await readEvaluation(positionals[1]!);
  if (gating && rules) {
    const { evaluationShape } = await import("../src/gate/mod.ts");
    gating.checkRulesUpFront(rules, evaluationShape(base.slices), true, values.gate!);
  }
  const done = working(
    `compare: ${options.resamples} resamples of ${base.records.length} examples, overall and ` +
      "by slice",
  );
  let comparison: ComparisonReport;
  try {
    comparison = namingFiles(
      `${positionals[0]} (base) and ${positionals[1]} (adapter)`,
      () => compareReports(base, adapter, { ...options, on }),
      { on, verb: "compare" },
    );
  } finally {
    done();
  }
  // Before anything is written: a rule the reports refuse is exit 2 with nothing written. The
  // gate reads the examples the comparison does (--on).
  const verdict = gating && rules && namingFiles(
    `${positionals[0]} (base) and ${positionals[1]} (adapter)`,
    () => gating.verdictOf(rules, { base, candidate: adapter }, values.gate!, { on }),
  );
  // The page's gaps, before anything is written: a --reference that is not a slice is exit 2 (as
  // in assay gaps); without --reference, the page has gaps only when en is a slice among others.
  const reference = values.reference ?? "en";
  let gaps: { base: GapReport; adapter: GapReport } | undefined;
  if (
    values.html !== undefined &&
    (values.reference !== undefined || (base.slices.includes(reference) && base.slices.length > 1))
  ) {
    try {
      gaps = {
        base: languageGaps(base, { ...options, reference }),
        adapter: languageGaps(adapter, { ...options, reference }),
      };
    } catch (e) {
      if (e instanceof RangeError) throw new UsageError(`--reference: ${e.message}`);
      throw e;
    }
  }
  const text = formatReport(comparison);
  if (values.out !== undefined) await writeAtomic(values.out, text);
  if (values.html !== undefined) {
    const { renderComparisonHtml } = await import("../src/report/mod.ts");
    const { examplesSection } = await import("../src/explain/mod.ts");
    const sections = [examplesSection(comparison, base, adapter)];
    const html = renderComparisonHtml(comparison, { ...(gaps && { gaps }), sections });
    await writeAtomic(values.html, html);
  }
  if (gating && verdict) await gating.writeGateOutputs(verdict, values.gate!, paths);
  if (values.json) await writeStdout(text);
  else console.log(comparisonTable(comparison));
  // The examples a partial run left unscored (a gate's verdict says it in its note).
  const note = unscoredNote([["base report", base], ["adapter report", adapter]]);
  if (note !== undefined && !verdict) console.error(`note: ${note}`);
  if (gating && verdict) {
    const failed = gating.printVerdict(verdict, values.gate!, values.json);
    if (failed) throw failed;
  }
}

/** Runs `assay gaps`. */
export async function runGaps(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, {
    ...BOOTSTRAP_FLAGS,
    reference: { type: "string" },
  });
  if (values.help) {
    console.log(GAPS_HELP);
    return;
  }
  if (positionals.length !== 1) throw new UsageError("Expected one report: REPORT.json");
  const options = bootstrapFlags(values);
  checkPaths(
    [[undefined, positionals[0], true]],
    [{ flag: "--out", path: values.out, kind: reportKind("assay.gaps.v1") }],
    { force: values.force },
  );
  const report = await readEvaluation(positionals[0]!);
  let gaps: GapReport;
  const done = working(`gaps: ${options.resamples} resamples per language`);
  try {
    gaps = languageGaps(report, { ...options, reference: values.reference ?? "en" });
  } catch (e) {
    // The report's slices, or the report itself, are at fault as much as the flag: both named.
    if (e instanceof RangeError) throw new UsageError(`${positionals[0]}: ${e.message}`);
    throw e;
  } finally {
    done();
  }
  const text = formatReport(gaps);
  if (values.out !== undefined) await writeAtomic(values.out, text);
  // A report of the reference language alone has no gap: said, not shown as an empty table.
  const none = gaps.targets.length > 0
    ? undefined
    : `no language besides the reference ${printableText(gaps.reference)} to compare`;
  if (values.json) {
    await writeStdout(text);
    if (none !== undefined) console.error(`note: ${none}`);
  } else {
    console.log(none ?? gapTable(gaps));
  }
}
