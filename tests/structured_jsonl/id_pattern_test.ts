// The rows of an outputs or expected file all have an id or none does (then each is named by its
// line, `line N`): a file with ids on some rows only is refused at the first row that breaks the
// first row's pattern, with or without an expected file, so that no row's name is given twice.
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { scoreStructuredJsonl, StructuredInputError } from "../../src/structured_jsonl/mod.ts";
import { runMain } from "../cli/_main.ts";

const enc = new TextEncoder();
const names = { outputs: "o.jsonl", expected: "e.jsonl" };

/** Rejects with a StructuredInputError of this message, at these places. */
async function refused(
  run: Promise<unknown>,
  message: string,
  locations: { source: string; line: number; id?: string }[],
): Promise<void> {
  await rejects(run, (e) => {
    ok(e instanceof StructuredInputError, String(e));
    strictEqual(e.message, message);
    deepStrictEqual(e.locations, locations);
    deepStrictEqual([e.source, e.line, e.id], [
      locations[0]!.source,
      locations[0]!.line,
      locations[0]!.id,
    ]);
    return true;
  });
}

Deno.test("an outputs file with ids on some rows only is refused, with or without expected rows", async () => {
  // Its second row would be named "line 2", the first row's id.
  const outputs = enc.encode('{"id": "line 2", "output": "<a/>"}\n{"output": "x"}\n');
  const message =
    'o.jsonl:2: missing field "id" (line 1 has one: the rows must all have an id, or none)';
  const at = [{ source: "o.jsonl", line: 2 }, { source: "o.jsonl", line: 1, id: "line 2" }];
  await refused(scoreStructuredJsonl({ outputs }, { names }), message, at);
  const expected = enc.encode('{"id": "line 2", "tool_calls": []}\n{"tool_calls": []}\n');
  await refused(scoreStructuredJsonl({ outputs, expected }, { names }), message, at);
});

Deno.test("a file whose first row has no id refuses the first row with one", async () => {
  const outputs = enc.encode(
    '{"output": "x"}\n\n{"output": "y"}\n{"example_id": 7, "output": "z"}\n',
  );
  await refused(
    scoreStructuredJsonl({ outputs }, { names }),
    'o.jsonl:4 (id "7"): an id, where line 1 has none (the rows must all have an id, or none)',
    [{ source: "o.jsonl", line: 4, id: "7" }, { source: "o.jsonl", line: 1 }],
  );
  // The expected file is held to it too, its outputs being right.
  const good = enc.encode('{"id": "a", "output": "x"}\n{"id": "b", "output": "y"}\n');
  const expected = enc.encode('{"id": "a", "tool_calls": []}\n{"tool_calls": []}\n');
  await refused(
    scoreStructuredJsonl({ outputs: good, expected }, { names }),
    'e.jsonl:2: missing field "id" (line 1 has one: the rows must all have an id, or none)',
    [{ source: "e.jsonl", line: 2 }, { source: "e.jsonl", line: 1, id: "a" }],
  );
  // A file with ids joins none without.
  await refused(
    scoreStructuredJsonl({ outputs: good, expected: enc.encode('{"tool_calls": []}\n') }, {
      names,
    }),
    'e.jsonl:1: missing field "id" (the rows of o.jsonl have ids: both files have them, or neither)',
    [{ source: "e.jsonl", line: 1 }],
  );
});

Deno.test("rows all with ids, or none, are named apart: an id may read like a line's name", async () => {
  const ids = enc.encode('{"id": "line 2", "output": "x"}\n{"id": "line 1", "output": "y"}\n');
  const { report } = await scoreStructuredJsonl({ outputs: ids }, { metrics: ["json_validity"] });
  deepStrictEqual(report.rows.map((r) => r.id), ["line 2", "line 1"]);
  const none = enc.encode('{"output": "x"}\n\n{"output": "y"}\n');
  const bare = await scoreStructuredJsonl({ outputs: none, expected: none });
  deepStrictEqual(bare.report.rows.map((r) => [r.line, r.id]), [[1, null], [3, null]]);
});

Deno.test("assay structured refuses a file with ids on some rows only: exit 2, file, line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/b.jsonl`,
      '{"id": "line 2", "output": "<a/>"}\n{"output": "x"}\n',
    );
    const r = await runMain([
      "structured",
      "--outputs",
      `${dir}/b.jsonl`,
      "--out",
      `${dir}/b.json`,
    ]);
    strictEqual(r.code, 2, r.stdout);
    ok(
      r.stderr.includes(
        'b.jsonl:2: missing field "id" (line 1 has one: the rows must all have an id, or none)',
      ),
      r.stderr,
    );
    await rejects(Deno.stat(`${dir}/b.json`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
