// BFCL's decoder reads an operator expression (ast.BinOp) in an argument with
// eval(ast.unparse(node)). This is that eval, for expressions made of literals only: constants
// (not bytes, complex or `...`), lists, tuples and dicts of them, `True`, `False` and `None`, and
// unary and binary operators, with Python's semantics (./_python_arith.ts for the numbers). Names,
// calls, attributes, subscripts and every other kind of expression are not evaluated (BFCL's eval
// would look the name up, or call the function), nor is printf-style `str % x`. A Python exception
// fails the decoding, as it did in BFCL; so does what is not evaluated.
import { PyDict, PyFloat, PyInt, PyOther, PyTuple, pyType, type PyValue } from "./py_value.ts";
import type { Node } from "./_python_parser.ts";
import { unparse } from "./_python_unparse.ts";
import {
  floatDivide,
  floatDivmod,
  floatPower,
  intBits,
  intFloorDivide,
  intModulo,
  intMultiply,
  intPower,
  intShift,
  intToFloat,
  intTrueDivide,
  NotEvaluated,
  PyRaised,
} from "./_python_arith.ts";

export { NotEvaluated, PyRaised };

/**
 * How deep Python's stack may be when ast.unparse reaches the deepest node: CPython 3.11's limit
 * of 1,000 frames, less those below BFCL's first frame (measured: see ./_python_calls.ts, whose
 * `frames` counts BFCL's own).
 */
export const UNPARSE_STACK_LIMIT = 992;

/** The most items, characters and int words one text's operators may build in all. */
export const EVALUATION_BUDGET = 1 << 22;

/** The longest str, list or tuple an operator may build. */
export const MAX_SEQUENCE = 1 << 20;

/** What one text's evaluations may still build. */
export interface Budget {
  left: number;
}

/** Frames ast.unparse adds for a node (Python 3.11's _Unparser), beside its children's. */
function ownFrames(n: Node): number {
  switch (n.k) {
    case "binop":
    case "unary":
      return 3;
    case "list":
      return n.elts.length > 0 ? 4 : 1;
    case "tuple":
      return n.elts.length === 0 ? 2 : n.elts.length === 1 ? 4 : 5;
    case "dict":
      return n.keys.length > 0 ? 6 : 1;
    case "name":
      return -1;
    default:
      return 0;
  }
}

/**
 * Checks that a tree holds only what is evaluated here, and that ast.unparse, started `frames`
 * frames deep, would not run out of stack (RecursionError), without recursion.
 */
function checkTree(root: Node, frames: number): void {
  let deepest = 0;
  const stack: [Node, number][] = [[root, frames]];
  while (stack.length > 0) {
    const [n, above] = stack.pop()!;
    const here = above + ownFrames(n);
    if (here > deepest) deepest = here;
    let children: Node[] = [];
    switch (n.k) {
      case "const":
        if (n.ellipsis || n.v instanceof PyOther) {
          throw new NotEvaluated(`${n.ellipsis ? "Ellipsis" : pyType(n.v)} in an operation`);
        }
        break;
      case "name":
        if (!["True", "False", "None"].includes(n.id)) throw refused(n);
        break;
      case "list":
      case "tuple":
        children = n.elts;
        break;
      case "dict":
        if (n.keys.includes(null)) throw refused(n);
        children = [...(n.keys as Node[]), ...n.values];
        break;
      case "unary":
        children = [n.operand];
        break;
      case "binop":
        children = [n.left, n.right];
        break;
      default:
        throw refused(n);
    }
    for (const c of children) stack.push([c, here]);
  }
  if (deepest > UNPARSE_STACK_LIMIT) {
    throw new PyRaised("RecursionError", "maximum recursion depth exceeded (in ast.unparse)");
  }
}

function refused(n: Node): NotEvaluated {
  const src = unparse(n);
  return new NotEvaluated(
    `an operation on ${src.length > 60 ? src.slice(0, 57) + "..." : src}, which BFCL's eval ` +
      "would look up or run, and which is not evaluated here",
  );
}

/** The int behind a bool or an int, else undefined. */
function intOf(v: PyValue): bigint | undefined {
  if (typeof v === "boolean") return v ? 1n : 0n;
  return v instanceof PyInt ? v.value : undefined;
}

