// The pythonic decoder refuses a decimal integer literal of more than 4,300 digits as CPython 3.11's
// ast.parse does (a SyntaxError: "Exceeds the limit (4300 digits) for integer string conversion"),
// and reads every other integer literal as it does, checked against /usr/bin/python3 on seeded
// literals around the limit: 4,299 to 4,302 digits, signs, underscores, zeros, and the hex, octal
// and binary literals the limit does not apply to (whose value json.dumps still cannot write past
// 4,300 decimal digits).
//
// Needs --allow-run (python3) and --allow-read.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { getDecoder } from "../../src/formats/mod.ts";
import { decodePromptResult } from "../../src/bfcl/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";
import { runLineOracle } from "../_debian_python.ts";

const ORACLE = new URL("./_pythonic_int_oracle.py", import.meta.url).pathname;
const pythonic = getDecoder("pythonic");

/** `n` digits of `alphabet`, the first not 0 unless `zeros`, with underscores between some. */
function digits(rng: Rng, n: number, alphabet: string, underscores: boolean, zeros = false) {
  let s = "";
  for (let i = 0; i < n; i++) {
    const d = zeros
      ? "0"
      : alphabet[i === 0 ? 1 + rng.int(alphabet.length - 1) : rng.int(alphabet.length)];
    if (i > 0 && underscores && rng.chance(0.1)) s += "_";
    s += d;
  }
  return s;
}

/** Seeded literals around the limit, in every form the decoder reads as an integer. */
function literals(rng: Rng): string[] {
  const out: string[] = [];
  const sign = () => rng.pick(["", "", "-", "+"]);
  for (let k = 0; k < 240; k++) {
    const n = rng.pick([4299, 4300, 4301, 4302, 4299, 4300, 4301, 1, 30, 5000]);
    out.push(sign() + digits(rng, n, "0123456789", rng.chance(0.4)));
  }
  for (let k = 0; k < 20; k++) {
    out.push(sign() + digits(rng, rng.pick([4300, 4301, 6000]), "0", rng.chance(0.5), true));
  }
  // Hex, octal and binary near 10^4300: 3,571, 4,762 and 14,284 digits.
  for (
    const [prefix, alphabet, around] of [
      ["0x", "0123456789abcdefABCDEF", 3571],
      ["0o", "01234567", 4762],
      ["0b", "01", 14284],
    ] as const
  ) {
    for (let k = 0; k < 30; k++) {
      const n = around - 3 + rng.int(7);
      out.push(
        sign() + rng.pick([prefix, prefix.toUpperCase()]) +
          (rng.chance(0.3) ? "_" : "") + digits(rng, n, alphabet, rng.chance(0.3)),
      );
    }
  }
  // Not integers: a float and an imaginary number of as many digits.
  for (let k = 0; k < 10; k++) {
    const d = digits(rng, rng.pick([4301, 5000]), "0123456789", rng.chance(0.3));
    out.push(sign() + d + rng.pick([".0", "e0", "j", "."]));
  }
  return out;
}

Deno.test("the pythonic decoder reads integer literals around Python's 4,300 digits as CPython does", async () => {
  const texts = literals(makeRng(43004301)).map((lit) => `[f(a=${lit})]`);
  const python = (await runLineOracle([ORACLE], texts.map((t) => JSON.stringify(t))))
    .map((line) => JSON.parse(line) as [string, string]);
  strictEqual(python.length, texts.length);
  const seen = new Map<string, number>();
  texts.forEach((text, i) => {
    const [status, what] = python[i]!;
    const got = pythonic.decode(text);
    const where = `${text.slice(0, 40)}… (${text.length} characters)`;
    strictEqual(got.status, status, `${where}: ${got.reason ?? ""} / Python: ${what}`);
    // Python's message, whole, for its refusal of a long decimal integer.
    if (status === "invalid_syntax") strictEqual(got.reason, what, where);
    if (status === "ok" && /^\{"a":-?\d+\}$/.test(what)) {
      deepStrictEqual(got.calls, [{ name: "f", arguments: what }], where);
    }
    const kind = status === "invalid_syntax" ? "refused" : status;
    seen.set(kind, (seen.get(kind) ?? 0) + 1);
  });
  // Each outcome is met many times.
  for (const kind of ["ok", "refused", "invalid_shape"]) {
    ok((seen.get(kind) ?? 0) > 30, `${kind}: ${seen.get(kind)} of ${texts.length}`);
  }
});

Deno.test("a decimal integer over 4,300 digits is Python's SyntaxError, in the decoder and for BFCL", () => {
  const message = "Exceeds the limit (4300 digits) for integer string conversion: value has 4301 " +
    "digits; use sys.set_int_max_str_digits() to increase the limit - Consider hexadecimal for " +
    "huge integer literals to avoid decimal conversion limits.";
  const long = "9".repeat(4301);
  deepStrictEqual(pythonic.decode(`[f(a=-${long})]`), {
    status: "invalid_syntax",
    reason: message,
    calls: [],
  });
  // 4,300 digits, and 4,301 with an underscore among them, are read.
  strictEqual(pythonic.decode(`[f(a=${long.slice(1)})]`).status, "ok");
  strictEqual(pythonic.decode(`[f(a=${long.slice(0, 2000)}_${long.slice(2000)})]`).reason, message);
  // BFCL's prompting decoders read the same parser: ast.parse fails, so relevance passes.
  deepStrictEqual(decodePromptResult(`[f(a=${long})]`, "gpt"), { ok: false, reason: message });
});
