// A bad value in a gate's rules file is reported at the value's own line and column, in YAML and
// in JSONC, for every field of a rule and the file's settings: a rules file of forty lines whose
// `min: "0.8x"` sat five lines below its rule's start was reported at the rule's first line.
import { deepStrictEqual, throws } from "node:assert/strict";
import {
  CALIBRATION_SHAPE,
  checkRulesFit,
  GateRulesError,
  parseGateRules,
  suiteRunShape,
} from "../../src/gate/mod.ts";

/** One field of a rule (or a setting), a bad value for it in each syntax, and what is said. */
interface Case {
  field: string;
  /** The value's lines in YAML, the first where the value starts. */
  yaml: string[];
  /** The value's lines in JSONC. */
  json: string[];
  /** The other fields of the rule, valid, in both syntaxes. */
  rest: [string, string][];
  /** The message, after `file:line:column: `. */
  message: string;
  /** Where the bad value starts inside its first line (0 for the line's start). */
  offset?: number;
}

const MIN: [string, string][] = [["min", "0.5"]];
const CASES: Case[] = [
  {
    field: "metric",
    yaml: ["7"],
    json: ["7"],
    rest: MIN,
    message: "metric must be a metric's name",
  },
  { field: "slice", yaml: ['""'], json: ['""'], rest: MIN, message: "slice must be" },
  { field: "min", yaml: ['"0.8x"'], json: ['"0.8x"'], rest: [], message: "min must be" },
  { field: "max", yaml: ["1.5"], json: ["1.5"], rest: [], message: "max must be" },
  {
    field: "non_inferior",
    yaml: ["0.05"],
    json: ["0.05"],
    rest: [],
    message: "non_inferior must be",
  },
  {
    // The margin inside non_inferior's object, on a line of its own below its own key.
    field: "non_inferior",
    yaml: ["margin:", "  # the margin", "  -1"],
    json: ['{ "margin":', "  // the margin", "  -1 }"],
    rest: [],
    message: "non_inferior must be",
    offset: 2,
  },
  { field: "superior", yaml: ["yes"], json: ['"yes"'], rest: [], message: "superior must be" },
  {
    field: "max_regressions",
    yaml: ["2.5"],
    json: ["2.5"],
    rest: [],
    message: "max_regressions must be",
  },
];

/** Ten lines of valid rules in YAML, so that the rule under test starts at line 12. */
const YAML_HEAD = [
  "# The release gate of the tool-call model: run by CI on every pull request.",
  "seed: 1",
  "rules:",
  "  - metric: full_call_exact_match",
  "    min: 0.5",
  "  - metric: valid_json_rate",
  "    slice: overall",
  "    min: 0.9",
  "  - metric: full_call_exact_match",
  "    max_regressions: 10",
  "  # the rule under test",
];

const JSON_HEAD = [
  "// The release gate of the tool-call model: run by CI on every pull request.",
  "{",
  '  "seed": 1,',
  '  "rules": [',
  '    { "metric": "full_call_exact_match", "min": 0.5 },',
  "    {",
  '      "metric": "valid_json_rate",',
  '      "slice": "overall",',
  '      "min": 0.9',
  "    },",
  "    // the rule under test",
];

/**
 * A rules file whose twelfth line starts a rule of several lines, the bad value last, on the
 * lines below its key and a comment; then filler to forty lines. Returns the text and where the
 * bad value starts.
 */
function file(c: Case, json: boolean): { text: string; line: number; column: number } {
  const lines = [...(json ? JSON_HEAD : YAML_HEAD)];
  const fields: [string, string][] = [
    ...c.rest,
    ...(c.field === "metric" ? [] : [["metric", "full_call_exact_match"] as [string, string]]),
  ];
  if (json) {
    lines.push("    {");
    for (const [k, v] of fields) lines.push(`      "${k}": ${/^[\d.]+$/.test(v) ? v : `"${v}"`},`);
    lines.push("      // the bound CI holds the model to", `      "${c.field}":`);
  } else {
    fields.forEach(([k, v], i) => lines.push(`${i === 0 ? "  - " : "    "}${k}: ${v}`));
    lines.push("    # the bound CI holds the model to", `    ${c.field}:`);
  }
  const indent = json ? "        " : "      ";
  const value = json ? c.json : c.yaml;
  const at = lines.length + (c.offset ?? 0);
  for (const v of value) lines.push(indent + v);
  const line = at + 1;
  const column = indent.length + 1 + (value[c.offset ?? 0]!.match(/^ */)![0].length);
  if (json) lines.push("    }", "  ]");
  while (lines.length < (json ? 39 : 40)) lines.push(json ? "  // ..." : "# ...");
  if (json) lines.push("}");
  return { text: lines.join("\n") + "\n", line, column };
}

