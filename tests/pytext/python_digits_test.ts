// Python's decimal digits and alphanumerics with CPython 3.11's Unicode (14.0) on every runtime,
// against CPython itself (Debian's python3), for every code point: unicodedata.decimal(), and the
// classes that stand for re's `\d` (str.isdecimal()) and `\w` (str.isalnum(), with `_`). The host's
// `\p{Nd}` and `\p{L}` are newer, and not the same on every runtime.
//
// Needs --allow-run (python3).
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";
import { alnum14, decimal14, pyDecimalValue } from "../../src/pytext/mod.ts";
import { PYTHON } from "../_debian_python.ts";

Deno.test("pyDecimalValue(), decimal14() and alnum14() agree with CPython 3.11 on every code point", async () => {
  const out = await new Deno.Command(PYTHON, {
    args: [
      "-c",
      `
import json, unicodedata
assert unicodedata.unidata_version == "14.0.0"
decimal = {cp: unicodedata.decimal(chr(cp)) for cp in range(0x110000) if chr(cp).isdecimal()}
alnum = [cp for cp in range(0x110000) if chr(cp).isalnum()]
print(json.dumps({"decimal": decimal, "alnum": alnum}))
`,
    ],
  }).output();
  strictEqual(out.success, true, new TextDecoder().decode(out.stderr));
  const want: { decimal: Record<string, number>; alnum: number[] } = JSON.parse(
    new TextDecoder().decode(out.stdout),
  );
  const decimal = new RegExp(`^${decimal14()}$`, "u");
  const alnum = new RegExp(`^${alnum14()}$`, "u");
  const alnums = new Set(want.alnum);
  const wrong: string[] = [];
  for (let cp = 0; cp < 0x110000; cp++) {
    const ch = String.fromCodePoint(cp);
    const value = want.decimal[cp] ?? -1;
    if (pyDecimalValue(cp) !== value) wrong.push(`value of U+${cp.toString(16)}`);
    if (decimal.test(ch) !== value >= 0) wrong.push(`\\d of U+${cp.toString(16)}`);
    if (alnum.test(ch) !== alnums.has(cp)) wrong.push(`\\w of U+${cp.toString(16)}`);
  }
  assertEquals(wrong.slice(0, 10), []);
  // Unicode 14.0 has 660 decimal digits (the host may know more: Kawi's, since 15.0, are none).
  strictEqual(Object.keys(want.decimal).length, 660);
});
