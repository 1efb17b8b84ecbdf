// A key repeated in one object of a golden, a trace, the catalog or a label line is exit 2 at its
// file, line and column, with the row's id and where the key was first: JSON.parse kept the last
// value, so a golden {"id":"g1","expected":"a","expected":"b"} was scored against "b" without a
// word. Nothing is stored or written. A catalog that is not JSON is placed the same way.
import { strictEqual } from "node:assert/strict";
import { runMain } from "./_main.ts";
import { suiteInputs } from "./_suite_demo.ts";

const demo = new URL("../../samples/suite_demo", import.meta.url).pathname;

/** The demo's inputs in a new folder, with `edit` applied to the text of one file. */
async function demoWith(file: string, edit: (text: string) => string): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const f of ["suite.yaml", "goldens.jsonl", "traces.jsonl", "catalog.json"]) {
    const text = await Deno.readTextFile(`${demo}/${f}`);
    await Deno.writeTextFile(`${dir}/${f}`, f === file ? edit(text) : text);
  }
  return dir;
}

/** Replaces the first `from` in `text`, which must hold it. */
function once(text: string, from: string, to: string): string {
  strictEqual(text.includes(from), true, from);
  return text.replace(from, to);
}

/** `suite run` of the demo with `file` edited: exit 2 with `message`, nothing stored or written. */
async function refused(
  file: string,
  edit: (text: string) => string,
  message: string,
): Promise<void> {
  const dir = await demoWith(file, edit);
  const r = await runMain([
    "suite",
    "run",
    `${dir}/suite.yaml`,
    ...suiteInputs(dir),
    "--store",
    `${dir}/m.db`,
    "--out",
    `${dir}/r.json`,
    "--no-judge",
    "--quiet",
  ]);
  strictEqual(r.code, 2, r.stderr);
  strictEqual(r.stderr, `assay suite run: ${dir}/${message}`);
  for (const f of ["m.db", "r.json"]) {
    strictEqual(await Deno.stat(`${dir}/${f}`).then(() => true, () => false), false, f);
  }
  await Deno.remove(dir, { recursive: true });
}

Deno.test("assay suite run refuses a key repeated in a golden, at any depth", async () => {
  // g01's reference value given twice: the second was the one compared.
  await refused(
    "goldens.jsonl",
    (t) => once(t, '{"revenue_usd":1284350.75}', '{"revenue_usd":1,"revenue_usd":1284350.75}'),
    'goldens.jsonl:1:137 (id "g01"): Duplicate key "revenue_usd" (first at 1:121)',
  );
  // A repeated id is not named as the row's id; an escaped key repeats its decoded text.
  await refused(
    "goldens.jsonl",
    (t) => once(t, '{"id":"g01"', '{"id":"g00","\\u0069d":"g01"'),
    'goldens.jsonl:1:13: Duplicate key "id" (first at 1:2)',
  );
});

Deno.test("assay suite run refuses a key repeated in a trace, naming its golden", async () => {
  await refused(
    "traces.jsonl",
    (t) => {
      const lines = t.split("\n");
      lines[2] = once(lines[2]!, '"submitted":', '"submitted":false,"submitted":');
      return lines.join("\n");
    },
    'traces.jsonl:3:731 (golden_id "g01"): Duplicate key "submitted" (first at 3:713)',
  );
});

Deno.test("assay suite run refuses a key repeated in the catalog, at its line and column", async () => {
  await refused(
    "catalog.json",
    (t) => once(t, '"name": "orders"', '"name": "x", "name": "orders"'),
    'catalog.json:4:20: Duplicate key "name" (first at 4:7)',
  );
});

Deno.test("assay suite run names a catalog's JSON syntax error at its line and column", async () => {
  // It was "catalog.json: not valid JSON", though a repeated key in the same file was placed.
  await refused(
    "catalog.json",
    (t) => once(t, "]\n}", "],\n}"),
    // At the "}" after the comma, where a property name was expected (as Python's json says).
    "catalog.json:67:1: not valid JSON (expecting_property_name)",
  );
});

Deno.test("assay calibrate refuses a key repeated in a label line", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/l.jsonl`,
    '{"human":1,"judge":0.5}\n\n{"human":0,"judge":0.5,"\\u0068uman":1}\n',
  );
  const r = await runMain(["calibrate", "--labels", `${dir}/l.jsonl`, "--out", `${dir}/c.json`]);
  strictEqual(r.code, 2, r.stderr);
  strictEqual(
    r.stderr,
    `assay calibrate: ${dir}/l.jsonl:3:24: Duplicate key "human" (first at 3:2)`,
  );
  strictEqual(await Deno.stat(`${dir}/c.json`).then(() => true, () => false), false);
  await Deno.remove(dir, { recursive: true });
});
