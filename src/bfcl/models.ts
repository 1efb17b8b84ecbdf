/**
 * What a model's name tells about its BFCL results: the decoder its handler calls for, whether its
 * handler wrote `.` as `_` in function names (BFCL's `UNDERSCORE_TO_DOT` list of 2024-08), and
 * whether a file's results have the shape the chosen decoder reads.
 *
 * @module
 */
import { InputError, quote } from "../jsonl/mod.ts";
import { PROMPTING_MODELS } from "./_prompting_models.ts";
import { PyDict, type PyValue } from "./py_value.ts";
import { type BfclDecoder, type BfclLanguage, decodeResult, decoderForModel } from "./decode.ts";
import { checkOptions } from "../engine/mod.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/**
 * BFCL's `UNDERSCORE_TO_DOT` models of 2024-08: their handlers sent function names with `.`
 * written `_` (an OpenAI-style tool name cannot hold a dot), so the checker compares the expected
 * name with its dots written `_`. Vendored from BFCL's model-handler constants of 2024-08 (see
 * `tests/fixtures/bfcl-v1/SOURCE`; this is the one copy); names as BFCL spells them, with `/`.
 *
 * @example
 * ```ts
 * import { BFCL_UNDERSCORE_TO_DOT_MODELS } from "@assay/assay/bfcl";
 * import { ok } from "node:assert/strict";
 *
 * ok(BFCL_UNDERSCORE_TO_DOT_MODELS.includes("gpt-4o-2024-05-13-FC"));
 * ```
 */
export const BFCL_UNDERSCORE_TO_DOT_MODELS: readonly string[] = Object.freeze([
  "gpt-4o-2024-08-06-FC",
  "gpt-4o-2024-05-13-FC",
  "gpt-4o-mini-2024-07-18-FC",
  "gpt-4-turbo-2024-04-09-FC",
  "gpt-4-1106-preview-FC",
  "gpt-4-0125-preview-FC",
  "gpt-4-0613-FC",
  "gpt-3.5-turbo-0125-FC",
  "claude-3-opus-20240229-FC",
  "claude-3-sonnet-20240229-FC",
  "claude-3-haiku-20240307-FC",
  "claude-3-5-sonnet-20240620-FC",
  "open-mistral-nemo-2407-FC-Any",
  "open-mistral-nemo-2407-FC-Auto",
  "open-mixtral-8x22b-FC-Any",
  "open-mixtral-8x22b-FC-Auto",
  "mistral-large-2407-FC",
  "mistral-large-2407-FC-Any",
  "mistral-large-2407-FC-Auto",
  "mistral-small-2402-FC-Any",
  "mistral-small-2402-FC-Auto",
  "mistral-small-2402-FC",
  "gemini-1.0-pro",
  "gemini-1.5-pro-preview-0409",
  "gemini-1.5-pro-preview-0514",
  "gemini-1.5-flash-preview-0514",
  "meetkai/functionary-small-v3.1-FC",
  "meetkai/functionary-small-v3.2-FC",
  "meetkai/functionary-medium-v3.1-FC",
  "NousResearch/Hermes-2-Pro-Llama-3-8B",
  "NousResearch/Hermes-2-Pro-Llama-3-70B",
  "NousResearch/Hermes-2-Pro-Mistral-7B",
  "NousResearch/Hermes-2-Theta-Llama-3-8B",
  "NousResearch/Hermes-2-Theta-Llama-3-70B",
  "command-r-plus-FC",
  "command-r-plus-FC-optimized",
  "THUDM/glm-4-9b-chat",
  "ibm-granite/granite-20b-functioncalling",
  "yi-large-fc",
]);

/**
 * Whether BFCL's 2024-08 checker rewrote a model's expected function names (`.` as `_`): the
 * model is on {@linkcode BFCL_UNDERSCORE_TO_DOT_MODELS}.
 *
 * @param model The model's name as BFCL spells it (`meetkai/functionary-small-v3.1-FC`) or as
 * its result folders do (`meetkai_functionary-small-v3.1-FC`).
 * @returns True for a listed model; false for any other name, known or not.
 * @throws {never} Never.
 *
 * @example
 * ```ts
 * import { underscoreToDotForModel } from "@assay/assay/bfcl";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(
 *   ["gpt-4o-2024-05-13-FC", "meetkai_functionary-small-v3.1-FC", "firefunction-v2-FC"]
 *     .map(underscoreToDotForModel),
 *   [true, true, false],
 * );
 * ```
 */
export function underscoreToDotForModel(model: string): boolean {
  return BFCL_UNDERSCORE_TO_DOT_MODELS.some((m) => m === model || m.replaceAll("/", "_") === model);
}

/** The decoding a run uses: given, or derived from the model's name. */
export interface BfclModelSettings {
  /** The decoder: the one given, else the known model's ({@linkcode decoderForModel}), else `fc`. */
  decoder: BfclDecoder;
  /** The name rewrite: as given, else whether the model is an `UNDERSCORE_TO_DOT` model. */
  underscoreToDot: boolean;
}

