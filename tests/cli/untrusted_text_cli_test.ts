// What the text and Markdown outputs print of a report's own strings: ids and languages that hold
// escape sequences, line breaks, Markdown links or HTML reach no terminal and no step summary raw.
import { ok, strictEqual } from "node:assert/strict";
import { formatReport, scoreToolCalls, sha256Hex } from "../../mod.ts";
import { printableText } from "../../src/explain/mod.ts";
import { ensureDebianProgram } from "../_debian_python.ts";
import { runCli } from "./_main.ts";

const assay = runCli;

const RED = "\u001b[31mRED\u001b[0m";
const FORGED = "ok\nFAKE  pass  everything fine";
const LINK = "[click](http://e.vil)";
const IMG = "<img src=x onerror=alert(1)>";
const CLEAR = "en\u001b[2J";
const ANGLE = "e<n>";
const HOSTILE = [RED, FORGED, LINK, IMG];

const call = '{"name":"f","arguments":{"a":1}}';
// Four hostile ids and four plain ones in each language; the reference's are the roots.
const examples = [CLEAR, ANGLE].flatMap((language, l) =>
  [...HOSTILE, "p1", "p2", "p3", "p4"].map((id) => ({
    example_id: l === 0 ? id : `${id}/${ANGLE}`,
    language,
    root_id: l === 0 ? null : id,
    target: { name: "f", arguments: { a: 1 } },
  }))
);
/** A report where the hostile examples are right when `hostileRight`, the others always. */
function report(hostileRight: boolean) {
  return scoreToolCalls(
    examples,
    examples.map((e) => ({
      example_id: e.example_id,
      output: hostileRight || !HOSTILE.includes(e.root_id ?? e.example_id) ? call : "no call",
    })),
  );
}

/** Each line is as printableText shows it: no escape, no control, nothing that reorders it. */
function printable(text: string, what: string) {
  // (printableText quotes a line that starts with a quote: a quoted id at a line's start.)
  for (const line of text.split("\n")) {
    strictEqual(printableText(`x${line}`), `x${line}`, `${what}: ${line}`);
  }
  ok(!/^FAKE/m.test(text), `${what} has a forged line:\n${text}`);
}

Deno.test("score, compare, gaps and gate show ids and languages as printableText does, and gate's Markdown escapes them", async () => {
  const dir = await Deno.makeTempDir();
  const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
  await Deno.writeTextFile(`${dir}/examples.jsonl`, jsonl(examples));
  const prompts = examples.map((e) => ({
    example_id: e.example_id,
    prompt_sha256: sha256Hex(e.example_id),
    prompt: e.example_id,
  }));
  await Deno.writeTextFile(`${dir}/prompts.jsonl`, jsonl(prompts));
  const generations = examples.map((e) => ({
    example_id: e.example_id,
    prompt_sha256: sha256Hex(e.example_id),
    output: HOSTILE.includes(e.example_id) ? "no call" : call,
  }));
  // One generation missing: its id is listed.
  await Deno.writeTextFile(`${dir}/generations.jsonl`, jsonl(generations.slice(1)));
  const score = await assay([
    "score",
    "--quiet",
    "--examples",
    `${dir}/examples.jsonl`,
    "--generations",
    `${dir}/generations.jsonl`,
    "--prompts",
    `${dir}/prompts.jsonl`,
    "--allow-missing",
  ]);
  strictEqual(score.code, 0, score.stderr);
  printable(score.stdout, "score");
  ok(score.stdout.includes(`${printableText(CLEAR)}  `), score.stdout);
  ok(score.stdout.includes(`(${printableText(RED)})`), score.stdout);

  await Deno.writeTextFile(`${dir}/b.json`, formatReport(report(true)));
  await Deno.writeTextFile(`${dir}/a.json`, formatReport(report(false)));
  const compare = await assay(["compare", `${dir}/b.json`, `${dir}/a.json`, "--resamples", "50"]);
  strictEqual(compare.code, 0, compare.stderr);
  printable(compare.stdout, "compare");
  ok(compare.stdout.includes(printableText(FORGED)), compare.stdout);

  const gaps = await assay(["gaps", `${dir}/a.json`, "--reference", CLEAR, "--resamples", "50"]);
  strictEqual(gaps.code, 0, gaps.stderr);
  printable(gaps.stdout, "gaps");
  ok(gaps.stdout.includes(`${ANGLE} − ${printableText(CLEAR)}`), gaps.stdout);

  await Deno.writeTextFile(
    `${dir}/r.yaml`,
    `rules:\n  - metric: full_call_exact_match\n    min: 0.99\n  - metric: full_call_exact_match\n    slice: "${ANGLE}"\n    max_regressions: 0\n  - metric: valid_json_rate\n    slice: "en\\e[2J"\n    min: 0.99\n`,
  );
  const gate = await assay([
    "gate",
    `${dir}/r.yaml`,
    "--base",
    `${dir}/b.json`,
    "--candidate",
    `${dir}/a.json`,
    "--markdown",
    `${dir}/m.md`,
  ]);
  strictEqual(gate.code, 3, gate.stderr);
  printable(gate.stdout, "gate");
  ok(gate.stdout.includes(`FAIL  valid_json_rate (${printableText(CLEAR)}) >= 0.99`), gate.stdout);
  const md = await Deno.readTextFile(`${dir}/m.md`);
  printable(md, "gate --markdown");
  // No HTML, no link, no raw angle brackets: the slice e<n> shows as written.
  ok(!/[<>]/.test(md) && !md.includes("]("), md);
  ok(md.includes("e&lt;n&gt;"), md);
  ok(md.includes("\\[click\\]\\(http\\:\\/\\/e\\.vil\\)"), md);
  ok(md.includes("&lt;img src\\=x onerror\\=alert\\(1\\)&gt;"), md);
  ok(md.includes('\\"\\\\u001b\\[31mRED\\\\u001b\\[0m\\"'), md);

  // A report with another language: the refusal quotes it as printableText does.
  const other = scoreToolCalls(
    [{ example_id: "x", language: "de\u001b[2J\u202e", target: call }],
    [{ example_id: "x", output: call }],
  );
  await Deno.writeTextFile(`${dir}/o.json`, formatReport(other));
  const refused = await assay(["compare", `${dir}/b.json`, `${dir}/o.json`]);
  strictEqual(refused.code, 2, refused.stderr);
  ok(
    refused.stderr.startsWith(
      `assay compare: ${dir}/b.json (base) and ${dir}/o.json (adapter): Refusing to compare: `,
    ),
    refused.stderr,
  );
  printable(refused.stderr.trimEnd(), "Refusing to compare");
  // The slice quoted as JSON writes it (its ESC escaped), in the difference shown as a JSON string.
  ok(refused.stderr.includes(String.raw`\"de\\u001b[2J\u202e\"`), refused.stderr);
  await Deno.remove(dir, { recursive: true });
});

