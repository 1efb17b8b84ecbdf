// The fields of a calibration label, one rule for a label read from a labels file's line
// (`readCalibrationLabels`) and for one given in memory as a `{judge, human}` pair (`calibrate`):
// a label is an object, not a list, and a field it leaves out is named as left out (with the key
// that misspells it, where it has one), not read as undefined and then called not a number.
import { misspeltField } from "./_input_hints.ts";

/** A label's fields when it gives the judge's score, in the order they are checked. */
export const PAIR_FIELDS: readonly string[] = ["human", "judge"];

/** Whether `value` can be a label: an object that is not an array (nor null). */
export function isLabel(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The first of `fields` that `label` leaves out, as a message's end (`missing field "human"`, or
 * `missing field "human" (the label has "Human")` where a key of the label misspells it: a case,
 * `_` or `-` variant, or for a long name a close one), or undefined when it has them all.
 */
export function missingLabelField(
  label: Record<string, unknown>,
  fields: readonly string[],
): string | undefined {
  const field = fields.find((f) => !Object.hasOwn(label, f));
  if (field === undefined) return undefined;
  const typo = Object.keys(label).find((k) =>
    !fields.includes(k) && misspeltField(k, label, [field]) === field
  );
  const had = typo === undefined ? "" : ` (the label has ${JSON.stringify(typo)})`;
  return `missing field ${JSON.stringify(field)}${had}`;
}
