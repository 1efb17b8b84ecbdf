// BFCL's Java decoder for prompting models (2024-08): the text is read as a Java program
// (statements of expressions; a last `;` may be missing), and any syntax error fails the
// decoding. The first method invocation found (the outermost, leftmost) is the call: its name
// is `object.method` as written, its arguments the `name = value` assignments, each value kept
// as a string by BFCL's rules (a string or char literal unquoted, others as below); a lone name
// or class literal goes under the key None. Nothing is evaluated.
import type { PyValue } from "./py_value.ts";
import { PyDict } from "./py_value.ts";
import { CSyntaxError } from "./_c_tokens.ts";
import {
  type CNode,
  CReader,
  findFirst,
  node,
  precedence,
  TOO_DEEP,
  treeDepth,
} from "./_c_tree.ts";
import type { Decoded } from "./decode.ts";

const SYNTAX = "Error parsing java the source code.";
/** The deepest tree read (see parseJavaCall). */
const MAX_TREE_DEPTH = 1000;
const DUPLICATE = "Error: Multiple arguments with the same name are not supported.";

const PRIMITIVES = new Set(["byte", "short", "int", "long", "char", "float", "double", "boolean"]);
const KEYWORDS = new Set([...PRIMITIVES, "new", "this", "super", "true", "false", "null", "void"]);
const ASSIGN = new Set(["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="]);
const BINARY = precedence(
  "||, &&, |, ^, &, == !=, < > <= >= instanceof, << >> >>>, + -, * / %",
);

class JavaReader extends CReader {
  constructor(text: string) {
    super(text, "java");
  }

  statement(): CNode {
    if (this.c.is(";")) return this.c.take();
    if (this.c.is("{")) return this.block();
    const declaration = this.declaration();
    if (declaration) return declaration;
    let e: CNode;
    if (this.c.is("[")) {
      // tree-sitter supplies the missing array's name (a MISSING node): an array access.
      const open = this.c.take();
      e = this.postfix(node("array_access", [open, this.expression(), this.c.expect("]")]));
    } else e = this.expression();
    return node("expression_statement", [e, ...this.semicolon()]);
  }

  /** The `;` ending a statement, or none where tree-sitter supplies a missing one. */
  semicolon(): CNode[] {
    if (this.c.is(";")) return [this.c.take()];
    // A MISSING `;`, not an ERROR, at the end, before `}` or before what starts a statement.
    const t = this.c.peek();
    if (t.kind !== "punct" || "}([{;+-!~".includes(t.text) || ["++", "--"].includes(t.text)) {
      return [];
    }
    throw new CSyntaxError(`expected ";" at ${t.start}`);
  }

  /** A local variable declaration (`Type name = value, name`), if one starts here. */
  declaration(): CNode | undefined {
    const t = this.c.peek();
    if (t.kind !== "name" || (KEYWORDS.has(t.text) && !PRIMITIVES.has(t.text))) return undefined;
    const at = this.c.position();
    let type: CNode;
    try {
      type = this.type();
      const n = this.c.peek();
      if (n.kind !== "name" || KEYWORDS.has(n.text)) throw new CSyntaxError("no declarator");
    } catch (e) {
      if (!(e instanceof CSyntaxError)) throw e;
      this.c.reset(at);
      return undefined;
    }
    const parts = [type];
    do {
      if (parts.length > 1) parts.push(this.c.take());
      const declarator = [this.name()];
      while (this.c.is("[") && this.c.is("]", 1)) declarator.push(this.c.take(), this.c.take());
      if (this.c.is("=")) {
        declarator.push(
          this.c.take(),
          this.c.is("{") ? this.arrayInitializer() : this.expression(),
        );
      }
      parts.push(node("variable_declarator", declarator));
    } while (this.c.is(","));
    return node("local_variable_declaration", [...parts, ...this.semicolon()]);
  }

  block(): CNode {
    return this.nest(() => {
      const parts = [this.c.expect("{")];
      while (!this.c.is("}")) parts.push(this.statement());
      parts.push(this.c.expect("}"));
      return node("block", parts);
    });
  }

  expression(): CNode {
    return this.nest(() => {
      if (this.isLambda()) return this.lambda();
      const left = this.ternary();
      if (this.c.peek().kind === "punct" && ASSIGN.has(this.c.peek().text)) {
        if (!["identifier", "field_access", "array_access"].includes(left.type)) {
          throw new CSyntaxError("an assignment to what is not a variable");
        }
        const op = this.c.take();
        return node("assignment_expression", [left, op, this.expression()]);
      }
      return left;
    });
  }

  isLambda(): boolean {
    const t = this.c.peek();
    if (t.kind === "name" && !KEYWORDS.has(t.text)) return this.c.is("->", 1);
    if (!this.c.is("(")) return false;
    const after = this.c.closing();
    return after > 0 && this.c.is("->", after);
  }

