// Misspelled flags and commands: exit 2 and a "did you mean", through main() from cli/main.ts.
import { strictEqual } from "node:assert/strict";
import { runMain } from "./_main.ts";

Deno.test("a misspelled flag exits 2 with the closest flag suggested", async () => {
  const cases: [string[], string][] = [
    [
      ["score", "--exmples", "x"],
      'assay score: Unknown option "--exmples" (did you mean --examples?)',
    ],
    [
      ["score", "--generatons=x"],
      'assay score: Unknown option "--generatons" (did you mean --generations?)',
    ],
    [["parse", "--pair"], 'assay parse: Unknown option "--pair" (did you mean --pairs?)'],
    [
      ["compare", "a", "b", "--resample", "5"],
      'assay compare: Unknown option "--resample" (did you mean --resamples?)',
    ],
    [
      ["structured", "--output", "o.jsonl"],
      'assay structured: Unknown option "--output" (did you mean --outputs?)',
    ],
    [
      ["suite", "run", "s.yaml", "--no-judg"],
      'assay suite run: Unknown option "--no-judg" (did you mean --no-judge?)',
    ],
    [
      ["calibrate", "--label", "l.jsonl"],
      'assay calibrate: Unknown option "--label" (did you mean --labels?)',
    ],
  ];
  for (const [args, message] of cases) {
    const r = await runMain(args);
    strictEqual(r.code, 2, args.join(" "));
    strictEqual(r.stderr, message);
  }
});

Deno.test("a flag far from every known one exits 2 and points at --help", async () => {
  const r = await runMain(["score", "--frobnicate"]);
  strictEqual(r.code, 2);
  strictEqual(r.stderr, 'assay score: Unknown option "--frobnicate" (see --help)');
  const short = await runMain(["parse", "-z"]);
  strictEqual(short.code, 2);
  strictEqual(short.stderr, 'assay parse: Unknown option "-z" (see --help)');
});

Deno.test("a flag without its value, or a switch given one, exits 2 with the flag named", async () => {
  const missing = await runMain(["score", "--examples"]);
  strictEqual(missing.code, 2);
  strictEqual(missing.stderr, "assay score: Option --examples needs a value");
  const extra = await runMain(["score", "--json=yes"]);
  strictEqual(extra.code, 2);
  strictEqual(extra.stderr, "assay score: Option --json takes no value");
});

Deno.test("a negative number after a flag is its value, checked by the command", async () => {
  const cases: [string[], string][] = [
    [
      ["show", "r.json", "--limit", "-1"],
      'assay show: --limit must be a positive whole number, got "-1"',
    ],
    [
      ["compare", "a.json", "b.json", "--seed", "-1"],
      'assay compare: --seed must be a non-negative integer, got "-1"',
    ],
    [
      ["suite", "compare", "a", "b", "--store", "m.db", "--seed", "-1"],
      'assay suite compare: --seed must be an integer in [0, 2^32), got "-1"',
    ],
    // Any other value that starts with a dash is still taken for a flag, and the message says so.
    [
      ["compare", "a.json", "b.json", "--seed", "-x"],
      'assay compare: Option --seed needs a value (write --seed=VALUE for one that starts with "-")',
    ],
  ];
  for (const [args, message] of cases) {
    const r = await runMain(args);
    strictEqual(r.code, 2, args.join(" "));
    strictEqual(r.stderr, message);
  }
});

Deno.test("a misspelled command exits 2 with the closest command suggested", async () => {
  const scor = await runMain(["scor"]);
  strictEqual(scor.code, 2);
  strictEqual(scor.stderr, 'assay scor: Unknown command "scor" (did you mean score?)');
  const suite = await runMain(["suite", "valdate", "x.yaml"]);
  strictEqual(suite.code, 2);
  strictEqual(
    suite.stderr,
    'assay suite: Unknown suite command "valdate" (did you mean validate?)',
  );
  const far = await runMain(["frobnicate"]);
  strictEqual(far.code, 2);
  strictEqual(
    far.stderr,
    'assay frobnicate: Unknown command "frobnicate" (commands: parse, canonicalize, score, ' +
      "compare, gaps, structured, suite, calibrate, bfcl, ifeval, gate, show)",
  );
});

