/**
 * Parses YAML or JSONC into plain values plus the source position of every node, so that
 * validation errors can point at a file, line and column.
 *
 * @module
 */
import YAML from "yaml";
import * as jsonc from "jsonc-parser";
import { quote } from "../jsonl/mod.ts";

/** A 1-based line and column. */
export interface Position {
  /** The line, from 1. */
  line: number;
  /** The column, from 1. */
  column: number;
}

/** A parsed document: its value, and where each node (by JSON pointer) starts. */
export interface Located {
  /** The document as plain JSON values. */
  value: unknown;
  /** Where each node starts, by JSON pointer (`""` is the root): a member at its key. */
  positions: Map<string, Position>;
  /**
   * Where each node's value starts, by JSON pointer: a member's value, which may sit lines below
   * its key (`min:` on one line, `"0.8x"` on the next), so that a bad value is named at its place;
   * another node as in `positions`. A member with no value (YAML's `min:`) has none.
   */
  values: Map<string, Position>;
}

/** A syntax error with its position. */
export interface SyntaxIssue extends Position {
  /** What is wrong. */
  message: string;
}

const PROTO_MESSAGE = 'The key "__proto__" is not allowed';

// npm:yaml and jsonc-parser read nesting by recursion: a document nested some thousands deep runs
// out of stack (how deep depends on the runtime). That is the document's fault, so an issue.
const TOO_DEEP: SyntaxIssue = {
  line: 1,
  column: 1,
  message: "The document nests too deeply to read (its parser ran out of stack)",
};
const outOfStack = (e: unknown) => e instanceof RangeError && /call stack/i.test(e.message);

/**
 * Escapes one JSON pointer segment (RFC 6901: `~` as `~0`, `/` as `~1`).
 *
 * @param s The segment: a key or an index.
 * @returns The escaped segment.
 */
export function pointerSegment(s: string | number): string {
  return String(s).replaceAll("~", "~0").replaceAll("/", "~1");
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0x0a) starts.push(i + 1);
  return starts;
}

