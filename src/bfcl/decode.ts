/**
 * Decoding a model's published result into calls, as BFCL's model handlers do: a
 * function-calling model's `[{name: arguments_json}]` with `json.loads`, a prompting model's text
 * of Python calls with `ast.parse` (a subset; operator expressions of literals evaluated as BFCL's
 * `eval` evaluated them, and nothing else).
 *
 * @module
 */
import { PyDict, type PyValue } from "./py_value.ts";
import { openedAtDepth, readJson } from "./_json_reader.ts";
import { parsePythonCalls } from "./_python_calls.ts";
import { parseJavaCall } from "./_java_calls.ts";
import { parseJsCall } from "./_js_calls.ts";
import { PROMPTING_MODELS } from "./_prompting_models.ts";

/** How a model's results are decoded: `fc`, or the text clean-up of a prompting handler. */
export const BFCL_DECODERS = ["fc", "claude", "gorilla", "gpt", "llama", "mistral"] as const;

/** One of {@linkcode BFCL_DECODERS}. */
export type BfclDecoder = typeof BFCL_DECODERS[number];

const PROMPTING = PROMPTING_MODELS;

/**
 * The decoder BFCL's 2024-08 handlers used for a model: `fc` for a function-calling model (a
 * name with `-FC`), the handler's clean-up for the prompting models whose results are known.
 *
 * @param model The model's name (`meta-llama/Meta-Llama-3-70B-Instruct`, or as result folders
 * spell it, `meta-llama_Meta-Llama-3-70B-Instruct`).
 * @returns The decoder, or undefined for an unknown prompting model.
 * @throws {never} Never.
 *
 * @example
 * ```ts
 * import { decoderForModel } from "@assay/assay/bfcl";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(
 *   ["gpt-4o-2024-05-13-FC", "meta-llama_Meta-Llama-3-70B-Instruct", "x"].map(decoderForModel),
 *   ["fc", "llama", undefined],
 * );
 * ```
 */
export function decoderForModel(model: string): BfclDecoder | undefined {
  if (model.includes("-FC")) return "fc";
  return PROMPTING[model] ?? PROMPTING[model.replace("_", "/")];
}

/** The language a category's calls are written in, which picks a prompting model's parser. */
export type BfclLanguage = "Python" | "Java" | "JavaScript";

/**
 * The outcome of decoding one result: the decoded value, or why BFCL's decoder raised. An FC
 * result whose arguments nest deeper than the JSON reader's 512 levels is not read, and says so
 * with `nestedTooDeep`: Python's `json.loads` reads such arguments up to 992 levels in BFCL's eval
 * runner, so BFCL's decoder would have given a call. Deeper, it raises RecursionError, a failure
 * here too.
 */
export type Decoded =
  | { ok: true; value: PyValue }
  | { ok: false; reason: string; nestedTooDeep?: boolean };

/**
 * The deepest JSON BFCL's FC decoders read: `json.loads`' C scanner counts each container against
 * CPython 3.11's recursion limit of 1,000, of which BFCL's eval runner (`python eval_runner.py`)
 * has spent eight at the call: its module, runner, the category's file runner, the handler's
 * decode_ast, json.loads, decode, raw_decode, and the scanner's first call. A 993rd nested
 * container raises RecursionError (measured with CPython 3.11.7, the frames laid out as BFCL's).
 */
const FC_JSON_DEPTH = 992;

/**
 * Decodes a function-calling model's result as BFCL's FC handlers do: each item's first key is
 * the function's name and its value the JSON text of the arguments, read with `json.loads`.
 * A text result (the model answered in prose) fails, as iterating it in Python does, unless it
 * is empty.
 *
 * @param result The `result` field of a result line.
 * @returns The calls as `[{name: {param: value}}]`, or the reason decoding failed.
 * @throws {never} Never: a bad result is a failed decoding.
 *
 * @example A call, and prose that is no call
 * ```ts
 * import { decodeFcResult, PyDict, pyRepr } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const r = decodeFcResult([new PyDict([["math_factorial", '{"number": 5.0}']])]);
 * strictEqual(r.ok && pyRepr(r.value), "[{'math_factorial': {'number': 5.0}}]");
 * strictEqual(decodeFcResult("I cannot help").ok, false);
 * ```
 */
export function decodeFcResult(result: PyValue): Decoded {
  if (typeof result === "string") {
    return result === "" ? { ok: true, value: [] } : {
      ok: false,
      reason: "'str' object has no attribute 'keys'",
    };
  }
  if (result instanceof PyDict) {
    return result.size === 0 ? { ok: true, value: [] } : {
      ok: false,
      reason: "'str' object has no attribute 'keys'",
    };
  }
  if (!Array.isArray(result)) return { ok: false, reason: "the result is not iterable" };
  const calls: PyValue[] = [];
  // Arguments too deep for the reader, which json.loads reads: decoding goes on, since a later
  // item that fails is where BFCL's decoder raises.
  let tooDeep: string | undefined;
  for (const item of result) {
    if (!(item instanceof PyDict)) return { ok: false, reason: "an item is not a dict" };
    const name = item.keys()[0];
    if (name === undefined) return { ok: false, reason: "list index out of range" };
    const args = item.get(name)!;
    if (typeof args !== "string") {
      return { ok: false, reason: "the JSON object must be str, bytes or bytearray" };
    }
    const parsed = readJson(args);
    if (parsed.ok) calls.push(new PyDict([[name, parsed.value]]));
    else if (parsed.code !== "nesting_too_deep") return { ok: false, reason: parsed.reason };
    else {
      // Valid to the reader's 512 levels; past BFCL's depth, json.loads raises there (or at a
      // JSON error before it, which the reader did not reach: a failure all the same).
      const deepest = openedAtDepth(args, FC_JSON_DEPTH + 1);
      if (deepest !== undefined) {
        return {
          ok: false,
          reason: `maximum recursion depth exceeded while decoding a JSON ${deepest} from a ` +
            "unicode string",
        };
      }
      tooDeep ??= parsed.reason;
    }
  }
  if (tooDeep !== undefined) return { ok: false, reason: tooDeep, nestedTooDeep: true };
  return { ok: true, value: calls };
}

