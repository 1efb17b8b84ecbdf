// How `trajectory_match` compares one reference call's arguments with one output call's: the
// arguments as a tree read from their canonical JSON text (so `1.0` and `1` stay different, unless
// numbers compare by value through `numericForm`), a tool's ignore globs and defaults stripped
// from both sides, then one of the argument modes. Returns the paths that differ. A tool's rule
// is read here from its override in the options.
import { canonicalize, canonicalValue, decodeCanonicalString, numericForm } from "../engine/mod.ts";
import { exactText } from "./_exact_values.ts";
import { isRec, oneOf, paramError } from "./_metric_args.ts";

/** The argument modes. */
export const ARGUMENTS_MODES = ["exact", "ignore", "subset", "superset"] as const;

/** How arguments compare: `subset` means the output's are a subset of the reference's. */
export type ArgumentsMode = (typeof ARGUMENTS_MODES)[number];

/** A node of an argument tree; `text` is its canonical JSON text. */
export type ArgNode =
  | { kind: "leaf"; text: string }
  | { kind: "raw"; text: string } // arguments that are not valid JSON: only equal to the same text
  | { kind: "object"; members: Member[] }
  | { kind: "array"; items: ArgNode[] };

/** An object member: the decoded key, its canonical literal, the value. */
export type Member = { key: string; literal: string; value: ArgNode };

/** One tool's rule, read from the options. */
export interface ToolRule {
  /** The argument mode, or `keys` to compare only the listed paths. */
  mode: ArgumentsMode | "keys";
  /** The dotted paths compared in `keys` mode. */
  keys: string[];
  /** Globs over dotted member paths removed from both sides. */
  ignore: RegExp[];
  /** Dotted member path → the canonical text of its default; a member equal to it is removed. */
  defaults: Map<string, string>;
  /** Fewest and most output calls of the tool, when given. */
  min?: number;
  max?: number;
}

/** The canonical text of a node, from its parts (so that a stripped tree has its own text). */
export function nodeText(node: ArgNode): string {
  switch (node.kind) {
    case "leaf":
      return node.text;
    case "raw":
      return `\u0000${node.text}`;
    case "array":
      return `[${node.items.map(nodeText).join(",")}]`;
    case "object":
      return `{${node.members.map((m) => `${m.literal}:${nodeText(m.value)}`).join(",")}}`;
  }
}

function stringEnd(t: string, i: number): number {
  let p = i + 1;
  while (p < t.length) {
    const c = t.charCodeAt(p);
    if (c === 0x5c) p += 2;
    else if (c === 0x22) return p + 1;
    else p++;
  }
  return t.length;
}

// Reads canonical JSON text (ASCII, no whitespace, keys sorted): returns the node and its end.
function readNode(t: string, i: number): [ArgNode, number] {
  const c = t.charCodeAt(i);
  if (c === 0x7b || c === 0x5b) {
    const object = c === 0x7b;
    const members: Member[] = [];
    const items: ArgNode[] = [];
    let p = i + 1;
    if (t.charCodeAt(p) !== (object ? 0x7d : 0x5d)) {
      for (;;) {
        let literal = "";
        if (object) {
          const e = stringEnd(t, p);
          literal = t.slice(p, e);
          p = e + 1; // the colon
        }
        const [value, e] = readNode(t, p);
        if (object) members.push({ key: decodeCanonicalString(literal), literal, value });
        else items.push(value);
        p = e;
        if (t.charCodeAt(p) !== 0x2c) break;
        p++;
      }
    }
    return [object ? { kind: "object", members } : { kind: "array", items }, p + 1];
  }
  let p = c === 0x22 ? stringEnd(t, i) : i;
  if (c !== 0x22) {
    while (p < t.length && !",]}".includes(t[p]!)) p++;
  }
  return [{ kind: "leaf", text: t.slice(i, p) }, p];
}

