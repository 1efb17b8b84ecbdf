/**
 * Two builds of the scoring kernel (`assembly/`) against each other on a `bench:score` corpus, in
 * one run, for work on the kernel: a shared machine's noise hides a few percent between two runs,
 * not between two builds measured turn about.
 *
 * - **warm**: the kernel over the corpus's files in memory (bench/_score_phases.ts's `kernelRun`),
 *   the two builds taking turns in one process, each round on fresh instances; the median and the
 *   best of each phase. The records' bytes of every run must be the same, or it stops.
 * - **first**: fresh processes, the two builds taking turns, each compiling its module and running
 *   the kernel once (Liftoff code while TurboFan compiles the hot functions), as `assay score` does.
 *
 * Every process is pinned to one core (`taskset -c 0`, as bench:score's sides are) unless
 * `--cpu all`. Prints a table of seconds per phase and the candidate's time over the base's.
 *
 *   deno run -A bench/kernel_ab.ts --candidate SRC [--base SRC] [--corpus varied|classic|heldout]
 *     [--count N] [--seed N] [--rounds N] [--first N] [--cpu N|all]
 *
 * A SRC is a `.wasm` file, a folder of AssemblyScript sources (compiled with build/build_wasm.ts's
 * flags, as `assembly/` is) or a git revision (its `assembly/`, compiled so). `--base` defaults to
 * build/assay.wasm.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { ASC_FLAGS, compile, ENTRY } from "../build/build_wasm.ts";
import { SCORE_CORPORA, writeBenchCorpus } from "./_score_corpora.ts";
import { kernelRun, readCorpus } from "./_score_phases.ts";
import { median } from "./_median.ts";

const PHASES = ["examples", "prompts", "generations", "records"];
const ROOT = new URL("../", import.meta.url);

/** A build's bytes from a `.wasm` file, a folder of sources or a git revision. */
async function build(src: string): Promise<Uint8Array> {
  if (src.endsWith(".wasm")) return await Deno.readFile(src);
  const sources = new Map<string, string>();
  const folder = await Deno.stat(src).then((s) => s.isDirectory, () => false);
  if (folder) {
    for await (const e of Deno.readDir(src)) {
      if (e.isFile && e.name.endsWith(".ts")) {
        sources.set(`assembly/${e.name}`, await Deno.readTextFile(`${src}/${e.name}`));
      }
    }
  } else {
    const git = async (...args: string[]) => {
      const out = await new Deno.Command("git", { args, cwd: ROOT, stderr: "piped" }).output();
      if (!out.success) {
        throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr).trim()}`);
      }
      return new TextDecoder().decode(out.stdout);
    };
    for (const path of (await git("ls-tree", "--name-only", `${src}:assembly/`)).split("\n")) {
      if (path.endsWith(".ts")) {
        sources.set(`assembly/${path}`, await git("show", `${src}:assembly/${path}`));
      }
    }
  }
  if (!sources.has(ENTRY)) throw new Error(`${src}: no ${ENTRY} among its sources`);
  return await compile(sources, ASC_FLAGS);
}

/** One kernel run: seconds per phase, and the SHA-256 of its records' bytes. */
function timedRun(module: WebAssembly.Module, files: Record<string, Uint8Array>) {
  const records = createHash("sha256");
  const times = kernelRun(module, files, (chunk) => records.update(chunk));
  times.total = PHASES.reduce((s, p) => s + (times[p] ?? 0), 0);
  return { times, digest: records.digest("hex") };
}

type Times = Record<string, number>[];

/** The child processes: `warm A B DIR ROUNDS` and `first X DIR`, each printing JSON. */
async function child(args: string[]): Promise<void> {
  const [mode, ...rest] = args;
  if (mode === "warm") {
    const [a, b, dir, rounds] = rest;
    const modules = [a!, b!].map((p) => new WebAssembly.Module(Deno.readFileSync(p)));
    const files = await readCorpus(dir!);
    const times: Times[] = [[], []];
    const digests = new Set<string>();
    for (let r = 0; r < Number(rounds); r++) {
      for (const i of r % 2 ? [1, 0] : [0, 1]) {
        const run = timedRun(modules[i]!, files);
        times[i]!.push(run.times);
        digests.add(run.digest);
      }
    }
    console.log(JSON.stringify({ times, digests: [...digests] }));
  } else {
    const [wasm, dir] = rest;
    const files = await readCorpus(dir!);
    const module = new WebAssembly.Module(Deno.readFileSync(wasm!));
    console.log(JSON.stringify(timedRun(module, files)));
  }
}

async function spawn(cpu: string, args: string[]): Promise<unknown> {
  const self = decodeURIComponent(new URL(import.meta.url).pathname);
  let argv = [Deno.execPath(), "run", "-A", self, "--child", ...args];
  if (cpu !== "all") argv = ["taskset", "-c", cpu, ...argv];
  const out = await new Deno.Command(argv[0]!, { args: argv.slice(1), stderr: "inherit" }).output();
  if (!out.success) throw new Error(`${argv.join(" ")} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

function table(title: string, times: Times[]): void {
  console.log(`\n${title} (seconds; candidate / base by median)`);
  console.log(
    "phase".padEnd(12) + "base median".padStart(12) + "best".padStart(8) +
      "cand. median".padStart(14) + "best".padStart(8) + "ratio".padStart(8),
  );
  for (const p of [...PHASES, "total"]) {
    const [a, b] = times.map((t) => t.map((x) => x[p]!));
    const [ma, mb] = [median(a!), median(b!)];
    console.log(
      p.padEnd(12) + ma.toFixed(3).padStart(12) + Math.min(...a!).toFixed(3).padStart(8) +
        mb.toFixed(3).padStart(14) + Math.min(...b!).toFixed(3).padStart(8) +
        (mb / ma).toFixed(3).padStart(8),
    );
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") {
    await child(Deno.args.slice(1));
    Deno.exit(0);
  }
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      base: {
        type: "string",
        default: decodeURIComponent(new URL("build/assay.wasm", ROOT).pathname),
      },
      candidate: { type: "string" },
      corpus: { type: "string", default: "varied" },
      count: { type: "string", default: "100000" },
      seed: { type: "string", default: "20240611" },
      rounds: { type: "string", default: "10" },
      first: { type: "string", default: "10" },
      cpu: { type: "string", default: "0" },
    },
  });
  if (values.candidate === undefined) {
    throw new Error("Usage: deno run -A bench/kernel_ab.ts --candidate SRC [--base SRC] ...");
  }
  if (!SCORE_CORPORA.includes(values.corpus!)) {
    throw new Error(`--corpus is one of ${SCORE_CORPORA.join(", ")}, not ${values.corpus}`);
  }
  const dir = await Deno.makeTempDir({ prefix: "assay_kernel_ab_" });
  try {
    const wasm = [`${dir}/base.wasm`, `${dir}/candidate.wasm`];
    await Deno.writeFile(wasm[0]!, await build(values.base));
    await Deno.writeFile(wasm[1]!, await build(values.candidate));
    const seed = Number(values.seed);
    const count = Number(values.count);
    await writeBenchCorpus(values.corpus!, dir, { seed, count });
    console.log(
      `${values.corpus} corpus, ${count} examples; base ${values.base}, candidate ` +
        `${values.candidate}; pinned to ${values.cpu === "all" ? "no core" : `core ${values.cpu}`}`,
    );
    const warm = await spawn(values.cpu, ["warm", ...wasm, dir, values.rounds]) as {
      times: Times[];
      digests: string[];
    };
    if (warm.digests.length !== 1) {
      throw new Error(`the builds' records differ: ${warm.digests.length} digests`);
    }
    table(`warm: ${values.rounds} rounds in one process, records ${warm.digests[0]}`, warm.times);
    const first: Times[] = [[], []];
    for (let r = 0; r < Number(values.first); r++) {
      for (const i of r % 2 ? [1, 0] : [0, 1]) {
        const run = await spawn(values.cpu, ["first", wasm[i]!, dir]) as {
          times: Times[0];
          digest: string;
        };
        if (run.digest !== warm.digests[0]) throw new Error("a first run's records differ");
        first[i]!.push(run.times);
      }
    }
    table(`first: ${values.first} fresh processes each`, first);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
