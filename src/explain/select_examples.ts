// The examples of an evaluation report a person asks to see (`assay show`'s filters): those wrong
// on a metric, by id, slice or parse status. A filter that names what the report does not have is
// refused, not read as "no example matches": a misspelt id or slice would show nothing in silence.
import { BINARY_METRIC_NAMES, exampleRight } from "../evaluation/mod.ts";
import type { BinaryMetricName, EvaluationReport, ExampleRecord } from "../evaluation/mod.ts";
import { suggestName } from "../jsonl/mod.ts";
import { listedId } from "./text/mod.ts";

/** Which examples of a report to show; every filter given applies. */
export interface ExampleSelection {
  /** Only the examples wrong on this right-or-wrong metric. */
  failing?: BinaryMetricName;
  /** Only these examples (each must be in the report). */
  ids?: readonly string[];
  /** Only the examples of this language slice (one of the report's slices). */
  slice?: string;
  /** Only the examples of this parse status (one the report counts or holds). */
  status?: string;
}

/**
 * The records of `report` that `selection` chooses, in the report's order.
 *
 * @param report An evaluation report (v2, or v1), as read back (`checkReport`).
 * @param selection The filters; none chooses every record.
 * @param source The report's name in errors (a file name).
 * @returns The chosen records.
 * @throws {RangeError} For a `failing` that is not a right-or-wrong metric, or an id, slice or
 *   status the report does not have, naming `source` and what it has (with the nearest status):
 *   `r.json has no slice "jp" (it has en, ja)`; an id the report dropped before scoring or
 *   left unscored for want of a generation (its `dropped_ids`, `missing_generations`) is said to
 *   be so: `r.json did not score "x" (dropped before scoring: multiple_calls)`.
 * @throws {TypeError} For a report without its records and slices, or `ids` that are not a list.
 *
 * @example
 * ```ts
 * import { selectExamples } from "@assay/assay/explain";
 * import { scoreToolCalls } from "@assay/assay/evaluation";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 *
 * const call = '{"name": "f", "arguments": {"a": 1}}';
 * const report = scoreToolCalls(
 *   [
 *     { example_id: "a", language: "en", target: call },
 *     { example_id: "b", language: "ja", target: call },
 *   ],
 *   [{ example_id: "a", output: call }, { example_id: "b", output: "no call" }],
 * );
 * const failing = selectExamples(report, { failing: "full_call_exact_match" });
 * deepStrictEqual(failing.map((r) => r.example_id), ["b"]);
 * throws(() => selectExamples(report, { slice: "jp" }, "r.json"), /r.json has no slice "jp"/);
 * ```
 */
export function selectExamples(
  report: EvaluationReport,
  selection: ExampleSelection = {},
  source = "the report",
): ExampleRecord[] {
  if (!Array.isArray(report?.records) || !Array.isArray(report.slices)) {
    throw new TypeError("Expected an evaluation report with its records");
  }
  const { failing, slice, status } = selection;
  if (selection.ids !== undefined && !Array.isArray(selection.ids)) {
    throw new TypeError("Option ids must be a list of example ids");
  }
  if (failing !== undefined && !BINARY_METRIC_NAMES.includes(failing)) {
    throw new RangeError(
      `failing must be one of ${BINARY_METRIC_NAMES.join(", ")}, got ${JSON.stringify(failing)}`,
    );
  }
  let ids: Set<string> | undefined;
  if (selection.ids) {
    const known = new Set(report.records.map((r) => r.example_id));
    ids = new Set(selection.ids.map((id) => listedId(id, known)));
    const unknown = [...ids].filter((id) => !known.has(id));
    if (unknown.length > 0) throw new RangeError(unknownIds(report, unknown, source));
  }
  if (slice !== undefined && !report.slices.includes(slice)) {
    throw new RangeError(`${source} has no slice "${slice}" (it has ${report.slices.join(", ")})`);
  }
  if (status !== undefined) {
    const counted = (report as { parse_status_counts?: Record<string, number> })
      .parse_status_counts;
    const statuses = [
      ...new Set([...Object.keys(counted ?? {}), ...report.records.map((r) => r.status)]),
    ];
    if (!statuses.includes(status)) {
      const near = suggestName(status, statuses);
      throw new RangeError(
        `${source} has no parse status ${JSON.stringify(status)} (` +
          (near === undefined ? "" : `did you mean ${near}? `) +
          `it has ${statuses.join(", ")})`,
      );
    }
  }
  return report.records.filter((r) =>
    (failing === undefined || !exampleRight(failing, r)) && (!ids || ids.has(r.example_id)) &&
    (slice === undefined || r.language === slice) && (status === undefined || r.status === status)
  );
}

// An id the report does not hold: one it dropped before scoring (its `dropped_ids`, by reason) or
// left unscored for want of a generation (`assay score --allow-missing`) is said to be so, not
// to be absent from the run.
function unknownIds(report: EvaluationReport, unknown: string[], source: string): string {
  const why = new Map<unknown, string>();
  const r = report as { dropped_ids?: unknown; missing_generations?: { ids?: unknown } };
  const dropped = typeof r.dropped_ids === "object" && r.dropped_ids !== null ? r.dropped_ids : {};
  for (const [reason, ids] of Object.entries(dropped)) {
    for (const id of Array.isArray(ids) ? ids : []) {
      why.set(id, `dropped before scoring: ${reason}`);
    }
  }
  const missing = r.missing_generations?.ids;
  for (const id of Array.isArray(missing) ? missing : []) {
    why.set(id, "no generation: the run was scored with --allow-missing");
  }
  const absent = unknown.filter((id) => !why.has(id)).map((id) => JSON.stringify(id));
  const unscored = unknown.filter((id) => why.has(id))
    .map((id) => `${JSON.stringify(id)} (${why.get(id)})`);
  const said = unscored.length === 0 ? "" : `did not score ${unscored.join(", ")}`;
  if (absent.length === 0) return `${source} ${said}`;
  return `${source} has no example ${absent.join(", ")}${said === "" ? "" : `, and ${said}`}`;
}
