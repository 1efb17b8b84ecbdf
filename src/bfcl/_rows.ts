// A category's files as BFCL's eval runner reads them: JSON rows, lined up by position, and the
// shape of each question and answer row that BFCL's checker reads. BFCL indexes these rows
// without a check and stops with an exception (KeyError, TypeError) at the first one that is not
// of its shape, or scores nonsense; Assay refuses them first, naming the file, the line and the id.
import { InputError, quote, withoutBom } from "../jsonl/mod.ts";
import { PyDict, pyJsonDumps, pyRepr, type PyValue } from "./py_value.ts";
import { readJson } from "./_json_reader.ts";
import { PYTHON_TYPES } from "./_function_checker.ts";
import { JAVA_TYPES, JS_TYPES } from "./_type_converters.ts";
import type { BfclSource as Source } from "./files.ts";

/** Reads a JSONL file's rows as Python values (a BOM at the start dropped, as every reader does). */
export function readRows(source: Source): PyDict[] {
  if (typeof source?.name !== "string" || typeof source.text !== "string") {
    throw new TypeError("A file must be { name: string, text: string }");
  }
  const lines = withoutBom(source.text).split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line, i) => {
    const r = readJson(line);
    const where = `${source.name}:${i + 1}`;
    if (!r.ok) throw new InputError(`${where}: not JSON (${r.reason}): ${quote(line)}`);
    if (!(r.value instanceof PyDict)) {
      throw new InputError(`${where}: not a JSON object: ${quote(line)}`);
    }
    return r.value;
  });
}

/** A value as a message shows it: its JSON text (a string's in quotes), cut short. */
function shown(value: PyValue): string {
  const text = pyJsonDumps(value);
  return text.length > 80 ? `${text.slice(0, 80)}\u2026` : text;
}

/** A row's id as messages and records write it: a string as it is, anything else as Python's repr. */
export function idOf(row: PyDict): string {
  const id = row.get("id");
  if (id === undefined) return "?";
  return typeof id === "string" ? id : pyRepr(id);
}

// BFCL's ids are `<category>_<n>` in every file (2024-08's, all 11 models' results included);
// the live categories of later versions number theirs `<category>_<n>-<m>-<k>`.
const ID = /^(.+?)_\d+(?:-\d+)*$/;

// The other categories of BFCL's 2024-08 release, and the categories of BFCL v3 and v4 that their
// AST checker scores, whose names an id may carry.
const OTHER_2024_08 = [
  "executable_simple",
  "executable_multiple_function",
  "executable_parallel_function",
  "executable_parallel_multiple_function",
  "rest",
  "sql",
  "chatable",
];
const LATER_CATEGORIES = new Set([
  "simple_python",
  "simple_java",
  "simple_javascript",
  "multiple",
  "parallel",
  "parallel_multiple",
  "irrelevance",
  "live_simple",
  "live_multiple",
  "live_parallel",
  "live_parallel_multiple",
  "live_irrelevance",
  "live_relevance",
]);

/**
 * Refuses a row whose id names a BFCL category (`<category>_<n>`: one of 2024-08's or of BFCL v3's
 * or v4's, whose live categories write `<category>_<n>-<m>-<k>`)
 * other than `category`: BFCL pairs a category's files by position and never reads an id, so a
 * file of another category would be scored against the wrong questions. Other ids name no
 * category and are only lined up.
 *
 * @param categories The categories this checker reads.
 */
export function checkCategory(
  source: Source,
  rows: readonly PyDict[],
  category: string,
  categories: readonly string[],
): void {
  rows.forEach((row, i) => {
    const id = row.get("id");
    const named = typeof id === "string" ? ID.exec(id)?.[1] : undefined;
    if (named === undefined || named === category) return;
    const later = LATER_CATEGORIES.has(named);
    if (!later && !categories.includes(named) && !OTHER_2024_08.includes(named)) return;
    throw new InputError(
      `${source.name}:${i + 1}: id ${quote(id as string)} is of the ${named} category, not ` +
        category +
        (later ? ` (a name of BFCL v3 or v4; this checker reads the 2024-08 files)` : ""),
    );
  });
}

/**
 * An entry's id: its result's, else its question's or its answer's (BFCL reads none, so a line may
 * lack one), else undefined (records then name the entry by its line, `line 7`).
 *
 * @param rows Its result's, question's and answer's rows, where there are any.
 */
export function entryIdOf(...rows: (PyDict | undefined)[]): string | undefined {
  const row = rows.find((r) => r?.get("id") !== undefined);
  return row && idOf(row);
}

