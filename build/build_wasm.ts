// Builds the Wasm engine from assembly/*.ts with AssemblyScript.
//
//   deno task build:wasm            writes build/assay.wasm, src/engine/wasm_bytes.generated.ts,
//                                   the ABI (src/engine/_abi.generated.ts,
//                                   src/evaluation/_kernel_abi.generated.ts; see build/abi.ts) and
//                                   the decoding module (src/engine/_inflate_wasm.generated.ts)
//   deno task build:wasm --check    builds in memory; exits 1 if either committed file differs
//
// The build is deterministic: the same sources give the same bytes.
import { deflateAsync } from "@gfx/zopfli";
import asc from "assemblyscript/asc";
import { abiFiles } from "./abi.ts";

const ROOT = new URL("../", import.meta.url);
const WASM_PATH = "build/assay.wasm";
const TS_PATH = "src/engine/wasm_bytes.generated.ts";
/** The shipped module's entry. */
export const ENTRY = "assembly/index.ts";
/**
 * The entry of the module the tests compile: the shipped exports plus the ones only tests call
 * (each scoring-kernel rule on one input, the power-of-ten table), kept out of the shipped module.
 */
export const TEST_ENTRY = "assembly/test_entry.ts";
/** The decoding module's entry (assembly/inflate.ts), built alone. */
export const INFLATE_ENTRY = "assembly/inflate.ts";
const INFLATE_TS_PATH = "src/engine/_inflate_wasm.generated.ts";
const ASC_VERSION = "0.28.9";

/**
 * Compiler flags: -O3 with shrink level 1. Against shrink level 0 the module is 12% smaller (36
 * against 41 KB), which keeps the root bundle within its 350,000-byte budget, and `assay score`
 * is 2–5% slower (interleaved runs on one core, 2026-12-04: 0.68 against 0.65 s on the classic
 * 100,000-example corpus, about 2% on the varied one).
 */
export const ASC_FLAGS: readonly string[] = [
  "--runtime",
  "stub",
  "--use",
  "abort=",
  "--enable",
  "simd",
  "--optimizeLevel",
  "3",
  "--shrinkLevel",
  "1",
  "--converge",
  "--noAssert",
];

/**
 * Flags of the decoding module: small rather than fast (it decodes tens of kilobytes, once), and no
 * SIMD, which it does not need.
 */
export const INFLATE_FLAGS: readonly string[] = [
  "--runtime",
  "stub",
  "--use",
  "abort=",
  "--optimizeLevel",
  "3",
  "--shrinkLevel",
  "2",
  "--converge",
  "--noAssert",
];

/** Reads every `assembly/*.ts` file, sorted by name, as `path -> text`. */
export async function readSources(): Promise<Map<string, string>> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(new URL("assembly/", ROOT))) {
    if (entry.isFile && entry.name.endsWith(".ts")) names.push(entry.name);
  }
  names.sort();
  const sources = new Map<string, string>();
  for (const name of names) {
    sources.set(`assembly/${name}`, await Deno.readTextFile(new URL(`assembly/${name}`, ROOT)));
  }
  return sources;
}

/** SHA-256 over the sources: each path, a NUL, its text, a NUL, in path order. */
export async function hashSources(sources: Map<string, string>): Promise<string> {
  let all = "";
  for (const [path, text] of sources) all += path + "\0" + text + "\0";
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(all));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compiles the sources to a Wasm binary with the given flags, from `entry`. */
export async function compile(
  sources: Map<string, string>,
  flags: readonly string[] = ASC_FLAGS,
  entry: string = ENTRY,
): Promise<Uint8Array<ArrayBuffer>> {
  let binary: Uint8Array<ArrayBuffer> | undefined;
  const stderr = asc.createMemoryStream();
  const result = await asc.main([entry, "--outFile", "assay.wasm", ...flags], {
    stdout: asc.createMemoryStream(),
    stderr,
    readFile: (name: string) => sources.get(name.replaceAll("\\", "/")) ?? null,
    writeFile: (name: string, contents: Uint8Array | string) => {
      if (name.endsWith("assay.wasm") && typeof contents !== "string") {
        binary = new Uint8Array(contents);
      }
    },
    listFiles: () => [],
  });
  if (result.error || binary === undefined) {
    throw new Error(`AssemblyScript compilation failed:\n${stderr.toString()}`, {
      cause: result.error ?? undefined,
    });
  }
  const module = new WebAssembly.Module(binary);
  const imports = WebAssembly.Module.imports(module);
  if (imports.length !== 0) {
    throw new Error(
      `The module must have zero imports, found: ${
        imports.map((i) => `${i.module}.${i.name}`).join(", ")
      }`,
    );
  }
  return binary;
}

/**
 * Base85 of `bytes`, four bytes (big-endian, the last group padded with zeros) to five digits, most
 * significant first. Digit d is the character 35 + d, one further on from 92 (`\\`) so that the
 * text needs no escape in a string literal: 20% shorter than base64 in the root bundle.
 */
