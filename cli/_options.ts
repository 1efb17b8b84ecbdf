// Shared option handling: node:util's parseArgs, wrapped so that mistakes become UsageErrors
// worded in the house style, with a "did you mean" for a misspelled flag.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { createEngine, type Engine } from "../src/engine/mod.ts";
import { suggestName } from "../src/jsonl/mod.ts";
import { UsageError } from "./_errors.ts";

/** Parses options strictly; unknown flags and missing values are usage errors. */
export function parseOptions<T extends NonNullable<ParseArgsConfig["options"]>>(
  args: string[],
  options: T,
) {
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(args, options),
      options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (e) {
    throw new UsageError(optionMessage(e, Object.keys(options)));
  }
  // parseArgs keeps the last of a repeated flag: `--seed 1 --seed 2` would run with seed 2
  // without a word. Only a flag declared `multiple` may be given more than once.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== "option" || options[token.name]?.multiple === true) continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} given twice`);
    seen.add(token.name);
  }
  return { values: parsed.values, positionals: parsed.positionals };
}

/**
 * `--seed -1` as `--seed=-1`: parseArgs takes a value that starts with a dash only after `=`, so a
 * negative number after a flag that takes a value is joined to it, and the command's own check of
 * the value speaks (`--seed must be a non-negative integer, got "-1"`).
 */
function joinNegativeValues(args: string[], options: NonNullable<ParseArgsConfig["options"]>) {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    const name = /^--([^=]+)$/.exec(arg)?.[1];
    const next = args[i + 1];
    if (
      name !== undefined && Object.hasOwn(options, name) && options[name]!.type === "string" &&
      next !== undefined && /^-(?:[0-9]|\.[0-9])/.test(next)
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** parseArgs' error in the house style: the flag quoted, no trailing period, a suggestion. */
function optionMessage(e: unknown, known: readonly string[]): string {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const flag = /Unknown option '([^']*)'/.exec(message)?.[1];
    if (flag !== undefined) return unknownOption(flag, known);
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const missing = /^Option '(-[^' ]*)(?:, (--[^' ]*))? <value>' argument missing/.exec(message);
    if (missing) return `Option ${missing[2] ?? missing[1]} needs a value`;
    const takesNone = /^Option '(?:-\w, )?(--[^']*)' does not take an argument/.exec(message);
    if (takesNone) return `Option ${takesNone[1]} takes no value`;
    const dashed = /^Option '(?:-\w, )?(--[^']*)' argument is ambiguous/.exec(message);
    if (dashed) {
      return `Option ${dashed[1]} needs a value (write ${dashed[1]}=VALUE for one that starts ` +
        'with "-")';
    }
  }
  return message.replace(/\.$/, "");
}

/**
 * The message for an unknown flag: `Unknown option "--exmples" (did you mean --examples?)`.
 *
 * @param flag The flag as given, with its dashes.
 * @param known The command's long option names, without dashes.
 */
export function unknownOption(flag: string, known: readonly string[]): string {
  const name = flag.replace(/^-+/, "");
  const suggestion = name.length > 1 ? suggestName(name, known) : undefined;
  return suggestion === undefined
    ? `Unknown option ${JSON.stringify(flag)} (see --help)`
    : `Unknown option ${JSON.stringify(flag)} (did you mean --${suggestion}?)`;
}

/**
 * The message for an unknown command: `Unknown command "scor" (did you mean score?)`, or the list
 * of commands when none is close.
 *
 * @param what What the word names, such as `command` or `suite command`.
 * @param word The word as given.
 * @param known The valid words.
 * @param whats `what` in the plural (default: with an `s`).
 */
export function unknownWord(
  what: string,
  word: string,
  known: readonly string[],
  whats = `${what}s`,
): string {
  const suggestion = suggestName(word, known);
  return suggestion === undefined
    ? `Unknown ${what} ${JSON.stringify(word)} (${whats}: ${known.map(bare).join(", ")})`
    : `Unknown ${what} ${JSON.stringify(word)} (did you mean ${bare(suggestion)}?)`;
}

