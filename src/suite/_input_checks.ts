// The rules a suite run's goldens, traces and catalog must keep, one implementation of each:
// `readGoldens`, `readTraces` and `readCatalog` apply them to the rows they parse from files (each
// named by its file and line), and `runSuite` to the objects it is given in memory (each named by
// its list and index, `goldens[2]`), so that a program that builds its goldens in memory meets
// the refusals, and gets the scores, of one that reads them from files. Objects in memory are
// first refused where they hold what no file can (NaN, undefined, a Date, a cycle: see
// `_json_values.ts`), which the schemas would let through.
import { type CompiledSchema, compileSchema } from "../json_schema/mod.ts";
import { CATALOG_SCHEMA, GOLDEN_SCHEMA, TRACE_SCHEMA } from "./schemas.ts";
import type { Golden, Trace } from "./types.ts";
import { misspeltField } from "./_input_hints.ts";
import { nonJson } from "./_json_values.ts";
import { SuiteInputError } from "./_input_lines.ts";

/** Where one input's rows are, and the words its messages use for them. */
export interface RowPlaces {
  /** The file's name, or the list's (`goldens`, `traces`). */
  source: string;
  /** One row: `line` in a file, `golden` or `trace` in memory. */
  row: string;
  /** What holds the rows: `file` or `list`. */
  whole: string;
  /** The `i`-th row's place, first in its messages: `goldens.jsonl:3` or `goldens[2]`. */
  at(i: number): string;
  /** The `i`-th row named from another's message: `on line 3` or `at goldens[2]`. */
  ref(i: number): string;
  /** The `i`-th row's place as its error carries it: the line, or the index. */
  place(i: number): { line: number } | { index: number };
}

/** The rows of a file, the `i`-th on `lines[i]` (a list that may grow as the file is read). */
export function fileRows(source: string, lines: readonly number[]): RowPlaces {
  return {
    source,
    row: "line",
    whole: "file",
    at: (i) => `${source}:${lines[i]}`,
    ref: (i) => `on line ${lines[i]}`,
    place: (i) => ({ line: lines[i]! }),
  };
}

/**
 * The rows of a list given in memory: `goldens`, `traces`, or the scored runs `suiteRunReport`
 * (`runs`) and `repeatsReport` (`results`) take.
 */
export function memoryRows(source: "goldens" | "traces" | "runs" | "results"): RowPlaces {
  return {
    source,
    row: source.slice(0, -1),
    whole: "list",
    at: (i) => `${source}[${i}]`,
    ref: (i) => `at ${source}[${i}]`,
    place: (i) => ({ index: i }),
  };
}

/** A kind of row: its schema, and the field that names a row in messages. */
export interface RowKind {
  /** The row's JSON Schema. */
  schema: typeof GOLDEN_SCHEMA | typeof TRACE_SCHEMA;
  /** `id` for a golden, `golden_id` for a trace. */
  idField: "id" | "golden_id";
}

/** A golden: {@linkcode GOLDEN_SCHEMA}, named by its `id`. */
export const GOLDEN_ROW: RowKind = { schema: GOLDEN_SCHEMA, idField: "id" };
/** A trace: {@linkcode TRACE_SCHEMA}, named by its `golden_id`. */
export const TRACE_ROW: RowKind = { schema: TRACE_SCHEMA, idField: "golden_id" };

const schemas = new Map<object, CompiledSchema>();

/** The compiled schema, compiled once. */
function compiled(schema: object): CompiledSchema {
  let c = schemas.get(schema);
  if (c === undefined) schemas.set(schema, c = compileSchema(schema));
  return c;
}

/** The row's id for messages: its id field when that is a string. */
function rowId(value: unknown, idField: string): { field: string; value: string } | undefined {
  const raw = typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)[idField]
    : undefined;
  return typeof raw === "string" ? { field: idField, value: raw } : undefined;
}