/** `, id X` for a row with an id, else nothing. */
const withId = (row: PyDict) => row.get("id") === undefined ? "" : `, id ${idOf(row)}`;

/** What a result file of part of a category is told. */
const PART = "a result file of part of a category is not scored, since BFCL scores every entry; " +
  "to score part, cut the question and answer files to the same entries";

/**
 * Where a result's id stands in the other file, when it is on another line there: a result file of
 * part of the category (a subset), or in another order. Empty when the id is not in that file.
 */
function elsewhere(
  id: string,
  [results, rows]: readonly [Source, readonly PyDict[]],
  [src, lines]: readonly [Source, readonly PyDict[]],
): string {
  const at = lines.findIndex((line) => line.get("id") !== undefined && idOf(line) === id);
  if (at < 0) return "";
  const where = ` (${id} is ${src.name}:${at + 1}`;
  if (rows.length < lines.length) {
    return `${where}, and ${results.name} has ${rows.length} lines to ${src.name}'s ` +
      `${lines.length}: ${PART})`;
  }
  return `${where}: the results are in another order; write them in ${src.name}'s)`;
}

/**
 * BFCL pairs the files' lines by position, so a result file in another order would be scored
 * against the wrong questions without a word: each result's id must be new, and the same as the
 * question's and the answer's on its line (where the lines have ids), and the files must have as
 * many lines. Lines are compared first, so an entry missing or added in the middle is named at
 * the first line it shifts; a difference at the end names the first line left over. Ids are
 * compared as they are written: `0` and `"0"` are one id, since BFCL reads neither.
 */
export function checkIds(
  results: Source,
  rows: readonly PyDict[],
  others: readonly (readonly [Source, readonly PyDict[]])[],
): void {
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    if (row.get("id") === undefined) return;
    const id = idOf(row);
    const first = seen.get(id);
    if (first !== undefined) {
      throw new InputError(`${results.name}:${i + 1}: id ${id} again (line ${first})`);
    }
    seen.set(id, i + 1);
    for (const [src, lines] of others) {
      const other = lines[i];
      if (other?.get("id") !== undefined && idOf(other) !== id) {
        throw new InputError(
          `${results.name}:${i + 1}: id ${id}, but line ${i + 1} of ${src.name} is ` +
            `${idOf(other)}: BFCL pairs the files' lines in order` +
            elsewhere(id, [results, rows], [src, lines]),
        );
      }
    }
  });
  for (const [src, lines] of others) {
    const n = lines.length;
    if (n === rows.length) continue;
    const [file, row] = n < rows.length ? [results, rows[n]!] : [src, lines[rows.length]!];
    throw new InputError(
      `${src.name}: ${n} lines, but ${results.name} has ${rows.length} ` +
        `(${file.name}:${Math.min(n, rows.length) + 1}${withId(row)}, has no line in ` +
        `${file === results ? src.name : results.name})` + (n > rows.length ? `: ${PART}` : ""),
    );
  }
}

/** The categories whose question holds one function (the others hold a list of them). */
const ONE_FUNCTION = new Set(["simple", "java", "javascript", "parallel_function"]);

/** The categories whose answer is checked by BFCL's single-call checker. */
const ONE_CALL = new Set(["simple", "java", "javascript"]);

/** Each language's types, as BFCL's checker maps them (an unknown type is its KeyError). */
const TYPES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  java: JAVA_TYPES,
  javascript: JS_TYPES,
};

/** The types whose items' type BFCL's checker reads, by language. */
const NESTED: Readonly<Record<string, ReadonlySet<string>>> = {
  java: new Set(["Array", "ArrayList"]),
  javascript: new Set(["array"]),
};
const NESTED_PYTHON = new Set(["array", "tuple"]);

const isStrings = (x: PyValue | undefined) =>
  Array.isArray(x) && x.every((s) => typeof s === "string");

/** What is wrong with a type, for a message, or undefined. */
function typeProblem(at: string, type: PyValue | undefined, category: string): string | undefined {
  if (type === undefined) return `no ${at}`;
  if (typeof type !== "string") return `${at} is not a string: ${shown(type)}`;
  const known = TYPES[category] ?? PYTHON_TYPES;
  if (!Object.hasOwn(known, type)) {
    return `${at} is ${quote(type)}, not a type BFCL's checker knows (${
      Object.keys(known).join(", ")
    })`;
  }
  return undefined;
}