/**
 * The message for a flag's value that is not one of its values: `Unknown value "fenzed" for
 * --mode (did you mean fenced?)`, or the values when none is close.
 *
 * @param flag The flag, with its dashes.
 * @param value The value as given.
 * @param known The flag's values.
 */
export function unknownValue(flag: string, value: string, known: readonly string[]): string {
  const suggestion = value === "" ? undefined : suggestName(value, known);
  return `Unknown value ${JSON.stringify(value)} for ${flag} (` +
    (suggestion === undefined
      ? `one of ${known.map(bare).join(", ")}`
      : `did you mean ${bare(suggestion)}?`) +
    ")";
}

/** `value` when it is one of `known`, else the usage error {@linkcode unknownValue} words. */
export function oneOf<T extends string>(flag: string, value: string, known: readonly T[]): T {
  if (!(known as readonly string[]).includes(value)) {
    throw new UsageError(unknownValue(flag, value, known));
  }
  return value as T;
}

// A known word as a list shows it: bare when it is a plain name, else quoted, so that a user's
// name holding a comma, a space or nothing (an arm, a slice) reads as one.
const bare = (word: string) => /^[\w.:/@+-]+$/.test(word) ? word : JSON.stringify(word);

/**
 * build/assay.wasm, compiled, when the CLI runs from a checkout (or an unpacked package): the
 * module the engine otherwise inflates from its inlined copy (the same bytes, both written by
 * `deno task build:wasm` and checked by the gate), which costs a cold process about 10 ms.
 * Undefined when the file may not or cannot be read, or not compiled: the engine then uses its own
 * copy.
 */
function shippedModule(): WebAssembly.Module | undefined {
  const url = new URL("../build/assay.wasm", import.meta.url);
  if (url.protocol !== "file:") return undefined;
  // Never a permission prompt: only a file the process may already read.
  if (Deno.permissions.querySync({ name: "read", path: url }).state !== "granted") return undefined;
  try {
    return new WebAssembly.Module(Deno.readFileSync(url));
  } catch {
    return undefined;
  }
}

/** Resolves `--engine`, telling stderr when `auto` fell back to `ts`. */
export function engineFromFlag(flag: string | undefined, quiet = false): Engine {
  const choice = oneOf("--engine", flag ?? "auto", ["auto", "wasm", "ts"] as const);
  const wasmModule = choice === "ts" ? undefined : shippedModule();
  const engine = createEngine({ engine: choice, ...(wasmModule && { wasmModule }) });
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
  /** Whether `--force` was given: `--out` may replace a file of another kind. */
  force: boolean;
  /** The `--max-line-bytes` limit, when given. */
  maxLineBytes: number | undefined;
}

/** The `--max-line-bytes` flag: a whole number of bytes, at least 1 (undefined when absent). */
export function maxLineBytesFlag(flag: string | undefined): number | undefined {
  if (flag === undefined) return undefined;
  const n = /^[0-9]+$/.test(flag) ? Number(flag) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(
      `--max-line-bytes must be a whole number of bytes, at least 1; got "${flag}"`,
    );
  }
  return n;
}

/**
 * Parses the options of a line-mapping command:
 * `[FILE] [--engine NAME] [--out FILE] [--force] [-h]`, and `--pairs` when `withPairs`. Prints `help` and returns undefined for `--help`.
 */
export function parseLineCommand(
  args: string[],
  help: string,
  withPairs = false,
): LineCommand | undefined {
  const { values, positionals } = parseOptions(args, {
    engine: { type: "string" },
    out: { type: "string" },
    force: { type: "boolean" },
    "max-line-bytes": { type: "string" },
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
    force: values.force === true,
    maxLineBytes: maxLineBytesFlag(values["max-line-bytes"]),
  };
}
