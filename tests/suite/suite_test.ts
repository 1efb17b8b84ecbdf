// The suite loader: YAML and JSONC load into the same suite; every problem names file, line and field.
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  closestName,
  loadSuite,
  suiteChecks,
  type SuiteError,
  SuiteError as SuiteErrorClass,
} from "../../src/suite/mod.ts";

const FIXTURES = new URL("../fixtures/suites/", import.meta.url);

function issuesOf(text: string, source = "s.yaml"): SuiteError["issues"] {
  try {
    loadSuite(text, { source });
  } catch (e) {
    ok(e instanceof SuiteErrorClass, String(e));
    return e.issues;
  }
  throw new Error("expected a SuiteError");
}

Deno.test("loadSuite() loads every YAML example of the reference unchanged", () => {
  const files = [...Deno.readDirSync(FIXTURES)].map((e) => e.name).filter((n) =>
    n.startsWith("reference_")
  ).sort();
  strictEqual(files.length, 7);
  const got = files.map((f) => {
    const s = loadSuite(Deno.readTextFileSync(new URL(f, FIXTURES)), { source: f });
    return [f, s.metrics.map((m) => `${m.name}:${m.type}@${m.threshold}`)];
  });
  deepStrictEqual(got, [
    ["reference_1_overview.yaml", [
      "schema_membership:schema_membership@1",
      "reference_value_match:reference_value_match@0.5",
      "sql_soundness:llm_judge@0.5",
    ]],
    ["reference_2_deterministic.yaml", [
      "schema_membership:schema_membership@1",
      "expected_view_recall:expected_view_recall@0.5",
      "reference_value_match:reference_value_match@0.5",
      "step_efficiency:step_efficiency@0.8",
      "hit_limit:hit_limit@0.5",
    ]],
    ["reference_3_judge_sql_soundness.yaml", ["sql_soundness:llm_judge@0.7"]],
    ["reference_4_preset_answer_correctness.yaml", ["answer_correctness:llm_judge@0.7"]],
    ["reference_5_preset_sql_soundness.yaml", ["sql_soundness:llm_judge@0.5"]],
    ["reference_6_preset_groundedness.yaml", ["groundedness:llm_judge@0.7"]],
    ["reference_7_combined.yaml", [
      "schema_membership:schema_membership@1",
      "expected_view_recall:expected_view_recall@0.5",
      "reference_value_match:reference_value_match@0.5",
      "step_efficiency:step_efficiency@0.5",
      "hit_limit:hit_limit@0.5",
      "sql_soundness:llm_judge@0.5",
    ]],
  ]);
});

Deno.test("loadSuite() folds a YAML > block the way YAML does", () => {
  const s = loadSuite(
    Deno.readTextFileSync(new URL("reference_6_preset_groundedness.yaml", FIXTURES)),
  );
  strictEqual(
    s.metrics[0]!.params.criteria,
    "Does the final natural-language answer accurately reflect the query_results returned, " +
      "without fabricating or omitting material facts? This checks internal consistency only -- " +
      "it does not check whether query_results are themselves correct.\n",
  );
});

Deno.test("loadSuite() gives YAML and JSONC the same suite", () => {
  const yaml =
    "name: demo\nmetrics:\n  - type: step_efficiency\n    threshold: 0.8\n  - type: hit_limit\n";
  const jsonc =
    '// demo\n{"name": "demo", "metrics": [{"type": "step_efficiency", "threshold": 0.8},' +
    ' /* c */ {"type": "hit_limit"},]}';
  deepStrictEqual(
    loadSuite(yaml, { source: "a.yaml" }),
    loadSuite(jsonc, { source: "a.jsonc" }),
  );
  deepStrictEqual(loadSuite(yaml).name, "demo");
  deepStrictEqual(
    loadSuite("- type: hit_limit\n", { source: "dir/my.suite.yaml" }).name,
    "my.suite",
  );
});

Deno.test("loadSuite() suggests the closest metric type for a misspelling", () => {
  deepStrictEqual(issuesOf("metrics:\n  - type: schema_membrship\n"), [{
    source: "s.yaml",
    line: 2,
    column: 11,
    field: "metrics[0].type",
    message: 'Unknown metric type "schema_membrship"',
    suggestion: "schema_membership",
  }]);
  const far = issuesOf("metrics:\n  - type: bleu\n");
  strictEqual(far[0]!.suggestion, undefined);
});

