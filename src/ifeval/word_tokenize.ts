/**
 * Word tokenization as nltk 3.8: `word_tokenize` (Punkt sentences, then the improved Treebank
 * tokenizer, `NLTKWordTokenizer`, on each) and `RegexpTokenizer(r"\w+")` with Python's Unicode
 * `\w`.
 *
 * @module
 */
import { B, ND, NS, S, W } from "./_python_text.ts";
import { splitSentences } from "./punkt.ts";
import { pyIgnoreCase } from "../pytext/mod.ts";

type Rule = [RegExp, string];
const rule = (source: string, replacement: string, flags = "gu"): Rule => [
  new RegExp(source, flags),
  replacement,
];
const END = `(?=\\n?$)`;
// nltk's `(?i)` rules, as Python's re.IGNORECASE reads them (JavaScript's `i` flag folds case
// differently, and would widen \w too): "a b" is the groups (a)(b) of literal text, "a|b" an
// alternation.
const ci = (words: string): string =>
  words.includes(" ")
    ? words.split(" ").map((w) => `(${pyIgnoreCase(w)})`).join("")
    : words.split("|").map(pyIgnoreCase).join("|");

// NLTKWordTokenizer's rules, in its order, with Python's classes and `$`.
const STARTING_QUOTES: Rule[] = [
  rule("([«“‘„]|[`]+)", " $1 "),
  rule('^"', "``"),
  rule("(``)", " $1 "),
  rule(`([ (\\[{<])("|'{2})`, "$1 `` "),
  rule(`(')(?!${ci("re|ve|ll|m|t|s|d|n")})(${W})${B}`, "$1 $2"),
];
const ENDING_QUOTES: Rule[] = [
  rule("([»”’])", " $1 "),
  rule("''", " '' "),
  rule('"', " '' "),
  rule("([^' ])('[sS]|'[mM]|'[dD]|') ", "$1 $2 "),
  rule("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", "$1 $2 "),
];
const PUNCTUATION: Rule[] = [
  // The closing marks include " ", which `\\s*` also matches: taking them atomically (a lookahead
  // and a back-reference) keeps Python's match and avoids quadratic backtracking.
  rule(`([^.])(\\.)(?=([\\])}>"'»”’ ]*))\\3${S}*${END}`, "$1 $2 $3 "),
  rule(`([:,])(${ND})`, " $1 $2"),
  rule(`([:,])${END}`, " $1 "),
  rule("\\.{2,}", " $& "),
  rule("[;@#$%&]", " $& "),
  rule(`([^.])(\\.)([\\])}>"']*)${S}*${END}`, "$1 $2$3 "),
  rule("[?!]", " $& "),
  rule("([^'])' ", "$1 ' "),
  rule("[*]", " $& "),
];
const PARENS_BRACKETS = rule("[\\][(){}<>]", " $& ");
const DOUBLE_DASHES = rule("--", " -- ");
const CONTRACTIONS: Rule[] = [
  ...["can not", "d 'ye", "gim me", "gon na", "got ta", "lem me", "more 'n"]
    .map((p) => rule(`${B}${ci(p)}${B}`, " $1 $2 ")),
  rule(`${B}${ci("wan na")}(?=${S})`, " $1 $2 "),
  rule(` ${ci("'t is")}${B}`, " $1 $2 "),
  rule(` ${ci("'t was")}${B}`, " $1 $2 "),
];
const SPLIT = new RegExp(`${NS}+`, "gu");
const WORDS = new RegExp(`${W}+`, "gu");

/**
 * Tokenizes one sentence as nltk's `NLTKWordTokenizer().tokenize(sentence)` (the improved
 * Treebank tokenizer, without converting parentheses).
 *
 * @param sentence The sentence.
 * @returns The tokens.
 * @throws {TypeError} Never for a string.
 * @example Splitting off punctuation and contractions
 * ```ts
 * import { treebankTokenize } from "@assay/assay/ifeval";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(treebankTokenize("They can't go (now)."), [
 *   "They", "ca", "n't", "go", "(", "now", ")", ".",
 * ]);
 * ```
 */
export function treebankTokenize(sentence: string): string[] {
  let text = sentence;
  for (const [re, to] of STARTING_QUOTES) text = text.replace(re, to);
  for (const [re, to] of PUNCTUATION) text = text.replace(re, to);
  text = text.replace(PARENS_BRACKETS[0], PARENS_BRACKETS[1]);
  text = text.replace(DOUBLE_DASHES[0], DOUBLE_DASHES[1]);
  text = ` ${text} `;
  for (const [re, to] of ENDING_QUOTES) text = text.replace(re, to);
  for (const [re, to] of CONTRACTIONS) text = text.replace(re, to);
  return text.match(SPLIT) ?? [];
}

/**
 * Tokenizes a text as nltk's `word_tokenize(text)`: English Punkt sentences, then
 * {@linkcode treebankTokenize} on each.
 *
 * @param text The text.
 * @returns The tokens of all sentences, in order.
 * @throws {TypeError} Never for a string.
 * @example Two sentences
 * ```ts
 * import { wordTokenize } from "@assay/assay/ifeval";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(wordTokenize("HELLO world. Bye!"), ["HELLO", "world", ".", "Bye", "!"]);
 * ```
 */
export function wordTokenize(text: string): string[] {
  return splitSentences(text).flatMap(treebankTokenize);
}

/**
 * Tokenizes a text as nltk's `RegexpTokenizer(r"\w+").tokenize(text)`: runs of Python word
 * characters (letters, numbers and `_`; combining marks break words, as in Python).
 *
 * @param text The text.
 * @returns The runs, in order.
 * @throws {TypeError} Never for a string.
 * @example Words
 * ```ts
 * import { wordRuns } from "@assay/assay/ifeval";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(wordRuns("It's 3 o'clock, café_2!"), ["It", "s", "3", "o", "clock", "café_2"]);
 * ```
 */
export function wordRuns(text: string): string[] {
  return text.match(WORDS) ?? [];
}
