// ast.unparse over the parsed tree, for the calls BFCL keeps as text: Python's precedence rules
// decide the parentheses, constants are written with repr, and comprehensions, f-strings and
// await, which BFCL's results do not need, keep their source.
import { PyFloat, PyInt, PyOther, pyRepr } from "./py_value.ts";
import type { Node, Param } from "./_python_parser.ts";

// ast._Precedence.
const TUPLE = 1, TEST = 3, OR = 4, AND = 5, NOT = 6, CMP = 7, EXPR = 8, FACTOR = 14, ATOM = 17;
const NAMED = 0;
const BINARY: Record<string, number> = {
  "|": 8,
  "^": 9,
  "&": 10,
  "<<": 11,
  ">>": 11,
  "+": 12,
  "-": 12,
  "*": 13,
  "/": 13,
  "//": 13,
  "%": 13,
  "@": 13,
  "**": 15,
};

function constSource(n: Extract<Node, { k: "const" }>): string {
  if (n.ellipsis) return "...";
  const v = n.v;
  if (v instanceof PyFloat && !Number.isFinite(v.value) && v.value === v.value) return "1e309";
  if (v instanceof PyOther && v.repr === "infj") return "1e309j";
  return (n.u ? "u" : "") + pyRepr(v);
}

function paren(needed: boolean, text: string): string {
  return needed ? `(${text})` : text;
}

function param(p: Param): string {
  if (p.prefix === "/") return "/";
  if (p.default) return `${p.name}=${unparse(p.default)}`;
  return p.prefix + p.name;
}

/**
 * `ast.unparse(node)`, the node standing at precedence `prec` (TEST, the default, when it is
 * unparsed on its own or as a call's argument).
 */
export function unparse(n: Node, prec = TEST): string {
  switch (n.k) {
    case "const":
      return constSource(n);
    case "name":
      return n.id;
    case "attr": {
      const value = unparse(n.value, ATOM);
      const int = n.value.k === "const" && n.value.v instanceof PyInt;
      return `${value}${int ? " " : ""}.${n.attr}`;
    }
    case "call": {
      const args = [
        ...n.args.map((a) => unparse(a)),
        ...n.keywords.map((kw) =>
          kw.arg === null ? `**${unparse(kw.value)}` : `${kw.arg}=${unparse(kw.value)}`
        ),
      ];
      return `${unparse(n.func, ATOM)}(${args.join(", ")})`;
    }
    case "list":
      return `[${n.elts.map((e) => unparse(e)).join(", ")}]`;
    case "tuple": {
      const items = n.elts.map((e) => unparse(e));
      const text = items.length === 1 ? `${items[0]},` : items.join(", ");
      return paren(items.length === 0 || prec > TUPLE, text);
    }
    case "set":
      return `{${n.elts.map((e) => unparse(e)).join(", ")}}`;
    case "dict":
      return `{${
        n.keys.map((k, i) =>
          k === null
            ? `**${unparse(n.values[i]!, EXPR)}`
            : `${unparse(k)}: ${unparse(n.values[i]!)}`
        ).join(", ")
      }}`;
    case "unary": {
      const p = n.op === "not " ? NOT : FACTOR;
      return paren(prec > p, `${n.op}${unparse(n.operand, p)}`);
    }
    case "binop": {
      const p = BINARY[n.op]!;
      const right = n.op === "**";
      const text = `${unparse(n.left, right ? p + 1 : p)} ${n.op} ${
        unparse(n.right, right ? p : p + 1)
      }`;
      return paren(prec > p, text);
    }
    case "compare": {
      let text = unparse(n.left, CMP + 1);
      n.ops.forEach((op, i) => text += ` ${op} ${unparse(n.rights[i]!, CMP + 1)}`);
      return paren(prec > CMP, text);
    }
    case "boolop": {
      const p = n.op === "and" ? AND : OR;
      const text = n.values.map((v, i) => unparse(v, p + 1 + i)).join(` ${n.op} `);
      return paren(prec > p, text);
    }
    case "ifexp": {
      const text = `${unparse(n.body, TEST + 1)} if ${unparse(n.test, TEST + 1)} else ${
        unparse(n.orelse, TEST)
      }`;
      return paren(prec > TEST, text);
    }
    case "lambda": {
      const params = n.params.map(param).join(", ");
      const text = `lambda${params === "" ? "" : " " + params}: ${unparse(n.body, TEST)}`;
      return paren(prec > TEST, text);
    }
    case "named":
      return paren(prec > NAMED, `${n.target} := ${unparse(n.value, ATOM)}`);
    case "starred":
      return `*${unparse(n.value, EXPR)}`;
    case "subscript": {
      // A tuple's parentheses go (Python 3.11), and one item keeps its comma.
      const t = n.slice;
      const slice = t.k === "tuple" && t.elts.length > 0
        ? t.elts.map((e) => unparse(e)).join(", ") + (t.elts.length === 1 ? "," : "")
        : unparse(t);
      return `${unparse(n.value, ATOM)}[${slice}]`;
    }
    case "slice": {
      const bound = (b: Node | null) => b === null ? "" : unparse(b);
      return `${bound(n.lower)}:${bound(n.upper)}${n.step === null ? "" : ":" + unparse(n.step)}`;
    }
    case "other":
      return n.src;
  }
}
