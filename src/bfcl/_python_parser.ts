// A parser of Python's expression grammar (what ast.parse(..., mode="eval") accepts, to the
// extent BFCL's results need) that builds a small tree for BFCL's resolve_ast_by_type.
import { PyOther, pyRepr, type PyValue } from "./py_value.ts";
import { PySyntaxError, type Token } from "./_python_tokens.ts";
import { unparse } from "./_python_calls.ts";

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
  | { k: "subscript"; value: Node; slice: string }
  | { k: "other"; what: string; src: string };

const COMPARE = new Set(["==", "!=", "<", ">", "<=", ">="]);
const BINARY: [string[], number][] = [
  [["|"], 1],
  [["^"], 2],
  [["&"], 3],
  [["<<", ">>"], 4],
  [["+", "-"], 5],
  [["*", "/", "//", "%", "@"], 6],
];

/** A recursive-descent parser over the tokens. */
export class Parser {
  pos = 0;
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
  other(what: string, from: number): Node {
    return { k: "other", what, src: this.src.slice(from, this.tok.start).trim() };
  }

  expr(): Node {
    const from = this.tok.start;
    if (this.eat("lambda")) {
      this.params(":");
      this.expect(":");
      this.expr();
      return this.other("Lambda", from);
    }
    const body = this.disjunction();
    if (this.eat("if")) {
      this.disjunction();
      this.expect("else");
      this.expr();
      return this.other("IfExp", from);
    }
    return body;
  }
  /** An expression that may be a named expression (`x := 1`) or starred (`*x`). */
  element(): Node {
    const from = this.tok.start;
    if (this.eat("*")) {
      this.bitOr(0);
      return this.other("Starred", from);
    }
    const e = this.expr();
    if (this.eat(":=")) {
      if (e.k !== "name") throw new PySyntaxError("cannot use assignment expressions here");
      this.expr();
      return {
        k: "other",
        what: "NamedExpr",
        src: `(${this.src.slice(from, this.tok.start).trim()})`,
      };
    }
    return e;
  }
  params(end: string): void {
    while (!this.is(end)) {
      if (this.eat("**") || this.eat("*")) {
        if (this.tok.kind === "name") this.pos++;
      } else if (!this.eat("/")) {
        if (this.tok.kind !== "name") throw new PySyntaxError("invalid lambda parameter");
        this.pos++;
        if (this.eat("=")) this.expr();
      }
      if (!this.eat(",")) break;
    }
  }
  disjunction(): Node {
    const from = this.tok.start;
    let e = this.conjunction();
    while (this.eat("or")) e = (this.conjunction(), this.other("BoolOp", from));
    return e;
  }
  conjunction(): Node {
    const from = this.tok.start;
    let e = this.inversion();
    while (this.eat("and")) e = (this.inversion(), this.other("BoolOp", from));
    return e;
  }
  inversion(): Node {
    if (this.eat("not")) return { k: "unary", op: "not ", operand: this.inversion() };
    return this.comparison();
  }
  comparison(): Node {
    const from = this.tok.start;
    let e = this.bitOr(0);
    for (;;) {
      const t = this.tok;
      if ((t.kind === "op" && COMPARE.has(t.text)) || this.is("in")) this.pos++;
      else if (this.is("is")) this.pos++, this.eat("not");
      else if (this.is("not") && this.toks[this.pos + 1]?.text === "in") this.pos += 2;
      else return e;
      this.bitOr(0);
      e = this.other("Compare", from);
    }
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
    for (const op of ["-", "+", "~"]) {
      if (this.eat(op)) return { k: "unary", op, operand: this.factor() };
    }
    const from = this.tok.start;
    if (this.eat("await")) return (this.primary(), this.other("Await", from));
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
      else if (this.eat("[")) {
        const sliceFrom = this.tok.start;
        let single: Node | undefined;
        let count = 0;
        do {
          if (this.is("]")) break;
          count++;
          if (!this.is(":")) single = this.element();
          if (this.is(":")) single = undefined;
          if (this.eat(":")) {
            if (!this.is(":") && !this.is(",") && !this.is("]")) this.expr();
            if (this.eat(":") && !this.is(",") && !this.is("]")) this.expr();
          }
        } while (this.eat(","));
        const slice = count === 1 && single
          ? unparse(single)
          : this.src.slice(sliceFrom, this.tok.start).trim();
        this.expect("]");
        e = { k: "subscript", value: e, slice };
      } else return e;
    }
  }
  callArgs(func: Node): Node {
    const args: Node[] = [];
    const keywords: { arg: string | null; value: Node }[] = [];
    while (!this.is(")")) {
      if (this.eat("**")) keywords.push({ arg: null, value: this.expr() });
      else if (this.tok.kind === "name" && this.toks[this.pos + 1]?.text === "=") {
        const arg = this.tok.text;
        this.pos += 2;
        keywords.push({ arg, value: this.expr() });
      } else {
        if (keywords.length > 0 && !this.is("*")) {
          throw new PySyntaxError("positional argument follows keyword argument");
        }
        const from = this.tok.start;
        const a = this.element();
        if (this.is("for") || this.is("async")) {
          this.comprehension();
          args.push(this.other("GeneratorExp", from));
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
    if (t.kind === "number") return this.pos++, { k: "const", v: t.value! };
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
      return r.elts.length === 1 && !r.comma ? r.elts[0]! : { k: "tuple", elts: r.elts };
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
          if (e.k === "other" && (e.what === "NamedExpr" || e.what === "Starred")) {
            throw new PySyntaxError("invalid dict key");
          }
          this.expect(":");
          keys.push(e), values.push(this.expr());
        } else elts.push(e);
        if (keys.length + elts.length === 1 && (this.is("for") || this.is("async"))) {
          this.comprehension();
          this.expect("}");
          return this.other(isDict ? "DictComp" : "SetComp", from);
        }
      }
    } while (this.eat(","));
    this.expect("}");
    return isDict ? { k: "dict", keys, values } : { k: "set", elts };
  }
  strings(): Node {
    const u = /^[uU]/.test(this.tok.text);
    let text = "";
    const flavors = new Set<string>();
    while (this.tok.kind === "string") {
      text += this.tok.value as string;
      flavors.add(this.tok.flavor!);
      this.pos++;
    }
    if (flavors.has("b") && flavors.size > 1) {
      throw new PySyntaxError("cannot mix bytes and nonbytes literals");
    }
    if (flavors.has("f")) return { k: "other", what: "JoinedStr", src: "" };
    if (flavors.has("b")) return { k: "const", v: new PyOther("bytes", `b${pyRepr(text)}`) };
    return { k: "const", v: text, u };
  }
}
