// Scale check for `assay score`: N examples (default 1,000,000) with ~1 KB outputs, streamed
// from disk through the CLI. Prints wall time, examples/s and peak RSS (from /proc, polled).
//
//   deno run -A bench/score_scale.ts [N] [--keep]
import { assayRun } from "./_cli.ts";

const n = Number(Deno.args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const dir = await Deno.makeTempDir({ prefix: "assay-scale-" });
const enc = new TextEncoder();

async function writeJsonl(path: string, row: (i: number) => string) {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const w = file.writable.getWriter();
  let buf: string[] = [];
  for (let i = 0; i < n; i++) {
    buf.push(row(i));
    if (buf.length === 10_000) {
      await w.write(enc.encode(buf.join("\n") + "\n"));
      buf = [];
    }
  }
  if (buf.length) await w.write(enc.encode(buf.join("\n") + "\n"));
  await w.close();
}

const langs = ["en", "de", "fr", "es", "ja"];
const filler =
  "The user wants the forecast, so I will call the weather tool with the city and units. ";
const sha = "0".repeat(64);
console.log(`writing ${n} examples to ${dir} ...`);
await writeJsonl(`${dir}/examples.jsonl`, (i) =>
  JSON.stringify({
    example_id: `ex-${i}`,
    language: langs[i % 5],
    target: {
      name: "get_weather",
      arguments: { city: `City ${i % 997}`, units: "celsius", days: 3 },
    },
  }));
await writeJsonl(`${dir}/generations.jsonl`, (i) => {
  const call = JSON.stringify({
    name: i % 7 === 0 ? "fetch_weather" : "get_weather",
    arguments: { city: `City ${i % 997}`, units: i % 5 === 0 ? "kelvin" : "celsius", days: 3.0 },
  });
  const prose = filler.repeat(11).slice(0, 1024 - call.length - 20);
  return JSON.stringify({ example_id: `ex-${i}`, prompt_sha256: sha, output: `${prose} ${call}` });
});
const sizes = [...Deno.readDirSync(dir)].map((e) =>
  `${e.name} ${(Deno.statSync(`${dir}/${e.name}`).size / 1e6).toFixed(0)} MB`
);
console.log(sizes.join(", "));

const started = performance.now();
const child = new Deno.Command(Deno.execPath(), {
  args: [
    ...await assayRun(),
    "score",
    "--quiet",
    "--examples",
    `${dir}/examples.jsonl`,
    "--generations",
    `${dir}/generations.jsonl`,
    "--out",
    `${dir}/report.json`,
  ],
  stdout: "piped",
  stderr: "piped",
}).spawn();
let peakKb = 0;
const poll = setInterval(() => {
  try {
    const m = Deno.readTextFileSync(`/proc/${child.pid}/status`).match(/VmHWM:\s+(\d+) kB/);
    if (m) peakKb = Math.max(peakKb, Number(m[1]));
  } catch { /* exited */ }
}, 50);
const out = await child.output();
clearInterval(poll);
const seconds = (performance.now() - started) / 1000;
console.log(new TextDecoder().decode(out.stdout));
if (out.code !== 0) console.error(new TextDecoder().decode(out.stderr));
console.log(
  `exit ${out.code}: ${n} examples in ${seconds.toFixed(1)} s = ${
    (n / seconds).toFixed(0)
  } examples/s, ` +
    `peak RSS ${(peakKb / 1024).toFixed(0)} MiB, report ${
      (Deno.statSync(`${dir}/report.json`).size / 1e6).toFixed(0)
    } MB`,
);
if (!Deno.args.includes("--keep")) await Deno.remove(dir, { recursive: true });
