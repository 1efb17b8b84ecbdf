/**
 * Canonical JSON (`assay.canonical.v1`) of a plain JS value, written directly rather than through
 * `JSON.stringify`, which would turn NaN into `null`, drop `undefined` members, call `toJSON`
 * and write a `Date` or a `Map` as if it were JSON.
 *
 * @module
 */
import { canonicalString } from "./_canonical_string.ts";
import { compareCodePoints } from "./code_point_order.ts";
import { pyFloatRepr } from "./float_repr.ts";
import { MAX_DEPTH } from "./limits.ts";
import { checkOptions } from "./engine.ts";

/** Options of {@linkcode canonicalValue}. */
export interface CanonicalValueOptions {
  /**
   * What NaN, Infinity and -Infinity become: `write` (default) writes `NaN`, `Infinity` and
   * `-Infinity`, the canonical form of the literals the contract accepts (as Python's `json`
   * does); `throw` refuses them with a TypeError, like the other values JSON has no form for.
   */
  nonFinite?: "write" | "throw";
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Where a value sits, for messages: `$`, `$.a`, `$[2]`, `$["a b"]`. */
function pathText(path: readonly (string | number)[]): string {
  let s = "$";
  for (const p of path) {
    s += typeof p === "number" ? `[${p}]` : IDENTIFIER.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`;
  }
  return s.length > 200 ? `${s.slice(0, 100)}\u2026${s.slice(-100)}` : s;
}

function isPlainObject(x: object): boolean {
  const proto = Object.getPrototypeOf(x);
  if (proto === null || proto === Object.prototype) return true;
  // A plain object of another realm: its prototype is that realm's Object.prototype.
  return Object.getPrototypeOf(proto) === null &&
    Object.prototype.toString.call(x) === "[object Object]";
}

function describe(x: object): string {
  const name = (Object.getPrototypeOf(x) as { constructor?: { name?: unknown } } | null)
    ?.constructor?.name;
  return typeof name === "string" && name !== "" ? `a ${name}` : "a non-plain object";
}

/** Whether no key has a unit from U+D800 up: then code-unit order is code-point order. */
function belowSurrogates(keys: readonly string[]): boolean {
  for (const k of keys) {
    for (let i = 0; i < k.length; i++) if (k.charCodeAt(i) >= 0xd800) return false;
  }
  return true;
}

class Writer {
  readonly path: (string | number)[] = [];
  readonly open = new Set<object>();

  constructor(readonly nonFinite: "write" | "throw") {}

  refuse(what: string): never {
    throw new TypeError(`Not JSON at ${pathText(this.path)}: ${what}`);
  }

  value(x: unknown, depth: number): string {
    switch (typeof x) {
      case "string":
        return canonicalString(x);
      case "number":
        return this.number(x);
      case "boolean":
        return x ? "true" : "false";
      case "object":
        return x === null ? "null" : this.container(x, depth + 1);
      case "undefined":
        return this.refuse("undefined");
      default:
        return this.refuse(`a ${typeof x}`);
    }
  }

  number(x: number): string {
    if (Number.isFinite(x)) {
      // JSON.stringify's lexeme, read as the contract reads a number lexeme: an integer keeps
      // its digits (-0 is 0), a fraction or an exponent makes a float, written as Python does.
      const lexeme = String(x);
      return lexeme.includes(".") || lexeme.includes("e") ? pyFloatRepr(x) : lexeme;
    }
    if (this.nonFinite === "throw") this.refuse(String(x));
    return x !== x ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
  }

  container(x: object, depth: number): string {
    if (depth > MAX_DEPTH) this.refuse(`nesting deeper than ${MAX_DEPTH}`);
    if (this.open.has(x)) this.refuse("a cycle (a value that contains itself)");
    this.open.add(x);
    let out: string;
    if (Array.isArray(x)) {
      out = "[";
      for (let i = 0; i < x.length; i++) {
        this.path.push(i);
        out += (i > 0 ? "," : "") + this.value(x[i], depth);
        this.path.pop();
      }
      out += "]";
    } else {
      if (!isPlainObject(x)) this.refuse(describe(x));
      if (
        Object.getOwnPropertySymbols(x).some((s) =>
          Object.prototype.propertyIsEnumerable.call(x, s)
        )
      ) {
        this.refuse("an object with a symbol key");
      }
      const keys = Object.keys(x);
      if (belowSurrogates(keys)) keys.sort();
      else keys.sort(compareCodePoints);
      out = "{";
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        this.path.push(k);
        out += (i > 0 ? "," : "") + canonicalString(k) + ":" +
          this.value((x as Record<string, unknown>)[k], depth);
        this.path.pop();
      }
      out += "}";
    }
    this.open.delete(x);
    return out;
  }
}

/**
 * The canonical JSON text of a plain JS value: the text `canonicalize` gives for the value's
 * JSON text, written directly.
 *
 * Objects (plain ones, with string keys) are written with their keys sorted by code point,
 * strings with the canonical escapes (ASCII only, `\uXXXX` in lowercase hex, each half of a
 * surrogate pair and each lone surrogate escaped), `true`, `false` and `null` as they are.
 * A number is written as `JSON.stringify` writes it and then read as a JSON number lexeme is:
 * an integral number is an integer (`1` for `1.0`, which a JS number cannot tell apart; `-0` is
 * `0`) and any other is a float in Python's `repr` (`1.5`, `1e+21`, `1e-07`). A JSON text keeps
 * `1.0` apart from `1`: canonicalize the text when that matters. NaN and the infinities are
 * written as `NaN`, `Infinity` and `-Infinity` unless `nonFinite` is `throw`.
 *
 * `toJSON` is never called. Everything else JSON has no form for is refused with a TypeError
 * naming where it is (`$`, `$.a[2]`): `undefined` (also as a member or an array hole),
 * functions, symbols, bigints, objects that are not plain (a `Date`, a `Map`, a class instance,
 * a boxed primitive), objects with a symbol key, cycles, and nesting deeper than 512 containers.
 *
 * @param value A JSON value made of plain objects, arrays, strings, numbers, booleans and null.
 * @param options What NaN and the infinities become.
 * @returns The canonical JSON text.
 * @throws {TypeError} If the value, or a value inside it, is not JSON.
 * @throws {RangeError} If `nonFinite` is neither `write` nor `throw`.
 *
 * @example Keys in code-point order, numbers as the contract reads them
 * ```ts
 * import { canonicalValue } from "@assay/assay/engine";
 * import { strictEqual, throws } from "node:assert/strict";
 *
 * strictEqual(
 *   canonicalValue({ b: [1.0, 0.5, 1e21], a: "é", "😀": null }),
 *   '{"a":"\\u00e9","b":[1,0.5,1e+21],"\\ud83d\\ude00":null}',
 * );
 * strictEqual(canonicalValue({ x: NaN }), '{"x":NaN}');
 * throws(() => canonicalValue({ x: NaN }, { nonFinite: "throw" }), /Not JSON at \$\.x: NaN/);
 * throws(() => canonicalValue({ a: [1, undefined] }), /Not JSON at \$\.a\[1\]: undefined/);
 * throws(() => canonicalValue({ when: new Date(0) }), /Not JSON at \$\.when: a Date/);
 * ```
 */
export function canonicalValue(value: unknown, options?: CanonicalValueOptions): string {
  checkOptions(options);
  const nonFinite = options?.nonFinite ?? "write";
  if (nonFinite !== "write" && nonFinite !== "throw") {
    throw new RangeError(
      `Unknown nonFinite option ${JSON.stringify(nonFinite)}: expected write or throw`,
    );
  }
  return new Writer(nonFinite).value(value, 0);
}
