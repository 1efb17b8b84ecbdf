// scoreStructuredJsonl() gives the bytes `assay structured --out` writes, and the CLI's refusals
// are the library's errors: on seeded varied rows, with and without expected rows, with a decoder,
// in each mode, on both engines; and with one broken row, at its file, line and id.
import { ok, strictEqual } from "node:assert/strict";
import { createEngine } from "../../mod.ts";
import { getDecoder } from "../../src/formats/mod.ts";
import {
  scoreStructuredJsonl,
  type ScoreStructuredJsonlOptions,
  StructuredInputError,
} from "../../src/structured_jsonl/mod.ts";
import { runMain } from "../cli/_main.ts";
import { makeRng } from "../_corpus.ts";
import { assertSameBytes, variedRows } from "./_rows.ts";

const enc = new TextEncoder();
const SCHEMA =
  '{"type": "object", "required": ["answer"], "properties": {"answer": {"type": "integer"}}}';

interface Case {
  name: string;
  /** The CLI's flags after the files. */
  flags: string[];
  /** The same as the library's options. */
  options: ScoreStructuredJsonlOptions;
  expected: boolean;
  schema: boolean;
  ids?: boolean;
}

const CASES: Case[] = [
  {
    name: "every metric, fenced",
    flags: ["--format", "Answer: [0-9]+", "--mode", "fenced"],
    options: { format: "Answer: [0-9]+", mode: "fenced" },
    expected: true,
    schema: true,
  },
  {
    name: "no expected rows, lenient",
    flags: ["--mode", "lenient", "--format", "[^x]*"],
    options: { mode: "lenient", format: "[^x]*" },
    expected: false,
    schema: true,
  },
  {
    name: "Hermes decoder, subset match, numbers numeric",
    flags: ["--call-format", "hermes", "--match", "subset", "--numbers", "numeric"],
    options: { decoder: getDecoder("hermes"), match: "subset", numbers: "numeric" },
    expected: true,
    schema: false,
  },
  {
    name: "metrics chosen, name match, ordered",
    flags: [
      "--metrics",
      "tool_call_f1, json_validity,tool_call_f1,tool_selection_accuracy",
      "--match",
      "name",
      "--ordered",
    ],
    options: {
      metrics: ["tool_call_f1", "json_validity", "tool_call_f1", "tool_selection_accuracy"],
      match: "name",
      ordered: true,
    },
    expected: true,
    schema: false,
  },
  {
    name: "no ids: joined by line order",
    flags: ["--format-assertion"],
    options: { formatAssertion: true },
    expected: true,
    schema: true,
    ids: false,
  },
];

