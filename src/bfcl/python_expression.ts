/**
 * One Python expression read into a tree, as `ast.parse(text, mode="eval")` reads it (the parser
 * BFCL's prompting decoders use, checked against CPython): nothing is evaluated. Other rooms read
 * Python call lists through it (`@assay/assay/formats`' `pythonic` decoder), so that there is one
 * Python parser.
 *
 * @module
 */
import { type Node, Parser } from "./_python_parser.ts";
import { PySyntaxError, tokenize } from "./_python_tokens.ts";

export type { Node as PythonNode, Param as PythonParam } from "./_python_parser.ts";

/** The outcome of {@linkcode parsePythonExpression}: the tree, or Python's syntax error. */
export type PythonParse = { ok: true; tree: Node } | { ok: false; reason: string };

/**
 * Parses one Python expression (a bare tuple `a, b` included), with blank lines around it.
 *
 * @param text The expression's source.
 * @returns The tree, or the syntax error's message.
 * @throws {never} Never: a syntax error is data.
 *
 * @example A list of calls, and a syntax error
 * ```ts
 * import { parsePythonExpression } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const r = parsePythonExpression("[f(x=1)]");
 * strictEqual(r.ok && r.tree.k, "list");
 * strictEqual(parsePythonExpression("[f(x=1)").ok, false);
 * ```
 */
export function parsePythonExpression(text: string): PythonParse {
  try {
    const p = new Parser(tokenize(text), text);
    while (p.at("newline")) p.pos++;
    let tree = p.expr();
    if (p.is(",")) {
      const elts = [tree];
      while (p.eat(",") && !p.at("end") && !p.at("newline")) elts.push(p.expr());
      tree = { k: "tuple", elts };
    }
    while (p.at("newline")) p.pos++;
    if (!p.at("end")) throw new PySyntaxError(`invalid syntax at ${p.tok.start}`);
    return { ok: true, tree };
  } catch (e) {
    if (e instanceof PySyntaxError) return { ok: false, reason: e.message };
    throw e;
  }
}
