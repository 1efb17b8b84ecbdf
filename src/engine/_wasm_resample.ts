// The JS side of the Wasm resampling kernel (assembly/bootstrap.ts). One crossing per job: the
// stream's state and the job go into linear memory, the kernel runs every resample, and the
// deltas and the advanced state come back. The kernel gets an instance of its own, so that its
// layout never meets the batch layout of the parsing instance.
import type { Sfc32 } from "./prng.ts";
import { COLUMNS, type ResampleJob } from "./resample.ts";
import type { EngineExports } from "./_abi.generated.ts";
import { instantiate, outOfMemory, RELEASE_BYTES } from "./_wasm_instance.ts";

/** The exports the resampling kernel uses (signatures from the generated ABI). */
type ResampleExports = Pick<
  EngineExports,
  "memory" | "resampleReserve" | "resampleDirect" | "resampleGrouped"
>;

/** Bytes before the job's arrays: state (16), sums (96), words (48), lanes (144). */
const HEAD = 304;
/**
 * Draws per kernel call, about: V8 runs a Wasm function's first calls on its baseline
 * compiler and switches to optimized code only for later calls, so one call per job would run
 * the first job entirely on baseline code, about 4 times slower.
 */
const SLICE_DRAWS = 1 << 18;

const align16 = (x: number) => Math.ceil(x / 16) * 16;

/**
 * The Wasm kernel for `module`, instantiated on first use.
 *
 * @returns A function that runs a job from `rng`'s current state, leaves `rng` advanced exactly
 *   as the TS kernel would, and returns the deltas (metric-major).
 */
export function createWasmResampler(
  module: WebAssembly.Module,
): (job: ResampleJob, rng: Sfc32) => Float64Array {
  let ex: ResampleExports | undefined;
  return (job, rng) => {
    const { n, resamples } = job;
    const slice = Math.max(1, Math.floor(SLICE_DRAWS / n));
    const body = job.kind === "direct"
      ? job.table.byteLength
      : align16(4 * n) + align16(4 * COLUMNS * job.groups) + align16(4 * job.groups);
    const total = HEAD + align16(body) + 40 * resamples;
    if (total > 0xf000_0000) {
      throw new RangeError("This bootstrap is too large for the wasm engine");
    }
    let out: Float64Array;
    try {
      ex ??= instantiate(module);
      const base = ex.resampleReserve(total);
      const buffer = ex.memory.buffer;
      const words = new Uint32Array(buffer);
      const state = base;
      const arrays = base + HEAD;
      const outAt = arrays + align16(body);
      words.set(rng.getState(), state >>> 2);
      if (job.kind === "direct") {
        words.set(job.lanes, (state + 160) >>> 2);
        words.set(job.table, arrays >>> 2);
        for (let r = 0; r < resamples; r += slice) {
          const to = Math.min(resamples, r + slice);
          ex.resampleDirect(n, resamples, r, to, job.stride, job.flush, state, arrays, outAt);
        }
      } else {
        const values = arrays + align16(4 * n);
        const counts = values + align16(4 * COLUMNS * job.groups);
        words.set(job.groupOf, arrays >>> 2);
        words.set(job.values, values >>> 2);
        for (let r = 0; r < resamples; r += slice) {
          const to = Math.min(resamples, r + slice);
          ex.resampleGrouped(n, resamples, r, to, job.groups, state, arrays, values, counts, outAt);
        }
      }
      // The kernel does not grow memory, so the views are still current.
      rng.setState(Array.from(words.subarray(state >>> 2, (state >>> 2) + 4)));
      out = new Float64Array(buffer, outAt, 5 * resamples).slice();
    } catch (e) {
      ex = undefined;
      outOfMemory(e, "bootstrap");
    }
    if (ex.memory.buffer.byteLength > RELEASE_BYTES) ex = undefined;
    return out;
  };
}