Deno.test("a misspelled flag value exits 2 with the closest value suggested, or the values", async () => {
  const demo = new URL("../../samples/demo/", import.meta.url).pathname;
  const outputs = new URL("../../samples/outputs.jsonl", import.meta.url).pathname;
  const score = ["score", "--examples", `${demo}examples.jsonl`, "--generations"];
  const dir = await Deno.makeTempDir();
  const report = `${dir}/base.json`;
  strictEqual(
    (await runMain([...score, `${demo}generations.base.jsonl`, "--out", report])).code,
    0,
  );
  const bfcl = ["bfcl", "--checker", "bfcl.ast@2024-08", "--category", "relevance", "--result"];
  const cases: [string[], string][] = [
    [
      ["structured", "--outputs", outputs, "--mode", "fenzed"],
      'assay structured: Unknown value "fenzed" for --mode (did you mean fenced?)',
    ],
    [
      ["structured", "--outputs", outputs, "--metrics", "json_validity,json_validty"],
      'assay structured: Unknown value "json_validty" for --metrics (did you mean json_validity?)',
    ],
    [
      ["structured", "--outputs", outputs, "--numbers", "numerc"],
      'assay structured: Unknown value "numerc" for --numbers (did you mean numeric?)',
    ],
    [
      ["structured", "--outputs", outputs, "--match", "subst"],
      'assay structured: Unknown value "subst" for --match (did you mean subset?)',
    ],
    [
      ["structured", "--outputs", outputs, "--engine", "wsam"],
      'assay structured: Unknown value "wsam" for --engine (did you mean wasm?)',
    ],
    [
      ["canonicalize", "--engine", "gpu"],
      'assay canonicalize: Unknown value "gpu" for --engine (one of auto, wasm, ts)',
    ],
    // Nothing is close to an empty value (not ts, two edits away).
    [
      ["canonicalize", "--engine="],
      'assay canonicalize: Unknown value "" for --engine (one of auto, wasm, ts)',
    ],
    [
      [...score, `${demo}generations.base.jsonl`, "--numbers", "exakt"],
      'assay score: Unknown value "exakt" for --numbers (did you mean exact?)',
    ],
    [
      ["compare", report, report, "--on", "intersect"],
      'assay compare: Unknown value "intersect" for --on (did you mean intersection?)',
    ],
    [
      ["bfcl", "--checker", "bfcl.ast@2024-8"],
      'assay bfcl: Unknown value "bfcl.ast@2024-8" for --checker (did you mean bfcl.ast@2024-08?)',
    ],
    [
      ["bfcl", "--checker", "bfcl.ast@2024-08", "--category", "simpel"],
      'assay bfcl: Unknown value "simpel" for --category (did you mean simple?)',
    ],
    [
      [...bfcl, "r.json", "--out", "o.json", "--decoder", "fcc"],
      'assay bfcl: Unknown value "fcc" for --decoder (did you mean fc?)',
    ],
    [
      [...bfcl, "r.json", "--out", "o.json", "--matching", "best"],
      'assay bfcl: Unknown value "best" for --matching (one of greedy, optimal)',
    ],
    [
      ["show", report, "--failing", "--metric", "full_call_exact_mach"],
      'assay show: Unknown value "full_call_exact_mach" for --metric (did you mean full_call_exact_match?)',
    ],
  ];
  for (const [args, message] of cases) {
    const r = await runMain(args);
    strictEqual(r.code, 2, args.join(" "));
    strictEqual(r.stderr, message);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("suite scorecard and calibrate refuse a stray argument, exit 2 naming it", async () => {
  const dir = await Deno.makeTempDir();
  const { demoRunArgs } = await import("./_suite_demo.ts");
  strictEqual((await runMain(demoRunArgs(`${dir}/m.db`))).code, 0);
  const labels = new URL("../fixtures/calibration/labels.jsonl", import.meta.url).pathname;
  for (
    const args of [
      ["suite", "scorecard", "--store", `${dir}/m.db`, "extra"],
      ["calibrate", "--labels", labels, "extra"],
    ]
  ) {
    const r = await runMain(args);
    strictEqual(r.code, 2, r.stderr);
    strictEqual(r.stdout, "");
    strictEqual(r.stderr.includes('Unexpected argument "extra"'), true, r.stderr);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a flag given twice exits 2 naming it, unless it is repeatable", async () => {
  const cases: [string[], string][] = [
    [
      ["compare", "a.json", "b.json", "--seed", "1", "--seed", "2"],
      "assay compare: --seed given twice",
    ],
    [["score", "--examples", "a", "--examples", "b"], "assay score: --examples given twice"],
    [["score", "--out=a", "--out", "b"], "assay score: --out given twice"],
    [["parse", "--pairs", "--pairs"], "assay parse: --pairs given twice"],
    [["gaps", "r.json", "-h", "--help"], "assay gaps: --help given twice"],
  ];
  for (const [args, message] of cases) {
    const r = await runMain(args);
    strictEqual(r.code, 2, args.join(" "));
    strictEqual(r.stderr, message);
    strictEqual(r.stdout, "");
  }
  // --id (show) and --a, --b (bfcl compare) are declared repeatable: they pass the parser.
  const show = await runMain(["show", "missing.json", "--id", "a", "--id", "b"]);
  strictEqual(show.code, 2);
  strictEqual(show.stderr.includes("given twice"), false, show.stderr);
  const bfcl = await runMain(["bfcl", "compare", "--a", "x", "--a", "y", "--b", "z", "--b", "w"]);
  strictEqual(bfcl.code, 2);
  strictEqual(bfcl.stderr.includes("given twice"), false, bfcl.stderr);
});
