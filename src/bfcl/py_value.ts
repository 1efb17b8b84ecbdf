/**
 * Python values as BFCL's checker sees them: `int` apart from `float`, `bool` apart from both,
 * `tuple` apart from `list`, dictionaries in insertion order. With Python's `type()`, `==`,
 * `repr()` and `json.dumps` over them.
 *
 * @module
 */
import { canonicalValue, pyFloatRepr } from "../engine/mod.ts";
import { strRepr } from "./_python_repr.ts";

/** A Python `int`, exact. */
export class PyInt {
  /**
   * Wraps an integer.
   *
   * @param value The integer.
   */
  constructor(readonly value: bigint) {}
}

/** A Python `float`. */
export class PyFloat {
  /**
   * Wraps a double.
   *
   * @param value The double.
   */
  constructor(readonly value: number) {}
}

/** A Python `tuple`. */
export class PyTuple {
  /**
   * Wraps the items.
   *
   * @param items The items, in order.
   */
  constructor(readonly items: readonly PyValue[]) {}
}

/** A Python value of a type the checker never expects (`complex`, `bytes`): kept by its repr. */
export class PyOther {
  /**
   * Keeps a value by its type's name and repr.
   *
   * @param typeName What `type(x).__name__` gives.
   * @param repr What `repr(x)` gives.
   */
  constructor(readonly typeName: string, readonly repr: string) {}
}

/** A Python `dict`: entries in insertion order, keys unique by Python equality. */
export class PyDict {
  readonly #entries = new Map<string, [PyValue, PyValue]>();

  /**
   * Builds a dict, as `dict(pairs)` does.
   *
   * @param entries Key-value pairs; a later equal key replaces the value and keeps the place.
   */
  constructor(entries: Iterable<readonly [PyValue, PyValue]> = []) {
    for (const [k, v] of entries) this.set(k, v);
  }

  /** The number of entries. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Sets a key, as `d[k] = v` does.
   *
   * @param key The key.
   * @param value The value.
   */
  set(key: PyValue, value: PyValue): void {
    const id = keyId(key);
    const old = this.#entries.get(id);
    this.#entries.set(id, [old ? old[0] : key, value]);
  }

  /**
   * Whether the dict has the key (`k in d`).
   *
   * @param key The key.
   * @returns Whether it is there.
   */
  has(key: PyValue): boolean {
    return this.#entries.has(keyId(key));
  }

  /**
   * The value of a key, or undefined.
   *
   * @param key The key.
   * @returns The value.
   */
  get(key: PyValue): PyValue | undefined {
    return this.#entries.get(keyId(key))?.[1];
  }

