// Scale check for `assay score`: N examples with ~1 KB outputs (by default 250,000, 500,000 and
// 1,000,000), streamed from disk through the CLI, then a generations file that is one line of
// 1 GB. Prints per run the wall time, examples/s and peak RSS (from /proc, polled), and the RSS
// each example adds between the smallest and the largest run; for the long line, the time and
// peak RSS of its refusal (exit 2, at its file and line, before the rest of it is read).
//
// With `--openai`, each output is an OpenAI Chat Completions response logged whole (a JSON object,
// its call's arguments a JSON string), scored with `--format openai-chat`: the general reader's
// path (the scoring kernel reads neither decoders nor outputs written as objects), where a run
// holds its examples and records as objects; the long line is left out.
//
//   deno run -A bench/score_scale.ts [N ...] [--openai] [--line-bytes B] [--keep]
import { assayPeak } from "./_cli.ts";

const sizes = Deno.args.filter((a, i) => /^\d+$/.test(a) && Deno.args[i - 1] !== "--line-bytes")
  .map(Number);
if (sizes.length === 0) sizes.push(250_000, 500_000, 1_000_000);
const lineAt = Deno.args.indexOf("--line-bytes");
const openai = Deno.args.includes("--openai");
const lineBytes = openai ? 0 : lineAt >= 0 ? Number(Deno.args[lineAt + 1]) : 1e9;
const dir = await Deno.makeTempDir({ prefix: "assay-scale-" });
const enc = new TextEncoder();

async function writeJsonl(path: string, n: number, row: (i: number) => string) {
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

async function writeCorpus(n: number) {
  await writeJsonl(`${dir}/examples.jsonl`, n, (i) =>
    JSON.stringify({
      example_id: `ex-${i}`,
      language: langs[i % 5],
      target: {
        name: "get_weather",
        arguments: { city: `City ${i % 997}`, units: "celsius", days: 3 },
      },
    }));
  await writeJsonl(`${dir}/generations.jsonl`, n, (i) => {
    const call = JSON.stringify({
      name: i % 7 === 0 ? "fetch_weather" : "get_weather",
      arguments: { city: `City ${i % 997}`, units: i % 5 === 0 ? "kelvin" : "celsius", days: 3.0 },
    });
    const prose = filler.repeat(11).slice(0, 1024 - call.length - 20);
    return JSON.stringify({
      example_id: `ex-${i}`,
      prompt_sha256: sha,
      output: openai ? chatCompletion(i, call, prose.slice(0, 200)) : `${prose} ${call}`,
    });
  });
}

/** An OpenAI Chat Completions response whose message calls `call` (`{name, arguments}` JSON). */
function chatCompletion(i: number, call: string, content: string): unknown {
  const { name, arguments: args } = JSON.parse(call);
  return {
    id: `chatcmpl-${i}`,
    object: "chat.completion",
    created: 1733500000 + i,
    model: "gpt-4o-2024-08-06",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content,
        tool_calls: [{
          id: `call_${i}`,
          type: "function",
          function: { name, arguments: JSON.stringify(args) },
        }],
      },
      finish_reason: "tool_calls",
    }],
    usage: { prompt_tokens: 50 + i % 900, completion_tokens: 10 + i % 300, total_tokens: 1200 },
  };
}

/** Runs `assay score` on the files; its exit code, stderr, seconds and peak RSS in MiB. */
function score(generations: string) {
  return assayPeak([
    "score",
    "--quiet",
    "--examples",
    `${dir}/examples.jsonl`,
    "--generations",
    generations,
    "--out",
    `${dir}/report.json`,
    ...(openai ? ["--format", "openai-chat"] : []),
  ]);
}

const rows: { n: number; seconds: number; peakMiB: number }[] = [];
for (const n of sizes) {
  await writeCorpus(n);
  const r = await score(`${dir}/generations.jsonl`);
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
  const reportMb = Deno.statSync(`${dir}/report.json`).size / 1e6;
  rows.push({ n, seconds: r.seconds, peakMiB: r.peakMiB });
  console.log(
    `${String(n).padStart(9)} examples: ${r.seconds.toFixed(1)} s = ${
      (n / r.seconds).toFixed(0)
    } examples/s, peak RSS ${r.peakMiB.toFixed(0)} MiB, report ${reportMb.toFixed(0)} MB`,
  );
}
if (rows.length >= 2) {
  const a = rows[0]!;
  const b = rows.at(-1)!;
  const perExample = (b.peakMiB - a.peakMiB) * (1 << 20) / (b.n - a.n);
  console.log(
    `peak RSS grows by ${perExample.toFixed(0)} bytes per example from ${a.n} to ${b.n} ` +
      (openai
        ? "(the general reader's examples and records, and the collector's slack)"
        : "(the entries, with the example's id, language and gold, and the id table)"),
  );
}

// One line of `lineBytes` bytes: an output that never ends.
if (lineBytes > 0) {
  const path = `${dir}/one_line.jsonl`;
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const head = enc.encode(`{"example_id":"ex-0","prompt_sha256":"${sha}","output":"`);
  await file.write(head);
  const block = new Uint8Array(4 << 20).fill(0x78);
  for (let left = lineBytes - head.length; left > 0; left -= block.length) {
    await file.write(left >= block.length ? block : block.subarray(0, left));
  }
  file.close();
  const r = await score(path);
  const first = r.stderr.split("\n")[0];
  console.log(
    `a ${(lineBytes / 1e9).toFixed(2)} GB single line: exit ${r.code} in ${
      r.seconds.toFixed(2)
    } s, peak RSS ${r.peakMiB.toFixed(0)} MiB: ${first}`,
  );
  if (r.code !== 2) throw new Error(`the long line was not refused with exit 2: ${r.stderr}`);
}
if (!Deno.args.includes("--keep")) await Deno.remove(dir, { recursive: true });
else console.log(`files kept in ${dir}`);
