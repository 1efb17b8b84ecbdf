// How build/cross_runtime.ts starts things: subprocesses with deadlines, and
// `deno bundle`. Also the labelled result type every runtime step returns.
import type { ConformanceFailure, ConformanceReport } from "../tests/conformance/_report.ts";

/** The repository root. */
export const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");

/** Deadline of one conformance run on one runtime. */
export const RUN_TIMEOUT_MS = 180_000;
const BUNDLE_TIMEOUT_MS = 120_000;

/** What a runtime printed for one requested engine. */
export type Entry = ConformanceReport | ConformanceFailure;

/** One conformance result, labelled with where it ran. */
export interface Run {
  /** e.g. `workerd+module`. */
  host: string;
  /** The runtime version as the orchestrator knows it. */
  version: string;
  /** The report, or why the engine did not start. */
  entry: Entry;
}

/** A problem that fails the run. */
export class CrossRuntimeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "CrossRuntimeError";
  }
}

export const decoder = new TextDecoder();

export function tail(text: string, n = 1500): string {
  const t = text.trim();
  return t.length > n ? "…" + t.slice(-n) : t;
}

/** Runs a command to completion with a deadline; returns stdout, throws with stderr. */
export async function exec(
  what: string,
  cmd: string,
  args: string[],
  timeoutMs: number,
): Promise<string> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(cmd, {
      args,
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    throw new CrossRuntimeError(
      `${what}: cannot start ${cmd}: ${e instanceof Error ? e.message : e}`,
      { cause: e },
    );
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch { /* already exited */ }
  }, timeoutMs);
  try {
    const out = await child.output();
    const stdout = decoder.decode(out.stdout);
    if (!out.success) {
      const why = timedOut ? `timed out after ${timeoutMs / 1000} s` : `exit code ${out.code}`;
      throw new CrossRuntimeError(
        `${what}: ${cmd} ${args.join(" ")} failed (${why})\n${tail(decoder.decode(out.stderr))}`,
      );
    }
    return stdout;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Bundles `entry` into one ES module, unminified: for browser-like hosts (`browser`, which picks
 * npm packages' browser builds, as workers' bundlers do) or with `deno bundle`'s default platform
 * (`deno`, which picks their Node builds). With `importMap`, imports resolve through it.
 */
export async function bundle(
  entry: string,
  outFile: string,
  platform: "browser" | "deno" = "browser",
  importMap?: string,
): Promise<void> {
  await exec(
    `deno bundle ${entry}`,
    Deno.execPath(),
    [
      "bundle",
      "--quiet",
      ...(importMap ? ["--import-map", importMap] : []),
      ...(platform === "browser" ? ["--platform", "browser"] : []),
      "--format",
      "esm",
      "-o",
      outFile,
      entry,
    ],
    BUNDLE_TIMEOUT_MS,
  );
}
