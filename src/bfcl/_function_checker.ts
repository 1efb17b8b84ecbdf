// BFCL's simple_function_checker and parallel_function_checker_no_order over decoded calls.
import { PyDict, PyFloat, pyIn, type PyInt, pyRepr, pyType, type PyValue } from "./py_value.ts";
import {
  checkDict,
  checkList,
  checkListOfDicts,
  checkString,
  checkType,
  fail,
  PASS,
  type Verdict,
} from "./_value_checks.ts";
import { JAVA_TYPES, javaConvert, JS_TYPES, jsConvert } from "./_type_converters.ts";
import { maxFlowBipartite } from "../structured/mod.ts";

/** The language a category's functions are written in. */
export type Language = "Python" | "Java" | "JavaScript";

/** The Python type each declared type is checked against (BFCL's PYTHON_TYPE_MAPPING). */
export const PYTHON_TYPES: Readonly<Record<string, string>> = {
  string: "str",
  integer: "int",
  float: "float",
  boolean: "bool",
  array: "list",
  tuple: "list",
  dict: "dict",
  any: "str",
};
const NESTED_CONVERTED = new Set(["Array", "ArrayList", "array"]);
const NESTED_PYTHON = new Set(["array", "tuple"]);

function field(d: PyValue | undefined, key: string): PyValue | undefined {
  return d instanceof PyDict ? d.get(key) : undefined;
}

function asList(x: PyValue | undefined): PyValue[] {
  return Array.isArray(x) ? x : [];
}

/**
 * A name or a type as text. checkBfcl and checkBfclEntry refuse a question whose names and types
 * are not strings, so this is the string itself; anything else is written as Python writes it,
 * never as `undefined` or `[object Object]`.
 */
function text(x: PyValue | undefined): string {
  return typeof x === "string" ? x : pyRepr(x ?? null);
}

function itemType(details: PyValue | undefined): string {
  return text(field(field(details, "items"), "type"));
}

/** Python's `list(x)` for the values a tuple parameter may hold. */
function listOf(x: PyValue): PyValue {
  if (Array.isArray(x)) return x;
  if (typeof x === "string") return [...x];
  if (x instanceof PyDict) return x.keys();
  if (x !== null && typeof x === "object" && "items" in x) return [...x.items];
  return x;
}

/** What the checker needs to know besides the call. */
export interface CallContext {
  /** The category's language. */
  language: Language;
  /** Whether the model's handler wrote `.` as `_` in function names. */
  underscoreToDot: boolean;
  /** How parallel calls are matched to the answer's entries (BFCL's is `greedy`). */
  matching: "greedy" | "optimal";
}

/** A verdict, with greedy matching's failure when optimal matching passed the entry. */
export interface MatchedVerdict extends Verdict {
  /** Set only when `matching` is `optimal`, greedy matching failed and optimal passed. */
  greedy?: Verdict;
}

/** BFCL's simple_function_checker: one decoded call against one function and its answer. */
export function checkCall(
  doc: PyValue,
  call: PyValue,
  possibleAnswer: PyValue,
  ctx: CallContext,
): Verdict {
  const answer = possibleAnswer instanceof PyDict ? possibleAnswer.values()[0] : undefined;
  const possible = answer instanceof PyDict ? answer : new PyDict();
  const properties = field(field(doc, "parameters"), "properties");
  const required = asList(field(field(doc, "parameters"), "required"));
  let name = text(field(doc, "name"));
  if (ctx.underscoreToDot && name.includes(".")) name = name.replaceAll(".", "_");
  const calls = call instanceof PyDict ? call : new PyDict();
  if (!calls.has(name)) {
    return fail(
      "simple_function_checker:wrong_func_name",
      `Function name ${pyRepr(name)} not found in model output.`,
    );
  }
  const got = calls.get(name);
  const params = got instanceof PyDict ? got : new PyDict();
  for (const param of required) {
    if (!params.has(param)) {
      return fail(
        "simple_function_checker:missing_required",
        `Missing required parameter: ${pyRepr(param)}.`,
      );
    }
  }
  for (const [param, raw] of params.entries()) {
    const details = properties instanceof PyDict ? properties.get(param) : undefined;
    const choices = possible.get(param);
    if (details === undefined || choices === undefined || typeof param !== "string") {
      return fail(
        "simple_function_checker:unexpected_param",
        `Unexpected parameter: ${pyRepr(param)}.`,
      );
    }
    const verdict = checkParam(param, raw, details, asList(choices), ctx.language);
    if (!verdict.valid) return verdict;
  }
  for (const [param, choices] of possible.entries()) {
    if (!params.has(param) && !pyIn("", asList(choices))) {
      return fail(
        "simple_function_checker:missing_optional",
        `Optional parameter ${pyRepr(param)} not provided and not marked as optional.`,
      );
    }
  }
  return PASS;
}

