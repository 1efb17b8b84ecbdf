/**
 * JSON value helpers for the JSON Schema validator: JSON equality and canonical keys (both
 * iterative, so deep values cannot overflow the stack), Unicode code-point length and an exact
 * `multipleOf` that follows Python jsonschema's verdicts.
 *
 * @module
 */

/** Whether a value is a JSON object (not an array, not null). */
export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/**
 * JSON equality: numbers by value (1 equals 1.0), `true` differs from 1, object key order is
 * irrelevant. Iterative.
 *
 * @param a The first value.
 * @param b The second value.
 * @returns Whether the two values are equal as JSON.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: unknown[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop();
    const x = stack.pop();
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push(x[i], y[i]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const xo = x as Record<string, unknown>, yo = y as Record<string, unknown>;
    const keys = Object.keys(xo);
    if (keys.length !== Object.keys(yo).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(yo, k)) return false;
      stack.push(xo[k], yo[k]);
    }
  }
  return true;
}

class Literal {
  constructor(readonly s: string) {}
}
const CLOSE_ARRAY = new Literal("],");
const CLOSE_OBJECT = new Literal("},");

/**
 * A canonical string for a JSON value (sorted keys), equal for JSON-equal values. Iterative.
 *
 * @param v The value.
 * @returns The canonical key, or `undefined` when the value holds NaN (which equals nothing).
 */
export function jsonKey(v: unknown): string | undefined {
  const out: string[] = [];
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x instanceof Literal) out.push(x.s);
    else if (typeof x === "string") out.push(JSON.stringify(x), ",");
    else if (typeof x === "number") {
      if (x !== x) return undefined;
      out.push(Object.is(x, -0) ? "0" : String(x), ",");
    } else if (x === null || typeof x === "boolean") out.push(String(x), ",");
    else if (Array.isArray(x)) {
      out.push("[");
      stack.push(CLOSE_ARRAY);
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
    } else if (typeof x === "object") {
      out.push("{");
      stack.push(CLOSE_OBJECT);
      const o = x as Record<string, unknown>;
      const keys = Object.keys(o).sort().reverse();
      for (const k of keys) stack.push(o[k], new Literal(JSON.stringify(k) + ":"));
    } else out.push("?", ",");
  }
  return out.join("");
}

/**
 * Whether all items of an array are distinct as JSON. A scalar is its own key and a container its
 * {@link jsonKey}, in a map of their own so that no string can pass for a container; NaN, alone or
 * inside a container, equals nothing (as in Python, whose `==` `const` and `uniqueItems` use).
 *
 * @param xs The array.
 * @returns The index pair `[i, j]` of the first duplicate found, or `undefined` when unique.
 */
export function findDuplicate(xs: readonly unknown[]): [number, number] | undefined {
  const scalars = new Map<unknown, number>(), containers = new Map<unknown, number>();
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    const boxed = typeof x === "object" && x !== null;
    const key = boxed ? jsonKey(x) : x;
    if (key === undefined || key !== key) continue;
    const seen = boxed ? containers : scalars;
    const j = seen.get(key);
    if (j !== undefined) return [j, i];
    seen.set(key, i);
  }
  return undefined;
}

/**
 * The length of a string in Unicode code points (a lone surrogate counts as one).
 *
 * @param s The string.
 * @returns The number of code points.
 */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const VIEW = new DataView(new ArrayBuffer(8));

/** A finite non-zero double as `[odd mantissa, exponent]` with value `m * 2^e`. */
function decompose(x: number): [bigint, number] {
  VIEW.setFloat64(0, Math.abs(x));
  const hi = VIEW.getUint32(0), lo = VIEW.getUint32(4);
  const biased = hi >>> 20;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  while ((m & 1n) === 0n) {
    m >>= 1n;
    e++;
  }
  return [m, e];
}

/**
 * Whether `x` is a multiple of `by`, with Python jsonschema's verdicts: an integral divisor uses the
 * remainder; a fractional divisor uses float division and `int(q) == q`, and falls back to exact
 * rational arithmetic when the quotient overflows.
 *
 * @param x The instance (finite).
 * @param by The divisor (> 0).
 * @returns Whether `x` is a multiple of `by`.
 */
export function isMultipleOf(x: number, by: number): boolean {
  if (Number.isInteger(by)) return x % by === 0;
  const q = x / by;
  if (Number.isFinite(q)) return Number.isInteger(q);
  if (x === 0) return true;
  if (!Number.isFinite(x)) return false;
  const [ma, ea] = decompose(x);
  const [mb, eb] = decompose(by);
  return ma % mb === 0n && ea >= eb;
}
