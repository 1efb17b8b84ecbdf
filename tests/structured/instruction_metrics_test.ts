// Instruction-following metrics: the reference's examples, the input rules, pooling, and
// formatCompliance against the host's RegExp on a seeded corpus of typical format patterns.
import { deepStrictEqual as assertEquals, ok, strictEqual, throws } from "node:assert/strict";
import {
  constraintSatisfactionRate,
  formatCompliance,
  instructionComplianceRate,
  instructionRetention,
  type RetentionConversation,
} from "../../src/structured/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";

// ---- instructionComplianceRate / constraintSatisfactionRate ---------------------------------

Deno.test("instructionComplianceRate() reproduces the reference's example", () => {
  assertEquals(instructionComplianceRate([[true, true], [true, false]]), {
    value: 0.5,
    numerator: 1,
    denominator: 2,
    details: { compliant: [true, false] },
  });
});

Deno.test("constraintSatisfactionRate() reproduces the reference's example", () => {
  assertEquals(constraintSatisfactionRate([[true, true], [true, false]]), {
    value: 0.75,
    numerator: 3,
    denominator: 4,
  });
});

Deno.test("instructionComplianceRate() and constraintSatisfactionRate() give 0/0 for no outputs", () => {
  assertEquals(instructionComplianceRate([]), {
    value: 0,
    numerator: 0,
    denominator: 0,
    details: { compliant: [] },
  });
  assertEquals(constraintSatisfactionRate([]), { value: 0, numerator: 0, denominator: 0 });
});

Deno.test("instructionComplianceRate() rejects an output with no checks, naming its index", () => {
  for (const f of [instructionComplianceRate, constraintSatisfactionRate]) {
    throws(() => f([[true], []]), {
      name: "RangeError",
      message: "checks[1] is empty: an output with no instruction checks cannot pass or fail them",
    });
  }
});

Deno.test("instructionComplianceRate() rejects malformed checks with a TypeError naming the index", () => {
  const bad: [unknown, RegExp][] = [
    [[[true], [1]], /^checks\[1\]\[0\] must be a boolean, got a number$/],
    [[[true, "true"]], /^checks\[0\]\[1\] must be a boolean, got a string$/],
    [[[true, null]], /^checks\[0\]\[1\] must be a boolean, got null$/],
    [[[true], true], /^checks\[1\] must be an array of booleans$/],
    [[[true], , [true]], /^checks\[1\] must be an array of booleans$/], // a hole
    ["[[true]]", /^checks must be an array of boolean arrays$/],
  ];
  for (const f of [instructionComplianceRate, constraintSatisfactionRate]) {
    for (const [input, message] of bad) {
      throws(() => f(input as boolean[][]), (e: unknown) => {
        ok(e instanceof TypeError, String(e));
        ok(message.test(e.message), e.message);
        return true;
      });
    }
  }
});

function randomChecks(rng: Rng, n: number): boolean[][] {
  const out: boolean[][] = [];
  for (let i = 0; i < n; i++) {
    const row: boolean[] = [];
    for (let k = 1 + rng.int(5); k > 0; k--) row.push(rng.chance(0.8));
    out.push(row);
  }
  return out;
}

Deno.test("instructionComplianceRate() and constraintSatisfactionRate() pool exactly over slices", () => {
  const rng = makeRng(11);
  for (let trial = 0; trial < 200; trial++) {
    const a = randomChecks(rng, rng.int(20)), b = randomChecks(rng, rng.int(20));
    for (const f of [instructionComplianceRate, constraintSatisfactionRate]) {
      const whole = f([...a, ...b]), x = f(a), y = f(b);
      strictEqual(whole.numerator, x.numerator + y.numerator);
      strictEqual(whole.denominator, x.denominator + y.denominator);
    }
    // An output is compliant exactly when all its checks pass, and pooled counts add up.
    const all = [...a, ...b];
    const c = instructionComplianceRate(all), s = constraintSatisfactionRate(all);
    strictEqual(c.denominator, all.length);
    strictEqual(s.denominator, all.reduce((n, row) => n + row.length, 0));
    strictEqual(s.numerator, all.flat().filter((v) => v).length);
    all.forEach((row, i) => strictEqual(c.details.compliant[i], !row.includes(false)));
    // Every row has a check: a compliant row passes at least one, a failing row fails at least
    // one. (The rates themselves are not ordered: [[true], [false × 5]] is 1/2 against 1/6.)
    ok(c.numerator <= s.numerator);
    ok(c.denominator - c.numerator <= s.denominator - s.numerator);
  }
  const c = instructionComplianceRate([[true], [false, false, false, false, false]]);
  const s = constraintSatisfactionRate([[true], [false, false, false, false, false]]);
  assertEquals([c.numerator, c.denominator, s.numerator, s.denominator], [1, 2, 1, 6]);
});

