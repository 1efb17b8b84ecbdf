// The pure-TypeScript engine: span extraction over UTF-16 code units, tool calls and the
// batch methods of the engine contract, on the parser of _ts_parser.ts.
import type { CoreToolCall, EngineCore } from "./_core.ts";
import { ArrayNode, flattenNode, type Node, nodeText, ObjectNode, own } from "./_nodes.ts";
import { isError, Parser, parseWhole, SyntaxFailure } from "./_ts_parser.ts";
import { decodeCanonicalString } from "./exact_fields.ts";
import { resampleTs } from "./resample.ts";
import type { ArgumentPair, CanonicalResult, FlattenResult, SpanResult } from "./types.ts";

let spanStack = new Uint32Array(64);

/** Span extraction (CONTRACT §1) over UTF-16 code units, with a bit stack of unbounded depth. */
export function tsExtractSpan(text: string): SpanResult {
  const a = text.indexOf("{");
  const b = text.indexOf("[");
  const start = a < 0 ? b : b < 0 ? a : a < b ? a : b;
  if (start < 0) return { status: "no_json" };
  let stack = spanStack;
  let depth = 0;
  let inString = false;
  const n = text.length;
  for (let i = start; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      const word = depth >>> 5;
      if (word >= stack.length) {
        const grown = new Uint32Array(stack.length * 2);
        grown.set(stack);
        stack = spanStack = grown;
      }
      const bit = 1 << (depth & 31);
      stack[word] = c === 0x7b ? stack[word]! | bit : stack[word]! & ~bit;
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      const isBrace = (stack[depth >>> 5]! & (1 << (depth & 31))) !== 0;
      if (isBrace !== (c === 0x7d)) {
        return { status: "invalid_json", start, error: { code: "mismatched_bracket", offset: i } };
      }
      if (depth === 0) return { status: "found", start, end: i + 1 };
    }
  }
  return { status: "invalid_json", start, error: { code: "unclosed_span", offset: n } };
}

function isCall(node: Node): node is ObjectNode {
  if (!(node instanceof ObjectNode) || node.ids.length !== 2) return false;
  if (node.ids[0] !== "arguments" || node.ids[1] !== "name") return false;
  const name = node.vals[1]!;
  return typeof name === "string" && name.charCodeAt(0) === 0x22 && name !== '""' &&
    node.vals[0] instanceof ObjectNode;
}

function toolCall(text: string, pairs: boolean): CoreToolCall {
  const span = tsExtractSpan(text);
  if (span.status === "no_json") return { status: "no_json" };
  if (span.status === "invalid_json") return { status: "invalid_json", error: span.error! };
  let node: Node;
  try {
    node = new Parser(text, span.start!, span.end!).parseValue(0);
  } catch (e) {
    if (e instanceof SyntaxFailure) {
      return { status: "invalid_json", error: { code: e.code, offset: e.offset } };
    }
    throw e;
  }
  if (node instanceof ArrayNode && node.items.length === 1) node = node.items[0]!;
  if (!isCall(node)) return { status: "invalid_shape" };
  const args = node.vals[0] as ObjectNode;
  const result: CoreToolCall = {
    status: "ok",
    name: own(decodeCanonicalString(node.vals[1] as string)),
    canonicalArguments: own(args.text),
  };
  if (pairs) {
    const out: ArgumentPair[] = [];
    flattenNode(args, out);
    result.pairs = out;
  }
  return result;
}

/** Creates the pure-TypeScript engine. */
export function createTsCore(): EngineCore {
  return {
    name: "ts",
    spans: (texts) => texts.map(tsExtractSpan),
    toolCalls: (texts, pairs) => texts.map((t) => toolCall(t, pairs)),
    canonical: (texts) =>
      texts.map((t): CanonicalResult => {
        const r = parseWhole(t);
        return isError(r) ? { ok: false, error: r } : { ok: true, canonical: own(nodeText(r)) };
      }),
    flatten: (texts) =>
      texts.map((t): FlattenResult => {
        const r = parseWhole(t);
        if (isError(r)) return { ok: false, error: r };
        const out: ArgumentPair[] = [];
        flattenNode(r, out);
        return { ok: true, pairs: out };
      }),
    resample: resampleTs,
  };
}
