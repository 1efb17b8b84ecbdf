/**
 * Builders for the JSON Schema assertion keywords that look at one value: `type`, `const`, `enum`,
 * the numeric keywords, the string keywords and `format`.
 *
 * @module
 */

import { FORMATS } from "./_formats.ts";
import { type Builder, type Check, fail, show, type TypeFail } from "./_runtime.ts";
import {
  codePointLength,
  containerKey,
  interned,
  isMultipleOf,
  isObject,
  jsonEqual,
} from "./_values.ts";
import { LinearRegex } from "../regex/mod.ts";

const TYPE_NAMES = ["null", "boolean", "object", "array", "number", "string", "integer"];

function typeMatches(x: unknown, types: readonly string[]): boolean {
  for (const t of types) {
    switch (t) {
      case "null":
        if (x === null) return true;
        break;
      case "boolean":
        if (typeof x === "boolean") return true;
        break;
      case "object":
        if (isObject(x)) return true;
        break;
      case "array":
        if (Array.isArray(x)) return true;
        break;
      case "number":
        if (typeof x === "number") return true;
        break;
      case "string":
        if (typeof x === "string") return true;
        break;
      case "integer":
        if (Number.isInteger(x)) return true;
        break;
    }
  }
  return false;
}

function typeName(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "array";
  if (typeof x === "number") return Number.isInteger(x) ? "integer" : "number";
  return typeof x;
}

/**
 * The single type named by `type`, when there is exactly one.
 *
 * @param b The schema being compiled.
 * @returns The type name and its failure function, or `undefined`.
 */
export function singleType(b: Builder): [string, TypeFail] | undefined {
  const t = b.schema.type;
  if (typeof t !== "string" || !TYPE_NAMES.includes(t)) return undefined;
  return [t, (x, c, ip, kp) => fail(c, kp + "/type", ip, `Expected ${t}, got ${typeName(x)}`)];
}

/**
 * Builds the `type` check.
 *
 * @param b The schema being compiled.
 * @returns The check, or `null` without `type`.
 */
export function buildType(b: Builder): Check | null {
  if (!Object.hasOwn(b.schema, "type")) return null;
  const t = b.schema.type;
  const types = typeof t === "string" ? [t] : t;
  if (
    !Array.isArray(types) || types.length === 0 ||
    !types.every((x) => typeof x === "string" && TYPE_NAMES.includes(x))
  ) throw b.error("type", "The value of type must be a type name or an array of type names");
  const want = types.join(", ");
  const bad = (x: unknown, c: Parameters<Check>[1], ip: string, kp: string) =>
    fail(c, kp + "/type", ip, `Expected ${want}, got ${typeName(x)}`);
  if (types.length === 1) {
    switch (types[0]) {
      case "string":
        return (x, c, ip, kp) => typeof x === "string" || bad(x, c, ip, kp);
      case "integer":
        return (x, c, ip, kp) => Number.isInteger(x) || bad(x, c, ip, kp);
      case "number":
        return (x, c, ip, kp) => typeof x === "number" || bad(x, c, ip, kp);
      case "object":
        return (x, c, ip, kp) =>
          (typeof x === "object" && x !== null && !Array.isArray(x)) || bad(x, c, ip, kp);
      case "array":
        return (x, c, ip, kp) => Array.isArray(x) || bad(x, c, ip, kp);
      case "boolean":
        return (x, c, ip, kp) => typeof x === "boolean" || bad(x, c, ip, kp);
      case "null":
        return (x, c, ip, kp) => x === null || bad(x, c, ip, kp);
    }
  }
  return (x, c, ip, kp) => typeMatches(x, types as string[]) || bad(x, c, ip, kp);
}

/**
 * Builds the `const` and `enum` checks.
 *
 * @param b The schema being compiled.
 * @returns The checks.
 */
