// `pythonic`: a Python list of calls with keyword arguments, `[get_weather(city="Paris")]`, read
// by the bfcl room's Python expression parser (checked against CPython) and never evaluated.
// Literal values map to JSON: str to a string, int and float to numbers (a float keeps its `.0`),
// True/False to booleans, None to null, list and tuple to arrays, dict with string keys to
// objects. Anything else is a failure with its reason.
import { canonicalize, type Engine, MAX_INT_DIGITS, pyFloatRepr } from "../engine/mod.ts";
import { parsePythonExpression, PyFloat, PyInt, PyOther, type PythonNode } from "../bfcl/mod.ts";
import type { DecodedCall, DecodeResult } from "./decoded.ts";
import { emptyOutput, llamaBody, type LlamaTokens, resultOf } from "./_text_decoders.ts";

/** A value with no JSON form, or a construct that would need evaluating. */
class NotLiteral extends Error {}

/** The least int of more decimal digits than Python writes (its 4,300-digit limit). */
const TOO_LONG = 10n ** BigInt(MAX_INT_DIGITS);

function number(v: PyInt | PyFloat, negative: boolean): string {
  if (v instanceof PyInt) {
    // A decimal literal that long is the parser's SyntaxError; a hex, octal or binary one is read,
    // and json.dumps refuses its value, as here, before writing any digit.
    if (v.value >= TOO_LONG || v.value <= -TOO_LONG) {
      throw new NotLiteral(`an int of more than ${MAX_INT_DIGITS} decimal digits`);
    }
    return (negative ? -v.value : v.value).toString();
  }
  const x = negative ? -v.value : v.value;
  if (Number.isFinite(x)) return pyFloatRepr(x);
  return x > 0 ? "Infinity" : "-Infinity";
}

const KINDS: Record<string, string> = {
  name: "a name",
  attr: "an attribute",
  call: "a call",
  set: "a set",
  binop: "an operator expression",
  subscript: "a subscript",
  compare: "a comparison",
  boolop: "a boolean operation",
  ifexp: "a conditional expression",
  lambda: "a lambda",
  named: "an assignment expression",
  starred: "a starred expression",
};

/** The JSON text of a literal, or NotLiteral. */
function jsonOf(n: PythonNode): string {
  switch (n.k) {
    case "const": {
      const v = n.v;
      if (n.ellipsis) throw new NotLiteral("an Ellipsis");
      if (typeof v === "string") return JSON.stringify(v);
      if (typeof v === "boolean") return v ? "true" : "false";
      if (v === null) return "null";
      if (v instanceof PyInt || v instanceof PyFloat) return number(v, false);
      if (v instanceof PyOther) throw new NotLiteral(`a ${v.typeName} value (${v.repr})`);
      throw new NotLiteral("a value with no JSON form");
    }
    case "unary": {
      const o = n.operand;
      if (
        (n.op === "-" || n.op === "+") && o.k === "const" &&
        (o.v instanceof PyInt || o.v instanceof PyFloat)
      ) {
        return number(o.v, n.op === "-");
      }
      throw new NotLiteral(`a unary ${JSON.stringify(n.op.trim())} expression`);
    }
    case "list":
    case "tuple":
      return `[${n.elts.map(jsonOf).join(",")}]`;
    case "dict":
      return `{${
        n.keys.map((k, i) => {
          if (k === null) throw new NotLiteral("a ** unpacking in a dict");
          if (k.k !== "const" || typeof k.v !== "string") {
            throw new NotLiteral("a dict key that is not a string");
          }
          return `${JSON.stringify(k.v)}:${jsonOf(n.values[i]!)}`;
        }).join(",")
      }}`;
    case "other":
      throw new NotLiteral(`an expression Python calls ${n.what}`);
    default:
      throw new NotLiteral(KINDS[n.k] ?? n.k);
  }
}

function dottedName(f: PythonNode): string | undefined {
  if (f.k === "name") return f.id;
  if (f.k !== "attr") return undefined;
  const base = dottedName(f.value);
  return base === undefined ? undefined : `${base}.${f.attr}`;
}

function readCall(n: PythonNode, i: number, engine: Engine | undefined): DecodedCall | string {
  if (n.k !== "call") return `item ${i} is not a call`;
  const name = dottedName(n.func);
  if (name === undefined) return `call ${i}'s function is not a name or a dotted name`;
  const label = `call ${i} (${name})`;
  if (n.args.length > 0) return `${label} has a positional argument: keywords only`;
  const seen = new Set<string>();
  const members: string[] = [];
  for (const kw of n.keywords) {
    if (kw.arg === null) return `${label} has a ** argument: keywords only`;
    if (seen.has(kw.arg)) return `${label} repeats the keyword argument ${kw.arg}`;
    seen.add(kw.arg);
    try {
      members.push(`${JSON.stringify(kw.arg)}:${jsonOf(kw.value)}`);
    } catch (e) {
      if (!(e instanceof NotLiteral)) throw e;
      return `${label}'s argument ${kw.arg} is ${e.message}, not a literal JSON can hold`;
    }
  }
  const r = canonicalize(`{${members.join(",")}}`, { engine });
  if (!r.ok) return `${label}'s arguments are not JSON: ${r.error.code}`;
  return { name, arguments: r.canonical };
}

/** Llama 4: `<|python_start|>` and `<|python_end|>` around a call; `<|eom|>` or `<|eot|>` last. */
const LLAMA4_TOKENS: LlamaTokens = {
  open: "<|python_start|>",
  close: "<|python_end|>",
  ends: ["<|eom|>", "<|eot|>"],
};

/**
 * `pythonic`: one Python list of calls with keyword arguments. Llama's special tokens around it
 * are dropped: Llama 3.x's leading `<|python_tag|>` and one trailing `<|eom_id|>` or `<|eot_id|>`
 * ({@linkcode llamaBody}), or, in an output with any of Llama 4's tokens, its `<|python_start|>` and `<|python_end|>` around the list
 * and one trailing `<|eom|>` or `<|eot|>`. After an opening tag, the rest must be the list;
 * without one, an output that does not start with `[` is a text answer: no calls.
 */
export function decodePythonic(text: string, engine: Engine | undefined): DecodeResult {
  const empty = emptyOutput(text);
  if (empty) return resultOf(empty);
  const llama4 = llamaBody(text, LLAMA4_TOKENS);
  const { tagged, start, end } = llama4.marked ? llama4 : llamaBody(text);
  const body = text.slice(start, end).trim();
  if (!tagged && !body.startsWith("[")) return resultOf([]);
  const parsed = parsePythonExpression(body);
  if (!parsed.ok) return resultOf({ status: "invalid_syntax", reason: parsed.reason });
  const tree = parsed.tree;
  if (tree.k !== "list") {
    return resultOf({ status: "invalid_shape", reason: "the output is not one list of calls" });
  }
  const calls: DecodedCall[] = [];
  for (let i = 0; i < tree.elts.length; i++) {
    const c = readCall(tree.elts[i]!, i, engine);
    if (typeof c === "string") return resultOf({ status: "invalid_shape", reason: c });
    calls.push(c);
  }
  return resultOf(calls);
}
