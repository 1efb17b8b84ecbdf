/**
 * Declarative metric suites: a YAML or JSONC file that names its metrics, with no code.
 *
 * A suite is an object with a `metrics` list (and optionally `name`, `description` and
 * `repeats`, see `reduceRepeats`), or just the list. Each metric has a `type`, a `name` (defaulting to the type, and required when
 * a type repeats), a `threshold` in [0, 1] (default 0.5) and type-specific `params`. An
 * `llm_judge` can start from a built-in preset with `preset: answer_correctness` and override
 * any field. Both formats load into the same {@linkcode Suite}; every problem is reported with
 * its file, line, column and field, and a suggestion for a misspelled name.
 *
 * @module
 */
import {
  type Located,
  parseJsonc,
  parseYaml,
  pointerSegment,
  type Position,
} from "../config/mod.ts";
import { suggestName } from "../jsonl/mod.ts";
import { type Repeats, repeatsIssues } from "./repeats.ts";
import { valueText } from "./_value_text.ts";
import { checkOptions } from "../engine/mod.ts";
import { checkOptionNames } from "../jsonl/options/mod.ts";

/** The metric types a suite can declare. */
export const METRIC_TYPES = [
  "schema_membership",
  "expected_view_recall",
  "reference_value_match",
  "step_efficiency",
  "hit_limit",
  "trajectory_match",
  "llm_judge",
] as const;

/** One of {@linkcode METRIC_TYPES}. */
export type MetricType = (typeof METRIC_TYPES)[number];

/** One declared metric, with its defaults filled in. */
export interface SuiteMetric {
  /** The metric type. */
  type: MetricType;
  /** Its display name, unique in the suite. */
  name: string;
  /** The score threshold of the criterion. */
  threshold: number;
  /** Type-specific parameters (an empty object when none were given). */
  params: Record<string, unknown>;
}

/** A loaded suite. */
export interface Suite {
  /** The suite's name (the file's `name`, or the source name without its extension). */
  name: string;
  /** Its description, if any. */
  description?: string;
  /** The metrics, in file order; the first one's threshold decides whether a run passes. */
  metrics: SuiteMetric[];
  /** Runs per golden and arm, and how they reduce to one score (see `reduceRepeats`). */
  repeats?: Repeats;
}

/** One problem in a suite file. */
export interface SuiteIssue {
  /** The file (or source) name. */
  source: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** The field, as a dotted path such as `metrics[2].params.criteria`. */
  field: string;
  /** What is wrong. */
  message: string;
  /** The closest valid name, for a misspelling. */
  suggestion?: string;
}

/** A suite file that cannot be loaded; `issues` lists every problem found. */
export class SuiteError extends Error {
  /** Every problem, in file order. */
  readonly issues: SuiteIssue[];

  /**
   * Creates the error; its message is every issue, one per line.
   *
   * @param issues The problems found.
   * @param options The underlying cause, if any.
   */
  constructor(issues: SuiteIssue[], options?: ErrorOptions) {
    super(issues.map(formatSuiteIssue).join("\n"), options);
    this.name = "SuiteError";
    this.issues = issues;
  }
}

/**
 * Writes an issue as `file:line:column: field: message (did you mean "x"?)`.
 *
 * @param issue The issue.
 * @returns One line of text.
 *
 * @example
 * ```ts
 * import { formatSuiteIssue } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(
 *   formatSuiteIssue({
 *     source: "s.yaml", line: 2, column: 11, field: "metrics[0].type",
 *     message: 'Unknown metric type "hit_limt"', suggestion: "hit_limit",
 *   }),
 *   's.yaml:2:11: metrics[0].type: Unknown metric type "hit_limt" (did you mean "hit_limit"?)',
 * );
 * ```
 */
export function formatSuiteIssue(issue: SuiteIssue): string {
  const hint = issue.suggestion === undefined ? "" : ` (did you mean "${issue.suggestion}"?)`;
  const field = issue.field === "" ? "" : `${issue.field}: `;
  return `${issue.source}:${issue.line}:${issue.column}: ${field}${issue.message}${hint}`;
}

/**
 * Checks the `params` of one metric type; returns problems as (relative field, message), each
 * placed at its value, or with `key` at its key (a key the params do not have).
 */
export type ParamsCheck = (
  params: Record<string, unknown>,
) => { field: string; message: string; suggestion?: string; key?: true }[];

/** Options of {@linkcode loadSuite}. */
export interface LoadSuiteOptions {
  /** The file name, for messages and the default suite name (default `<suite>`). */
  source?: string;
  /** `yaml` or `jsonc`; by default from the source's extension (`.json`/`.jsonc` → JSONC, else YAML). */
  format?: "yaml" | "jsonc";
  /** Extra checks of each type's `params` (the judge and the deterministic metrics add theirs). */
  paramsChecks?: Partial<Record<MetricType, ParamsCheck>>;
  /** Presets usable with `preset:` (an `llm_judge` shorthand), by name. */
  presets?: Record<string, { threshold: number; params: Record<string, unknown> }>;
  /** A check of each metric's name (a name a reader reserves): the problem with it, if any. */
  nameCheck?: (name: string) => string | undefined;
}