Deno.test("loadSuite() requires a name when a type repeats, and unique names", () => {
  const repeat = issuesOf("metrics:\n  - type: hit_limit\n  - type: hit_limit\n");
  deepStrictEqual(repeat.map((i) => [i.line, i.field]), [[2, "metrics[0]"], [3, "metrics[1]"]]);
  ok(repeat.every((i) => /more than once/.test(i.message)));
  const dup = issuesOf(
    "metrics:\n  - type: hit_limit\n    name: a\n  - type: step_efficiency\n    name: a\n",
  );
  deepStrictEqual(dup.map((i) => [i.line, i.field, i.message]), [
    [5, "metrics[1].name", 'Duplicate metric name "a" (first used by metrics[0])'],
  ]);
});

Deno.test("loadSuite() reports bad thresholds, unknown fields and shapes with positions", () => {
  const issues = issuesOf(
    "metrics:\n  - type: hit_limit\n    threshold: 1.5\n    parms: {}\n  - 7\nextra: 1\n",
  );
  deepStrictEqual(issues.map((i) => [i.line, i.column, i.field, i.suggestion]), [
    [3, 16, "metrics[0].threshold", undefined],
    [4, 5, "metrics[0].parms", "params"],
    [5, 5, "metrics[1]", undefined],
    [6, 1, "extra", undefined],
  ]);
  strictEqual(issuesOf("metrics: []\n")[0]!.message, "Expected at least one metric");
  strictEqual(issuesOf("name: x\n")[0]!.message, 'Missing field "metrics"');
  strictEqual(issuesOf("42\n")[0]!.field, "");
});

Deno.test("loadSuite() reports YAML and JSONC syntax errors with their line", () => {
  const y = issuesOf("metrics:\n  - type: hit_limit\n   bad: [\n");
  ok(y.length > 0 && y[0]!.line >= 2, JSON.stringify(y));
  const j = issuesOf('{"metrics": [\n  {"type": "hit_limit"\n]}', "s.jsonc");
  ok(j.length > 0 && j[0]!.line === 3, JSON.stringify(j));
  const dupKey = issuesOf("metrics:\n  - type: hit_limit\n    type: step_efficiency\n");
  strictEqual(dupKey[0]!.line, 3);
});

Deno.test("loadSuite() refuses a JSONC key repeated in one object, compared by its decoded value", () => {
  const at = (text: string) =>
    issuesOf(text, "s.json").map((i) => [i.line, i.column, i.field, i.message]);
  // A second metrics list replaced the first without a word.
  deepStrictEqual(
    at('{"metrics":[{"type":"hit_limit"}],\n "metrics":[{"type":"step_efficiency"}]}'),
    [
      [2, 2, "", 'Duplicate key "metrics" (first at 1:2)'],
    ],
  );
  // An escaped key is the same key.
  deepStrictEqual(
    at('{"metrics":[{"type":"hit_limit","\\u0074hreshold":0.2,"threshold":0.9}]}'),
    [[1, 54, "", 'Duplicate key "threshold" (first at 1:33)']],
  );
  // Inside params too, and every repeat at once, in file order.
  deepStrictEqual(
    at(
      '{"metrics":[{"type":"trajectory_match","params":{"trajectory":"in_order",\n' +
        '  "tools":{"run_sql":["query"],"run_sql":"ignore"}}}],\n "name":"a", "name":"b"}',
    ),
    [
      [2, 32, "", 'Duplicate key "run_sql" (first at 2:12)'],
      [3, 14, "", 'Duplicate key "name" (first at 3:2)'],
    ],
  );
  // Equal keys in different objects are not repeats.
  strictEqual(
    loadSuite('[{"type":"hit_limit","name":"a"},{"type":"hit_limit","name":"b"}]', {
      source: "s.json",
    }).metrics.length,
    2,
  );
});