  lambda(): CNode {
    const parts: CNode[] = [];
    parts.push(this.c.is("(") ? this.bracketed("formal_parameters") : this.c.take("identifier"));
    parts.push(this.c.expect("->"));
    parts.push(this.c.is("{") ? this.block() : this.expression());
    return node("lambda_expression", parts);
  }

  ternary(): CNode {
    return this.conditional(
      this.binary(1),
      () => this.isLambda() ? this.lambda() : this.nest(() => this.ternary()),
    );
  }

  binary(min: number): CNode {
    let left = this.unary();
    for (;;) {
      const t = this.c.peek();
      const level = t.kind === "punct" || t.text === "instanceof" ? BINARY[t.text] : undefined;
      if (level === undefined || level < min) return left;
      const op = this.c.take();
      const right = t.text === "instanceof" ? this.type() : this.binary(level + 1);
      left = node(t.text === "instanceof" ? "instanceof_expression" : "binary_expression", [
        left,
        op,
        right,
      ]);
    }
  }

  unary(): CNode {
    return this.nest(() => {
      const t = this.c.peek();
      if (t.kind === "punct" && ["+", "-", "!", "~", "++", "--"].includes(t.text)) {
        const op = this.c.take();
        return node("unary_expression", [op, this.unary()]);
      }
      if (this.isCast()) {
        const open = this.c.take();
        const type = this.type();
        return node("cast_expression", [open, type, this.c.expect(")"), this.unary()]);
      }
      return this.postfix(this.primary());
    });
  }

  isCast(): boolean {
    if (!this.c.is("(")) return false;
    const inner = this.c.peek(1);
    if (inner.kind !== "name") return false;
    if (PRIMITIVES.has(inner.text)) return this.c.is(")", 2) || this.c.is("[", 2);
    const after = this.c.closing();
    if (after < 0) return false;
    for (let k = 1; k < after - 1; k++) {
      const t = this.c.peek(k);
      if (t.kind !== "name" && !(t.kind === "punct" && ".<>,?[]".includes(t.text))) return false;
    }
    const next = this.c.peek(after);
    return next.kind !== "punct"
      ? next.kind !== "eof" && next.text !== "instanceof"
      : ["(", "!", "~"].includes(next.text);
  }

  postfix(base: CNode): CNode {
    let e = base;
    for (;;) {
      if (this.c.is(".")) {
        const dot = this.c.take();
        if (this.c.is("class")) {
          e = node("class_literal", [e, dot, this.c.take()]);
          continue;
        }
        const name = this.name();
        e = this.c.is("(")
          ? node("method_invocation", [e, dot, name, this.args()], { object: e, name })
          : node("field_access", [e, dot, name]);
      } else if (this.c.is("[")) {
        const open = this.c.take();
        e = node("array_access", [e, open, this.expression(), this.c.expect("]")]);
      } else if (this.c.is("::")) {
        const sep = this.c.take();
        e = node("method_reference", [e, sep, this.c.is("new") ? this.c.take() : this.name()]);
      } else if (this.c.is("++") || this.c.is("--")) {
        e = node("update_expression", [e, this.c.take()]);
      } else return e;
    }
  }

  name(): CNode {
    const t = this.c.peek();
    if (t.kind !== "name" || KEYWORDS.has(t.text)) throw new CSyntaxError("expected a name");
    return this.c.take("identifier");
  }

  primary(): CNode {
    const t = this.c.peek();
    if (t.kind === "number") return this.c.take("number");
    if (t.kind === "string") return this.c.take("string_literal");
    if (t.kind === "char") return this.c.take("character_literal");
    if (this.c.is("(")) {
      const open = this.c.take();
      return node("parenthesized_expression", [open, this.expression(), this.c.expect(")")]);
    }
    if (this.c.is("new")) return this.creation();
    if (t.kind === "name" && PRIMITIVES.has(t.text)) {
      const type = this.type();
      return node("class_literal", [type, this.c.expect("."), this.c.expect("class")]);
    }
    if (t.kind === "name" && KEYWORDS.has(t.text)) return this.c.take();
    const name = this.name();
    return this.c.is("(") ? node("method_invocation", [name, this.args()], { name }) : name;
  }

  args(): CNode {
    const parts = [this.c.expect("(")];
    while (!this.c.is(")")) {
      if (parts.length > 1) parts.push(this.c.expect(","));
      parts.push(this.expression());
    }
    parts.push(this.c.take());
    return node("argument_list", parts);
  }

  /** A type: a name or primitive, dotted, with type arguments, and `[]` dimensions. */
  type(): CNode {
    return this.nest(() => {
      const parts: CNode[] = [];
      const first = this.c.peek();
      if (first.kind === "name" && PRIMITIVES.has(first.text)) parts.push(this.c.take());
      else {
        parts.push(this.name());
        if (this.c.is("<")) parts.push(...this.typeArguments());
        while (this.c.is(".") && this.c.peek(1).kind === "name" && !this.c.is("class", 1)) {
          parts.push(this.c.take(), this.name());
          if (this.c.is("<")) parts.push(...this.typeArguments());
        }
      }
      while (this.c.is("[") && this.c.is("]", 1)) parts.push(this.c.take(), this.c.take());
      return node("type", parts);
    });
  }

