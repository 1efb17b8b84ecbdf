// Differential tests against Python's `json` module (CONTRACT §1–3, docs/engine.md).
//
// One seeded corpus is generated here, written as JSON lines to a temp dir, and
// checked by `python3 tests/engine/_python_oracle.py` in three processes that run while
// the engines compute their own results. Every engine in tests/_engines.ts must
// agree with Python with zero disagreements: `ts` always, and `wasm` (its absence
// fails the run unless ASSAY_ALLOW_NO_WASM=1).
//
// Needs --allow-run (python3), --allow-read, --allow-write (temp dir) and --allow-env.
import { deepStrictEqual as assertEquals, fail } from "node:assert/strict";
import {
  canonicalizeBatch,
  extractSpanBatch,
  flattenArgumentsBatch,
  parseToolCallBatch,
} from "../../mod.ts";
import type { CanonicalResult, FlattenResult, SpanResult, ToolCallResult } from "../../mod.ts";
import { makeRng, randomDouble, randomJsonText, randomToolCallOutput } from "../_corpus.ts";
import { ENGINES } from "../_engines.ts";

const SEED = 0x5eed_a55a;
const DISTINCT_DOUBLES = 1_000_000;
const DOUBLES_PER_DOC = 1000;
const JSON_DOCS = 100_000;
const TOOL_CALLS = 100_000;
const CHUNK = 5000;
const SHOW = 5;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const ORACLE = new URL("./_python_oracle.py", import.meta.url).pathname;

// ------------------------------------------------------------ targeted cases

const digits = (n: number): string => "1234567890".repeat(Math.ceil(n / 10)).slice(0, n);
const nest = (n: number, open: string, inner: string, close: string): string =>
  open.repeat(n) + inner + close.repeat(n);

/** A few large documents, built from a fixed seed. */
const BIG = (() => {
  const rng = makeRng(42);
  const floats = "[" + Array.from({ length: 50_000 }, () => randomDouble(rng)).join(",") + "]";
  const chunks: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    chunks.push(
      rng.pick(["abc", "\\u00e9", "\u00e9", "\u{1f600}", "\\ud83d", "\ud800", "\\n", "\ue000"]),
    );
  }
  const string = '"' + chunks.join("") + '"';
  const keys: string[] = [];
  for (let i = 0; i < 30_000; i++) {
    keys.push(`"k${rng.int(50_000)}${rng.pick(["", "\ue000", "\u{10000}"])}":${i}`);
  }
  const object = "{" + keys.join(",") + "}";
  const valid = { mutationRate: 0, illegalRate: 0, deepRate: 0, bigIntRate: 0 };
  const mixed = "[" + Array.from({ length: 3000 }, () => randomJsonText(rng, valid)).join(",") +
    "]";
  return { floats, string, object, mixed };
})();

/** (2^54 - 1) * 2^970, exactly: halfway between DBL_MAX and 2^1024. */
const MAX_HALFWAY =
  "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792.0";

