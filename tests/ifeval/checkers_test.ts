import { buildCheck, IfevalInputError, INSTRUCTION_IDS } from "../../src/ifeval/mod.ts";
import { deepStrictEqual as assertEquals, strictEqual, throws } from "node:assert/strict";

type Case = [response: string, follows: boolean];
type Table = [id: string, kwargs: Record<string, unknown>, cases: Case[]][];

// Our own edge cases, each decided by reading IFEval's rule under Python semantics.
const TABLE: Table = [
  ["keywords:existence", { keywords: ["apple", "Pie"] }, [
    ["APPLE pie", true],
    ["pineapple piebald", true], // a substring search, not a word search
    ["apple only", false],
  ]],
  ["keywords:frequency", { keyword: " cat ", frequency: 2, relation: "at least" }, [
    ["Cat, cat", true],
    ["concatenate cat", true], // occurrences anywhere, case-insensitively
    ["cat", false],
  ]],
  // re.IGNORECASE's equivalences, not JavaScript's `i` flag: i with İ and ı, ß with ẞ, k with
  // the Kelvin sign.
  ["keywords:existence", { keywords: ["gift", "straße"] }, [
    ["GİFT STRAẞE", true],
    ["gıft strasse", false],
  ]],
  ["keywords:frequency", { keyword: "kelvin", frequency: 2, relation: "at least" }, [
    ["KELVIN \u212aelvin", true],
    ["KELVIN", false],
  ]],
  ["keywords:forbidden_words", { forbidden_words: ["ice"] }, [
    ["NİCE ıCE", false],
    ["ice\u0345", false], // U+0345 is no word character for Python's \b, IGNORECASE or not
  ]],
  ["keywords:frequency", { keyword: "aa", frequency: 2, relation: "less than" }, [
    ["aaa", true], // non-overlapping: "aaa" holds one
    ["aaaa", false],
  ]],
  ["keywords:forbidden_words", { forbidden_words: ["cat", "dog"] }, [
    ["concatenate; hotdog", true], // whole words only
    ["A CAT.", false],
    ["cat_x", true], // "_" is a word character
    ["caté", true], // so is "é" (Python's Unicode \b)
    ["cat\u0301", false], // a combining mark is not: Python's \b sits between "t" and U+0301
  ]],
  ["keywords:letter_frequency", { letter: "A", let_frequency: 3, let_relation: "at least" }, [
    ["aAa", true],
    ["aa", false],
  ]],
  ["keywords:letter_frequency", { letter: "#", let_frequency: 1, let_relation: "less than" }, [
    ["no hash", true],
    ["#1", false],
  ]],
  ["length_constraints:number_sentences", { num_sentences: 2, relation: "less than" }, [
    ["One sentence. Mr. Smith agrees", false],
    ["Dr. Who is here", true],
  ]],
  ["length_constraints:number_paragraphs", { num_paragraphs: 2 }, [
    ["One\n***\nTwo", true],
    ["***\nOne\n***\nTwo\n***", true], // blank first and last pieces do not count
    ["One\n***\n\n***\nTwo", false], // a blank piece inside fails outright
    ["One***Two", true],
    ["One\n\nTwo", false],
  ]],
  ["length_constraints:number_words", { num_words: 3, relation: "at least" }, [
    ["it's a-ok", true], // it, s, a, ok
    ["two words", false],
  ]],
  ["length_constraints:nth_paragraph_first_word", {
    num_paragraphs: 2,
    nth_paragraph: 2,
    first_word: "Hello",
  }, [
    ["Intro\n\n'Hello, world'", true],
    ['Intro\n\n"hello." there', true],
    ["Intro\n\n\n\nHello", false], // the 2nd piece of the split is blank
    ["Intro\n\nHelloX there", false],
    ["Intro\n\nHello\n\nExtra", false],
  ]],
  ["detectable_content:number_placeholders", { num_placeholders: 2 }, [
    ["[name] and [address]", true],
    ["[name\n] and [x]", false], // a placeholder stays on one line
    ["[][]", true],
  ]],
  ["detectable_content:postscript", { postscript_marker: "P.S." }, [
    ["Bye.\np.s. more", true],
    ["Bye.\nP. S. more", true],
    ["PS more", false],
  ]],
  ["detectable_content:postscript", { postscript_marker: "P.P.S" }, [
    ["x\nP.P.S: y", true],
    ["x\nP. P. S y", true],
    ["x\nP.S. y", false],
  ]],
  ["detectable_format:number_bullet_lists", { num_bullets: 2 }, [
    ["* a\n* b", true],
    ["- a\n  - b", true],
    ["* a\n** b\n- c", true], // "**" is not a bullet
    ["*\nx\n* b", true], // "*" then a newline: the bullet swallows the next line
    ["* a", false],
  ]],
  ["detectable_format:constrained_response", {}, [
    ["  My answer is maybe.  ", true],
    ["I think My answer is no. indeed", true],
    ["my answer is yes.", false],
  ]],
  ["detectable_format:number_highlighted_sections", { num_highlights: 2 }, [
    ["*one* and *two*", true],
    ["**bold** only", false], // the single pattern finds two empty "**"; the double one counts 1
    ["* * and ** **", false],
    ["*a\nb* *c*", false],
  ]],
  ["detectable_format:multiple_sections", { section_spliter: "Section", num_sections: 2 }, [
    ["Section 1\nA\nSection 2\nB", true],
    ["SECTION 1\nA\nSECTION 2", false], // case matters
    ["Section1 Section ٢", true], // any decimal digit
  ]],
  ["detectable_format:json_format", {}, [
    ['```json\n{"a": 1}\n```', true],
    ["[NaN, -Infinity]", true],
    ["{'a': 1}", false],
    ["```\n```", false],
  ]],
  ["detectable_format:title", {}, [
    ["<<My Title>> text", true],
    ["<< >>", false],
    ["<<a\nb>>", false],
  ]],
  ["combination:two_responses", {}, [
    ["A\n******\nB", true],
    ["******A******B******", true],
    ["A******A", false],
    ["A******B******C", false],
    ["A************B", false], // a blank response between separators
  ]],
  ["combination:repeat_prompt", { prompt_to_repeat: " Write a Poem. " }, [
    ["write a poem. Here it is", true],
    ["Sure! Write a poem.", false],
  ]],
  ["startend:end_checker", { end_phrase: "Any other questions?" }, [
    ['Done. any other questions?"  ', true],
    ["Any other questions? Thanks", false],
  ]],
  ["startend:quotation", {}, [
    ['  "quoted"  ', true],
    ['"', false],
    ['""', true],
  ]],
  ["change_case:capital_word_frequency", { capital_frequency: 2, capital_relation: "at least" }, [
    ["THE END IS NEAR", true],
    ["NASA's A-OK", true], // NASA, A-OK ('s is not upper)
    ["Hello WORLD", false],
  ]],
  ["change_case:english_capital", {}, [
    ["THIS IS AN ENGLISH SENTENCE ABOUT THE WEATHER TODAY.", true],
    ["This is not all capitals.", false],
    ["123 456", false], // no cased character: isupper() is False
  ]],
  ["change_case:english_lowercase", {}, [
    ["this is an english sentence about the weather today.", true],
    ["ceci est une phrase française sur le temps qu'il fait aujourd'hui.", false],
  ]],
  ["language:response_language", { language: "de" }, [
    ["Das ist ein deutscher Satz über das Wetter heute.", true],
    ["This is an English sentence about the weather today.", false],
    ["12345 !!!", true], // no features: langdetect raises, and IFEval counts that as followed
  ]],
  ["punctuation:no_comma", {}, [
    ["No commas here.", true],
    ["One, two", false],
    ["Fullwidth，comma", true],
  ]],
];

