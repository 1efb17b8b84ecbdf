// Python's case rules with CPython 3.11's Unicode (14.0) on every runtime, against CPython itself
// (Debian's python3): str.lower()'s final sigma next to every code point, and re.IGNORECASE's
// literal matching for every cased code point and a sample of the others. The host's Unicode is
// newer (and not the same on every runtime), and JavaScript's `i` flag folds case by other rules.
//
// Needs --allow-run (python3).
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { pyIgnoreCase, pyLower } from "../../src/pytext/mod.ts";
import { PYTHON } from "../_debian_python.ts";

async function python<T>(script: string): Promise<T> {
  const out = await new Deno.Command(PYTHON, { args: ["-c", script] }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

Deno.test("pyLower() writes a capital sigma next to any code point as CPython 3.11 does", async () => {
  // The three contexts that decide it: a code point between a cased letter and the sigma, before
  // the sigma alone, and after a cased letter's sigma. Lone surrogates included.
  const want = await python<Record<string, number[]>>(`
import json, unicodedata
assert unicodedata.unidata_version == "14.0.0"
out = {"between": [], "before": [], "after": []}
for cp in range(0x110000):
    c = chr(cp)
    if ("A" + c + "\\u03a3").lower()[-1] == "\\u03c2": out["between"].append(cp)
    if (c + "\\u03a3").lower()[-1] == "\\u03c2": out["before"].append(cp)
    if ("A\\u03a3" + c).lower()[1] == "\\u03c2": out["after"].append(cp)
print(json.dumps(out))
`);
  const contexts: Record<string, (c: string) => boolean> = {
    between: (c) => pyLower(`A${c}\u03a3`).endsWith("\u03c2"),
    before: (c) => pyLower(`${c}\u03a3`).endsWith("\u03c2"),
    after: (c) => pyLower(`A\u03a3${c}`)[1] === "\u03c2",
  };
  const differ: string[] = [];
  for (const [name, final] of Object.entries(contexts)) {
    const yes = new Set(want[name]);
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (final(String.fromCodePoint(cp)) !== yes.has(cp)) differ.push(`${name} ${hex(cp)}`);
    }
  }
  assertEquals(differ.slice(0, 20), []);
  // The sweep covers a code point whose Case_Ignorable changed after Unicode 14 (Ahom medial ra),
  // and one assigned since (a CJK ideograph of Unicode 15).
  strictEqual(pyLower("\u0391\u03a3\u{1171e}"), "\u03b1\u03c2\u{1171e}");
  strictEqual(pyLower("\u0391\u03a3\u{31350}\u0392"), "\u03b1\u03c2\u{31350}\u03b2");
  strictEqual(
    pyLower("\u03a3\u0391\u03a3 \u0391\u03a3\u0392"),
    "\u03c3\u03b1\u03c2 \u03b1\u03c3\u03b2",
  );
});

Deno.test("pyIgnoreCase() matches a literal as CPython 3.11's re.IGNORECASE does", async () => {
  // Every code point with a simple lowercase of another or that `re` takes as cased (all that
  // IGNORECASE can widen), and every 61st code point of planes 0 to 2 and 14 besides: each as a
  // pattern, searched for in the text of them all.
  const want = await python<{ cps: number[]; matches: number[][] }>(`
import _sre, json, re, unicodedata
assert unicodedata.unidata_version == "14.0.0"
cps = sorted({cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF and (
    _sre.unicode_tolower(cp) != cp or _sre.unicode_iscased(cp) or
    (cp % 61 == 0 and (cp < 0x30000 or 0xE0000 <= cp < 0xE1000)))})
text = "".join(map(chr, cps))
matches = [[ord(m.group()) for m in re.finditer(re.escape(chr(cp)), text, re.I)] for cp in cps]
print(json.dumps({"cps": cps, "matches": matches}))
`);
  strictEqual(want.cps.length > 4_000, true);
  const text = String.fromCodePoint(...want.cps);
  const differ: string[] = [];
  want.cps.forEach((cp, i) => {
    const re = new RegExp(pyIgnoreCase(String.fromCodePoint(cp)), "gu");
    const got = [...text.matchAll(re)].map((m) => m[0].codePointAt(0)!);
    if (JSON.stringify(got) !== JSON.stringify(want.matches[i])) {
      differ.push(`${hex(cp)}: ${got.map(hex)} against ${want.matches[i]!.map(hex)}`);
    }
  });
  assertEquals(differ.slice(0, 20), []);
  // Where JavaScript's `i` flag folds otherwise: i with İ and ı.
  strictEqual(new RegExp(pyIgnoreCase("gift"), "u").test("G\u0130FT g\u0131ft"), true);
  strictEqual(/gift/iu.test("G\u0130FT g\u0131ft"), false);
  // Regex syntax is literal text.
  strictEqual(new RegExp(`^${pyIgnoreCase("a.b(c)|[d]\\")}$`, "u").test("A.B(C)|[D]\\"), true);
  strictEqual(new RegExp(`^${pyIgnoreCase("a.b")}$`, "u").test("axb"), false);
});