export function buildConstEnum(b: Builder): Check[] {
  const out: Check[] = [];
  if (Object.hasOwn(b.schema, "const")) {
    const v = b.schema.const;
    const msg = `Expected the constant ${show(v)}`;
    if (typeof v !== "object" || v === null) {
      out.push((x, c, ip, kp) => x === v || fail(c, kp + "/const", ip, msg));
    } else out.push((x, c, ip, kp) => jsonEqual(x, v) || fail(c, kp + "/const", ip, msg));
  }
  if (Object.hasOwn(b.schema, "enum")) {
    const vs = b.schema.enum;
    if (!Array.isArray(vs)) throw b.error("enum", "The value of enum must be an array");
    // NaN equals nothing, itself included (a Set would match it).
    const prims = new Set(vs.filter((v) => (typeof v !== "object" || v === null) && v === v));
    const objs = vs.filter((v) => typeof v === "object" && v !== null);
    // Each entry's key, made once: an instance's key, read against the same table, leaves only
    // the entries that can equal it (none holding NaN has a key, nor an instance no entry knows).
    const u = interned();
    const keys = objs.map((v) => containerKey(v, ...u));
    const msg = `Expected one of ${show(vs)}`;
    out.push((x, c, ip, kp) => {
      if (typeof x !== "object" || x === null) {
        return prims.has(x) || fail(c, kp + "/enum", ip, msg);
      }
      const key = containerKey(x, u[0]);
      return objs.some((o, i) => keys[i] === key && jsonEqual(x, o)) ||
        fail(c, kp + "/enum", ip, msg);
    });
  }
  return out;
}

function num(b: Builder, k: string, nonNegInt: boolean): number | undefined {
  if (!Object.hasOwn(b.schema, k)) return undefined;
  const v = b.schema[k];
  if (typeof v !== "number" || !Number.isFinite(v)) {
    throw b.error(k, `The value of ${k} must be a number`);
  }
  if (nonNegInt && (!Number.isInteger(v) || v < 0)) {
    throw b.error(k, `The value of ${k} must be a non-negative integer`);
  }
  return v;
}

/**
 * Builds the numeric checks (`minimum`, `maximum`, `exclusive*`, `multipleOf`) as one check.
 *
 * @param b The schema being compiled.
 * @param typeFail When given, `type: "number"`/`"integer"` is fused in: a non-number fails with it.
 * @param integer Whether the fused type is `integer`.
 * @returns The check, or `null` when there is none.
 */
export function buildNumber(b: Builder, typeFail?: TypeFail, integer = false): Check | null {
  const min = num(b, "minimum", false), max = num(b, "maximum", false);
  const xmin = num(b, "exclusiveMinimum", false), xmax = num(b, "exclusiveMaximum", false);
  const mul = num(b, "multipleOf", false);
  if (mul !== undefined && mul <= 0) throw b.error("multipleOf", "multipleOf must be positive");
  if ([min, max, xmin, xmax, mul].every((v) => v === undefined)) return null;
  return (x, c, ip, kp) => {
    if (typeof x !== "number") return typeFail === undefined || typeFail(x, c, ip, kp);
    let ok = true;
    if (integer && !Number.isInteger(x)) {
      ok = typeFail!(x, c, ip, kp);
      if (c.errs === null) return false;
    }
    if (min !== undefined && x < min) {
      ok = fail(c, kp + "/minimum", ip, `${x} is less than the minimum ${min}`);
      if (c.errs === null) return false;
    }
    if (max !== undefined && x > max) {
      ok = fail(c, kp + "/maximum", ip, `${x} is greater than the maximum ${max}`);
      if (c.errs === null) return false;
    }
    if (xmin !== undefined && x <= xmin) {
      ok = fail(c, kp + "/exclusiveMinimum", ip, `${x} is not greater than ${xmin}`);
      if (c.errs === null) return false;
    }
    if (xmax !== undefined && x >= xmax) {
      ok = fail(c, kp + "/exclusiveMaximum", ip, `${x} is not less than ${xmax}`);
      if (c.errs === null) return false;
    }
    if (mul !== undefined && !isMultipleOf(x, mul)) {
      ok = fail(c, kp + "/multipleOf", ip, `${x} is not a multiple of ${mul}`);
    }
    return ok;
  };
}

