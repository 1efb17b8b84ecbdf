// The pure-TS SHA-256 (src/engine/sha256.ts) against node:crypto, on seeded random messages:
// strings of every kind of UTF-16 (lone surrogates included, which TextEncoder writes as U+FFFD)
// at lengths around the padding's edges, on both sides of sha256Hex's scratch limit, bytes, and
// the incremental hash fed in random chunks.
import { strictEqual } from "node:assert/strict";
import { createHash } from "node:crypto";
import { Sha256, sha256Hex } from "../../src/engine/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";

const oracle = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const encoder = new TextEncoder();

/** Lengths around the padding's edges (55 and 56, 63, 64 …) and sha256Hex's scratch limit. */
const EDGES: number[] = [];
for (let k = 0; k <= 40; k++) {
  for (const d of [-9, -8, -7, -1, 0, 1]) if (64 * k + d >= 0) EDGES.push(64 * k + d);
}
EDGES.push(16383, 16384, 16385, 21845, 21846, 65536);

function randomLength(rng: Rng): number {
  const r = rng.int(10);
  if (r < 5) return rng.pick(EDGES);
  if (r < 8) return rng.int(400);
  return rng.int(30000);
}

const UNITS = [
  () => 0x20,
  () => 0x7f,
  () => 0xe9, // two bytes
  () => 0x4f8b, // three bytes
  () => 0xd83d, // a high surrogate: paired or lone, depending on what follows
  () => 0xde00, // a low surrogate
  () => 0xfffd,
];

function randomString(rng: Rng, n: number): string {
  const kind = rng.int(3); // ASCII only, mostly ASCII, anything
  const units = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    if (kind === 0 || (kind === 1 && !rng.chance(0.05))) units[i] = 0x20 + rng.int(95);
    else units[i] = rng.chance(0.5) ? rng.pick(UNITS)() : rng.int(0x10000);
  }
  let s = "";
  for (let i = 0; i < n; i += 4096) s += String.fromCharCode(...units.slice(i, i + 4096));
  return s;
}

Deno.test("sha256Hex gives node:crypto's digest of the UTF-8 of 3,000 seeded strings", () => {
  const rng = makeRng(256);
  for (let t = 0; t < 3000; t++) {
    const s = randomString(rng, randomLength(rng));
    strictEqual(sha256Hex(s), oracle(encoder.encode(s)), `string ${t} of length ${s.length}`);
  }
});

Deno.test("sha256Hex and Sha256 in random chunks give node:crypto's digest of 2,000 byte arrays", () => {
  const rng = makeRng(257);
  for (let t = 0; t < 2000; t++) {
    const bytes = new Uint8Array(randomLength(rng));
    for (let i = 0; i < bytes.length; i++) bytes[i] = rng.int(256);
    const want = oracle(bytes);
    strictEqual(sha256Hex(bytes), want, `bytes ${t} of length ${bytes.length}`);
    const h = new Sha256();
    for (let p = 0; p < bytes.length;) {
      const q = Math.min(bytes.length, p + rng.pick([0, 1, 55, 63, 64, 65, rng.int(2000)]));
      h.update(bytes.subarray(p, q));
      p = q;
    }
    strictEqual(h.digest(), want, `chunked bytes ${t} of length ${bytes.length}`);
  }
});

Deno.test("a digest in the middle of another leaves it whole", () => {
  const h = new Sha256();
  h.update(encoder.encode("a".repeat(100)));
  strictEqual(sha256Hex("x".repeat(70)), oracle(encoder.encode("x".repeat(70))));
  h.update(encoder.encode("b".repeat(30)));
  strictEqual(h.digest(), oracle(encoder.encode("a".repeat(100) + "b".repeat(30))));
});
