// scoreJsonl on seeded corpora broken at random, against itself and the Python oracle.
//
// The three bench corpora (classic, varied and held-out; small ones) are mutated a few edits at a
// time, each case from its own seed:
// - bytes set, put in or cut in any file, half of them next to a quote, backslash, colon, comma or
//   bracket (most such lines stop being JSON: an input error); runs of bytes where the readers'
//   rules are narrow (see RUNS); a line repeated; a line of blanks and control characters put in;
// - a number in a target written another way (`1.0`, `-0`, `1e400`, 30 digits, ...);
// - most often, outputs edited as text and written back as valid JSON (brackets, quotes, escapes,
//   lone surrogates, numbers of every form, fences and Python literals put in or cut out), so
//   that the run scores hostile outputs rather than stopping.
//
// Each case must give, byte for byte, the same report (or the same error, class and words) on the
// Wasm engine's scoring kernel and on its general reader; every fourth case the same on the TS
// engine too (but for the `engine` field); and every fifth case without `allowMissing` the same
// counts, metrics and records as tests/evaluation/_score_oracle.py (or an error there too). A
// failure names the case's seed, corpus and edits, and the lines they touched.
//
// Needs --allow-run (python3), --allow-read and --allow-write (a temp dir).
import { fail, ok } from "node:assert/strict";
import { createEngine, scoreJsonl, type ScoreJsonlOptions } from "../../mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { writeScoreCorpus } from "./_score_corpus.ts";
import { writeVariedCorpus } from "./_varied_corpus.ts";
import { writeHeldoutCorpus } from "./_heldout_corpus.ts";

const ORACLE = new URL("./_score_oracle.py", import.meta.url).pathname;
const WASM = createEngine({ engine: "wasm" });
const TS = createEngine({ engine: "ts" });
const enc = new TextEncoder();
const dec = new TextDecoder();
const CASES = 480;
const COUNT = 250;

type Files = Record<string, Uint8Array>;
const NAMES = ["examples", "generations", "prompts"];

async function corpora(dir: string): Promise<Record<string, Files>> {
  const out: Record<string, Files> = {};
  for (const kind of ["classic", "varied", "heldout"]) {
    const at = `${dir}/${kind}`;
    await Deno.mkdir(at);
    if (kind === "classic") await writeScoreCorpus(at, { seed: 7101, count: COUNT });
    else if (kind === "varied") await writeVariedCorpus(at, { seed: 7102, count: COUNT });
    else await writeHeldoutCorpus(at, { seed: 7103, count: COUNT });
    const files: Files = {};
    for (const n of NAMES) files[n] = await Deno.readFile(`${at}/${n}.jsonl`);
    out[kind] = files;
  }
  return out;
}

// ------------------------------------------------------------------ the edits

const BYTES = [...'"\\{}[],:0e.-+ u\n\r\t1E/'].map((c) => c.charCodeAt(0))
  .concat([
    0x0c,
    0x0b,
    0x80,
    0xbf,
    0xc3,
    0xa9,
    0xed,
    0xa0,
    0xf0,
    0x9f,
    0x00,
    0x1f,
    0x7f,
    0xef,
    0xbb,
  ]);
const LEXEMES = ["0", "-0", "1", "1.0", "1e5", "1E+2", "0.1e-7", "1e400", "-1.5E-3", "5e-324"]
  .concat(["1.7976931348623157e308", "0.30000000000000004", "123456789012345678901234567890"]);
const TEXTS = ["{", "}", "[", "]", '"', "\\", ",", ":", "\ud800", "\udfff", "\u0000", "\n", "\t"]
  .concat(["```json\n", "```", "<tool_call>", "</tool_call>", '{"name": "f", "arguments": {}}'])
  .concat(['"arguments"', '"name"', "NaN", "Infinity", "null", "true", "None", "True", "'"])
  .concat([
    "// c",
    "/* c */",
    "1_000",
    "[{",
    "}]",
    "\r\n",
    "\\u00e9",
    "\\ud800",
    "\u00a0",
    "\u2028",
  ])
  .concat(LEXEMES);