function positionAt(starts: number[], offset: number): Position {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

const YAML_1_1_MESSAGE =
  "A %YAML 1.1 directive is not read: documents are YAML 1.2 (core schema); remove the directive";

// Where the first %YAML directive starts (npm:yaml keeps no position for it).
function yamlDirectiveOffset(text: string): number {
  for (const token of new YAML.Parser().parse(text)) {
    if (token.type === "directive" && /^%YAML[ \t]/.test(token.source)) return token.offset;
  }
  return 0;
}

/**
 * Parses YAML (1.2 core schema; at most 100 aliases, duplicate keys rejected). A `%YAML`
 * directive naming another version, and what npm:yaml only warns of (a tag the core schema does
 * not have, an unknown directive), are issues at their position.
 *
 * @throws {Error} On Deno without env access: npm:yaml's Node build reads `LOG_TOKENS` and
 * `LOG_STREAM` while it parses.
 */
export function parseYaml(text: string): Located | SyntaxIssue[] {
  const starts = lineStarts(text);
  let docs;
  try {
    // The core schema and no merge keys, pinned: a `%YAML 1.1` directive would switch both.
    docs = YAML.parseAllDocuments(text, {
      uniqueKeys: true,
      prettyErrors: false,
      schema: "core",
      merge: false,
      resolveKnownTags: false,
    });
  } catch (e) {
    if (outOfStack(e)) return [TOO_DEEP];
    const name = (e as { name?: unknown } | null)?.name;
    if (name === "NotCapable" || name === "PermissionDenied") {
      throw new Error(
        "Parsing YAML needs read access to the environment variables LOG_TOKENS and LOG_STREAM " +
          "(npm:yaml reads them): grant --allow-env=LOG_TOKENS,LOG_STREAM, or write the suite as JSONC",
        { cause: e },
      );
    }
    throw e;
  }
  const list = Array.isArray(docs) ? docs : [docs];
  const issues: SyntaxIssue[] = [];
  for (const d of list) {
    if (d.directives?.yaml.explicit && d.directives.yaml.version !== "1.2") {
      issues.push({ ...positionAt(starts, yamlDirectiveOffset(text)), message: YAML_1_1_MESSAGE });
    }
    // A warning (an unresolved tag, an unknown directive) is as much a problem as an error.
    for (const e of [...d.errors, ...d.warnings]) {
      issues.push({ ...positionAt(starts, e.pos[0]), message: e.message.split("\n")[0]! });
    }
  }
  if (issues.length > 0) {
    return issues.sort((a, b) => a.line - b.line || a.column - b.column);
  }
  if (list.length > 1) {
    const second = list[1]!;
    const at = second.range?.[0] ?? 0;
    return [{ ...positionAt(starts, at), message: "Expected one YAML document, found several" }];
  }
  const doc = list[0];
  if (!doc) return { value: null, positions: new Map(), values: new Map() };
  let value: unknown;
  // npm:yaml's alias errors (too many aliases, an alias before its anchor) carry no position:
  // each alias of this document notes its own start when its conversion throws.
  let failedAlias: number | undefined;
  YAML.visit(doc, {
    Alias(_, node) {
      const toJSON = node.toJSON;
      node.toJSON = function (...args: Parameters<typeof toJSON>) {
        try {
          return toJSON.apply(this, args);
        } catch (e) {
          failedAlias ??= node.range?.[0];
          throw e;
        }
      };
    },
  });
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    if (outOfStack(e)) return [TOO_DEEP];
    return [{
      ...positionAt(starts, failedAlias ?? 0),
      message: e instanceof Error ? e.message : String(e),
    }];
  }
  const positions = new Map<string, Position>();
  const values = new Map<string, Position>();
  const protoKeys: SyntaxIssue[] = [];
  // Walk the node tree with an explicit stack.
  const stack: [unknown, string][] = [[doc.contents, ""]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    const range = (node as { range?: [number, number, number] }).range;
    if (range) {
      const at = positionAt(starts, range[0]);
      if (!positions.has(path)) positions.set(path, at);
      values.set(path, at);
    }
    if (YAML.isMap(node)) {
      for (const pair of node.items) {
        const key = YAML.isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const child = `${path}/${pointerSegment(key)}`;
        const keyRange = (pair.key as { range?: [number, number, number] } | null)?.range;
        if (key === "__proto__") {
          protoKeys.push({ ...positionAt(starts, keyRange?.[0] ?? 0), message: PROTO_MESSAGE });
        }
        if (keyRange) positions.set(child, positionAt(starts, keyRange[0]));
        stack.push([pair.value, child]);
      }
    } else if (YAML.isSeq(node)) {
      node.items.forEach((item, i) => stack.push([item, `${path}/${i}`]));
    }
  }
  if (protoKeys.length > 0) return protoKeys;
  return { value, positions, values };
}

/**
 * Parses JSONC (comments and trailing commas allowed; a key repeated in one object, compared by
 * its decoded value, or a `__proto__` key, is an issue at the key).
 *
 * @param text The document.
 * @returns The value with the position of every node, or the syntax errors.
 *
 * @example A key's line
 * ```ts
 * import { parseJsonc } from "@assay/assay/config";
 * import { ok, strictEqual } from "node:assert/strict";
 *
 * const doc = parseJsonc('{\n  // a comment\n  "a": 1,\n}');
 * ok(!Array.isArray(doc));
 * strictEqual(doc.positions.get("/a")?.line, 3);
 * ```
 */