  /** The keys, in order. */
  keys(): PyValue[] {
    return [...this.#entries.values()].map((e) => e[0]);
  }

  /** The values, in order. */
  values(): PyValue[] {
    return [...this.#entries.values()].map((e) => e[1]);
  }

  /** The entries, in order. */
  entries(): [PyValue, PyValue][] {
    return [...this.#entries.values()];
  }
}

/** A Python value: `None`, `bool`, `str`, `int`, `float`, `list`, `tuple`, `dict` or another. */
export type PyValue =
  | null
  | boolean
  | string
  | PyInt
  | PyFloat
  | PyValue[]
  | PyTuple
  | PyDict
  | PyOther;

/**
 * How a key is found in a PyDict: equal keys (`1`, `1.0`, `True`) share an identity, and so do
 * tuples of equal items (`(1,)` and `(1.0,)`).
 */
function keyId(k: PyValue): string {
  if (typeof k === "string") return `s${k}`;
  const n = numeric(k);
  if (n !== undefined) return typeof n === "bigint" ? `n${n}` : `f${n}`;
  if (k instanceof PyTuple) return `t${JSON.stringify(k.items.map(keyId))}`;
  return `o${pyRepr(k)}`;
}

/** The number behind a bool, int or float (an integral float as a bigint), or undefined. */
function numeric(x: PyValue): bigint | number | undefined {
  if (typeof x === "boolean") return x ? 1n : 0n;
  if (x instanceof PyInt) return x.value;
  if (x instanceof PyFloat) {
    return Number.isInteger(x.value) ? BigInt(x.value) : x.value;
  }
  return undefined;
}

/**
 * Python's `type(x).__name__`.
 *
 * @param x A Python value.
 * @returns `NoneType`, `bool`, `str`, `int`, `float`, `list`, `tuple`, `dict`, or another's name.
 * @throws {never} Never.
 *
 * @example The types Python tells apart
 * ```ts
 * import { PyFloat, PyInt, pyType } from "@assay/assay/bfcl";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual([true, new PyInt(1n), new PyFloat(1)].map(pyType), ["bool", "int", "float"]);
 * ```
 */
export function pyType(x: PyValue): string {
  if (x === null) return "NoneType";
  if (typeof x === "boolean") return "bool";
  if (typeof x === "string") return "str";
  if (Array.isArray(x)) return "list";
  if (x instanceof PyInt) return "int";
  if (x instanceof PyFloat) return "float";
  if (x instanceof PyTuple) return "tuple";
  if (x instanceof PyDict) return "dict";
  return x.typeName;
}

/**
 * Python's `a == b`: `True == 1 == 1.0`, a list never equals a tuple, dicts compare unordered.
 *
 * @param a A Python value.
 * @param b Another.
 * @returns Whether Python finds them equal.
 * @throws {never} Never.
 *
 * @example Numbers compare across types, containers do not
 * ```ts
 * import { PyFloat, PyInt, pyEquals, PyTuple } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(pyEquals(true, new PyFloat(1)), true);
 * strictEqual(pyEquals([new PyInt(1n)], new PyTuple([new PyInt(1n)])), false);
 * ```
 */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  if (a === b) return true; // identity first, as Python's `in` does (a NaN equals itself)
  const na = numeric(a);
  if (na !== undefined) {
    const nb = numeric(b);
    return nb !== undefined && na === nb;
  }
  if (a === null || b === null || typeof a === "string" || typeof b === "string") return false;
  if (Array.isArray(a)) return Array.isArray(b) && sameItems(a, b);
  if (a instanceof PyTuple) return b instanceof PyTuple && sameItems(a.items, b.items);
  if (a instanceof PyDict) {
    if (!(b instanceof PyDict) || a.size !== b.size) return false;
    for (const [k, v] of a.entries()) {
      const w = b.get(k);
      if (w === undefined || !pyEquals(v, w)) return false;
    }
    return true;
  }
  return a instanceof PyOther && b instanceof PyOther && a.typeName === b.typeName &&
    a.repr === b.repr;
}

function sameItems(a: readonly PyValue[], b: readonly PyValue[]): boolean {
  return a.length === b.length && a.every((x, i) => pyEquals(x, b[i]!));
}

/**
 * Python's `x in items` for a list: any item equal to x.
 *
 * @param x A Python value.
 * @param items The list.
 * @returns Whether an item equals x.
 * @throws {never} Never.
 *
 * @example Membership by equality
 * ```ts
 * import { PyFloat, PyInt, pyIn } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(pyIn(new PyInt(5n), ["", new PyFloat(5)]), true);
 * ```
 */
export function pyIn(x: PyValue, items: readonly PyValue[]): boolean {
  return items.some((item) => pyEquals(item, x));
}

function floatRepr(x: number): string {
  if (x !== x) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  return pyFloatRepr(x);
}

/**
 * Python's `repr(x)` (printable non-ASCII characters kept, as Python 3 does).
 *
 * @param x A Python value.
 * @returns Its repr.
 * @throws {never} Never.
 *
 * @example Quotes, floats and containers as Python writes them
 * ```ts
 * import { PyDict, PyFloat, pyRepr, PyTuple } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * strictEqual(pyRepr(new PyDict([["a", [new PyFloat(1), null, true]]])), "{'a': [1.0, None, True]}");
 * strictEqual(pyRepr(new PyTuple(["it's"])), `("it's",)`);
 * ```
 */
export function pyRepr(x: PyValue): string {
  if (x === null) return "None";
  if (typeof x === "boolean") return x ? "True" : "False";
  if (typeof x === "string") return strRepr(x);
  if (x instanceof PyInt) return x.value.toString();
  if (x instanceof PyFloat) return floatRepr(x.value);
  if (Array.isArray(x)) return `[${x.map(pyRepr).join(", ")}]`;
  if (x instanceof PyTuple) {
    return x.items.length === 1
      ? `(${pyRepr(x.items[0]!)},)`
      : `(${x.items.map(pyRepr).join(", ")})`;
  }
  if (x instanceof PyDict) {
    return `{${x.entries().map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  }
  return x.repr;
}

/**
 * Python's `str(x)`: the string itself for a `str`, else its repr.
 *
 * @param x A Python value.
 * @returns Its str.
 * @throws {never} Never.
 *
 * @example A string is itself, anything else its repr
 * ```ts
 * import { PyInt, pyStr } from "@assay/assay/bfcl";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual([pyStr("a b"), pyStr([new PyInt(1n), "x"])], ["a b", "[1, 'x']"]);
 * ```
 */
export function pyStr(x: PyValue): string {
  return typeof x === "string" ? x : pyRepr(x);
}

// json.dumps writes a str as canonical JSON does (CONTRACT §2, ensure_ascii): printable ASCII as
// itself, the short escapes, every other UTF-16 code unit as `\uXXXX`.
const jsonString = (s: string): string => canonicalValue(s);

function jsonKey(k: PyValue): string {
  if (typeof k === "string") return jsonString(k);
  if (k === null) return '"null"';
  if (typeof k === "boolean") return k ? '"true"' : '"false"';
  if (k instanceof PyFloat) return jsonString(pyJsonDumps(k));
  return jsonString(pyStr(k));
}

/**
 * Python's `json.dumps(x)` with its defaults (`", "` and `": "`, ASCII only, NaN allowed);
 * tuples are written as lists, and other values (`complex`, `bytes`) as their repr in a string,
 * as BFCL's score writer does.
 *
 * @param x A Python value.
 * @returns The JSON text.
 * @throws {never} Never.
 *
 * @example The score file's first line
 * ```ts
 * import { PyDict, PyFloat, PyInt, pyJsonDumps } from "@assay/assay/bfcl";
 * import { strictEqual } from "node:assert/strict";
 *
 * const head = new PyDict([["accuracy", new PyFloat(0.5)], ["correct_count", new PyInt(1n)]]);
 * strictEqual(pyJsonDumps(head), '{"accuracy": 0.5, "correct_count": 1}');
 * ```
 */
export function pyJsonDumps(x: PyValue): string {
  if (x === null) return "null";
  if (typeof x === "boolean") return x ? "true" : "false";
  if (typeof x === "string") return jsonString(x);
  if (x instanceof PyInt) return x.value.toString();
  if (x instanceof PyFloat) return pyFloatRepr(x.value);
  if (Array.isArray(x)) return `[${x.map(pyJsonDumps).join(", ")}]`;
  if (x instanceof PyTuple) return `[${x.items.map(pyJsonDumps).join(", ")}]`;
  if (x instanceof PyDict) {
    return `{${x.entries().map(([k, v]) => `${jsonKey(k)}: ${pyJsonDumps(v)}`).join(", ")}}`;
  }
  return jsonString(x.repr);
}