function typeError(op: string, a: PyValue, b: PyValue): PyRaised {
  return new PyRaised(
    "TypeError",
    `unsupported operand type(s) for ${op}: '${pyType(a)}' and '${pyType(b)}'`,
  );
}

function spend(budget: Budget, units: number): void {
  budget.left -= units;
  if (budget.left < 0) {
    throw new NotEvaluated(`operations building more than ${EVALUATION_BUDGET} items in all`);
  }
}

function int(n: bigint, budget: Budget): PyInt {
  spend(budget, 1 + (intBits(n) >> 6));
  return new PyInt(n);
}

/** An operation of two numbers (bool and int as ints; an int meeting a float made a float). */
function arithmetic(op: string, a: PyValue, b: PyValue, budget: Budget): PyValue | undefined {
  const x = intOf(a), y = intOf(b);
  const fa = a instanceof PyFloat ? a.value : undefined;
  const fb = b instanceof PyFloat ? b.value : undefined;
  if ((x === undefined && fa === undefined) || (y === undefined && fb === undefined)) {
    return undefined;
  }
  if (x !== undefined && y !== undefined) {
    if (["&", "|", "^"].includes(op) && typeof a === "boolean" && typeof b === "boolean") {
      return op === "&" ? a && b : op === "|" ? a || b : a !== b;
    }
    switch (op) {
      case "+":
        return int(x + y, budget);
      case "-":
        return int(x - y, budget);
      case "*":
        return int(intMultiply(x, y), budget);
      case "/":
        return new PyFloat(intTrueDivide(x, y));
      case "//":
        return int(intFloorDivide(x, y), budget);
      case "%":
        return int(intModulo(x, y), budget);
      case "**": {
        const p = intPower(x, y);
        return typeof p === "bigint" ? int(p, budget) : new PyFloat(p);
      }
      case "<<":
      case ">>":
        return int(intShift(x, y, op === "<<"), budget);
      case "&":
        return int(x & y, budget);
      case "|":
        return int(x | y, budget);
      case "^":
        return int(x ^ y, budget);
    }
    throw typeError(op, a, b);
  }
  if (!["+", "-", "*", "/", "//", "%", "**"].includes(op)) throw typeError(op, a, b);
  const v = fa ?? intToFloat(x!), w = fb ?? intToFloat(y!);
  switch (op) {
    case "+":
      return new PyFloat(v + w);
    case "-":
      return new PyFloat(v - w);
    case "*":
      return new PyFloat(v * w);
    case "/":
      return new PyFloat(floatDivide(v, w));
    case "//":
    case "%":
      return new PyFloat(floatDivmod(v, w, op));
    default:
      return new PyFloat(floatPower(v, w));
  }
}

const INDEX_MAX = (1n << 63n) - 1n;

/** `seq * n`: Python's sequence repetition. */
function repeat<T>(items: T[] | string, n: bigint, budget: Budget): T[] | string {
  if (n > INDEX_MAX || n < -INDEX_MAX - 1n) {
    throw new PyRaised("OverflowError", "cannot fit 'int' into an index-sized integer");
  }
  if (n <= 0n || items.length === 0) return typeof items === "string" ? "" : [];
  if (BigInt(items.length) * n > BigInt(MAX_SEQUENCE)) {
    throw new NotEvaluated(`a sequence of more than ${MAX_SEQUENCE} items`);
  }
  const times = Number(n);
  spend(budget, items.length * times);
  if (typeof items === "string") return items.repeat(times);
  const out: T[] = [];
  for (let i = 0; i < times; i++) out.push(...items);
  return out;
}

function concat<T>(a: T[] | string, b: T[] | string, budget: Budget): T[] | string {
  if (a.length + b.length > MAX_SEQUENCE) {
    throw new NotEvaluated(`a sequence of more than ${MAX_SEQUENCE} items`);
  }
  spend(budget, a.length + b.length);
  return typeof a === "string" ? a + b : [...a as T[], ...b as T[]];
}

function sequenceOf(v: PyValue): PyValue[] | string | undefined {
  if (typeof v === "string" || Array.isArray(v)) return v;
  return v instanceof PyTuple ? [...v.items] : undefined;
}

function rewrap(like: PyValue, items: PyValue[] | string): PyValue {
  return like instanceof PyTuple ? new PyTuple(items as PyValue[]) : items;
}

