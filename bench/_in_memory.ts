// The Wasm engine's kernels alone, with the input already in linear memory as UTF-8 bytes: what
// span extraction and canonicalization cost without the JS side's encoding of strings and decoding
// of results (bench/report.ts prints these beside the string-input figures of engine_bench.ts).
//
// One instance of the module, the text written once; each timed call is `run(mode)` on it. The
// figure is the best of `reps` calls after warm-up calls (a shared machine only ever slows a call
// down), as MB/s of input bytes.
import {
  HEADER_INPUT,
  HEADER_LENGTHS,
  HEADER_OFFSETS,
  MODE_CANONICAL,
  MODE_SPANS,
} from "../src/engine/_abi.generated.ts";
import { wasmBytes } from "../src/engine/wasm_bytes.generated.ts";
import { jsonDocument } from "./_inputs.ts";

interface RawExports {
  memory: WebAssembly.Memory;
  prepare(count: number, inputCap: number): number;
  run(mode: number): void;
}

/** One in-memory measurement. */
export interface InMemoryResult {
  case: string;
  bytes: number;
  mbPerS: number;
}

/** A 1 MB array of floats of every magnitude, as JS prints them (mostly 16–17 digits). */
function floatDocument(bytes: number): string {
  let s = "[";
  let x = 1;
  for (let i = 0; s.length < bytes - 32; i++) {
    x = (x * 16807) % 2147483647;
    s += (i > 0 ? "," : "") + String((x / 2147483647) * 10 ** ((x % 40) - 20));
  }
  return s + "]";
}

/** A 1 MB object of non-ASCII keys and strings (written as \uXXXX in canonical text). */
function unicodeDocument(bytes: number): string {
  const words = ["東京", "café", "Привет", "مرحبا", "नमस्ते", "😀", "naïve"];
  const parts: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes - 64; i++) {
    const p = `"${words[i % words.length]}${i}": "${words[(i * 3) % words.length]} ${i}"`;
    parts.push(p);
    size += new TextEncoder().encode(p).length + 2;
  }
  return "{" + parts.join(", ") + "}";
}

function timeRun(ex: RawExports, bytes: Uint8Array, mode: number, reps: number): number {
  const header = ex.prepare(1, bytes.length) >>> 2;
  const words = new Uint32Array(ex.memory.buffer);
  const offsets = words[header + HEADER_OFFSETS]! >>> 2;
  const lengths = words[header + HEADER_LENGTHS]! >>> 2;
  const input = words[header + HEADER_INPUT]!;
  new Uint8Array(ex.memory.buffer, input, bytes.length).set(bytes);
  words[offsets] = 0;
  words[offsets + 1] = bytes.length;
  words[lengths] = bytes.length; // UTF-16 length: only error offsets use it
  let best = Infinity;
  for (let r = 0; r < reps + 5; r++) {
    const t = performance.now();
    ex.run(mode);
    const d = performance.now() - t;
    if (r >= 5) best = Math.min(best, d);
  }
  return best;
}

/** Span extraction and canonicalization of 1 MB documents, the input in linear memory. */
export function inMemoryResults(reps = 30): InMemoryResult[] {
  const module = new WebAssembly.Module(wasmBytes());
  const encoder = new TextEncoder();
  const docs: [string, Uint8Array][] = [
    ["records", encoder.encode(jsonDocument(1 << 20))],
    ["floats", encoder.encode(floatDocument(1 << 20))],
    ["non-ASCII", encoder.encode(unicodeDocument(1 << 20))],
  ];
  const out: InMemoryResult[] = [];
  for (const [name, bytes] of docs) {
    for (const [label, mode] of [["span", MODE_SPANS], ["canonical", MODE_CANONICAL]] as const) {
      // A fresh instance per case, so that one case's memory layout does not favour another.
      const ex = new WebAssembly.Instance(module, {}).exports as unknown as RawExports;
      const ms = timeRun(ex, bytes, mode, reps);
      out.push({
        case: `${label} 1MB ${name}`,
        bytes: bytes.length,
        mbPerS: bytes.length / 1e3 / ms,
      });
    }
  }
  return out;
}
