// A parser of Python's expression grammar (what ast.parse(..., mode="eval") accepts, to the
// extent BFCL's results need) that builds a small tree for BFCL's resolve_ast_by_type.
import { PyOther, type PyValue } from "./py_value.ts";
import { bytesRepr } from "./_python_repr.ts";
import { PySyntaxError, type Token } from "./_python_tokens.ts";

/** A node of the tree. */
export type Node =
  | { k: "const"; v: PyValue; ellipsis?: boolean; u?: boolean }
  | { k: "name"; id: string }
  | { k: "attr"; value: Node; attr: string }
  | { k: "call"; func: Node; args: Node[]; keywords: { arg: string | null; value: Node }[] }
  | { k: "list" | "tuple" | "set"; elts: Node[] }
  | { k: "dict"; keys: (Node | null)[]; values: Node[] }
  | { k: "unary"; op: string; operand: Node }
  | { k: "binop"; op: string; left: Node; right: Node }
  | { k: "subscript"; value: Node; slice: Node }
  | { k: "slice"; lower: Node | null; upper: Node | null; step: Node | null }
  | { k: "compare"; left: Node; ops: string[]; rights: Node[] }
  | { k: "boolop"; op: "and" | "or"; values: Node[] }
  | { k: "ifexp"; body: Node; test: Node; orelse: Node }
  | { k: "lambda"; params: Param[]; body: Node }
  | { k: "named"; target: string; value: Node }
  | { k: "starred"; value: Node }
  | { k: "other"; what: string; src: string; value?: Node };

/** A lambda's parameter: `x`, `x=1`, `*a`, `**k`, or the markers `*` and `/`. */
export interface Param {
  /** `*` or `**` before the name, `/` for the marker `/`, else empty. */
  prefix: "" | "*" | "**" | "/";
  /** The name (empty for a marker). */
  name: string;
  /** The default value's tree, if any. */
  default?: Node;
}

const COMPARE = new Set(["==", "!=", "<", ">", "<=", ">="]);
const BINARY: [string[], number][] = [
  [["|"], 1],
  [["^"], 2],
  [["&"], 3],
  [["<<", ">>"], 4],
  [["+", "-"], 5],
  [["*", "/", "//", "%", "@"], 6],
];

/**
 * How deep expr(), a `not` operand and factor() may nest: the parser's own bound, so that its stack
 * (about 19 frames a bracket, 2 a unary operator) stays well inside every runtime's, and the
 * same inputs are refused on each (Node 20 runs out near 3,800 nested unary operators, or 430
 * nested brackets). CPython goes deeper in chains of unary operators, `not`, `**`, `lambda` and
 * `if`–`else` (up to its tree limit, 2,987): the one place this reader refuses what it reads.
 */
const MAX_NESTING = 1000;

const tooDeep = () =>
  new PySyntaxError(`nested too deeply for this reader (over ${MAX_NESTING} nested expressions)`);

/** A recursive-descent parser over the tokens. */
export class Parser {
  pos = 0;
  /** How deep `nest` is now (see MAX_NESTING). */
  #nesting = 0;
  constructor(readonly toks: Token[], readonly src: string) {}

  get tok(): Token {
    return this.toks[this.pos]!;
  }
  at(kind: Token["kind"]): boolean {
    return this.tok.kind === kind;
  }
  is(text: string): boolean {
    const t = this.tok;
    return (t.kind === "op" || t.kind === "keyword") && t.text === text;
  }
  eat(text: string): boolean {
    if (!this.is(text)) return false;
    this.pos++;
    return true;
  }
  expect(text: string): void {
    if (!this.eat(text)) throw new PySyntaxError(`expected '${text}' at ${this.tok.start}`);
  }
  /** A construct kept as its source; `value` is its ast class's `value` node, where it has one. */
  other(what: string, from: number, value?: Node): Node {
    // Up to its last token's end: no comment or line break after it.
    const src = this.src.slice(from, this.toks[this.pos - 1]!.end);
    return value ? { k: "other", what, src, value } : { k: "other", what, src };
  }