/** Python's `a op b` for the values evaluated here. */
function binary(op: string, a: PyValue, b: PyValue, budget: Budget): PyValue {
  const num = arithmetic(op, a, b, budget);
  if (num !== undefined) return num;
  const sa = sequenceOf(a), sb = sequenceOf(b);
  if (op === "+" && sa !== undefined) {
    if (sb !== undefined && pyType(a) === pyType(b)) return rewrap(a, concat(sa, sb, budget));
    throw new PyRaised(
      "TypeError",
      `can only concatenate ${pyType(a)} (not "${pyType(b)}") to ${pyType(a)}`,
    );
  }
  if (op === "*") {
    const n = intOf(b), m = intOf(a);
    if (sa !== undefined && n !== undefined) return rewrap(a, repeat(sa, n, budget));
    if (sb !== undefined && m !== undefined) return rewrap(b, repeat(sb, m, budget));
    if (sa !== undefined || sb !== undefined) {
      const other = sa !== undefined ? b : a;
      throw new PyRaised(
        "TypeError",
        `can't multiply sequence by non-int of type '${pyType(other)}'`,
      );
    }
  }
  if (op === "%" && typeof a === "string") {
    throw new NotEvaluated("printf-style formatting (str % value)");
  }
  if (op === "|" && a instanceof PyDict && b instanceof PyDict) {
    spend(budget, a.size + b.size);
    return new PyDict([...a.entries(), ...b.entries()]);
  }
  throw typeError(op, a, b);
}

function truthy(v: PyValue): boolean {
  if (v === null) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "string" || Array.isArray(v)) return v.length > 0;
  if (v instanceof PyInt) return v.value !== 0n;
  if (v instanceof PyFloat) return v.value !== 0;
  if (v instanceof PyTuple) return v.items.length > 0;
  return v instanceof PyDict ? v.size > 0 : true;
}

function unary(op: string, v: PyValue, budget: Budget): PyValue {
  if (op === "not ") return !truthy(v);
  const i = intOf(v);
  if (i !== undefined) return int(op === "-" ? -i : op === "+" ? i : -i - 1n, budget);
  if (v instanceof PyFloat && op !== "~") return new PyFloat(op === "-" ? -v.value : v.value);
  throw new PyRaised("TypeError", `bad operand type for unary ${op}: '${pyType(v)}'`);
}

/** Whether a value cannot be a dict key in Python (a list, a dict, or a tuple holding one). */
export function unhashable(v: PyValue): boolean {
  if (Array.isArray(v) || v instanceof PyDict) return true;
  return v instanceof PyTuple && v.items.some(unhashable);
}

function value(n: Node, budget: Budget): PyValue {
  switch (n.k) {
    case "const":
      return n.v;
    case "name":
      return n.id === "True" ? true : n.id === "False" ? false : null;
    case "list":
      spend(budget, n.elts.length);
      return n.elts.map((e) => value(e, budget));
    case "tuple":
      spend(budget, n.elts.length);
      return new PyTuple(n.elts.map((e) => value(e, budget)));
    case "dict": {
      spend(budget, n.keys.length);
      const pairs = n.keys.map((k, i) => [value(k!, budget), value(n.values[i]!, budget)] as const);
      for (const [k] of pairs) {
        if (unhashable(k)) throw new PyRaised("TypeError", `unhashable type: '${pyType(k)}'`);
      }
      return new PyDict(pairs);
    }
    case "unary":
      return unary(n.op, value(n.operand, budget), budget);
    case "binop":
      return binary(n.op, value(n.left, budget), value(n.right, budget), budget);
    default:
      throw refused(n); // checkTree has refused it already
  }
}

/**
 * What BFCL's `eval(ast.unparse(node))` gives for an operator expression, reached `frames`
 * Python frames deep in BFCL's decoder.
 *
 * @throws {PyRaised} Where Python raises (ZeroDivisionError, OverflowError, TypeError, …, and
 * RecursionError where ast.unparse would run out of stack).
 * @throws {NotEvaluated} Where the expression holds what is not evaluated here, or would build
 * more than the bounds above.
 */
export function evaluateOperation(n: Node, frames: number, budget: Budget): PyValue {
  checkTree(n, frames);
  return value(n, budget);
}
