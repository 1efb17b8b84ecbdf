// The edge workers of build/cross_runtime.ts: minimal workerd workers that import only a bundle
// of a public face, as a user's worker does, with no compatibility flags.
//
// - `root_with_module.js` imports the root bundle and build/assay.wasm as a module, makes the
//   engine with `createEngine({ wasmModule })` and scores the seeded JSONL bytes (imported as data
//   modules) with `scoreJsonl`: the Wasm engine, and `assay score --engine wasm`'s report.
// - `root_without_module.js` does the same with `createEngine()`: `auto` falls back to `ts`, and
//   the report is `assay score --engine ts`'s.
// - `readme_worker.js` is the README's worker example (Engines, "On Cloudflare Workers"), made
//   JavaScript by `deno bundle` and importing the root bundle for `@assay/assay`; it is POSTed the
//   JSONL files, and must answer with `assay score --engine wasm`'s report, byte for byte.
// - `suite_worker.js` imports the `./suite` bundle, loads a JSONC and a YAML suite and runs their
//   deterministic metrics over the demo's traces; Deno runs the same worker on the sources, and
//   the two answers must be the same text.
//
// They live here as text, since they import modules that exist only where they are staged.
import { CrossRuntimeError, exec, ROOT, RUN_TIMEOUT_MS, tail } from "./_runs.ts";
import type { CliReport } from "./_cli_score.ts";
import type { JsonlCorpus } from "../tests/conformance/_jsonl_corpus.ts";
import { sha256Hex } from "../tests/conformance/_sha256.ts";

const rootWorker = (withModule: boolean) =>
  `${withModule ? 'import wasmModule from "./assay.wasm";\n' : ""}import {
  canonicalize,
  createEngine,
  parseToolCall,
  scoreJsonl,
} from "./assay.js";
import examples from "./examples.jsonl";
import generations from "./generations.jsonl";
import prompts from "./prompts.jsonl";

const hex = (buffer) =>
  Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

export default {
  async fetch() {
    const engine = createEngine(${withModule ? "{ wasmModule }" : ""});
    const { report, bytes } = await scoreJsonl({
      examples: new Uint8Array(examples),
      generations: new Uint8Array(generations),
      prompts: new Uint8Array(prompts),
    }, { engine });
    return Response.json({
      engine: engine.name,
      fallbackReason: engine.fallbackReason ?? null,
      report: {
        engine: report.engine,
        n: report.n,
        bytes: bytes.length,
        sha256: hex(await crypto.subtle.digest("SHA-256", bytes)),
      },
      call: parseToolCall('Sure! {"name": "f", "arguments": {"x": 1.0, "n": 12345678901234567890}}', {
        engine,
        pairs: true,
      }),
      canonical: canonicalize('{"b": 1e16, "a": 1.0, "c": "caf\\\\u00e9"}', { engine }),
    });
  },
};
`;

/** A JSONC suite: the demo's deterministic metrics, with comments and trailing commas. */
const SUITE_JSONC = `// The demo's deterministic gates, as JSONC.
{
  "name": "analytics-agent-gates",
  "metrics": [
    { "type": "schema_membership", "threshold": 1.0 }, // every view and column exists
    { "type": "expected_view_recall" },
    { "type": "reference_value_match", "params": { "rel_tol": 0.001 } },
    /* the cheap ones */
    { "type": "step_efficiency", "threshold": 0.8 },
    { "type": "hit_limit" },
  ],
}
`;

const SUITE_WORKER = `import { loadSuite, runSuite, suiteChecks } from "./suite.js";
import { CATALOG, GOLDENS, SUITE_JSONC, SUITE_YAML, TRACES } from "./suite_inputs.js";

const rows = (text) => text.split("\\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));

export default {
  async fetch() {
    const inputs = { goldens: rows(GOLDENS), traces: rows(TRACES), catalog: JSON.parse(CATALOG) };
    const out = {};
    for (const [source, text] of [["suite.jsonc", SUITE_JSONC], ["suite.yaml", SUITE_YAML]]) {
      const suite = loadSuite(text, { source, ...suiteChecks() });
      out[source] = { suite, runs: await runSuite(suite, inputs, { noJudge: true }) };
    }
    return Response.json(out);
  },
};
`;

