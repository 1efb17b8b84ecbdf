// `assay bfcl`: BFCL's AST checker (bfcl.ast@2024-08) over one category's files, writing BFCL's
// score file and, optionally, the assay.bfcl.v1 report.
import { oneOf, parseOptions } from "./_options.ts";
import { UsageError } from "./_errors.ts";
import { writeAtomic } from "./_atomic.ts";
import { readTextFile } from "./_io.ts";
import { checkPaths, linesKind, reportKind } from "./_paths.ts";
import {
  BFCL_CATEGORIES,
  BFCL_CHECKER,
  BFCL_DECODERS,
  BfclModelNameError,
  bfclReport,
  checkBfcl,
  digestBfclInputs,
  formatScoreFile,
} from "../src/bfcl/mod.ts";
import { printableText } from "../src/explain/text/mod.ts";

const HELP =
  `Usage: deno task assay bfcl --checker ${BFCL_CHECKER} --category C --questions Q --answers A
                             --result R --out score.json [--report r.json] [options]
       deno task assay bfcl compare A.json B.json [--seed N] [--out C.json] [options]

Checks one model's results for one category as the Berkeley Function Calling Leaderboard's AST
checker of 2024-08 does, verdict for verdict, and writes BFCL's score file: its first line
{"accuracy", "correct_count", "total_count"}, then one line per failing entry with its 1-based
"id" and "error_type". Files are BFCL's JSON lines: Q its data file
(gorilla_openfunctions_v1_test_C.json), A its possible_answer file, R the model's C_result.json,
whose "result" is what BFCL's handler wrote: a list of calls, each {name: arguments as JSON
text}, or the model's text (an OpenAI completion or tool call, or Anthropic blocks, is refused,
showing the call as BFCL writes it; see docs/bfcl.md).

Categories: ${BFCL_CATEGORIES.join(", ")}
(relevance reads only --result: --questions and --answers are refused)

Options:
  --checker ID          the checker version; only ${BFCL_CHECKER} (required)
  --category C          the test category (required)
  --questions FILE      the category's question file (required; refused for relevance)
  --answers FILE        the category's possible-answer file (required; refused for relevance)
  --result FILE         the model's result file (required)
  --model NAME          the model's name, written into the score lines (default: model). For a
                        model BFCL's 2024-08 leaderboard ran, it also sets what the two flags
                        below do not: the decoder (fc for a name with -FC; claude, gorilla, gpt,
                        llama or mistral for its five prompting models; refused for the models
                        whose handlers read their own format, such as Hermes) and the rewrite (on
                        for its UNDERSCORE_TO_DOT models, such as gpt-4o-2024-05-13-FC). Result
                        folders' spelling, '_' for '/', is known too
  --decoder NAME        how results are decoded: fc (function-calling models) or a prompting
                        handler's clean-up: claude, gorilla, gpt, llama or mistral (default: the
                        --model's, else fc). Results of the other kind are refused, exit 2:
                        lists of calls for a prompting decoder; for a derived fc, text only
                        where some text reads as calls, or outside relevance. --decoder fc
                        given explicitly is taken as given
  --underscore-to-dot   the model's handler wrote '.' as '_' in function names, so the expected
                        names are compared with '.' written '_' (default: the --model's, else off)
  --no-underscore-to-dot
                        compare the names as written, even for an UNDERSCORE_TO_DOT model
  --matching M          how parallel calls are matched to the answer: greedy (BFCL's, the
                        default: each answer entry, in order, takes the first unused call that
                        passes) or optimal (a maximum bipartite matching, independent of order;
                        the report lists the entries whose verdict it changes)
  --out FILE            write the score file to FILE (atomically; required)
  --report FILE         write the assay.bfcl.v1 report to FILE (atomically); it records the
                        SHA-256 of the three files, and bfcl compare refuses two reports of
                        different questions or answers
  --force               let --out and --report replace a file that is not of their kind
  --quiet               print nothing on success
  -h, --help            show this help

\`bfcl compare\` compares two models' reports (--report) on the same entries: per category, B − A
with a seeded paired-bootstrap interval; see \`deno task assay bfcl compare --help\`.

Exit codes: 0 on success, 2 on bad usage or bad input, 1 on an internal error.
`;

