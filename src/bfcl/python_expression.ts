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

/**
 * The deepest tree read: CPython 3.11 builds an expression's tree with a
 * recursion limit of 3,000 levels less three per Python frame below the call (`ast.parse` called
 * from a function in a module: 2,987 levels).
 */
const MAX_TREE_DEPTH = 2987;

/**
 * The depth of a tree, counted as CPython counts its nodes (a keyword argument and a lambda's
 * parameter are levels of their own), without recursion.
 */
function treeDepth(root: Node): number {
  let max = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (typeof x !== "object" || x === null) continue; // a name, an operator, an absent slice bound
    if (Array.isArray(x)) {
      for (const y of x) stack.push([y, d]);
      continue;
    }
    // A node, a keyword argument or a parameter; a constant's value is not a level.
    const level = d + 1;
    if (level > max) max = level;
    if ((x as Node).k === "const") continue;
    for (const y of Object.values(x)) stack.push([y, level]);
  }
  return max;
}

/** The outcome of {@linkcode parsePythonExpression}: the tree, or Python's syntax error. */
export type PythonParse = { ok: true; tree: Node } | { ok: false; reason: string };

/**
 * Parses one Python expression (a bare tuple `a, b` included), with blank lines around it.
 *
 * Depth is bounded as CPython bounds it: a 201st nested bracket and a tree deeper than 2,987
 * levels are errors, and so are chains of over 1,000 nested expressions (which CPython reads
 * deeper), so that no text overflows the stack.
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
    // Deeper trees fail in CPython (RecursionError), and would overflow this reader's readers.
    if (treeDepth(tree) > MAX_TREE_DEPTH) {
      return { ok: false, reason: `too deeply nested: Python fails past ${MAX_TREE_DEPTH} levels` };
    }
    return { ok: true, tree };
  } catch (e) {
    if (e instanceof PySyntaxError) return { ok: false, reason: e.message };
    throw e;
  }
}
