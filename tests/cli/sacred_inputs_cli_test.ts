// Inputs are sacred (issue 13, item 1): no command writes over one of its own inputs, whichever
// path names it (as given, through `..`, through a symlink, or as a hard link); an output never
// names another output; `--out` replaces an existing file only when it is a report of the same
// kind, or with --force; a metric store and a JSON file never stand in for each other. Every
// refusal exits 2 before any work, names both flags and the path, and leaves every file as it was.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { runMain } from "./_main.ts";

const repo = new URL("../../", import.meta.url).pathname;
const demo = `${repo}samples/demo`;
const suiteDemo = `${repo}samples/suite_demo`;
const structured = `${repo}tests/fixtures/structured`;

/** Copies `files` (name to source path) into a new temporary folder. */
async function folder(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const [name, from] of Object.entries(files)) await Deno.copyFile(from, `${dir}/${name}`);
  return dir;
}

/** Every file in `dir` with its bytes, to check that a refusal changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
    const path = `${dir}/${e.name}`;
    const info = Deno.lstatSync(path);
    out[e.name] = info.isSymlink
      ? `-> ${Deno.readLinkSync(path)}`
      : info.isFile
      ? new TextDecoder().decode(Deno.readFileSync(path))
      : "<folder>";
  }
  return out;
}

/**
 * The names of `dir/name`: itself, through `sub/..`, through a symlink, and a hard link. Each is
 * created in `dir` once (the folder `sub` too), so the snapshots taken after include them.
 */
function aliases(dir: string, name: string): string[] {
  Deno.mkdirSync(`${dir}/sub`, { recursive: true });
  const link = `${dir}/link-to-${name}`;
  const hard = `${dir}/hard-${name}`;
  try {
    Deno.lstatSync(link);
  } catch {
    Deno.symlinkSync(`${dir}/${name}`, link);
    Deno.linkSync(`${dir}/${name}`, hard);
  }
  return [`${dir}/${name}`, `${dir}/sub/../${name}`, link, hard];
}

/** Runs `args`, which must be refused with exit 2 and exactly `message`, changing nothing. */
async function refused(dir: string, args: string[], message: string): Promise<void> {
  const before = snapshot(dir);
  const r = await runMain(args);
  strictEqual(r.stderr, message, args.join(" "));
  strictEqual(r.code, 2, args.join(" "));
  deepStrictEqual(snapshot(dir), before, `files changed by: ${args.join(" ")}`);
}

/** The suffix naming the input's own path when the output names it another way. */
const as = (out: string, input: string) => (out === input ? "" : ` (${input})`);

Deno.test("assay score refuses an --out that is one of its inputs, by any of its names", async () => {
  const dir = await folder({
    "e.jsonl": `${demo}/examples.jsonl`,
    "g.jsonl": `${demo}/generations.base.jsonl`,
    "p.jsonl": `${demo}/prompts.jsonl`,
  });
  const inputs = {
    examples: `${dir}/e.jsonl`,
    generations: `${dir}/g.jsonl`,
    prompts: `${dir}/p.jsonl`,
  };
  const args = ["score", "--quiet", ...Object.entries(inputs).flatMap(([k, v]) => [`--${k}`, v])];
  for (const [flag, path] of Object.entries(inputs)) {
    const name = path.slice(dir.length + 1);
    for (const out of aliases(dir, name)) {
      await refused(
        dir,
        [...args, "--out", out],
        `assay score: --out ${out} is the --${flag} file${as(out, path)}`,
      );
    }
  }
  // An input at the temporary name of --out would be removed as a stale temporary file.
  const tmp = `${dir}/.r.json.assay-tmp`;
  Deno.copyFileSync(inputs.examples, tmp);
  await refused(
    dir,
    ["score", "--examples", tmp, "--generations", inputs.generations, "--out", `${dir}/r.json`],
    `assay score: --out ${dir}/r.json would write its temporary file over the --examples file ` +
      tmp,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay parse and canonicalize refuse an --out that is their input", async () => {
  const dir = await folder({ "o.jsonl": `${repo}samples/outputs.jsonl` });
  const input = `${dir}/o.jsonl`;
  for (const out of aliases(dir, "o.jsonl")) {
    for (const command of ["parse", "canonicalize"]) {
      await refused(
        dir,
        [command, input, "--out", out],
        `assay ${command}: --out ${out} is the input file${as(out, input)}`,
      );
    }
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay structured refuses an --out that is one of its inputs", async () => {
  const dir = await folder({
    "o.jsonl": `${structured}/outputs.jsonl`,
    "e.jsonl": `${structured}/expected.jsonl`,
    "s.json": `${structured}/schema.json`,
  });
  const inputs = { outputs: `${dir}/o.jsonl`, expected: `${dir}/e.jsonl`, schema: `${dir}/s.json` };
  const args = ["structured", ...Object.entries(inputs).flatMap(([k, v]) => [`--${k}`, v])];
  for (const [flag, path] of Object.entries(inputs)) {
    for (const out of aliases(dir, path.slice(dir.length + 1))) {
      await refused(
        dir,
        [...args, "--out", out],
        `assay structured: --out ${out} is the --${flag} file${as(out, path)}`,
      );
    }
  }
  await Deno.remove(dir, { recursive: true });
});

/** A folder with the demo's base and adapter reports, scored for the test. */
async function reports(): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const arm of ["base", "adapter"]) {
    const r = await runMain([
      "score",
      "--quiet",
      "--examples",
      `${demo}/examples.jsonl`,
      "--generations",
      `${demo}/generations.${arm}.jsonl`,
      "--out",
      `${dir}/${arm}.json`,
    ]);
    strictEqual(r.code, 0, r.stderr);
  }
  return dir;
}

