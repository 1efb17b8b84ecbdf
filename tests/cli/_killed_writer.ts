// A metric-store writer killed with SIGKILL inside its write transaction, for the crash tests.
import { match } from "node:assert/strict";

const store = new URL("../../cli/_store.ts", import.meta.url).pathname;

/**
 * Starts a process that opens the store at `path` and writes `run` with `rows` score rows (golden
 * g0, g1, ..., arm a, metric m), and kills it (SIGKILL) once every row is inserted and the
 * transaction is still open; resolves when it is gone.
 */
export async function killMidRun(path: string, run: object, rows: number): Promise<void> {
  const script = `import { MetricStore } from ${JSON.stringify(store)};
const s = MetricStore.open(${JSON.stringify(path)});
const row = (i) => ({ golden_id: "g" + i, arm: "a", repeat: 0, metric: "m", score: 1,
  applicable: true, threshold: 0.5, pass: true, prompt_sha256: null, rubric_sha256: null,
  judge_model: null, error: null });
s.writeRun(${JSON.stringify(run)}, Array.from({ length: ${rows} }, (_, i) => row(i)), () => {
  console.log("inside");
  // Wait to be killed, holding the transaction open.
  const end = Date.now() + 30000;
  while (Date.now() < end) {}
});
`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=js", script],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  const first = await reader.read();
  match(new TextDecoder().decode(first.value), /inside/);
  child.kill("SIGKILL");
  await child.status;
  reader.releaseLock();
  await child.stderr.cancel();
}
