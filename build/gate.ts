// The whole gate: `deno task test`. Runs every check, reports each, and exits 1 if any failed.
// Its last line is "gate: N passed, M failed (S steps inside them); K of L checks ok": N and M
// count every test `deno test` ran (doc tests too), S their steps, and K of L the gate's steps.
import { readConfig, sourceOf } from "./build_dist.ts";

const deno = Deno.execPath();

interface Step {
  name: string;
  args: string[];
  /** Parse `deno test`'s summary from this step's output. */
  countsTests?: boolean;
}

const SOURCES = ["mod.ts", "src/", "cli/", "build/", "tests/", "bench/"];

const config = await readConfig();

const steps: Step[] = [
  // First: the published subpaths are dist/'s files, which later steps import (doc tests, the
  // publish dry run, the dist test).
  { name: "dist build", args: ["task", "build:dist"] },
  { name: "fmt", args: ["fmt", "--check"] },
  { name: "lint", args: ["lint"] },
  { name: "type check", args: ["check", ...SOURCES] },
  {
    name: "doc lint",
    args: [
      "doc",
      "--lint",
      // The TypeScript each export is built from: dist/'s files take their types from it.
      ...Object.values(config.exports).map(sourceOf),
    ],
  },
  { name: "mod exports", args: ["run", "--allow-read", "build/check_mod_exports.ts"] },
  { name: "wasm rebuild", args: ["task", "build:wasm", "--check"] },
  { name: "publish dry run", args: ["publish", "--dry-run", "--allow-dirty"] },
  {
    name: "doc tests",
    args: ["test", "--doc", "--allow-all", "mod.ts", "src/"],
    countsTests: true,
  },
  { name: "tests", args: ["test", "--allow-all", "tests/"], countsTests: true },
  { name: "bootstrap coverage", args: ["task", "test:coverage"] },
  { name: "cross-runtime", args: ["run", "--allow-all", "build/cross_runtime.ts"] },
];

const only = Deno.args.length > 0 ? new Set(Deno.args) : undefined;
let passed = 0;
let failed = 0;
let testSteps = 0;
let ran = 0;
const failures: string[] = [];
const decoder = new TextDecoder();

for (const step of steps) {
  if (only && !only.has(step.name)) continue;
  ran++;
  const started = performance.now();
  console.log(`\n=== ${step.name}: deno ${step.args.join(" ")}`);
  const child = new Deno.Command(deno, {
    args: step.args,
    stdout: step.countsTests ? "piped" : "inherit",
    stderr: "inherit",
    env: { NO_COLOR: "1" },
  }).spawn();
  let out = "";
  if (step.countsTests) {
    for await (const chunk of child.stdout) {
      const text = decoder.decode(chunk, { stream: true });
      out += text;
      await Deno.stdout.write(chunk);
    }
  }
  const status = await child.status;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (step.countsTests) {
    // `deno test`'s last line: "ok | 445 passed (400 steps) | 1 failed (3m31s)".
    const m = [...out.matchAll(/(\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed/g)].at(-1);
    if (m) {
      passed += Number(m[1]);
      testSteps += Number(m[2] ?? 0);
      failed += Number(m[3]);
    } else if (!status.success) {
      failed++; // it failed before it could count (a type error, a crash)
    }
  }
  if (status.success) {
    console.log(`=== ${step.name}: ok (${seconds}s)`);
  } else {
    failures.push(step.name);
    console.log(`=== ${step.name}: FAILED (exit ${status.code}, ${seconds}s)`);
  }
}

console.log("");
if (failures.length > 0) console.log(`gate failed steps: ${failures.join(", ")}`);
console.log(
  `gate: ${passed} passed, ${failed} failed (${testSteps} steps inside them); ` +
    `${ran - failures.length} of ${ran} checks ok`,
);
Deno.exit(failures.length > 0 ? 1 : 0);