/** The error at the `i`-th row: its place, its id when it has one, then `text`. */
function rowError(
  places: RowPlaces,
  i: number,
  id: { field: string; value: string } | undefined,
  text: string,
): SuiteInputError {
  const named = id === undefined ? "" : ` (${id.field} ${JSON.stringify(id.value)})`;
  return new SuiteInputError(`${places.at(i)}${named}: ${text}`, {
    source: places.source,
    ...places.place(i),
    ...(id !== undefined && { id: id.value }),
  });
}

/**
 * Refuses the `i`-th row unless it is one of `kind`: first a key that misspells a field the row
 * does not give (see `misspeltField`), which the schema would let through as metadata; then the
 * schema's first error.
 */
export function checkRow(value: unknown, kind: RowKind, places: RowPlaces, i: number): void {
  const id = rowId(value, kind.idField);
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const row = value as Record<string, unknown>;
    const fields = Object.keys(kind.schema.properties);
    for (const key of Object.keys(row)) {
      const field = fields.includes(key) ? undefined : misspeltField(key, row, fields);
      if (field === undefined) continue;
      throw rowError(
        places,
        i,
        id,
        `unknown field ${JSON.stringify(key)} (did you mean ${JSON.stringify(field)}?), too ` +
          `close to a field the ${places.row} does not give to be read as metadata`,
      );
    }
  }
  const r = compiled(kind.schema).validate(value);
  if (!r.valid) {
    const first = r.errors[0]!;
    throw rowError(
      places,
      i,
      id,
      `${first.instanceLocation || `the ${places.row}`}: ${first.message}`,
    );
  }
}

/** Refuses a golden id given twice, at the second, naming the first. */
export function checkGoldenIds(goldens: readonly Golden[], places: RowPlaces): void {
  const first = new Map<string, number>();
  goldens.forEach((g, i) => {
    const j = first.get(g.id);
    if (j !== undefined) {
      throw new SuiteInputError(
        `${places.at(i)}: duplicate golden id ${JSON.stringify(g.id)} (first ${places.ref(j)})`,
        { source: places.source, ...places.place(i), id: g.id },
      );
    }
    first.set(g.id, i);
  });
}

/**
 * Refuses traces that are no run to score: none at all (a scorecard with no arm, which no gate
 * may pass), or, at the first in order, a trace of none of `goldenIds` (the goldens' file or list
 * is `goldensSource`), of the arm `overall`, or of a run given before.
 */
export function checkRuns(
  traces: readonly Trace[],
  places: RowPlaces,
  goldenIds: ReadonlySet<string>,
  goldensSource: string,
): void {
  const source = places.source;
  if (traces.length === 0) {
    throw new SuiteInputError(`${source}: no traces: the ${places.whole} has no runs to score`, {
      source,
    });
  }
  const runs = new Map<string, number>();
  traces.forEach((t, i) => {
    const id = { field: "golden_id", value: t.golden_id };
    checkGoldenOf(t, places, i, goldenIds, goldensSource);
    const reserved = armProblem(t.arm);
    if (reserved) throw rowError(places, i, id, reserved);
    const key = JSON.stringify([t.golden_id, t.arm, t.repeat]);
    const first = runs.get(key);
    if (first !== undefined) {
      const run = `run (arm ${JSON.stringify(t.arm)}, repeat ${t.repeat})`;
      throw rowError(places, i, id, `${run} already ${places.ref(first)}`);
    }
    runs.set(key, i);
  });
}

/** Refuses the `i`-th run (a trace, or a scored run) unless its golden is one of `goldenIds`. */
function checkGoldenOf(
  run: { golden_id: string },
  places: RowPlaces,
  i: number,
  goldenIds: ReadonlySet<string>,
  goldensSource: string,
): void {
  if (goldenIds.has(run.golden_id)) return;
  const id = { field: "golden_id", value: run.golden_id };
  throw rowError(places, i, id, `no golden with this id in ${goldensSource}`);
}

/**
 * Refuses scored runs (`runSuite`'s results, given back to `suiteRunReport` as `runs` or to
 * `repeatsReport` as `results`) where `runSuite` refuses a trace: at the first whose golden is
 * none of `goldens` (given in memory), which would be reported as a golden of its own.
 */
