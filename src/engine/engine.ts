/**
 * Engine selection: `auto` (the default), `wasm` or `ts`.
 *
 * Both engines implement the same contract and return identical results. The
 * `wasm` engine is an AssemblyScript module with zero imports; the `ts` engine
 * is its pure-TypeScript twin. `auto` uses `wasm` when the module can be
 * instantiated and otherwise falls back to `ts`, recording why in
 * {@linkcode Engine.fallbackReason}.
 *
 * An engine also runs the paired bootstrap's resampling kernel: the functions
 * that take bootstrap options (`pairedBootstrap`, `compareReports`,
 * `languageGaps`) accept an `engine` there too, and otherwise use the default
 * engine. Both kernels give bit-identical intervals.
 *
 * Hosts that refuse to compile WebAssembly from bytes, such as Cloudflare's
 * workerd, can import the published `build/assay.wasm` as a module and pass
 * it as `wasmModule`.
 *
 * @module
 */
import type { CoreToolCall, EngineCore } from "./_core.ts";
import type { Sfc32 } from "./prng.ts";
import type { ResampleJob } from "./resample.ts";
import { createTsCore } from "./_ts_engine.ts";
import { createWasmCore } from "./_wasm_engine.ts";
import { materialize } from "./materialize.ts";
import type {
  CanonicalResult,
  EngineName,
  FlattenResult,
  JsonValue,
  SpanResult,
  ToolCallResult,
} from "./types.ts";

// Marks an engine of any copy of the package (see engineOf).
const BRAND = Symbol.for("@assay/assay Engine");

/** Which engine to use. `auto` prefers `wasm` and falls back to `ts`. */
export type EngineChoice = "auto" | EngineName;

/** Options for {@linkcode createEngine}. */
export interface EngineOptions {
  /** `auto` (default), `wasm` or `ts`. */
  engine?: EngineChoice;
  /** A precompiled module of `build/assay.wasm`, for hosts that cannot compile Wasm from bytes. */
  wasmModule?: WebAssembly.Module;
}

/** Options for the tool-call parsers. */
export interface ParseToolCallOptions {
  /** Materialise `arguments` as a plain object (default `true`). */
  arguments?: boolean;
  /** Compute the flattened argument pairs (default `false`). */
  pairs?: boolean;
}

function checkTexts(texts: readonly string[]): void {
  if (!Array.isArray(texts)) throw new TypeError("Expected an array of strings");
  for (let i = 0; i < texts.length; i++) {
    if (typeof texts[i] !== "string") {
      // A batch of one is also how the one-text functions call: no index to name there.
      const at = texts.length > 1 ? ` at index ${i}` : "";
      throw new TypeError(`Expected a string${at}, got ${typeof texts[i]}`);
    }
  }
}

/**
 * A running engine. Every method takes a batch and returns one result per text, in order. (The
 * examples are here rather than on the methods: a bundler keeps a method's doc comment in its
 * output, and the root bundle has a budget.)
 *
 * @example Spans, tool calls with canonical arguments and pairs, canonical JSON, flattening
 * ```ts
 * import { createEngine } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const engine = createEngine({ engine: "ts" });
 * // The first balanced span of prose around a call.
 * assertEquals(engine.extractSpanBatch(['Call: {"a": 1} done']), [
 *   { status: "found", start: 6, end: 14 },
 * ]);
 * const [call] = engine.parseToolCallBatch(
 *   ['{"name": "f", "arguments": {"b": 1.0, "a": [true]}}'],
 *   { pairs: true, arguments: false },
 * );
 * assertEquals(call, {
 *   status: "ok",
 *   name: "f",
 *   canonicalArguments: '{"a":[true],"b":1.0}',
 *   pairs: [{ path: '["a",0]', value: "true" }, { path: '["b"]', value: "1.0" }],
 * });
 * // Sorted keys, exact numbers.
 * assertEquals(engine.canonicalizeBatch(['{"b": 1e16, "a": 10}']), [
 *   { ok: true, canonical: '{"a":10,"b":1e+16}' },
 * ]);
 * // An empty object is one pair.
 * assertEquals(engine.flattenArgumentsBatch(["{}"]), [
 *   { ok: true, pairs: [{ path: "[]", value: "{}" }] },
 * ]);
 * ```
 *
 * @example A resampling job of one row: every resample draws it
 * ```ts
 * import { createEngine, makeJob, Sfc32 } from "@assay/assay/engine";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const row = Float64Array.of(0, 0, 0, 0, 0, 2, 1, 1, 1, 1, 1, 2);
 * const deltas = createEngine({ engine: "ts" }).resample(makeJob(row, 1, 2), new Sfc32(1));
 * assertEquals(Array.from(deltas), [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]); // five metrics × two resamples
 * ```
 */
