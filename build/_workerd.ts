// The workerd step of build/cross_runtime.ts: stage the config, the workers,
// the bundled conformance module, the root and `./suite` bundles, the seeded
// JSONL inputs and build/assay.wasm; serve on ephemeral loopback ports; fetch
// every worker's answer; stop workerd.
import type { JsonlCorpus } from "../tests/conformance/_jsonl_corpus.ts";
import {
  EDGE_SOCKETS,
  EDGE_WORKERS,
  edgeRequest,
  readmeWorker,
  suiteInputsModule,
} from "./_edge_workers.ts";
import {
  bundle,
  CrossRuntimeError,
  type Entry,
  ROOT,
  type Run,
  RUN_TIMEOUT_MS,
  tail,
} from "./_runs.ts";

const CONFORMANCE = "tests/conformance/conformance.ts";
const WORKERD_DIR = `${ROOT}/tests/runtimes/workerd`;
const WASM = `${ROOT}/build/assay.wasm`;
/** The workerd config of the cross-runtime run. */
export const WORKERD_CONFIG = `${WORKERD_DIR}/config.capnp`;
const LISTEN_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * The compatibility flags a workerd config turns on, from every `compatibilityFlags = [...]`
 * (comments skipped).
 *
 * @param capnp The config's text.
 * @returns The flags, in order.
 */
export function compatibilityFlags(capnp: string): string[] {
  const code = capnp.replace(/#[^\n]*/g, "");
  const flags: string[] = [];
  for (const m of code.matchAll(/compatibilityFlags\s*=\s*\[([^\]]*)\]/g)) {
    for (const f of m[1]!.matchAll(/"([^"]*)"/g)) flags.push(f[1]!);
  }
  return flags;
}

/** Reads workerd's control messages until every socket reported its port. */
async function readPorts(
  stdout: ReadableStream<Uint8Array>,
  sockets: string[],
  signal: AbortSignal,
): Promise<Map<string, number>> {
  const ports = new Map<string, number>();
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  const onAbort = () => reader.cancel().catch(() => {});
  signal.addEventListener("abort", onAbort);
  let buf = "";
  try {
    while (ports.size < sockets.length) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line.startsWith("{")) continue;
        const msg = JSON.parse(line) as {
          event?: string;
          socket?: string;
          port?: number;
        };
        if (msg.event === "listen" && msg.socket && msg.port) {
          ports.set(msg.socket, msg.port);
        }
      }
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Keep draining so that workerd never blocks on a full pipe.
    (async () => {
      try {
        while (!(await reader.read()).done) { /* drain */ }
      } catch { /* cancelled */ }
    })();
  }
  return ports;
}

/**
 * The two workerd workers. They live here rather than as files because they
 * import modules that exist only in the staging directory, which `deno check`
 * would fail to resolve.
 */
const WORKERS: Record<string, string> = {
  // build/assay.wasm imported as a module and passed as `wasmModule`.
  "with_module.js": `import wasmModule from "./assay.wasm";
import { runAllEngines } from "./conformance.js";
export default { async fetch() { return Response.json(await runAllEngines({ wasmModule })); } };
`,
  // No module: workerd refuses to compile Wasm from bytes, so \`wasm\` cannot
  // start and \`auto\` must fall back to \`ts\` with a fallbackReason.
  "without_module.js": `import { runAllEngines } from "./conformance.js";
export default { async fetch() { return Response.json(await runAllEngines()); } };
`,
};

/** What the edge workers import besides the Wasm module. */
export interface EdgeStage {
  /** The root bundle (`deno bundle mod.ts`). */
  root: string;
  /** The `./suite` bundle, for the browser platform. */
  suite: string;
  /** The seeded JSONL inputs. */
  jsonl: JsonlCorpus;
}

/** What the workerd step found. */
export interface WorkerdResult {
  /** The conformance runs of both conformance workers (`workerd+module`, `workerd`). */
  runs: Run[];
  /** The edge workers' response bodies, by socket. */
  edge: Map<string, string>;
}