function checkParam(
  param: string,
  raw: PyValue,
  details: PyValue,
  choices: PyValue[],
  language: Language,
): Verdict {
  const declared = text(field(details, "type"));
  let value = raw;
  let expected: string;
  let nested: string | undefined;
  if (language === "Python") {
    expected = PYTHON_TYPES[declared] ?? declared;
    if (NESTED_PYTHON.has(declared)) {
      const inner = itemType(details);
      nested = PYTHON_TYPES[inner] ?? inner;
    }
  } else {
    if (typeof value !== "string") {
      return fail(
        language === "Java" ? "type_error:java" : "type_error:js",
        `Incorrect type for parameter ${pyRepr(param)}. Expected type String, got ${
          pyType(value)
        }. Parameter value: ${pyRepr(value)}.`,
      );
    }
    const table = language === "Java" ? JAVA_TYPES : JS_TYPES;
    expected = table[declared] ?? declared;
    const inner = NESTED_CONVERTED.has(declared) ? itemType(details) : undefined;
    if (inner !== undefined) nested = table[inner] ?? inner;
    // Where BFCL's converter raises (its run ends there), the value stays the string.
    value = (language === "Java"
      ? javaConvert(value, declared, inner)
      : jsConvert(value, declared, inner)) ?? value;
  }
  if (declared === "tuple") value = listOf(value);
  if (declared === "float" && pyType(value) === "int") {
    value = new PyFloat(Number((value as PyInt).value));
  }
  const typed = checkType(param, value, choices, declared, expected, nested);
  if (!typed.valid) return typed;
  if (!typed.isVariable) {
    if (expected === "dict") return checkDict(param, value, choices);
    if (expected === "list" && nested === "dict") {
      return checkListOfDicts(param, value as PyValue[], choices);
    }
    if (expected === "str") return checkString(param, value as string, choices);
    if (expected === "list") return checkList(param, value as PyValue[], choices);
  }
  if (!pyIn(value, choices)) {
    return fail(
      "value_error:others",
      `Invalid value for parameter ${pyRepr(param)}: ${pyRepr(value)}. Expected one of ${
        pyRepr(choices)
      }.`,
    );
  }
  return PASS;
}

/** BFCL's find_description: the first function whose name is part of the answer's name. */
function findDoc(docs: PyValue, name: string): PyValue | undefined {
  if (!Array.isArray(docs)) return docs;
  return docs.find((d) => name.includes(text(field(d, "name"))));
}

/**
 * BFCL's parallel_function_checker_no_order: for each expected call in order, the first unused
 * model call that passes is taken (greedy, no backtracking).
 */
function checkCallsGreedy(
  docs: PyValue,
  calls: readonly PyValue[],
  possibleAnswers: PyDict,
  ctx: CallContext,
): Verdict {
  if (calls.length !== possibleAnswers.size) {
    return fail("parallel_function_checker_no_order:wrong_count", "Wrong number of functions.");
  }
  const used = new Set<number>();
  let i = 0;
  for (const [name, answer] of possibleAnswers.entries()) {
    const doc = findDoc(docs, text(name));
    if (doc === undefined) {
      return fail(
        "parallel_function_checker_no_order:cannot_find_description",
        `Function doc description not found for function name: ${pyRepr(name)}.`,
      );
    }
    const errors: PyValue[] = [];
    let matched = false;
    for (let index = 0; index < calls.length && !matched; index++) {
      if (used.has(index)) continue;
      const one = new PyDict([[name, answer]]);
      const r = checkCall(doc, calls[index]!, one, ctx);
      if (r.valid) {
        used.add(index);
        matched = true;
      } else {
        errors.push(
          new PyDict([[
            `Model Result Index ${index}`,
            new PyDict([
              ["sub_error", r.error],
              ["sub_error_type", r.errorType ?? null],
              ["model_output_item", calls[index]!],
              ["possible_answer_item", one],
            ]),
          ]]),
        );
      }
    }
    if (!matched) {
      const considered = calls.map((_, k) => k).filter((k) => !used.has(k));
      return fail(
        "parallel_function_checker_no_order:cannot_find_match",
        `Could not find a matching function among index [${
          considered.join(", ")
        }] of model output for index ${i} of possible answers.`,
        ...errors,
      );
    }
    i++;
  }
  return PASS;
}

/**
 * Greedy matching's verdict; with `optimal` matching, an entry that greedy matching fails for want
 * of a match passes when a maximum bipartite matching of the answer's entries to the calls that
 * pass them covers every entry (so the verdict does not depend on the order of either). Greedy
 * passing implies a perfect matching, so optimal matching only turns failures into passes, and a
 * failure keeps greedy matching's error.
 */
export function checkCallsNoOrder(
  docs: PyValue,
  calls: readonly PyValue[],
  possibleAnswers: PyDict,
  ctx: CallContext,
): MatchedVerdict {
  const greedy = checkCallsGreedy(docs, calls, possibleAnswers, ctx);
  if (
    ctx.matching === "greedy" ||
    greedy.errorType !== "parallel_function_checker_no_order:cannot_find_match"
  ) {
    return greedy;
  }
  const edges: [number, number][] = [];
  let row = 0;
  for (const [name, answer] of possibleAnswers.entries()) {
    const doc = findDoc(docs, text(name));
    if (doc === undefined) return greedy;
    const one = new PyDict([[name, answer]]);
    calls.forEach((call, col) => {
      if (checkCall(doc, call, one, ctx).valid) edges.push([row, col]);
    });
    row++;
  }
  const unit = (n: number) => new Array<number>(n).fill(1);
  const { flow } = maxFlowBipartite(unit(row), unit(calls.length), edges);
  return flow === row ? { valid: true, error: [], greedy } : greedy;
}

/** BFCL's ast_checker: a category's dispatch to the single or the unordered parallel checker. */
export function checkCalls(
  docs: PyValue,
  calls: readonly PyValue[],
  possibleAnswer: PyValue,
  category: string,
  ctx: CallContext,
): MatchedVerdict {
  const answers = possibleAnswer instanceof PyDict ? possibleAnswer : new PyDict();
  if (category.includes("multiple") || category.includes("parallel")) {
    return checkCallsNoOrder(category === "parallel_function" ? [docs] : docs, calls, answers, ctx);
  }
  if (calls.length !== 1) {
    return fail("simple_function_checker:wrong_count", "Wrong number of functions.");
  }
  return checkCall(docs, calls[0]!, answers, ctx);
}