  typeArguments(): CNode[] {
    const parts = [this.c.expect("<")];
    this.c.splitAngle();
    while (!this.c.is(">")) {
      if (parts.length > 1) parts.push(this.c.expect(","));
      if (this.c.is("?")) {
        parts.push(this.c.take());
        if (this.c.is("extends") || this.c.is("super")) parts.push(this.c.take(), this.type());
      } else parts.push(this.type());
      this.c.splitAngle();
    }
    parts.push(this.c.take());
    return parts;
  }

  creation(): CNode {
    const kw = this.c.take();
    const type = this.type();
    if (type.children.at(-1)!.type === "]" || this.c.is("[")) return this.arrayCreation(kw, type);
    const args = this.args();
    const parts = [kw, type, args];
    if (this.c.is("{")) parts.push(this.bracketed("class_body"));
    return node("object_creation_expression", parts, { type, arguments: args });
  }

  arrayCreation(kw: CNode, type: CNode): CNode {
    // `new T[]{...}`: the dimensions are part of the type we read; `new T[n]` has none.
    const parts = [kw, type];
    let sized = false;
    while (this.c.is("[")) {
      const open = this.c.take();
      sized = true;
      parts.push(node("dimensions_expr", [open, this.expression(), this.c.expect("]")]));
      while (this.c.is("[") && this.c.is("]", 1)) parts.push(this.c.take(), this.c.take());
    }
    const value = !sized && this.c.is("{") ? this.arrayInitializer() : undefined;
    if (value) parts.push(value);
    else if (!sized) throw new CSyntaxError("an array creation without size or values");
    const elementType = node("type", type.children.filter((c) => c.type !== "[" && c.type !== "]"));
    return node("array_creation_expression", parts, { type: elementType, value });
  }

  arrayInitializer(): CNode {
    return this.nest(() => {
      const item = () => this.c.is("{") ? this.arrayInitializer() : this.expression();
      return this.delimited("{", "}", "array_initializer", item);
    });
  }
}

/** BFCL's rendering of an argument's value (`traverse_node`), as a string. */
function render(n: CNode, text: string, nested: boolean): string {
  const raw = text.slice(n.start, n.end);
  switch (n.type) {
    case "string_literal":
    case "character_literal":
      return nested ? raw : raw.slice(1, -1);
    case "identifier":
    case "class_literal":
    case "method_invocation":
      return raw;
    case "array_creation_expression": {
      const value = n.fields!.value;
      // BFCL reads the initializer of `new T[n]`, which has none, and raises.
      if (!value) {
        const message = "'NoneType' object has no attribute 'type'";
        throw new CSyntaxError("an array creation without values", message);
      }
      return `new ${render(n.fields!.type!, text, true)}[]${render(value, text, true)}`;
    }
    case "object_creation_expression": {
      const args = n.fields!.arguments!.children.filter((c) => !["(", ")", ","].includes(c.type));
      const type = render(n.fields!.type!, text, true);
      return `new ${type}(${args.map((a) => render(a, text, true)).join(", ")})`;
    }
    default:
      return n.children.length > 0 ? n.children.map((c) => render(c, text, true)).join("") : raw;
  }
}

/**
 * Decodes a prompting model's Java call as BFCL's `parse_java_function_call` does.
 *
 * @param text The call's text (the handler's text without its first and last characters).
 * @returns `[{name: {param: string}}]`, `{}` when the text holds no method invocation, or the
 * reason decoding failed.
 */
export function parseJavaCall(text: string): Decoded {
  try {
    const root = new JavaReader(text).program();
    // BFCL walks the tree in Python, recursively, which fails near 1,000 levels (RecursionError);
    // so do findFirst and render, which recurse too.
    if (treeDepth(root) > MAX_TREE_DEPTH) return { ok: false, reason: TOO_DEEP };
    const call = findFirst(root, "method_invocation");
    if (!call) return { ok: true, value: new PyDict() };
    const object = call.fields!.object;
    const method = text.slice(call.fields!.name!.start, call.fields!.name!.end);
    const name = object ? `${text.slice(object.start, object.end)}.${method}` : method;
    const args = new PyDict();
    for (const child of call.children.at(-1)!.children) {
      let key: string | null;
      let value: PyValue;
      if (child.type === "assignment_expression") {
        key = text.slice(child.children[0]!.start, child.children[0]!.end);
        value = render(child.children[2]!, text, false);
      } else if (child.type === "identifier" || child.type === "class_literal") {
        key = null;
        value = render(child, text, false);
      } else continue;
      if (args.has(key)) {
        return { ok: false, reason: DUPLICATE };
      }
      args.set(key, value);
    }
    return { ok: true, value: [new PyDict([[name, args]])] };
  } catch (e) {
    // BFCL's exception message, so that score files match; ours is in e.message.
    if (e instanceof CSyntaxError) return { ok: false, reason: e.bfclMessage ?? SYNTAX };
    throw e;
  }
}