  /** Reads a part that recurses (an expression, a `not` or unary operand) one level deeper. */
  nest(read: () => Node): Node {
    if (++this.#nesting > MAX_NESTING) throw tooDeep();
    const n = read();
    this.#nesting--;
    return n;
  }

  expr(): Node {
    return this.nest(() => this.lambdaOrIf());
  }
  lambdaOrIf(): Node {
    if (this.eat("lambda")) {
      const params = this.params(":");
      this.expect(":");
      return { k: "lambda", params, body: this.expr() };
    }
    const body = this.disjunction();
    if (this.eat("if")) {
      const test = this.disjunction();
      this.expect("else");
      return { k: "ifexp", body, test, orelse: this.expr() };
    }
    return body;
  }
  /** An expression that may be a named expression (`x := 1`) or starred (`*x`). */
  element(): Node {
    if (this.eat("*")) return { k: "starred", value: this.bitOr(0) };
    const e = this.expr();
    if (this.eat(":=")) {
      if (e.k !== "name") throw new PySyntaxError("cannot use assignment expressions here");
      return { k: "named", target: e.id, value: this.expr() };
    }
    return e;
  }
  params(end: string): Param[] {
    const params: Param[] = [];
    while (!this.is(end)) {
      const prefix = this.eat("**") ? "**" : this.eat("*") ? "*" : this.eat("/") ? "/" : "";
      let name = "";
      if (prefix === "" || ((prefix === "*" || prefix === "**") && this.tok.kind === "name")) {
        if (this.tok.kind !== "name") throw new PySyntaxError("invalid lambda parameter");
        name = this.tok.text;
        this.pos++;
      }
      const param: Param = { prefix, name };
      if (prefix === "" && this.eat("=")) param.default = this.expr();
      params.push(param);
      if (!this.eat(",")) break;
    }
    return params;
  }
  disjunction(): Node {
    const first = this.conjunction();
    if (!this.is("or")) return first;
    const values = [first];
    while (this.eat("or")) values.push(this.conjunction());
    return { k: "boolop", op: "or", values };
  }
  conjunction(): Node {
    const first = this.inversion();
    if (!this.is("and")) return first;
    const values = [first];
    while (this.eat("and")) values.push(this.inversion());
    return { k: "boolop", op: "and", values };
  }
  inversion(): Node {
    if (!this.eat("not")) return this.comparison();
    return { k: "unary", op: "not ", operand: this.nest(() => this.inversion()) };
  }
  comparison(): Node {
    const left = this.bitOr(0);
    const ops: string[] = [];
    const rights: Node[] = [];
    for (;;) {
      const t = this.tok;
      if ((t.kind === "op" && COMPARE.has(t.text)) || this.is("in")) ops.push(t.text), this.pos++;
      else if (this.is("is")) this.pos++, ops.push(this.eat("not") ? "is not" : "is");
      else if (
        this.is("not") && this.toks[this.pos + 1]?.kind === "keyword" &&
        this.toks[this.pos + 1]?.text === "in"
      ) {
        this.pos += 2;
        ops.push("not in");
      } else break;
      rights.push(this.bitOr(0));
    }
    return ops.length === 0 ? left : { k: "compare", left, ops, rights };
  }
  bitOr(level: number): Node {
    if (level === BINARY.length) return this.factor();
    let left = this.bitOr(level + 1);
    for (;;) {
      const op = BINARY[level]![0].find((o) => this.tok.kind === "op" && this.tok.text === o);
      if (!op) return left;
      this.pos++;
      left = { k: "binop", op, left, right: this.bitOr(level + 1) };
    }
  }
  factor(): Node {
    return this.nest(() => this.unaryOrPower());
  }
  unaryOrPower(): Node {
    for (const op of ["-", "+", "~"]) {
      if (this.eat(op)) return { k: "unary", op, operand: this.factor() };
    }
    const from = this.tok.start;
    if (this.eat("await")) {
      const value = this.primary();
      return this.other("Await", from, value);
    }
    const base = this.primary();
    if (this.eat("**")) return { k: "binop", op: "**", left: base, right: this.factor() };
    return base;
  }
  primary(): Node {
    let e = this.atom();
    for (;;) {
      if (this.eat(".")) {
        if (this.tok.kind !== "name") throw new PySyntaxError("invalid syntax after '.'");
        e = { k: "attr", value: e, attr: this.tok.text };
        this.pos++;
      } else if (this.eat("(")) e = this.callArgs(e);
      else if (this.eat("[")) e = { k: "subscript", value: e, slice: this.slices() };
      else return e;
    }
  }
  /** A subscript's slice, after its `[`: one part, or a tuple of them. */
  slices(): Node {
    const parts: Node[] = [];
    let tuple = false;
    for (;;) {
      if (this.is("]")) break;
      if (this.eat("*")) {
        // A starred part takes a whole expression, and makes the subscript a tuple.
        parts.push({ k: "starred", value: this.nest(() => this.expr()) });
        tuple = true;
      } else {
        // `x := 1` may be a part, and a bound only in parentheses.
        const named = this.tok.kind === "name" && this.toks[this.pos + 1]?.text === ":=";
        const lower = this.is(":") ? null : this.element();
        if (this.eat(":")) {
          if (named) throw new PySyntaxError("invalid syntax in a slice");
          const bound = () => this.is(":") || this.is(",") || this.is("]") ? null : this.expr();
          const upper = bound();
          parts.push({ k: "slice", lower, upper, step: this.eat(":") ? bound() : null });
        } else parts.push(lower!);
      }
      if (!this.eat(",")) break;
      tuple = true;
    }
    if (parts.length === 0) throw new PySyntaxError("empty subscript");
    this.expect("]");
    return tuple ? { k: "tuple", elts: parts } : parts[0]!;
  }
  callArgs(func: Node): Node {
    const args: Node[] = [];
    const keywords: { arg: string | null; value: Node }[] = [];
    let unpacked = false;
    while (!this.is(")")) {
      if (this.eat("**")) keywords.push({ arg: null, value: this.expr() }), unpacked = true;
      else if (this.tok.kind === "name" && this.toks[this.pos + 1]?.text === "=") {
        const arg = this.tok.text;
        this.pos += 2;
        keywords.push({ arg, value: this.expr() });
      } else if (this.eat("*")) {
        if (unpacked) {
          throw new PySyntaxError("iterable argument unpacking follows keyword argument unpacking");
        }
        // An argument's star takes a whole expression (`f(*a < b)` is `f(*(a < b))`).
        args.push({ k: "starred", value: this.nest(() => this.expr()) });
      } else {
        if (keywords.length > 0) {
          throw new PySyntaxError("positional argument follows keyword argument");
        }
        const from = this.tok.start;
        const a = this.element();
        if (this.is("for") || this.is("async")) {
          this.comprehension();
          const src = `(${this.src.slice(from, this.toks[this.pos - 1]!.end)})`;
          args.push({ k: "other", what: "GeneratorExp", src });
        } else args.push(a);
      }
      if (!this.eat(",")) break;
    }
    this.expect(")");
    return { k: "call", func, args, keywords };
  }
  comprehension(): void {
    while (this.eat("async") || this.is("for")) {
      this.expect("for");
      do this.bitOr(0); while (this.eat(",") && !this.is("in"));
      this.expect("in");
      this.disjunction();
      while (this.eat("if")) this.disjunction();
    }
  }
  /** The items of a bracketed display, up to `close`; whether a comma was seen. */
  items(close: string): { elts: Node[]; comma: boolean; comp: boolean } {
    const elts: Node[] = [];
    let comma = false;
    while (!this.is(close)) {
      elts.push(this.element());
      if (elts.length === 1 && (this.is("for") || this.is("async"))) {
        this.comprehension();
        this.expect(close);
        return { elts, comma, comp: true };
      }
      if (!this.eat(",")) break;
      comma = true;
    }
    this.expect(close);
    return { elts, comma, comp: false };
  }
  atom(): Node {
    const t = this.tok;
    const from = t.start;
    if (t.kind === "name") return this.pos++, { k: "name", id: t.text };
    if (t.kind === "number") {
      if (t.refused !== undefined) throw new PySyntaxError(t.refused);
      return this.pos++, { k: "const", v: t.value! };
    }
    if (t.kind === "string") return this.strings();
    if (t.kind === "keyword" && ["True", "False", "None"].includes(t.text)) {
      this.pos++;
      return { k: "const", v: t.text === "None" ? null : t.text === "True" };
    }
    if (this.eat("...")) return { k: "const", v: "...", ellipsis: true };
    if (this.eat("(")) {
      if (this.is("yield")) throw new PySyntaxError("yield is not supported here");
      const r = this.items(")");
      if (r.comp) return this.other("GeneratorExp", from);
      if (r.elts.length !== 1 || r.comma) return { k: "tuple", elts: r.elts };
      // `(*a)` is no tuple, and a starred expression stands only in one.
      if (r.elts[0]?.k === "starred") throw new PySyntaxError("cannot use starred expression here");
      return r.elts[0]!;
    }
    if (this.eat("[")) {
      const r = this.items("]");
      return r.comp ? this.other("ListComp", from) : { k: "list", elts: r.elts };
    }
    if (this.eat("{")) return this.braces(from);
    throw new PySyntaxError(`invalid syntax at ${t.start}`);
  }
  braces(from: number): Node {
    if (this.eat("}")) return { k: "dict", keys: [], values: [] };
    const keys: (Node | null)[] = [];
    const values: Node[] = [];
    const elts: Node[] = [];
    let isDict: boolean | undefined;
    do {
      if (this.is("}")) break;
      if (this.eat("**")) {
        if (isDict === false) throw new PySyntaxError("invalid syntax in a set");
        isDict = true;
        keys.push(null), values.push(this.bitOr(0));
      } else {
        const e = this.element();
        if (isDict === undefined) isDict = this.is(":");
        if (isDict) {
          if (e.k === "named" || e.k === "starred") {
            throw new PySyntaxError("invalid dict key");
          }
          this.expect(":");
          keys.push(e), values.push(this.expr());
        } else elts.push(e);
        if (keys.length + elts.length === 1 && (this.is("for") || this.is("async"))) {
          this.comprehension();
          this.expect("}");
          return this.other(isDict ? "DictComp" : "SetComp", from, isDict ? values[0] : undefined);
        }
      }
    } while (this.eat(","));
    this.expect("}");
    return isDict ? { k: "dict", keys, values } : { k: "set", elts };
  }
  strings(): Node {
    const u = /^[uU]/.test(this.tok.text);
    let text = "";
    const sources: string[] = [];
    const flavors = new Set<string>();
    while (this.tok.kind === "string") {
      text += this.tok.value as string;
      sources.push(this.tok.text);
      flavors.add(this.tok.flavor!);
      this.pos++;
    }
    if (flavors.has("b") && flavors.size > 1) {
      throw new PySyntaxError("cannot mix bytes and nonbytes literals");
    }
    // An f-string keeps its source (ast.unparse would merge the parts of a concatenation).
    if (flavors.has("f")) return { k: "other", what: "JoinedStr", src: sources.join(" ") };
    if (flavors.has("b")) return { k: "const", v: new PyOther("bytes", bytesRepr(text)) };
    return { k: "const", v: text, u };
  }
}
