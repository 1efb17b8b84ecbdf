// explainScore(), diffPairs() and formatExample(): details agree on both engines, paths agree
// with a brute-force comparison of the parsed arguments, and the text shows them.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { canonicalValue, scoreJsonl, scoreToolCalls } from "../../mod.ts";
import {
  DETAIL_OUTPUT_CHARS,
  diffPairs,
  explainScore,
  formatExample,
  listedId,
  markdownText,
  printableString,
  printableText,
  readableJson,
} from "../../src/explain/mod.ts";
import { ENGINES } from "../_engines.ts";
import { makeRng } from "../_corpus.ts";

Deno.test("diffPairs() equals a comparison of the two sides' path maps on seeded pair lists", () => {
  const rng = makeRng(77);
  for (let n = 0; n < 2000; n++) {
    const side = () => {
      const m = new Map<string, string>();
      for (let k = rng.int(6); k > 0; k--) m.set(`["k${rng.int(8)}"]`, String(rng.int(3)));
      return [...m].map(([path, value]) => ({ path, value }));
    };
    const g = side(), p = side();
    const d = diffPairs(g, p);
    const gm = new Map(g.map((x) => [x.path, x.value])),
      pm = new Map(p.map((x) => [x.path, x.value]));
    deepStrictEqual(d.missing.map((x) => x.path), [...gm.keys()].filter((k) => !pm.has(k)).sort());
    deepStrictEqual(d.extra.map((x) => x.path), [...pm.keys()].filter((k) => !gm.has(k)).sort());
    deepStrictEqual(
      d.different.map((x) => x.path),
      [...gm.keys()].filter((k) => pm.has(k) && pm.get(k) !== gm.get(k)).sort(),
    );
    // Equal arguments have no differing path.
    strictEqual(diffPairs(g, g).missing.length + diffPairs(g, g).different.length, 0);
  }
});

Deno.test("explainScore() writes the same details on both engines, and formatExample() shows them", () => {
  const examples = [
    { example_id: "a", language: "en", target: { name: "f", arguments: { x: 1, y: [1, 2] } } },
    { example_id: "b", language: "en", target: { name: "f", arguments: { x: 1 } } },
    { example_id: "c", language: "de", target: { name: "g", arguments: {} } },
    { example_id: "d", language: "de", target: { name: "f", arguments: { x: 1 } } },
  ];
  const long = "x".repeat(DETAIL_OUTPUT_CHARS + 10);
  const generations = [
    {
      example_id: "a",
      output: 'Sure: {"name": "f", "arguments": {"x": 1.0, "y": [1], "z": true}}',
    },
    { example_id: "b", output: '{"name": "f", "arguments": {"x": 1' },
    { example_id: "c", output: long },
    { example_id: "d", output: '{"name": "f", "arguments": {"x": 1}}' },
  ];
  const reports = ENGINES.map((engine) =>
    scoreToolCalls(examples, generations, { engine, detail: explainScore() })
  );
  for (const r of reports.slice(1)) deepStrictEqual(r.records, reports[0]!.records);
  const [a, b, c, d] = reports[0]!.records;
  deepStrictEqual(a!.detail!.paths, {
    missing: [{ path: '["y",1]', gold: "2" }],
    extra: [{ path: '["z"]', predicted: "true" }],
    different: [{ path: '["x"]', gold: "1", predicted: "1.0" }],
  });
  strictEqual(b!.status, "invalid_json");
  strictEqual(b!.detail!.predicted, null);
  ok(b!.detail!.error !== null);
  strictEqual(c!.detail!.output.text.length, DETAIL_OUTPUT_CHARS);
  strictEqual(c!.detail!.output.length, DETAIL_OUTPUT_CHARS + 10);
  deepStrictEqual(d!.detail!.paths, { missing: [], extra: [], different: [] });
  const text = formatExample(a!);
  ok(text.includes('  missing:   ["y",1] = 2'), text);
  ok(text.includes('  different: ["x"]: gold 1, predicted 1.0'), text);
  ok(formatExample(c!).includes(" … (2010 characters"), formatExample(c!));
  // Without the option, records carry no detail.
  ok(!("detail" in scoreToolCalls(examples, generations).records[0]!));
});

