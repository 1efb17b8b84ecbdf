// The multi-buffer SHA-256 of the Wasm module (assembly/sha256_x4.ts) against node:crypto, on
// seeded random messages in batches of every size from 1 to 40.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { createHash } from "node:crypto";
import { makeRng, type Rng } from "../_corpus.ts";
import { testWasmModule } from "../_test_wasm.ts";

interface Sha256Exports {
  memory: WebAssembly.Memory;
  sha256Many(count: number, table: number, out: number): void;
  sha256EqualsMany(count: number, table: number): number;
}

/** The test module (the exports are test entry points: the kernel calls them inside). */
const MODULE = await testWasmModule();

function instantiate(): Sha256Exports {
  return new WebAssembly.Instance(MODULE, {}).exports as unknown as Sha256Exports;
}

/** Memory above the module's own: nothing in it is used by the two exports. */
function scratch(ex: Sha256Exports, bytes: number): number {
  const base = ex.memory.buffer.byteLength;
  ex.memory.grow(Math.ceil(bytes / 65536));
  return base;
}

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash("sha256").update(bytes).digest());

/** Lengths around the padding's edges: 55 and 56 (one final block or two), 63, 64, 65 … */
const EDGES: number[] = [];
for (let k = 0; k * 64 <= 2000 + 9; k++) {
  for (const d of [-9, -8, -7, -1, 0, 1]) {
    const n = 64 * k + d;
    if (n >= 0 && n <= 2000) EDGES.push(n);
  }
}

function randomLength(rng: Rng): number {
  const r = rng.int(10);
  if (r < 4) return rng.pick(EDGES);
  if (r < 6) return rng.int(300); // prompt-sized
  return rng.int(2001);
}

const MAX_BATCH = 40;
const MAX_LENGTH = 2000;

Deno.test("sha256Many gives node:crypto's digests for 100,000 messages in batches of 1 to 40", () => {
  const ex = instantiate();
  // The batch's messages back to back (so the byte after one is the next one's), then the table
  // and the digests.
  const data = scratch(ex, MAX_BATCH * MAX_LENGTH + MAX_BATCH * 8 + MAX_BATCH * 32 + 64);
  const table = data + MAX_BATCH * MAX_LENGTH;
  const out = table + MAX_BATCH * 8;
  const rng = makeRng(20240611);
  let messages = 0;
  let edges = 0;
  let bytesHashed = 0;
  for (let round = 0; messages < 100_000; round++) {
    for (let size = 1; size <= MAX_BATCH; size++) {
      const mem = new Uint8Array(ex.memory.buffer);
      const view = new DataView(ex.memory.buffer);
      const batch: Uint8Array[] = [];
      // An odd offset now and then: messages start anywhere.
      let at = data + rng.int(4);
      for (let k = 0; k < size; k++) {
        const n = randomLength(rng);
        if (EDGES.includes(n)) edges++;
        const msg = mem.subarray(at, at + n);
        for (let i = 0; i < n; i++) msg[i] = rng.next() & 0xff;
        batch.push(msg.slice());
        view.setUint32(table + 8 * k, at, true);
        view.setUint32(table + 8 * k + 4, n, true);
        at += n;
        bytesHashed += n;
      }
      mem.fill(0, out, out + 32 * size);
      ex.sha256Many(size, table, out);
      for (let k = 0; k < size; k++) {
        const got = new Uint8Array(ex.memory.buffer, out + 32 * k, 32);
        const want = sha256(batch[k]!);
        if (!got.every((b, i) => b === want[i])) {
          deepStrictEqual(
            Array.from(got),
            Array.from(want),
            `round ${round}, batch of ${size}, message ${k} of ${batch[k]!.length} bytes`,
          );
        }
      }
      messages += size;
    }
  }
  strictEqual(messages >= 100_000 && edges >= 30_000 && bytesHashed > 50_000_000, true);
});

Deno.test("sha256Many reads no byte past a message's end (the last one ends with memory)", () => {
  const ex = instantiate();
  const base = scratch(ex, 65536);
  const end = ex.memory.buffer.byteLength;
  const rng = makeRng(7);
  for (const n of [0, 1, 15, 16, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 1000]) {
    for (const size of [1, 2, 4, 5]) {
      // Message `last` of the batch ends at the last byte of memory; the others sit below.
      const view = new DataView(ex.memory.buffer);
      const mem = new Uint8Array(ex.memory.buffer);
      const table = base;
      const out = base + 8 * size;
      const others = out + 32 * size;
      const last = rng.int(size);
      const want: Uint8Array[] = [];
      for (let k = 0; k < size; k++) {
        const len = k === last ? n : rng.int(200);
        const at = k === last ? end - n : others + 256 * k;
        for (let i = 0; i < len; i++) mem[at + i] = rng.next() & 0xff;
        view.setUint32(table + 8 * k, at, true);
        view.setUint32(table + 8 * k + 4, len, true);
        want.push(sha256(mem.slice(at, at + len)));
      }
      ex.sha256Many(size, table, out);
      for (let k = 0; k < size; k++) {
        deepStrictEqual(
          Array.from(new Uint8Array(ex.memory.buffer, out + 32 * k, 32)),
          Array.from(want[k]!),
          `${n} bytes at the end, batch of ${size}, message ${k}`,
        );
      }
    }
  }
});

Deno.test("sha256EqualsMany marks each message equal or not to its digest, in batches of 1 to 40", () => {
  const ex = instantiate();
  const data = scratch(ex, MAX_BATCH * (MAX_LENGTH + 32 + 16) + 64);
  const digests = data + MAX_BATCH * MAX_LENGTH;
  const table = digests + MAX_BATCH * 32;
  const rng = makeRng(99);
  let checked = 0;
  let wrong = 0;
  for (let round = 0; round < 25; round++) {
    for (let size = 1; size <= MAX_BATCH; size++) {
      const mem = new Uint8Array(ex.memory.buffer);
      const view = new DataView(ex.memory.buffer);
      const equal: boolean[] = [];
      let at = data;
      for (let k = 0; k < size; k++) {
        const n = randomLength(rng);
        for (let i = 0; i < n; i++) mem[at + i] = rng.next() & 0xff;
        const d = sha256(mem.slice(at, at + n));
        // One digest in four has one bit flipped, anywhere in its 32 bytes.
        const same = !rng.chance(0.25);
        if (!same) d[rng.int(32)]! ^= 1 << rng.int(8);
        mem.set(d, digests + 32 * k);
        view.setUint32(table + 16 * k, at, true);
        view.setUint32(table + 16 * k + 4, n, true);
        view.setUint32(table + 16 * k + 8, digests + 32 * k, true);
        view.setUint32(table + 16 * k + 12, 7, true);
        equal.push(same);
        at += n;
      }
      const unequal = ex.sha256EqualsMany(size, table);
      const marks = Array.from(
        { length: size },
        (_, k) => view.getUint32(table + 16 * k + 12, true),
      );
      deepStrictEqual(marks, equal.map((e) => (e ? 1 : 0)), `round ${round}, batch of ${size}`);
      strictEqual(unequal, equal.filter((e) => !e).length);
      checked += size;
      wrong += size - equal.filter((e) => e).length;
    }
  }
  strictEqual(checked, 25 * 820);
  strictEqual(wrong > 4000, true);
});