export function checkRunGoldens(
  runs: readonly { golden_id: string }[],
  source: "runs" | "results",
  goldens: readonly Golden[],
): void {
  const ids = new Set(goldens.map((g) => g.id));
  runs.forEach((r, i) => checkGoldenOf(r, memoryRows(source), i, ids, "goldens"));
}

/** Refuses a catalog that breaks {@linkcode CATALOG_SCHEMA}, at its first error. */
export function checkCatalog(catalog: unknown, source: string): void {
  const r = compiled(CATALOG_SCHEMA).validate(catalog);
  if (!r.valid) {
    const { instanceLocation, message } = r.errors[0]!;
    throw new SuiteInputError(`${source}: ${instanceLocation || "the catalog"}: ${message}`, {
      source,
    });
  }
}

/**
 * Why an arm's name cannot be used, or undefined: `overall` names all arms at once wherever runs
 * are sliced by arm (a gate rule's `slice: overall` reads every run), so an arm of that name
 * could never be read alone.
 *
 * @param arm The arm's name.
 * @returns The reason, as a message's end, or undefined for a usable name.
 */
export function armProblem(arm: string): string | undefined {
  return arm === "overall"
    ? `arm "overall" is the name of all arms at once (a gate rule's slice: overall): rename the arm`
    : undefined;
}

/**
 * Refuses goldens given in memory where `readGoldens` would refuse the same rows read from a
 * file: each golden (first for a value no file can hold), then their ids. A list that is not an
 * array is refused as a whole.
 */
export function checkMemoryGoldens(list: unknown): readonly Golden[] {
  const goldens = rowsOf(list, GOLDEN_ROW, memoryRows("goldens")) as Golden[];
  checkGoldenIds(goldens, memoryRows("goldens"));
  return goldens;
}

/**
 * Refuses `runSuite`'s inputs where the readers would refuse the same rows read from files: the
 * goldens (above), each trace, then the runs, then the catalog (each trace and the catalog, too,
 * first for a value no file can hold).
 */
export function checkMemoryInputs(inputs: {
  goldens: unknown;
  traces: unknown;
  catalog: unknown;
}): void {
  if (typeof inputs !== "object" || inputs === null) {
    throw new TypeError("Expected the inputs { goldens, traces, catalog }");
  }
  const goldens = checkMemoryGoldens(inputs.goldens);
  const traces = rowsOf(inputs.traces, TRACE_ROW, memoryRows("traces")) as Trace[];
  checkRuns(traces, memoryRows("traces"), new Set(goldens.map((g) => g.id)), "goldens");
  const notJson = objectNonJson(inputs.catalog, "the catalog");
  if (notJson !== undefined) {
    throw new SuiteInputError(`catalog: ${notJson}, which JSON cannot hold`, { source: "catalog" });
  }
  checkCatalog(inputs.catalog, "catalog");
}

/**
 * What in an object (a golden, a trace, the catalog) no JSON file can hold, as `nonJson` says it;
 * undefined for a value that is no object, which its schema refuses by its type.
 */
function objectNonJson(value: unknown, name: string): string | undefined {
  return typeof value === "object" && value !== null ? nonJson(value, name) : undefined;
}

/**
 * The rows of a list given in memory, each checked: first for a value no file can hold, then as
 * the readers check a line (a hole in the list is a row that is none).
 */
function rowsOf(list: unknown, kind: RowKind, places: RowPlaces): readonly unknown[] {
  if (!Array.isArray(list)) {
    throw new SuiteInputError(`${places.source}: expected a list (an array) of ${places.source}`, {
      source: places.source,
    });
  }
  for (let i = 0; i < list.length; i++) {
    const notJson = objectNonJson(list[i], `the ${places.row}`);
    if (notJson !== undefined) {
      throw rowError(places, i, rowId(list[i], kind.idField), `${notJson}, which JSON cannot hold`);
    }
    checkRow(list[i], kind, places, i);
  }
  return list;
}