export function parseJsonc(text: string): Located | SyntaxIssue[] {
  const starts = lineStarts(text);
  const errors: jsonc.ParseError[] = [];
  let tree: jsonc.Node | undefined;
  try {
    tree = jsonc.parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (e) {
    if (outOfStack(e)) return [TOO_DEEP];
    throw e;
  }
  if (errors.length > 0) {
    return errors.map((e) => ({
      ...positionAt(starts, e.offset),
      message: `JSONC syntax error: ${jsonc.printParseErrorCode(e.error)}`,
    }));
  }
  if (!tree) return [{ line: 1, column: 1, message: "Empty document" }];
  const positions = new Map<string, Position>();
  const values = new Map<string, Position>();
  const keyIssues: (SyntaxIssue & { offset: number })[] = [];
  const stack: [jsonc.Node, string][] = [[tree, ""]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    const at = positionAt(starts, node.offset);
    if (!positions.has(path)) positions.set(path, at);
    values.set(path, at);
    if (node.type === "object") {
      for (const prop of node.children ?? []) {
        const [k, v] = prop.children ?? [];
        if (!k) continue;
        const key = String(k.value);
        const at = positionAt(starts, k.offset);
        const child = `${path}/${pointerSegment(key)}`;
        if (!positions.has(child)) positions.set(child, at);
        if (key === "__proto__") {
          keyIssues.push({ ...at, offset: k.offset, message: PROTO_MESSAGE });
        }
        if (v) stack.push([v, child]);
      }
    } else if (node.type === "array") {
      (node.children ?? []).forEach((c, i) => stack.push([c, `${path}/${i}`]));
    }
  }
  // Keys compare by their decoded value: "\u0074" and "t" are one key.
  for (const r of keyRepeats(text)) {
    const first = positionAt(starts, r.firstOffset);
    keyIssues.push({
      ...positionAt(starts, r.offset),
      offset: r.offset,
      message: `Duplicate key ${quote(r.key)} (first at ${first.line}:${first.column})`,
    });
  }
  if (keyIssues.length > 0) {
    return keyIssues.sort((a, b) => a.offset - b.offset).map(({ offset: _, ...i }) => i);
  }
  try {
    return { value: jsonc.getNodeValue(tree), positions, values };
  } catch (e) {
    if (outOfStack(e)) return [TOO_DEEP];
    throw e;
  }
}

/** A key repeated in one object of a JSON or JSONC text. */
export interface RepeatedKey {
  /** The key, decoded. */
  key: string;
  /** Where the repeat starts (its opening quote). */
  at: Position;
  /** Where the key's first use in that object starts. */
  first: Position;
}

/**
 * Every key repeated in one object of a JSON or JSONC text, at any depth, in text order: the
 * rule of every reader of user files, which refuse such a text where JSON.parse and Python's
 * json keep the last value without a word. Keys compare by their decoded value (`"\u0074"`
 * repeats `"t"`); equal keys in different objects are no repeat. The text must be one a JSON or
 * JSONC parser accepted: it is not checked again. One pass, no recursion.
 *
 * @param text A JSON or JSONC text (comments and trailing commas allowed).
 * @returns The repeats, empty when there is none.
 *
 * @example A golden whose expected answer is given twice
 * ```ts
 * import { repeatedKeys } from "@assay/assay/config";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(repeatedKeys('{"id":"g1","expected":"a","expected":"b"}'), [
 *   { key: "expected", at: { line: 1, column: 27 }, first: { line: 1, column: 12 } },
 * ]);
 * ```
 */
export function repeatedKeys(text: string): RepeatedKey[] {
  const repeats = keyRepeats(text);
  if (repeats.length === 0) return [];
  const starts = lineStarts(text);
  return repeats.map((r) => ({
    key: r.key,
    at: positionAt(starts, r.offset),
    first: positionAt(starts, r.firstOffset),
  }));
}

/** The repeated keys of `text`, with the offsets of each repeat and of the key's first use. */
function keyRepeats(text: string): { key: string; offset: number; firstOffset: number }[] {
  const found: { key: string; offset: number; firstOffset: number }[] = [];
  // The keys of each open container, with their offsets (null for an array).
  const open: (Map<string, number> | null)[] = [];
  let keyNext = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // The closing quote: the next one not escaped by an odd run of backslashes.
      let j = i;
      do {
        j = text.indexOf('"', j + 1);
        if (j < 0) return found;
        let k = j - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((j - 1 - k) % 2 === 0) break;
      } while (true);
      if (keyNext) {
        const literal = text.slice(i, j + 1);
        const key = literal.includes("\\") ? JSON.parse(literal) as string : literal.slice(1, -1);
        const keys = open[open.length - 1]!;
        const first = keys.get(key);
        if (first === undefined) keys.set(key, i);
        else found.push({ key, offset: i, firstOffset: first });
        keyNext = false;
      }
      i = j;
    } else if (c === 0x7b) {
      open.push(new Map());
      keyNext = true;
    } else if (c === 0x5b) {
      open.push(null);
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      keyNext = false;
    } else if (c === 0x2c) {
      keyNext = open[open.length - 1] instanceof Map;
    } else if (c === 0x2f) {
      // A comment (JSONC): to the end of its line, or past its `*/`.
      if (text.charCodeAt(i + 1) === 0x2a) {
        const end = text.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 1;
      } else {
        while (i + 1 < n && text.charCodeAt(i + 1) !== 0x0a && text.charCodeAt(i + 1) !== 0x0d) {
          i++;
        }
      }
    }
  }
  return found;
}