export function toBase85(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 4) {
    let v = 0;
    for (let k = 0; k < 4; k++) v = v * 256 + (bytes[i + k] ?? 0);
    const group: string[] = [];
    for (let k = 0; k < 5; k++, v = Math.floor(v / 85)) {
      const c = 35 + (v % 85);
      group.unshift(String.fromCharCode(c < 92 ? c : c + 1));
    }
    s += group.join("");
  }
  return s;
}

/**
 * Raw DEFLATE of the module by Zopfli (15 iterations, block splitting; deterministic). On the
 * module it is about 1,000 bytes smaller than zlib's best level (17,941 against 16,918), and the
 * inlined module counts against the root bundle's budget; it takes about a second.
 */
export async function deflateModule(bytes: Uint8Array): Promise<Uint8Array> {
  return await deflateAsync(bytes, { numiterations: 15 });
}

/**
 * The text of src/engine/wasm_bytes.generated.ts for a binary built from sources with `hash`: the
 * module's bytes compressed with raw DEFLATE (half the size in a bundle) and written in base85
 * ({@linkcode toBase85}), decoded and inflated on first use.
 */
export async function generatedModule(binary: Uint8Array, hash: string): Promise<string> {
  const deflated = await deflateModule(binary);
  return `// @generated by build/build_wasm.ts — do not edit
// Source: assembly/*.ts, SHA-256 ${hash}
// Compiler: assemblyscript ${ASC_VERSION} ${ASC_FLAGS.join(" ")}
// Module: ${binary.length} bytes, zero imports; inlined as ${deflated.length} bytes of raw DEFLATE
import { inflateBase85 } from "./_inflate.ts";

/** SHA-256 of the AssemblyScript sources this module was built from. */
export const WASM_SOURCE_SHA256 = "${hash}";

/** Length of the module in bytes. */
export const WASM_BYTE_LENGTH = ${binary.length};

// Base85: five digits, most significant first, to four bytes; digit d is character 35 + d, and
// one further on from 92 (a backslash).
const DEFLATED_BASE85 =
  "${toBase85(deflated)}";

let bytes: Uint8Array<ArrayBuffer> | undefined;

/** The bytes of build/assay.wasm (decoded and inflated on the first call). */
export function wasmBytes(): Uint8Array<ArrayBuffer> {
  return bytes ??= inflateBase85(DEFLATED_BASE85, WASM_BYTE_LENGTH);
}
`;
}

/** The text of src/engine/_inflate_wasm.generated.ts: the decoding module's bytes in base64. */
export function generatedInflater(binary: Uint8Array, hash: string): string {
  let text = "";
  for (const b of binary) text += String.fromCharCode(b);
  return `// @generated by build/build_wasm.ts — do not edit
// Source: assembly/inflate.ts, of the sources with SHA-256 ${hash}
// Compiler: assemblyscript ${ASC_VERSION} ${INFLATE_FLAGS.join(" ")}
// Module: ${binary.length} bytes, zero imports

/** The decoding module (assembly/inflate.ts), base64. */
export const INFLATE_WASM_BASE64 =
  "${btoa(text)}";
`;
}

async function readOrEmpty(path: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(new URL(path, ROOT));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return new Uint8Array(0);
    throw e;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function main(args: string[]): Promise<number> {
  const check = args.includes("--check");
  const sources = await readSources();
  const hash = await hashSources(sources);
  const binary = await compile(sources);
  const ts = new TextEncoder().encode(await generatedModule(binary, hash));
  const inflater = await compile(sources, INFLATE_FLAGS, INFLATE_ENTRY);
  const others = [
    ...abiFiles(sources, hash),
    { path: INFLATE_TS_PATH, text: generatedInflater(inflater, hash) },
  ].map((f) => ({ path: f.path, bytes: new TextEncoder().encode(f.text) }));
  if (check) {
    const stale: string[] = [];
    if (!sameBytes(await readOrEmpty(WASM_PATH), binary)) stale.push(WASM_PATH);
    if (!sameBytes(await readOrEmpty(TS_PATH), ts)) stale.push(TS_PATH);
    for (const f of others) if (!sameBytes(await readOrEmpty(f.path), f.bytes)) stale.push(f.path);
    if (stale.length > 0) {
      console.error(
        `The committed Wasm artifacts are stale: ${stale.join(", ")}. Run \`deno task build:wasm\``,
      );
      return 1;
    }
    console.log(
      `Wasm artifacts are up to date (${binary.length} bytes, sources ${hash.slice(0, 12)})`,
    );
    return 0;
  }
  await Deno.writeFile(new URL(WASM_PATH, ROOT), binary);
  await Deno.writeFile(new URL(TS_PATH, ROOT), ts);
  for (const f of others) await Deno.writeFile(new URL(f.path, ROOT), f.bytes);
  console.log(
    `Wrote ${WASM_PATH} (${binary.length} bytes), ${TS_PATH} and ${
      others.map((f) => f.path).join(", ")
    } (sources ${hash.slice(0, 12)})`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
