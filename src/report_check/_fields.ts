// The words and tests of a report's fields, which each kind's check (body.ts, _evaluation.ts)
// is written in: a field's test, and what it must be in the refusal's words.

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/** Whether `x` is an object (an array too: `isRecord` is the one that is not). */
export const isObject = (x: unknown): x is Json => typeof x === "object" && x !== null;

/** Whether `x` is an object that is not an array, as a JSON object parses. */
export const isRecord = (x: unknown): x is Json => isObject(x) && !Array.isArray(x);

/** A field's test, and its words in the error. */
export interface Field {
  test(v: unknown): boolean;
  text: string;
}

export const STRING: Field = { test: (v) => typeof v === "string", text: "a string" };
export const COUNT: Field = {
  test: (v) => Number.isInteger(v) && (v as number) >= 0,
  text: "a count",
};
export const NUMBER: Field = { test: (v) => Number.isFinite(v), text: "a finite number" };
export const BOOLEAN: Field = { test: (v) => typeof v === "boolean", text: "true or false" };
export const UNIT: Field = {
  test: (v) => typeof v === "number" && v >= 0 && v <= 1,
  text: "in [0, 1]",
};
export const HEX64: Field = {
  test: (v) => typeof v === "string" && /^[0-9a-f]{64}$/.test(v),
  text: "64 lowercase hex digits",
};
export const orNull = (f: Field): Field => ({
  test: (v) => v === null || f.test(v),
  text: `${f.text} or null`,
});
export const orAbsent = (f: Field): Field => ({
  test: (v) => v === undefined || f.test(v),
  text: `${f.text} or absent`,
});
export const listOf = (f: Field, text: string): Field => ({
  test: (v) => Array.isArray(v) && v.every(f.test),
  text,
});
export const objectOf = (spec: Record<string, Field>, text: string): Field => {
  const fields = Object.entries(spec);
  return { test: (v) => isObject(v) && fields.every(([k, f]) => f.test(v[k])), text };
};
/** A JSON object whose every value passes `f` (whatever its keys). */
export const valuesOf = (f: Field, text: string): Field => ({
  test: (v) => isRecord(v) && Object.values(v).every(f.test),
  text,
});
/** One of a few strings, each written as JSON: `"on", "off" or "none"`. */
export const oneOf = (values: readonly string[]): Field => {
  const quoted = values.map((s) => JSON.stringify(s));
  return {
    test: (v) => values.includes(v as string),
    text: `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`,
  };
};
export const STRINGS = listOf(STRING, "a list of strings");
export const optional = (f: Field): Field => ({
  test: (v) => v === undefined || f.test(v),
  text: f.text,
});
export const DIGEST_SPEC = { sha256: { test: HEX64.test, text: "" } };
export const DIGEST = objectOf(DIGEST_SPEC, "");
export const digests = (spec: Record<string, Field>, text: string) =>
  optional(objectOf(spec, `absent or ${text}, each digest a {sha256} of 64 lowercase hex digits`));
/** The tool that wrote a report. */
export const TOOL = objectOf({ name: STRING, version: STRING }, "{name, version}, two strings");

/**
 * A `MetricValue`: two counts and their ratio, 0 of 0 being 0 (`metricValue`), as every report
 * keeps its metrics so that a value can be recomputed from its counts.
 */
export const METRIC_VALUE: Field = {
  test: (v) =>
    isObject(v) && COUNT.test(v.numerator) && COUNT.test(v.denominator) &&
    v.numerator as number <= (v.denominator as number) &&
    v.value === (v.denominator === 0 ? 0 : (v.numerator as number) / (v.denominator as number)),
  text: "{value, numerator, denominator}: a count of at most another, and their ratio (0 of 0 " +
    "is 0)",
};

/** `items` grouped by `key`, each group in the items' order. */
export function groupedBy<T>(items: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const x of items) {
    const k = key(x);
    const group = groups.get(k);
    if (group) group.push(x);
    else groups.set(k, [x]);
  }
  return groups;
}

/** The error of a report whose body is malformed, naming its schema and `what` is wrong. */
export function malformed(r: Json, what: string): RangeError {
  return new RangeError(`The ${String(r.schema)} report is malformed: ${what}`);
}

/**
 * Refuses a report whose field at `path` (its words, as `metrics.overall`) is missing or is not
 * `f`; a field `f` lets be absent is not missing.
 */
export function checkField(r: Json, path: string, value: unknown, f: Field): void {
  if (f.test(value)) return;
  throw malformed(r, value === undefined ? `${path} is missing` : `${path} is not ${f.text}`);
}

/** Refuses a report whose fields in `spec` are missing or wrong, in `spec`'s order. */
export function checkFields(r: Json, spec: Record<string, Field>): void {
  for (const [k, f] of Object.entries(spec)) checkField(r, k, r[k], f);
}

/** Refuses a report whose list `name` is not a list of objects with `spec`'s fields. */
export function checkList(r: Json, name: string, spec: Record<string, Field>): void {
  const list = r[name];
  if (!Array.isArray(list)) throw malformed(r, `${name} is not a list`);
  const fields = Object.entries(spec);
  list.forEach((x: unknown, i) => {
    if (!isObject(x)) throw malformed(r, `${name}[${i}] is not an object`);
    for (const [k, f] of fields) {
      if (!f.test(x[k])) throw malformed(r, `${name}[${i}].${k} is not ${f.text}`);
    }
  });
}