/** The worker scripts, by file name. */
export const EDGE_WORKERS: Record<string, string> = {
  "root_with_module.js": rootWorker(true),
  "root_without_module.js": rootWorker(false),
  "suite_worker.js": SUITE_WORKER,
};

/** The edge workers' sockets in tests/runtimes/workerd/config.capnp. */
export const EDGE_SOCKETS = ["root-with-module", "root-without-module", "readme", "suite"] as const;

/**
 * The README's worker example as JavaScript: the one `ts` block of README.md (its fence may carry
 * more, as `ts ignore`) that imports `./assay.wasm` and has a default export, with its types
 * stripped by `deno bundle` and `@assay/assay` replaced by the staged root bundle.
 *
 * @param tmp A scratch directory.
 * @returns The worker's source.
 * @throws {CrossRuntimeError} If README.md has no such block, or several.
 */
export async function readmeWorker(tmp: string): Promise<string> {
  const readme = await Deno.readTextFile(`${ROOT}/README.md`);
  // The block's fence is `ts ignore` (deno test --doc cannot run a worker that imports a .wasm
  // module), so any info string after `ts` is taken.
  const blocks = [...readme.matchAll(/```ts(?:[ \t][^\n]*)?\n([\s\S]*?)```/g)].map((m) => m[1]!)
    .filter((b) => b.includes('from "./assay.wasm"') && b.includes("export default"));
  if (blocks.length !== 1) {
    throw new CrossRuntimeError(
      `README.md: expected one worker example (a ts block importing ./assay.wasm with a default ` +
        `export), found ${blocks.length}`,
    );
  }
  const dir = `${tmp}/readme_worker`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/worker.ts`, blocks[0]!);
  await exec("deno bundle (README worker)", Deno.execPath(), [
    "bundle",
    "--quiet",
    "--no-config",
    "--platform",
    "browser",
    "--external",
    "./assay.wasm",
    "--external",
    "@assay/assay",
    "-o",
    `${dir}/worker.js`,
    `${dir}/worker.ts`,
  ], RUN_TIMEOUT_MS);
  const js = await Deno.readTextFile(`${dir}/worker.js`);
  const staged = js.replaceAll('from "@assay/assay"', 'from "./assay.js"');
  if (staged === js) {
    throw new CrossRuntimeError(`README.md: the worker example does not import "@assay/assay"`);
  }
  return staged;
}

/** How the run asks each edge worker: a GET, but the README worker is POSTed the JSONL files. */
export function edgeRequest(socket: string, jsonl: JsonlCorpus): RequestInit {
  if (socket !== "readme") return {};
  const form = new FormData();
  for (const name of ["examples", "generations", "prompts"] as const) {
    form.set(name, new File([jsonl[name] as Uint8Array<ArrayBuffer>], `${name}.jsonl`));
  }
  return { method: "POST", body: form };
}

/** The suite worker's inputs as a module: the two suites and the demo's data, as text. */
export async function suiteInputsModule(): Promise<string> {
  const demo = `${ROOT}/samples/suite_demo`;
  const texts: Record<string, string> = {
    SUITE_JSONC,
    SUITE_YAML: await Deno.readTextFile(`${demo}/suite.yaml`),
    GOLDENS: await Deno.readTextFile(`${demo}/goldens.jsonl`),
    TRACES: await Deno.readTextFile(`${demo}/traces.jsonl`),
    CATALOG: await Deno.readTextFile(`${demo}/catalog.json`),
  };
  return Object.entries(texts).map(([k, v]) => `export const ${k} = ${JSON.stringify(v)};\n`)
    .join("");
}

/** Runs the suite worker on Deno over the sources (not a bundle): the reference answer. */
export async function suiteOnDeno(tmp: string): Promise<string> {
  const dir = `${tmp}/suite_deno`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/suite_worker.js`, SUITE_WORKER);
  await Deno.writeTextFile(`${dir}/suite_inputs.js`, await suiteInputsModule());
  await Deno.writeTextFile(
    `${dir}/suite.js`,
    `export * from ${JSON.stringify(new URL(`file://${ROOT}/src/suite/mod.ts`).href)};\n`,
  );
  await Deno.writeTextFile(
    `${dir}/main.js`,
    `import worker from "./suite_worker.js";\n` +
      `console.log(await (await worker.fetch(new Request("http://localhost/"))).text());\n`,
  );
  const out = await exec("deno (suite worker)", Deno.execPath(), [
    "run",
    "--no-prompt",
    `--allow-read=${ROOT}`,
    // npm:yaml's Node build reads LOG_TOKENS and LOG_STREAM while parsing (docs/suite.md).
    "--allow-env=LOG_TOKENS,LOG_STREAM",
    `${dir}/main.js`,
  ], RUN_TIMEOUT_MS);
  return out.trimEnd();
}

