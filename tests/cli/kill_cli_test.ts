// The kill test (issue 13, acceptance 2, for `score --out` and `compare --out --html`): the CLI is
// killed with SIGKILL at seeded random moments, 20 times per command, on a corpus of 50,000
// examples. After each kill every target is the old file or the complete new one, never a part,
// and each target has at most one temporary file beside it; after one more run to completion no
// temporary file is left. Half the kills fall anywhere in the measured length of one uninterrupted
// run; the other half fall while a temporary file is being written (from the first write to it,
// within the measured time from that write to the end of an uninterrupted run), so that writes
// are hit, not only the scoring before them. It asserts file states, never durations.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { basename } from "node:path";
import { makeRng, type Rng } from "../_corpus.ts";
import { writeScoreCorpus } from "../evaluation/_score_corpus.ts";
import { runMain } from "./_main.ts";
import { demoScoreArgs } from "../_demo.ts";

const deno = Deno.execPath();
const main = new URL("../../cli/main.ts", import.meta.url).pathname;
const KILLS = 20;

interface Timing {
  /** Wall time of the whole run, in ms. */
  run: number;
  /** From the first write into a file that is not a target nor an input, to the end, in ms. */
  tail: number;
}

/** The files in `dir` that are neither `known` nor a target: temporary files. */
function strangers(dir: string, known: ReadonlySet<string>): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => !known.has(n)).sort();
}

/**
 * Runs the CLI with `args`. `kill` decides when to SIGKILL it: after a delay from the start, or
 * after a delay from the first write into a temporary file (one of `strangers`). Resolves with
 * the timing of the run and whether it was killed.
 */
