/**
 * The data of a metric suite run: goldens, the schema catalog, agent traces, and what a metric
 * returns for one run (the suite metrics reference).
 *
 * @module
 */
import type { TrajectoryCall } from "./trajectory_match.ts";

/** One golden question. */
export interface Golden {
  /** Unique id; traces point at it with `golden_id`. */
  id: string;
  /** The question asked of the agent (the `input` context field). */
  question: string;
  /** Views the agent needs to touch (`expected_view_recall`). */
  expected_views?: string[];
  /**
   * Values the final query must return (`reference_value_match`): column name to expected
   * value. Numbers compare within tolerance, other values exactly.
   */
  reference_values?: Record<string, number | string | boolean | null>;
  /** The reference answer (the `reference_answer_text` context field). */
  reference_answer_text?: string;
  /**
   * The reference trajectory (`trajectory_match`): the tool calls the agent should make (each a
   * {@linkcode TrajectoryCall}), or, for the `strict` mode, its messages (each a
   * `TrajectoryMessage`).
   */
  reference_trajectory?: unknown[];
}

/**
 * A golden or trace that a deterministic metric cannot read (a `reference_trajectory` call
 * without a name, say): bad input, named by which of the two it is, not a score.
 */
export class RunInputError extends RangeError {
  /** Which input is wrong. */
  readonly input: "golden" | "trace";
  /**
   * The run it was met in, when known, so that a caller can name the golden's or trace's line
   * (`locateRunInputError` does).
   */
  readonly run?: { golden_id: string; arm: string; repeat: number };

  /**
   * Creates the error.
   *
   * @param input Which input is wrong.
   * @param message What is wrong, and where in it.
   * @param options The cause, and the run it was met in.
   */
  constructor(
    input: "golden" | "trace",
    message: string,
    options?: ErrorOptions & { run?: { golden_id: string; arm: string; repeat: number } },
  ) {
    super(message, options);
    this.name = "RunInputError";
    this.input = input;
    if (options?.run) this.run = options.run;
  }
}

/** One view of the semantic layer, with its columns. */
export interface CatalogView {
  /** The view (table) name. */
  name: string;
  /** Its column names. */
  columns: string[];
}

/** The semantic layer's schema catalog. */
export interface SchemaCatalog {
  /** Every view the agent may query. */
  views: CatalogView[];
}

/**
 * One tool call in an agent trace, in its plain form. A trace's `tool_calls` may also hold calls in
 * the other shapes of {@linkcode TrajectoryCall} (OpenAI's `{function: {name, arguments}}`,
 * Anthropic's `tool_use` block, LangChain's `{name, args}`), each with `result?` and `error?`.
 */
export interface TraceToolCall {
  /** The tool's name. */
  name: string;
  /** Its arguments: an object, or a JSON string (the OpenAI wire format). */
  arguments: Record<string, unknown> | string;
  /** What the tool returned, when it succeeded. */
  result?: unknown;
  /** The error it raised, when it failed. */
  error?: string | null;
}

/** One (golden, arm, repeat) run of an agent: one line of the traces JSONL. */
export interface Trace {
  /** The golden this run answers. */
  golden_id: string;
  /** The arm (system variant) that ran, e.g. `base` or `adapter`. */
  arm: string;
  /** The repeat number, from 0. */
  repeat: number;
  /** Every tool call, in order, each in any shape of {@linkcode TrajectoryCall}. */
  tool_calls: (TraceToolCall | (TrajectoryCall & Pick<TraceToolCall, "result" | "error">))[];
  /** Every SQL statement the agent executed, in order. */
  sql: string[];
  /** Rows returned by the final query, or null when there was none. */
  final_rows: Record<string, unknown>[] | null;
  /** The agent's final natural-language answer, or null when it gave none. */
  final_answer: string | null;
  /** Whether the agent submitted an answer. */
  submitted: boolean;
  /** Whether the agent hit its turn limit. */
  hit_turn_limit: boolean;
  /**
   * The run's messages (each a `TrajectoryMessage`), when recorded (`trajectory_match` in
   * `strict`).
   */
  messages?: unknown[];
}

/** What one metric gives one run. */
export interface CriterionScore {
  /** False when the metric does not apply to this run (it is then skipped, at no cost). */
  applicable: boolean;
  /** The score in [0, 1]; null when not applicable or when a judge failed. */
  score: number | null;
  /** Why the metric was skipped or failed, or what it found. */
  details?: Record<string, unknown>;
}

/** One run with what scoring it needs: its golden, its trace and the schema catalog. */
export interface RunContext {
  /** The golden the run answers. */
  golden: Golden;
  /** The run's trace. */
  trace: Trace;
  /** The semantic layer's schema catalog. */
  catalog: SchemaCatalog;
}