/**
 * The decoder and name rewrite of a run: each as given, or else derived from the model's name as
 * BFCL's 2024-08 leaderboard set them (`fc` and no rewrite for a name it does not know).
 *
 * @param options The model's name and what was given explicitly.
 * @returns The settings {@linkcode checkBfcl} uses.
 * @throws {BfclDecoderError} For a known model whose handler decodes its own output format
 * (NousResearch's Hermes models, THUDM's GLM, IBM's Granite), when no decoder is given.
 * @throws {BfclModelNameError} For a known model's name in another case.
 *
 * @example A known model's settings, and an explicit override
 * ```ts
 * import { bfclModelSettings } from "@assay/assay/bfcl";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(bfclModelSettings({ modelName: "gpt-4o-2024-05-13-FC" }), {
 *   decoder: "fc",
 *   underscoreToDot: true,
 * });
 * deepStrictEqual(bfclModelSettings({ modelName: "gpt-4-0613", underscoreToDot: true }), {
 *   decoder: "gpt",
 *   underscoreToDot: true,
 * });
 * ```
 */
export function bfclModelSettings(
  options: { modelName?: string; decoder?: BfclDecoder; underscoreToDot?: boolean },
): BfclModelSettings {
  // Its names are not checked (checkOptionNames): it takes checkBfcl's options whole, the
  // category and matching too, which checkBfcl checks.
  checkOptions(options);
  const model = options.modelName ?? "";
  const known = knownSpelling(model);
  if (known !== undefined && known !== model) {
    // Matched as written it would fall back to the defaults: gpt-4o-2024-05-13-fc loses its
    // rewrite and scores 205 of 400 instead of 353.
    throw new BfclModelNameError(
      `Unknown model ${quote(model)} (did you mean ${quote(known)}?): the decoder and the name ` +
        `rewrite are derived from BFCL's spelling of a known model's name`,
      known,
    );
  }
  if (options.decoder === undefined && OWN_FORMAT.test(model)) {
    throw new BfclDecoderError(
      `BFCL's handler for ${model} decodes the model's own output format (such as Hermes' ` +
        `<tool_call> tags), which this checker does not implement; it has the fc decoder and ` +
        `the prompting clean-ups (claude, gorilla, gpt, llama, mistral): give one with --decoder ` +
        `only if the results are in its form`,
    );
  }
  return {
    decoder: options.decoder ?? decoderForModel(model) ?? "fc",
    underscoreToDot: options.underscoreToDot ?? underscoreToDotForModel(model),
  };
}

/**
 * The spelling of the known model (BFCL's 2024-08 `UNDERSCORE_TO_DOT` and prompting models) that
 * `model` names case-insensitively, in its form (with `/`, or `_` as result folders write it).
 */
function knownSpelling(model: string): string | undefined {
  const lower = model.toLowerCase();
  for (const m of [...BFCL_UNDERSCORE_TO_DOT_MODELS, ...Object.keys(PROMPTING_MODELS)]) {
    for (const form of [m, m.replaceAll("/", "_")]) {
      if (form.toLowerCase() === lower) return form;
    }
  }
  return undefined;
}

/**
 * A model's name that is a known BFCL model's in another case (`gpt-4o-2024-05-13-fc`): its
 * settings, derived from the exact name, would silently be the defaults. An
 * {@linkcode InputError}, so the CLI exits 2; `known` is the name as BFCL spells it.
 *
 * @example
 * ```ts
 * import { BfclModelNameError, bfclModelSettings } from "@assay/assay/bfcl";
 * import { throws } from "node:assert/strict";
 *
 * throws(
 *   () => bfclModelSettings({ modelName: "gpt-4o-2024-05-13-fc" }),
 *   (e) => e instanceof BfclModelNameError && e.known === "gpt-4o-2024-05-13-FC",
 * );
 * ```
 */
export class BfclModelNameError extends InputError {
  /** The known model's name, as BFCL spells it. */
  readonly known: string;

  /**
   * Creates the error.
   *
   * @param message The name given, and the known one it likely means.
   * @param known The known model's name, as BFCL spells it.
   */
  constructor(message: string, known: string) {
    super(message);
    this.name = "BfclModelNameError";
    this.known = known;
  }
}

/**
 * A run's results do not have the shape its decoder reads: the decoder is the wrong one. An
 * {@linkcode InputError}, so the CLI exits 2.
 *
 * @example
 * ```ts
 * import { BfclDecoderError, checkBfcl } from "@assay/assay/bfcl";
 * import { throws } from "node:assert/strict";
 *
 * const text = '{"id": "relevance_0", "result": "[get_weather(city=\'Paris\')]"}\n';
 * throws(() => checkBfcl({ results: { name: "r.json", text } }, { category: "relevance" }), BfclDecoderError);
 * ```
 */
