// inflateRaw(): the module's inlined bytes are raw DEFLATE; the decoder (assembly/inflate.ts) must
// give what the build's compressor (Zopfli), zlib at level 9 and CompressionStream("deflate-raw")
// compressed, for stored, fixed-code and dynamic-code blocks; inflateBase85() the same from the
// build's base85.
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { inflateBase85, inflateRaw } from "../../src/engine/_inflate.ts";
import { deflateRawSync } from "node:zlib";
import { deflateModule, toBase85 } from "../../build/build_wasm.ts";
import { makeRng } from "../_corpus.ts";

/** Raw DEFLATE as CompressionStream writes it (zlib's default level). */
async function streamDeflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new CompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const deflateRaw = (d: Uint8Array) => new Uint8Array(deflateRawSync(d, { level: 9 }));

Deno.test("inflateRaw() gives back what each compressor compressed, on 600 seeded inputs", async () => {
  const rng = makeRng(20261202);
  for (let t = 0; t < 600; t++) {
    // Short inputs (fixed codes), random bytes (stored blocks), text and repeats (dynamic codes).
    const len = rng.int(rng.chance(0.3) ? 200_000 : 2_000);
    const kind = t % 4;
    const d = new Uint8Array(len);
    for (let i = 0; i < len; i++) {
      d[i] = kind === 0
        ? rng.int(256)
        : kind === 1
        ? 97 + rng.int(4)
        : kind === 2
        ? i % 251
        : rng.chance(0.1)
        ? rng.int(256)
        : d[Math.max(0, i - 1 - rng.int(300))]!;
    }
    const what = `input ${t} (${len} bytes, kind ${kind})`;
    assertEquals(inflateRaw(deflateRaw(d)), d, `${what}, zlib level 9`);
    assertEquals(inflateRaw(await streamDeflate(d)), d, `${what}, CompressionStream`);
    // Zopfli is slow: every tenth input of up to 2,000 bytes.
    if (t % 10 === 0 && len <= 2_000) {
      assertEquals(inflateRaw(await deflateModule(d)), d, `${what}, Zopfli`);
    }
  }
});

Deno.test("inflateRaw() refuses truncated and corrupt data", () => {
  const d = new TextEncoder().encode("assay ".repeat(500));
  const c = deflateRaw(d);
  throws(() => inflateRaw(c.subarray(0, c.length >> 1)), RangeError);
  throws(() => inflateRaw(Uint8Array.of(0x07)), /block of type 3/); // last block, type 3
  throws(() => inflateRaw(Uint8Array.of(0x01, 0x05, 0x00, 0x00, 0x00)), /length check/);
  throws(() => inflateRaw(new Uint8Array(0)), RangeError);
});

Deno.test("inflateBase85() decodes the build's base85 and refuses output past its size", () => {
  const rng = makeRng(20261206);
  for (let t = 0; t < 50; t++) {
    const d = new Uint8Array(rng.int(5_000));
    for (let i = 0; i < d.length; i++) d[i] = rng.chance(0.5) ? 97 + rng.int(3) : rng.int(256);
    const text = toBase85(deflateRaw(d));
    assertEquals(inflateBase85(text, d.length), d, `input ${t} (${d.length} bytes)`);
    if (d.length > 0) throws(() => inflateBase85(text, d.length - 1), /more than/);
  }
});
