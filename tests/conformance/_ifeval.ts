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

/** Deterministic variants of a response that move checkers' verdicts. */
function variants(response: string, i: number): string[] {
  return [
    response,
    response.toUpperCase(),
    response.toLowerCase().replaceAll(",", ""),
    `*${response.slice(0, 40 + (i * 37) % 200)}*\nP.S. done`,
  ];
}

/**
 * Every sample prompt's results-file lines (strict and loose: the bytes IFEval's files hold),
 * sentence and token counts and language, per variant; then the scores of each mode.
 */
export function ifevalSection(): unknown[] {
  const strict: IfevalResult[] = [];
  const loose: IfevalResult[] = [];
  const rows = IFEVAL_SAMPLE.map(({ input, response }, i) =>
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
