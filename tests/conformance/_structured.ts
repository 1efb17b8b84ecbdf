// Conformance sections for the structured-output, tool, instruction and suite APIs: every
// function over inputs derived from the seeded corpus, so that each runtime and engine must
// give byte-identical results.
import {
  apiCallSuccessRate,
  checkXml,
  compileSchema,
  constraintSatisfactionRate,
  type Engine,
  extraContentRate,
  formatCompliance,
  instructionComplianceRate,
  instructionRetention,
  jsonSchemaCompliance,
  jsonValidity,
  requiredFieldAccuracy,
  toolArgumentAccuracy,
  toolCallF1,
  toolSelectionAccuracy,
  xmlValidity,
} from "../../mod.ts";
import {
  calibrate,
  compareArms,
  DETERMINISTIC_METRICS,
  loadSuite,
  meanUncertainty,
  renderJudgePrompt,
  rubricSha256,
  scorecard,
  type ScoreRow,
  type Trace,
} from "../../src/suite/mod.ts";
import { rng } from "./_corpus.ts";

const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, pattern: "^[a-z_]+$" },
    arguments: {
      type: "object",
      properties: { city: { type: "string" }, k: { type: "integer", minimum: 0 } },
      additionalProperties: { type: ["string", "number", "boolean", "array", "object"] },
    },
  },
  required: ["name", "arguments"],
  additionalProperties: false,
};

const XML_PARTS = [
  "<a>",
  "</a>",
  "<b x='1'/>",
  "text &amp; more",
  "<![CDATA[x]]>",
  "<!-- c -->",
  "<?pi data?>",
  "&bogus;",
  "<c:d xmlns:c='u'/>",
  "]]>",
  "\u0001",
  "<!DOCTYPE a>",
];

const FORMATS = ["Answer: [A-D]", "(?:yes|no)", "\\{.*\\}", "[^\\n]{0,40}"];

/** The structured-output and tool metrics over corpus outputs. */
export function structuredSection(engine: Engine, outputs: string[]): unknown[] {
  const texts = outputs.slice(0, 600);
  const next = rng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const xml = Array.from({ length: 300 }, () => {
    let s = "";
    const n = 1 + Math.floor(next() * 6);
    for (let i = 0; i < n; i++) s += pick(XML_PARTS);
    return s;
  });
  const compiled = compileSchema(SCHEMA);
  // Tool calls: the parsed calls of the corpus outputs, against gold calls that share names.
  const calls = texts.map((t) => {
    const m = /"name"\s*:\s*"([^"]*)"/.exec(t);
    return { name: m && m[1] ? m[1] : "f", arguments: t.slice(t.indexOf("{")) || "{}" };
  });
  const expected = calls.map((c, i) =>
    i % 3 === 0
      ? [{ name: c.name, arguments: { city: "Paris" } }]
      : [{ name: c.name, arguments: { k: i % 5 } }, { name: "g", arguments: {} }]
  );
  const predicted = calls.map((c, i) => (i % 4 === 0 ? [] : i % 2 === 0 ? [c, c] : c));
  const checks = texts.map((t) =>
    Array.from({ length: 1 + (t.length % 4) }, (_, k) => (t.length >> k) % 2 === 0)
  );
  return [
    jsonValidity(texts, { mode: "strict", engine }),
    jsonValidity(texts, { mode: "fenced", engine }),
    jsonValidity(texts, { mode: "lenient", engine }),
    jsonSchemaCompliance(texts, compiled, { mode: "lenient", engine }),
    extraContentRate(texts, { engine }),
    requiredFieldAccuracy(
      texts.map(() => ({ name: "get_weather", "arguments.city": "Paris" })),
      texts,
      {
        mode: "lenient",
        engine,
      },
    ),
    texts.slice(0, 200).map((t) => {
      try {
        return compiled.validate(JSON.parse(t));
      } catch {
        return "not JSON";
      }
    }),
    xmlValidity(xml),
    xml.map(checkXml),
    toolSelectionAccuracy(expected, predicted, { engine }),
    toolSelectionAccuracy(expected, predicted, { ordered: true, engine }),
    toolArgumentAccuracy(expected, predicted, { engine }),
    toolArgumentAccuracy(expected, predicted, { match: "subset", engine }),
    toolCallF1(expected, predicted, { engine }),
    toolCallF1(expected, predicted, { match: "name", engine }),
    apiCallSuccessRate([200, 404, true, false, { error: "x" }, { status: 503 }, { ok: true }]),
    instructionComplianceRate(checks),
    constraintSatisfactionRate(checks),
    instructionRetention(checks.map((c) => [c[0]!, c.slice(1)])),
    FORMATS.map((f) => formatCompliance(texts, f)),
    // $ref resolution against hierarchical and opaque ($id urn:, tag:) bases: each outcome, or
    // the compile error's message.
    ["https://example.com/a/b.json", "urn:example:root", "tag:example.com,2026:s"].flatMap((id) =>
      ["#/$defs/x", "x.json#/$defs/x", "child#/$defs/x", `${id}#/$defs/x`, "urn:other#y"].map(
        (ref) => {
          try {
            const v = compileSchema({ $id: id, $defs: { x: { type: "string" } }, $ref: ref });
            return [v.validate("a"), v.validate(1)];
          } catch (e) {
            return e instanceof Error ? e.message : String(e);
          }
        },
      )
    ),
  ];
}