Deno.test("loadSuite() reads YAML 1.2 only, whatever a %YAML directive says", () => {
  const at = (text: string) => issuesOf(text).map((i) => [i.line, i.column, i.message]);
  const refused =
    "A %YAML 1.1 directive is not read: documents are YAML 1.2 (core schema); remove the directive";
  // Under YAML 1.1 a merge key copied metric a into b, and the key n of repeats read as false.
  const merge = "metrics:\n  - &m\n    type: trajectory_match\n    name: a\n" +
    "    params: {trajectory: in_order}\n  - <<: *m\n    name: b\n";
  deepStrictEqual(at(`%YAML 1.1\n---\n${merge}`), [[1, 1, refused]]);
  deepStrictEqual(
    at("# a suite\n%YAML 1.1\n---\nrepeats: {n: 3, reducer: mean}\nmetrics: [{type: hit_limit}]\n"),
    [[2, 1, refused]],
  );
  deepStrictEqual(at("%YAML 1.3\n---\nmetrics: [{type: hit_limit}]\n"), [
    [1, 7, "Unsupported YAML version 1.3"],
  ]);
  // Without the directive a merge key is an unknown field, as before.
  deepStrictEqual(at(merge), [[6, 5, 'Unknown field "<<"'], [6, 5, 'Missing field "type"']]);
  strictEqual(loadSuite("%YAML 1.2\n---\nmetrics: [{type: hit_limit}]\n").metrics.length, 1);
});

Deno.test("loadSuite() refuses a tag the YAML core schema does not have, at the tag", () => {
  const at = (text: string) => issuesOf(text).map((i) => [i.line, i.column, i.message]);
  deepStrictEqual(at("metrics:\n  - type: hit_limit\n    name: !custom foo\n"), [
    [3, 11, "Unresolved tag: !custom"],
  ]);
  deepStrictEqual(
    at("%TAG ! tag:evil.com,2000:\n---\nmetrics:\n  - type: hit_limit\n    name: !foo x\n"),
    [[5, 11, "Unresolved tag: tag:evil.com,2000:foo"]],
  );
  // YAML 1.1's types are not the core schema's: !!binary was read as bytes, !!set as a Set.
  deepStrictEqual(
    at("metrics:\n  - type: hit_limit\n    params: {a: !!binary aGk=, b: !!set {x}}\n"),
    [
      [3, 17, "Unresolved tag: tag:yaml.org,2002:binary"],
      [3, 35, "Unresolved tag: tag:yaml.org,2002:set"],
    ],
  );
  // The core schema's own tags read where the text fits them; npm:yaml's !!float wants a point.
  deepStrictEqual(at("metrics:\n  - type: hit_limit\n    threshold: !!float 1\n"), [
    [3, 16, "Unresolved tag: tag:yaml.org,2002:float"],
  ]);
  deepStrictEqual(
    loadSuite("metrics:\n  - type: hit_limit\n    name: !!str 1\n    threshold: !!int '1'\n")
      .metrics.map((m) => [m.name, m.threshold]),
    [["1", 1]],
  );
});

