// Shared option handling: node:util's parseArgs, wrapped so that mistakes become UsageErrors.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { createEngine, type Engine } from "../src/engine/mod.ts";
import { UsageError } from "./_errors.ts";

/** Parses options strictly; unknown flags and missing values are usage errors. */
export function parseOptions<T extends NonNullable<ParseArgsConfig["options"]>>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

/** Resolves `--engine`, telling stderr when `auto` fell back to `ts`. */
export function engineFromFlag(flag: string | undefined, quiet = false): Engine {
  const choice = flag ?? "auto";
  if (choice !== "auto" && choice !== "wasm" && choice !== "ts") {
    throw new UsageError(`--engine must be auto, wasm or ts (got "${choice}")`);
  }
  const engine = createEngine({ engine: choice });
  if (engine.fallbackReason && !quiet) console.error(`note: ${engine.fallbackReason}`);
  return engine;
}

/** What a command that maps the lines of one input reads from its command line. */
export interface LineCommand {
  /** The input file (stdin when absent or `-`). */
  input: string | undefined;
  /** The `--out` file (stdout when absent). */
  out: string | undefined;
  /** The `--engine` chosen. */
  engine: Engine;
  /** Whether `--pairs` was given (for the commands that take it). */
  pairs: boolean;
}

/**
 * Parses the options of a line-mapping command: `[FILE] [--engine NAME] [--out FILE] [-h]`,
 * and `--pairs` when `withPairs`. Prints `help` and returns undefined for `--help`.
 */
export function parseLineCommand(
  args: string[],
  help: string,
  withPairs = false,
): LineCommand | undefined {
  const { values, positionals } = parseOptions(args, {
    engine: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h" },
    ...(withPairs ? { pairs: { type: "boolean" } } : {}),
  });
  if (values.help) {
    console.log(help);
    return undefined;
  }
  if (positionals.length > 1) throw new UsageError("Expected at most one input file");
  return {
    input: positionals[0],
    out: values.out,
    engine: engineFromFlag(values.engine),
    pairs: (values as { pairs?: boolean }).pairs === true,
  };
}
