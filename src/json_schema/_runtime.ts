/**
 * Runtime shapes shared by the compiled JSON Schema closures: the validation context, annotation
 * sets for `unevaluated*`, compiled nodes and the error helpers.
 *
 * @module
 */
import type { Interned } from "./_values.ts";

/** One validation error, as data. */
export interface ValidationError {
  /** The keyword's location as a JSON pointer through the schema path taken (`$ref` included). */
  keywordLocation: string;
  /** The location of the failing value in the instance, as a JSON pointer. */
  instanceLocation: string;
  /** What is wrong. */
  message: string;
}

/** A schema resource (a document root or an embedded `$id`). */
export interface Resource {
  /** The resource's absolute URI (without fragment). */
  uri: string;
  /** The compiled nodes of this resource's `$dynamicAnchor`s, by anchor name. */
  dynamic: Map<string, Node>;
}

/** The state of one validation run. */
export interface Ctx {
  /** The collected errors, or `null` on the fast boolean path (stop at the first failure). */
  errs: ValidationError[] | null;
  /** The dynamic scope: resources entered, outermost first (only kept when `$dynamicRef` is used). */
  scope: Resource[];
  /** The instance's containers interned so far by `uniqueItems` (made when first needed). */
  u?: Interned;
}

/** Evaluated-location annotations collected for `unevaluatedProperties`/`unevaluatedItems`. */
export interface Ann {
  /** Property names evaluated by an adjacent keyword. */
  props: Set<string>;
  /** Leading items evaluated (`Infinity` for all). */
  items: number;
  /** Item indices evaluated by `contains`. */
  itemSet: Set<number> | null;
}

/**
 * A compiled check: `x` the instance, `c` the run, `ip`/`kp` the instance and keyword locations
 * (only built when errors are collected), `a` the annotations to add to (or `null` when no
 * `unevaluated*` keyword is in scope), `d` the nesting depth.
 */
export type Check = (
  x: unknown,
  c: Ctx,
  ip: string,
  kp: string,
  a: Ann | null,
  d: number,
) => boolean;

/** A compiled (sub)schema; `v` is filled in once the node is compiled. */
export interface Node {
  /** Validates an instance against this subschema. */
  v: Check;
  /** The resource this subschema belongs to. */
  resource: Resource;
  /** Whether this subschema is its resource's root. */
  isRoot: boolean;
}

/**
 * How many nested subschema applications a validation may take before it gives up with an
 * invalid verdict (so a deep instance or a `$ref` cycle cannot overflow the stack).
 */
export const MAX_DEPTH = 1000;

/**
 * The depth-cap error (`error`), thrown so that it is final: no `not`, `if` or `anyOf` turns it
 * around. (Its docs are here, where the bundler drops them.)
 */
export class TooDeep {
  constructor(readonly error: ValidationError) {}
}

/**
 * Stops the validation with the depth-cap error (its locations are `""` where the path taken is
 * not built, as below `not`, `if` and `contains`).
 *
 * @param ip The instance location.
 * @param kp The keyword location.
 * @throws {TooDeep} Always.
 */
export function tooDeep(ip: string, kp: string): never {
  throw new TooDeep({
    keywordLocation: kp,
    instanceLocation: ip,
    message: `Validation exceeds the maximum depth of ${MAX_DEPTH} nested subschemas`,
  });
}

/** Fails an instance of the wrong type (a `type` check fused into a keyword group). */
export type TypeFail = (x: unknown, c: Ctx, ip: string, kp: string) => false;

/**
 * Whether an exception is the engine's stack overflow (the backstop when the caller's own stack is
 * already deep).
 *
 * @param e The exception.
 * @returns Whether it is a stack overflow.
 */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack|too much recursion/i.test(e.message);
}

/**
 * Creates an empty annotation set.
 *
 * @returns The annotations.
 */
export function newAnn(): Ann {
  return { props: new Set(), items: 0, itemSet: null };
}

/**
 * Adds the annotations of `src` to `dst`.
 *
 * @param dst The annotations to extend.
 * @param src The annotations to add.
 */
export function mergeAnn(dst: Ann, src: Ann): void {
  for (const p of src.props) dst.props.add(p);
  if (src.items > dst.items) dst.items = src.items;
  if (src.itemSet !== null) {
    if (dst.itemSet === null) dst.itemSet = new Set(src.itemSet);
    else for (const i of src.itemSet) dst.itemSet.add(i);
  }
}

/**
 * Records an error when errors are collected.
 *
 * @param c The run.
 * @param kp The keyword location.
 * @param ip The instance location.
 * @param message What is wrong.
 * @returns Always `false`.
 */
export function fail(c: Ctx, kp: string, ip: string, message: string): false {
  if (c.errs !== null) c.errs.push({ keywordLocation: kp, instanceLocation: ip, message });
  return false;
}

/**
 * Describes a schema's value (a `const`, an `enum`, a pattern) for a message: its JSON, cut short.
 *
 * @param x The value.
 * @returns A short JSON rendering.
 */
export function show(x: unknown): string {
  let s: string;
  try {
    s = String(JSON.stringify(x));
  } catch {
    s = String(x);
  }
  return s.length > 60 ? s.slice(0, 57) + "..." : s;
}

/** What a keyword builder sees of the schema object being compiled. */
export interface Builder {
  /** The schema object. */
  readonly schema: Record<string, unknown>;
  /** Whether `format` is asserted. */
  readonly formatAssertion: boolean;
  /** Whether the `$dynamicRef` scope must be tracked (read at validation time). */
  readonly state: { dynamic: boolean };
  /** This schema's node. */
  readonly node: Node;
  /**
   * The node of a subschema of this schema.
   *
   * @param value The subschema.
   * @param path Its path below this schema (escaped pointer tokens, no leading slash).
   * @returns Its node (compiled later).
   */
  child(value: unknown, path: string): Node;
  /**
   * Resolves a reference to a node.
   *
   * @param keyword `$ref` or `$dynamicRef`.
   * @returns The target node and the target subschema.
   */
  ref(keyword: "$ref" | "$dynamicRef"): [Node, unknown];
  /**
   * The nodes of every `$dynamicAnchor` with this name (they are compiled and registered).
   *
   * @param name The anchor name.
   */
  useDynamicAnchor(name: string): void;
  /**
   * A schema error about a keyword of this schema.
   *
   * @param keyword The keyword.
   * @param message What is wrong.
   * @returns The error to throw.
   */
  error(keyword: string, message: string): Error;
}

/**
 * The node of the subschema under `keyword`, when the schema has that keyword.
 *
 * @param b The builder.
 * @param keyword The keyword (a single pointer token).
 * @returns Its node, or undefined.
 */
export function subschema(b: Builder, keyword: string): Node | undefined {
  return Object.hasOwn(b.schema, keyword) ? b.child(b.schema[keyword], keyword) : undefined;
}

/**
 * The nodes of the non-empty array of subschemas under `keyword`, when the schema has it.
 *
 * @param b The builder.
 * @param keyword The keyword (`allOf`, `prefixItems`, ...).
 * @returns Their nodes, or undefined.
 * @throws {SchemaError} If the value is not a non-empty array.
 */
export function schemaArray(b: Builder, keyword: string): Node[] | undefined {
  if (!Object.hasOwn(b.schema, keyword)) return undefined;
  const v = b.schema[keyword];
  if (!Array.isArray(v) || v.length === 0) {
    throw b.error(keyword, `The value of ${keyword} must be a non-empty array of schemas`);
  }
  return v.map((s, i) => b.child(s, `${keyword}/${i}`));
}
