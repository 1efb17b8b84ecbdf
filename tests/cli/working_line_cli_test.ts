// On a terminal, the commands whose bootstrap may take minutes (compare, gaps, gate) say what they
// are doing on stderr while it runs, and clear the line when it is done; off a terminal they say
// nothing (a CI log gets no carriage returns). A million examples took 159 s (compare) and 206 s
// (gate) with nothing printed. So do the commands that score for minutes: suite run counts its
// runs (100,000 traces without judges took 221 s) and structured shows the bar score shows (a
// million outputs took 236 s).
import { ok, strictEqual } from "node:assert/strict";
import { scoreDemo } from "../_demo.ts";

const deno = Deno.execPath();
const main = new URL("../../cli/main.ts", import.meta.url).pathname;
const dec = new TextDecoder();
const hasScript = await Deno.stat("/usr/bin/script").then(() => true, () => false);

/** Runs the CLI with stderr on a pseudo-terminal (script(1)); stdout to a file. */
async function onTerminal(dir: string, args: string[]): Promise<{ tty: string; code: number }> {
  const quoted = [deno, "run", "-A", main, ...args].map((a) => `'${a}'`).join(" ");
  const r = await new Deno.Command("script", {
    args: ["-qec", `${quoted} > ${dir}/stdout.txt`, "/dev/null"],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  return { tty: dec.decode(r.stdout), code: r.code };
}

/** Runs the CLI with stderr piped (no terminal); stdout dropped. */
async function offTerminal(args: string[]): Promise<{ stderr: string; code: number }> {
  const r = await new Deno.Command(deno, {
    args: ["run", "-A", main, ...args],
    stdout: "null",
    stderr: "piped",
  }).output();
  return { stderr: dec.decode(r.stderr), code: r.code };
}

Deno.test({
  name: "compare, gaps and gate show what they are doing on a terminal, and clear it",
  ignore: Deno.build.os !== "linux" || !hasScript,
  async fn() {
    const dir = await Deno.makeTempDir();
    const base = await scoreDemo(dir, "base");
    await scoreDemo(dir, "adapter");
    await Deno.writeTextFile(
      `${dir}/rules.yaml`,
      "rules:\n  - metric: argument_f1\n    non_inferior: { margin: 0.5 }\n",
    );
    const n = base.records.length;
    const cases: [string[], string][] = [
      [
        ["compare", `${dir}/base.json`, `${dir}/adapter.json`, "--resamples", "200"],
        `compare: 200 resamples of ${n} examples, overall and by slice\u2026`,
      ],
      [
        ["gaps", `${dir}/base.json`, "--resamples", "200"],
        "gaps: 200 resamples per language\u2026",
      ],
      [
        [
          "gate",
          `${dir}/rules.yaml`,
          "--base",
          `${dir}/base.json`,
          "--candidate",
          `${dir}/adapter.json`,
        ],
        "gate: 1 rule\u2026",
      ],
    ];
    for (const [args, line] of cases) {
      const { tty, code } = await onTerminal(dir, args);
      strictEqual(code, 0, tty);
      // The line, then a carriage return and erase-to-end-of-line before anything else.
      ok(tty.startsWith(`\r${line}\r\x1b[K`), JSON.stringify(tty.slice(0, 200)));
      // Off a terminal: nothing of it.
      strictEqual((await offTerminal(args)).stderr.includes(line), false, args[0]);
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "suite run counts its runs on a terminal (100,000 traces without judges take minutes)",
  ignore: Deno.build.os !== "linux" || !hasScript,
  async fn() {
    const dir = await Deno.makeTempDir();
    const demo = new URL("../../samples/suite_demo/", import.meta.url).pathname;
    const args = [
      "suite",
      "run",
      `${demo}suite.yaml`,
      "--goldens",
      `${demo}goldens.jsonl`,
      "--traces",
      `${demo}traces.jsonl`,
      "--catalog",
      `${demo}catalog.json`,
      "--no-judge",
    ];
    const runs = (await Deno.readTextFile(`${demo}traces.jsonl`)).trim().split("\n").length;
    const { tty, code } = await onTerminal(dir, args);
    strictEqual(code, 0, tty);
    // The first run, then the last, then the line cleared.
    ok(tty.startsWith(`\r1 of ${runs} runs scored`), JSON.stringify(tty.slice(0, 200)));
    ok(tty.includes(`\r${runs} of ${runs} runs scored\r\x1b[K`), JSON.stringify(tty));
    for (const extra of [[], ["--quiet"]]) {
      const quiet = extra.length > 0;
      const r = quiet
        ? await onTerminal(dir, [...args, ...extra])
        : await offTerminal(args).then((o) => ({ tty: o.stderr, code: o.code }));
      strictEqual(r.code, 0, r.tty);
      strictEqual(r.tty.includes("runs scored"), false, quiet ? "--quiet" : "off a terminal");
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "structured shows a bar of the bytes it has scored on a terminal, for 8 MiB and more",
  ignore: Deno.build.os !== "linux" || !hasScript,
  async fn() {
    const dir = await Deno.makeTempDir();
    const note = "x".repeat(1000);
    const rows = Array.from(
      { length: 9000 },
      (_, i) => JSON.stringify({ id: `r${i}`, output: JSON.stringify({ answer: i, note }) }),
    );
    await Deno.writeTextFile(`${dir}/outputs.jsonl`, rows.join("\n") + "\n");
    ok((await Deno.stat(`${dir}/outputs.jsonl`)).size >= 8 << 20);
    const args = ["structured", "--outputs", `${dir}/outputs.jsonl`];
    const { tty, code } = await onTerminal(dir, args);
    strictEqual(code, 0, tty);
    // The bar from the first chunk read, redrawn as it goes, then cleared.
    ok(/^\rscoring \[[#.]{30}\] +\d+% +\d+ MB\r/.test(tty), JSON.stringify(tty));
    ok(tty.endsWith("\r\x1b[K"), JSON.stringify(tty.slice(-300)));
    ok(/\rscoring \[[#.]{30}\] +\d+% +\d+ MB\r.{3}$/.test(tty), JSON.stringify(tty.slice(-300)));
    const validity = (await Deno.readTextFile(`${dir}/stdout.txt`)).split("\n")[2]!;
    ok(/^json_validity +1\.000 \(9000\/9000\) +whole 9000$/.test(validity), validity);
    strictEqual((await offTerminal(args)).stderr, "");
    await Deno.remove(dir, { recursive: true });
  },
});
