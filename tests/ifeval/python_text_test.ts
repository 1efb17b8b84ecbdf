// Python's character classes and str predicates, checked over every code point against CPython
// (Debian's /usr/bin/python3, Unicode 14.0): equal on every one, the code points Unicode assigned
// since included (Python holds them unassigned; the host's tables are newer, and differ by runtime).
import {
  D,
  isLower,
  isSpace,
  isUpper,
  ND,
  pyLower,
  pySplit,
  pyStrip,
  S,
  W,
} from "../../src/ifeval/_python_text.ts";
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { runOracle } from "./_fixtures.ts";

interface Oracle {
  unicode: string;
  unassigned: number[];
  lower: Record<string, string>;
  [predicate: string]: unknown;
}

function oracle(): Promise<Oracle> {
  return runOracle("_unicode_oracle.py", [], null);
}

Deno.test("Python's \\w, \\d, \\s, isspace(), isupper(), islower() and lower() agree with CPython on every code point", async () => {
  const want = await oracle();
  strictEqual(want.unicode, "14.0.0");
  const re = (cls: string) => new RegExp(`^${cls}$`, "u");
  const w = re(W), d = re(D), nd = re(ND), s = re(S);
  const ours: Record<string, (ch: string) => boolean> = {
    w: (ch) => w.test(ch),
    d: (ch) => d.test(ch),
    nd: (ch) => !nd.test(ch),
    s: (ch) => s.test(ch),
    isspace: isSpace,
    isupper: isUpper,
    islower: isLower,
  };
  const differ: string[] = [];
  const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  for (const [name, test] of Object.entries(ours)) {
    const yes = new Set(want[name === "nd" ? "d" : name] as number[]);
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (test(String.fromCodePoint(cp)) !== yes.has(cp)) differ.push(`${name} ${hex(cp)}`);
    }
  }
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    if (pyLower(ch) !== (want.lower[cp] ?? ch)) differ.push(`lower ${hex(cp)}`);
  }
  assertEquals(differ.slice(0, 20), []);
  // The host knows letters Python does not: the test would pass without the pinning otherwise.
  strictEqual(new RegExp("^\\p{L}$", "u").test("\u{31350}"), true);
  strictEqual(w.test("\u{31350}"), false);
});

Deno.test("pyLower() keeps a final sigma before a character new since Unicode 14, as Python does", () => {
  strictEqual(pyLower("ΑΣ\u{31350}Β"), "ας\u{31350}β");
  strictEqual(pyLower("ΑΣΒ"), "ασβ");
});

Deno.test("pyStrip() and pySplit() use Python's whitespace, not JavaScript's", () => {
  strictEqual(pyStrip("\u001c\u0085 x \ufeff"), "x \ufeff");
  assertEquals(pySplit(" a\u001fb\u00a0c\ufeffd "), ["a", "b", "c\ufeffd"]);
  assertEquals(pySplit(""), []);
});
