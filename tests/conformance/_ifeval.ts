// The IFEval section of the cross-runtime conformance: IFEval's checkers (strict and loose), the
// Punkt splitter, the word tokenizers and langdetect on real prompts and responses and on seeded
// variants of them, so that every runtime must give the same verdicts, tokens and languages.
import {
  detectLanguageOrUndefined,
  evaluatePrompt,
  type IfevalResult,
  ifevalScores,
  officialLine,
  splitSentences,
  treebankTokenize,
} from "../../src/ifeval/mod.ts";
import { IFEVAL_SAMPLE } from "./_ifeval_data.ts";

// Characters Unicode assigned after 14.0 (CPython 3.11's), which runtimes' tables hold or not:
// ideographs of CJK extensions H and I, Kawi letters and digits, a Garay letter, Kirat Rai digits,
// a modifier letter, a capital with a lowercase form (U+A7CB), and U+0295 (Lowercase in 14 and 16,
// not in 15.1).
const NEWER = " \u{31350}\u{2EBF0}Σ\u{11F04}\u{11F50}\u{11F51} \u{10D50} \u{16D70}\u{16D71} " +
  "\u{1E030}x \uA7CBΣ\u{31351} \u0295 WORD\u{11F04}";

/** Deterministic variants of a response that move checkers' verdicts. */
function variants(response: string, i: number): string[] {
  return [
    response,
    response.toUpperCase(),
    response.toLowerCase().replaceAll(",", ""),
    `*${response.slice(0, 40 + (i * 37) % 200)}*\nP.S. done`,
    `${response.slice(0, 60 + (i * 53) % 300)}${NEWER}\n${NEWER.trim()}`,
  ];
}

// Prompts whose verdicts turn on such characters: Python counts words with \w+ (Unicode 14), so
// a Garay (16.0), Kawi (15.0) or CJK extension J (17.0) letter splits a word; lower() leaves U+A7CB
// alone (unassigned in 14). Before the checkers were pinned to 14.0, Bun (Unicode 17) counted the
// first prompt's words apart from Deno.
const newer = (ids: string[], kwargs: Record<string, unknown>[], response: string) => ({
  input: { key: 99000 + ids.length, prompt: "newer", instruction_id_list: ids, kwargs },
  response,
});
const NEWER_ROWS = [
  newer(
    ["length_constraints:number_words"],
    [{ relation: "at least", num_words: 8 }],
    "a\u{323B0}b c\u{10D50}d e\u{323B1}f g\u{323B2}h",
  ),
  newer(["change_case:english_lowercase"], [{}], "lower text \uA7CB and here"),
  newer(["change_case:english_lowercase"], [{}], "lower text \u0295 and \u{11F04}\u{31350} here"),
  newer(
    ["length_constraints:number_words"],
    [{ relation: "at least", num_words: 8 }],
    "a\u{11F04}b c\u{31350}d e\u{2EBF0}f g\u{16D70}h",
  ),
  newer(["change_case:english_capital"], [{}], "UPPER TEXT \u{10D50} AND MORE WORDS HERE"),
  newer(
    ["change_case:capital_word_frequency"],
    [{ capital_relation: "at least", capital_frequency: 2 }],
    "ONE\u{10D50}TWO three FOUR\u{31350}",
  ),
  // Python's case rules, not the runtime's: lower() takes U+1171E as Case_Ignorable next to a
  // final sigma (Unicode 14; not in the hosts' newer data), and re.IGNORECASE matches i with İ
  // (JavaScript's `i` flag does not), in a keyword and in nltk's (?i) rule for "gimme".
  newer(
    ["startend:end_checker"],
    [{ end_phrase: "\u03b1\u03c2\u{1171e}" }],
    "ends \u0391\u03a3\u{1171e}",
  ),
  newer(["keywords:existence"], [{ keywords: ["gift"] }], "A G\u0130FT"),
  newer(
    ["change_case:capital_word_frequency"],
    [{ capital_relation: "at least", capital_frequency: 3 }],
    "G\u0130MME MORE",
  ),
];

/**
 * Every sample prompt's results-file lines (strict and loose: the bytes IFEval's files hold),
 * sentence and token counts and language, per variant; then the scores of each mode.
 */
export function ifevalSection(): unknown[] {
  const strict: IfevalResult[] = [];
  const loose: IfevalResult[] = [];
  const rows = [...IFEVAL_SAMPLE, ...NEWER_ROWS].map(({ input, response }, i) =>
    variants(response, i).map((text) => {
      const s = evaluatePrompt(input, text, "strict");
      const l = evaluatePrompt(input, text, "loose");
      strict.push(s);
      loose.push(l);
      return [
        officialLine(s),
        officialLine(l),
        splitSentences(text).length,
        treebankTokenize(text).length,
        detectLanguageOrUndefined(text) ?? null,
      ];
    })
  );
  return [rows, ifevalScores(strict), ifevalScores(loose)];
}