async function run(
  args: string[],
  dir: string,
  known: ReadonlySet<string>,
  kill?: { from: "start" | "write"; after: number },
): Promise<Timing & { killed: boolean }> {
  const watcher = Deno.watchFs(dir);
  const started = performance.now();
  let wrote: number | undefined;
  const child = new Deno.Command(deno, {
    args: ["run", "-A", main, ...args],
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  let killed = false;
  const killNow = () => {
    try {
      child.kill("SIGKILL");
      killed = true;
    } catch { /* it had finished */ }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (kill?.from === "start") timer = setTimeout(killNow, kill.after);
  const watching = (async () => {
    for await (const e of watcher) {
      if (wrote !== undefined || e.kind !== "modify") continue;
      if (!e.paths.some((p) => !known.has(basename(p)))) continue;
      wrote = performance.now();
      if (kill?.from === "write") timer = setTimeout(killNow, kill.after);
    }
  })();
  const [status, stderr] = await Promise.all([
    child.status,
    new Response(child.stderr).text(),
  ]);
  const ended = performance.now();
  clearTimeout(timer);
  watcher.close();
  await watching;
  if (!killed) strictEqual(status.code, 0, stderr);
  return {
    run: ended - started,
    tail: wrote === undefined ? 0 : ended - wrote,
    killed: killed && status.signal === "SIGKILL",
  };
}

/**
 * Kills `args` 20 times and checks the targets after each kill; then runs it to completion and
 * checks that no temporary file is left. Prints what was found.
 */
async function killTrials(
  seed: number,
  dir: string,
  args: string[],
  targets: Record<string, { old: Uint8Array; fresh: Uint8Array }>,
  inputs: readonly string[],
  timing: Timing,
): Promise<void> {
  const rng: Rng = makeRng(seed);
  const known = new Set([...inputs, ...Object.keys(targets)]);
  const found: Record<string, number> = {};
  const count = (state: string) => void (found[state] = (found[state] ?? 0) + 1);
  for (let i = 0; i < KILLS; i++) {
    for (const [name, t] of Object.entries(targets)) Deno.writeFileSync(`${dir}/${name}`, t.old);
    const kill = i % 2 === 0
      ? { from: "start" as const, after: rng.float() * timing.run }
      : { from: "write" as const, after: rng.float() * timing.tail };
    const r = await run(args, dir, known, kill);
    count(r.killed ? `killed (from ${kill.from})` : `finished before the kill (from ${kill.from})`);
    for (const [name, t] of Object.entries(targets)) {
      const bytes = Deno.readFileSync(`${dir}/${name}`);
      const state = equal(bytes, t.old) ? "old" : equal(bytes, t.fresh) ? "new" : "partial";
      ok(state !== "partial", `kill ${i}: ${name} is neither the old file nor the new one`);
      count(`${name} ${state}`);
      const temps = strangers(dir, known).filter((n) => n.includes(name));
      ok(temps.length <= 1, `kill ${i}: ${temps.length} temporary files for ${name}: ${temps}`);
      if (temps.length === 1) count(`${name} with its temporary file`);
    }
  }
  console.log(
    `${args[0]}: one run ${timing.run.toFixed(0)} ms (the last ${timing.tail.toFixed(0)} ms from ` +
      `the first write); after ${KILLS} kills: ${JSON.stringify(found)}`,
  );
  await run(args, dir, known);
  for (const [name, t] of Object.entries(targets)) {
    deepStrictEqual(Deno.readFileSync(`${dir}/${name}`), t.fresh, name);
  }
  deepStrictEqual(strangers(dir, known), [], "no temporary file after a run to completion");
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

Deno.test({
  name:
    "SIGKILL at any moment of score --out and compare --out --html leaves the old or the new file",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const corpus = await writeScoreCorpus(dir, { seed: 13, count: 50_000, prompts: false });
    const inputs = [basename(corpus.examples), basename(corpus.generations)];

    // The old files: a report, a comparison and a page of the demo (of the same kinds).
    const oldDir = await Deno.makeTempDir();
    const demoScore = await runMain(demoScoreArgs("--out", `${oldDir}/r.json`));
    strictEqual(demoScore.code, 0, demoScore.stderr);
    const oldCompare = await runMain([
      "compare",
      `${oldDir}/r.json`,
      `${oldDir}/r.json`,
      "--resamples",
      "10",
      "--out",
      `${oldDir}/c.json`,
      "--html",
      `${oldDir}/c.html`,
    ]);
    strictEqual(oldCompare.code, 0, oldCompare.stderr);
    const old = (name: string) => Deno.readFileSync(`${oldDir}/${name}`);

    const scoreArgs = [
      "score",
      "--quiet",
      "--examples",
      corpus.examples,
      "--generations",
      corpus.generations,
      "--out",
      `${dir}/r.json`,
    ];
    const reference = await run(scoreArgs, dir, new Set([...inputs, "r.json"]));
    ok(reference.tail > 0, "the uninterrupted run wrote a temporary file");
    const report = Deno.readFileSync(`${dir}/r.json`);
    strictEqual(
      JSON.parse(new TextDecoder().decode(report)).records.length,
      50_000 - corpus.rows.dropped,
    );
    await killTrials(
      1,
      dir,
      scoreArgs,
      { "r.json": { old: old("r.json"), fresh: report } },
      inputs,
      reference,
    );

    // compare reads two copies of the fresh report, which stay as they are.
    Deno.copyFileSync(`${dir}/r.json`, `${dir}/base.json`);
    Deno.copyFileSync(`${dir}/r.json`, `${dir}/adapter.json`);
    const compareInputs = [...inputs, "r.json", "base.json", "adapter.json"];
    const compareArgs = [
      "compare",
      `${dir}/base.json`,
      `${dir}/adapter.json`,
      "--resamples",
      "200",
      "--out",
      `${dir}/c.json`,
      "--html",
      `${dir}/c.html`,
    ];
    const cmp = await run(compareArgs, dir, new Set([...compareInputs, "c.json", "c.html"]));
    await killTrials(
      2,
      dir,
      compareArgs,
      {
        "c.json": { old: old("c.json"), fresh: Deno.readFileSync(`${dir}/c.json`) },
        "c.html": { old: old("c.html"), fresh: Deno.readFileSync(`${dir}/c.html`) },
      },
      compareInputs,
      cmp,
    );
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(oldDir, { recursive: true });
  },
});
