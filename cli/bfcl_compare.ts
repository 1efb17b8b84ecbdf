// `assay bfcl compare`: two models' assay.bfcl.v1 reports on the same entries, B − A per category
// and overall with seeded paired-bootstrap intervals, behind the comparison gate.
import {
  type BfclComparison,
  type BfclReport,
  compareBfclReports,
  mergeBfclReports,
} from "../src/bfcl/mod.ts";
import { formatReport } from "../src/evaluation/mod.ts";
import { InputError } from "../src/jsonl/mod.ts";
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

/** The help of `assay bfcl compare`. */
export const BFCL_COMPARE_HELP = `Usage: deno task assay bfcl compare A.json B.json [options]
       deno task assay bfcl compare --a A1.json --a A2.json … --b B1.json --b B2.json … [options]

Compares two models' assay.bfcl.v1 reports (assay bfcl --report) on the same entries: per
category and overall, each model's accuracy and B − A with a seeded paired-bootstrap percentile
interval over the entries' pass/fail verdicts, entries joined by category and id. Refuses (exit
2, nothing written) when the reports differ in checker, matching, categories, entries or a
category's question or answer file (the SHA-256 each report records; a report written before
the digests were recorded is compared with a note on stderr). A '*' marks a delta whose
interval excludes zero; "only A" and "only B" count the entries that one
model passes and the other fails. \`assay bfcl --report\` writes one category's report: give each
model's categories with --a and --b, and they are merged per model.

Reports:
  --a FILE         a report of model A (repeatable; instead of A.json)
  --b FILE         a report of model B (repeatable; instead of B.json)

${COMMON}
Exit codes: 0 on success, 2 on bad usage or bad input (a refusal writes nothing), 1 on an
internal error.
`;

async function readBfclReport(path: string): Promise<BfclReport> {
  return await readReportFile(path, ["assay.bfcl.v1"], "records") as unknown as BfclReport;
}

/** One model's reports, merged; reports that do not go together are bad input. */
async function readSide(paths: string[]): Promise<BfclReport> {
  const reports = [];
  for (const path of paths) reports.push(await readBfclReport(path));
  try {
    return mergeBfclReports(reports);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new InputError(`${paths.join(", ")}: ${e.message}`, { cause: e });
  }
}

/** The readable table of a BFCL comparison. */
export function bfclComparisonTable(c: BfclComparison): string {
  const slices = [
    ["overall", c.overall] as const,
    ...c.categories.map((k) => [k, c.byCategory[k]!] as const),
  ];
  const rows = slices.map(([name, d]) => [
    printableText(name),
    rate(d.a),
    rate(d.b),
    signed(d.delta),
    interval(d.ci),
    String(d.onlyA),
    String(d.onlyB),
    excludesZero(d.ci) ? "*" : "",
  ]);
  const b = c.bootstrap;
  return [
    table(
      ["category", "A", "B", "B − A", `${levelPercent(b.level)} CI`, "only A", "only B", ""],
      rows,
    ),
    "",
    `A = ${printableText(c.models.a)}, B = ${printableText(c.models.b)} ` +
    `(${printableText(c.checker)}, ${printableText(c.matching)} matching)`,
    `${c.n} entries; ${bootstrapNote(b)}`,
  ].join("\n");
}

/**
 * Runs `assay bfcl compare`.
 *
 * @param args The arguments after `compare`.
 */
export async function runBfclCompare(args: string[]): Promise<void> {
  const { values, positionals } = parseOptions(args, {
    ...BOOTSTRAP_FLAGS,
    a: { type: "string", multiple: true },
    b: { type: "string", multiple: true },
  });
  if (values.help) {
    console.log(BFCL_COMPARE_HELP);
    return;
  }
  const byFlag = values.a !== undefined || values.b !== undefined;
  if (byFlag && (values.a === undefined || values.b === undefined || positionals.length > 0)) {
    throw new UsageError("Give both --a and --b, and no other report");
  }
  if (!byFlag && positionals.length !== 2) {
    throw new UsageError("Expected two reports: A.json B.json (or --a and --b)");
  }
  const aPaths = values.a ?? [positionals[0]!];
  const bPaths = values.b ?? [positionals[1]!];
  const options = bootstrapFlags(values);
  checkPaths(
    [
      ...aPaths.map((p) => ["report A", p, true] as const),
      ...bPaths.map((p) => ["report B", p, true] as const),
    ],
    [{ flag: "--out", path: values.out, kind: reportKind("assay.bfcl.comparison.v1") }],
    { force: values.force },
  );
  const a = await readSide(aPaths);
  const b = await readSide(bPaths);
  const comparison = namingFiles(
    `${aPaths.join(", ")} (A) and ${bPaths.join(", ")} (B)`,
    () => compareBfclReports(a, b, options),
  );
  if (comparison.note !== undefined) console.error(`note: ${comparison.note}`);
  const text = formatReport(comparison);
  if (values.out !== undefined) await writeAtomic(values.out, text);
  if (values.json) await writeStdout(text);
  else console.log(bfclComparisonTable(comparison));
}
