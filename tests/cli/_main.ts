// Runs the CLI in this process through main() from cli/main.ts, capturing what it prints.
import { main } from "../../cli/main.ts";

/** What one run of the CLI gave. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `assay <args>` in this process: its exit code and what it printed. */
export async function runMain(args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error } = console;
  console.log = (...xs: unknown[]) => void out.push(xs.map(String).join(" "));
  console.error = (...xs: unknown[]) => void err.push(xs.map(String).join(" "));
  try {
    const code = await main(args);
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

const MAIN = new URL("../../cli/main.ts", import.meta.url).pathname;

/**
 * Runs `assay <args>` as its own process (`deno run -A cli/main.ts`, no colour): its exit code
 * and what it printed, for what must cross a process boundary (exit codes, stdout's bytes).
 */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<Run> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
    // Never a real CI step summary: a test that wants one sets it.
    env: { NO_COLOR: "1", GITHUB_STEP_SUMMARY: "", ...env },
    ...(cwd === undefined ? {} : { cwd }),
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