/** Targeted canonical-mode cases, each with its expected result where it is worth pinning. */
const TARGETED: [string, CanonicalResult | null][] = [
  // repr layout boundaries
  ["1e-5", { ok: true, canonical: "1e-05" }],
  ["0.0001", { ok: true, canonical: "0.0001" }],
  ["0.00009999999999999999", { ok: true, canonical: "9.999999999999999e-05" }],
  ["0.000099999999999999999", { ok: true, canonical: "0.0001" }],
  ["9.999999999999999e-5", { ok: true, canonical: "9.999999999999999e-05" }],
  ["1e15", { ok: true, canonical: "1000000000000000.0" }],
  ["999999999999999.9", { ok: true, canonical: "999999999999999.9" }],
  ["9999999999999998.0", { ok: true, canonical: "9999999999999998.0" }],
  ["1e16", { ok: true, canonical: "1e+16" }],
  ["1.0000000000000002e16", { ok: true, canonical: "1.0000000000000002e+16" }],
  ["1e21", { ok: true, canonical: "1e+21" }],
  ["1.5e-7", { ok: true, canonical: "1.5e-07" }],
  ["123456789012345678901.0", { ok: true, canonical: "1.2345678901234568e+20" }],
  ["-0.0", { ok: true, canonical: "-0.0" }],
  ["-0", { ok: true, canonical: "0" }],
  ["1E400", { ok: true, canonical: "Infinity" }],
  ["-1e400", { ok: true, canonical: "-Infinity" }],
  ["-1e-400", { ok: true, canonical: "-0.0" }],
  ["[NaN,Infinity,-Infinity]", { ok: true, canonical: "[NaN,Infinity,-Infinity]" }],
  ["2.4703282292062327e-324", { ok: true, canonical: "0.0" }],
  ["2.4703282292062328e-324", { ok: true, canonical: "5e-324" }],
  ["1.7976931348623158e308", { ok: true, canonical: "1.7976931348623157e+308" }],
  ["1.797693134862315807937289714053e308", { ok: true, canonical: "1.7976931348623157e+308" }],
  // the exact midpoint between DBL_MAX and 2^1024 rounds to even, which overflows
  [MAX_HALFWAY, { ok: true, canonical: "Infinity" }],
  ["1.7976931348623159e308", { ok: true, canonical: "Infinity" }],
  ["9007199254740993.0", { ok: true, canonical: "9007199254740992.0" }],
  // 4,300 digits, with and without a sign
  [digits(4300), { ok: true, canonical: digits(4300) }],
  ["-" + digits(4300), { ok: true, canonical: "-" + digits(4300) }],
  [digits(4301), { ok: false, error: { code: "integer_too_long", offset: 0 } }],
  ["-" + digits(4301), { ok: false, error: { code: "integer_too_long", offset: 0 } }],
  ["[0, -" + digits(4301) + "]", { ok: false, error: { code: "integer_too_long", offset: 4 } }],
  [digits(4301) + ".0", null],
  [digits(4301) + "e0", null],
  ["[" + digits(4301) + ",]", { ok: false, error: { code: "integer_too_long", offset: 1 } }],
  // depth 512 vs 513
  [nest(512, "[", "", "]"), { ok: true, canonical: nest(512, "[", "", "]") }],
  [nest(513, "[", "", "]"), { ok: false, error: { code: "nesting_too_deep", offset: 512 } }],
  [nest(512, '{"a":', "1", "}"), { ok: true, canonical: nest(512, '{"a":', "1", "}") }],
  [nest(513, '{"a":', "1", "}"), { ok: false, error: { code: "nesting_too_deep", offset: 2560 } }],
  [nest(989, "[", "", "]"), { ok: false, error: { code: "nesting_too_deep", offset: 512 } }],
  [nest(5000, "[", "", "]"), { ok: false, error: { code: "nesting_too_deep", offset: 512 } }],
  [nest(513, "[", "", "]").slice(0, -1), {
    ok: false,
    error: { code: "nesting_too_deep", offset: 512 },
  }],
  [nest(600, "[", "1,", "]"), null],
  // strings: U+007F, lone surrogates, key order by code point
  ['"\u007f"', { ok: true, canonical: '"\\u007f"' }],
  ['"~\\u007F\u0080"', { ok: true, canonical: '"~\\u007f\\u0080"' }],
  ['{"\ue000":1,"\u{1f600}":2}', { ok: true, canonical: '{"\\ue000":1,"\\ud83d\\ude00":2}' }],
  ['{"\u{1f600}":2,"\\ue000":1,"\uffff":3}', {
    ok: true,
    canonical: '{"\\ue000":1,"\\uffff":3,"\\ud83d\\ude00":2}',
  }],
  // escaped lone + raw lone is two code points (a distinct key that sorts first); an escaped pair
  // and a raw pair are the same key, so the last value wins
  ['{"\u{1f600}":1,"\\ud83d\ude00":2,"\\ud83d\\ude00":3}', {
    ok: true,
    canonical: '{"\\ud83d\\ude00":2,"\\ud83d\\ude00":3}',
  }],
  ['{"\ud83d\\ude00":1}', { ok: true, canonical: '{"\\ud83d\\ude00":1}' }],
  ['["\\udc00\\ud800", "\ud800", "\\ud800x"]', {
    ok: true,
    canonical: '["\\udc00\\ud800","\\ud800","\\ud800x"]',
  }],
  ['{"__proto__":{"a":1},"constructor":2,"toString":3}', {
    ok: true,
    canonical: '{"__proto__":{"a":1},"constructor":2,"toString":3}',
  }],
  ['{"a":1,"a":2}', { ok: true, canonical: '{"a":2}' }],
  ['"\\/\\b\\f\\n\\r\\t\\"\\\\\\u0000\\u001f"', {
    ok: true,
    canonical: '"/\\b\\f\\n\\r\\t\\"\\\\\\u0000\\u001f"',
  }],
  ['"\x01"', { ok: false, error: { code: "invalid_control_character", offset: 1 } }],
  ['"\\x"', { ok: false, error: { code: "invalid_escape", offset: 1 } }],
  ['["\\u12G4"]', { ok: false, error: { code: "invalid_unicode_escape", offset: 2 } }],
  ['"\\u12', { ok: false, error: { code: "invalid_unicode_escape", offset: 1 } }],
  ['"\\u1234', { ok: false, error: { code: "unterminated_string", offset: 0 } }],
  ['["\\ud83d\\ude00', { ok: false, error: { code: "unterminated_string", offset: 1 } }],
  ['"ab\\', { ok: false, error: { code: "unterminated_string", offset: 0 } }],
  // whitespace and top level
  ["\ufeff1", { ok: false, error: { code: "expecting_value", offset: 0 } }],
  ["\u00a01", { ok: false, error: { code: "expecting_value", offset: 0 } }],
  [" \t\r\n1 \t\r\n", { ok: true, canonical: "1" }],
  ["1\f", { ok: false, error: { code: "extra_data", offset: 1 } }],
  ["", { ok: false, error: { code: "expecting_value", offset: 0 } }],
  ["  ", { ok: false, error: { code: "expecting_value", offset: 2 } }],
  ["\u{1f600} 1", { ok: false, error: { code: "expecting_value", offset: 0 } }],
  ['["\u{1f600}" 1]', { ok: false, error: { code: "expecting_comma", offset: 6 } }],
  ["[1,]", { ok: false, error: { code: "expecting_value", offset: 3 } }],
  ['{"a":1,}', { ok: false, error: { code: "expecting_property_name", offset: 7 } }],
  ["-Inf", { ok: false, error: { code: "expecting_value", offset: 0 } }],
  ["[1.]", { ok: false, error: { code: "expecting_comma", offset: 2 } }],
  ["01", { ok: false, error: { code: "extra_data", offset: 1 } }],
  // big inputs: memory growth and batch boundaries in the wasm engine
  [BIG.floats, null],
  [BIG.string, null],
  [BIG.object, null],
  [BIG.mixed, null],
];