Deno.test("explainScore() cuts an output before a surrogate pair that straddles the cut, never inside it", () => {
  const n = DETAIL_OUTPUT_CHARS;
  const x = (k: number) => "x".repeat(k);
  const cases: [string, string][] = [
    // 😀 is U+1F600, the pair \ud83d\ude00: at units n-1 and n it is left out whole.
    [x(n - 1) + "😀 tail", x(n - 1)],
    // Ending at unit n, or starting at it, it is not split: the cut is where it always was.
    [x(n - 2) + "😀 tail", x(n - 2) + "😀"],
    [x(n) + "😀", x(n)],
    // A lone surrogate the output has itself is kept: only a pair is never split.
    [x(n - 1) + "\ud83dy", x(n - 1) + "\ud83d"],
    [x(n - 1) + "\ude00y", x(n - 1) + "\ude00"],
    [x(n - 1) + "😀", x(n - 1)],
  ];
  const examples = cases.map((_, i) => ({
    example_id: `e${i}`,
    language: "en",
    target: { name: "f", arguments: {} },
  }));
  const generations = cases.map(([output], i) => ({ example_id: `e${i}`, output }));
  for (const engine of ENGINES) {
    const report = scoreToolCalls(examples, generations, { engine, detail: explainScore() });
    report.records.forEach((r, i) => {
      const [output, want] = cases[i]!;
      strictEqual(r.detail!.output.text, want, `case ${i}`);
      strictEqual(r.detail!.output.length, output.length, `case ${i}`);
    });
    // In the report's JSON the straddling case's text is whole characters, no escaped surrogate.
    const json = JSON.stringify(report.records[0]!.detail!.output);
    ok(!/\\ud8/.test(json), json.slice(-40));
    ok(formatExample(report.records[0]!).includes(`${x(10)}" … (${n + 6} characters`));
  }
});

Deno.test("readableJson() keeps the JSON's value on seeded canonical texts, escapes of escapes included", () => {
  const rng = makeRng(5);
  const pool = [
    "a",
    "é",
    "東",
    "😀",
    "\\",
    '"',
    "\n",
    "\u0001",
    "\ud800",
    "\\u00e9",
    "\u00a0",
    "\u2028",
  ];
  for (let n = 0; n < 3000; n++) {
    let s = "";
    for (let k = rng.int(8); k > 0; k--) s += rng.pick(pool);
    const canonical = canonicalValue({ [s]: [s, 1.5] });
    const readable = readableJson(canonical);
    deepStrictEqual(JSON.parse(readable), JSON.parse(canonical), canonical);
    ok(!/\\u00e9|\\u6771/.test(readable.replace(/\\\\u00e9/g, "")), readable);
  }
  strictEqual(readableJson('"\\\\u00e9"'), '"\\\\u00e9"'); // an escaped backslash, then text
  // An emoji is its surrogate pair's two escapes, shown as the emoji (until 2026-12-06 they stayed
  // escaped, while ids and outputs showed it); a lone surrogate, and a pair's half, stay escaped.
  strictEqual(readableJson('"\\u00e9\\u0001\\ud83d\\ude00"'), '"é\\u0001😀"');
  strictEqual(readableJson('"\\ude00\\ud83d\\u00e9\\ude00"'), '"\\ude00\\ud83dé\\ude00"');
  strictEqual(readableJson('"\\\\ud83d\\ude00"'), '"\\\\ud83d\\ude00"');
});

// What no runtime may show raw, by its own tables: controls, format characters (bidi controls,
// zero-width ones), separators, private use, unassigned. Python's Unicode 14 rule escapes all of
// these on every runtime (a code point assigned since 14 is unassigned there, and escaped too).
const HIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

