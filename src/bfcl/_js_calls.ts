// BFCL's JavaScript decoder for prompting models (2024-08): the text is read as a JavaScript
// program (with automatic semicolons), and any syntax error fails the decoding. The call is the
// first statement that is a call expression: its name is the callee's text, its arguments the
// `name = value` assignments, each value the text written (unquoted when it is one quoted
// string); a lone name or `true` goes under the key None. A text with no such statement decodes
// to None. Nothing is evaluated.
import type { PyValue } from "./py_value.ts";
import { PyDict } from "./py_value.ts";
import { CSyntaxError } from "./_c_tokens.ts";
import { type CNode, CReader, node, precedence } from "./_c_tree.ts";
import type { Decoded } from "./decode.ts";

const SYNTAX = "Error js parsing the source code.";
const DUPLICATE = "Error: Multiple arguments with the same name are not supported.";

const ASSIGN = new Set("= += -= *= /= %= **= <<= >>= >>>= &= |= ^= &&= ||= ??=".split(" "));
const BINARY = precedence(
  "?? ||, &&, |, ^, &, == != === !==, < > <= >= instanceof in, << >> >>>, + -, * / %, **",
);
const LITERALS = new Set(["true", "false", "null", "undefined", "this", "super"]);
const UNARY_WORDS = new Set(["typeof", "void", "delete", "await"]);
const RESERVED = new Set(["new", "function", "class", "typeof", "void", "delete", "await"]);

class JsReader extends CReader {
  constructor(text: string) {
    super(text, "js");
  }

  statement(): CNode {
    if (this.c.is(";")) return this.c.take("empty_statement");
    if (this.c.is("{")) {
      // A block, or else (tree-sitter's grammar allows it) an object as an expression statement.
      const at = this.c.position();
      try {
        const parts = [this.c.take()];
        while (!this.c.is("}")) parts.push(this.statement());
        parts.push(this.c.take());
        return node("statement_block", parts);
      } catch (e) {
        if (!(e instanceof CSyntaxError)) throw e;
        this.c.reset(at);
      }
    }
    const t = this.c.peek();
    if (t.kind === "name" && this.c.is(":", 1) && !RESERVED.has(t.text)) {
      const label = this.c.take("statement_identifier");
      return node("labeled_statement", [label, this.c.take(), this.statement()]);
    }
    const parts = [this.sequence()];
    if (this.c.is(";")) parts.push(this.c.take());
    else if (!(this.c.peek().kind === "eof" || this.c.is("}") || this.c.peek().newlineBefore)) {
      throw new CSyntaxError(`an unexpected token at ${this.c.peek().start}`);
    }
    return node("expression_statement", parts);
  }

  sequence(): CNode {
    const first = this.expression();
    if (!this.c.is(",")) return first;
    const parts = [first];
    while (this.c.is(",")) parts.push(this.c.take(), this.expression());
    return node("sequence_expression", parts);
  }

  expression(): CNode {
    return this.nest(() => {
      if (this.isArrow()) return this.arrow();
      const left = this.ternary();
      const t = this.c.peek();
      if (t.kind === "punct" && ASSIGN.has(t.text)) {
        const ok = ["identifier", "member_expression", "subscript_expression", "array", "object"];
        if (!ok.includes(left.type)) throw new CSyntaxError("an assignment to what is no target");
        const op = this.c.take();
        const kind = t.text === "=" ? "assignment_expression" : "augmented_assignment_expression";
        return node(kind, [left, op, this.expression()]);
      }
      return left;
    });
  }

  isArrow(): boolean {
    const k = this.c.is("async") && !this.c.peek(1).newlineBefore ? 1 : 0;
    const t = this.c.peek(k);
    if (t.kind === "name" && !RESERVED.has(t.text)) return this.c.is("=>", k + 1);
    if (!this.c.is("(", k)) return false;
    const after = this.c.closing(k);
    return after > 0 && this.c.is("=>", after);
  }

  arrow(): CNode {
    const parts: CNode[] = [];
    while (!this.c.is("=>")) parts.push(this.c.take());
    parts.push(this.c.take());
    parts.push(this.c.is("{") ? this.bracketed("statement_block") : this.expression());
    return node("arrow_function", parts);
  }

  ternary(): CNode {
    return this.conditional(this.binary(1), () => this.expression());
  }

  binary(min: number): CNode {
    let left = this.unary();
    for (;;) {
      const t = this.c.peek();
      const level = t.kind === "punct" || t.text === "in" || t.text === "instanceof"
        ? BINARY[t.text]
        : undefined;
      if (level === undefined || level < min) return left;
      const op = this.c.take();
      const right = this.nest(() => this.binary(t.text === "**" ? 11 : level + 1));
      left = node("binary_expression", [left, op, right]);
    }
  }

  unary(): CNode {
    return this.nest(() => {
      const t = this.c.peek();
      if (
        (t.kind === "punct" && ["+", "-", "!", "~", "++", "--"].includes(t.text)) ||
        (t.kind === "name" && UNARY_WORDS.has(t.text))
      ) {
        const op = this.c.take();
        return node("unary_expression", [op, this.unary()]);
      }
      const e = this.postfix(this.primary());
      const next = this.c.peek();
      if ((this.c.is("++") || this.c.is("--")) && !next.newlineBefore) {
        return node("update_expression", [e, this.c.take()]);
      }
      return e;
    });
  }

