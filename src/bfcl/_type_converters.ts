// BFCL's Java and JavaScript type converters: a model's argument, always a string here, is read
// as the declared Java or JavaScript type with BFCL's regular expressions; whatever they do not
// recognise stays the string it was. The patterns are Python's (pyRegExp: `\d`, `\w` and `\s`
// are Unicode's, so `١٢` is digits and U+0085 a space); `.` is written [^\n] and `$` as \n?$, as
// in Python's `re`.
import { PyDict, type PyValue } from "./py_value.ts";
import { pyFloatOf, pyIntOf, pyNumberOrText, pyRegExp, pyStrip } from "./_python_text.ts";

/** The Python type each Java type is checked against (BFCL's JAVA_TYPE_CONVERSION). */
export const JAVA_TYPES: Readonly<Record<string, string>> = {
  byte: "int",
  short: "int",
  integer: "int",
  float: "float",
  double: "float",
  long: "int",
  boolean: "bool",
  char: "str",
  Array: "list",
  ArrayList: "list",
  Set: "set",
  HashMap: "dict",
  Hashtable: "dict",
  Queue: "list",
  Stack: "list",
  String: "str",
  any: "str",
};

/** The Python type each JavaScript type is checked against (BFCL's JS_TYPE_CONVERSION). */
export const JS_TYPES: Readonly<Record<string, string>> = {
  String: "str",
  integer: "int",
  float: "float",
  Bigint: "int",
  Boolean: "bool",
  dict: "dict",
  array: "list",
  any: "str",
};

const J_INT = pyRegExp(String.raw`^-?\d+\n?$`);
const J_FLOAT = pyRegExp(String.raw`^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]\n?$`);
const J_DOUBLE = pyRegExp(String.raw`^-?\d+(\.\d+)?([eE][+-]?\d+)?\n?$`);
const J_LONG = pyRegExp(String.raw`^-?\d+[lL]\n?$`);
const J_AS_LIST = pyRegExp(String.raw`new\s+ArrayList<\w*>\(Arrays\.asList\(([^\n]+?)\)\)`);
const J_ADDS = pyRegExp(String.raw`new\s+ArrayList<\w*>\(\)\s*\{\{\s*([^]+?)\s*\}\}`);
const J_ADD = pyRegExp(String.raw`add\(([^\n]+?)\)`, "g");
const J_EMPTY_LIST = pyRegExp(String.raw`new\s+ArrayList<\w*>\(\)`);
const J_ARRAY = pyRegExp(String.raw`new\s+\w+\[\]\s*\{([^\n]*?)\}`);
const J_HASHMAP = pyRegExp(
  String.raw`new\s+HashMap<[^]*?>\s*\(\)\s*\{\s*\{?\s*([^]*?)\s*\}?\s*\}`,
);
const J_PUT = pyRegExp(String.raw`put\("([^\n]*?)",\s*([^\n]*?)\)`, "g");
const J_EMPTY_MAP = pyRegExp(String.raw`new\s+HashMap<[^\n]*?>\s*\(\)`);

function floatOf(s: string): PyValue {
  return pyFloatOf(s) ?? s;
}

/** The ValueError of an `int()` that BFCL's Java converter calls without catching it. */
class IntRefused extends Error {}

/** `int(s)` where BFCL does not catch its ValueError (the pattern matched, so only the limit). */
function intOf(s: string): PyValue {
  const n = pyIntOf(s);
  if (n === undefined) throw new IntRefused();
  return n;
}

/**
 * BFCL's `java_type_converter(value, type, nested)`; undefined where it raises ValueError (an
 * `int()` past Python's 4,300 digits, at the top or in an item), which ends BFCL's run.
 */
export function javaConvert(value: string, type: string, nested?: string): PyValue | undefined {
  try {
    return javaType(value, type, nested);
  } catch (e) {
    if (e instanceof IntRefused) return undefined;
    throw e;
  }
}

function javaType(value: string, type: string, nested?: string): PyValue {
  switch (type) {
    case "byte":
    case "short":
    case "integer":
      return J_INT.test(value) ? intOf(value) : value;
    case "float":
      return J_FLOAT.test(value) ? floatOf(value.replace(/[fF](?=\n?$)/, "")) : value;
    case "double":
      return J_DOUBLE.test(value) ? floatOf(value) : value;
    case "long":
      return J_LONG.test(value) ? intOf(value.replace(/[lL](?=\n?$)/, "")) : value;
    case "boolean":
      return value === "true" ? true : value === "false" ? false : value;
    case "Array":
      return javaArray(value, nested);
    case "ArrayList":
      return javaArrayList(value, nested);
    case "HashMap":
      return javaHashMap(value);
    default:
      // char's pattern (^'.$') can never match; String and any are the string itself. Set,
      // Hashtable, Queue and Stack, which BFCL leaves unimplemented, stay strings too.
      return value;
  }
}

/** Python's `s[1:-1]`: without the first and last code point (a character past the BMP whole). */
function inner(s: string): string {
  return [...s].slice(1, -1).join("");
}

function javaElement(text: string, nested: string | undefined): PyValue {
  if (nested === "char" || nested === "String") return inner(text);
  return nested ? javaType(text, nested) : javaValue(text);
}

function javaArrayList(input: string, nested: string | undefined): PyValue {
  const asList = J_AS_LIST.exec(input);
  if (asList) return asList[1]!.split(",").map((e) => javaElement(pyStrip(e), nested));
  const adds = J_ADDS.exec(input);
  if (adds) {
    return [...adds[1]!.matchAll(J_ADD)].map((m) => javaElement(pyStrip(m[1]!), nested));
  }
  return J_EMPTY_LIST.test(input) ? [] : input;
}