const NUMBER = /-?\d+(\.\d+)?([eE][-+]?\d+)?/g;

/** The line (0-based) that holds byte `at`. */
function lineOf(bytes: ArrayLike<number>, at: number): number {
  let n = 0;
  for (let i = 0; i < at && i < bytes.length; i++) if (bytes[i] === 0x0a) n++;
  return n;
}

const STRUCTURE = new Set([0x22, 0x5c, 0x3a, 0x2c, 0x7b, 0x7d, 0x5b, 0x5d]);

/**
 * Where a byte edit goes: anywhere, or (half the time) next to the nearest quote, backslash, colon,
 * comma or bracket after a random place, where a line's reading turns.
 */
function place(a: number[], rng: Rng): number {
  let p = rng.int(a.length);
  if (rng.chance(0.5)) {
    while (p < a.length - 1 && !STRUCTURE.has(a[p]!)) p++;
    p = Math.max(0, Math.min(a.length - 1, p + rng.int(3) - 1));
  }
  return p;
}

const BLANKS = [" ", "\t", "\r", "\f", "\v", "\u00a0", "\u2028", "\ufeff", "\u0000"];

/**
 * Byte runs where a reader's rules are narrow: whitespace JSON does not allow between tokens (form
 * feed, NBSP, a BOM), a raw tab or NUL in a string, UTF-8 at its edges (encoded surrogates, past
 * U+10FFFF, overlong, cut short) and escapes at theirs (a surrogate pair ending in \udfff, lone or
 * doubled surrogates, NUL, an escaped slash).
 */
const RUNS: number[][] = [
  [0x0c],
  [0x0b],
  [0x09],
  [0x00],
  [0xc2, 0xa0],
  [0xef, 0xbb, 0xbf],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xc0, 0x80],
  [0xe0, 0x80, 0x80],
  [0xf0, 0x9f, 0x98],
  ...["\\ud83d\\udfff", "\\udfff", "\\ud800\\ud800", "\\u0000", "\\/", "\\u00"].map((t) => [
    ...enc.encode(t),
  ]),
];

/** A few byte edits in `bytes`; notes what each did. */
function byteEdits(bytes: Uint8Array, rng: Rng, notes: string[]): Uint8Array {
  const a = Array.from(bytes);
  for (let k = 1 + rng.int(3); k > 0; k--) {
    const p = place(a, rng);
    const line = lineOf(a, p) + 1;
    switch (rng.int(7)) {
      case 0:
        a[p] = rng.pick(BYTES);
        notes.push(`byte ${p} (line ${line}) set to 0x${a[p]!.toString(16)}`);
        break;
      case 1: {
        const b = rng.pick(BYTES);
        a.splice(p, 0, b);
        notes.push(`0x${b.toString(16)} put in at byte ${p} (line ${line})`);
        break;
      }
      case 2: {
        const n = 1 + rng.int(8);
        a.splice(p, n);
        notes.push(`${n} bytes cut at byte ${p} (line ${line})`);
        break;
      }
      case 3: {
        const t = enc.encode(rng.pick(TEXTS));
        a.splice(p, 0, ...t);
        notes.push(`${JSON.stringify(dec.decode(t))} put in at byte ${p} (line ${line})`);
        break;
      }
      case 4: {
        const run = rng.pick(RUNS);
        a.splice(p, 0, ...run);
        notes.push(
          `bytes ${run.map((b) => b.toString(16)).join(" ")} put in at byte ${p} (line ${line})`,
        );
        break;
      }
      case 5: {
        let s = p;
        while (s > 0 && a[s - 1] !== 0x0a) s--;
        const blank = Array.from({ length: 1 + rng.int(3) }, () => rng.pick(BLANKS)).join("");
        a.splice(s, 0, ...enc.encode(blank), 0x0a);
        notes.push(`a line of ${JSON.stringify(blank)} put in before line ${line}`);
        break;
      }
      default: {
        let s = p;
        while (s > 0 && a[s - 1] !== 0x0a) s--;
        let e = p;
        while (e < a.length && a[e] !== 0x0a) e++;
        a.splice(e, 0, 0x0a, ...a.slice(s, e));
        notes.push(`line ${line} repeated`);
      }
    }
  }
  return Uint8Array.from(a);
}

