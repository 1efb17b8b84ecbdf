// The seeded JSONL inputs of the cross-runtime scoreJsonl run: examples.jsonl, generations.jsonl
// and prompts.jsonl as bytes.
//
// ECMAScript and Web Crypto only (no node:crypto, unlike tests/evaluation/_score_corpus.ts): every
// runtime builds the same bytes from the same seed, and the orchestrator builds them once more on
// Deno to write the files that `assay score` reads. Gold targets are written as text, so that their
// lexemes are under control: `1.0` against `1`, big integers, escapes against raw characters. The
// generations mix right calls in other spellings, wrong arguments, prose and fences around calls,
// broken JSON, wrong shapes, no JSON at all and a share of the conformance corpus's hostile
// outputs; some outputs that are JSON objects or arrays are written as the value itself (an API's
// whole response), and the manifest has rows of no example (a subset of the examples scored).
// Every row is well formed and every kept example has one generation, so the run scores (an input
// error would end it).
import { rng as mulberry32 } from "./_corpus.ts";
import { sha256Hex } from "./_sha256.ts";

/** The seed of the JSONL inputs. */
export const JSONL_SEED = 0x5c0_12e5;

/** Example rows. */
export const JSONL_EXAMPLES = 400;

/** The three files, as bytes. */
export interface JsonlCorpus {
  examples: Uint8Array;
  generations: Uint8Array;
  prompts: Uint8Array;
}

const CITIES = ["Paris", "Zürich", "São Paulo", "東京", "Αθήνα", "İstanbul", "Reykjavík"];
const WORDS = ["café", "naïve", "😀", "日本語", 'say \\"hi\\"', "back\\\\slash", "a/b", "\\u00e9"];
const AMOUNTS = ["1", "1.0", "100", "100.0", "1e2", "2.5e+3", "-0.0", "0", "19.99", "5e-324"];
const BIG = ["9007199254740993", "123456789012345678901234567890", "-98765432109876543210"];
const LANGUAGES = ["en", "en", "en", "de", "fr", "ja", "pt-BR"];
const PROSE: Record<string, string> = {
  en: "Sure, here is the call:",
  de: "Gerne, hier ist der Aufruf:",
  fr: "Bien sûr, voici l'appel :",
  ja: "承知しました。",
  "pt-BR": "Claro! Aqui está a chamada:",
};

/** One gold call: its name and its arguments, as JSON text. */
type Call = [name: string, args: string];

/**
 * Builds the three files from the seed and the conformance corpus's model outputs.
 *
 * @param outputs Raw model outputs (the conformance corpus's), mixed into the generations.
 * @param seed The mulberry32 seed.
 * @returns examples.jsonl, generations.jsonl and prompts.jsonl.
 */
