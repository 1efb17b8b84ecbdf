// `assay ifeval compare`: two models' assay.ifeval.v1 reports on the same prompts, B − A for the
// prompt-level and instruction-level accuracies, strict and loose, with paired-bootstrap intervals.
import {
  compareIfevalReports,
  type IfevalComparison,
  type IfevalReport,
} from "../src/ifeval/mod.ts";
import { formatReport } from "../src/evaluation/mod.ts";
import {
  BOOTSTRAP_FLAGS,
  bootstrapFlags,
  bootstrapNote,
  COMMON,
  excludesZero,
  interval,
  readReportFile,
  signed,
} from "./compare.ts";
import { writeStdout } from "./_io.ts";
import { writeAtomic } from "./_atomic.ts";
import { checkPaths, reportKind } from "./_paths.ts";
import { parseOptions } from "./_options.ts";
import { UsageError } from "./_errors.ts";
import { namingFiles } from "./compare.ts";
import { rate, table } from "./_table.ts";
import { levelPercent } from "../src/stats/mod.ts";
import { printableText } from "../src/explain/text/mod.ts";

/** The help of `assay ifeval compare`. */
export const IFEVAL_COMPARE_HELP = `Usage: deno task assay ifeval compare A.json B.json [options]

Compares two models' assay.ifeval.v1 reports (assay ifeval --out) on the same prompts, joined
by their key: the prompt-level accuracy (every instruction followed) and the instruction-level
accuracy, strict and loose, each model's and B − A with a seeded paired-bootstrap percentile
interval (prompts are resampled, each with all its instructions). Refuses (exit 2, nothing
written) when the reports differ in checker, prompts, a prompt's instructions or their input
files (the SHA-256 each report records); a report written before the digests were recorded is
compared with a note on stderr. A '*' marks a delta whose interval excludes zero.

${COMMON}
Exit codes: 0 on success, 2 on bad usage or bad input (a refusal writes nothing), 1 on an
internal error.
`;

async function readIfevalReport(path: string): Promise<IfevalReport> {
  return await readReportFile(path, ["assay.ifeval.v1"], "prompts") as unknown as IfevalReport;
}

/** The readable table of an IFEval comparison. */
export function ifevalComparisonTable(c: IfevalComparison): string {
  const rows = (["strict", "loose"] as const).flatMap((mode) =>
    (["prompt", "instruction"] as const).map((level) => {
      const d = c[mode][level];
      return [
        mode,
        level,
        rate(d.a),
        rate(d.b),
        signed(d.delta),
        interval(d.ci),
        excludesZero(d.ci) ? "*" : "",
      ];
    })
  );
  const b = c.bootstrap;
  return [
    table(["mode", "level", "A", "B", "B − A", `${levelPercent(b.level)} CI`, ""], rows, 2),
    "",
    `${c.n} prompts, ${printableText(c.checker)}; ${bootstrapNote(b)}`,
  ].join("\n");
}

/** Runs `assay ifeval compare`. */
export async function runIfevalCompare(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, BOOTSTRAP_FLAGS);
  if (values.help) {
    console.log(IFEVAL_COMPARE_HELP);
    return;
  }
  if (positionals.length !== 2) throw new UsageError("Expected two reports: A.json B.json");
  const options = bootstrapFlags(values);
  checkPaths(
    [["report A", positionals[0], true], ["report B", positionals[1], true]],
    [{ flag: "--out", path: values.out, kind: reportKind("assay.ifeval.comparison.v1") }],
    { force: values.force },
  );
  const a = await readIfevalReport(positionals[0]!);
  const b = await readIfevalReport(positionals[1]!);
  const comparison = namingFiles(
    `${positionals[0]} (A) and ${positionals[1]} (B)`,
    () => compareIfevalReports(a, b, options),
  );
  if (comparison.note !== undefined) console.error(`note: ${comparison.note}`);
  const text = formatReport(comparison);
  if (values.out !== undefined) await writeAtomic(values.out, text);
  if (values.json) await writeStdout(text);
  else console.log(ifevalComparisonTable(comparison));
}