/** Text edits of one output. */
function textEdits(t: string, rng: Rng): string {
  for (let k = 1 + rng.int(4); k > 0; k--) {
    const p = rng.int(t.length + 1);
    switch (rng.int(5)) {
      case 0:
        t = t.slice(0, p) + rng.pick(TEXTS) + t.slice(p);
        break;
      case 1:
        t = t.slice(0, p) + t.slice(p + 1 + rng.int(6));
        break;
      case 2: {
        const q = rng.int(t.length + 1);
        t = t.slice(0, p) + t.slice(Math.min(p, q), Math.max(p, q)) + t.slice(p);
        break;
      }
      case 3:
        t = t.slice(0, p) + String.fromCharCode(rng.int(0x10000)) + t.slice(p);
        break;
      default: {
        const numbers = [...t.matchAll(NUMBER)];
        if (numbers.length === 0) break;
        const m = rng.pick(numbers);
        t = t.slice(0, m.index) + rng.pick(LEXEMES) + t.slice(m.index! + m[0].length);
      }
    }
  }
  return t;
}

/** Edits the text of a few string outputs, written back as valid JSON lines. */
function outputEdits(bytes: Uint8Array, rng: Rng, notes: string[]): Uint8Array {
  const lines = dec.decode(bytes).split("\n");
  for (let k = 1 + rng.int(20); k > 0; k--) {
    const j = rng.int(lines.length);
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(lines[j]!);
    } catch {
      continue;
    }
    if (typeof row.output !== "string") continue;
    row.output = textEdits(row.output, rng);
    lines[j] = JSON.stringify(row);
    notes.push(`output of line ${j + 1} edited`);
  }
  return enc.encode(lines.join("\n"));
}

/** A number in a few targets written another way (the lines stay JSON). */
function targetEdits(bytes: Uint8Array, rng: Rng, notes: string[]): Uint8Array {
  const lines = dec.decode(bytes).split("\n");
  for (let k = 1 + rng.int(6); k > 0; k--) {
    const j = rng.int(lines.length);
    const line = lines[j]!;
    const at = line.indexOf('"target"');
    if (at < 0) continue;
    const numbers = [...line.slice(at).matchAll(NUMBER)];
    if (numbers.length === 0) continue;
    const m = rng.pick(numbers);
    const from = at + m.index!;
    const lexeme = rng.pick(LEXEMES);
    lines[j] = line.slice(0, from) + lexeme + line.slice(from + m[0].length);
    notes.push(`target number ${m[0]} on line ${j + 1} written ${lexeme}`);
  }
  return enc.encode(lines.join("\n"));
}

function mutate(base: Files, rng: Rng, notes: string[]): Files {
  const files = { ...base };
  const roll = rng.float();
  if (roll < 0.45) {
    notes.push("generations:");
    files.generations = outputEdits(files.generations!, rng, notes);
  } else if (roll < 0.6) {
    notes.push("examples:");
    files.examples = targetEdits(files.examples!, rng, notes);
  } else {
    const name = rng.pick(NAMES);
    notes.push(`${name}:`);
    files[name] = byteEdits(files[name]!, rng, notes);
  }
  return files;
}

// ------------------------------------------------------------------ the runs

interface Outcome {
  ok: boolean;
  /** The report's bytes, or the error's class and message. */
  text: string;
  /** Whether the scoring kernel gave the run back to the general reader. */
  handedBack?: boolean;
}