export async function buildJsonlCorpus(
  outputs: readonly string[],
  seed: number = JSONL_SEED,
): Promise<JsonlCorpus> {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const chance = (p: number) => next() < p;
  const hostile = outputs.filter((o) => o.length <= 2_000);

  const gold = (): Call => {
    switch (int(6)) {
      case 0:
        return ["get_weather", `{"city":"${pick(CITIES)}","units":"celsius"}`];
      case 1:
        return ["convert", `{"amount":${pick(AMOUNTS)},"from":"EUR","to":"JPY"}`];
      case 2:
        return ["transfer", `{"account":${pick(BIG)},"amount":${pick(AMOUNTS)},"memo":null}`];
      case 3:
        return ["天気を取得", `{"都市":"${pick(CITIES)}","emoji":"\\ud83d\\ude00"}`];
      case 4:
        return [
          "search",
          `{"q":"${pick(WORDS)} ${pick(WORDS)}","filters":{"tags":["${pick(WORDS)}"],"max":${
            pick(AMOUNTS)
          }},"opts":{}}`,
        ];
      default:
        return ["get_time", "{}"];
    }
  };
  const callText = ([name, args]: Call, space = "") =>
    `{"name":${space}${JSON.stringify(name)},${space}"arguments":${space}${args}}`;

  /** A target that scoring drops (several calls, none, or not a call). */
  const dropped = (): string => {
    const [name, args] = gold();
    return pick([
      `[${callText(gold())},${callText(gold())}]`,
      "[]",
      `{"name":${JSON.stringify(name)}}`,
      `{"name":"","arguments":${args}}`,
      `{"name":7,"arguments":${args}}`,
      `{"name":${JSON.stringify(name)},"arguments":[]}`,
      "null",
    ]);
  };

  const output = (call: Call, lang: string): string => {
    const [name, args] = call;
    switch (int(12)) {
      case 0:
      case 1:
        return callText(call);
      case 2: // the same call in other whitespace
        return callText(call, " ");
      case 3: // prose and a fence around it
        return `${PROSE[lang]}\n\`\`\`json\n${callText(call, " ")}\n\`\`\`\nDone.`;
      case 4: // 1 and 1.0 swapped, where there are any
        return callText([
          name,
          args.replace(/\b1\.0\b|\b1\b(?!\.)/, (m) => m === "1" ? "1.0" : "1"),
        ]);
      case 5: // the wrong name
        return callText([name + "_v2", args]);
      case 6: // an argument too many
        return callText([
          name,
          args === "{}" ? '{"extra":true}' : args.replace("{", '{"extra":true,'),
        ]);
      case 7: // cut short
        return callText(call).slice(0, 5 + int(20));
      case 8: // a wrong shape
        return pick([`{"tool":${JSON.stringify(name)},"args":${args}}`, `[${callText(call)},1]`]);
      case 9:
        return pick(["I cannot help with that.", "No tool is needed here: 42.", ""]);
      default:
        return pick(hostile);
    }
  };

  const examples: string[] = [];
  const generations: { id: string; sha: string; output: string }[] = [];
  const prompts: string[] = [];
  const roots: { id: string; call: Call }[] = [];
  for (let i = 0; i < JSONL_EXAMPLES; i++) {
    const id = chance(0.05) ? `ex-ü-${i}` : chance(0.03) ? `例-${i}` : `ex-${i}`;
    const lang = pick(LANGUAGES);
    let call: Call | undefined;
    let root = "";
    if (lang !== "en" && roots.length > 0 && chance(0.7)) {
      const r = roots[roots.length - 1 - int(Math.min(roots.length, 20))]!;
      root = `,"root_id":${JSON.stringify(r.id)}`;
      if (chance(0.8)) call = r.call; // a translation keeps the call
    } else if (chance(0.4)) root = ',"root_id":null';
    const drop = chance(0.05);
    let target: string;
    if (drop) target = dropped();
    else {
      call ??= gold();
      if (lang === "en") roots.push({ id, call });
      target = chance(0.1) ? `[${callText(call)}]` : callText(call);
    }
    const meta = chance(0.2) ? `,"meta":{"difficulty":${int(5)}}` : "";
    examples.push(
      `{"example_id":${JSON.stringify(id)},"language":"${lang}","target":${target}${root}${meta}}`,
    );
    const prompt = `<|user|>${id} ${lang}: ${pick(WORDS)}<|assistant|>`;
    const sha = await sha256Hex(prompt);
    prompts.push(
      JSON.stringify(
        chance(0.5) ? { example_id: id, prompt_sha256: sha, prompt } : {
          example_id: id,
          prompt_sha256: sha,
        },
      ),
    );
    if (drop && chance(0.3)) continue; // a dropped example may have no generation
    generations.push({ id, sha, output: output(call ?? gold(), lang) });
  }
  // Drawn after the rows, so that the rows above stay as they were.
  const generationLines = generations.map(({ id, sha, output }) => {
    const head = `{"example_id":${JSON.stringify(id)},"prompt_sha256":"${sha}","output":`;
    // On one line: a value written over several (pretty-printed) would break the JSONL line.
    let value = /^[[{]/.test(output) && !/[\r\n]/.test(output) && chance(0.3);
    try {
      if (value) JSON.parse(output);
    } catch {
      value = false;
    }
    return head + (value ? output : JSON.stringify(output)) + "}";
  });
  for (let k = 0; k < 12; k++) {
    const prompt = `<|user|>not scored ${k}: ${pick(WORDS)}<|assistant|>`;
    const row = { example_id: `unscored-${k}`, prompt_sha256: await sha256Hex(prompt) };
    prompts.push(JSON.stringify(chance(0.5) ? { ...row, prompt } : row));
  }
  // The join is by example_id: generations and prompts come in another order.
  const shuffle = (xs: string[]) => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
  };
  const encoder = new TextEncoder();
  return {
    examples: encoder.encode(examples.join("\n") + "\n"),
    // CRLF line ends, a blank line and no final line break, which the reader must all take.
    generations: encoder.encode(
      shuffle(generationLines).join("\r\n").replace("\r\n", "\r\n\r\n"),
    ),
    prompts: encoder.encode(shuffle(prompts).join("\n") + "\n"),
  };
}
