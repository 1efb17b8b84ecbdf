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