/** xmllint's answer on `file`: it is well-formed XML, and the value of each XPath expression. */
async function xpath(file: string, ...expressions: string[]): Promise<string[]> {
  await ensureDebianProgram("libxml2-utils", "/usr/bin/xmllint");
  const run = (args: string[]) => new Deno.Command("/usr/bin/xmllint", { args }).output();
  const wellFormed = await run(["--noout", file]);
  strictEqual(wellFormed.success, true, new TextDecoder().decode(wellFormed.stderr));
  const values = [];
  for (const e of expressions) {
    const out = await run(["--xpath", e, file]);
    strictEqual(out.success, true, new TextDecoder().decode(out.stderr));
    // xmllint ends the value with a line feed of its own.
    values.push(new TextDecoder().decode(out.stdout).replace(/\n$/, ""));
  }
  return values;
}

Deno.test("gate shows its rules file, and JUnit the failing ids and the rules file, as printableText does", async () => {
  const dir = await Deno.makeTempDir();
  // Ids that forge lines in a failure's text, reorder it, hide a character, or read alike once
  // their controls become U+FFFD.
  const ids = [
    "ok\nFAKE  pass",
    "ok\rFAKE  pass",
    "x\u202ey",
    "z\u200bw",
    "a\u001b",
    "a\u0008",
    "a\u0000",
    "p",
  ];
  const one = (right: boolean) =>
    formatReport(scoreToolCalls(
      ids.map((id) => ({
        example_id: id,
        language: "en",
        target: { name: "f", arguments: { a: 1 } },
      })),
      ids.map((id) => ({ example_id: id, output: right || id === "p" ? call : "no call" })),
    ));
  await Deno.writeTextFile(`${dir}/b.json`, one(true));
  await Deno.writeTextFile(`${dir}/a.json`, one(false));
  const rules = `${dir}/r\u001b[31mX\nFAKE.json`;
  await Deno.writeTextFile(
    rules,
    JSON.stringify({ rules: [{ metric: "full_call_exact_match", max_regressions: 0 }] }),
  );
  const gate = await assay([
    "gate",
    rules,
    "--base",
    `${dir}/b.json`,
    "--candidate",
    `${dir}/a.json`,
    "--junit",
    `${dir}/j.xml`,
  ]);
  strictEqual(gate.code, 3, gate.stderr);
  printable(gate.stdout, "gate");
  ok(gate.stdout.includes(`\n${printableText(rules)}: FAILED, 0 of 1 rule holds`), gate.stdout);
  const [failure, suite] = await xpath(
    `${dir}/j.xml`,
    "string(//failure)",
    "string(/testsuites/@name)",
  );
  printable(failure!, "JUnit failure");
  ok(
    failure!.endsWith(`\nFailing examples: ${ids.slice(0, -1).map(printableText).join(", ")}`),
    failure,
  );
  strictEqual(suite, `assay gate ${printableText(rules)}`);
  await Deno.remove(dir, { recursive: true });
});
