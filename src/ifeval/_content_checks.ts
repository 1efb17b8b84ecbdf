// The checkers on a response's words, letters, length, case and language (IFEval's keywords:,
// language:, length_constraints:, change_case: and punctuation: instructions).
import { compare, type Kwargs, KwargsProblem, literalPattern } from "./_kwargs.ts";
import { quote } from "../jsonl/mod.ts";
import { B, isLower, isUpper, pyLower, pySplit, pyStrip, S, stripChars } from "./_python_text.ts";
import { detectLanguageOrUndefined } from "./langdetect.ts";
import { splitSentences } from "./punkt.ts";
import { wordRuns, wordTokenize } from "./word_tokenize.ts";

// The ISO 639-1 codes of IFEval's language table, the only ones its instruction accepts.
const IFEVAL_LANGUAGES = (
  "en es pt ar hi fr ru de ja it bn uk th ur ta te bg ko pl he fa vi ne sw kn mr gu pa ml fi"
).split(" ");

/** A checker's kwargs and how it is built from them. */
export interface CheckerSpec {
  /** The kwargs build_description takes. */
  kwargs: readonly string[];
  /** Builds the check from its kwargs (read and validated as it goes). */
  build(k: Kwargs): (response: string) => boolean;
}

/** langdetect's verdict; a text without features counts as following, as upstream. */
function languageIs(value: string, language: string): boolean {
  const detected = detectLanguageOrUndefined(value);
  return detected === undefined || detected === language;
}

export const CONTENT_CHECKS: Record<string, CheckerSpec> = {
  "keywords:existence": {
    kwargs: ["keywords"],
    build(k) {
      const patterns = k.texts("keywords").map((w) =>
        new RegExp(literalPattern("keywords", w, true), "u")
      );
      return (value) => patterns.every((p) => p.test(value));
    },
  },
  "keywords:frequency": {
    kwargs: ["keyword", "frequency", "relation"],
    build(k) {
      const keyword = pyStrip(k.text("keyword"));
      const frequency = k.count("frequency");
      const relation = k.relation("relation");
      const pattern = new RegExp(literalPattern("keyword", keyword, true), "gu");
      return (value) => compare(value.match(pattern)?.length ?? 0, relation, frequency);
    },
  },
  "keywords:forbidden_words": {
    kwargs: ["forbidden_words"],
    build(k) {
      const patterns = k.texts("forbidden_words").map((w) =>
        new RegExp(`${B}${literalPattern("forbidden_words", w, true)}${B}`, "u")
      );
      return (value) => !patterns.some((p) => p.test(value));
    },
  },
  "keywords:letter_frequency": {
    kwargs: ["letter", "let_frequency", "let_relation"],
    build(k) {
      const raw = k.text("letter");
      if ([...raw].length > 1) {
        throw new KwargsProblem(
          `letter ${quote(raw)} is longer than one character (IFEval would draw one at random)`,
        );
      }
      const letter = pyLower(pyStrip(raw));
      const frequency = k.count("let_frequency");
      const relation = k.relation("let_relation");
      return (value) => {
        // Counter(value.lower())[letter]: one code point, counted in the lowered text.
        const count = [...letter].length === 1 ? pyLower(value).split(letter).length - 1 : 0;
        return compare(count, relation, frequency);
      };
    },
  },
  "language:response_language": {
    kwargs: ["language"],
    build(k) {
      const language = k.text("language", false);
      // IFEval names the language from its table of 30 codes, and fails on any other.
      if (!IFEVAL_LANGUAGES.includes(language)) {
        throw new KwargsProblem(
          `language must be one of IFEval's codes (${IFEVAL_LANGUAGES.join(", ")}), got ${
            quote(language)
          }`,
        );
      }
      return (value) => languageIs(value, language);
    },
  },
  "length_constraints:number_sentences": {
    kwargs: ["num_sentences", "relation"],
    build(k) {
      const n = k.count("num_sentences");
      const relation = k.relation("relation");
      return (value) => compare(splitSentences(value).length, relation, n);
    },
  },
  "length_constraints:number_paragraphs": {
    kwargs: ["num_paragraphs"],
    build(k) {
      const n = k.count("num_paragraphs");
      const divider = new RegExp(`${S}?\\*\\*\\*${S}?`, "u");
      return (value) => {
        const paragraphs = value.split(divider);
        let count = paragraphs.length;
        for (let i = 0; i < paragraphs.length; i++) {
          if (pyStrip(paragraphs[i]!) !== "") continue;
          if (i === 0 || i === paragraphs.length - 1) count--;
          else return false;
        }
        return count === n;
      };
    },
  },
  "length_constraints:number_words": {
    kwargs: ["num_words", "relation"],
    build(k) {
      const n = k.count("num_words");
      const relation = k.relation("relation");
      return (value) => compare(wordRuns(value).length, relation, n);
    },
  },
  "length_constraints:nth_paragraph_first_word": {
    kwargs: ["num_paragraphs", "nth_paragraph", "first_word"],
    build(k) {
      const n = k.count("num_paragraphs");
      const nth = k.count("nth_paragraph", true);
      if (nth <= 0 || nth > n) {
        throw new KwargsProblem(
          `nth_paragraph ${nth} is outside 1..${n} (IFEval would draw it at random)`,
        );
      }
      const want = pyLower(k.text("first_word", false));
      return (value) => {
        const paragraphs = value.split("\n\n");
        const count = paragraphs.filter((p) => pyStrip(p) !== "").length;
        if (nth > count) return false;
        const paragraph = pyStrip(paragraphs[nth - 1]!);
        if (paragraph === "") return false;
        let word = pyStrip(pySplit(paragraph)[0]!);
        word = stripChars(stripChars(word, "'", "left"), '"', "left");
        let first = "";
        for (const ch of word) {
          if (".,?!'\"".includes(ch)) break;
          first += pyLower(ch);
        }
        return count === n && first === want;
      };
    },
  },
  "change_case:capital_word_frequency": {
    kwargs: ["capital_frequency", "capital_relation"],
    build(k) {
      const n = k.count("capital_frequency", true);
      const relation = k.relation("capital_relation");
      return (value) => compare(wordTokenize(value).filter(isUpper).length, relation, n);
    },
  },
  "change_case:english_capital": {
    kwargs: [],
    build: () => (value) => isUpper(value) && languageIs(value, "en"),
  },
  "change_case:english_lowercase": {
    kwargs: [],
    build: () => (value) => isLower(value) && languageIs(value, "en"),
  },
  "punctuation:no_comma": {
    kwargs: [],
    build: () => (value) => !value.includes(","),
  },
};