export class BfclDecoderError extends InputError {
  /**
   * Creates the error.
   *
   * @param message Which decoder, what the results look like, and which flag to use.
   */
  constructor(message: string) {
    super(message);
    this.name = "BfclDecoderError";
  }
}

/** BFCL's 2024-08 models whose handlers decode their own output format, which Assay does not. */
const OWN_FORMAT = /^(NousResearch|THUDM|ibm-granite)[/_]/;

const PROMPTING: readonly Exclude<BfclDecoder, "fc">[] = [
  "gpt",
  "claude",
  "gorilla",
  "llama",
  "mistral",
];

/** Whether a text reads as a list of calls under some prompting handler's clean-up. */
function readsAsCalls(text: string, language: BfclLanguage): boolean {
  return PROMPTING.some((decoder) => {
    const d = decodeResult(text, decoder, language);
    return d.ok && Array.isArray(d.value) && d.value.length > 0 &&
      d.value.every((c) => c instanceof PyDict && c.size > 0);
  });
}

/** What {@linkcode checkDecoderFits} needs besides the results. */
export interface DecoderFitOptions {
  /** The decoder the run would use. */
  decoder: BfclDecoder;
  /** Whether it was given explicitly (`--decoder`), not derived from the model's name. */
  given?: boolean;
  /** The category's language (Python unless given). */
  language?: BfclLanguage;
  /** Whether the category is relevance, where a function-calling model's prose is normal. */
  relevance?: boolean;
  /** Each line's entry id, in file order, for the message (undefined where it has none). */
  ids?: readonly (string | undefined)[];
}

/**
 * Refuses a decoder that does not fit the results. BFCL's prompting handlers write text only, so
 * a result that is a list or an object (a function-calling model's) refuses a prompting decoder.
 * A function-calling model's results are lists of calls, or prose where it declined; so a `fc`
 * decoder that was not given explicitly is refused when no result is a list or an object and
 * either some text reads as a list of calls under a prompting clean-up (a prompting model's), or
 * the category is not relevance (where every entry would fail, as it does with a model whose
 * output format no decoder here reads). `fc` given explicitly is taken as given.
 *
 * @param file The result file's name, for the message.
 * @param results The `result` field of each line, in file order (undefined for a line without
 *   one, which is refused later, naming its line).
 * @param options The decoder, whether it was given, the language, whether it is relevance and
 *   the lines' ids.
 * @throws {BfclDecoderError} When the results do not fit the decoder; the message names the
 * decoder, what the results look like (counts and the first line that shows it, with its id when
 * `ids` are given) and the flag.
 *
 * @example A prompting model's text refuses a derived `fc`
 * ```ts
 * import { BfclDecoderError, checkDecoderFits } from "@assay/assay/bfcl";
 * import { throws } from "node:assert/strict";
 *
 * checkDecoderFits("r.json", ["None of the functions fits."], { decoder: "fc", relevance: true });
 * throws(() => checkDecoderFits("r.json", ["[f(x=1)]", "No."], { decoder: "fc" }), BfclDecoderError);
 * ```
 */
export function checkDecoderFits(
  file: string,
  results: readonly (PyValue | undefined)[],
  options: DecoderFitOptions,
): void {
  checkOptions(options);
  checkOptionNames("checkDecoderFits", options, {
    ids: 1,
    language: 1,
    decoder: 1,
    given: 1,
    relevance: 1,
  });
  const { decoder, language = "Python" } = options;
  const line = (i: number) => {
    const id = options.ids?.[i];
    return `line ${i + 1}` + (id === undefined ? "" : ` (id ${id})`);
  };
  const isCalls = (r: PyValue | undefined) => Array.isArray(r) || r instanceof PyDict;
  const structured = results.findIndex(isCalls);
  const n = results.filter((r) => r !== undefined).length;
  if (decoder !== "fc") {
    if (structured < 0) return;
    const count = results.filter(isCalls).length;
    throw new BfclDecoderError(
      `${file}: the ${decoder} decoder reads a prompting model's text, but ${count} of the ${n} ` +
        `results are lists or objects of calls, as a function-calling model's are (the first on ` +
        `${line(structured)}); a prompting handler writes text only: use --decoder fc`,
    );
  }
  if (structured >= 0 || options.given || n === 0) return;
  const calls = results.findIndex((r) => typeof r === "string" && readsAsCalls(r, language));
  if (calls < 0 && options.relevance) return;
  const why = calls >= 0
    ? `${line(calls)} reads as calls, as a prompting model's does`
    : "under fc every entry would fail";
  throw new BfclDecoderError(
    `${file}: the fc decoder reads a function-calling model's lists of calls, but all ${n} results ` +
      `are text, and ${why}; give its handler's clean-up with --decoder claude, gorilla, gpt, ` +
      `llama or mistral (--model picks it for BFCL's known models), or --decoder fc if these ` +
      `are the model's answers`,
  );
}
