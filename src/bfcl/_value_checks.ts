// BFCL's per-parameter checks over Python values: the type check (with its "variable" escape),
// the string standardisation, and the string, list, dict and list-of-dict value checks.
import { PyDict, pyEquals, pyIn, pyRepr, pyStr, pyType, type PyValue } from "./py_value.ts";
import { pyLower } from "../pytext/mod.ts";

/** A check's outcome, with the error_type BFCL reports when it fails. */
export interface Verdict {
  /** Whether the check passed. */
  valid: boolean;
  /** BFCL's error_type, when it failed. */
  errorType?: string;
  /** BFCL's error list (messages, or for unmatched parallel calls, one record per attempt). */
  error: PyValue[];
}

/** A passing verdict. */
export const PASS: Verdict = Object.freeze({ valid: true, error: [] }) as Verdict;

/** A failing verdict. */
export function fail(errorType: string, ...error: PyValue[]): Verdict {
  return { valid: false, errorType, error };
}

/** The type of the first possible answer that is not `""` (BFCL's get_possible_answer_type). */
function answerType(possible: readonly PyValue[]): string | undefined {
  for (const a of possible) if (a !== "") return pyType(a);
  return undefined;
}

/** The outcome of the type check: a verdict, and whether the value stands for a variable. */
export interface TypeVerdict extends Verdict {
  /** Whether the answer's type differs from the declared one (a variable's name is expected). */
  isVariable: boolean;
}

/**
 * BFCL's type_checker: the value's Python type must be the declared one (and, one level deep,
 * its items the declared item type against some possible answer); failing that, the type of the
 * possible answers (a variable's name) is accepted.
 */
export function checkType(
  param: string,
  value: PyValue,
  possible: readonly PyValue[],
  declared: string,
  expected: string,
  nested: string | undefined,
): TypeVerdict {
  const paType = answerType(possible);
  const isVariable = paType !== undefined && paType !== expected;
  let nestedFailed = false;
  if (pyType(value) === expected) {
    if (nested === undefined) return { valid: true, error: [], isVariable };
    const items = Array.isArray(value) ? value : [];
    for (const answer of possible) {
      let ok = true;
      if (Array.isArray(answer)) {
        ok = items.every((item) => checkType(param, item, answer, nested, nested, undefined).valid);
      }
      if (ok) return { valid: true, error: [], isVariable };
    }
    nestedFailed = true;
  }
  const nestedMessage = `Nested type checking failed for parameter ${
    pyRepr(param)
  }. Expected outer type ${declared} with inner type <class '${nested}'>. Parameter value: ${
    pyRepr(value)
  }.`;
  if (paType !== undefined && pyType(value) === paType) {
    return nestedFailed
      ? { valid: false, errorType: "type_error:nested", error: [nestedMessage], isVariable: true }
      : { valid: true, error: [], isVariable: true };
  }
  const simple = `Incorrect type for parameter ${pyRepr(param)}. Expected type ${declared}, got ${
    pyType(value)
  }. Parameter value: ${pyRepr(value)}.`;
  return {
    valid: false,
    errorType: "type_error:simple",
    error: nestedFailed ? [nestedMessage, simple] : [simple],
    isVariable: false,
  };
}

/**
 * BFCL's standardize_string: drops spaces and `,./-_*^`, lowercases, and turns `'` into `"`.
 *
 * @param s A string.
 * @returns Its standard form.
 */
export function standardize(s: string): string {
  return pyLower(s.replace(/[ ,./\-_*^]/g, "")).replaceAll("'", '"');
}

function standardizeItems(items: readonly PyValue[]): PyValue[] {
  return items.map((x) => typeof x === "string" ? standardize(x) : x);
}

/** BFCL's string_checker. */
export function checkString(param: string, value: string, possible: readonly PyValue[]): Verdict {
  const answers = possible.filter((a): a is string => typeof a === "string").map(standardize);
  if (answers.includes(standardize(value))) return PASS;
  return fail(
    "value_error:string",
    `Invalid value for parameter ${pyRepr(param)}: ${pyRepr(value)}. Expected one of ${
      pyRepr([...possible])
    }. Case insensitive.`,
  );
}

/** Python's `len(x)` of a possible answer, and what iterating it gives (a string's characters). */
function itemsOf(x: PyValue): PyValue[] {
  if (typeof x === "string") return [...x];
  if (Array.isArray(x)) return x;
  if (x instanceof PyDict) return x.keys();
  return [];
}

/** BFCL's list_checker: the standardised list must equal one standardised possible answer. */
export function checkList(param: string, value: PyValue[], possible: readonly PyValue[]): Verdict {
  const model = standardizeItems(value);
  for (const answer of possible) {
    if (pyEquals(model, standardizeItems(itemsOf(answer)))) return PASS;
  }
  return fail(
    "value_error:list/tuple",
    `Invalid value for parameter ${pyRepr(param)}: ${pyRepr(value)}. Expected one of ${
      pyRepr([...possible])
    }.`,
  );
}

/** BFCL's dict_checker: same keys as one possible answer, each value among its choices. */
export function checkDict(param: string, value: PyValue, possible: readonly PyValue[]): Verdict {
  let result = fail("dict_checker:unclear");
  const model = value instanceof PyDict ? value : new PyDict();
  for (const answer of possible) {
    if (answer === "") continue;
    const expected = answer instanceof PyDict ? answer : new PyDict();
    result = fail("dict_checker:unclear");
    if (model.size !== expected.size) {
      result = fail("value_error:dict_items", "Wrong number of parameters for dictionary.");
      continue;
    }
    let ok = true;
    for (const [key, v] of model.entries()) {
      const choices = expected.get(key);
      if (choices === undefined) {
        result = fail("value_error:dict_key", `Unexpected parameter: '${pyStr(key)}'.`);
        ok = false;
        break;
      }
      if (choices instanceof PyDict) {
        result = checkDict(param, v, [choices]);
        if (!result.valid) {
          ok = false;
          break;
        }
        continue;
      }
      const standard = standardizeItems(itemsOf(choices));
      if (!pyIn(typeof v === "string" ? standardize(v) : v, standard)) {
        result = fail(
          "value_error:dict_value",
          `Invalid value for parameter ${pyRepr(key)}: ${pyRepr(v)}. Expected one of ${
            pyRepr(standard)
          }.`,
        );
        ok = false;
        break;
      }
    }
    if (ok) return PASS;
  }
  return result;
}

/** BFCL's list_dict_checker: as many dicts as one possible answer, each matching in order. */
export function checkListOfDicts(
  param: string,
  value: PyValue[],
  possible: readonly PyValue[],
): Verdict {
  let result = fail("list_dict_checker:unclear");
  for (const answer of possible) {
    const dicts = itemsOf(answer);
    if (value.length !== dicts.length) {
      result = fail("value_error:list_dict_count", "Wrong number of dictionaries in the list.");
      continue;
    }
    let ok = true;
    for (let i = 0; i < value.length; i++) {
      result = checkDict(param, value[i]!, [dicts[i]!]);
      if (!result.valid) {
        ok = false;
        break;
      }
    }
    if (ok) return PASS;
  }
  return result;
}