/**
 * The argument tree of a call's arguments: an object through `canonicalValue` (or, read from a
 * file by `readGoldens`/`readTraces`, as the file wrote it), a JSON string through `canonicalize`
 * (its own number lexemes), absent as `{}`; with `numeric`, numbers in value form. Text that is
 * not JSON becomes a `raw` node.
 */
export function argumentTree(args: unknown, numeric: boolean): ArgNode {
  let text: string;
  if (typeof args === "string") {
    const r = canonicalize(args);
    if (!r.ok) return { kind: "raw", text: args };
    text = r.canonical;
  } else {
    text = exactText(args) ?? canonicalValue(args ?? {});
  }
  return readNode(numeric ? numericForm(text) : text, 0)[0];
}

/** The canonical text of a default value, as `argumentTree` would write it. */
export function defaultText(value: unknown, numeric: boolean): string {
  const text = canonicalValue(value);
  return numeric ? numericForm(text) : text;
}

/** A glob over dotted paths as a RegExp: `*` within a segment, `**` across segments. */
export function globRegExp(glob: string): RegExp {
  let src = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === "*" && glob[i + 1] === "*") src += ".*", i++;
    else if (ch === "*") src += "[^.]*";
    else if (ch === "?") src += "[^.]";
    else src += ch.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return new RegExp(`^${src}$`, "s");
}

const join = (path: string, key: string) => (path === "" ? key : `${path}.${key}`);

/** The tree without the members the rule ignores or that equal their default. */
export function strip(node: ArgNode, rule: ToolRule, path = ""): ArgNode {
  if (rule.ignore.length === 0 && rule.defaults.size === 0) return node;
  if (node.kind === "array") {
    return { kind: "array", items: node.items.map((x, i) => strip(x, rule, `${path}[${i}]`)) };
  }
  if (node.kind !== "object") return node;
  const members: Member[] = [];
  for (const m of node.members) {
    const p = join(path, m.key);
    if (rule.ignore.some((g) => g.test(p))) continue;
    const value = strip(m.value, rule, p);
    if (rule.defaults.get(p) === nodeText(value)) continue;
    members.push({ ...m, value });
  }
  return { kind: "object", members };
}

function lookup(node: ArgNode, dotted: string): ArgNode | undefined {
  let cur: ArgNode | undefined = node;
  for (const seg of dotted.split(".")) {
    if (cur?.kind !== "object") return undefined;
    cur = cur.members.find((m) => m.key === seg)?.value;
  }
  return cur;
}

function deepDiff(a: ArgNode, b: ArgNode, path: string, out: string[]): void {
  if (a.kind === "object" && b.kind === "object") {
    const bm = new Map(b.members.map((m) => [m.key, m.value]));
    const am = new Map(a.members.map((m) => [m.key, m.value]));
    const keys = [...new Set([...am.keys(), ...bm.keys()])].sort();
    for (const k of keys) {
      const x = am.get(k), y = bm.get(k);
      if (x === undefined || y === undefined) out.push(join(path, k));
      else deepDiff(x, y, join(path, k), out);
    }
  } else if (a.kind === "array" && b.kind === "array" && a.items.length === b.items.length) {
    a.items.forEach((x, i) => deepDiff(x, b.items[i]!, `${path}[${i}]`, out));
  } else if (nodeText(a) !== nodeText(b)) {
    out.push(path === "" ? "$" : path);
  }
}

// The top-level members of `small` that `big` lacks or holds with another value.
function notContained(small: ArgNode, big: ArgNode): string[] {
  if (small.kind !== "object" || big.kind !== "object") {
    return nodeText(small) === nodeText(big) ? [] : ["$"];
  }
  const bm = new Map(big.members.map((m) => [m.key, nodeText(m.value)]));
  return small.members.filter((m) => bm.get(m.key) !== nodeText(m.value)).map((m) => m.key);
}

/**
 * The argument paths on which an output call fails to match a reference call under `rule`
 * (empty when they match). Both trees are stripped first.
 */
