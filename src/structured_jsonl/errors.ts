/**
 * The named errors of `scoreStructuredJsonl`: a bad row or file, with where it is as
 * data, and a metric that cannot be computed from the inputs.
 *
 * @module
 */
import { InputError, type Location } from "../jsonl/mod.ts";

/** Options of a {@linkcode StructuredInputError}. */
export interface StructuredInputErrorOptions extends ErrorOptions {
  /** The metric whose check refused the row's field, when one did. */
  metric?: string;
}

/**
 * A bad row or file of a structured scoring (an {@linkcode InputError}): a line that is not a JSON
 * object, a missing or mistyped field, a duplicate id, rows that do not join, a schema that is not
 * JSON or not a schema. Its message names the file, line and id as `file:line (id "x")`, and the
 * error carries them as data: `source`, `line` and `id` of the first place it names, and
 * `locations`, every place it names (both lines of a duplicate id, every unjoined row).
 */
export class StructuredInputError extends InputError {
  /** The metric whose check refused the row's field, when one did. */
  readonly metric: string | undefined;
  /** Every place the error is about, in the order the message names them. */
  readonly locations: readonly Location[];

  /**
   * Creates the error.
   *
   * @param message What is wrong, naming the file, line and id.
   * @param locations The places it is about; the first gives `source`, `line` and `id`.
   * @param options The metric that refused the field, and the underlying cause.
   */
  constructor(
    message: string,
    locations: readonly Location[],
    options: StructuredInputErrorOptions = {},
  ) {
    const { metric, ...rest } = options;
    // The first place gives `source`, `line` and `id` (an InputError's).
    super(message, { ...rest, at: locations[0] });
    this.name = "StructuredInputError";
    this.metric = metric;
    this.locations = locations;
  }
}

/**
 * What a metric needs that the inputs lack: `schema` (a schema source), `format` (the `format`
 * option), `output` (an `"output"` on every outputs row), `expected_fields` (expected rows with
 * `"fields"`, and outputs with `"output"`), `tool_calls` (`"tool_calls"` on the expected rows, and
 * on the outputs or, with a decoder, `"output"`), or the field of that name on every outputs row.
 */
export type StructuredNeed =
  | "schema"
  | "format"
  | "output"
  | "expected_fields"
  | "tool_calls"
  | "api_results"
  | "checks"
  | "retention";

/** Why a {@linkcode StructuredMetricError} was thrown. */
export type StructuredMetricProblem = "unknown" | "unavailable" | "none";

/**
 * A choice of metrics the inputs do not allow (an {@linkcode InputError}): an unknown metric
 * (`unknown`), a metric asked for whose inputs are missing (`unavailable`, with what it
 * `needs`), or no metric at all that the inputs allow (`none`).
 */
export class StructuredMetricError extends InputError {
  /** Which of the three it is. */
  readonly problem: StructuredMetricProblem;
  /** The metric, but for `none`. */
  readonly metric: string | undefined;
  /** What the metric needs, for `unavailable`. */
  readonly needs: StructuredNeed | undefined;
  /**
   * Where the inputs first lack it: a row, as `file:line (id "x") has no "output"`, or a file
   * with no rows, as `file has no rows` (for `unavailable`, and for `none` on a file without
   * rows); undefined when a flag is missing (a schema, a format) or a file is not given.
   */
  readonly where: string | undefined;

  /**
   * Creates the error.
   *
   * @param message What is wrong.
   * @param problem `unknown`, `unavailable` or `none`.
   * @param metric The metric, but for `none`.
   * @param needs What the metric needs, for `unavailable`.
   * @param where Where the inputs first lack it, if a row or a file does.
   */
  constructor(
    message: string,
    problem: StructuredMetricProblem,
    metric?: string,
    needs?: StructuredNeed,
    where?: string,
  ) {
    super(message);
    this.name = "StructuredMetricError";
    this.problem = problem;
    this.metric = metric;
    this.needs = needs;
    this.where = where;
  }
}
