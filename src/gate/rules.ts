/**
 * Gate rules: a YAML or JSONC file of checks on reports, read with the line and column
 * of every rule and value so that a bad rule or value is reported at its place.
 *
 * @module
 */
import { type Located, parseJsonc, parseYaml, type Position } from "../config/mod.ts";
import { BINARY_METRIC_NAMES, METRIC_NAMES } from "../evaluation/mod.ts";
import { suggestName } from "../jsonl/mod.ts";
import { checkValueProblem } from "./_check_values.ts";

/** What a rule requires of its metric. */
export type GateCheck =
  | { kind: "min"; min: number }
  | { kind: "max"; max: number }
  | { kind: "non_inferior"; margin: number }
  | { kind: "superior" }
  | { kind: "max_regressions"; max: number };

/** One rule of a gate. */
export interface GateRule {
  /** The metric it checks: one of its report's (see `metricSource`). */
  metric: string;
  /** `overall` or a language slice. */
  slice: string;
  /** What it requires. */
  check: GateCheck;
  /** Where the rule starts in its file. */
  at: Position;
  /**
   * Where its values are in its file, for a message on one of them: the metric's and the slice's
   * (the rule's start when it has none), and the check's key (`min`, `non_inferior`). Absent
   * from a rule made in code: messages then name the rule's start.
   */
  places?: RulePlaces;
}

/** Where a rule's metric, slice and check are in its file. */
export interface RulePlaces {
  /** The metric's value. */
  metric: Position;
  /** The slice's value, or the rule's start when it has none. */
  slice: Position;
  /** The check's key. */
  check: Position;
}

/** A gate: its rules and its bootstrap settings. */
export interface GateRules {
  /** The rules, in file order. */
  rules: GateRule[];
  /** The paired bootstrap's seed, in [0, 2^32) (default 0). */
  seed: number;
  /** The paired bootstrap's resamples, in [1, 10^7] (default 10,000). */
  resamples: number;
  /** The family-wise level of Holm's correction over the McNemar tests (default 0.05). */
  alpha: number;
}

/** A rules file that is not a valid gate: every problem, each at its line and column. */
export class GateRulesError extends Error {
  /** Each problem, as `file:line:column: message`. */
  readonly problems: string[];

  /**
   * Creates the error.
   *
   * @param problems Each problem, as `file:line:column: message`.
   */
  constructor(problems: string[]) {
    super(`Invalid gate rules:\n${problems.join("\n")}`);
    this.name = "GateRulesError";
    this.problems = problems;
  }
}

const CHECKS = ["min", "max", "non_inferior", "superior", "max_regressions"] as const;
const RULE_KEYS = new Set(["metric", "slice", ...CHECKS]);
const TOP_KEYS = new Set(["rules", "seed", "resamples", "alpha"]);
const MARGIN = new Set(["margin"]);

