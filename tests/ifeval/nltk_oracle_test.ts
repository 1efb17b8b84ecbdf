// Differential tests against Debian's python3-nltk (3.8) on edge cases and seeded random texts
// built from the pieces the tokenizers treat specially.
import { splitSentences, treebankTokenize, wordTokenize } from "../../src/ifeval/mod.ts";
import { Sfc32 } from "../../src/engine/mod.ts";
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ensureDebianModule } from "../_debian_python.ts";
import { fixturePath, runOracle } from "./_fixtures.ts";

type Oracle = [string[], string[], string[]];

async function oracle(texts: string[]): Promise<Oracle[]> {
  await ensureDebianModule("python3-nltk", "import nltk; print(nltk.__version__)");
  return await runOracle("_nltk_oracle.py", [fixturePath("punkt_english.json.gz")], texts);
}

const EDGE_CASES = [
  "",
  "   ",
  "No period",
  "See e.g. the list. Then stop.",
  "Mr. Smith arrived. He sat.",
  "It cost $3.50 today. Fine.",
  "J. R. R. Tolkien wrote it. Yes.",
  "Wait... what? Yes!",
  'He said "Stop." Then left.',
  "(One.) Two.",
  "Line one.\n\nLine two.",
  "ends with space.   ",
  "I cannot; won't. 'Tis gonna be fine, innit?",
  "Cost: $5,000 -- maybe. 3.14. 2. Next.",
  "U.S.A. is big. The U.S. army. I.e. no.",
  "a*b [c] {d} <e> “Quoted” text… «fr» ‘x’",
  "Hello!!! World?! Ok.. fine. . . done.",
  "Ｆｕｌｌ．Ｗｉｄｔｈ。 Ελληνικά. Σ. Ok.",
  "*Bold.* Next. **Also.** - item.\n- item two.\n1. First. 2. Second.",
  "Tab\tseparated. Form\ffeed.\u00a0Nbsp. Line\u2028sep.",
];

const PIECES = [
  "Mr.",
  "Dr.",
  "e.g.",
  "U.S.",
  "A.",
  "b.",
  "3.5",
  "1.",
  "...",
  ". .",
  "!",
  "?",
  '"',
  "'",
  "''",
  "``",
  "(",
  ")",
  "[",
  "]",
  "--",
  "-",
  ",",
  ";",
  ":",
  "*",
  "**",
  "The",
  "the",
  "word",
  "It's",
  "can't",
  "cannot",
  "gonna",
  "'tis",
  "«",
  "»",
  "“",
  "”",
  "’",
  "ÉCOLE",
  "naïve",
  "ß",
  "१२",
  "\n",
  "\n\n",
  " ",
  "  ",
  "\t",
  "$",
  "%",
  "&",
  "#",
  "@",
  "<",
  ">",
  "{",
  "}",
  "ﬁ",
  "İ",
  // re.IGNORECASE's equivalences and \w in nltk's (?i) rules.
  "GİMME",
  "gımme",
  "CANNOT",
  "CANNOT\u0345",
  "'TİS",
  "'ſ",
  "'ı",
  "'\u212a",
  "ı",
  "ſ",
  "\u0345",
  "x",
  "Yes.",
];

function randomTexts(n: number, seed: number): string[] {
  const rng = new Sfc32(seed);
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    const parts: string[] = [];
    const len = 1 + (rng.nextUint32() % 25);
    for (let j = 0; j < len; j++) {
      parts.push(PIECES[rng.nextUint32() % PIECES.length]!);
      if ((rng.nextUint32() % 3) > 0) parts.push(" ");
    }
    texts.push(parts.join(""));
  }
  return texts;
}

Deno.test("splitSentences(), treebankTokenize() and wordTokenize() agree with nltk 3.8 on edge cases and 3,000 seeded random texts", async () => {
  const texts = [...EDGE_CASES, ...randomTexts(3000, 20261204)];
  const want = await oracle(texts);
  const differ: string[] = [];
  texts.forEach((t, i) => {
    const got: Oracle = [splitSentences(t), treebankTokenize(t), wordTokenize(t)];
    if (JSON.stringify(got) !== JSON.stringify(want[i])) differ.push(JSON.stringify(t));
  });
  assertEquals(differ, []);
});
