// The terminal tables keep their columns when slices hold wide characters (CJK, fullwidth forms,
// emoji) or combining marks: cells are padded by the columns a terminal gives them, not by their
// UTF-16 length.
import { ok, strictEqual } from "node:assert/strict";
import { sha256Hex } from "../../mod.ts";
import { codePointWidth, displayWidth } from "../../src/explain/mod.ts";
import { table } from "../../cli/_table.ts";
import { runMain } from "./_main.ts";

const SLICES = ["en", "日本語", "ｆｒ", "e\u0301s", "🙂", "mixe\u0301日🙂"];

/** The characters of a line by the terminal column they start at; marks join the one before. */
function byColumn(line: string): string[] {
  const cols: string[] = [];
  for (const c of line) {
    const w = codePointWidth(c.codePointAt(0)!);
    if (w === 0) cols[cols.length - 1] += c;
    else cols.push(c, ...(w === 2 ? [""] : []));
  }
  return cols;
}

/**
 * Problems of a table's lines: each column's cells must end where its dashes end, with the two
 * spaces between columns after them, on every line (the trimmed end of a line aside).
 */
function misaligned(lines: string[]): string[] {
  const dashes = lines[1]!;
  const ends = [...dashes.matchAll(/-+/g)].map((m) => m.index! + m[0].length);
  const problems: string[] = [];
  for (const line of lines) {
    const cols = byColumn(line);
    for (const end of ends.slice(0, -1)) {
      if (cols.length <= end) continue;
      if (cols[end] !== " " || cols[end + 1] !== " ") {
        problems.push(`${JSON.stringify(line)}: no column break at ${end}`);
      }
    }
    if (displayWidth(line) > displayWidth(dashes)) problems.push(`${JSON.stringify(line)}: wide`);
  }
  return problems;
}

Deno.test("table pads CJK, fullwidth, emoji and combining-mark cells by their columns", () => {
  const rows = SLICES.map((s, i) => [s, String(i * 100), `${s}|`]);
  const text = table(["slice", "n", "echo"], rows, 1);
  const lines = text.split("\n");
  strictEqual(misaligned(lines).length, 0, misaligned(lines).join("\n"));
  // The last column is right-aligned: every line is as wide as the dashes.
  for (const line of lines) strictEqual(displayWidth(line), displayWidth(lines[1]!), line);
  // The widest slice sets its column: mixé日🙂 is eight columns, 日本語 six.
  strictEqual(lines[1]!.split("  ")[0], "--------");
  ok(lines.includes(`日本語${" ".repeat(2 + 2)}100${" ".repeat(2 + 2)}日本語|`), text);
});

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

async function scored(dir: string, name: string, right: (i: number) => boolean) {
  const ids = SLICES.flatMap((s, i) => [`${i}a`, `${i}b`].map((id) => ({ id, language: s })));
  const call = (city: string) => JSON.stringify({ name: "get_weather", arguments: { city } });
  await Deno.writeTextFile(
    `${dir}/examples.jsonl`,
    jsonl(ids.map(({ id, language }) => ({
      example_id: id,
      language,
      target: { name: "get_weather", arguments: { city: "Kyoto" } },
    }))),
  );
  await Deno.writeTextFile(
    `${dir}/${name}.jsonl`,
    jsonl(ids.map(({ id }, i) => ({
      example_id: id,
      prompt_sha256: sha256Hex(id),
      output: call(right(i) ? "Kyoto" : "Osaka"),
    }))),
  );
  return await runMain([
    "score",
    "--quiet",
    "--examples",
    `${dir}/examples.jsonl`,
    "--generations",
    `${dir}/${name}.jsonl`,
    "--out",
    `${dir}/${name}.json`,
  ]);
}

Deno.test("assay score and compare align the columns of slices in any script", async () => {
  const dir = await Deno.makeTempDir();
  const base = await scored(dir, "base", (i) => i % 2 === 0);
  strictEqual(base.code, 0, base.stderr);
  const summary = base.stdout.split("\n\n")[0]!.split("\n");
  strictEqual(summary.length, 2 + 1 + SLICES.length, base.stdout);
  ok(summary.some((l) => l.startsWith("mixe\u0301日🙂 ")), base.stdout);
  strictEqual(misaligned(summary).length, 0, misaligned(summary).join("\n"));
  for (const line of summary) strictEqual(displayWidth(line), displayWidth(summary[1]!), line);

  strictEqual((await scored(dir, "adapter", (i) => i % 3 === 0)).code, 0);
  const compare = await runMain(["compare", `${dir}/base.json`, `${dir}/adapter.json`]);
  strictEqual(compare.code, 0, compare.stderr);
  const lines = compare.stdout.split("\n\n")[0]!.split("\n");
  strictEqual(lines.length, 2 + 5 * (1 + SLICES.length), compare.stdout);
  ok(lines.some((l) => l.startsWith("日本語 ")), compare.stdout);
  strictEqual(misaligned(lines).length, 0, misaligned(lines).join("\n"));
  await Deno.remove(dir, { recursive: true });
});
