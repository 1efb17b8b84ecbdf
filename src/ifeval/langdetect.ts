/**
 * Language detection as Python's langdetect 1.0.9 with `DetectorFactory.seed = 0`: the same
 * profiles, text cleaning and n-grams, and the same seeded random walk (seven trials drawn from
 * `random.Random(0)`), so `detect()` gives the same language on the same text.
 *
 * @module
 */
import { isUpper } from "./_python_text.ts";
import { normalizeChar, prepareText } from "./_langdetect_text.ts";
import { LANGDETECT_DATA } from "./_langdetect_profiles.generated.ts";
import { PythonRandom } from "./python_random.ts";

/** langdetect's profiles and normalization tables, as the generated module holds them. */
export interface LangdetectData {
  /** Each language's name, n-gram totals (1-, 2-, 3-grams) and "gram|count(base 36)" pairs. */
  languages: { name: string; n_words: number[]; freq: string }[];
  /** The normalization tables of langdetect's messages.properties. */
  tables: {
    latin1_excluded: string;
    to_normalize_vi: string;
    dmark_class: string;
    normalized_vi: string[];
    cjk_classes: string[];
  };
}

/** langdetect found no n-gram of any profile in the text (its LangDetectException). */
export class LangDetectError extends Error {
  /**
   * Creates the error.
   *
   * @param message What happened.
   */
  constructor(message: string) {
    super(message);
    this.name = "LangDetectError";
  }
}

const ALPHA = 0.5, ALPHA_WIDTH = 0.05, ITERATION_LIMIT = 1000, PROB_THRESHOLD = 0.1;
const CONV_THRESHOLD = 0.99999, BASE_FREQ = 10000, N_TRIAL = 7, SEED = 0;

interface Profiles {
  languages: string[];
  probs: Map<string, Float64Array>;
}

let profiles: Profiles | undefined;

/** DetectorFactory.load_profile: each n-gram's probability in each language. */
function loadProfiles(): Profiles {
  if (profiles) return profiles;
  const langs = LANGDETECT_DATA.languages;
  const probs = new Map<string, Float64Array>();
  langs.forEach((lang, index) => {
    const parts = lang.freq.split("|");
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const gram = parts[i]!;
      let row = probs.get(gram);
      if (!row) probs.set(gram, row = new Float64Array(langs.length));
      const length = [...gram].length;
      row[index] = parseInt(parts[i + 1]!, 36) / lang.n_words[length - 1]!;
    }
  });
  profiles = { languages: langs.map((l) => l.name), probs };
  return profiles;
}

/** Detector._extract_ngrams: the profile n-grams of the prepared text, in order. */
function extractNgrams(chars: readonly string[], probs: Map<string, Float64Array>): string[] {
  const out: string[] = [];
  let grams = [" "];
  let capitalword = false;
  for (const raw of chars) {
    const ch = normalizeChar(raw);
    const last = grams[grams.length - 1]!;
    if (last === " ") {
      grams = [" "];
      capitalword = false;
      if (ch === " ") continue;
    } else if (grams.length >= 3) grams = grams.slice(1);
    grams.push(ch);
    if (isUpper(ch)) {
      if (isUpper(last)) capitalword = true;
    } else capitalword = false;
    if (capitalword) continue;
    for (let n = 1; n <= 3; n++) {
      if (grams.length < n) break;
      const w = grams.slice(-n).join("");
      if (w !== "" && w !== " " && probs.has(w)) out.push(w);
    }
  }
  return out;
}

function normalize(prob: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < prob.length; i++) sum += prob[i]!;
  let max = 0;
  for (let i = 0; i < prob.length; i++) {
    const p = prob[i]! / sum;
    if (max < p) max = p;
    prob[i] = p;
  }
  return max;
}

/**
 * Each language's probability as langdetect's `detect_langs(text)` gives it (languages above
 * 0.1, most probable first).
 *
 * @param text The text.
 * @returns The languages and probabilities.
 * @throws {LangDetectError} When the text has no n-gram of any profile ("No features in text.").
 * @example An English sentence
 * ```ts
 * import { languageProbabilities } from "@assay/assay/ifeval";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(languageProbabilities("This is an English sentence.")[0]!.lang, "en");
 * ```
 */
export function languageProbabilities(text: string): { lang: string; prob: number }[] {
  const { languages, probs } = loadProfiles();
  const ngrams = extractNgrams(prepareText(text), probs);
  if (ngrams.length === 0) throw new LangDetectError("No features in text.");
  const total = new Float64Array(languages.length);
  const rng = new PythonRandom(SEED);
  for (let t = 0; t < N_TRIAL; t++) {
    const prob = new Float64Array(languages.length).fill(1 / languages.length);
    const alpha = ALPHA + rng.gauss(0, 1) * ALPHA_WIDTH;
    const weight = alpha / BASE_FREQ;
    for (let i = 0;; i++) {
      const row = probs.get(ngrams[rng.choiceIndex(ngrams.length)]!)!;
      for (let j = 0; j < prob.length; j++) prob[j]! *= weight + row[j]!;
      if (i % 5 === 0 && (normalize(prob) > CONV_THRESHOLD || i >= ITERATION_LIMIT)) break;
    }
    for (let j = 0; j < total.length; j++) total[j]! += prob[j]! / N_TRIAL;
  }
  const out = languages.map((lang, j) => ({ lang, prob: total[j]! }))
    .filter((l) => l.prob > PROB_THRESHOLD);
  // Python's stable sort with reverse=True keeps equal probabilities in profile order.
  return out.sort((a, b) => b.prob - a.prob);
}

/**
 * The language langdetect's `detect(text)` gives: the most probable one, or `"unknown"` when no
 * language is above 0.1.
 *
 * @param text The text.
 * @returns A language code such as `"en"`, `"zh-cn"`, or `"unknown"`.
 * @throws {LangDetectError} When the text has no n-gram of any profile.
 * @example Two languages
 * ```ts
 * import { detectLanguage } from "@assay/assay/ifeval";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(detectLanguage("The weather is lovely today."), "en");
 * strictEqual(detectLanguage("Il fait très beau aujourd'hui."), "fr");
 * ```
 */
export function detectLanguage(text: string): string {
  return languageProbabilities(text)[0]?.lang ?? "unknown";
}

/**
 * {@linkcode detectLanguage}, with `undefined` where langdetect raises (IFEval counts such a
 * response as following its language instruction).
 *
 * @param text The text.
 * @returns The language, or `undefined`.
 * @throws {TypeError} Never for a string.
 * @example No features
 * ```ts
 * import { detectLanguageOrUndefined } from "@assay/assay/ifeval";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(detectLanguageOrUndefined("123 !!!"), undefined);
 * ```
 */
export function detectLanguageOrUndefined(text: string): string | undefined {
  try {
    return detectLanguage(text);
  } catch (e) {
    if (e instanceof LangDetectError) return undefined;
    throw e;
  }
}
