// The library's scoreStructuredJsonl on the scale bench's files (bench/structured_scale.ts
// --library): the report with every row as an object and its bytes whole, both held when it ends.
// Prints the rows and the bytes' length to stderr.
//
//   deno run -A bench/_structured_library.ts DIR
import { scoreStructuredJsonl } from "../src/structured_jsonl/mod.ts";

const dir = Deno.args[0];
if (dir === undefined) throw new Error("usage: _structured_library.ts DIR");
const file = (name: string) => () => Deno.openSync(`${dir}/${name}`).readable;
const { report, bytes } = await scoreStructuredJsonl({
  outputs: file("outputs.jsonl"),
  expected: file("expected.jsonl"),
  schema: file("schema.json"),
}, { format: "Answer: [0-9]+" });
console.error(`${report.rows.length} rows, ${bytes.length} bytes`);