/** The score file's kind: its first line holds BFCL's counts. */
const SCORE_FILE = linesKind("a BFCL score file", (line) => /^\{"accuracy": /.test(line));

/**
 * Runs `assay bfcl`, or `assay bfcl compare` when the first argument is `compare`.
 *
 * @param args The command's arguments.
 */
export async function runBfcl(args: string[]): Promise<void> {
  if (args[0] === "compare") {
    return (await import("./bfcl_compare.ts")).runBfclCompare(args.slice(1));
  }
  const { values, positionals } = parseOptions(args, {
    checker: { type: "string" },
    category: { type: "string" },
    questions: { type: "string" },
    answers: { type: "string" },
    result: { type: "string" },
    model: { type: "string" },
    decoder: { type: "string" },
    "underscore-to-dot": { type: "boolean" },
    "no-underscore-to-dot": { type: "boolean" },
    matching: { type: "string" },
    out: { type: "string" },
    report: { type: "string" },
    force: { type: "boolean" },
    quiet: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}"`);
  if (values.checker === undefined) throw new UsageError(`--checker ${BFCL_CHECKER} is required`);
  oneOf("--checker", values.checker, [BFCL_CHECKER]);
  if (values.category === undefined) throw new UsageError("--category is required");
  const category = oneOf("--category", values.category, BFCL_CATEGORIES);
  const relevance = category === "relevance";
  if (values.result === undefined) throw new UsageError("--result is required");
  if (!relevance && (values.questions === undefined || values.answers === undefined)) {
    throw new UsageError(`The ${category} category needs --questions and --answers`);
  }
  // Read by no one, they were ignored even when the paths did not exist.
  const unread = relevance
    ? (["questions", "answers"] as const).filter((f) => values[f] !== undefined)
    : [];
  if (unread.length > 0) {
    throw new UsageError(
      `The relevance category reads only --result: drop ${
        unread.map((f) => `--${f}`).join(" and ")
      }`,
    );
  }
  if (values.out === undefined) throw new UsageError("--out is required");
  const decoder = values.decoder === undefined
    ? undefined
    : oneOf("--decoder", values.decoder, BFCL_DECODERS);
  const matching = oneOf("--matching", values.matching ?? "greedy", ["greedy", "optimal"] as const);
  if (values["underscore-to-dot"] && values["no-underscore-to-dot"]) {
    throw new UsageError("Give --underscore-to-dot or --no-underscore-to-dot, not both");
  }
  const model = values.model ?? "model";
  const inputs = relevance ? [["--result", values.result, true]] as const : [
    ["--questions", values.questions, true],
    ["--answers", values.answers, true],
    ["--result", values.result, true],
  ] as const;
  checkPaths(inputs, [
    { flag: "--out", path: values.out, kind: SCORE_FILE },
    { flag: "--report", path: values.report, kind: reportKind("assay.bfcl.v1") },
  ], { force: values.force });

  const files = {
    questions: relevance ? undefined : await readTextFile("--questions", values.questions!),
    answers: relevance ? undefined : await readTextFile("--answers", values.answers!),
    results: await readTextFile("--result", values.result),
  };
  let checked: ReturnType<typeof checkBfcl>;
  try {
    checked = checkBfcl(files, {
      category,
      decoder,
      underscoreToDot: values["underscore-to-dot"]
        ? true
        : values["no-underscore-to-dot"]
        ? false
        : undefined,
      modelName: model,
      matching,
    });
  } catch (e) {
    if (e instanceof BfclModelNameError) throw new UsageError(`--model: ${e.message}`);
    throw e;
  }
  const run = { ...checked, inputs: await digestBfclInputs(files) };

  await writeAtomic(values.out, formatScoreFile(run));
  if (values.report !== undefined) {
    const report = bfclReport([run]);
    await writeAtomic(values.report, JSON.stringify(report, null, 2) + "\n");
  }
  if (!values.quiet) {
    const report = bfclReport([run]);
    console.log(
      `${printableText(model)} ${category}: ${run.correct}/${run.total} correct (${run.accuracy})`,
    );
    for (const [type, n] of Object.entries(report.errorTypes)) {
      console.log(`  ${printableText(type)}: ${n}`);
    }
    // BFCL's verdict, but almost always the wrong decoder or a harness's format, so it is said.
    if (run.total > 0 && report.errorTypes["ast_decoder:decoder_failed"] === run.total) {
      console.error(
        `note: no result decoded (all ${run.total} ast_decoder:decoder_failed): check that the ` +
          `${run.decoder} decoder reads these results (--decoder, docs/bfcl.md)`,
      );
    }
    if (matching === "optimal") {
      const changed = report.matchingDisagreements.map((d) => d.id);
      console.log(
        `  optimal matching passes ${changed.length} entries that greedy matching fails` +
          (changed.length > 0 ? ` (ids ${changed.join(", ")})` : ""),
      );
    }
  }
}