function problems(text: string, path: string): string[] {
  try {
    parseGateRules(text, path);
  } catch (e) {
    if (e instanceof GateRulesError) return e.problems;
    throw e;
  }
  throw new Error(`${path} was read without a problem:\n${text}`);
}

for (const json of [false, true]) {
  const path = json ? "gate.jsonc" : "gate.yaml";
  Deno.test(`parseGateRules() reports a bad value of every field at the value's line and column (${path})`, () => {
    for (const c of CASES) {
      const { text, line, column } = file(c, json);
      // Forty lines, the rule under test starting at line 12.
      const rule = 12;
      deepStrictEqual(text.split("\n").length, 41, text);
      deepStrictEqual(text.split("\n")[rule - 1]!.startsWith(json ? "    {" : "  - "), true, text);
      const [only, ...others] = problems(text, path);
      deepStrictEqual(others, [], text);
      deepStrictEqual(only!.slice(0, only!.indexOf(": ")), `${path}:${line}:${column}`, text);
      deepStrictEqual(
        only!.slice(only!.indexOf(": ") + 2, only!.indexOf(": ") + 2 + c.message.length),
        c.message,
      );
      // Several lines below the rule's start: the rule's line was what was reported.
      deepStrictEqual(line - rule >= 3, true, text);
    }
  });
}

Deno.test("parseGateRules() reports a bad setting at its value, in YAML and JSONC", () => {
  const yaml = "# settings\nseed:\n  -1\nresamples:\n\n  0\nalpha:\n  # Holm's level\n  2\n" +
    "rules:\n  - metric: argument_f1\n    min: 0.5\n";
  deepStrictEqual(problems(yaml, "g.yaml"), [
    "g.yaml:3:3: seed must be a whole number in [0, 2^32)",
    "g.yaml:6:3: resamples must be a whole number in [1, 10^7]",
    "g.yaml:9:3: alpha must be a number in (0, 1)",
  ]);
  const jsonc = '{\n  "seed":\n    -1,\n  "resamples":\n\n    0,\n  "alpha":\n    // level\n' +
    '    2,\n  "rules": [{ "metric": "argument_f1", "min": 0.5 }]\n}\n';
  deepStrictEqual(problems(jsonc, "g.jsonc"), [
    "g.jsonc:3:5: seed must be a whole number in [0, 2^32)",
    "g.jsonc:6:5: resamples must be a whole number in [1, 10^7]",
    "g.jsonc:9:5: alpha must be a number in (0, 1)",
  ]);
});

Deno.test("checkRulesFit() names the place of the metric, slice or check that does not fit", () => {
  const shape = suiteRunShape(["hit_limit"], ["base"]);
  // A rule whose slice, check and metric each sit on lines of their own, the metric last.
  const yaml = (metric: string, slice: string, check: string) =>
    `rules:\n  - slice:\n      ${slice}\n    # check\n    ${check}\n    metric:\n` +
    `      # the metric\n      ${metric}\n`;
  const jsonc = (metric: string, slice: string, check: string) =>
    `{"rules": [\n  {\n    "slice":\n      "${slice}",\n    "${check.replace(": ", '": ')},\n` +
    `    "metric":\n      // the metric\n      "${metric}"\n  }\n]}\n`;
  const cases = [
    {
      args: ["pass_rat", "base", "min: 0.5"],
      shape,
      what: "metric",
      yaml: "8, column 7",
      jsonc: "8, column 7",
    },
    {
      args: ["pass_rate", "bse", "min: 0.5"],
      shape,
      what: "slice",
      yaml: "3, column 7",
      jsonc: "4, column 7",
    },
    {
      args: ["kappa", "overall", "superior: true"],
      shape: CALIBRATION_SHAPE,
      what: "check",
      yaml: "5, column 5",
      jsonc: "5, column 5",
    },
  ];
  for (const c of cases) {
    const [metric, slice, check] = c.args as [string, string, string];
    for (
      const [text, path, place] of [
        [yaml(metric, slice, check), "g.yaml", c.yaml],
        [jsonc(metric, slice, check), "g.jsonc", c.jsonc],
      ] as const
    ) {
      throws(
        () => checkRulesFit(parseGateRules(text, path), c.shape, true),
        new RegExp(`The rule at line 2 \\(its ${c.what} at line ${place}\\)`),
        text,
      );
    }
  }
});
