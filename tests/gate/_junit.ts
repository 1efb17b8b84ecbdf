// JUnit XML as CI reads it: valid against the JUnit schema in tests/fixtures/junit, by xmllint.
import { strictEqual } from "node:assert/strict";
import { ensureDebianProgram } from "../_debian_python.ts";

/** Fails unless `xml` validates against tests/fixtures/junit/junit.xsd (`xmllint --schema`). */
export async function assertValidJunit(xml: string): Promise<void> {
  await ensureDebianProgram("libxml2-utils", "/usr/bin/xmllint");
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/g.xml`, xml);
    const schema = new URL("../fixtures/junit/junit.xsd", import.meta.url).pathname;
    const out = await new Deno.Command("/usr/bin/xmllint", {
      args: ["--noout", "--schema", schema, `${dir}/g.xml`],
    }).output();
    strictEqual(out.success, true, new TextDecoder().decode(out.stderr));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