/**
 * A compiled `pattern`: ECMAScript's semantics in linear time on any input.
 *
 * Matching always runs on the linear-time engine (`src/regex`, proven against `RegExp`), as a
 * full match of `[\s\S]*(?:p)[\s\S]*`, so no pattern and no hostile string can trigger
 * catastrophic backtracking. A pattern that needs the features the linear engine lacks
 * (lookaround, backreferences) is refused when the schema is compiled.
 */
export interface SchemaPattern {
  /** The pattern's source. */
  readonly source: string;
  /** Whether the pattern matches somewhere in `s`. */
  test(s: string): boolean;
}

/**
 * Tests a compiled pattern on a string.
 *
 * @param re The pattern.
 * @param s The string.
 * @returns Whether the pattern matches somewhere in `s`.
 */
export function patternMatches(re: SchemaPattern, s: string): boolean {
  return re.test(s);
}

/**
 * Compiles a `pattern` (ECMAScript, with the `u` flag when the pattern allows it).
 *
 * @param b The schema being compiled.
 * @param keyword The keyword, for the error.
 * @param source The pattern.
 * @returns The compiled pattern.
 * @throws {SchemaError} When the pattern is not a valid regular expression.
 */
export function compilePattern(b: Builder, keyword: string, source: unknown): SchemaPattern {
  if (typeof source !== "string") {
    throw b.error(keyword, `The value of ${keyword} must be a string`);
  }
  let flags = "u";
  try {
    new RegExp(source, "u");
  } catch {
    try {
      new RegExp(source);
      flags = "";
    } catch {
      throw b.error(keyword, `Invalid regular expression ${JSON.stringify(source)}`);
    }
  }
  let linear: LinearRegex;
  try {
    linear = new LinearRegex(`[\\s\\S]*(?:${source})[\\s\\S]*`, flags);
  } catch (e) {
    throw b.error(
      keyword,
      `The regular expression ${JSON.stringify(source)} cannot be matched in linear time ` +
        `(${e instanceof Error ? e.message : String(e)}); lookaround and backreferences are ` +
        "refused, so that no output can make validation take exponential time",
    );
  }
  return { source, test: (s) => linear.fullMatch(s) };
}

/**
 * Builds the string checks (`minLength`, `maxLength`, `pattern`, `format`) as one check.
 *
 * @param b The schema being compiled.
 * @param typeFail When given, `type: "string"` is fused in: a non-string fails with it.
 * @returns The check, or `null` when there is none.
 */
export function buildString(b: Builder, typeFail?: TypeFail): Check | null {
  const minL = num(b, "minLength", true), maxL = num(b, "maxLength", true);
  const re = Object.hasOwn(b.schema, "pattern")
    ? compilePattern(b, "pattern", b.schema.pattern)
    : undefined;
  let fmt: ((s: string) => boolean) | undefined;
  const fname = b.schema.format;
  if (Object.hasOwn(b.schema, "format")) {
    if (typeof fname !== "string") throw b.error("format", "The value of format must be a string");
    if (b.formatAssertion) fmt = FORMATS.get(fname);
  }
  if (minL === undefined && maxL === undefined && re === undefined && fmt === undefined) {
    return null;
  }
  return (x, c, ip, kp) => {
    if (typeof x !== "string") return typeFail === undefined || typeFail(x, c, ip, kp);
    let ok = true;
    if (
      minL !== undefined && (x.length < minL || (x.length < 2 * minL && codePointLength(x) < minL))
    ) {
      ok = fail(c, kp + "/minLength", ip, `String is shorter than ${minL} characters`);
      if (c.errs === null) return false;
    }
    if (maxL !== undefined && x.length > maxL && codePointLength(x) > maxL) {
      ok = fail(c, kp + "/maxLength", ip, `String is longer than ${maxL} characters`);
      if (c.errs === null) return false;
    }
    if (re !== undefined && !patternMatches(re, x)) {
      ok = fail(c, kp + "/pattern", ip, `String does not match the pattern ${show(re.source)}`);
      if (c.errs === null) return false;
    }
    if (fmt !== undefined && !fmt(x)) {
      ok = fail(c, kp + "/format", ip, `String is not a valid ${fname}`);
    }
    return ok;
  };
}