Deno.test("readableJson() keeps non-printable characters escaped: bidi controls, format characters, separators", () => {
  const spoof = '"\\u202eexe.txt\\u2028\\u200b\\ufeff\\u00ad"';
  strictEqual(readableJson(spoof), spoof);
  strictEqual(readableJson('"\\u00e9\\u00a0\\u3000\\ue000"'), '"é\\u00a0\\u3000\\ue000"');
  const shown: string[] = [];
  for (let c = 0xa0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    // The canonical form's escapes: an astral code point's as its surrogate pair's two.
    const ch = String.fromCodePoint(c);
    const escape = JSON.stringify(ch).replace(
      /[^"]/g,
      (u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    const readable = readableJson(escape);
    if (readable !== escape && (HIDDEN.test(ch) || readable !== JSON.stringify(ch))) {
      shown.push(escape);
    }
  }
  deepStrictEqual(shown, []);
  strictEqual(readableJson('"\\ud83d\\ude00\\udb80\\udc00"'), '"😀\\udb80\\udc00"'); // U+F0000: private use
});

Deno.test("formatExample() writes ids, languages, reasons and names that are not printable as escaped JSON strings", () => {
  const record = {
    example_id: "ex\u001b[31m1",
    language: "en\nfake line",
    root_id: null,
    status: "invalid_shape" as const,
    name_match: false,
    arguments_match: false,
    matched_pairs: 0,
    predicted_pairs: 0,
    gold_pairs: 1,
    reason: 'an unknown key "\u202egpj.exe"',
  };
  const text = formatExample(record);
  strictEqual(
    text,
    '"ex\\u001b[31m1"  ["en\\nfake line"]  invalid_shape  name NO  arguments NO  pairs 0 matched of 1 gold, 0 predicted\n' +
      '  reason:    "an unknown key \\"\\u202egpj.exe\\""\n',
  );
  // Printable ones are written as they are.
  ok(
    formatExample({ ...record, example_id: "ex-1 é", language: "de", reason: undefined })
      .startsWith("ex-1 é  [de]  invalid_shape"),
  );
  strictEqual(printableText("f\u2066"), '"f\\u2066"');
  strictEqual(printableText("\u{e0001}x"), '"\\udb40\\udc01x"');
});

// What `assay show` printed raw: a bidi override reordering the line, a line separator, an 8-bit
// CSI, NEL, a zero-width space.
const HOSTILE_OUTPUT = "ok \u202eevil\u202c \u2028NEXT \u009b31mC1 \u200bzw \u0085nel";

Deno.test("formatExample() shows a model's output with its non-printable characters escaped", () => {
  const [record] = scoreToolCalls(
    [{ example_id: "a", language: "en", target: { name: "f", arguments: {} } }],
    [{ example_id: "a", output: HOSTILE_OUTPUT }],
    { detail: explainScore() },
  ).records;
  const line = formatExample(record!).split("\n").find((l) => l.startsWith("  output:"))!;
  ok(
    line.startsWith(
      '  output:    "ok \\u202eevil\\u202c \\u2028NEXT \\u009b31mC1 \\u200bzw \\u0085nel" (',
    ),
    line,
  );
  // Still the output's JSON string: it reads back as the output.
  strictEqual(JSON.parse(printableString(HOSTILE_OUTPUT)), HOSTILE_OUTPUT);
  strictEqual(printableString('{"a": "é"}'), JSON.stringify('{"a": "é"}'));
  strictEqual(printableString("\ud800"), '"\\ud800"');
});

Deno.test("formatExample() cuts a long call, path or value as it cuts the output, saying its length", () => {
  // A 100,000-character argument whose escaped ESC straddles the call's cut, and a long key.
  const long = "x".repeat(DETAIL_OUTPUT_CHARS - 9) + "\u001b" + "y".repeat(100_000);
  const key = "k".repeat(3000);
  const output = JSON.stringify({ name: "f", arguments: { a: long, [key]: 1 } });
  const [record] = scoreToolCalls(
    [{ example_id: "a", language: "en", target: { name: "f", arguments: { a: "short", b: 2 } } }],
    [{ example_id: "a", output }],
    { detail: explainScore() },
  ).records;
  const lines = formatExample(record!).split("\n");
  for (const line of lines) ok(line.length < DETAIL_OUTPUT_CHARS + 100, line.slice(0, 80));
  const at = (start: string) => lines.find((l) => l.startsWith(start))!;
  // The call {"a":"xxx…\u001byyy…","kkk…":1} is cut before the escape, never inside it.
  const call = `{"a":${JSON.stringify(long)},"${key}":1}`;
  strictEqual(call.slice(DETAIL_OUTPUT_CHARS - 3, DETAIL_OUTPUT_CHARS + 3), "\\u001b");
  strictEqual(
    at("  predicted:"),
    `  predicted: f(${call.slice(0, DETAIL_OUTPUT_CHARS - 3)} … (${call.length} characters))`,
  );
  // The value "xxx…\u001byyy…" is cut after it.
  const value = JSON.stringify(long);
  strictEqual(
    at("  different:"),
    `  different: ["a"]: gold "short", predicted ${value.slice(0, DETAIL_OUTPUT_CHARS)} … (` +
      `${value.length} characters)`,
  );
  ok(value.slice(0, DETAIL_OUTPUT_CHARS).endsWith("\\u001byy"));
  strictEqual(
    at("  extra:"),
    `  extra:     ["${key.slice(0, DETAIL_OUTPUT_CHARS - 2)} … (${key.length + 4} characters) = 1`,
  );
  // Short ones are whole.
  strictEqual(at("  gold:"), '  gold:      f({"a":"short","b":2})');
  strictEqual(at("  missing:"), '  missing:   ["b"] = 2');
});

Deno.test("formatExample() never leaves half an escape or a lone backslash at a cut", () => {
  // Arguments {"a":"xxx…<escape>zzz…"} whose cut falls `into` characters into the escape.
  const cases: [string, number, string][] = [
    ["\\\\\\\\", 1, ""], // two escaped backslashes, cut after the first's half
    ["\\\\\\\\", 2, "\\\\"],
    ["\\\\\\\\", 3, "\\\\"],
    ["\\u001b", 1, ""],
    ["\\u001b", 5, ""],
    ["\\u001b", 6, "\\u001b"],
  ];
  for (const [escape, into, kept] of cases) {
    const pad = "x".repeat(DETAIL_OUTPUT_CHARS - '{"a":"'.length - into);
    const args = `{"a":"${pad}${escape}${"z".repeat(3000)}"}`;
    const record = {
      example_id: "a",
      language: "en",
      root_id: null,
      status: "ok" as const,
      name_match: true,
      arguments_match: false,
      matched_pairs: 0,
      predicted_pairs: 1,
      gold_pairs: 1,
      detail: {
        output: { text: "", length: 0, sha256: "0".repeat(64) },
        gold: { name: "f", arguments: "{}" },
        predicted: { name: "f", arguments: args },
        error: null,
        paths: { missing: [], extra: [], different: [] },
      },
    };
    const line = formatExample(record).split("\n")[2]!;
    strictEqual(
      line,
      `  predicted: f({"a":"${pad}${kept} … (${args.length} characters))`,
      `${escape} cut after ${into}`,
    );
  }
});

Deno.test("markdownText() shows links, HTML, emphasis and controls as written", () => {
  strictEqual(markdownText("ex-1 München"), "ex\\-1 München");
  strictEqual(markdownText("[click](http://e.vil)"), "\\[click\\]\\(http\\:\\/\\/e\\.vil\\)");
  strictEqual(
    markdownText("<img src=x onerror=alert(1)>"),
    "&lt;img src\\=x onerror\\=alert\\(1\\)&gt;",
  );
  strictEqual(markdownText("e<n> & a|b *c* `d`"), "e&lt;n&gt; &amp; a\\|b \\*c\\* \\`d\\`");
  // Not printable: printableText's JSON string, then escaped, so no line break nor ESC is left.
  strictEqual(markdownText("ok\nFAKE \u001b[2J"), '\\"ok\\\\nFAKE \\\\u001b\\[2J\\"');
  // Every ASCII punctuation mark is escaped or an entity; letters, digits and spaces are kept.
  for (let c = 0x20; c < 0x7f; c++) {
    const ch = String.fromCharCode(c);
    const md = markdownText(`x${ch}`).slice(1);
    if (/[A-Za-z0-9 ]/.test(ch)) strictEqual(md, ch);
    else ok(md === `\\${ch}` || /^&(amp|lt|gt);$/.test(md), `${ch} -> ${md}`);
  }
  // A text that starts with a quote is shown as its JSON string, as one not printable is: an id
  // `"a\nb"` is not shown as the id with a line feed is.
  strictEqual(markdownText('"a'), '\\"\\\\\\"a\\"');
});

Deno.test("printableText() shows a text that starts with a quote as its JSON string, and listedId() reads it back", () => {
  const ids = ["new\nline", '"new\\nline"', '"q"', "q"];
  const shown = ids.map(printableText);
  strictEqual(new Set(shown).size, ids.length, shown.join(" | "));
  deepStrictEqual(shown, ['"new\\nline"', '"\\"new\\\\nline\\""', '"\\"q\\""', "q"]);
  const known = new Set(ids);
  deepStrictEqual(shown.map((s) => listedId(s, known)), ids);
  strictEqual(listedId('"absent"', known), '"absent"');
  strictEqual(listedId('"not json', known), '"not json');
});

Deno.test("readableJson() reads runs of backslashes as the former reading did, in one pass over each run", () => {
  // The former reading, kept here as the reference: a match tried from every backslash of a run
  // (quadratic in the run: 160,000 backslashes took 8 s).
  const former = (canonical: string) =>
    canonical.replace(/(\\*)\\u([0-9a-f]{4})/g, (all, slashes: string, hex: string) => {
      const c = parseInt(hex, 16);
      if (slashes.length % 2 === 1 || c < 0xa0) return all;
      const ch = String.fromCharCode(c);
      return printableText(ch) !== ch ? all : slashes + ch;
    });
  const rng = makeRng(20261205);
  const parts = ["\\", "\\\\", "u", "00e9", "202e", "0041", "4e2d", "d800", "a", '"', "x"];
  for (let i = 0; i < 20_000; i++) {
    let s = "";
    for (let n = rng.int(14); n > 0; n--) s += rng.pick(parts);
    strictEqual(readableJson(s), former(s), JSON.stringify(s));
  }
  // Long runs, with and without an escape after them (the case the former reading rescanned from
  // every backslash; this test checks the reading, not the time, which the commit measured).
  const run = "\\".repeat(160_000);
  strictEqual(readableJson(`"${run}\\u00e9"`), `"${run}é"`);
  strictEqual(readableJson(`"${run}"`), `"${run}"`);
});

Deno.test("explainScore given uncalled as the detail writer is a TypeError, not a run without details", async () => {
  const examples = [{ example_id: "a", language: "en", target: { name: "f", arguments: {} } }];
  const output = '{"name": "f", "arguments": {}}';
  // `detail: explainScore` made each record's detail a function, which the report's JSON leaves
  // out: the run asked for details and wrote none.
  const message = "explainScore takes { sha256? } and makes the writer (detail: explainScore()): " +
    'an unknown key "output", an unknown key "gold", an unknown key "call"';
  let thrown: unknown;
  try {
    scoreToolCalls(examples, [{ example_id: "a", output }], { detail: explainScore as never });
  } catch (e) {
    thrown = e;
  }
  ok(thrown instanceof TypeError && thrown.message === message, String(thrown));
  const enc = new TextEncoder();
  const sources = {
    examples: enc.encode(JSON.stringify(examples[0]) + "\n"),
    generations: enc.encode(
      JSON.stringify({ example_id: "a", prompt_sha256: "0".repeat(64), output }) + "\n",
    ),
  };
  await scoreJsonl(sources, { detail: explainScore as never }).then(
    () => Promise.reject(new Error("scoreJsonl took explainScore uncalled")),
    (e) => ok(e instanceof TypeError && e.message === message, String(e)),
  );
  // Options that are no object are refused too; called, it writes every record's detail.
  let odd: unknown;
  try {
    explainScore("sha256" as never);
  } catch (e) {
    odd = e;
  }
  strictEqual((odd as Error).message, "Expected an object of options, or none, got string");
  const r = scoreToolCalls(examples, [{ example_id: "a", output }], { detail: explainScore() });
  strictEqual(r.records[0]!.detail!.gold.name, "f");
});