Deno.test("loadSuite() refuses __proto__ keys and alias bombs", () => {
  strictEqual(issuesOf("metrics:\n  - type: hit_limit\n    __proto__: {}\n")[0]!.line, 3);
  strictEqual(
    issuesOf('{"metrics": [{"type": "hit_limit", "__proto__": {}}]}', "s.jsonc")[0]!.line,
    1,
  );
  const bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" +
    Array.from(
      { length: 9 },
      (_, i) =>
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [` +
        Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(", ") + "]",
    ).join("\n") +
    "\nmetrics:\n  - type: hit_limit\n";
  // At the alias that passes the limit, not at 1:1: the ninth *b, b counting 10 uses of 11 each.
  deepStrictEqual(issuesOf(bomb).map((i) => [i.line, i.column, i.message]), [
    [3, 40, "Excessive alias count indicates a resource exhaustion attack"],
  ]);
  deepStrictEqual(
    issuesOf("metrics:\n  - type: hit_limit\n    name: *n\n").map((i) => [i.line, i.column]),
    [
      [3, 11],
    ],
  );
});

Deno.test("loadSuite() says what a non-finite threshold or repeat count was written as", () => {
  const messages = (text: string, source = "s.yaml") =>
    issuesOf(text, source).map((i) => `${i.field}: ${i.message}`);
  // JSON.stringify wrote each of these as "got null".
  deepStrictEqual(
    messages(
      "metrics:\n  - type: hit_limit\n    threshold: 1e400\nrepeats: {n: .nan, reducer: mean}\n",
    ),
    [
      "metrics[0].threshold: Expected a number in [0, 1], got Infinity (a number too large for a double, or .inf)",
      "repeats.n: Expected an integer ≥ 1, got NaN (.nan)",
    ],
  );
  deepStrictEqual(
    messages(
      "metrics:\n  - type: hit_limit\n    threshold: .nan\nrepeats: {n: 1, k: -.inf, reducer: at_least_k}\n",
    ),
    [
      "metrics[0].threshold: Expected a number in [0, 1], got NaN (.nan)",
      "repeats.k: Expected an integer ≥ 1, got -Infinity (a number too large for a double, or -.inf)",
    ],
  );
  deepStrictEqual(messages('{"metrics": [{"type": "hit_limit", "threshold": -1e400}]}', "s.json"), [
    "metrics[0].threshold: Expected a number in [0, 1], got -Infinity (a number too large for a double, or -.inf)",
  ]);
  strictEqual(
    issuesOf("metrics:\n  - type: hit_limit\n    threshold: null\n")[0]!.message,
    "Expected a number in [0, 1], got null",
  );
});

Deno.test("loadSuite() fills a judge from a preset and lets fields override it", () => {
  const presets = {
    groundedness: {
      threshold: 0.7,
      params: { criteria: "c", evaluation_params: ["final_answer"] },
    },
  };
  const s = loadSuite("- type: llm_judge\n  preset: groundedness\n  threshold: 0.9\n", { presets });
  deepStrictEqual(s.metrics, [{
    type: "llm_judge",
    name: "groundedness",
    threshold: 0.9,
    params: { criteria: "c", evaluation_params: ["final_answer"] },
  }]);
  throws(
    () => loadSuite("- type: llm_judge\n  preset: groundednes\n", { presets }),
    /did you mean "groundedness"/,
  );
  throws(
    () => loadSuite("- type: hit_limit\n  preset: groundedness\n", { presets }),
    /Only an llm_judge/,
  );
});

Deno.test("suiteChecks() names every bad deterministic param at its line, with a suggestion", () => {
  // They were all reported at their metric's params key, the first one only, with no suggestion.
  const text = [
    "metrics:",
    "  - type: trajectory_match",
    "    name: calls",
    "    params:",
    "      trajectory: exakt",
    "      arguments: subsett",
    "      tools:",
    "        run_sql: {ignroe: [x]}",
    "  - type: schema_membership",
    "    params: {dialect: postgres}",
    "  - type: reference_value_match",
    "    params: {abs_tol: -1, rel_tol: 0.1}",
    "  - type: trajectory_match",
    "    name: route",
    "",
  ].join("\n");
  const issues = (() => {
    try {
      loadSuite(text, { source: "p.yaml", ...suiteChecks() });
    } catch (e) {
      ok(e instanceof SuiteErrorClass, String(e));
      return e.issues;
    }
    throw new Error("no SuiteError");
  })();
  deepStrictEqual(issues.map((i) => [i.line, i.column, i.field, i.suggestion]), [
    [5, 19, "metrics[0].params.trajectory", "exact"],
    [6, 18, "metrics[0].params.arguments", "subset"],
    [8, 19, "metrics[0].params.tools.run_sql.ignroe", "ignore"],
    [10, 23, "metrics[1].params.dialect", "postgresql"],
    [12, 23, "metrics[2].params.abs_tol", undefined],
    [13, 5, "metrics[3].params.trajectory", undefined],
  ]);
  strictEqual(
    issues[5]!.message,
    "trajectory must be one of strict, unordered, subset, superset, in_order, exact: it is required",
  );
});

Deno.test("loadSuite() reports an unknown preset alone, not the params it would have given", () => {
  // The judge's params check ran on the empty params and added "Exactly one of criteria or
  // evaluation_steps is required", ahead of the misspelt preset.
  const issues = (() => {
    try {
      loadSuite("metrics:\n  - type: llm_judge\n    preset: groundednes\n", {
        source: "p.yaml",
        ...suiteChecks(),
      });
    } catch (e) {
      ok(e instanceof SuiteErrorClass, String(e));
      return e.issues;
    }
    throw new Error("no SuiteError");
  })();
  deepStrictEqual(issues.map((i) => [i.line, i.field, i.suggestion]), [
    [3, "metrics[0].preset", "groundedness"],
  ]);
});

Deno.test("loadSuite() runs a type's params check and places its issues", () => {
  const issues = (() => {
    try {
      loadSuite("metrics:\n  - type: reference_value_match\n    params:\n      abs_tl: 1\n", {
        source: "p.yaml",
        paramsChecks: {
          reference_value_match: (p) =>
            Object.keys(p).filter((k) => k !== "abs_tol").map((k) => ({
              field: k,
              message: `Unknown param "${k}"`,
              suggestion: closestName(k, ["abs_tol"]),
            })),
        },
      });
    } catch (e) {
      return (e as SuiteError).issues;
    }
    return [];
  })();
  deepStrictEqual(issues.map((i) => [i.line, i.field, i.suggestion]), [
    [4, "metrics[0].params.abs_tl", "abs_tol"],
  ]);
});

Deno.test("loadSuite() runs nameCheck on each metric's name and places its problem at the name", () => {
  const nameCheck = (name: string) => name === "pass_rate" ? "reserved" : undefined;
  const issues = (text: string) => {
    try {
      loadSuite(text, { source: "n.yaml", nameCheck });
    } catch (e) {
      return (e as SuiteError).issues.map((i) => [i.line, i.column, i.field, i.message]);
    }
    return [];
  };
  deepStrictEqual(
    issues("metrics:\n  - type: hit_limit\n  - type: step_efficiency\n    name: pass_rate\n"),
    [[4, 11, "metrics[1].name", "reserved"]],
  );
  deepStrictEqual(issues("- type: hit_limit\n  name: hits\n"), []);
});

Deno.test("closestName() only suggests likely typos", () => {
  strictEqual(closestName("hit_limt", ["hit_limit", "step_efficiency"]), "hit_limit");
  strictEqual(closestName("Hit_Limit", ["hit_limit"]), "hit_limit");
  strictEqual(closestName("x", ["hit_limit"]), undefined);
});

Deno.test("loadSuite() words a document nested past its parser's stack as an issue, not a crash", () => {
  // npm:yaml and jsonc-parser recurse per level: 100,000 levels run out of stack on every runtime.
  const n = 100_000;
  const deep = "[".repeat(n) + "]".repeat(n);
  for (
    const [format, text] of [
      ["yaml", `metrics:\n  - type: hit_limit\n    params: {x: ${deep}}\n`],
      ["jsonc", `{"metrics": [{"type": "hit_limit", "params": {"x": ${deep}}}]}`],
    ] as const
  ) {
    throws(
      () => loadSuite(text, { source: `deep.${format}`, format }),
      (e: unknown) =>
        e instanceof SuiteErrorClass &&
        e.message === "deep." + format +
            ":1:1: The document nests too deeply to read (its parser ran out of stack)",
    );
  }
});

Deno.test("loadSuite() reads repeats.baseline from YAML and JSONC alike, and refuses one that names no arm", () => {
  const yaml = loadSuite(
    "repeats:\n  n: 2\n  reducer: mean\n  baseline: base\nmetrics: [{type: hit_limit}]\n",
    { source: "s.yaml" },
  );
  const jsonc = loadSuite(
    '{ "repeats": { "n": 2, "reducer": "mean", "baseline": "base" }, // the arm compared with\n' +
      '"metrics": [{ "type": "hit_limit" }] }',
    { source: "s.jsonc" },
  );
  deepStrictEqual(yaml.repeats, { n: 2, reducer: "mean", baseline: "base" });
  deepStrictEqual(jsonc.repeats, yaml.repeats);
  for (const [value, got] of [["3", "3"], ['""', '""'], ["[base]", '["base"]']]) {
    const issues = issuesOf(
      `repeats:\n  n: 2\n  reducer: mean\n  baseline: ${value}\nmetrics: [{type: hit_limit}]\n`,
    );
    deepStrictEqual(
      issues.map((i) => [i.line, i.field, i.message]),
      [[4, "repeats.baseline", `Expected an arm's name, got ${got}`]],
    );
  }
  const typo = issuesOf(
    "repeats: {n: 2, reducer: mean, baselin: base}\nmetrics: [{type: hit_limit}]\n",
  );
  deepStrictEqual(typo.map((i) => i.message), [
    'Unknown field "baselin" (fields: n, reducer, k, cluster, baseline)',
  ]);
});

