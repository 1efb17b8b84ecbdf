// A metric's totals summed from its rows' results, as its function sums its examples: each metric
// of @assay/assay/structured is a sum over examples (counts, and rates of counts), so the totals
// need no second pass over every row's inputs held at once. Numbers add up; a rate
// ({value, numerator, denominator}) adds its counts and divides them again as metricValue does;
// a list (the per-example `matches` and `compliant`) is the rows' lists end to end; a record
// (errors by code, by keyword location, by field) adds each key's entries, keys in order of first
// appearance, or sorted where the function sorts them.
import { metricValue } from "../stats/mod.ts";
import type { StructuredMetric, StructuredMetricResult } from "./report/mod.ts";

/** The records a metric's function gives with sorted keys: `metric/key/key…`. */
const SORTED = new Set([
  "json_schema_compliance/details/firstErrors",
  "required_field_accuracy/details/byField",
]);

/** A sum being made: a number, a list, or an object's entries in order. */
type Sum = number | unknown[] | Map<string, Sum>;

function add(sum: Sum | undefined, value: unknown, path: string): Sum {
  if (typeof value === "number") {
    if (sum !== undefined && typeof sum !== "number") throw mixed(path);
    return (sum ?? 0) + value;
  }
  if (Array.isArray(value)) {
    if (sum !== undefined && !Array.isArray(sum)) throw mixed(path);
    const list = sum ?? [];
    for (const v of value) list.push(v);
    return list;
  }
  if (typeof value === "object" && value !== null) {
    if (sum !== undefined && !(sum instanceof Map)) throw mixed(path);
    const entries = sum ?? new Map<string, Sum>();
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      entries.set(key, add(entries.get(key), v, `${path}/${key}`));
    }
    return entries;
  }
  throw new Error(`Internal error: ${path} is not a count, a list or a record of them`);
}

function mixed(path: string): Error {
  return new Error(`Internal error: ${path} is not of one kind on every row`);
}

/** A sum as the value the metric's function gives. */
function settle(sum: Sum, path: string): unknown {
  if (!(sum instanceof Map)) return sum;
  const n = sum.get("numerator"), d = sum.get("denominator");
  if (typeof n === "number" && typeof d === "number" && typeof sum.get("value") === "number") {
    sum.set("value", metricValue(n, d).value);
  }
  const keys = [...sum.keys()];
  if (SORTED.has(path)) keys.sort();
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    // A key such as "__proto__" (a field's dotted path) is an own property like any other.
    Object.defineProperty(out, key, {
      value: settle(sum.get(key)!, `${path}/${key}`),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A metric's totals, its rows' results added one by one, in the rows' order. */
export class Totals {
  #sum: Sum | undefined;

  constructor(readonly metric: StructuredMetric) {}

  /** Adds a row's result. */
  add(result: StructuredMetricResult): void {
    this.#sum = add(this.#sum, result, this.metric);
  }

  /** The totals: what the metric's function gives on all the rows added. */
  result(): StructuredMetricResult {
    // Every metric needs rows: a scoring without any is refused before.
    if (this.#sum === undefined) throw new Error("Internal error: no rows were added");
    return settle(this.#sum, this.metric) as StructuredMetricResult;
  }
}