const cut = (n: number, s: string) => s.slice(0, n);
const CALL = (args: string) => `Sure: {"name": "f", "arguments": ${args}} done`;

/** Targeted tool-call cases; the expectations are checked against Python too. */
const TARGETED_CALLS: [string, Partial<ToolCallResult> | null][] = [
  [CALL(nest(511, '{"a":', "1", "}")), { status: "ok" }],
  [CALL(nest(512, '{"a":', "1", "}")), {
    status: "invalid_json",
    error: { code: "nesting_too_deep", offset: 6 + 27 + 511 * 5 },
  }],
  [CALL(`{"k": ${digits(4301)}}`), {
    status: "invalid_json",
    error: { code: "integer_too_long", offset: 6 + 27 + 6 },
  }],
  [CALL(`{"k": -${digits(4300)}}`), { status: "ok" }],
  [CALL('{"\ue000": 1, "\u{1f600}": 2, "a.b": 3, "a": {"b": 4}}'), {
    status: "ok",
    canonicalArguments: '{"a":{"b":4},"a.b":3,"\\ue000":1,"\\ud83d\\ude00":2}',
    pairs: [
      { path: '["a","b"]', value: "4" },
      { path: '["a.b"]', value: "3" },
      { path: '["\\ue000"]', value: "1" },
      { path: '["\\ud83d\\ude00"]', value: "2" },
    ],
  }],
  [CALL("{}"), { status: "ok", canonicalArguments: "{}", pairs: [{ path: "[]", value: "{}" }] }],
  [CALL('{"x": [], "y": {}, "z": [1.0, [true]]}'), null],
  ['[{"name": "f", "arguments": {}}]', { status: "ok" }],
  ['[{"name": "f", "arguments": {}}, {"name": "g", "arguments": {}}]', { status: "invalid_shape" }],
  ["[]", { status: "invalid_shape" }],
  ['{"name": "", "arguments": {}}', { status: "invalid_shape" }],
  ['{"name": "f", "arguments": "{}"}', { status: "invalid_shape" }],
  ['{"name": "f", "arguments": {}, "id": 1}', { status: "invalid_shape" }],
  ['{"name": 1, "arguments": {}, "name": "f"}', { status: "ok" }],
  ["no brackets here", { status: "no_json" }],
  ['x {"a": "}]"} y', { status: "invalid_shape" }],
  ['x {"a": [1}', { status: "invalid_json", error: { code: "mismatched_bracket", offset: 10 } }],
  ['x {"a": "\\"}', { status: "invalid_json", error: { code: "unclosed_span", offset: 12 } }],
  ['\u{1f600} {"a": 1,}', {
    status: "invalid_json",
    error: { code: "expecting_property_name", offset: 11 },
  }],
  ["\u{1f600}[\u{1f600}]", {
    status: "invalid_json",
    error: { code: "expecting_value", offset: 3 },
  }],
  [cut(9, '{"name": "f"}'), {
    status: "invalid_json",
    error: { code: "unclosed_span", offset: 9 },
  }],
  [CALL(BIG.object), null],
  ["prose ".repeat(50_000) + CALL(`{"m": ${BIG.mixed}}`), null],
];