Deno.test("loadSuite() refuses a repeats that is empty or not an object at its line, not with a TypeError", () => {
  // `repeats:` with nothing after it is YAML's null; JSON's null, a list or a number likewise.
  for (
    const [text, line] of [
      ["repeats:\nmetrics: [{type: hit_limit}]\n", 1],
      ["metrics: [{type: hit_limit}]\nrepeats: ~\n", 2],
      ['{"metrics": [{"type": "hit_limit"}], "repeats": null}', 1],
      ["repeats: [1]\nmetrics: [{type: hit_limit}]\n", 1],
      ["repeats: 3\nmetrics: [{type: hit_limit}]\n", 1],
    ] as const
  ) {
    const issues = issuesOf(text, text.startsWith("{") ? "s.json" : "s.yaml");
    deepStrictEqual(
      issues.map((i) => [i.line, i.field, i.message]),
      [[line, "repeats", "Expected an object: {n, reducer, k?}"]],
      text,
    );
  }
});

Deno.test("loadSuite() places a bad value at its own line and column, lines below its key, in YAML and JSONC; an unknown key stays at the key", () => {
  // Each value sits lines below its key, past a comment; each was reported at its key's line.
  const yaml = [
    "metrics:", // 1
    "  - type: hit_limit", // 2
    "    threshold:", // 3
    "      # the bar", // 4
    "", // 5
    "      1.5", // 6
    "  - type: trajectory_match", // 7
    "    params:", // 8
    "      trajectory:", // 9
    "        exakt", // 10
    "  - type: step_efficiency", // 11
    "    params:", // 12
    "      windw:", // 13
    "        3", // 14
    "repeats:", // 15
    "  n:", // 16
    "    0", // 17
    "  reducer: mean", // 18
    "  rounds:", // 19
    "    3", // 20
    "",
  ].join("\n");
  const jsonc = [
    "{", // 1
    '  "metrics": [', // 2
    '    {"type": "hit_limit",', // 3
    '      "threshold":', // 4
    "        // the bar", // 5
    "", // 6
    "        1.5},", // 7
    '    {"type": "trajectory_match", "params": {', // 8
    '      "trajectory":', // 9
    '        "exakt"}},', // 10
    '    {"type": "step_efficiency", "params": {', // 11
    '      "windw":', // 12
    "        3}}", // 13
    "  ],", // 14
    '  "repeats": {', // 15
    '    "n":', // 16
    "      0,", // 17
    '    "reducer": "mean",', // 18
    '    "rounds":', // 19
    "      3}", // 20
    "}", // 21
    "",
  ].join("\n");
  const placed = (text: string, source: string) => {
    try {
      loadSuite(text, { source, ...suiteChecks() });
    } catch (e) {
      ok(e instanceof SuiteErrorClass, String(e));
      return e.issues.map((i) => [i.line, i.column, i.field]);
    }
    throw new Error("no SuiteError");
  };
  // Each file's problems as [line, column] in the same order: the threshold, the trajectory
  // mode, then the unknown param (at its key), repeats' n, then its unknown field (at its key).
  const fields = [
    "metrics[0].threshold",
    "metrics[1].params.trajectory",
    "metrics[2].params.windw",
    "repeats.n",
    "repeats.rounds",
  ];
  const at = (places: number[][]) => places.map((p, i) => [...p, fields[i]]);
  deepStrictEqual(placed(yaml, "s.yaml"), at([[6, 7], [10, 9], [13, 7], [17, 5], [19, 3]]));
  deepStrictEqual(placed(jsonc, "s.jsonc"), at([[7, 9], [10, 9], [12, 7], [17, 7], [19, 5]]));
});
