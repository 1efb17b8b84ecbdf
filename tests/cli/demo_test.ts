// The bundled demo: regenerating it gives the committed files byte for byte, and it scores.
import { deepStrictEqual as assertEquals, strictEqual } from "node:assert/strict";

const demo = new URL("../../samples/demo/", import.meta.url);
const OUTPUTS = [
  "examples.jsonl",
  "prompts.jsonl",
  "generations.base.jsonl",
  "generations.adapter.jsonl",
];

Deno.test("make_demo.ts regenerates the committed demo byte for byte", async () => {
  const dir = await Deno.makeTempDir();
  for (const f of ["make_demo.ts", "_tools.ts", "_json.ts"]) {
    await Deno.copyFile(new URL(f, demo), `${dir}/${f}`);
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", `--allow-write=${dir}`, `${dir}/make_demo.ts`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(out.code, 0, new TextDecoder().decode(out.stderr));
  for (const f of OUTPUTS) {
    const fresh = await Deno.readFile(`${dir}/${f}`);
    const committed = await Deno.readFile(new URL(f, demo));
    strictEqual(fresh.length, committed.length, f);
    assertEquals(fresh, committed, f);
  }
  await Deno.remove(dir, { recursive: true });
});