/** What is wrong with one function's description, for a message, or undefined. */
function functionProblem(at: string, f: PyValue, category: string): string | undefined {
  if (!(f instanceof PyDict)) return `${at} is not an object: ${shown(f)}`;
  const name = f.get("name");
  if (name === undefined) return `no ${at}.name`;
  if (typeof name !== "string") return `${at}.name is not a string: ${shown(name)}`;
  const parameters = f.get("parameters");
  if (!(parameters instanceof PyDict)) {
    return parameters === undefined
      ? `no ${at}.parameters`
      : `${at}.parameters is not an object: ${shown(parameters)}`;
  }
  const required = parameters.get("required");
  if (!isStrings(required)) {
    return required === undefined
      ? `no ${at}.parameters.required`
      : `${at}.parameters.required is not a list of strings: ${shown(required)}`;
  }
  const properties = parameters.get("properties");
  if (!(properties instanceof PyDict)) {
    return properties === undefined
      ? `no ${at}.parameters.properties`
      : `${at}.parameters.properties is not an object: ${shown(properties)}`;
  }
  const nested = NESTED[category] ?? NESTED_PYTHON;
  for (const [key, details] of properties.entries()) {
    const p = `${at}.parameters.properties[${JSON.stringify(key)}]`;
    if (!(details instanceof PyDict)) return `${p} is not an object: ${shown(details)}`;
    const type = details.get("type");
    const problem = typeProblem(`${p}.type`, type, category);
    if (problem !== undefined) return problem;
    if (nested.has(type as string)) {
      const items = details.get("items");
      if (!(items instanceof PyDict)) {
        return items === undefined
          ? `no ${p}.items`
          : `${p}.items is not an object: ${shown(items)}`;
      }
      const inner = typeProblem(`${p}.items.type`, items.get("type"), category);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

const V3 = "looks like BFCL v3's files; this checker reads the 2024-08 files, where";

/**
 * What is wrong with a question row for its category, for a message, or undefined: its
 * `function` is one function description (a list of them in the multiple categories), each
 * `{name, parameters: {properties: {param: {type, [items: {type}]}}, required}}` with the types
 * BFCL's checker knows for the category's language.
 */
export function questionProblem(question: PyValue, category: string): string | undefined {
  if (!(question instanceof PyDict)) return `the question is not an object: ${shown(question)}`;
  const fn = question.get("function");
  if (fn === undefined) return 'no "function"';
  if (ONE_FUNCTION.has(category)) {
    if (Array.isArray(fn) && fn.length > 0 && fn.every((f) => f instanceof PyDict)) {
      return `function is a list of functions: ${V3} a ${category} question's function is one`;
    }
    return functionProblem("function", fn, category);
  }
  if (!Array.isArray(fn) || fn.length === 0) {
    return `function is not a list of functions: ${shown(fn)}`;
  }
  for (const [i, f] of fn.entries()) {
    const problem = functionProblem(`function[${i}]`, f, category);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * What is wrong with a ground truth for its category, for a message, or undefined: an object of
 * one entry or more, `{function_name: {param: [choices]}}`. In the single-call categories BFCL
 * reads the first entry only. In the others an entry that is not an object is let through when no
 * function of the question answers to its name, since BFCL then fails the call
 * (`cannot_find_description`) without reading it: its own data has one such entry
 * (parallel_multiple_function_179's `deck`).
 *
 * @param question The entry's question, whose shape is known to be right.
 */
export function answerProblem(
  answer: PyValue,
  category: string,
  question: PyValue,
): string | undefined {
  if (!(answer instanceof PyDict)) {
    if (Array.isArray(answer) && answer.length > 0 && answer.every((a) => a instanceof PyDict)) {
      return `ground_truth is a list of calls: ${V3} it is one object of calls`;
    }
    return `ground_truth is not an object: ${shown(answer)}`;
  }
  if (answer.size === 0) return "ground_truth is empty";
  const fn = question instanceof PyDict ? question.get("function") : undefined;
  for (const [i, [name, call]] of answer.entries().entries()) {
    if (typeof name !== "string") {
      return `ground_truth has a key that is not a string: ${shown(name)}`;
    }
    const at = `ground_truth[${JSON.stringify(name)}]`;
    if (!(call instanceof PyDict)) {
      const read = ONE_CALL.has(category)
        ? i === 0
        : !Array.isArray(fn) || fn.some((f) => name.includes((f as PyDict).get("name") as string));
      if (read) return `${at} is not an object: ${shown(call)}`;
      continue;
    }
    for (const [param, choices] of call.entries()) {
      if (typeof param !== "string") return `${at} has a key that is not a string: ${shown(param)}`;
      if (!Array.isArray(choices)) {
        return `${at}[${JSON.stringify(param)}] is not a list of choices: ${shown(choices)}`;
      }
    }
  }
  return undefined;
}
