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
