// `assay suite run` and its judges' keys and transport, end to end against loopback servers: a
// missing, empty or malformed key is refused before anything is created, a refused key (401)
// names its variable, no encoding of a key reaches stdout, stderr, --out or the store, a redirect
// reaches no other origin, and an endless body is cut with the process's peak RSS under 200 MiB.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  anthropicText,
  anthropicTool,
  apiError,
  keyOf,
  openaiContent,
  redirect,
  type Reply,
  startJudgeServer,
} from "../suite/_judge_server.ts";
import { keyForms, leaks } from "../suite/_key_encodings.ts";

const deno = Deno.execPath();
const root = new URL("../../", import.meta.url).pathname;
const main = `${root}cli/main.ts`;
const demo = `${root}samples/suite_demo`;
const dec = new TextDecoder();

/** The child's environment: only what Deno needs, so no key of the caller's leaks in. */
function childEnv(env: Record<string, string>): Record<string, string> {
  const keep: Record<string, string> = { NO_COLOR: "1" };
  for (const k of ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME", "TMPDIR"]) {
    const v = Deno.env.get(k);
    if (v !== undefined) keep[k] = v;
  }
  return { ...keep, ...env };
}

function command(args: string[], env: Record<string, string>): Deno.Command {
  return new Deno.Command(deno, {
    args: ["run", "-A", main, ...args],
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: childEnv(env),
  });
}