Deno.test("assay compare and gaps refuse an --out or --html that is a report they read", async () => {
  const dir = await reports();
  const base = `${dir}/base.json`;
  const adapter = `${dir}/adapter.json`;
  for (const [label, path] of [["base report", base], ["adapter report", adapter]] as const) {
    for (const out of aliases(dir, path.slice(dir.length + 1))) {
      for (const flag of ["--out", "--html"]) {
        await refused(
          dir,
          ["compare", base, adapter, "--resamples", "10", flag, out],
          `assay compare: ${flag} ${out} is the ${label}${as(out, path)}`,
        );
      }
    }
  }
  for (const out of aliases(dir, "base.json").slice(1)) {
    await refused(
      dir,
      ["gaps", base, "--resamples", "10", "--out", out],
      `assay gaps: --out ${out} is the input file (${base})`,
    );
  }
  await refused(
    dir,
    ["gaps", base, "--out", base],
    `assay gaps: --out ${base} is the input file`,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("assay suite run refuses an --out or --store that is one of its inputs", async () => {
  const dir = await folder({
    "suite.yaml": `${suiteDemo}/suite.yaml`,
    "goldens.jsonl": `${suiteDemo}/goldens.jsonl`,
    "traces.jsonl": `${suiteDemo}/traces.jsonl`,
    "catalog.json": `${suiteDemo}/catalog.json`,
  });
  const inputs: [string, string][] = [
    ["suite file", `${dir}/suite.yaml`],
    ["--goldens file", `${dir}/goldens.jsonl`],
    ["--traces file", `${dir}/traces.jsonl`],
    ["--catalog file", `${dir}/catalog.json`],
  ];
  const args = [
    "suite",
    "run",
    `${dir}/suite.yaml`,
    "--goldens",
    `${dir}/goldens.jsonl`,
    "--traces",
    `${dir}/traces.jsonl`,
    "--catalog",
    `${dir}/catalog.json`,
    "--no-judge",
    "--quiet",
  ];
  for (const [what, path] of inputs) {
    for (const out of aliases(dir, path.slice(dir.length + 1))) {
      for (const flag of ["--out", "--store"]) {
        await refused(
          dir,
          [...args, flag, out],
          `assay suite run: ${flag} ${out} is the ${what}${as(out, path)}`,
        );
      }
    }
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("two outputs of one command may not name the same file", async () => {
  const dir = await reports();
  const base = `${dir}/base.json`;
  const cmp = `${dir}/cmp.json`;
  Deno.mkdirSync(`${dir}/sub`);
  await refused(
    dir,
    ["compare", base, base, "--out", cmp, "--html", `${dir}/sub/../cmp.json`],
    `assay compare: --html ${dir}/sub/../cmp.json is the --out file (${cmp})`,
  );
  await refused(
    dir,
    [
      "suite",
      "run",
      `${suiteDemo}/suite.yaml`,
      "--goldens",
      `${suiteDemo}/goldens.jsonl`,
      "--traces",
      `${suiteDemo}/traces.jsonl`,
      "--catalog",
      `${suiteDemo}/catalog.json`,
      "--no-judge",
      "--store",
      `${dir}/m.db`,
      "--out",
      `${dir}/m.db`,
    ],
    `assay suite run: --out ${dir}/m.db is the --store file`,
  );
  await Deno.remove(dir, { recursive: true });
});
