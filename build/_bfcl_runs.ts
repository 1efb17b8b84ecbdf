// The BFCL step of build/cross_runtime.ts: tests/conformance/bfcl_main.ts on Deno, Node (bundled)
// and Bun, over the 11 vendored models' results; every runtime must give each run's report to the
// byte (the per-run digests say which run differed).
import { bundle, CrossRuntimeError, exec, ROOT, RUN_TIMEOUT_MS, tail } from "./_runs.ts";

const MAIN = "tests/conformance/bfcl_main.ts";
const FIXTURES = `${ROOT}/tests/fixtures/bfcl-v1`;

interface BfclDigests {
  sha256: string;
  digests: Record<string, string>;
}

function parse(what: string, stdout: string): BfclDigests {
  const line = stdout.split("\n").find((l) => l.startsWith("{"));
  if (line === undefined) {
    throw new CrossRuntimeError(`${what}: printed no result\n${tail(stdout)}`);
  }
  return JSON.parse(line) as BfclDigests;
}

/**
 * Runs the BFCL step on the wanted runtimes among Deno, Node and Bun.
 *
 * @param tmp A scratch folder (for Node's bundle).
 * @param wanted The runtimes asked for.
 * @param bun Bun's executable, when Bun is wanted.
 * @returns One line per runtime, and the problems (runs whose reports differ from Deno's).
 */
export async function bfclAcrossRuntimes(
  tmp: string,
  wanted: readonly string[],
  bun: string | undefined,
): Promise<{ lines: string[]; problems: string[] }> {
  const steps: [string, () => Promise<string>][] = [
    ["deno", () =>
      exec("deno (bfcl)", Deno.execPath(), [
        "run",
        "--no-prompt",
        `--allow-read=${FIXTURES}`,
        MAIN,
        FIXTURES,
      ], RUN_TIMEOUT_MS)],
    ["node", async () => {
      const file = `${tmp}/bfcl_node.mjs`;
      await bundle(MAIN, file, "deno");
      return await exec("node (bfcl)", "node", [file, FIXTURES], RUN_TIMEOUT_MS);
    }],
    ["bun", () => exec("bun (bfcl)", bun!, ["run", MAIN, FIXTURES], RUN_TIMEOUT_MS)],
  ];
  const lines: string[] = [];
  const problems: string[] = [];
  const got = new Map<string, BfclDigests>();
  for (const [name, run] of steps) {
    if (!wanted.includes(name)) continue;
    try {
      const r = parse(`${name} (bfcl)`, await run());
      got.set(name, r);
      lines.push(
        `${`${name} bfcl`.padEnd(28)} ${Object.keys(r.digests).length} model runs, ` +
          `sha256 ${r.sha256.slice(0, 16)}`,
      );
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      lines.push(`${`${name} bfcl`.padEnd(28)} FAILED: ${msg.split("\n")[0]}`);
      problems.push(msg);
    }
  }
  const [refName, ref] = [...got][0] ?? [];
  for (const [name, r] of got) {
    if (r.sha256 === ref!.sha256) continue;
    const keys = new Set([...Object.keys(ref!.digests), ...Object.keys(r.digests)]);
    const differ = [...keys].filter((k) => r.digests[k] !== ref!.digests[k]);
    problems.push(
      `BFCL reports differ between ${refName} and ${name} on ${differ.length} model run(s): ` +
        differ.slice(0, 10).join("; "),
    );
  }
  return { lines, problems };
}