Deno.test("scoreStructuredJsonl() writes the bytes assay structured --out writes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "assay_structured_parity_" });
  const rng = makeRng(2207);
  try {
    for (const [k, c] of CASES.entries()) {
      const rows = variedRows(rng, { count: 80, ids: c.ids });
      await Deno.writeTextFile(`${dir}/o.jsonl`, rows.outputs);
      await Deno.writeTextFile(`${dir}/e.jsonl`, rows.expected);
      await Deno.writeTextFile(`${dir}/s.json`, SCHEMA);
      for (const engine of ["ts", "wasm"] as const) {
        const out = `${dir}/r${k}${engine}.json`;
        const run = await runMain([
          "structured",
          "--outputs",
          `${dir}/o.jsonl`,
          ...(c.expected ? ["--expected", `${dir}/e.jsonl`] : []),
          ...(c.schema ? ["--schema", `${dir}/s.json`] : []),
          ...c.flags,
          "--engine",
          engine,
          "--out",
          out,
          "--quiet",
        ]);
        strictEqual(run.code, 0, `${c.name}: ${run.stderr}`);
        const { report, bytes } = await scoreStructuredJsonl(
          {
            outputs: enc.encode(rows.outputs),
            ...(c.expected && { expected: enc.encode(rows.expected) }),
            ...(c.schema && { schema: enc.encode(SCHEMA) }),
          },
          { ...c.options, engine: createEngine({ engine }) },
        );
        const written = await Deno.readFile(out);
        assertSameBytes(bytes, written, `${c.name} on ${engine}`);
        strictEqual(report.rows.length, 80);
        // The first case computes all thirteen metrics.
        ok(Object.keys(report.metrics).length >= (k === 0 ? 13 : 2), c.name);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** One broken row: what to write, and where the error must point. */
interface Fault {
  name: string;
  /** Breaks row `i` of the outputs' lines or of the expected rows' lines. */
  file: "outputs" | "expected";
  edit: (line: string) => string;
  /** The error names the row's id. */
  withId: boolean;
  metric?: string;
}

const FAULTS: Fault[] = [
  { name: "malformed JSON", file: "outputs", edit: (l) => l.slice(0, -3), withId: false },
  { name: "not an object", file: "outputs", edit: () => "[1, 2]", withId: false },
  {
    name: "checks hold a number",
    file: "outputs",
    edit: (l) => l.replace(/"checks":\[[^\]]*\]/, '"checks":[true,3]'),
    withId: true,
    metric: "instruction_compliance_rate",
  },
  {
    name: "an API result is a string",
    file: "outputs",
    edit: (l) => l.replace(/"api_results":\[[^\]]*\]/, '"api_results":[true,"bad"]'),
    withId: true,
    metric: "api_call_success_rate",
  },
  {
    name: "output is a number",
    file: "outputs",
    edit: (l) => l.replace(/"output":"(?:[^"\\]|\\.)*"/, '"output":7'),
    withId: true,
  },
  {
    name: "an expected call is malformed",
    file: "expected",
    edit: (l) => l.replace(/"tool_calls":.*\}$/, '"tool_calls":[{"nome":"g"}]}'),
    withId: true,
    metric: "tool_selection_accuracy",
  },
  {
    name: "expected fields are a list",
    file: "expected",
    edit: (l) => l.replace(/"fields":\{[^}]*\}/, '"fields":[1]'),
    withId: true,
  },
];

Deno.test("a broken row: the CLI prints the library's error, which carries its file, line and id", async () => {
  const dir = await Deno.makeTempDir({ prefix: "assay_structured_faults_" });
  const rng = makeRng(3301);
  try {
    for (const fault of FAULTS) {
      const rows = variedRows(rng, { count: 30 });
      const lines = { outputs: rows.outputs.split("\n"), expected: rows.expected.split("\n") };
      const at = 1 + rng.int(28);
      const broken = lines[fault.file][at]!;
      const id = /^\{"id":("(?:[^"\\]|\\.)*"|\d+)/.exec(broken)![1]!;
      lines[fault.file][at] = fault.edit(broken);
      ok(lines[fault.file][at] !== broken, fault.name);
      const paths = { outputs: `${dir}/o.jsonl`, expected: `${dir}/e.jsonl` };
      await Deno.writeTextFile(paths.outputs, lines.outputs.join("\n"));
      await Deno.writeTextFile(paths.expected, lines.expected.join("\n"));
      const run = await runMain([
        "structured",
        "--outputs",
        paths.outputs,
        "--expected",
        paths.expected,
        "--engine",
        "ts",
      ]);
      let caught: unknown;
      try {
        await scoreStructuredJsonl(
          {
            outputs: enc.encode(lines.outputs.join("\n")),
            expected: enc.encode(lines.expected.join("\n")),
          },
          { names: paths, engine: createEngine({ engine: "ts" }) },
        );
      } catch (e) {
        caught = e;
      }
      ok(caught instanceof StructuredInputError, `${fault.name}: ${caught}`);
      strictEqual(run.code, 2, fault.name);
      strictEqual(run.stderr, `assay structured: ${caught.message}`, fault.name);
      strictEqual(caught.source, paths[fault.file], fault.name);
      strictEqual(caught.line, at + 1, fault.name);
      strictEqual(caught.id, fault.withId ? String(JSON.parse(id)) : undefined, fault.name);
      strictEqual(caught.metric, fault.metric, fault.name);
      ok(caught.message.startsWith(`${paths[fault.file]}:${at + 1}`), caught.message);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
