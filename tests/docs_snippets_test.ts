// The code blocks of README.md and docs/*.md are what users copy: `deno test --doc` type-checks
// and runs every ts/js block of them (the package's own name resolves to this repository through
// deno.json), so an example that no longer compiles, or whose asserted figures drifted, fails here.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";

const root = new URL("../", import.meta.url);

/** README.md and every docs/*.md, relative to the repository's root, sorted. */
async function markdownFiles(): Promise<string[]> {
  const docs: string[] = [];
  for await (const e of Deno.readDir(new URL("docs/", root))) {
    if (e.isFile && e.name.endsWith(".md")) docs.push(`docs/${e.name}`);
  }
  return ["README.md", ...docs.sort()];
}

/** The languages `deno test --doc` extracts from Markdown (docs.deno.com, "doc tests"). */
const RUN_LANGUAGES = new Set([
  "js",
  "javascript",
  "mjs",
  "cjs",
  "jsx",
  "ts",
  "typescript",
  "mts",
  "cts",
  "tsx",
]);

/**
 * The ts/js blocks allowed an info string beyond their language (`ts ignore`, which `deno test
 * --doc` skips), each by its file and first line, with why it cannot be a runnable example. Any
 * other such fence fails the test: a new example cannot opt out of being run in silence.
 */
const ALLOWED_IGNORES: { file: string; firstLine: string; reason: string }[] = [
  {
    file: "README.md",
    firstLine: 'import wasmModule from "./assay.wasm";',
    reason:
      "a workerd worker: wrangler's bundler gives the .wasm import as a WebAssembly.Module, " +
      "Deno gives the instance's exports; the cross-runtime run serves this block on workerd",
  },
  {
    file: "docs/json_schema.md",
    firstLine: "export interface SchemaOptions {",
    reason: "the module's declarations as a signature sketch (bodiless functions and consts)",
  },
];

interface Fence {
  file: string;
  line: number;
  language: string;
  attributes: string;
  firstLine: string;
}

/** The fenced code blocks of a Markdown text (backtick or tilde fences, CommonMark's rules). */
function fences(file: string, text: string): Fence[] {
  const lines = text.split("\n");
  const found: Fence[] = [];
  let open: { marker: string; length: number } | undefined;
  lines.forEach((line, i) => {
    const m = /^[ \t]*(`{3,}|~{3,})(.*)$/.exec(line);
    if (open) {
      const close = m && m[1]![0] === open.marker && m[1]!.length >= open.length &&
        m[2]!.trim() === "";
      if (close) open = undefined;
      return;
    }
    if (!m || (m[1]![0] === "`" && m[2]!.includes("`"))) return;
    open = { marker: m[1]![0]!, length: m[1]!.length };
    const [language = "", ...rest] = m[2]!.trim().split(/[\s,{]+/);
    found.push({
      file,
      line: i + 1,
      language: language.toLowerCase(),
      attributes: rest.join(" ").trim(),
      firstLine: (lines[i + 1] ?? "").trim(),
    });
  });
  return found;
}

Deno.test("a ts/js block of README.md or docs/*.md is marked ignore only with a reason", async () => {
  const marked: string[] = [];
  const seen = new Set<string>();
  for (const file of await markdownFiles()) {
    const text = await Deno.readTextFile(new URL(file, root));
    for (const f of fences(file, text)) {
      if (!RUN_LANGUAGES.has(f.language) || f.attributes === "") continue;
      const allowed = ALLOWED_IGNORES.find((a) => a.file === f.file && a.firstLine === f.firstLine);
      if (allowed) seen.add(`${allowed.file}: ${allowed.firstLine}`);
      else marked.push(`${f.file}:${f.line}: \`\`\`${f.language} ${f.attributes}`);
    }
  }
  assertEquals(marked, [], "make these examples runnable, or add them to ALLOWED_IGNORES with why");
  // An entry whose block is gone or runs again is stale.
  const stale = ALLOWED_IGNORES.map((a) => `${a.file}: ${a.firstLine}`).filter((k) => !seen.has(k));
  assertEquals(stale, [], "ALLOWED_IGNORES lists blocks that are no longer marked");
});

/** `deno test --doc -A` over `files`, from the repository's root. */
async function docTest(files: string[]): Promise<{ success: boolean; output: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--doc", "-A", ...files],
    cwd: new URL(".", root).pathname,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const decoder = new TextDecoder();
  // NO_COLOR leaves a few escapes in deno's hints; the message is read as plain text.
  const output = (decoder.decode(out.stdout) + decoder.decode(out.stderr))
    .replace(new RegExp(`${String.fromCharCode(0x1b)}\\[[0-9;]*m`, "g"), "");
  return { success: out.success, output };
}

Deno.test("every ts/js block of README.md and docs/*.md type-checks and runs (deno test --doc)", async () => {
  const files = await markdownFiles();
  ok(files.length > 1, "docs/ holds Markdown files");
  // One process for all the files; only when it fails is each file run alone, to name the ones
  // that fail (a type error in one file stops the whole run before any test).
  const all = await docTest(files);
  if (all.success) return;
  const failing: string[] = [];
  const outputs: string[] = [];
  for (const file of files) {
    const one = await docTest([file]);
    if (one.success) continue;
    failing.push(file);
    outputs.push(`${file}:\n${one.output.trim().split("\n").slice(-40).join("\n")}`);
  }
  ok(failing.length > 0, `deno test --doc failed, though no file fails alone:\n${all.output}`);
  assertEquals(
    failing,
    [],
    `deno test --doc fails on ${failing.join(", ")}:\n\n${outputs.join("\n\n")}`,
  );
});
