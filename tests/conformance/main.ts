// Entry point of the conformance run on Deno, Node (bundled) and Bun: prints
// one JSON line per engine (`wasm`, `ts`, `auto`). Needs no permissions.
// build/cross_runtime.ts compares the lines across runtimes.
import { runAllEngines } from "./conformance.ts";

for (const report of await runAllEngines()) console.log(JSON.stringify(report));
