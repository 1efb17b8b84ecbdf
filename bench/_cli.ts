// How the benches start the Assay CLI: as `deno task assay` does, with that task's flags from
// deno.json (its permissions and its V8 flags), so that they time what users run.

const ROOT = new URL("../", import.meta.url);

/** The arguments after `deno` that run cli/main.ts as `deno task assay` does. */
export async function assayRun(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const task = String(config.tasks?.assay ?? "");
  const words = task.split(/\s+/).filter((w) => w !== "");
  if (words[0] !== "deno" || words[1] !== "run" || words.at(-1) !== "cli/main.ts") {
    throw new Error(`Unexpected assay task in deno.json: ${task}`);
  }
  return ["run", ...words.slice(2, -1), decodeURIComponent(new URL("cli/main.ts", ROOT).pathname)];
}

/**
 * Runs `assay ARGS` as `deno task assay` does, its stdout dropped: its exit code, stderr, seconds
 * and peak RSS in MiB (the process's VmHWM, polled every 20 ms).
 */
export async function assayPeak(
  args: string[],
): Promise<{ code: number; stderr: string; seconds: number; peakMiB: number }> {
  return denoPeak([...await assayRun(), ...args]);
}

/**
 * Runs `deno ARGS`, its stdout dropped: its exit code, stderr, seconds and peak RSS in MiB (the
 * process's VmHWM, polled every 20 ms).
 */
export async function denoPeak(
  args: string[],
): Promise<{ code: number; stderr: string; seconds: number; peakMiB: number }> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let peakKb = 0;
  const poll = setInterval(() => {
    try {
      const m = Deno.readTextFileSync(`/proc/${child.pid}/status`).match(/VmHWM:\s+(\d+) kB/);
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch { /* exited */ }
  }, 20);
  const out = await child.output();
  clearInterval(poll);
  return {
    code: out.code,
    stderr: new TextDecoder().decode(out.stderr).trim(),
    seconds: (performance.now() - started) / 1000,
    peakMiB: peakKb / 1024,
  };
}