  postfix(base: CNode): CNode {
    let e = base;
    for (;;) {
      const t = this.c.peek();
      if (this.c.is(".") || this.c.is("?.")) {
        const dot = this.c.take();
        if (dot.type === "?." && this.c.is("(")) {
          e = node("call_expression", [e, dot, this.args()]);
          continue;
        }
        if (this.c.peek().kind !== "name") throw new CSyntaxError("expected a property name");
        e = node("member_expression", [e, dot, this.c.take("property_identifier")]);
      } else if (this.c.is("[")) {
        const open = this.c.take();
        e = node("subscript_expression", [e, open, this.sequence(), this.c.expect("]")]);
      } else if (this.c.is("(")) {
        e = node("call_expression", [e, this.args()]);
      } else if (t.kind === "template") {
        e = node("call_expression", [e, this.c.take("template_string")]);
      } else return e;
    }
  }

  args(): CNode {
    return this.delimited("(", ")", "arguments", () => this.element());
  }

  /** An item of arguments or of an array: an expression, or `...` and one. */
  element(): CNode {
    if (!this.c.is("...")) return this.expression();
    return node("spread_element", [this.c.take(), this.expression()]);
  }

  primary(): CNode {
    const t = this.c.peek();
    if (t.kind === "number") return this.c.take("number");
    if (t.kind === "string" || t.kind === "char") return this.c.take("string");
    if (t.kind === "template") return this.c.take("template_string");
    if (this.c.is("(")) {
      const open = this.c.take();
      return node("parenthesized_expression", [open, this.sequence(), this.c.expect(")")]);
    }
    if (this.c.is("[")) return this.array();
    if (this.c.is("{")) return this.object();
    if (t.kind !== "name") throw new CSyntaxError(`an unexpected token at ${t.start}`);
    if (LITERALS.has(t.text)) return this.c.take();
    if (t.text === "new") {
      const kw = this.c.take();
      let callee = this.primary();
      while (this.c.is(".")) {
        const dot = this.c.take();
        callee = node("member_expression", [callee, dot, this.c.take("property_identifier")]);
      }
      return this.c.is("(")
        ? node("new_expression", [kw, callee, this.args()])
        : node("new_expression", [kw, callee]);
    }
    if (t.text === "function" || t.text === "async" && this.c.is("function", 1)) {
      const parts: CNode[] = [];
      while (!this.c.is("{")) parts.push(this.c.take());
      parts.push(this.bracketed("statement_block"));
      return node("function_expression", parts);
    }
    if (RESERVED.has(t.text)) throw new CSyntaxError(`${t.text} here`);
    return this.c.take("identifier");
  }

  array(): CNode {
    const parts = [this.c.expect("[")];
    while (!this.c.is("]")) {
      if (this.c.is(",")) {
        parts.push(this.c.take());
        continue;
      }
      parts.push(this.element());
      if (!this.c.is(",")) break;
      parts.push(this.c.take());
    }
    parts.push(this.c.expect("]"));
    return node("array", parts);
  }

  object(): CNode {
    return this.delimited("{", "}", "object", () => this.member());
  }

  member(): CNode {
    if (this.c.is("...")) return node("spread_element", [this.c.take(), this.expression()]);
    const t = this.c.peek();
    let key: CNode;
    if (this.c.is("[")) {
      const open = this.c.take();
      key = node("computed_property_name", [open, this.expression(), this.c.expect("]")]);
    } else if (
      t.kind === "name" || t.kind === "number" || t.kind === "string" || t.kind === "char"
    ) {
      key = this.c.take(t.kind === "name" ? "property_identifier" : t.kind);
    } else throw new CSyntaxError(`an unexpected token at ${t.start}`);
    if (this.c.is(":")) return node("pair", [key, this.c.take(), this.expression()]);
    if (t.kind === "name" && (this.c.is(",") || this.c.is("}"))) return key;
    if (this.c.is("(")) {
      const params = this.bracketed("statement_block");
      if (!this.c.is("{")) throw new CSyntaxError("a method without a body");
      return node("method_definition", [key, params, this.bracketed("statement_block")]);
    }
    throw new CSyntaxError(`an unexpected token at ${this.c.peek().start}`);
  }
}

/** A value's text, unquoted when it starts and ends with the same quote. */
function unquote(s: string): string {
  return s.length >= 2 && (s[0] === '"' || s[0] === "'") && s.at(-1) === s[0] ? s.slice(1, -1) : s;
}

/**
 * Decodes a prompting model's JavaScript call as BFCL's `parse_javascript_function_call` does.
 *
 * @param text The call's text (the handler's text without its first and last characters).
 * @returns `[{name: {param: string}}]`, None when no statement is a call, or the reason
 * decoding failed.
 */
export function parseJsCall(text: string): Decoded {
  try {
    const root = new JsReader(text).program();
    const raw = (n: CNode) => text.slice(n.start, n.end);
    for (const statement of root.children) {
      if (statement.type !== "expression_statement") continue;
      const call = statement.children.find((c) => c.type === "call_expression");
      if (!call) continue;
      const args = new PyDict();
      for (const child of call.children[1]!.children) {
        let key: string | null;
        let value: PyValue;
        if (child.type === "assignment_expression") {
          key = raw(child.children[0]!);
          value = unquote(raw(child.children[2]!));
        } else if (child.type === "identifier" || child.type === "true") {
          key = null;
          value = raw(child);
        } else continue;
        if (args.has(key)) {
          return { ok: false, reason: DUPLICATE };
        }
        args.set(key, value);
      }
      return { ok: true, value: [new PyDict([[raw(call.children[0]!), args]])] };
    }
    return { ok: true, value: null };
  } catch (e) {
    // BFCL's exception message, so that score files match; ours is in e.message.
    if (e instanceof CSyntaxError) return { ok: false, reason: e.bfclMessage ?? SYNTAX };
    throw e;
  }
}
