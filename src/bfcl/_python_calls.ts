// BFCL's resolve_ast_by_type over the parsed tree, and ast_parse itself: a list of calls, each
// read in turn. An operator expression is evaluated as BFCL's eval(ast.unparse(node)) evaluates
// it, when it holds literals only (./_python_eval.ts); nothing else is.
import { PyDict, PyFloat, PyInt, PyOther, PyTuple, pyType, type PyValue } from "./py_value.ts";
import type { Node } from "./_python_parser.ts";
import { parsePythonExpression } from "./python_expression.ts";
import { PySyntaxError } from "./_python_tokens.ts";
import { unparse } from "./_python_unparse.ts";
import {
  type Budget,
  evaluateOperation,
  EVALUATION_BUDGET,
  NotEvaluated,
  PyRaised,
  unhashable,
} from "./_python_eval.ts";

/** Thrown while resolving: the value is not one BFCL's decoder can read. */
class Unsupported extends Error {}

/**
 * Python frames on the stack when BFCL resolves a call of the list: the eval runner's module,
 * `runner`, the file runner, the handler's `decode_ast`, `ast_parse` and `resolve_ast_by_type`.
 * Each level below adds two: a call's `resolve_ast_call` and the resolver, or a list's, tuple's
 * or dict's comprehension and the resolver.
 */
const TOP_FRAMES = 6;

const AST_NAMES: Record<string, string> = {
  const: "Constant",
  name: "Name",
  attr: "Attribute",
  call: "Call",
  list: "List",
  tuple: "Tuple",
  set: "Set",
  dict: "Dict",
  unary: "UnaryOp",
  binop: "BinOp",
  subscript: "Subscript",
  compare: "Compare",
  boolop: "BoolOp",
  ifexp: "IfExp",
  lambda: "Lambda",
  named: "NamedExpr",
  starred: "Starred",
  slice: "Slice",
};

/** The class of a node's ast counterpart, as Python names it. */
const astName = (n: Node): string => n.k === "other" ? n.what : AST_NAMES[n.k]!;

/**
 * BFCL reads any unary operation as `-value.operand.value`: a constant's value negated, or else
 * Python's error. The operand's `value`, where its class has one (Attribute, Subscript, NamedExpr,
 * Starred, Await, DictComp), is a node, which `-` refuses; other classes have no `value`.
 */
function negatedOperand(o: Node): PyValue {
  if (o.k === "const") {
    if (o.ellipsis) throw new Unsupported("bad operand type for unary -: 'ellipsis'");
    return negate(o.v);
  }
  const inner = "value" in o ? o.value : undefined;
  if (inner) throw new Unsupported(`bad operand type for unary -: '${astName(inner)}'`);
  throw new Unsupported(`'${astName(o)}' object has no attribute 'value'`);
}

function callName(func: Node): string {
  const parts: string[] = [];
  let f = func;
  while (f.k === "attr") parts.push(f.attr), f = f.value;
  if (f.k === "name") parts.push(f.id);
  return parts.reverse().join(".");
}

function resolveCall(n: Extract<Node, { k: "call" }>, frames: number, budget: Budget): PyValue {
  const args = new PyDict();
  for (const kw of n.keywords) args.set(kw.arg, resolve(kw.value, frames + 2, budget));
  return new PyDict([[callName(n.func), args]]);
}

function negate(v: PyValue): PyValue {
  if (typeof v === "boolean") return new PyInt(v ? -1n : 0n);
  if (v instanceof PyInt) return new PyInt(-v.value);
  if (v instanceof PyFloat) return new PyFloat(-v.value);
  if (v instanceof PyOther && v.typeName === "complex") {
    return new PyOther("complex", `(-${v.repr})`);
  }
  const type = v === null ? "NoneType" : typeof v === "string" ? "str" : "bytes";
  throw new Unsupported(`bad operand type for unary -: '${type}'`);
}

/** resolve_ast_by_type, `frames` Python frames deep in BFCL's decoder. */
function resolve(n: Node, frames: number, budget: Budget): PyValue {
  const inner = (e: Node) => resolve(e, frames + 2, budget);
  switch (n.k) {
    case "const":
      return n.v;
    case "unary":
      return negatedOperand(n.operand);
    case "list":
      return n.elts.map(inner);
    case "tuple":
      return new PyTuple(n.elts.map(inner));
    case "dict":
      return new PyDict(n.keys.map((k, i) => {
        if (k === null) throw new Unsupported("Unsupported AST type: <class 'NoneType'>");
        const key = inner(k);
        if (unhashable(key)) throw new Unsupported(`unhashable type: '${pyType(key)}'`);
        return [key, inner(n.values[i]!)] as const;
      }));
    case "name":
      return n.id;
    case "subscript": {
      // BFCL's fallback for a subscript: the value's and the slice's source, each on its own.
      return `${unparse(n.value)}[${unparse(n.slice)}]`;
    }
    case "call":
      return n.keywords.length === 0 ? unparse(n) : resolveCall(n, frames, budget);
    case "binop":
      return evaluateOperation(n, frames, budget);
    case "attr":
      throw new Unsupported("Unsupported AST type: <class 'ast.Attribute'>");
    case "set":
      throw new Unsupported("Unsupported AST type: <class 'ast.Set'>");
    case "compare":
    case "boolop":
    case "ifexp":
    case "lambda":
    case "named":
    case "starred":
    case "slice":
    case "other":
      throw new Unsupported(`Unsupported AST type: <class 'ast.${astName(n)}'>`);
  }
}

/**
 * BFCL's ast_parse: the text must be one Python expression whose value is a list of calls; each
 * item is read by resolve_ast_by_type.
 */
export function parsePythonCalls(
  text: string,
): { ok: true; value: PyValue } | { ok: false; reason: string } {
  const parsed = parsePythonExpression(text);
  if (!parsed.ok) return parsed;
  const body = parsed.tree;
  if (body.k !== "list" && body.k !== "tuple" && body.k !== "set") {
    return { ok: false, reason: "the expression is not a list of calls" };
  }
  try {
    const out: PyValue[] = [];
    const budget: Budget = { left: EVALUATION_BUDGET };
    for (const elem of body.elts) {
      if (elem.k !== "call") return { ok: false, reason: "AssertionError: an item is not a call" };
      out.push(resolve(elem, TOP_FRAMES, budget));
    }
    return { ok: true, value: out };
  } catch (e) {
    if (
      e instanceof Unsupported || e instanceof PySyntaxError || e instanceof PyRaised ||
      e instanceof NotEvaluated
    ) {
      return { ok: false, reason: e.message };
    }
    throw e;
  }
}