// ---- formatCompliance -----------------------------------------------------------------------

Deno.test("formatCompliance() reproduces the reference's example", () => {
  assertEquals(formatCompliance(["Answer: B", "B"], "Answer: [A-D]"), {
    value: 0.5,
    numerator: 1,
    denominator: 2,
    details: { matches: [true, false] },
  });
});

Deno.test("formatCompliance() requires the whole output to match", () => {
  const r = formatCompliance(
    ["Answer: B", "Answer: B.", " Answer: B", "Answer: B\n"],
    "Answer: [A-D]",
  );
  assertEquals(r.details.matches, [true, false, false, false]);
  // Anchors in the pattern are harmless.
  strictEqual(formatCompliance(["Answer: B"], "^Answer: [A-D]$").value, 1);
});

Deno.test("formatCompliance() takes flags from a RegExp or from options, not both", () => {
  strictEqual(formatCompliance(["answer: b"], /Answer: [A-D]/i).value, 1);
  strictEqual(formatCompliance(["answer: b"], "Answer: [A-D]", { flags: "i" }).value, 1);
  strictEqual(formatCompliance(["answer: b"], "Answer: [A-D]").value, 0);
  strictEqual(formatCompliance(["a\nb"], /a$\n^b/m).value, 1);
  strictEqual(formatCompliance(["a\nb"], "a.b", { flags: "s" }).value, 1);
  strictEqual(formatCompliance(["😀"], /./u).value, 1);
  strictEqual(formatCompliance(["", "x"], new RegExp("")).numerator, 1); // source "(?:)"
  throws(() => formatCompliance(["a"], /a/, { flags: "i" }), TypeError);
  throws(() => formatCompliance(["a"], 42 as unknown as string), {
    name: "TypeError",
    message: "pattern must be a string or a RegExp, got a number",
  });
  throws(() => formatCompliance(["a"], "a", { flags: "v" }), SyntaxError);
});

Deno.test("formatCompliance() rejects non-string outputs with a TypeError naming the index", () => {
  throws(() => formatCompliance(["a", 1 as unknown as string], "a"), {
    name: "TypeError",
    message: "outputs[1] must be a string, got a number",
  });
  throws(() => formatCompliance(["a", null as unknown as string], "a"), {
    name: "TypeError",
    message: "outputs[1] must be a string, got null",
  });
  throws(() => formatCompliance("a" as unknown as string[], "a"), TypeError);
});

Deno.test("formatCompliance() names unsupported regex features instead of answering", () => {
  throws(() => formatCompliance(["aa"], "(a)\\1"), {
    name: "SyntaxError",
    message: "Unsupported regex feature in /(a)\\1/: backreference '\\1' at position 3",
  });
  throws(() => formatCompliance(["ab"], "a(?=b)b"), /lookahead '\(\?=' at position 1/);
  throws(() => formatCompliance(["x"], "\\Ax\\Z"), /escape '\\A'/);
  throws(() => formatCompliance(["x"], "(?:x{1000}){1000}"), RangeError);
  throws(() => formatCompliance(["x"], "x{0,200}", { maxProgramSize: 100 }), /more than 100/);
  strictEqual(formatCompliance(["x"], "x{0,200}", { maxProgramSize: 1000 }).value, 1);
  throws(() => formatCompliance(["x"], "x", { maxProgramSize: 0 }), RangeError);
  throws(() => formatCompliance(["x"], "x", { maxProgramSize: 1.5 }), RangeError);
  strictEqual(formatCompliance(["a"], /a/dgy).value, 1); // d, g and y play no part
});

