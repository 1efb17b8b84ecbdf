// The TS engine's parse tree: strings, numbers and literals as their canonical text, arrays and
// objects with theirs built bottom-up; object members sorted by the code points of their keys
// (the last of a duplicated key wins); and a tree flattened into argument pairs.
import type { ArgumentPair } from "./types.ts";

/** A parsed value: a scalar as its canonical text, or a container. */
export type Node = string | ObjectNode | ArrayNode;

/** An array: its items and its canonical text. */
export class ArrayNode {
  constructor(readonly items: Node[], readonly text: string) {}
}

/** An object: its members in canonical order and its canonical text. */
export class ObjectNode {
  constructor(
    /** Canonical key literals, sorted by code point, unique. */
    readonly keys: string[],
    /** Key identities, parallel to `keys` (see `_keyId`). */
    readonly ids: string[],
    readonly vals: Node[],
    readonly text: string,
  ) {}
}

/** Widens a key identity to two code units per code point, so that plain and wide identities compare by code point. */
function widen(id: string): string {
  if (id.charCodeAt(0) === 0xffff) return id.slice(1);
  let out = "";
  for (let i = 0; i < id.length; i++) out += "\0" + id[i];
  return out;
}

/** Sorts members by code point, keeps the last value of a duplicated key, and writes the canonical text. */
export function buildObject(keys: string[], ids: string[], vals: Node[]): ObjectNode {
  const n = keys.length;
  let order: number[];
  if (n === 1) {
    order = [0];
  } else {
    order = new Array<number>(n);
    for (let i = 0; i < n; i++) order[i] = i;
    let wide = false;
    for (let i = 0; i < n; i++) if (ids[i]!.charCodeAt(0) === 0xffff) wide = true;
    if (wide) {
      const w = ids.map(widen);
      order.sort((a, b) => (w[a]! < w[b]! ? -1 : w[a]! > w[b]! ? 1 : a - b));
    } else {
      order.sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : a - b));
    }
  }
  const k: string[] = [];
  const d: string[] = [];
  const v: Node[] = [];
  let text = "{";
  for (let j = 0; j < n; j++) {
    const i = order[j]!;
    // Within a run of equal identities, the last in source order wins.
    if (j + 1 < n && ids[order[j + 1]!] === ids[i]) continue;
    const val = vals[i]!;
    if (k.length > 0) text += ",";
    text += keys[i]! + ":" + (typeof val === "string" ? val : val.text);
    k.push(keys[i]!);
    d.push(ids[i]!);
    v.push(val);
  }
  return new ObjectNode(k, d, v, text + "}");
}

/**
 * A copy of `s` that holds nothing else alive. The parser builds its texts by concatenating slices
 * of what it parses, which V8 and JSC keep as trees pointing into the whole input; a result kept
 * that way (a gold call kept until its generation is scored) would keep its whole line.
 */
export function own(s: string): string {
  return (" " + s).slice(1); // the slice flattens the concatenation into a string of its own
}

/** The canonical text of a node. */
export function nodeText(node: Node): string {
  return typeof node === "string" ? node : node.text;
}

/** Flattens a node into pairs in canonical order. Paths are built as `[seg,seg` prefixes. */
export function flattenNode(node: Node, out: ArgumentPair[]): void {
  walk(node, "[", out);
}

function walk(node: Node, prefix: string, out: ArgumentPair[]): void {
  const sep = prefix.length === 1 ? "" : ",";
  if (typeof node === "string") {
    out.push({ path: own(prefix + "]"), value: own(node) });
  } else if (node instanceof ObjectNode) {
    if (node.keys.length === 0) {
      out.push({ path: own(prefix + "]"), value: "{}" });
      return;
    }
    for (let i = 0; i < node.keys.length; i++) {
      walk(node.vals[i]!, prefix + sep + node.keys[i]!, out);
    }
  } else {
    if (node.items.length === 0) {
      out.push({ path: own(prefix + "]"), value: "[]" });
      return;
    }
    for (let i = 0; i < node.items.length; i++) walk(node.items[i]!, prefix + sep + i, out);
  }
}