export class Engine {
  #core: EngineCore;
  /** The engine actually running: `wasm` or `ts`. */
  readonly name: EngineName;
  /** Why `auto` fell back to `ts`, when it did. */
  readonly fallbackReason: string | undefined;
  /**
   * The compiled module a `wasm` engine runs (`undefined` for `ts`), for kernels that need an
   * instance of their own, such as the scoring kernel of `scoreJsonl`.
   */
  readonly wasmModule: WebAssembly.Module | undefined;

  /**
   * Wraps an engine core. Use {@linkcode createEngine} instead.
   *
   * @param core The engine core.
   * @param fallbackReason Why `auto` fell back to `ts`, if it did.
   */
  constructor(core: EngineCore, fallbackReason?: string) {
    this.#core = core;
    this.name = core.name;
    this.fallbackReason = fallbackReason;
    this.wasmModule = core.module;
    (this as unknown as Record<symbol, true>)[BRAND] = true;
  }

  /**
   * Finds the first balanced JSON span of each text (CONTRACT §1).
   *
   * @param texts Raw model outputs.
   * @returns One {@linkcode SpanResult} per text.
   * @throws {TypeError} If `texts` is not an array of strings.
   */
  extractSpanBatch(texts: readonly string[]): SpanResult[] {
    checkTexts(texts);
    return this.#core.spans(texts);
  }

  /**
   * Parses each text into a tool call: span, JSON acceptance, shape, canonical arguments.
   *
   * @param texts Raw model outputs.
   * @param options Whether to materialise `arguments` and to compute `pairs`.
   * @returns One {@linkcode ToolCallResult} per text.
   * @throws {TypeError} If `texts` is not an array of strings.
   */
  parseToolCallBatch(
    texts: readonly string[],
    options: ParseToolCallOptions = {},
  ): ToolCallResult[] {
    checkOptions(options);
    checkTexts(texts);
    const calls = this.#core.toolCalls(texts, options.pairs === true);
    if (options.arguments === false) return calls;
    return calls.map(withArguments);
  }

  /**
   * Canonicalizes each text as one JSON document (CONTRACT §2).
   *
   * @param texts JSON texts.
   * @returns One {@linkcode CanonicalResult} per text.
   * @throws {TypeError} If `texts` is not an array of strings.
   */
  canonicalizeBatch(texts: readonly string[]): CanonicalResult[] {
    checkTexts(texts);
    return this.#core.canonical(texts);
  }

  /**
   * Flattens each text, one JSON document, into canonical path/value pairs (CONTRACT §3).
   *
   * @param texts JSON texts, usually argument objects.
   * @returns One {@linkcode FlattenResult} per text.
   * @throws {TypeError} If `texts` is not an array of strings.
   */
  flattenArgumentsBatch(texts: readonly string[]): FlattenResult[] {
    checkTexts(texts);
    return this.#core.flatten(texts);
  }

  /**
   * Runs a resampling job of the paired bootstrap (see {@linkcode makeJob}) on this engine's
   * kernel: the draws come from `rng`'s state, which is left advanced past every draw. Both
   * engines return bit-identical deltas.
   *
   * @param job The job: rows of per-example counts, draws per resample, resamples.
   * @param rng The stream of draws.
   * @returns The five metric deltas of every resample, metric by metric.
   */
  resample(job: ResampleJob, rng: Sfc32): Float64Array {
    return this.#core.resample(job, rng);
  }
}

function withArguments(call: CoreToolCall): ToolCallResult {
  if (call.status !== "ok") return call;
  const result: ToolCallResult = {
    status: call.status,
    name: call.name!,
    arguments: materialize(call.canonicalArguments!) as { [key: string]: JsonValue },
    canonicalArguments: call.canonicalArguments!,
  };
  if (call.pairs) result.pairs = call.pairs;
  return result;
}

/**
 * Creates an engine.
 *
 * @param options `engine` (`auto`, `wasm` or `ts`) and an optional precompiled `wasmModule`.
 * @returns The engine; its `name` says which one runs.
 * @throws {Error} If `wasm` was asked for explicitly and cannot be instantiated.
 * @throws {RangeError} If `engine` is not one of the three names.
 * @throws {TypeError} If `options` is given and not an object: `createEngine("wasm")` is
 *   refused with `createEngine({ engine: "wasm" })` in its message.
 *
 * @example Choosing an engine
 * ```ts
 * import { createEngine } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const ts = createEngine({ engine: "ts" });
 * assertEquals(ts.name, "ts");
 * const auto = createEngine();
 * assertEquals(auto.name === "wasm" || auto.fallbackReason !== undefined, true);
 * ```
 */