function bracket(text: string): string {
  let t = text;
  if (!t.startsWith("[")) t = "[" + t;
  if (!t.endsWith("]")) t = t + "]";
  return t;
}

/** The text each prompting handler hands to `ast_parse`. */
function cleanUp(text: string, decoder: Exclude<BfclDecoder, "fc">): string {
  switch (decoder) {
    case "gorilla":
      return `[${text}]`;
    case "llama":
      return bracket(text.replaceAll("\n", ""));
    case "mistral":
      return bracket(text.replaceAll("\\_", "_"));
    case "claude":
      return bracket(text.startsWith(" ") ? text.slice(1) : text);
    case "gpt":
      return text;
  }
}

/** Python slicing `text[1:-1]`, by code points. */
function innerText(text: string): string {
  return [...text].slice(1, -1).join("");
}

/**
 * Decodes a prompting model's result as its BFCL handler does: the handler's clean-up of the
 * text, then, for Python, `ast.parse` of a list of calls. For Java and JavaScript, BFCL drops
 * the cleaned text's first and last characters (the brackets, or whatever stands there) and
 * reads the rest with its tree-sitter call parser: the first call found, its `name = value`
 * arguments kept as the strings the type converters then read (see `docs/bfcl.md`). Keyword arguments become the call's
 * parameters (positional ones are dropped, as BFCL drops them); values may be numbers, strings,
 * `True`/`False`/`None`, unary minus, lists, tuples, dicts, bare names (as strings) and calls
 * with keywords (as nested `{name: {…}}`), and operator expressions of literals, which BFCL
 * evaluated (`eval(ast.unparse(...))`) and which are evaluated here with Python's semantics
 * (`2**3` is 8, `10/4` is 2.5, `1/0` fails). A call without keywords becomes its source text.
 * Anything else (a name or a call in an operator expression, which BFCL's `eval` would look up or
 * run, a lambda, a syntax error) fails with its reason.
 *
 * @param result The `result` field of a result line (a string for a prompting model).
 * @param decoder The handler whose clean-up to apply.
 * @param language The category's language (default Python).
 * @returns The decoded calls, or the reason decoding failed.
 * @throws {never} Never: a bad result is a failed decoding.
 *
 * @example Keyword arguments, arithmetic as BFCL's eval did it, and a name, which is refused
 * ```ts
 * import { decodePromptResult, pyRepr } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const r = decodePromptResult("[math.factorial(number=5, mode='fast')]", "gpt");
 * strictEqual(r.ok && pyRepr(r.value), "[{'math.factorial': {'number': 5, 'mode': 'fast'}}]");
 * const e = decodePromptResult("[f(x=4*3.14159*10**-7)]", "gpt");
 * strictEqual(e.ok && pyRepr(e.value), "[{'f': {'x': 1.256636e-06}}]");
 * strictEqual(decodePromptResult("[f(x=y+2)]", "gpt").ok, false);
 * ```
 *
 * @example Java: values stay strings, literals unquoted
 * ```ts
 * import { decodePromptResult, pyRepr } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const r = decodePromptResult('[Math.max(a=5L, b="x", c=new int[]{1, 2})]', "gpt", "Java");
 * strictEqual(r.ok && pyRepr(r.value), "[{'Math.max': {'a': '5L', 'b': 'x', 'c': 'new int[]{1,2}'}}]");
 * ```
 */
export function decodePromptResult(
  result: PyValue,
  decoder: Exclude<BfclDecoder, "fc">,
  language: BfclLanguage = "Python",
): Decoded {
  if (typeof result !== "string") return { ok: false, reason: "the result is not a string" };
  // BFCL's Claude handler tests `func[0]` first: an empty text is an IndexError.
  if (decoder === "claude" && result === "") {
    return { ok: false, reason: "string index out of range" };
  }
  const text = cleanUp(result, decoder);
  if (language === "Java") return parseJavaCall(innerText(text));
  if (language === "JavaScript") return parseJsCall(innerText(text));
  return parsePythonCalls(text);
}

/**
 * Decodes a result with the given decoder.
 *
 * @param result The `result` field of a result line.
 * @param decoder `fc`, or a prompting handler's name.
 * @param language The category's language (default Python); FC results do not depend on it.
 * @returns The decoded calls, or the reason decoding failed.
 * @throws {RangeError} For a decoder that is not one of {@linkcode BFCL_DECODERS}.
 *
 * @example The FC decoder
 * ```ts
 * import { decodeResult, PyDict } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(decodeResult([new PyDict([["f", "{}"]])], "fc").ok, true);
 * ```
 */
export function decodeResult(
  result: PyValue,
  decoder: BfclDecoder,
  language: BfclLanguage = "Python",
): Decoded {
  // Another name failed inside decoding ("Cannot read properties of undefined").
  if (!BFCL_DECODERS.includes(decoder)) {
    throw new RangeError(
      `Unknown decoder ${JSON.stringify(decoder)} (decoders: ${BFCL_DECODERS.join(", ")})`,
    );
  }
  return decoder === "fc" ? decodeFcResult(result) : decodePromptResult(result, decoder, language);
}