async function score(files: Files, options: ScoreJsonlOptions): Promise<Outcome> {
  try {
    const r = await scoreJsonl({
      examples: files.examples!,
      generations: files.generations!,
      prompts: files.prompts!,
    }, options);
    return { ok: true, text: dec.decode(r.bytes), handedBack: r.handedBack !== undefined };
  } catch (e) {
    return { ok: false, text: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

// deno-lint-ignore no-explicit-any
type Json = any;

const comparable = (r: Json): string =>
  JSON.stringify([r.n, r.drop_summary, r.parse_status_counts, r.slices, r.metrics, r.records]);

async function oracle(files: Files, dir: string): Promise<{ code: number; out: string }> {
  const args = [ORACLE, "--records"];
  for (const n of NAMES) {
    await Deno.writeFile(`${dir}/${n}.jsonl`, files[n]!);
    args.push(`--${n}`, `${dir}/${n}.jsonl`);
  }
  const r = await new Deno.Command("python3", { args, stdout: "piped", stderr: "piped" }).output();
  return { code: r.code, out: dec.decode(r.code === 0 ? r.stdout : r.stderr) };
}

const firstDifference = (a: string, b: string): string => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at character ${i}: ${JSON.stringify(a.slice(i, i + 160))} against ${
    JSON.stringify(b.slice(i, i + 160))
  }`;
};

Deno.test("scoreJsonl agrees with itself and the Python oracle on corpora broken at random", async () => {
  const dir = await Deno.makeTempDir({ prefix: "assay_mutation_" });
  try {
    const bases = await corpora(dir);
    const tally = { scored: 0, onKernel: 0, errors: 0, ts: 0, oracle: 0 };
    const problems: string[] = [];
    for (let seed = 1; seed <= CASES && problems.length < 3; seed++) {
      const rng = makeRng(0x6d75_7400 + seed);
      const kind = ["classic", "varied", "heldout"][seed % 3]!;
      const notes: string[] = [];
      const files = mutate(bases[kind]!, rng, notes);
      const allowMissing = rng.chance(0.25);
      const where = `case ${seed} (${kind}, allowMissing ${allowMissing}; ${notes.join(" ")})`;
      const kernel = await score(files, { engine: WASM, allowMissing });
      const general = await score(files, { engine: WASM, kernel: false, allowMissing });
      if (kernel.ok !== general.ok || kernel.text !== general.text) {
        problems.push(
          `${where}: kernel and general reader differ ${
            firstDifference(kernel.text, general.text)
          }`,
        );
        continue;
      }
      tally[general.ok ? "scored" : "errors"]++;
      if (kernel.ok && !kernel.handedBack) tally.onKernel++;
      if (seed % 4 === 0) {
        tally.ts++;
        const ts = await score(files, { engine: TS, allowMissing });
        const plain = (o: Outcome) => o.text.replace(/"engine": "(wasm|ts)"/, '"engine": ""');
        if (ts.ok !== general.ok || plain(ts) !== plain(general)) {
          problems.push(
            `${where}: TS and Wasm differ ${firstDifference(plain(ts), plain(general))}`,
          );
          continue;
        }
      }
      if (seed % 5 === 0 && !allowMissing) {
        tally.oracle++;
        const o = await oracle(files, dir);
        if ((o.code === 0) !== general.ok) {
          problems.push(`${where}: Assay ${general.ok ? "scored" : general.text}; oracle ${o.out}`);
        } else if (general.ok) {
          const a = comparable(JSON.parse(general.text));
          const b = comparable(JSON.parse(o.out));
          if (a !== b) problems.push(`${where}: the oracle differs ${firstDifference(a, b)}`);
        }
      }
    }
    if (problems.length) fail(problems.join("\n"));
    console.log(
      `${CASES} cases: ${tally.scored} scored (${tally.onKernel} on the kernel), ` +
        `${tally.errors} refused alike; ` +
        `${tally.ts} also on TS, ${tally.oracle} also by the oracle`,
    );
    // Both kinds of outcome must be well represented, and the kernel must score most runs itself
    // (a run it gives back compares the general reader with itself), or the edits test little.
    ok(
      tally.scored > CASES / 3 && tally.errors > CASES / 10 && tally.onKernel > tally.scored * 0.9,
      JSON.stringify(tally),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
