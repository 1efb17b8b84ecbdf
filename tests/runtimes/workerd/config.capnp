# workerd config for the cross-runtime conformance run (build/cross_runtime.ts).
#
# build/cross_runtime.ts stages this file in a temporary directory next to
# the two worker scripts it writes (`with_module.js`, `without_module.js`),
# `conformance.js` (tests/conformance/conformance.ts bundled by
# `deno bundle`) and a copy of build/assay.wasm, then serves it with
# `workerd serve config.capnp --control-fd=1`. Both sockets bind an ephemeral
# port on 127.0.0.1; workerd reports the ports on the control descriptor.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "with-module", worker = .withModule),
    (name = "without-module", worker = .withoutModule),
  ],
  sockets = [
    (name = "with-module", address = "127.0.0.1:0", http = (), service = "with-module"),
    (name = "without-module", address = "127.0.0.1:0", http = (), service = "without-module"),
  ],
);

# build/assay.wasm imported as a module and passed to createEngine as `wasmModule`.
const withModule :Workerd.Worker = (
  modules = [
    (name = "with_module.js", esModule = embed "with_module.js"),
    (name = "conformance.js", esModule = embed "conformance.js"),
    (name = "assay.wasm", wasm = embed "assay.wasm"),
  ],
  compatibilityDate = "2025-09-01",
);

# No module: workerd refuses to compile Wasm from bytes, so `auto` must fall back to `ts`.
const withoutModule :Workerd.Worker = (
  modules = [
    (name = "without_module.js", esModule = embed "without_module.js"),
    (name = "conformance.js", esModule = embed "conformance.js"),
  ],
  compatibilityDate = "2025-09-01",
);