/** An unknown key, with the known one it likely misspells. */
function unknownKey(key: string, known: ReadonlySet<string>): string {
  const near = suggestName(key, [...known]);
  return `Unknown key ${JSON.stringify(key)}` + (near ? ` (did you mean "${near}"?)` : "");
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * Reads a gate rules file (YAML, or JSONC when `path` ends in `.json` or `.jsonc`).
 *
 * @param text The file's text.
 * @param path The file's name, for messages and to choose the syntax.
 * @returns The rules.
 * @throws {GateRulesError} Listing every problem at its line and column.
 *
 * @example Two rules
 * ```ts
 * import { parseGateRules } from "@assay/assay/gate";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * const gate = parseGateRules(
 *   "rules:\n  - metric: argument_f1\n    min: 0.5\n  - metric: full_call_exact_match\n    max_regressions: 3\n",
 *   "gate.yaml",
 * );
 * strictEqual(gate.rules.length, 2);
 * deepStrictEqual(gate.rules[1]!.check, { kind: "max_regressions", max: 3 });
 * ```
 */
export function parseGateRules(text: string, path: string): GateRules {
  const parsed: Located | { message: string; line: number; column: number }[] =
    /\.jsonc?$/i.test(path) ? parseJsonc(text) : parseYaml(text);
  if (Array.isArray(parsed)) {
    throw new GateRulesError(parsed.map((e) => `${path}:${e.line}:${e.column}: ${e.message}`));
  }
  const problems: string[] = [];
  // A key that is not there (a rule's missing metric) is placed at the nearest object that is.
  const at = (pointer: string): Position =>
    parsed.positions.get(pointer) ??
      (pointer ? at(pointer.slice(0, pointer.lastIndexOf("/"))) : { line: 1, column: 1 });
  // A value's own place (it may sit lines below its key), else its key's, else its object's.
  const valueAt = (pointer: string): Position => parsed.values.get(pointer) ?? at(pointer);
  const problem = (pointer: string, message: string) => {
    const p = valueAt(pointer);
    problems.push(`${path}:${p.line}:${p.column}: ${message}`);
  };
  const keyProblem = (pointer: string, message: string) => {
    const p = at(pointer);
    problems.push(`${path}:${p.line}:${p.column}: ${message}`);
  };
  const doc = parsed.value;
  const out: GateRules = { rules: [], seed: 0, resamples: 10_000, alpha: 0.05 };
  if (!isObject(doc) || !Array.isArray(doc.rules)) {
    problem(
      isObject(doc) && doc.rules !== undefined ? "/rules" : "",
      "A gate file is an object with a list of rules under `rules`",
    );
    throw new GateRulesError(problems);
  }
  for (const key of Object.keys(doc)) {
    if (!TOP_KEYS.has(key)) keyProblem(`/${key}`, unknownKey(key, TOP_KEYS));
  }
  // The bootstrap's own ranges (bootstrapSettings), so that a bad one is found here, at its place.
  const whole = (key: "seed" | "resamples", min: number, max: number, range: string) => {
    const v = doc[key];
    if (v === undefined) return;
    if (Number.isInteger(v) && (v as number) >= min && (v as number) <= max) out[key] = v as number;
    else problem(`/${key}`, `${key} must be a whole number in ${range}`);
  };
  whole("seed", 0, 2 ** 32 - 1, "[0, 2^32)");
  whole("resamples", 1, 1e7, "[1, 10^7]");
  if (doc.alpha !== undefined) {
    if (typeof doc.alpha === "number" && doc.alpha > 0 && doc.alpha < 1) out.alpha = doc.alpha;
    else problem("/alpha", "alpha must be a number in (0, 1)");
  }
  if (doc.rules.length === 0) problem("/rules", "A gate needs at least one rule");
  doc.rules.forEach((raw, i) => {
    const here = `/rules/${i}`;
    if (!isObject(raw)) {
      problem(here, "A rule is an object with a metric and one check");
      return;
    }
    for (const key of Object.keys(raw)) {
      if (!RULE_KEYS.has(key)) keyProblem(`${here}/${key}`, unknownKey(key, RULE_KEYS));
    }
    // non_inferior's object: `{ margin: 0.05, level: 0.9 }` would have set no level, in silence.
    const options = raw.non_inferior;
    for (const key of isObject(options) ? Object.keys(options) : []) {
      if (key !== "margin") keyProblem(`${here}/non_inferior/${key}`, unknownKey(key, MARGIN));
    }
    const metric = raw.metric;
    if (typeof metric !== "string" || metric === "") {
      problem(
        `${here}/metric`,
        `metric must be a metric's name, such as ${METRIC_NAMES.join(", ")} ` +
          "(the report's kind says which it has)",
      );
      return;
    }
    const slice = raw.slice ?? "overall";
    if (typeof slice !== "string" || slice === "") {
      problem(`${here}/slice`, "slice must be `overall` or a language");
      return;
    }
    const given = CHECKS.filter((c) => raw[c] !== undefined);
    if (given.length !== 1) {
      keyProblem(
        here,
        `A rule has exactly one of ${CHECKS.join(", ")}; this one has ${given.length}`,
      );
      return;
    }
    const kind = given[0]!;
    // Each problem of the check at the value that has it: non_inferior's margin, when it is there.
    const bad = `${here}/${kind}` +
      (kind === "non_inferior" && isObject(options) && "margin" in options ? "/margin" : "");
    const check = readCheck(kind, raw, metric, (m) => problem(bad, m));
    if (!check) return;
    const places = {
      metric: valueAt(`${here}/metric`),
      slice: raw.slice === undefined ? at(here) : valueAt(`${here}/slice`),
      check: at(`${here}/${kind}`),
    };
    out.rules.push({ metric, slice, check, at: at(here), places });
  });
  if (problems.length > 0) throw new GateRulesError(problems);
  return out;
}

function readCheck(
  kind: (typeof CHECKS)[number],
  raw: Record<string, unknown>,
  metric: string,
  problem: (message: string) => void,
): GateCheck | undefined {
  const v = raw[kind];
  let check: GateCheck;
  switch (kind) {
    case "min":
      check = { kind, min: v as number };
      break;
    case "max":
      check = { kind, max: v as number };
      break;
    case "non_inferior":
      check = { kind, margin: (isObject(v) ? v.margin : undefined) as number };
      break;
    case "superior":
      if (v === true) return { kind };
      problem("superior must be true");
      return;
    case "max_regressions":
      // An evaluation report's argument_f1 pools pairs; other kinds are checked with the report.
      if (metric === "argument_f1") {
        problem(
          `max_regressions needs a right-or-wrong metric (${BINARY_METRIC_NAMES.join(", ")})`,
        );
        return;
      }
      check = { kind, max: v as number };
  }
  const wrong = checkValueProblem(check);
  if (wrong === undefined) return check;
  problem(wrong);
  return;
}