/**
 * Runs the conformance on workerd, with and without `wasmModule`, and the edge workers.
 *
 * @param tmp A scratch directory.
 * @param workerd The workerd binary.
 * @param version Its version, for the output.
 * @param edge The bundles and inputs of the edge workers.
 * @returns The conformance runs and the edge workers' answers.
 * @throws {CrossRuntimeError} When workerd does not start, answer or succeed.
 */
export async function runWorkerd(
  tmp: string,
  workerd: string,
  version: string,
  edge: EdgeStage,
): Promise<WorkerdResult> {
  const stage = `${tmp}/workerd`;
  await Deno.mkdir(stage, { recursive: true });
  await Deno.copyFile(WORKERD_CONFIG, `${stage}/config.capnp`);
  for (const [name, source] of Object.entries({ ...WORKERS, ...EDGE_WORKERS })) {
    await Deno.writeTextFile(`${stage}/${name}`, source);
  }
  await Deno.copyFile(edge.root, `${stage}/assay.js`);
  await Deno.copyFile(edge.suite, `${stage}/suite.js`);
  await Deno.writeTextFile(`${stage}/suite_inputs.js`, await suiteInputsModule());
  await Deno.writeTextFile(`${stage}/readme_worker.js`, await readmeWorker(tmp));
  for (const name of ["examples", "generations", "prompts"] as const) {
    await Deno.writeFile(`${stage}/${name}.jsonl`, edge.jsonl[name]);
  }
  try {
    await Deno.copyFile(WASM, `${stage}/assay.wasm`);
  } catch (e) {
    throw new CrossRuntimeError(
      `workerd: cannot read ${WASM} (run \`deno task build:wasm\`)`,
      {
        cause: e,
      },
    );
  }
  await bundle(CONFORMANCE, `${stage}/conformance.js`);

  const sockets = ["with-module", "without-module", ...EDGE_SOCKETS];
  const child = new Deno.Command(workerd, {
    args: ["serve", "config.capnp", "--control-fd=1"],
    cwd: stage,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const stderrDone = (async () => {
    for await (
      const chunk of child.stderr.pipeThrough(new TextDecoderStream())
    ) stderr += chunk;
  })();
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  try {
    const listen = AbortSignal.timeout(LISTEN_TIMEOUT_MS);
    // Resolves (never rejects) so that a later exit is no unhandled rejection.
    const exitedEarly = status.then((s) =>
      new CrossRuntimeError(`workerd exited early (code ${s.code})`)
    );
    const ports = await Promise.race([
      readPorts(child.stdout, sockets, listen),
      exitedEarly,
    ]);
    if (ports instanceof Error) {
      await stderrDone.catch(() => {});
      throw new CrossRuntimeError(`${ports.message}\n${tail(stderr)}`);
    }
    for (const s of sockets) {
      if (!ports.has(s)) {
        throw new CrossRuntimeError(
          `workerd: socket ${s} did not report a port within ${LISTEN_TIMEOUT_MS / 1000} s\n${
            tail(stderr)
          }`,
        );
      }
    }
    const runs: Run[] = [];
    const answers = new Map<string, string>();
    for (const s of sockets) {
      const host = s === "with-module"
        ? "workerd+module"
        : s === "without-module"
        ? "workerd"
        : `workerd ${s}`;
      let res: Response;
      try {
        res = await fetch(`http://127.0.0.1:${ports.get(s)}/`, {
          ...edgeRequest(s, edge.jsonl),
          signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
        });
      } catch (e) {
        throw new CrossRuntimeError(
          `${host}: request failed: ${e}\n${tail(stderr)}`,
          { cause: e },
        );
      }
      const body = await res.text();
      if (!res.ok) {
        throw new CrossRuntimeError(
          `${host}: HTTP ${res.status}\n${tail(body)}\n${tail(stderr)}`,
        );
      }
      if ((EDGE_SOCKETS as readonly string[]).includes(s)) answers.set(s, body);
      else {
        for (const entry of JSON.parse(body) as Entry[]) {
          runs.push({ host, version, entry });
        }
      }
    }
    return { runs, edge: answers };
  } finally {
    if (!exited) {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      const killer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, STOP_TIMEOUT_MS);
      await status;
      clearTimeout(killer);
    }
    await stderrDone.catch(() => {});
  }
}