Deno.test("buildCheck() decides each checker's edge cases as IFEval does", () => {
  const wrong: string[] = [];
  for (const [id, kwargs, cases] of TABLE) {
    const check = buildCheck(id, kwargs);
    for (const [response, want] of cases) {
      if (check(response) !== want) wrong.push(`${id} ${JSON.stringify(response)}: want ${want}`);
    }
  }
  assertEquals(wrong, []);
  // Every registered checker has cases.
  assertEquals([...new Set(TABLE.map(([id]) => id))].sort(), [...INSTRUCTION_IDS]);
});

Deno.test("buildCheck() ignores null kwargs of other instructions, as in the published dataset files", () => {
  const check = buildCheck("punctuation:no_comma", { num_highlights: null, relation: null });
  strictEqual(check("a, b"), false);
  const words = buildCheck("length_constraints:number_words", {
    num_words: 2,
    relation: "less than",
    keywords: null,
  });
  strictEqual(words("one"), true);
});

Deno.test("buildCheck() refuses unknown ids and kwargs IFEval would reject or draw at random", () => {
  const refused: [string, Record<string, unknown>, RegExp][] = [
    ["keywords:nope", {}, /unknown instruction id "keywords:nope"/],
    ["punctuation:no_comma", { x: 1 }, /unexpected kwarg "x"/],
    ["keywords:existence", {}, /keywords is missing \(IFEval would draw it at random\)/],
    [
      "keywords:existence",
      { keywords: [] },
      /keywords is empty \(IFEval would draw it at random\)/,
    ],
    ["keywords:forbidden_words", { forbidden_words: [] }, /forbidden_words is empty/],
    ["keywords:frequency", { keyword: "", frequency: 1, relation: "at least" }, /keyword is empty/],
    ["keywords:existence", { keywords: ["a.b"] }, /has regex syntax/],
    ["length_constraints:number_words", { num_words: -1, relation: "at least" }, /negative/],
    [
      "length_constraints:number_words",
      { num_words: 5, relation: "at most" },
      /"less than" or "at least"/,
    ],
    ["length_constraints:number_words", { num_words: 5, relation: null }, /relation is missing/],
    [
      "keywords:letter_frequency",
      { letter: "ab", let_frequency: 1, let_relation: "at least" },
      /longer than one character/,
    ],
    ["length_constraints:nth_paragraph_first_word", {
      num_paragraphs: 2,
      nth_paragraph: 3,
      first_word: "a",
    }, /outside 1\.\.2/],
    [
      "combination:repeat_prompt",
      { prompt_to_repeat: "" },
      /prompt_to_repeat is empty \(IFEval refuses it\)/,
    ],
    ["combination:repeat_prompt", {}, /prompt_to_repeat is missing \(IFEval refuses it\)/],
    // Outside IFEval's 30 codes its instruction fails (KeyError): Greek, a wrong case, none.
    ["language:response_language", { language: "el" }, /language must be one of IFEval's/],
    ["language:response_language", { language: "EN" }, /got "EN"/],
    ["language:response_language", { language: "" }, /got ""/],
  ];
  for (const [id, kwargs, message] of refused) {
    throws(() => buildCheck(id, kwargs, { where: "in.jsonl:3 (key 9)" }), (e: Error) => {
      strictEqual(e instanceof IfevalInputError, true);
      strictEqual(e.name, "IfevalInputError");
      strictEqual(e.message.startsWith("in.jsonl:3 (key 9): "), true, e.message);
      return message.test(e.message);
    });
  }
});

Deno.test("buildCheck()'s refusals name a likely misspelled id and quote a kwarg as written, once and cut short", () => {
  const message = (id: string, kwargs: Record<string, unknown>) => {
    try {
      buildCheck(id, kwargs);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error(`${id} was built`);
  };
  strictEqual(
    message("punctuation:no_commas", {}),
    'unknown instruction id "punctuation:no_commas" (did you mean "punctuation:no_comma"?)',
  );
  strictEqual(message("keywords:nope", {}), 'unknown instruction id "keywords:nope"');
  // The marker's text as given, not lowered, not cut at its dots.
  strictEqual(
    message("detectable_content:postscript", { postscript_marker: "P.(S)" }),
    'detectable_content:postscript: postscript_marker "P.(S)" has regex syntax, which IFEval ' +
      "would read as a Python regex; only plain text is supported",
  );
  // A long value is cut at 80 characters.
  const long = message("keywords:existence", { keywords: [1, ..."x".repeat(200)] });
  strictEqual(
    long,
    `keywords:existence: keywords must be a list of strings, got ${
      JSON.stringify([1, ..."x".repeat(200)]).slice(0, 80)
    }\u2026`,
  );
});