const SUITE_KEYS = ["name", "description", "metrics", "repeats"];
const METRIC_KEYS = ["type", "name", "threshold", "params", "preset"];

/**
 * The closest candidate to `word` by edit distance, if it is close enough to be a likely typo.
 *
 * @param word The misspelled word.
 * @param candidates The valid words.
 * @returns The suggestion, or undefined.
 *
 * @example
 * ```ts
 * import { closestName } from "@assay/assay/suite";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(closestName("schema_membrship", ["schema_membership", "hit_limit"]), "schema_membership");
 * strictEqual(closestName("zzz", ["schema_membership"]), undefined);
 * ```
 */
export function closestName(word: string, candidates: readonly string[]): string | undefined {
  return suggestName(word, candidates);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function fieldName(path: (string | number)[]): string {
  let s = "";
  for (const seg of path) {
    if (typeof seg === "number") s += `[${seg}]`;
    else s += s === "" ? seg : `.${seg}`;
  }
  return s;
}

/**
 * Loads a suite from YAML or JSONC text and checks it.
 *
 * @param text The file's text.
 * @param options The source name, the format, and extra checks.
 * @returns The suite, with defaults filled in.
 * @throws {SuiteError} Listing every problem with its file, line, column and field.
 *
 * @example
 * ```ts
 * import { loadSuite, SuiteError } from "@assay/assay/suite";
 * import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
 *
 * const suite = loadSuite("metrics:\n  - type: schema_membership\n    threshold: 1.0\n  - type: hit_limit\n", {
 *   source: "demo.yaml",
 * });
 * assertEquals(suite.metrics.map((m) => [m.name, m.threshold]), [["schema_membership", 1], ["hit_limit", 0.5]]);
 * throws(() => loadSuite("metrics:\n  - type: hit_limt\n", { source: "s.yaml" }), SuiteError);
 * ```
 */
export function loadSuite(text: string, options: LoadSuiteOptions = {}): Suite {
  checkOptions(options);
  const names = { source: 1, paramsChecks: 1, format: 1, presets: 1, nameCheck: 1 } as const;
  checkOptionNames("loadSuite", options, names);
  if (typeof text !== "string") throw new TypeError("Expected the suite's text as a string");
  const source = options.source ?? "<suite>";
  const format = options.format ??
    (/\.jsonc?$/i.test(source) ? "jsonc" : "yaml");
  const parsed = format === "jsonc" ? parseJsonc(text) : parseYaml(text);
  if (Array.isArray(parsed)) {
    throw new SuiteError(parsed.map((p) => ({ source, ...p, field: "" })));
  }
  return checkSuite(parsed, source, options);
}

function checkSuite(doc: Located, source: string, options: LoadSuiteOptions): Suite {
  const issues: SuiteIssue[] = [];
  const pointer = (path: (string | number)[]) => path.map((s) => `/${pointerSegment(s)}`).join("");
  // A key that is not there (a metric's missing type) is placed at the nearest node that is.
  const keyAt = (path: (string | number)[]): Position =>
    doc.positions.get(pointer(path)) ??
      (path.length > 0 ? keyAt(path.slice(0, -1)) : { line: 1, column: 1 });
  // A value's own place (it may sit lines below its key), else its key's, else its object's.
  const valueAt = (path: (string | number)[]): Position =>
    doc.values.get(pointer(path)) ?? keyAt(path);
  // A problem of a value, at the value; with `key`, of a key the object does not have, at the key.
  const issue = (path: (string | number)[], message: string, suggestion?: string, key = false) => {
    issues.push({
      source,
      ...(key ? keyAt(path) : valueAt(path)),
      field: fieldName(path),
      message,
      ...(suggestion !== undefined && { suggestion }),
    });
  };

  let root = doc.value;
  let base: (string | number)[] = [];
  let name = source.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "") || "suite";
  let description: string | undefined;
  let repeats: Repeats | undefined;
  if (Array.isArray(root)) {
    // A bare list of metrics.
  } else if (isObject(root)) {
    for (const key of Object.keys(root)) {
      if (!SUITE_KEYS.includes(key)) {
        issue([key], `Unknown field "${key}"`, closestName(key, SUITE_KEYS), true);
      }
    }
    if (root.name !== undefined) {
      if (typeof root.name !== "string" || root.name === "") {
        issue(["name"], "Expected a non-empty string");
      } else name = root.name;
    }
    if (root.description !== undefined) {
      if (typeof root.description !== "string") issue(["description"], "Expected a string");
      else description = root.description;
    }
    if (root.repeats !== undefined) {
      const found = repeatsIssues(root.repeats);
      for (const p of found) {
        issue(p.field === "" ? ["repeats"] : ["repeats", p.field], p.message, p.suggestion, p.key);
      }
      if (found.length === 0) repeats = root.repeats as Repeats;
    }
    base = ["metrics"];
    if (root.metrics === undefined) issue([], 'Missing field "metrics"');
    root = root.metrics;
  } else {
    issue([], "Expected a suite: an object with a metrics list, or a list of metrics");
    throw new SuiteError(issues);
  }
  const metrics: SuiteMetric[] = [];
  if (root !== undefined && !Array.isArray(root)) issue(base, "Expected a list of metrics");
  const list = Array.isArray(root) ? root : [];
  if (Array.isArray(root) && list.length === 0) issue(base, "Expected at least one metric");

  const typeCount = new Map<string, number>();
  for (const m of list) {
    if (isObject(m) && typeof m.type === "string") {
      typeCount.set(m.type, (typeCount.get(m.type) ?? 0) + 1);
    }
  }
  const names = new Map<string, number>();
  list.forEach((entry, i) => {
    const at = [...base, i];
    if (!isObject(entry)) {
      issue(at, "Expected a metric: an object with a type");
      return;
    }
    for (const key of Object.keys(entry)) {
      if (!METRIC_KEYS.includes(key)) {
        issue([...at, key], `Unknown field "${key}"`, closestName(key, METRIC_KEYS), true);
      }
    }
    const type = entry.type;
    let ok = true;
    if (type === undefined) {
      issue(at, 'Missing field "type"');
      ok = false;
    } else if (typeof type !== "string" || !(METRIC_TYPES as readonly string[]).includes(type)) {
      issue(
        [...at, "type"],
        `Unknown metric type ${JSON.stringify(type)}`,
        typeof type === "string" ? closestName(type, METRIC_TYPES) : undefined,
      );
      ok = false;
    }
    // A preset fills in the judge's threshold and params.
    let preset: { threshold: number; params: Record<string, unknown> } | undefined;
    if (entry.preset !== undefined) {
      const presets = options.presets ?? {};
      const presetNames = Object.keys(presets);
      if (type !== "llm_judge") {
        issue([...at, "preset"], "Only an llm_judge can use a preset");
      } else if (typeof entry.preset !== "string" || !Object.hasOwn(presets, entry.preset)) {
        issue(
          [...at, "preset"],
          `Unknown preset ${JSON.stringify(entry.preset)} (presets: ${
            presetNames.join(", ") || "none"
          })`,
          typeof entry.preset === "string" ? closestName(entry.preset, presetNames) : undefined,
        );
        ok = false; // its params are unknown: checking them would only add errors of its own
      } else {
        preset = presets[entry.preset];
      }
    }
    let metricName = typeof type === "string" ? type : "";
    if (entry.name !== undefined) {
      if (typeof entry.name !== "string" || entry.name.trim() === "") {
        issue([...at, "name"], "Expected a non-empty string");
      } else {
        metricName = entry.name;
      }
    } else if (typeof entry.preset === "string" && preset) {
      metricName = entry.preset;
    } else if (typeof type === "string" && (typeCount.get(type) ?? 0) > 1) {
      issue(at, `Metric type "${type}" is used more than once: give each one a unique "name"`);
      ok = false;
      metricName = "";
    }
    if (metricName !== "") {
      const first = names.get(metricName);
      if (first !== undefined) {
        issue(
          entry.name !== undefined ? [...at, "name"] : at,
          `Duplicate metric name "${metricName}" (first used by metrics[${first}])`,
        );
        ok = false;
      } else {
        names.set(metricName, i);
        const problem = options.nameCheck?.(metricName);
        if (problem !== undefined) issue(entry.name !== undefined ? [...at, "name"] : at, problem);
      }
    }
    let threshold = preset?.threshold ?? 0.5;
    if (entry.threshold !== undefined) {
      const t = entry.threshold;
      if (typeof t !== "number" || !Number.isFinite(t) || t < 0 || t > 1) {
        issue([...at, "threshold"], `Expected a number in [0, 1], got ${valueText(t)}`);
        ok = false;
      } else {
        threshold = t;
      }
    }
    let params: Record<string, unknown> = preset ? { ...preset.params } : {};
    if (entry.params !== undefined) {
      if (!isObject(entry.params)) {
        issue([...at, "params"], "Expected an object");
        ok = false;
      } else {
        params = { ...params, ...entry.params };
      }
    }
    if (ok && typeof type === "string") {
      const check = options.paramsChecks?.[type as MetricType];
      if (check) {
        for (const p of check(params)) {
          const rel = p.field === ""
            ? []
            : p.field.split(".").map((f) => (/^(0|[1-9][0-9]*)$/.test(f) ? Number(f) : f));
          issue([...at, "params", ...rel], p.message, p.suggestion, p.key);
        }
      }
      metrics.push({ type: type as MetricType, name: metricName, threshold, params });
    }
  });
  if (issues.length > 0) {
    issues.sort((a, b) => a.line - b.line || a.column - b.column);
    throw new SuiteError(issues);
  }
  return {
    name,
    ...(description !== undefined && { description }),
    metrics,
    ...(repeats !== undefined && { repeats: { ...repeats } }),
  };
}