const SUITE = `metrics:
  - type: schema_membership
    threshold: 1.0
  - type: expected_view_recall
  - type: reference_value_match
  - type: step_efficiency
    threshold: 0.8
  - type: hit_limit
`;

const SQL = [
  "SELECT o.total_usd FROM orders o JOIN customers c ON c.customer_id = o.customer_id",
  "WITH t AS (SELECT customer_id FROM orders) SELECT * FROM t",
  "SELECT nope FROM orders",
  "SELECT * FROM ghosts",
  "SELECT revenue_usd FROM monthly_revenue WHERE month = '2026-03'",
  "SELEC broken",
];

/** The suite APIs: the loader, the deterministic metrics, scorecards, calibration, prompts. */
export function suiteSection(engine: Engine): unknown[] {
  const next = rng(11);
  const catalog = {
    views: [
      { name: "orders", columns: ["order_id", "customer_id", "total_usd"] },
      { name: "customers", columns: ["customer_id", "name"] },
      { name: "monthly_revenue", columns: ["month", "revenue_usd"] },
    ],
  };
  const goldens = Array.from({ length: 6 }, (_, i) => ({
    id: `g${i}`,
    question: `Question ${i}?`,
    ...(i % 2 === 0 && { expected_views: ["orders", "customers"] }),
    ...(i % 3 === 0 && { reference_values: { revenue_usd: 100 + i } }),
    ...(i % 2 === 1 && {
      reference_trajectory: [{ name: "run_sql", arguments: { query: SQL[i % SQL.length]! } }],
    }),
  }));
  const rows: ScoreRow[] = [];
  const traces: Trace[] = [];
  for (const arm of ["base", "adapter"]) {
    for (const g of goldens) {
      for (let r = 0; r < 3; r++) {
        const sql = [SQL[Math.floor(next() * SQL.length)]!];
        const trace: Trace = {
          golden_id: g.id,
          arm,
          repeat: r,
          tool_calls: [
            { name: "run_sql", arguments: { query: sql[0]! } },
            { name: "run_sql", arguments: next() < 0.3 ? { query: sql[0]! } : '{"query": "x"}' },
          ],
          sql,
          final_rows: [{ revenue_usd: 100 + Number(g.id.slice(1)) + (next() < 0.5 ? 0 : 1) }],
          final_answer: "done",
          submitted: next() < 0.8,
          hit_turn_limit: next() < 0.2,
        };
        traces.push(trace);
        for (const [metric, f] of Object.entries(DETERMINISTIC_METRICS)) {
          // trajectory_match needs its mode; the others run on their defaults.
          const params = metric === "trajectory_match"
            ? { trajectory: ["superset", "unordered", "in_order"][r % 3], arguments: "subset" }
            : undefined;
          const s = f({ golden: g, trace, catalog }, params);
          rows.push({
            golden_id: g.id,
            arm,
            repeat: r,
            metric,
            score: s.score,
            applicable: s.applicable,
            threshold: metric === "schema_membership" ? 1 : 0.5,
          });
        }
      }
    }
  }
  const metrics = Object.keys(DETERMINISTIC_METRICS);
  const judgeParams = {
    criteria: "Is it right?",
    evaluation_params: ["input", "predicted_sqls", "query_results"],
  };
  return [
    loadSuite(SUITE, { source: "suite.yaml" }),
    rows,
    scorecard(rows, { metrics, seed: 3, resamples: 200 }),
    compareArms(rows, ["base", "adapter"], { metrics, seed: 3, resamples: 200 }),
    calibrate(
      rows.filter((r) => r.score !== null).map((r, i) => ({
        judge: r.score!,
        human: (i * 7) % 3 === 0 ? 1 - r.score! : r.score!,
      })),
    ),
    // t intervals at every level, for 1 to 299 degrees of freedom and clusters.
    [0.8, 0.9, 0.95, 0.99, 0.999].flatMap((level) =>
      [2, 3, 4, 5, 8, 13, 30, 31, 100, 300].map((n) => {
        const values = Array.from({ length: n }, () => Math.floor(next() * 5) / 4);
        return meanUncertainty(values, {
          level,
          clusters: values.map((_, i) => `c${i % Math.max(2, n >> 2)}`),
        });
      })
    ),
    rubricSha256(judgeParams, { engine }),
    traces.slice(0, 6).map((trace) =>
      renderJudgePrompt(judgeParams, {
        golden: goldens.find((g) => g.id === trace.golden_id)!,
        trace,
        catalog,
      }, {
        engine,
      })
    ),
  ];
}