async function assay(args: string[], env: Record<string, string> = {}) {
  const out = await command(args, env).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** `assay suite run` of the demo data under a one-judge suite at `dir`. */
async function runArgs(dir: string, judgeModel: string, extra: string[] = []): Promise<string[]> {
  await Deno.writeTextFile(
    `${dir}/suite.yaml`,
    "metrics:\n  - type: hit_limit\n  - type: llm_judge\n    name: grounded\n    params:\n" +
      "      evaluation_params: [final_answer, query_results]\n      criteria: Is it grounded?\n" +
      (judgeModel === "" ? "" : `      judge_model: ${JSON.stringify(judgeModel)}\n`) +
      "      applicable_when: final_answer\n",
  );
  return [
    "suite",
    "run",
    `${dir}/suite.yaml`,
    "--goldens",
    `${demo}/goldens.jsonl`,
    "--traces",
    `${demo}/traces.jsonl`,
    "--catalog",
    `${demo}/catalog.json`,
    "--store",
    `${dir}/metrics.db`,
    "--out",
    `${dir}/run.json`,
    ...extra,
  ];
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** Every string inside a JSON value, one per line. */
function strings(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || typeof v !== "object") return "";
  return Object.entries(v).map(([k, x]) => `${k}\n${strings(x)}`).join("\n");
}

Deno.test("assay suite run refuses a missing, empty or malformed judge key, naming the variable, and creates nothing", async () => {
  const dir = await Deno.makeTempDir();
  const cases: [string, Record<string, string>, RegExp][] = [
    ["", {}, /ANTHROPIC_API_KEY is not set/],
    ["", { ANTHROPIC_API_KEY: "" }, /ANTHROPIC_API_KEY is empty/],
    ["openai:gpt-5", { ANTHROPIC_API_KEY: "sk-ant-unused-key" }, /OPENAI_API_KEY is not set/],
    ["openai:gpt-5", { OPENAI_API_KEY: "sk-has a space" }, /OPENAI_API_KEY is not a valid key/],
    ["anthropic:claude-sonnet-5", { ANTHROPIC_API_KEY: "Xy9Qz" }, /ANTHROPIC_API_KEY is not a/],
    [
      "openai-compatible:m@http://127.0.0.1:9",
      { OPENAI_COMPATIBLE_API_KEY: "sk-x\u0007bell-key" },
      /OPENAI_COMPATIBLE_API_KEY is not a valid key/,
    ],
  ];
  for (const [model, env, message] of cases) {
    const r = await assay(await runArgs(dir, model), env);
    strictEqual(r.code, 2, `${model} ${JSON.stringify(env)}: ${r.stderr}`);
    match(r.stderr, message);
    ok(!r.stderr.includes("apiKeys"), r.stderr);
    for (const v of Object.values(env)) if (v !== "") ok(!r.stderr.includes(v), r.stderr);
    for (const f of ["metrics.db", "metrics.db-wal", "run.json"]) {
      strictEqual(await exists(`${dir}/${f}`), false, `${f} was created (${r.stderr})`);
    }
  }
  // --no-judge needs no key.
  const r = await assay([...await runArgs(dir, ""), "--no-judge"]);
  strictEqual(r.code, 0, r.stderr);
});

Deno.test("assay suite run checks every judge flag up front, with --no-judge too, and creates nothing", async () => {
  const dir = await Deno.makeTempDir();
  const cases: [string[], RegExp][] = [
    [
      ["--anthropic-base-url", "notaurl"],
      /--anthropic-base-url must be an http\(s\) URL, got "notaurl"/,
    ],
    [
      ["--openai-base-url", "ftp://x"],
      /--openai-base-url must be an http\(s\) URL, got "ftp:\/\/x"/,
    ],
    [["--anthropic-base-url", ""], /--anthropic-base-url must be an http\(s\) URL, got ""/],
    [["--concurrency", "abc"], /--concurrency must be an integer of at least 1, got "abc"/],
    [["--concurrency", "0"], /--concurrency must be an integer of at least 1, got "0"/],
    [["--timeout-ms", "-5"], /--timeout-ms must be an integer in \[1, 2147483647\], got "-5"/],
    [["--timeout-ms", "3000000000"], /--timeout-ms must be an integer in \[1, 2147483647\]/],
    // Digits only: Number() took "0x10" as 16 ms and "1e3" as 1000 (a judge user test).
    [["--timeout-ms", "0x10"], /--timeout-ms must be an integer in \[1, 2147483647\], got "0x10"/],
    [["--concurrency", "1e3"], /--concurrency must be an integer of at least 1, got "1e3"/],
  ];
  for (const [flags, message] of cases) {
    for (const noJudge of [[], ["--no-judge"]]) {
      const args = await runArgs(dir, "", [...flags, ...noJudge]);
      const r = await assay(args, { ANTHROPIC_API_KEY: "sk-ant-xxxxxxxxxxxxxxxxxxxx" });
      strictEqual(r.code, 2, `${flags} ${noJudge}: ${r.stderr}`);
      match(r.stderr, message);
      ok(!r.stderr.includes("internal error"), r.stderr);
      for (const f of ["metrics.db", "metrics.db-wal", "run.json"]) {
        strictEqual(await exists(`${dir}/${f}`), false, `${f} was created (${r.stderr})`);
      }
    }
  }
});

Deno.test("the suite demo with judges scoring 0.8 passes the runs it passes without judges", async () => {
  const server = startJudgeServer(() => anthropicTool({ score: 0.8, reason: "Close enough." }));
  try {
    const args = [
      "suite",
      "run",
      `${demo}/suite.yaml`,
      ...["goldens.jsonl", "traces.jsonl", "catalog.json"].flatMap((f) => [
        `--${f.split(".")[0]}`,
        `${demo}/${f}`,
      ]),
      "--json",
      "--quiet",
    ];
    const rates = async (extra: string[]) => {
      const r = await assay([...args, ...extra], { ANTHROPIC_API_KEY: "sk-ant-test-key-0123" });
      strictEqual(r.code, 0, r.stderr);
      const card = JSON.parse(r.stdout).scorecard;
      return card.arms.map((a: { arm: string; pass_rate: { value: number } }) =>
        `${a.arm} ${a.pass_rate.value.toFixed(3)}`
      );
    };
    const judged = await rates(["--anthropic-base-url", server.baseUrl]);
    ok(server.requests.length > 0);
    // The first metric's threshold (0.9) is the run's: judges' 0.8 fail no run that passes without
    // them (it was 1.0, and every judged run failed).
    deepStrictEqual(judged, ["adapter 0.625", "base 0.458"]);
    deepStrictEqual(await rates(["--no-judge"]), judged);
  } finally {
    await server.close();
  }
});

Deno.test("assay suite run exits 2 naming the variable whose key the provider refused, and stores no run", async () => {
  const key = "sk-proj-refused-key-0123456789";
  const server = startJudgeServer((req) => apiError(401, `Incorrect API key ${keyOf(req)}`));
  try {
    const dir = await Deno.makeTempDir();
    const args = await runArgs(dir, "openai:gpt-5", ["--openai-base-url", server.baseUrl]);
    const r = await assay(args, { OPENAI_API_KEY: key });
    strictEqual(r.code, 2, r.stderr);
    match(r.stderr, /The key in OPENAI_API_KEY was refused: HTTP 401 from openai/);
    deepStrictEqual(leaks(r.stdout + r.stderr, [key]), []);
    // The first requests, sent together (the default limit is 4), are refused; the judge sends
    // none of the run's other calls.
    ok(server.requests.length > 0 && server.requests.length <= 4, String(server.requests.length));
    strictEqual(await exists(`${dir}/run.json`), false);
    if (await exists(`${dir}/metrics.db`)) {
      const db = new DatabaseSync(`${dir}/metrics.db`);
      deepStrictEqual(db.prepare("SELECT COUNT(*) AS n FROM runs").get()?.n, 0);
      db.close();
    }
  } finally {
    await server.close();
  }
});

Deno.test("assay suite run warns on stderr when judge calls fail, naming how many and the first cause", async () => {
  // Every call refused (403) or answered with what is not a score: the run still exits 0 with
  // its runs incomplete (docs/judge.md), and stderr said nothing; the causes were only in --out.
  const cases: [string, Reply, string][] = [
    ["403", apiError(403, "forbidden"), "HTTP 403 from anthropic: "],
    ["malformed", anthropicText("I think it is fine."), "Malformed judge reply after 3 tries: "],
  ];
  for (const [name, reply, cause] of cases) {
    const server = startJudgeServer(reply);
    try {
      const dir = await Deno.makeTempDir();
      const args = await runArgs(dir, "", ["--anthropic-base-url", server.baseUrl, "--quiet"]);
      const r = await assay(args, { ANTHROPIC_API_KEY: "sk-ant-test-key-0123" });
      strictEqual(r.code, 0, r.stderr);
      const lines = r.stderr.trimEnd().split("\n");
      strictEqual(lines.length, 1, r.stderr);
      const prefix = "warning: the judge failed on 43 of 43 calls (first: ";
      ok(lines[0]!.startsWith(prefix + cause), `${name}: ${r.stderr}`);
      ok(lines[0]!.endsWith("); those runs are incomplete"), `${name}: ${r.stderr}`);
      ok(lines[0]!.length <= 250, `${name}: ${r.stderr}`);
      match(r.stdout, /arm adapter: .* 23 incomplete \(a judge error\)/);
      match(r.stdout, /arm base: .* 20 incomplete \(a judge error\)/);
      // With --json, the errors are in the report itself: no warning.
      const json = await assay([...args, "--json"], { ANTHROPIC_API_KEY: "sk-ant-test-key-0123" });
      strictEqual(json.code, 0, json.stderr);
      strictEqual(json.stderr, "");
    } finally {
      await server.close();
    }
  }
  // Judges that answer: no warning.
  const server = startJudgeServer(() => anthropicTool({ score: 0.8, reason: "Close enough." }));
  try {
    const dir = await Deno.makeTempDir();
    const args = await runArgs(dir, "", ["--anthropic-base-url", server.baseUrl, "--quiet"]);
    const r = await assay(args, { ANTHROPIC_API_KEY: "sk-ant-test-key-0123" });
    strictEqual(r.code, 0, r.stderr);
    strictEqual(r.stderr, "");
  } finally {
    await server.close();
  }
});

Deno.test("assay suite run never prints, writes or stores a key in any encoding", async () => {
  const key = `sk-local-Q7/x&y<z>"w%2F'q+=\\v9-TAIL`;
  let n = 0;
  // Request i: a reason holding every form, else a 400 body or a malformed reply with one form,
  // the forms in turn. (A judge asks once per prompt: the run makes fewer requests than there are
  // forms; tests/suite/judge_redaction_test.ts echoes every form in every place.)
  const server = startJudgeServer((req) => {
    const all = keyForms(keyOf(req)!);
    const i = n++;
    const form = all[i % all.length]!.text;
    const headers = { "x-echo": form, location: `http://127.0.0.1:9/${form}` };
    const reply: Reply = i % 3 === 0
      ? openaiContent(JSON.stringify({ score: 0.5, reason: all.map((f) => f.text).join(" | ") }))
      : i % 3 === 1
      ? apiError(400, `bad key ${form}`)
      : openaiContent(`${form} is not JSON`);
    return { ...reply, headers };
  });
  try {
    const dir = await Deno.makeTempDir();
    const args = await runArgs(dir, `openai-compatible:judge-1@${server.baseUrl}`, ["--json"]);
    const r = await assay(args, { OPENAI_COMPATIBLE_API_KEY: key });
    strictEqual(r.code, 0, r.stderr);
    ok(n >= 3, `${n} requests`); // each kind of reply
    const out = await Deno.readTextFile(`${dir}/run.json`);
    const db = new DatabaseSync(`${dir}/metrics.db`);
    const errors = db.prepare("SELECT error FROM scores WHERE error IS NOT NULL").all();
    const reasons = db.prepare("SELECT reason FROM judge_cache").all();
    db.close();
    ok(errors.length > 0 && reasons.length > 0);
    const texts = [
      r.stdout,
      strings(JSON.parse(r.stdout)),
      r.stderr,
      out,
      strings(JSON.parse(out)),
      strings(errors),
      strings(reasons),
    ];
    for (const f of ["metrics.db", "metrics.db-wal"]) {
      texts.push(dec.decode(await Deno.readFile(`${dir}/${f}`).catch(() => new Uint8Array())));
    }
    deepStrictEqual(leaks(texts.join("\n"), [key]), []);
    ok(out.includes("[redacted]"));
  } finally {
    await server.close();
  }
});

Deno.test("assay suite run refuses judge redirects: the other origin receives no request", async () => {
  const key = "sk-ant-redirect-test-key-0123";
  const other = startJudgeServer(openaiContent('{"score": 1, "reason": "stolen"}'));
  let i = 0;
  const statuses = [301, 302, 307, 308];
  const server = startJudgeServer(() =>
    redirect(statuses[i++ % 4]!, `${other.baseUrl}/v1/messages`)
  );
  try {
    const dir = await Deno.makeTempDir();
    const args = await runArgs(dir, "", ["--anthropic-base-url", server.baseUrl, "--json"]);
    const r = await assay(args, { ANTHROPIC_API_KEY: key });
    strictEqual(r.code, 0, r.stderr);
    ok(server.requests.length >= 4);
    strictEqual(other.requests.length, 0);
    const kinds = JSON.parse(r.stdout).runs.flatMap((
      run: { criteria: { metric: string; details?: { error_kind?: string } }[] },
    ) => run.criteria.filter((c) => c.metric === "grounded").map((c) => c.details?.error_kind));
    ok(kinds.length > 0 && kinds.every((k: unknown) => k === "redirect" || k === undefined));
    ok(kinds.includes("redirect"));
  } finally {
    await server.close();
    await other.close();
  }
});

/** Runs a command, sampling its VmHWM; kills it once its RSS passes `killAboveKiB`. */
async function peakRss(cmd: Deno.Command, killAboveKiB: number) {
  const child = cmd.spawn();
  let peakKiB = 0;
  let killed = false;
  let done = false;
  const output = child.output().finally(() => done = true);
  while (!done) {
    try {
      const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
      const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peakKiB = Math.max(peakKiB, hwm);
      if (hwm > killAboveKiB && !killed) {
        killed = true;
        child.kill("SIGKILL");
      }
    } catch { /* the process has exited */ }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const out = await output;
  return {
    peakKiB,
    killed,
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

Deno.test({
  name: "assay suite run cuts an endless judge body at the cap, with peak RSS under 200 MiB",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const server = startJudgeServer({ flood: {} });
    try {
      const dir = await Deno.makeTempDir();
      const args = await runArgs(dir, `openai-compatible:judge-1@${server.baseUrl}`, ["--json"]);
      const r = await peakRss(command(args, {}), 200 * 1024);
      strictEqual(r.killed, false, `killed at ${r.peakKiB} KiB`);
      strictEqual(r.code, 0);
      ok(r.peakKiB < 200 * 1024, `peak RSS ${r.peakKiB} KiB`);
      console.log(
        `flood: peak RSS ${
          (r.peakKiB / 1024).toFixed(1)
        } MiB over ${server.requests.length} requests, ${
          (server.floodBytes / 2 ** 20).toFixed(1)
        } MiB sent`,
      );
      const kinds = JSON.parse(r.stdout).runs.flatMap((
        run: { criteria: { metric: string; details?: { error_kind?: string } }[] },
      ) => run.criteria.filter((c) => c.metric === "grounded").map((c) => c.details?.error_kind));
      ok(kinds.includes("response_too_large"));
      ok(kinds.every((k: unknown) => k === "response_too_large" || k === undefined));
    } finally {
      await server.close();
    }
  },
});

Deno.test("suite run's text output counts the judge errors and incomplete runs when every judge call fails", async () => {
  const server = startJudgeServer(anthropicText("<<<not json>>>"));
  const dir = await Deno.makeTempDir();
  try {
    const args = await runArgs(dir, "anthropic:claude-sonnet-4-5", [
      "--anthropic-base-url",
      server.baseUrl,
      "--quiet",
      "--concurrency",
      "8",
    ]);
    const r = await assay(args, { ANTHROPIC_API_KEY: "k-12345678" });
    strictEqual(r.code, 0, r.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/run.json`));
    for (const arm of report.scorecard.arms) {
      const grounded = arm.metrics.find((m: { metric: string }) => m.metric === "grounded");
      ok(grounded.n_errors > 0 && grounded.n_errors === grounded.n_applicable);
      match(
        r.stdout,
        new RegExp(
          `arm ${arm.arm}: \\d+ runs over \\d+ goldens; ${arm.n_incomplete} incomplete \\(a judge error\\)`,
        ),
      );
      match(
        r.stdout,
        new RegExp(
          `grounded\\s+- \\(${grounded.n_applicable} applicable, ${grounded.n_errors} judge errors\\)`,
        ),
      );
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
