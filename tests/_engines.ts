// The engines every contract test runs on. The wasm engine is required: a test run
// without it fails, unless ASSAY_ALLOW_NO_WASM=1 says that is intended.
import { createEngine, type Engine } from "../mod.ts";

function wasmEngine(): Engine | undefined {
  try {
    return createEngine({ engine: "wasm" });
  } catch (e) {
    if (Deno.env.get("ASSAY_ALLOW_NO_WASM") === "1") return undefined;
    throw new Error("The wasm engine is unavailable; set ASSAY_ALLOW_NO_WASM=1 to test ts alone", {
      cause: e,
    });
  }
}

/** The engines under test: always `ts`, and `wasm`. */
export const ENGINES: Engine[] = [createEngine({ engine: "ts" }), wasmEngine()].filter(
  (e): e is Engine => e !== undefined,
);