Deno.test("formatCompliance() treats hostile outputs as data and always finishes", () => {
  const long = "a".repeat(1_000_000);
  const hostile = [`${long}!`, long, "\ud800", "\u0000\u001f", "x".repeat(10_000_000)];
  assertEquals(formatCompliance(hostile, "(a+)+$").details.matches, [
    false,
    true,
    false,
    false,
    false,
  ]);
  assertEquals(formatCompliance(hostile, "(a|a)*b").numerator, 0);
  assertEquals(formatCompliance(hostile.slice(0, 2), "(.*a){20}").details.matches, [false, true]);
  assertEquals(formatCompliance(hostile, "[\\s\\S]*", { flags: "u" }).numerator, 5);
  assertEquals(formatCompliance(hostile, ".*").details.matches, [true, true, true, true, true]);
});

// Typical required formats, each with outputs that follow it; the corpus mutates these.
const FORMATS: [string, string, string[]][] = [
  ["Answer: [A-D]", "", ["Answer: B", "Answer: D"]],
  ["Answer: [A-D]", "i", ["answer: c", "ANSWER: A"]],
  ["(?:yes|no)", "i", ["yes", "No", "YES"]],
  ["\\d{4}-\\d{2}-\\d{2}", "", ["2024-01-31", "1999-12-01"]],
  ["\\{.*\\}", "s", ["{}", '{"a": 1}', "{\n}"]],
  ['\\{\\s*"answer"\\s*:\\s*"[^"]*"\\s*\\}', "", ['{"answer": "x"}', '{ "answer":"" }']],
  ["I'm sorry, but I can(?:no|')t help with that\\.", "", [
    "I'm sorry, but I can't help with that.",
    "I'm sorry, but I cannot help with that.",
  ]],
  ["[A-Z][a-z]+(?: [A-Z][a-z]+)*", "", ["Hello World", "Paris"]],
  ["(?:- .+\\n?){3}", "", ["- a\n- b\n- c", "- one\n- two\n- three\n"]],
  ["^Title: .+$\\n^Body: [\\s\\S]+", "m", ["Title: T\nBody: text", "Title: x\nBody: a\nb"]],
  ["\\s*(?<n>-?\\d+(?:\\.\\d+)?)\\s*", "", [" 42 ", "-3.5", "7"]],
  ["(?:\\w+[.-]?)+@\\w+\\.[a-z]{2,}", "i", ["a.b@example.com", "X-Y@host.ORG"]],
  ["<answer>[^<]*</answer>", "", ["<answer>42</answer>", "<answer></answer>"]],
  ["(?:[^.!?]+[.!?] ?){1,3}", "u", ["One. Two! ", "Why? 😀.", "Fine."]],
  ["Final answer: \\$?-?\\d{1,3}(?:,\\d{3})*(?:\\.\\d+)?", "", [
    "Final answer: $1,234.50",
    "Final answer: -7",
  ]],
  ["```json\\n[\\s\\S]*\\n```", "", ["```json\n{}\n```", "```json\n\n```"]],
];
const PIECES = [
  "Answer: ",
  "B",
  "b",
  "E",
  "yes",
  "No",
  "2024",
  "-",
  "{",
  "}",
  '"',
  ": ",
  "x",
  ".",
  "!",
  "?",
  "\n",
  " ",
  "  ",
  "😀",
  "\u2028",
  "\ud800",
  "ſ",
  "\u212a",
  ",",
  "$",
  "<",
  ">",
  "```",
  "a",
]; // deno-fmt-ignore-line

function nearly(rng: Rng, valid: string): string {
  const chars = [...valid];
  for (let edits = rng.int(3); edits > 0; edits--) {
    const k = rng.int(chars.length + 1), op = rng.int(4);
    if (op === 0) chars.splice(k, 0, rng.pick(PIECES));
    else if (op === 1) chars.splice(k, 1);
    else if (op === 2 && k < chars.length) chars[k] = chars[k]!.toUpperCase();
    else chars.splice(k, 0, ...chars.slice(k, k + 1 + rng.int(3)));
  }
  return chars.join("");
}