function javaArray(input: string, nested: string | undefined): PyValue {
  const m = J_ARRAY.exec(input);
  if (!m) return input;
  return m[1]!.split(",").filter((x) => pyStrip(x) !== "").map((x) =>
    nested ? javaType(pyStrip(x), nested) : javaValue(pyStrip(x))
  );
}

function javaHashMap(input: string): PyValue {
  const m = J_HASHMAP.exec(input);
  if (m) {
    const d = new PyDict();
    if (pyStrip(m[1]!) !== "") {
      for (const put of m[1]!.matchAll(J_PUT)) {
        d.set(put[1]!, javaValue(pyStrip(put[2]!)));
      }
    }
    return d;
  }
  return J_EMPTY_MAP.test(input) ? new PyDict() : input;
}

/** BFCL's `parse_java_value`: a Java literal of unknown type. */
function javaValue(s: string): PyValue {
  if (s === "true") return true;
  if (s === "false") return false;
  if (s.startsWith('"') && s.endsWith('"')) return s.slice(1, -1);
  if (J_LONG.test(s)) return intOf(s.slice(0, -1));
  if (J_FLOAT.test(s)) return floatOf(s.replace(/[fF](?=\n?$)/, ""));
  return pyNumberOrText(s);
}

/**
 * BFCL's `js_type_converter(value, type, nested)`; undefined where it raises ValueError (a type
 * it lacks, or an `integer` or `Bigint` whose `int()` fails: past Python's 4,300 digits).
 */
export function jsConvert(value: string, type: string, nested?: string): PyValue | undefined {
  switch (type) {
    case "String": {
      const quoted = (value.startsWith('"') && value.endsWith('"')) ||
        (value.startsWith("'") && value.endsWith("'"));
      return quoted ? value.slice(1, -1) : value;
    }
    case "integer":
      return J_INT.test(value) ? pyIntOf(value) : value;
    case "float":
      return JS_FLOAT.test(value) ? floatOf(value) : value;
    case "Bigint":
      return JS_BIGINT.test(value) ? pyIntOf(value.slice(0, -1)) : value;
    case "Boolean":
      return value === "true" ? true : value === "false" ? false : value;
    case "dict":
      return jsDict(pyStrip(value));
    case "array":
      return jsArray(pyStrip(value), nested);
    case "any":
      return value;
    default:
      return undefined;
  }
}

function jsValue(raw: string): PyValue {
  const s = pyStrip(raw);
  if (s === "true") return true;
  if (s === "false") return false;
  if ((s.startsWith('"') && s.endsWith('"')) || (s.startsWith("'") && s.endsWith("'"))) {
    return s.slice(1, -1);
  }
  return pyNumberOrText(s);
}

const JS_FLOAT = pyRegExp(String.raw`^-?\d+(\.\d+)?\n?$`);
const JS_BIGINT = pyRegExp(String.raw`^-?\d+n\n?$`);
// `\b` stands right after `^`, where Python's and JavaScript's agree (before a letter).
const JS_2D = pyRegExp(
  String
    .raw`^(?:\[\s*\[[^\n]*?\]\s*(,\s*\[[^\n]*?\]\s*)*\]|\bnew\s+Array\(\s*\[[^\n]*?\]\s*(,\s*\[[^\n]*?\]\s*)*\))`,
);
const JS_1D = pyRegExp(String.raw`^(?:\[([^\n]*?)\]|\bnew\s+Array\(([^\n]*?)\))`);
const JS_INNER = pyRegExp(String.raw`\[([^\n]*?)\]`, "g");
const JS_DICT = pyRegExp(String.raw`^\{([^\n]*?)\}`);
const JS_PAIRS = pyRegExp(String.raw`([^:]+):\s*([^\n]*?)(?:,\s*(?=[^,]+:)|(?=\n?$))`, "g");

function jsArray(code: string, nested: string | undefined): PyValue {
  const twoD = JS_2D.exec(code);
  if (twoD) {
    return [...twoD[0].matchAll(JS_INNER)].map((m, idx) => {
      let inner = pyStrip(m[1]!);
      if (idx === 0 && inner.startsWith("[")) inner = inner.slice(1);
      return inner.split(",").map((e) => jsValue(pyStrip(e)));
    });
  }
  const oneD = JS_1D.exec(code);
  if (!oneD) return code;
  const body = pyStrip(oneD[1] ?? oneD[2] ?? "");
  const parts = body === "" ? [] : body.split(",");
  if (!nested) return parts.map((e) => jsValue(e));
  const out: PyValue[] = [];
  for (const e of parts) {
    const v = jsConvert(pyStrip(e), nested, "String");
    if (v === undefined) return code; // a ValueError inside: BFCL gives the text back
    out.push(v);
  }
  return out;
}

function jsDict(code: string): PyValue {
  if (code === "{}") return new PyDict();
  const m = JS_DICT.exec(code);
  if (!m) return code;
  const d = new PyDict();
  for (const [, rawKey, rawValue] of m[1]!.matchAll(JS_PAIRS)) {
    const value = pyStrip(rawValue!);
    let v: PyValue;
    if (value.startsWith("[") && value.endsWith("]")) v = jsArray(value, undefined);
    else if (value.startsWith("{") && value.endsWith("}")) v = jsDict(value);
    else v = jsValue(stripChars(value, "'\""));
    d.set(stripChars(pyStrip(rawKey!), "'\""), v);
  }
  return d;
}

/** `s.strip(chars)`. */
function stripChars(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a]!)) a++;
  while (b > a && chars.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}
