// The commands that gate with --gate RULES (compare, suite run, calibrate), each on the repo's
// demo data with rules that fail, and the `assay gate` arguments that read the same reports: for
// the tests that their CI outputs are `assay gate`'s (tests/cli/gate_outputs_cli_test.ts,
// tests/gate/gate_outputs_test.ts).
import { scoreDemo } from "./_demo.ts";
import { type Run, runCli } from "./cli/_main.ts";
import { demoRunArgs } from "./cli/_suite_demo.ts";

const root = new URL("../", import.meta.url).pathname;

/** `assay <args>` run from the repo's root, with more of the environment. */
export const assay = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
  runCli(args, env, root);

/** A command that gates, set up in a folder of its own. */
export interface GatedCommand {
  /** The command, as `assay` names it. */
  name: string;
  /** A rules file (YAML) of its report's metrics: one rule holds, one fails. */
  rules: string;
  /** Writes what the command reads into `dir` (the two scored demo reports, for compare). */
  setup(dir: string): Promise<void>;
  /** The command's arguments, gating with `rules`; its own outputs (`outputs`) are written in `dir`. */
  args(dir: string, rules: string): string[];
  /** The files the command writes in `dir` (its report, a store), none of which may be there after a refusal. */
  outputs: string[];
  /** `assay gate`'s arguments for the reports the command gated. */
  gateArgs(dir: string): string[];
}

/** compare, suite run and calibrate, each gating with rules one of which fails (exit 3). */
export const GATED_COMMANDS: GatedCommand[] = [
  {
    name: "compare",
    // The demo's adapter regresses 11 examples: at most 10 fails.
    rules: "rules:\n  - metric: full_call_exact_match\n    max_regressions: 10\n" +
      "  - metric: valid_json_rate\n    min: 0.5\n",
    async setup(dir) {
      await scoreDemo(dir, "base");
      await scoreDemo(dir, "adapter");
    },
    args: (dir, rules) => [
      "compare",
      `${dir}/base.json`,
      `${dir}/adapter.json`,
      "--resamples",
      "200",
      "--gate",
      rules,
      "--out",
      `${dir}/cmp.json`,
    ],
    outputs: ["cmp.json"],
    gateArgs: (dir) => ["--base", `${dir}/base.json`, "--candidate", `${dir}/adapter.json`],
  },
  {
    name: "suite run",
    // The demo without judges: adapter's pass rate 0.625 (15/24), schema_membership 35/46.
    rules: "rules:\n  - metric: pass_rate\n    slice: adapter\n    min: 0.6\n" +
      "  - metric: schema_membership\n    min: 0.8\n",
    async setup() {},
    args: (dir, rules) => [
      ...demoRunArgs(`${dir}/m.db`),
      "--gate",
      rules,
      "--out",
      `${dir}/run.json`,
    ],
    outputs: ["run.json", "m.db"],
    gateArgs: (dir) => ["--report", `${dir}/run.json`],
  },
  {
    name: "calibrate",
    // The fixture's kappa is 0.5, its agreement 0.75.
    rules: "rules:\n  - metric: kappa\n    min: 0.6\n  - metric: agreement\n    min: 0.5\n",
    async setup() {},
    args: (dir, rules) => [
      "calibrate",
      "--labels",
      "tests/fixtures/calibration/labels.jsonl",
      "--gate",
      rules,
      "--out",
      `${dir}/cal.json`,
    ],
    outputs: ["cal.json"],
    gateArgs: (dir) => ["--report", `${dir}/cal.json`],
  },
];

/** Whether a file is there. */
export const exists = (path: string): Promise<boolean> =>
  Deno.stat(path).then(() => true, () => false);