Deno.test("formatCompliance() agrees with RegExp full matches on 8,000 seeded format/output pairs", () => {
  const rng = makeRng(5150);
  let pairs = 0, hits = 0;
  for (const [pattern, flags, valid] of FORMATS) {
    const outputs: string[] = [];
    for (let k = 0; k < 500; k++) outputs.push(nearly(rng, rng.pick(valid)));
    const native = new RegExp(`^(?:${pattern})$`, flags);
    const sticky = new RegExp(`(?:${pattern})(?![\\s\\S])`, `${flags}y`);
    const expected = outputs.map((t) => {
      if (!flags.includes("m")) return native.test(t);
      sticky.lastIndex = 0;
      return sticky.test(t);
    });
    const r = formatCompliance(outputs, pattern, { flags });
    assertEquals(r.details.matches, expected, `/${pattern}/${flags}`);
    strictEqual(r.numerator, expected.filter((x) => x).length);
    ok(r.numerator > 20 && r.numerator < 480, `/${pattern}/${flags}: ${r.numerator} of 500`);
    pairs += outputs.length;
    hits += r.numerator;
  }
  strictEqual(pairs, 8000);
  console.log(`${pairs} pairs, ${hits} match`);
});

// ---- instructionRetention -------------------------------------------------------------------

Deno.test("instructionRetention() reproduces the reference's example", () => {
  assertEquals(instructionRetention([[true, [true, false]]]), {
    value: 0.5,
    numerator: 1,
    denominator: 2,
    details: {
      initialCompliance: { value: 1, numerator: 1, denominator: 1 },
      retentionAfterCompliance: { value: 0.5, numerator: 1, denominator: 2 },
      fullyRetained: { value: 0, numerator: 0, denominator: 1 },
    },
  });
});

Deno.test("instructionRetention() pools later turns whatever the first turn did", () => {
  const conversations: RetentionConversation[] = [
    [true, [true, true]],
    { initial: false, later: [true, false, false] },
    [false, []],
    { initial: true, later: [] },
  ];
  assertEquals(instructionRetention(conversations), {
    value: 3 / 5,
    numerator: 3,
    denominator: 5,
    details: {
      initialCompliance: { value: 0.5, numerator: 2, denominator: 4 },
      retentionAfterCompliance: { value: 1, numerator: 2, denominator: 2 },
      fullyRetained: { value: 0.5, numerator: 1, denominator: 2 },
    },
  });
  assertEquals(instructionRetention([]).denominator, 0);
});

Deno.test("instructionRetention() accepts the tuple and object forms alike", () => {
  const rng = makeRng(3);
  for (let trial = 0; trial < 100; trial++) {
    const tuples: [boolean, boolean[]][] = [];
    for (let n = rng.int(10); n > 0; n--) {
      const later: boolean[] = [];
      for (let k = rng.int(5); k > 0; k--) later.push(rng.chance(0.7));
      tuples.push([rng.chance(0.8), later]);
    }
    const objects = tuples.map(([initial, later]) => ({ initial, later }));
    assertEquals(instructionRetention(objects), instructionRetention(tuples));
    const r = instructionRetention(tuples);
    strictEqual(r.denominator, tuples.reduce((n, [, l]) => n + l.length, 0));
    strictEqual(r.numerator, tuples.reduce((n, [, l]) => n + l.filter((v) => v).length, 0));
  }
});

Deno.test("instructionRetention() rejects malformed conversations with a TypeError naming the index", () => {
  const bad: [unknown, RegExp][] = [
    [[[true, [true]], [true]], /^conversations\[1\] must be \[initial, later\], got 1 elements$/],
    [[[true, [true], 3]], /got 3 elements$/],
    [[[1, [true]]], /^conversations\[0\] initial must be a boolean, got a number$/],
    [[{ initial: true }], /^conversations\[0\] later must be an array of booleans$/],
    [[{ later: [true] }], /^conversations\[0\] initial must be a boolean, got undefined$/],
    [[[true, [true, "no"]]], /^conversations\[0\] later\[1\] must be a boolean, got a string$/],
    [[null], /^conversations\[0\] must be \[initial, later\] or \{initial, later\}$/],
    [{}, /^conversations must be an array$/],
  ];
  for (const [input, message] of bad) {
    throws(() => instructionRetention(input as RetentionConversation[]), (e: unknown) => {
      ok(e instanceof TypeError, String(e));
      ok(message.test(e.message), e.message);
      return true;
    });
  }
});
