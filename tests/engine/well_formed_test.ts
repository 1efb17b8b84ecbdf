// Well-formed strings: the native String methods and the fallback for runtimes without them
// agree on seeded random strings dense in surrogate halves.
import { deepStrictEqual as assertEquals, notStrictEqual, strictEqual } from "node:assert/strict";
import { isWellFormed, toWellFormed } from "../../src/engine/mod.ts";

type WellFormed = typeof import("../../src/engine/well_formed.ts");

/** The module loaded again while String.prototype lacks the two methods. */
async function fallback(): Promise<WellFormed> {
  const proto = String.prototype as unknown as Record<string, unknown>;
  const saved = [proto.isWellFormed, proto.toWellFormed];
  delete proto.isWellFormed;
  delete proto.toWellFormed;
  try {
    const url = new URL("../../src/engine/well_formed.ts?fallback", import.meta.url).href;
    return await import(url) as WellFormed;
  } finally {
    proto.isWellFormed = saved[0];
    proto.toWellFormed = saved[1];
  }
}

function randomStrings(n: number): string[] {
  let state = 0x9e3779b9;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
  const units = [0x61, 0xe9, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xd83d, 0xde00, 0xfffd];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = "";
    for (let k = next() % 8; k > 0; k--) s += String.fromCharCode(units[next() % units.length]!);
    out.push(s);
  }
  return out;
}

Deno.test("isWellFormed() and toWellFormed() agree with their fallbacks", async () => {
  const f = await fallback();
  notStrictEqual(f.isWellFormed, isWellFormed); // a second instance of the module
  for (const s of randomStrings(5000)) {
    strictEqual(f.isWellFormed(s), isWellFormed(s), JSON.stringify(s));
    strictEqual(f.toWellFormed(s), toWellFormed(s), JSON.stringify(s));
    strictEqual(isWellFormed(toWellFormed(s)), true);
  }
});

Deno.test("toWellFormed() replaces only lone surrogates", () => {
  assertEquals(
    ["\ud83d\ude00", "\ud83d", "\ude00\ud83d", "x\udc00\ud800y"].map(toWellFormed),
    ["\ud83d\ude00", "\ufffd", "\ufffd\ufffd", "x\ufffd\ufffdy"],
  );
});
