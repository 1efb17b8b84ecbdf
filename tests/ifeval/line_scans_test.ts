// The linear scans against the regexes they replace, with Python's classes spliced in, on
// seeded random texts over the characters that matter, and on adversarial inputs that make the
// regexes backtrack quadratically.
import { countBullets, countPlaceholders, titles } from "../../src/ifeval/_line_scans.ts";
import { DOT, S } from "../../src/ifeval/_python_text.ts";
import { Sfc32 } from "../../src/engine/mod.ts";
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";

const LINE_START = "(?:^|(?<=\\n))";
const LINE_END = "(?=\\n|$)";
const BULLET_STAR = new RegExp(`${LINE_START}${S}*\\*[^*]${DOT}*${LINE_END}`, "gu");
const BULLET_DASH = new RegExp(`${LINE_START}${S}*-${DOT}*${LINE_END}`, "gu");
const PLACEHOLDER = /\[[^\n]*?\]/gu;
const TITLE = /<<[^\n]+>>/gu;

const ALPHABET = ["*", "-", "\n", " ", "\t", "\u00a0", "\u001c", "[", "]", "<", ">", "a", "b"];

function randomTexts(n: number, seed: number): string[] {
  const rng = new Sfc32(seed);
  return Array.from({ length: n }, () => {
    const len = rng.nextUint32() % 30;
    return Array.from({ length: len }, () => ALPHABET[rng.nextUint32() % ALPHABET.length]).join("");
  });
}

Deno.test("countBullets(), countPlaceholders() and titles() give the regexes' matches on 20,000 seeded random texts", () => {
  const differ: string[] = [];
  for (
    const text of ["", "*", "* ", "*\n", "*\n\n", "\n* a", " - x\n-\n", ...randomTexts(20000, 7)]
  ) {
    const want = [
      text.match(BULLET_STAR)?.length ?? 0,
      text.match(BULLET_DASH)?.length ?? 0,
      text.match(PLACEHOLDER)?.length ?? 0,
      text.match(TITLE) ?? [],
    ];
    const got = [
      countBullets(text, "*"),
      countBullets(text, "-"),
      countPlaceholders(text),
      titles(text),
    ];
    if (JSON.stringify(got) !== JSON.stringify(want)) differ.push(JSON.stringify(text));
  }
  assertEquals(differ, []);
});

Deno.test("countBullets(), countPlaceholders() and titles() handle adversarial texts in one pass", () => {
  const n = 200_000;
  strictEqual(countBullets("\n".repeat(n), "*"), 0);
  strictEqual(countBullets(" \n".repeat(n) + "* x", "*"), 1);
  strictEqual(countPlaceholders("[".repeat(n)), 0);
  assertEquals(titles("<<".repeat(n)), []);
  strictEqual(titles(`<<${"x".repeat(n)}>>`)[0]!.length, n + 4);
});