export function argumentDiff(ref: ArgNode, out: ArgNode, rule: ToolRule): string[] {
  if (rule.mode === "ignore") return [];
  const r = strip(ref, rule), o = strip(out, rule);
  switch (rule.mode) {
    case "exact": {
      const paths: string[] = [];
      deepDiff(r, o, "", paths);
      return paths;
    }
    case "subset":
      return notContained(o, r);
    case "superset":
      return notContained(r, o);
    case "keys":
      return rule.keys.filter((k) => {
        const x = lookup(r, k), y = lookup(o, k);
        return (x === undefined ? "" : nodeText(x)) !== (y === undefined ? "" : nodeText(y));
      });
  }
}

/**
 * The text that decides a match under an equivalence rule (`exact`, `ignore`, key lists): two
 * calls' arguments match exactly when their keys are equal, as `argumentDiff` would find no
 * path (canonical trees have unique sorted keys, so equal trees are equal texts). Undefined for
 * `subset` and `superset`, which are no equivalences and are judged pair by pair.
 */
export function equivalenceKey(node: ArgNode, rule: ToolRule): string | undefined {
  switch (rule.mode) {
    case "ignore":
      return "";
    case "exact":
      return nodeText(strip(node, rule));
    case "keys": {
      const r = strip(node, rule);
      return rule.keys.map((k) => {
        const x = lookup(r, k);
        const t = x === undefined ? "" : nodeText(x);
        return `${t.length}:${t}`;
      }).join("");
    }
    default:
      return undefined;
  }
}

/** One tool's override of `trajectory_match`'s options (`tools.<name>`), checked. */
export function readRule(
  at: string,
  override: unknown,
  base: ArgumentsMode,
): Omit<ToolRule, "defaults"> & { defaults: Record<string, unknown> } {
  const rule = { mode: base as ToolRule["mode"], keys: [] as string[], ignore: [] as RegExp[] };
  const strings = (v: unknown, what: string): string[] => {
    if (!Array.isArray(v) || v.some((k) => typeof k !== "string" || k === "")) {
      throw paramError(
        new TypeError(`${at}.${what} must be a list of non-empty strings`),
        `${at}.${what}`,
      );
    }
    return v as string[];
  };
  if (typeof override === "string" || Array.isArray(override)) {
    override = { [typeof override === "string" ? "arguments" : "keys"]: override };
  }
  if (!isRec(override)) {
    throw paramError(new TypeError(`${at} must be a mode, a list of keys or an object`), at);
  }
  const known = ["arguments", "keys", "ignore", "defaults", "min", "max"];
  for (const k of Object.keys(override)) {
    if (!known.includes(k)) {
      const e = new RangeError(`${at}: unknown field "${k}" (${known.join(", ")})`);
      throw Object.assign(paramError(e, `${at}.${k}`, k, known), { key: true as const });
    }
  }
  if (override.arguments !== undefined) {
    rule.mode = oneOf(`${at}.arguments`, override.arguments, ARGUMENTS_MODES);
  }
  if (override.keys !== undefined) rule.mode = "keys", rule.keys = strings(override.keys, "keys");
  if (override.ignore !== undefined) {
    rule.ignore = strings(override.ignore, "ignore").map(globRegExp);
  }
  const defaults = override.defaults ?? {};
  if (!isRec(defaults)) {
    throw paramError(new TypeError(`${at}.defaults must be an object`), `${at}.defaults`);
  }
  const count = (k: "min" | "max"): number | undefined => {
    const v = override[k];
    if (v !== undefined && (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)) {
      throw paramError(
        new RangeError(`${at}.${k} must be an integer ≥ 0, got ${String(v)}`),
        `${at}.${k}`,
      );
    }
    return v;
  };
  const min = count("min"), max = count("max");
  if (min !== undefined && max !== undefined && min > max) {
    throw paramError(new RangeError(`${at}: min ${min} exceeds max ${max}`), at);
  }
  return {
    ...rule,
    defaults,
    ...(min !== undefined && { min }),
    ...(max !== undefined && { max }),
  };
}