// ------------------------------------------------------------ corpus and oracle

interface Oracle {
  /** Python's canonical results for the doubles documents. */
  doubles: CanonicalResult[];
  /** Python's canonical and flatten results for the random documents, then TARGETED. */
  documents: { canonical: CanonicalResult; flatten: FlattenResult }[];
  /** Python's span and tool-call results for the tool-call outputs, then TARGETED_CALLS. */
  calls: { span: SpanResult; toolcall: ToolCallResult }[];
}

interface Corpus {
  /** Documents of DOUBLES_PER_DOC float lexemes each. */
  doubleDocs: string[];
  distinctDoubles: number;
  jsonDocs: string[];
  calls: string[];
  oracle: Promise<Oracle>;
}

let corpus: Corpus | undefined;

/** Writes `texts` and starts the oracle on them now; the promise gives its parsed results. */
function startOracle(dir: string, mode: string, texts: string[]): Promise<unknown[]> {
  const input = `${dir}/${mode}.in.jsonl`;
  const output = `${dir}/${mode}.out.jsonl`;
  Deno.writeTextFileSync(input, texts.map((t) => JSON.stringify(t)).join("\n") + "\n");
  const child = new Deno.Command("python3", {
    args: [ORACLE, mode, input, output],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  return child.output().then(({ code, stderr }) => {
    if (code !== 0) {
      throw new Error(
        `python3 ${mode} oracle failed (exit ${code}): ${new TextDecoder().decode(stderr)}`,
      );
    }
    const lines = Deno.readTextFileSync(output).split("\n");
    if (lines.at(-1) === "") lines.pop();
    if (lines.length !== texts.length) {
      throw new Error(
        `python3 ${mode} oracle gave ${lines.length} results for ${texts.length} inputs`,
      );
    }
    return lines.map((l) => JSON.parse(l));
  });
}

/** Generates the corpus once and starts the Python processes (they run while the engines do). */
function getCorpus(): Corpus {
  if (corpus) return corpus;
  const t0 = performance.now();
  const dir = Deno.makeTempDirSync({ prefix: "assay_pydiff_" });
  const rng = makeRng(SEED);
  // Each part goes to Python as soon as it exists, so the oracle overlaps the generation.
  const seen = new Set<number>();
  const doubleDocs: string[] = [];
  while (seen.size < DISTINCT_DOUBLES) {
    const lexemes: string[] = [];
    for (let i = 0; i < DOUBLES_PER_DOC; i++) {
      const lexeme = randomDouble(rng);
      seen.add(Number(lexeme));
      lexemes.push(lexeme);
    }
    doubleDocs.push("[" + lexemes.join(",") + "]");
  }
  const doubles = startOracle(dir, "canonical", doubleDocs);
  const jsonDocs: string[] = [];
  for (let i = 0; i < JSON_DOCS; i++) jsonDocs.push(randomJsonText(rng));
  const documents = startOracle(dir, "canonical+flatten", [
    ...jsonDocs,
    ...TARGETED.map(([t]) => t),
  ]);
  const calls: string[] = [];
  for (let i = 0; i < TOOL_CALLS; i++) calls.push(randomToolCallOutput(rng));
  const toolCalls = startOracle(dir, "span+toolcall", [
    ...calls,
    ...TARGETED_CALLS.map(([t]) => t),
  ]);
  const t1 = performance.now();
  console.log(`corpus: generated in ${seconds(t1 - t0)}`);
  const oracle = Promise.all([doubles, documents, toolCalls]).then(
    ([doubles, documents, calls]) => {
      console.log(`oracle: python3 done ${seconds(performance.now() - t1)} after generation`);
      return { doubles, documents, calls } as Oracle;
    },
  ).finally(() => Deno.remove(dir, { recursive: true }).catch(() => {}));
  // Keep an unhandled rejection from escaping before a test awaits it.
  oracle.catch(() => {});
  corpus = { doubleDocs, distinctDoubles: seen.size, jsonDocs, calls, oracle };
  return corpus;
}

// ------------------------------------------------------------ comparison

function inChunks<T, R>(items: readonly T[], f: (chunk: T[]) => R[]): R[] {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(...f(items.slice(i, i + CHUNK)));
  return out;
}

const show = (s: string) => JSON.stringify(s.length > 400 ? s.slice(0, 400) + "…" : s);

/** Formats one disagreement: the input, then both results around their first difference. */
function mismatch(
  label: string,
  input: string,
  python: string,
  other: string,
  who: string,
): string {
  let at = 0;
  while (at < python.length && python[at] === other[at]) at++;
  const around = (s: string) =>
    s.length <= 300 ? s : (at > 100 ? "…" : "") + s.slice(Math.max(0, at - 100), at + 200) + "…";
  return `  ${label}${show(input)}\n    python: ${around(python)}\n    ${who}: ${around(other)}`;
}

// Each *Key is the JSON text of the fields that must agree, in a fixed order. JSON.stringify
// escapes lone surrogates, so two keys are equal exactly when the results are.

function canonicalKey(r: CanonicalResult): string {
  return r.ok
    ? JSON.stringify({ ok: true, canonical: r.canonical })
    : JSON.stringify({ ok: false, code: r.error.code, offset: r.error.offset });
}

function flattenKey(r: FlattenResult): string {
  return r.ok
    ? JSON.stringify({ ok: true, pairs: r.pairs.map((p) => [p.path, p.value]) })
    : JSON.stringify({ ok: false, code: r.error.code, offset: r.error.offset });
}

function spanKey(r: SpanResult): string {
  return JSON.stringify([r.status, r.start, r.end, r.error?.code, r.error?.offset]);
}

function callKey(r: Partial<ToolCallResult>): string {
  return JSON.stringify({
    status: r.status,
    name: r.name,
    canonicalArguments: r.canonicalArguments,
    pairs: r.pairs?.map((p) => [p.path, p.value]),
    error: r.error && [r.error.code, r.error.offset],
  });
}

function report(kind: string, engine: string, bad: string[], total: number): void {
  if (bad.length === 0) return;
  fail(
    `${engine}: ${bad.length} of ${total} ${kind} disagree with Python. First ${
      Math.min(SHOW, bad.length)
    }:\n` + bad.slice(0, SHOW).join("\n"),
  );
}

// ------------------------------------------------------------ tests

for (const engine of ENGINES) {
  const name = engine.name;

  Deno.test(`canonicalizeBatch() matches Python on the targeted cases (${name})`, async () => {
    const { oracle, jsonDocs } = getCorpus();
    const py = (await oracle).documents.slice(jsonDocs.length);
    const texts = TARGETED.map(([t]) => t);
    const got = canonicalizeBatch(texts, { engine });
    const flat = flattenArgumentsBatch(texts, { engine });
    const bad: string[] = [];
    TARGETED.forEach(([text, expected], i) => {
      const p = py[i]!, g = got[i]!;
      if (expected && canonicalKey(expected) !== canonicalKey(p.canonical)) {
        bad.push(
          mismatch("oracle ", text, canonicalKey(p.canonical), canonicalKey(expected), "expected"),
        );
      }
      if (canonicalKey(g) !== canonicalKey(p.canonical)) {
        bad.push(mismatch("", text, canonicalKey(p.canonical), canonicalKey(g), name));
      }
      if (flattenKey(flat[i]!) !== flattenKey(p.flatten)) {
        bad.push(mismatch("flatten ", text, flattenKey(p.flatten), flattenKey(flat[i]!), name));
      }
    });
    report("targeted documents", name, bad, TARGETED.length);
  });

  Deno.test(`parseToolCallBatch() matches Python on the targeted cases (${name})`, async () => {
    const { oracle, calls } = getCorpus();
    const py = (await oracle).calls.slice(calls.length);
    const texts = TARGETED_CALLS.map(([t]) => t);
    const got = parseToolCallBatch(texts, { engine, pairs: true, arguments: false });
    const spans = extractSpanBatch(texts, { engine });
    const bad: string[] = [];
    TARGETED_CALLS.forEach(([text, expected], i) => {
      const p = py[i]!, g = got[i]!;
      if (expected) {
        const pick = Object.fromEntries(
          Object.keys(expected).map((k) => [k, p.toolcall[k as keyof ToolCallResult]]),
        );
        if (callKey(pick) !== callKey(expected)) {
          bad.push(mismatch("oracle ", text, callKey(pick), callKey(expected), "expected"));
        }
      }
      if (callKey(g) !== callKey(p.toolcall)) {
        bad.push(mismatch("", text, callKey(p.toolcall), callKey(g), name));
      }
      if (spanKey(spans[i]!) !== spanKey(p.span)) {
        bad.push(mismatch("span ", text, spanKey(p.span), spanKey(spans[i]!), name));
      }
    });
    report("targeted tool calls", name, bad, TARGETED_CALLS.length);
  });

  Deno.test(
    `canonicalizeBatch() matches Python's repr on ${DISTINCT_DOUBLES} random doubles (${name})`,
    async () => {
      const { oracle, doubleDocs, distinctDoubles } = getCorpus();
      const t0 = performance.now();
      const got = inChunks(doubleDocs, (c) => canonicalizeBatch(c, { engine }));
      const ms = performance.now() - t0;
      const py = (await oracle).doubles;
      const bad: string[] = [];
      let lexemes = 0;
      doubleDocs.forEach((doc, i) => {
        const p = py[i]!, g = got[i]!;
        if (!p.ok) fail(`python rejected a doubles document: ${canonicalKey(p)} ${show(doc)}`);
        lexemes += DOUBLES_PER_DOC;
        if (g.ok && g.canonical === p.canonical) return;
        if (!g.ok) {
          const at = g.error.offset;
          bad.push(
            `  document ${i} rejected: ${canonicalKey(g)} near ${
              show(doc.slice(at - 40, at + 40))
            }`,
          );
          return;
        }
        const ins = doc.slice(1, -1).split(","), ps = p.canonical.slice(1, -1).split(",");
        const gs = g.canonical.slice(1, -1).split(",");
        for (let j = 0; j < ins.length; j++) {
          if (ps[j] !== gs[j]) bad.push(`  ${show(ins[j]!)}: python ${ps[j]}, ${name} ${gs[j]}`);
        }
      });
      console.log(
        `${name}: ${lexemes} float lexemes (${distinctDoubles} distinct doubles) checked, ` +
          `engine time ${seconds(ms)}`,
      );
      report("float lexemes", name, bad, lexemes);
    },
  );

  Deno.test(
    `canonicalizeBatch() and flattenArgumentsBatch() match Python on ${JSON_DOCS} random documents (${name})`,
    async () => {
      const { oracle, jsonDocs } = getCorpus();
      const t0 = performance.now();
      const got = inChunks(jsonDocs, (c) => canonicalizeBatch(c, { engine }));
      const ms = performance.now() - t0;
      const flat = inChunks(jsonDocs, (c) => flattenArgumentsBatch(c, { engine }));
      const py = (await oracle).documents;
      const bad: string[] = [];
      let rejected = 0;
      jsonDocs.forEach((doc, i) => {
        const p = py[i]!, g = got[i]!;
        if (!p.canonical.ok) rejected++;
        if (canonicalKey(g) !== canonicalKey(p.canonical)) {
          const what = g.ok !== p.canonical.ok ? "ACCEPT/REJECT" : g.ok ? "OUTPUT" : "ERROR";
          bad.push(mismatch(`[${what}] `, doc, canonicalKey(p.canonical), canonicalKey(g), name));
        } else if (flattenKey(flat[i]!) !== flattenKey(p.flatten)) {
          bad.push(mismatch("[PAIRS] ", doc, flattenKey(p.flatten), flattenKey(flat[i]!), name));
        }
      });
      console.log(
        `${name}: ${jsonDocs.length} documents checked (${rejected} rejected by Python), ` +
          `canonicalize time ${seconds(ms)}`,
      );
      report("documents", name, bad, jsonDocs.length);
    },
  );

  Deno.test(
    `parseToolCallBatch() and extractSpanBatch() match Python on ${TOOL_CALLS} prose-wrapped outputs (${name})`,
    async () => {
      const { oracle, calls } = getCorpus();
      const t0 = performance.now();
      const got = inChunks(
        calls,
        (c) => parseToolCallBatch(c, { engine, pairs: true, arguments: false }),
      );
      const ms = performance.now() - t0;
      const spans = inChunks(calls, (c) => extractSpanBatch(c, { engine }));
      const py = (await oracle).calls;
      const bad: string[] = [];
      const statuses: Record<string, number> = {};
      calls.forEach((text, i) => {
        const p = py[i]!, g = got[i]!;
        statuses[p.toolcall.status] = (statuses[p.toolcall.status] ?? 0) + 1;
        if (callKey(g) !== callKey(p.toolcall)) {
          bad.push(mismatch("", text, callKey(p.toolcall), callKey(g), name));
        } else if (spanKey(spans[i]!) !== spanKey(p.span)) {
          bad.push(mismatch("[SPAN] ", text, spanKey(p.span), spanKey(spans[i]!), name));
        }
      });
      console.log(
        `${name}: ${calls.length} tool-call outputs checked ${JSON.stringify(statuses)}, ` +
          `parse time ${seconds(ms)}`,
      );
      report("tool-call outputs", name, bad, calls.length);
    },
  );
}

Deno.test("randomDouble() lexemes are JSON floats and the corpus is deterministic", () => {
  const a = makeRng(7), b = makeRng(7);
  for (let i = 0; i < 2000; i++) {
    const x = randomDouble(a);
    assertEquals(x, randomDouble(b));
    assertEquals(
      /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(x) && /[.eE]/.test(x),
      true,
      x,
    );
  }
  assertEquals(randomJsonText(a), randomJsonText(b));
  assertEquals(randomToolCallOutput(a), randomToolCallOutput(b));
});
