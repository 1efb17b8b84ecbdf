// Differential tests against Debian's python3-langdetect (1.0.9, seed 0) and CPython's
// random.Random: the responses of the vendored data, their loose variants, and seeded random
// multilingual texts.
import {
  detectLanguage,
  detectLanguageOrUndefined,
  LangDetectError,
  languageProbabilities,
  PythonRandom,
} from "../../src/ifeval/mod.ts";
import { Sfc32 } from "../../src/engine/mod.ts";
import { deepStrictEqual as assertEquals, strictEqual, throws } from "node:assert/strict";
import { ensureDebianModule } from "../_debian_python.ts";
import { responses, runOracle } from "./_fixtures.ts";

async function oracle(request: unknown): Promise<Record<string, unknown[]>> {
  await ensureDebianModule("python3-langdetect", "import langdetect; print('1.0.9')");
  return await runOracle("_langdetect_oracle.py", [], request);
}

function ours(text: string): unknown {
  try {
    return [detectLanguage(text), languageProbabilities(text).map((l) => [l.lang, l.prob])];
  } catch (e) {
    if (e instanceof LangDetectError) return ["!error", e.message];
    throw e;
  }
}

const SAMPLES = [
  "The quick brown fox jumps over the lazy dog near the river bank.",
  "Le renard brun rapide saute par-dessus le chien paresseux.",
  "Der schnelle braune Fuchs springt über den faulen Hund.",
  "El rápido zorro marrón salta sobre el perro perezoso.",
  "Быстрая коричневая лиса прыгает через ленивую собаку.",
  "敏捷的棕色狐狸跳过了懒狗。",
  "素早い茶色の狐がのろまな犬を飛び越える。",
  "빠른 갈색 여우가 게으른 개를 뛰어넘는다.",
  "तेज़ भूरी लोमड़ी आलसी कुत्ते के ऊपर कूदती है।",
  "Con cáo nâu nhanh nhẹn nhảy qua con chó lười.",
  "الثعلب البني السريع يقفز فوق الكلب الكسول.",
  "Mbweha wa kahawia mwepesi anaruka juu ya mbwa mvivu.",
  "visit https://example.com/a?b=c or mail me@example.org",
  "ALL CAPITALS HERE ARE SKIPPED AS CAPITAL WORDS",
  "",
  "1234 !!! ...",
  "Ș ț ș ț",
];

function randomTexts(n: number, seed: number): string[] {
  const rng = new Sfc32(seed);
  const words = SAMPLES.flatMap((s) => s.split(" ")).filter((w) => w !== "");
  return Array.from({ length: n }, () => {
    const len = 1 + (rng.nextUint32() % 12);
    return Array.from({ length: len }, () => words[rng.nextUint32() % words.length]).join(" ");
  });
}

Deno.test("detectLanguage() and languageProbabilities() equal langdetect 1.0.9 (seed 0) on every response and 500 seeded random texts", async () => {
  const texts = [...SAMPLES, ...await responses(), ...randomTexts(500, 16)];
  const got = texts.map(ours);
  // With the profiles loaded in the same (file-name) order, every probability is bit-identical.
  const same = (await oracle({ detect: texts, sorted_profiles: true })).detect!;
  assertEquals(texts.filter((_, i) => JSON.stringify(got[i]) !== JSON.stringify(same[i])), []);
  // Upstream loads them in os.listdir's order, which reorders floating-point sums: the
  // probabilities may differ in their last bits; the detected language of every response does not.
  const real = texts.slice(0, SAMPLES.length + 541);
  const listdir = (await oracle({ detect: real })).detect! as unknown[][];
  const language = (r: unknown) => (r as unknown[])[0];
  assertEquals(real.filter((_, i) => language(got[i]) !== language(listdir[i])), []);
  strictEqual(texts.length, 17 + 541 + 500);
});

Deno.test("PythonRandom() draws as CPython's random.Random: random() and choice's index exactly, gauss() to the last bit of libm", async () => {
  const seeds = [0, 1, 42, 12345, 2 ** 32 - 1];
  const below = [1, 2, 3, 10, 1000, 65535, 65536, 30001, 2 ** 31, 2 ** 32 - 1];
  const want = (await oracle({ random: seeds, draws: 200, below })).random! as number[][][];
  let gaussExact = 0;
  seeds.forEach((seed, i) => {
    const rng = new PythonRandom(seed);
    const floats = Array.from({ length: 200 }, () => rng.random());
    const gauss = Array.from({ length: 200 }, () => rng.gauss(0, 1));
    const indices = below.map((n) => rng.choiceIndex(n));
    assertEquals(floats, want[i]![0], `random(), seed ${seed}`);
    assertEquals(indices, want[i]![2], `_randbelow(), seed ${seed}`);
    gauss.forEach((g, k) => {
      const w = want[i]![1]![k]!;
      if (g === w) gaussExact++;
      // V8's log, cos and sin may differ from glibc's in the last bit.
      strictEqual(Math.abs(g - w) <= 4 * Number.EPSILON * Math.max(1, Math.abs(w)), true);
    });
  });
  strictEqual(gaussExact >= 990, true, `${gaussExact}/1000 gauss draws bit-identical`);
});

Deno.test("PythonRandom(0).gauss() gives CPython's first seven draws", () => {
  // random.seed(0); [random.gauss(0.0, 1.0) for _ in range(7)] with CPython 3.11 and glibc.
  const rng = new PythonRandom(0);
  assertEquals(Array.from({ length: 7 }, () => rng.gauss(0, 1)), [
    0.9417154046806644,
    -1.3965781047011498,
    -0.6797144480784211,
    0.3705035674606598,
    -1.016348894188071,
    -0.07212002278507135,
    0.17919648727485687,
  ]);
});

Deno.test("detectLanguageOrUndefined() is undefined where langdetect finds no features", () => {
  strictEqual(detectLanguageOrUndefined("!!! 42 ..."), undefined);
  throws(() => detectLanguage(""), LangDetectError);
  throws(() => new PythonRandom(-1), RangeError);
});
