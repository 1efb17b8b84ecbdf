// The syntax tree BFCL's Java and JavaScript decoders walk (tree-sitter's, reduced to what they
// look at): a node's type, its span in the text and its children, tokens being leaves. And a
// cursor over the tokens that the two readers share.
import { CSyntaxError, type CToken, cTokens, type Dialect } from "./_c_tokens.ts";

/** A node of the tree: a token (no children) or a construct spanning its children. */
export interface CNode {
  /** tree-sitter's type where the decoders test it (`identifier`, `method_invocation`, ...). */
  type: string;
  /** Where the node starts in the text. */
  start: number;
  /** Where it ends. */
  end: number;
  /** Its children, in order (tokens included). */
  children: CNode[];
  /** Named children the decoders ask for (`type`, `value`, `arguments`, `name`, `object`). */
  fields?: Record<string, CNode | undefined>;
}

/** A node over `children`, spanning them. */
export function node(
  type: string,
  children: CNode[],
  fields?: Record<string, CNode | undefined>,
): CNode {
  return { type, start: children[0]!.start, end: children.at(-1)!.end, children, fields };
}

/** A cursor over the tokens. */
export class Cursor {
  #i = 0;

  /**
   * Starts at the first token.
   *
   * @param tokens The tokens, ending with `eof`.
   */
  constructor(readonly tokens: CToken[]) {}

  /** Where the cursor is, to come back to with `reset`. */
  position(): number {
    return this.#i;
  }

  /** Moves back to a `position()`. */
  reset(position: number): void {
    this.#i = position;
  }

  /** The token `ahead` places on. */
  peek(ahead = 0): CToken {
    return this.tokens[Math.min(this.#i + ahead, this.tokens.length - 1)]!;
  }

  /** Whether the current token is the punctuation or name `text`. */
  is(text: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return (t.kind === "punct" || t.kind === "name") && t.text === text;
  }

  /** The current token as a leaf of type `type` (its text by default), moving past it. */
  take(type?: string): CNode {
    const t = this.peek();
    if (t.kind === "eof") throw new CSyntaxError("the text ends too early");
    this.#i++;
    return { type: type ?? t.text, start: t.start, end: t.end, children: [] };
  }

  /** The punctuation or name `text`, moving past it. */
  expect(text: string): CNode {
    if (!this.is(text)) {
      throw new CSyntaxError(`expected ${JSON.stringify(text)} at ${this.peek().start}`);
    }
    return this.take();
  }

  /** Splits a `>>` or `>>>` token so that its first `>` can close a list of type arguments. */
  splitAngle(): void {
    const t = this.peek();
    if (t.kind !== "punct" || !/^>>+$/.test(t.text)) return;
    const first = { ...t, text: ">", end: t.start + 1 };
    const rest = { ...t, text: t.text.slice(1), start: t.start + 1, newlineBefore: false };
    this.tokens.splice(this.#i, 1, first, rest);
  }

  /** How many places ahead is the token after the one closing the bracket at `ahead`, or -1. */
  closing(ahead = 0): number {
    const open = this.peek(ahead).text;
    const close = open === "(" ? ")" : open === "[" ? "]" : "}";
    let depth = 0;
    for (let j = this.#i + ahead; j < this.tokens.length; j++) {
      const t = this.tokens[j]!;
      if (t.kind !== "punct") continue;
      if (t.text === open) depth++;
      else if (t.text === close && --depth === 0) return j + 1 - this.#i;
    }
    return -1;
  }
}

/** The first node of `root`, itself first and then its children in order, that is of `type`. */
export function findFirst(root: CNode, type: string): CNode | undefined {
  if (root.type === type) return root;
  for (const child of root.children) {
    const found = findFirst(child, type);
    if (found) return found;
  }
  return undefined;
}

/** Binary operators' precedence: levels (lowest first) apart by ", ", operators by spaces. */
export function precedence(levels: string): Record<string, number> {
  const out: Record<string, number> = {};
  levels.split(", ").forEach((ops, i) => ops.split(" ").forEach((op) => out[op] = i + 1));
  return out;
}

/**
 * How deep a reader's recursive parts (an expression, a unary operand, a block, a type, an array
 * initializer) may nest: past it, the text fails to decode. So no text overflows the stack (Node
 * 20's runs out near 1,170 nested parentheses in JavaScript), and every runtime refuses the same
 * texts. BFCL's tree-sitter has no such limit (a known difference, in docs/bfcl.md).
 */
const MAX_NESTING = 500;
/** The reason of a text nested past a reader's limits. */
export const TOO_DEEP = "nested too deeply for this reader";

/** The depth of a tree, without recursion. */
export function treeDepth(root: CNode): number {
  let max = 0;
  const stack: [CNode, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    if (d > max) max = d;
    for (const child of n.children) stack.push([child, d + 1]);
  }
  return max;
}

/** A reader of a program: statements up to the end of the text, over a cursor of its tokens. */
export abstract class CReader {
  /** The cursor over the text's tokens. */
  readonly c: Cursor;
  /** How deep `nest` is now. */
  #nesting = 0;

  /**
   * Splits the text into tokens.
   *
   * @param text The text.
   * @param dialect Its language.
   */
  constructor(readonly text: string, dialect: Dialect) {
    this.c = new Cursor(cTokens(text, dialect));
  }

  /** One statement. */
  abstract statement(): CNode;

  /** `cond ? a : b` when a `?` follows `cond` (else `cond`), with `b` read by `otherwise`. */
  conditional(cond: CNode, otherwise: () => CNode): CNode {
    if (!this.c.is("?")) return cond;
    const q = this.c.take();
    const a = this.expression();
    const colon = this.c.expect(":");
    return node("ternary_expression", [cond, q, a, colon, otherwise()]);
  }

  /** An expression. */
  abstract expression(): CNode;

  /** `open item, item, … close` (a last comma allowed) as a node of `type`. */
  delimited(open: string, close: string, type: string, item: () => CNode): CNode {
    const parts = [this.c.expect(open)];
    while (!this.c.is(close)) {
      parts.push(item());
      if (!this.c.is(",")) break;
      parts.push(this.c.take());
    }
    parts.push(this.c.expect(close));
    return node(type, parts);
  }

  /** A bracketed part kept whole, unread (a function's or a class's body), as a node of `type`. */
  bracketed(type: string): CNode {
    const after = this.c.closing();
    if (after < 0) throw new CSyntaxError(`an unclosed ${type}`);
    const parts: CNode[] = [];
    for (let k = 0; k < after; k++) parts.push(this.c.take());
    return node(type, parts);
  }

  /** Reads a recursive part one level deeper (see MAX_NESTING). */
  nest(read: () => CNode): CNode {
    if (++this.#nesting > MAX_NESTING) {
      throw new CSyntaxError(`${TOO_DEEP} (over ${MAX_NESTING} nested parts)`, TOO_DEEP);
    }
    const n = read();
    this.#nesting--;
    return n;
  }

  /** The program: every statement of the text. */
  program(): CNode {
    const statements: CNode[] = [];
    while (this.c.peek().kind !== "eof") statements.push(this.statement());
    return { type: "program", start: 0, end: this.text.length, children: statements };
  }
}
