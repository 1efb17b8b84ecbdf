// parseJson(): JSON.parse's value on every runtime. Deno 2.9.6's V8 (15.0) misreads an escaped
// object key as an earlier key of the same shape of object when that key is the escaped key's
// first characters as written (`{"p":1,"\\":1}` then `{"p":1,"\u0041":1}` reads `\`); parseJson
// reads such texts again. The oracle is Node's JSON.parse (V8 11, which has no such misread), on
// seeded texts pretty-printed and compact, with keys that hold backslashes and escapes.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { parseJson } from "../../src/engine/mod.ts";
import { makeRng, randomDouble, type Rng } from "../_corpus.ts";

/** A serialization that keeps what deepStrictEqual and JSON.stringify each miss: -0, key order. */
function show(v: unknown): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v !== "object" || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(show).join(",")}]`;
  return `{${
    Object.keys(v).map((k) => `${JSON.stringify(k)}:${show((v as never)[k])}`).join(",")
  }}`;
}

const UNITS = [
  "a",
  "p",
  " ",
  "\\",
  '"',
  "/",
  "\n",
  "\t",
  "\u0000",
  "\u00e9",
  "A",
  "u",
  "0",
  "\u2028",
];

function randomKey(rng: Rng): string {
  if (rng.chance(0.05)) return "__proto__";
  let k = "";
  for (let i = rng.int(4); i > 0; i--) k += rng.pick(UNITS);
  return k;
}

/** A string literal of `s`, each character written plainly or escaped at random. */
function literal(rng: Rng, s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    const plain = c >= 0x20 && ch !== '"' && ch !== "\\";
    if (plain && !rng.chance(0.3)) out += ch;
    else if (rng.chance(0.5) && JSON.stringify(ch).length === 4) {
      out += JSON.stringify(ch).slice(1, 3);
    } else if (ch === "/" && rng.chance(0.5)) out += "\\/";
    else {out += "\\u" +
        c.toString(16).padStart(4, "0")[rng.chance(0.5) ? "toUpperCase" : "toLowerCase"]();}
  }
  return out + '"';
}

function ws(rng: Rng): string {
  return rng.chance(0.6) ? "" : rng.pick([" ", "\n  ", "\t", "\r\n", "  "]);
}

function randomText(rng: Rng, depth = 0): string {
  const r = rng.int(depth > 3 ? 4 : 6);
  if (r === 0) {
    return rng.pick(["null", "true", "false", "-0", "0", "-0.0", "1E400", "12345678901234567890"]);
  }
  if (r === 1) return randomDouble(rng);
  if (r === 2 || r === 3) return literal(rng, randomKey(rng));
  const items: string[] = [];
  for (let i = rng.int(5); i > 0; i--) {
    const v = randomText(rng, depth + 1);
    items.push(
      r === 4
        ? ws(rng) + v + ws(rng)
        : `${ws(rng)}${literal(rng, randomKey(rng))}${ws(rng)}:${ws(rng)}${v}${ws(rng)}`,
    );
  }
  return r === 4 ? `[${items.join(",")}]` : `{${items.join(",")}}`;
}

Deno.test("parseJson() reads 60,000 seeded texts as Node's JSON.parse does", async () => {
  const rng = makeRng(2026);
  const texts: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    // Pairs of one shape: an object, then one with the same first key and another second key.
    const first = `${ws(rng)}${literal(rng, "p")}:${ws(rng)}${randomText(rng)}`;
    texts.push(`{${first},${literal(rng, randomKey(rng))}:${randomText(rng)}}`);
    texts.push(`{${first},${literal(rng, randomKey(rng))}:${randomText(rng)}}`);
    texts.push(ws(rng) + randomText(rng) + ws(rng));
  }
  const node = new Deno.Command("node", {
    args: [
      "-e",
      `
      const show = ${show.toString()};
      const texts = JSON.parse(require("fs").readFileSync(0, "utf8"));
      process.stdout.write(JSON.stringify(texts.map((t) => show(JSON.parse(t)))));
    `,
    ],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const w = node.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(texts)));
  await w.close();
  const out = await node.output();
  strictEqual(out.code, 0);
  const want = JSON.parse(new TextDecoder().decode(out.stdout)) as string[];
  let misread = 0;
  for (let i = 0; i < texts.length; i++) {
    const got = parseJson(texts[i]!);
    if (show(got) !== show(JSON.parse(texts[i]!))) misread++;
    strictEqual(show(got), want[i], texts[i]);
  }
  console.log(`JSON.parse misread ${misread} of ${texts.length} texts here; parseJson none`);
});

Deno.test("parseJson() reads the escaped key after a key of its raw text, which V8 15 misreads", () => {
  const R = String.raw;
  const cases: [string, string, string[]][] = [
    [R`{"p":1,"\\":1}`, R`{"p":1,"\u0041":2}`, ["p", "A"]],
    [R`{"q":1,"\\":1}`, R`{"q":1,"\n":2}`, ["q", "\n"]],
    [R`{"r":1,"x\\":1}`, R`{"r":1,"x\u00e9":2}`, ["r", "x\u00e9"]],
    [R`{"s":1,"\\/":1}`, R`{"s":1,"\/\"":2}`, ["s", '/"']],
    [
      R`{"t" : 1, "\\" : 1}`,
      R`{ "t": 1,
      "\"": [2] }`,
      ["t", '"'],
    ],
  ];
  for (const [prime, text, keys] of cases) {
    JSON.parse(prime);
    deepStrictEqual(Object.keys(parseJson(text) as object), keys, text);
    deepStrictEqual(Object.keys(parseJson(prime) as object), Object.keys(JSON.parse(prime)));
  }
});

Deno.test("parseJson() reads a text of any depth, as JSON.parse does, when it reads it again", () => {
  // A key with a backslash makes parseJson read the text again with materialize's reader, which
  // recursed per level until 2026-12-05 and ran out of stack where JSON.parse does not.
  const n = 100_000;
  for (
    const text of [
      `{"a\\\\b": 1, "x": ${"[".repeat(n)}7${"]".repeat(n)}}`,
      `{"a\\\\b": ${'{"k": '.repeat(n)}-0.0${"}".repeat(n)}}`,
      `[${'{"\\u0041":'.repeat(n)}"\\\\"${"}".repeat(n)}]`,
    ]
  ) {
    const value = parseJson(text);
    let a: unknown = value;
    let b: unknown = JSON.parse(text);
    let depth = 0;
    // Walk both down the one long branch, comparing each level's keys.
    while (typeof a === "object" && a !== null) {
      const keys = Object.keys(a);
      strictEqual(JSON.stringify(keys), JSON.stringify(Object.keys(b as object)));
      const k = keys.at(-1)!;
      a = (a as Record<string, unknown>)[k];
      b = (b as Record<string, unknown>)[k];
      depth++;
    }
    ok(depth > n, `depth ${depth}`);
    ok(Object.is(a, b), `leaf ${String(a)} and ${String(b)}`);
  }
});