export function createEngine(options: EngineOptions = {}): Engine {
  // createEngine("ts") would otherwise run the auto engine, as if asked for nothing.
  if (typeof options == "string") {
    wrongType(
      `an object of options (createEngine({ engine: ${JSON.stringify(options)} }))`,
      options,
    );
  }
  checkOptions(options);
  const choice = options.engine ?? "auto";
  if (choice === "ts") return new Engine(createTsCore());
  if (choice !== "wasm" && choice !== "auto") {
    throw new RangeError(`Unknown engine "${String(choice)}": expected auto, wasm or ts`);
  }
  try {
    return new Engine(createWasmCore(options.wasmModule));
  } catch (e) {
    if (choice === "wasm") {
      throw new Error(`The wasm engine cannot be instantiated here: ${describe(e)}`, { cause: e });
    }
    return new Engine(createTsCore(), `wasm unavailable (${describe(e)}); using the ts engine`);
  }
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

let defaultEngine: Engine | undefined;

/**
 * The engine used when a function gets no `engine` option: created on first use with `auto`.
 *
 * @returns The default engine.
 *
 * @example
 * ```ts
 * import { getDefaultEngine } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(["wasm", "ts"].includes(getDefaultEngine().name), true);
 * ```
 */
export function getDefaultEngine(): Engine {
  defaultEngine ??= createEngine();
  return defaultEngine;
}

/**
 * Replaces the default engine, e.g. with one built from a precompiled module on workerd.
 *
 * @param engine The engine to use by default.
 * @throws {TypeError} If it is not an {@linkcode Engine}.
 *
 * @example
 * ```ts
 * import { createEngine, getDefaultEngine, setDefaultEngine } from "@assay/assay";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * setDefaultEngine(createEngine({ engine: "ts" }));
 * assertEquals(getDefaultEngine().name, "ts");
 * ```
 */
export function setDefaultEngine(engine: Engine): void {
  defaultEngine = engineOf(engine ?? null);
}

/** The option every top-level function accepts. */
export interface WithEngine {
  /** The engine to run on; the default engine when absent. */
  engine?: Engine;
}

// The TypeError of a value of the wrong type.
function wrongType(what: string, x: unknown): never {
  throw new TypeError(`Expected ${what}, got ${x === null ? "null" : typeof x}`);
}

/**
 * Checks that a function's options are an object or left out, so that a value given in their
 * place (a plain-JavaScript `createEngine("ts")`) is refused instead of read as no option at all.
 * Every public function that takes options checks them so, first: `null` is refused too, as no
 * object, so that it is a named error and not a TypeError from inside, reading a property of null.
 *
 * @param options The options given (`undefined` when left out).
 * @throws {TypeError} If `options` is neither an object nor `undefined` (`null` among them):
 *   "Expected an object of options, or none, got null".
 *
 * @example
 * ```ts
 * import { checkOptions } from "@assay/assay";
 * import { throws } from "node:assert/strict";
 *
 * checkOptions({ engine: "ts" });
 * checkOptions(undefined);
 * throws(() => checkOptions("ts"), {
 *   name: "TypeError",
 *   message: "Expected an object of options, or none, got string",
 * });
 * throws(() => checkOptions(null), /^TypeError: Expected an object of options, or none, got null/);
 * ```
 */
export function checkOptions(options: unknown): void {
  if (options !== undefined && (typeof options !== "object" || !options)) {
    wrongType("an object of options, or none", options);
  }
}

/**
 * The engine an `engine` option asks for: the default engine when it is absent.
 *
 * @param engine The option's value.
 * @returns The engine.
 * @throws {TypeError} If it is not an {@linkcode Engine} (the name `"ts"` among others:
 *   `createEngine({ engine: "ts" })` makes that engine).
 *
 * @example
 * ```ts
 * import { createEngine, engineOf } from "@assay/assay";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * const ts = createEngine({ engine: "ts" });
 * strictEqual(engineOf(ts), ts);
 * throws(() => engineOf("ts"), TypeError);
 * ```
 */
export function engineOf(engine: unknown): Engine {
  if (engine instanceof Engine) return engine;
  if (engine === undefined) return getDefaultEngine();
  if ((engine as Record<symbol, unknown> | null)?.[BRAND]) {
    throw new TypeError(
      "Expected an Engine from createEngine(), got one from another copy of @assay/assay " +
        "(another bundle or version)",
    );
  }
  return wrongType("an Engine from createEngine()", engine);
}
