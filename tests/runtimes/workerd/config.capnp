# workerd config for the cross-runtime run (build/cross_runtime.ts).
#
# build/cross_runtime.ts stages this file in a temporary directory next to
# the worker scripts it writes (one is the README's worker example),
# `conformance.js` (tests/conformance/conformance.ts
# bundled by `deno bundle --platform browser`), `assay.js` (the root, `deno
# bundle mod.ts`), `suite.js` (`./suite`, `deno bundle --platform browser
# src/suite/mod.ts`), `suite_inputs.js`, the seeded JSONL inputs and a copy of
# build/assay.wasm, then serves it with `workerd serve config.capnp
# --control-fd=1`. Every socket binds an ephemeral port on 127.0.0.1; workerd
# reports the ports on the control descriptor.
#
# No worker sets compatibilityFlags (no nodejs_compat): the library must run
# on workerd without them, and build/cross_runtime.ts checks that this file
# turns none on.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "with-module", worker = .withModule),
    (name = "without-module", worker = .withoutModule),
    (name = "root-with-module", worker = .rootWithModule),
    (name = "root-without-module", worker = .rootWithoutModule),
    (name = "readme", worker = .readme),
    (name = "suite", worker = .suite),
  ],
  sockets = [
    (name = "with-module", address = "127.0.0.1:0", http = (), service = "with-module"),
    (name = "without-module", address = "127.0.0.1:0", http = (), service = "without-module"),
    (name = "root-with-module", address = "127.0.0.1:0", http = (), service = "root-with-module"),
    (name = "root-without-module", address = "127.0.0.1:0", http = (), service = "root-without-module"),
    (name = "readme", address = "127.0.0.1:0", http = (), service = "readme"),
    (name = "suite", address = "127.0.0.1:0", http = (), service = "suite"),
  ],
);

# The conformance, with build/assay.wasm imported as a module and passed to createEngine as `wasmModule`.
const withModule :Workerd.Worker = (
  modules = [
    (name = "with_module.js", esModule = embed "with_module.js"),
    (name = "conformance.js", esModule = embed "conformance.js"),
    (name = "assay.wasm", wasm = embed "assay.wasm"),
  ],
  compatibilityDate = "2025-09-01",
);

# The conformance with no module: workerd refuses to compile Wasm from bytes, so `auto` must fall back to `ts`.
const withoutModule :Workerd.Worker = (
  modules = [
    (name = "without_module.js", esModule = embed "without_module.js"),
    (name = "conformance.js", esModule = embed "conformance.js"),
  ],
  compatibilityDate = "2025-09-01",
);

# A user's worker: the root bundle, `createEngine({ wasmModule })` and scoreJsonl on JSONL bytes.
const rootWithModule :Workerd.Worker = (
  modules = [
    (name = "root_with_module.js", esModule = embed "root_with_module.js"),
    (name = "assay.js", esModule = embed "assay.js"),
    (name = "assay.wasm", wasm = embed "assay.wasm"),
    (name = "examples.jsonl", data = embed "examples.jsonl"),
    (name = "generations.jsonl", data = embed "generations.jsonl"),
    (name = "prompts.jsonl", data = embed "prompts.jsonl"),
  ],
  compatibilityDate = "2025-09-01",
);

# The same with `createEngine()` and no module: `auto` falls back to `ts`.
const rootWithoutModule :Workerd.Worker = (
  modules = [
    (name = "root_without_module.js", esModule = embed "root_without_module.js"),
    (name = "assay.js", esModule = embed "assay.js"),
    (name = "examples.jsonl", data = embed "examples.jsonl"),
    (name = "generations.jsonl", data = embed "generations.jsonl"),
    (name = "prompts.jsonl", data = embed "prompts.jsonl"),
  ],
  compatibilityDate = "2025-09-01",
);

# The README's worker example (Engines), its types stripped and `@assay/assay` made `./assay.js`.
const readme :Workerd.Worker = (
  modules = [
    (name = "readme_worker.js", esModule = embed "readme_worker.js"),
    (name = "assay.js", esModule = embed "assay.js"),
    (name = "assay.wasm", wasm = embed "assay.wasm"),
  ],
  compatibilityDate = "2025-09-01",
);

# `./suite` bundled for the browser platform: a JSONC and a YAML suite over the demo's traces.
const suite :Workerd.Worker = (
  modules = [
    (name = "suite_worker.js", esModule = embed "suite_worker.js"),
    (name = "suite.js", esModule = embed "suite.js"),
    (name = "suite_inputs.js", esModule = embed "suite_inputs.js"),
  ],
  compatibilityDate = "2025-09-01",
);