interface RootAnswer {
  engine: string;
  fallbackReason: string | null;
  report: { engine: string; n: number; bytes: number; sha256: string };
  call: unknown;
  canonical: unknown;
}

/**
 * Checks the edge workers' answers: the root workers ran the engine they should and gave the
 * CLI's report on it, and the same single results; the suite worker gave Deno's answer.
 *
 * @param bodies The workers' response bodies, by socket.
 * @param cli `assay score`'s reports, by engine.
 * @param suiteReference The suite worker's answer on Deno.
 * @param problems Where problems go.
 * @returns One line per worker, to print.
 */
export async function checkEdge(
  bodies: ReadonlyMap<string, string>,
  cli: Readonly<Record<string, CliReport>> | undefined,
  suiteReference: string,
  problems: string[],
): Promise<string[]> {
  const lines: string[] = [];
  const roots: RootAnswer[] = [];
  for (const [socket, want] of [["root-with-module", "wasm"], ["root-without-module", "ts"]]) {
    const a = JSON.parse(bodies.get(socket!)!) as RootAnswer;
    roots.push(a);
    const where = `workerd ${socket} (createEngine(${want === "wasm" ? "{ wasmModule }" : ""}))`;
    if (a.engine !== want || a.report.engine !== want) {
      problems.push(`${where}: ran engine ${a.engine}, expected ${want}`);
    }
    if (want === "ts" && !a.fallbackReason) problems.push(`${where}: no fallbackReason`);
    const ref = cli?.[want!];
    if (ref && ref.sha256 !== a.report.sha256) {
      problems.push(
        `${where}: the scoreJsonl report (sha256 ${a.report.sha256.slice(0, 16)}) is not ` +
          `\`assay score --engine ${want}\`'s (sha256 ${ref.sha256.slice(0, 16)})`,
      );
    }
    lines.push(
      `${`workerd ${socket}`.padEnd(28)} ${a.engine.padEnd(5)} scoreJsonl ` +
        `${a.report.sha256.slice(0, 16)} (${a.report.n} scored)` +
        (a.fallbackReason ? `  fallback: ${a.fallbackReason}` : ""),
    );
  }
  const readme = bodies.get("readme")!;
  const readmeSha = await sha256Hex(readme);
  if (cli && readmeSha !== cli.wasm?.sha256) {
    problems.push(
      `workerd readme: the README's worker answered ${readme.length} bytes (sha256 ` +
        `${readmeSha.slice(0, 16)}), not \`assay score --engine wasm\`'s report (sha256 ` +
        `${cli.wasm?.sha256.slice(0, 16)}):\n${tail(readme, 400)}`,
    );
  }
  lines.push(
    `${"workerd readme".padEnd(28)} the README's worker: report sha256 ${readmeSha.slice(0, 16)}` +
      (readmeSha === cli?.wasm?.sha256 ? " (= assay score --engine wasm)" : ""),
  );
  const single = roots.map((a) => JSON.stringify([a.call, a.canonical]));
  if (single[0] !== single[1]) {
    problems.push(
      `workerd root workers: parseToolCall or canonicalize differ:\n  ${single[0]}\n  ${single[1]}`,
    );
  }
  const suite = bodies.get("suite")!;
  if (suite !== suiteReference) {
    problems.push(
      `workerd suite: the answer differs from Deno's on the sources:\n${tail(suite, 400)}\n` +
        `Deno:\n${tail(suiteReference, 400)}`,
    );
  }
  const parsed = JSON.parse(suite) as Record<string, { runs: unknown[] }>;
  lines.push(
    `${"workerd suite".padEnd(28)} ${
      Object.entries(parsed).map(([k, v]) => `${k} ${v.runs.length} runs`).join(", ")
    }, answer sha256 ${(await sha256Hex(suite)).slice(0, 16)}` +
      (suite === suiteReference ? " (Deno on the sources: the same)" : ""),
  );
  return lines;
}
