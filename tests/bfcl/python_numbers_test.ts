// Python number literals read by hand, not by a backtracking regex: V8 ran `\d(?:_?\d)*` with a
// stack that a run of some 8.4 million digits overflowed (RangeError: Maximum call stack size
// exceeded), so one long number in a model's output aborted a whole scoring run. The scanners
// must accept exactly the language of the regexes they replace (checked here on seeded random
// strings), and a 9-million-digit number of every form is now a verdict, never a crash.
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { decodePromptResult, parsePythonExpression } from "../../src/bfcl/mod.ts";
import { getDecoder } from "../../src/formats/mod.ts";
import { numberEnd } from "../../src/bfcl/_python_tokens.ts";
import { pyFloatOf, pyIntOf, pyStrip } from "../../src/bfcl/_python_text.ts";
import { makeRng } from "../_corpus.ts";

// The regexes the scanners replace, as they were.
const DIG = "\\d(?:_?\\d)*";
const NUMBER = new RegExp(
  `^(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|` +
    `(?:(?:${DIG})?\\.${DIG}|${DIG}\\.?)(?:[eE][+-]?${DIG})?[jJ]?)`,
);
const INT = /^[+-]?\d(?:_?\d)*$/;
const FLOAT = new RegExp(`^[+-]?(?:(?:${DIG})?\\.${DIG}|${DIG}\\.?)(?:[eE][+-]?${DIG})?$`);

Deno.test("the number scanners accept exactly the old regexes' language (20,000 seeded strings)", () => {
  const rng = makeRng(20260711);
  const alphabet = "0123456789_.eE+-jJxXoObBaf9 ";
  for (let k = 0; k < 20_000; k++) {
    const len = 1 + rng.int(10);
    let s = "";
    for (let i = 0; i < len; i++) s += alphabet[rng.int(alphabet.length)];
    const lead = rng.pick(["", "0", "1", ".", "0x", "0o", "0b", "+", "-"]);
    const t = lead + s;
    if (/\d/.test(t[0] ?? "") || (t[0] === "." && /\d/.test(t[1] ?? ""))) {
      strictEqual(numberEnd(t, 0), NUMBER.exec(t)![0].length, t);
    }
    strictEqual(pyIntOf(t) !== undefined, INT.test(pyStrip(t)), t);
    strictEqual(pyFloatOf(t) !== undefined, FLOAT.test(pyStrip(t)), t);
  }
});

Deno.test("a 9-million-digit number of each form is read, not a stack overflow", () => {
  const n = 9_000_000;
  const ones = "1".repeat(n);
  // The BFCL reader: every form is read (the scanners, like the regexes before them, set no limit
  // on digits); a decimal integer is then refused as CPython's parser refuses one of more than
  // 4,300 digits, and every other form is a valid expression.
  const limit = (digits: number) =>
    `Exceeds the limit (4300 digits) for integer string conversion: value has ${digits} digits; ` +
    "use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for huge " +
    "integer literals to avoid decimal conversion limits.";
  for (const text of [ones, `${"1_".repeat(n / 2)}1`]) {
    const r = parsePythonExpression(`[f(a=${text})]`);
    strictEqual(r.ok ? "ok" : r.reason, limit(text === ones ? n : n / 2 + 1));
  }
  const forms: [string, string][] = [
    ["float", `1.${ones}`],
    ["leading dot", `.${ones}`],
    ["exponent", `1e${ones}`],
    ["imaginary", `${ones}j`],
    ["hex", `0x${"f".repeat(n)}`],
    ["octal", `0o${"7".repeat(n)}`],
    ["binary", `0b${"1".repeat(n)}`],
    ["hex underscores", `0x${"f_".repeat(n / 2)}f`],
  ];
  for (const [form, text] of forms) {
    const r = parsePythonExpression(`[f(a=${text})]`);
    strictEqual(r.ok ? "ok" : r.reason, "ok", form);
  }
  // A trailing underscore is Python's invalid decimal literal, as for a short number.
  const bad = parsePythonExpression(`${ones}_`);
  strictEqual(bad.ok ? "ok" : bad.reason, "invalid decimal literal at 0");
  const pythonic = getDecoder("pythonic");
  assertEquals(pythonic.decode(`[f(a=1.${ones})]`), {
    status: "ok",
    calls: [{ name: "f", arguments: '{"a":1.1111111111111112}' }],
  });
  // A decimal integer past 4,300 digits is Python's SyntaxError; a hex one is read, and its value,
  // past 4,300 decimal digits, has no JSON form.
  assertEquals(pythonic.decode(`[f(a=${ones})]`), {
    status: "invalid_syntax",
    reason: limit(n),
    calls: [],
  });
  const hex = pythonic.decode(`[f(a=0x${"f".repeat(n)})]`);
  strictEqual(hex.status, "invalid_shape");
  strictEqual(
    hex.reason,
    "call 0 (f)'s argument a is an int of more than 4300 decimal digits, not a literal JSON can hold",
  );
  // BFCL's converters scan a string that long: int(s) refuses it (ValueError: past 4,300
  // digits), float(s) reads it.
  strictEqual(pyIntOf(ones), undefined);
  strictEqual(pyIntOf(`${"1_".repeat(n / 2)}1`), undefined);
  strictEqual(pyFloatOf(ones)?.value, Infinity);
  strictEqual(pyFloatOf(`1.${ones}`)?.value, 1.1111111111111112);
  strictEqual(decodePromptResult(`[f(a=1.${ones})]`, "gpt").ok, true);
});

Deno.test("str.strip() reads a long inner run of spaces once (it was quadratic)", () => {
  const s = `a${" ".repeat(1_000_000)}b`;
  strictEqual(pyStrip(` \t${s}\u3000\n`), s);
  strictEqual(pyStrip(" \t\n"), "");
});
