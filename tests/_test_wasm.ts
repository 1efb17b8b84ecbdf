// The Wasm module the tests compile from assembly/test_entry.ts: the shipped module's exports plus
// the entry points only tests call (the scoring kernel's rules one input at a time, the
// power-of-ten table). Compiled once per test process, with the shipped module's flags.
import { compile, readSources, TEST_ENTRY } from "../build/build_wasm.ts";
import { ASC_FLAGS } from "../build/build_wasm.ts";

let module: Promise<WebAssembly.Module> | undefined;

/** The test module, compiled on first use. */
export function testWasmModule(): Promise<WebAssembly.Module> {
  module ??=
    (async () =>
      new WebAssembly.Module(await compile(await readSources(), ASC_FLAGS, TEST_ENTRY)))();
  return module;
}
