/**
 * JSON value helpers for the JSON Schema validator: JSON equality and container ids (both
 * iterative, so deep values cannot overflow the stack), Unicode code-point length and an exact
 * `multipleOf` that follows Python jsonschema's verdicts.
 *
 * @module
 */
import { decompose } from "../stats/mod.ts";

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

/** Interned containers: ids by key, and the id of each container met so far (see containerKey). */
export type Interned = [Map<string, string>, WeakMap<object, string | undefined>];

/** An empty {@link Interned}. */
export const interned = (): Interned => [new Map(), new WeakMap()];

// A value's part of its container's key: a container's id, a scalar's JSON (numbers by value, so
// 1.0 is 1 and -0 is 0), "?" for what JSON has not; undefined for NaN or a container holding it.
function tokenOf(y: unknown, ids: WeakMap<object, string | undefined>): string | undefined {
  if (typeof y === "object" && y !== null) return ids.get(y);
  if (typeof y === "string") return JSON.stringify(y);
  if (y === null || typeof y === "boolean" || typeof y === "number") {
    return y === y ? String(y) : undefined;
  }
  return "?";
}

/**
 * The key of a container: its kind and its items' tokens, members by sorted key, where a
 * container inside is a token of its own, interned bottom-up (`#` and a number). JSON-equal
 * containers get one key (key order aside), and each container inside is keyed once, however deep
 * it lies. Iterative.
 *
 * @param v The container.
 * @param table The ids by key so far.
 * @param known The id of each container met so far, which holds while the value is unchanged.
 *   Without it the table is only read, so a container inside that it lacks has no id.
 * @returns The key, or `undefined` when the value holds NaN (which equals nothing) or a container
 *   that a table only read lacks.
 */
export function containerKey(
  v: object,
  table: Interned[0],
  known?: Interned[1],
): string | undefined {
  const ids = known ?? new WeakMap<object, string | undefined>();
  const stack = [v];
  for (;;) {
    const x = stack.at(-1)!;
    const keys = Array.isArray(x) ? undefined : Object.keys(x).sort();
    const items: unknown[] = keys?.map((k) => (x as Record<string, unknown>)[k]) ?? x as unknown[];
    // Its containers first.
    const n = stack.length;
    for (const y of items) if (typeof y === "object" && y !== null && !ids.has(y)) stack.push(y);
    if (stack.length > n) continue;
    stack.pop();
    let key: string | undefined = keys ? "{" : "[";
    for (let i = 0; i < items.length && key; i++) {
      const t = tokenOf(items[i], ids);
      key = t && key + (keys ? JSON.stringify(keys[i]) + ":" : "") + t + ",";
    }
    if (x === v) return key;
    ids.set(x, key && (table.get(key) ?? (known && table.set(key, "#" + table.size).get(key))));
  }
}

/**
 * Whether all items of an array are distinct as JSON. A scalar is its own key and a container its
 * {@link containerKey}, in a map of their own so that no scalar can pass for a container; NaN, alone
 * or inside a container, equals nothing (as in Python, whose `==` `const` and `uniqueItems` use).
 *
 * @param xs The array.
 * @param c The validation, whose ids so far (`u`, made at its first container) nested arrays
 *   reuse.
 * @returns The index pair `[i, j]` of the first duplicate found, or `undefined` when unique.
 */
export function findDuplicate(
  xs: readonly unknown[],
  c: { u?: Interned },
): [number, number] | undefined {
  const scalars = new Map<unknown, number>(), containers = new Map<unknown, number>();
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    const boxed = typeof x === "object" && x !== null;
    const key = boxed ? containerKey(x, ...c.u ??= interned()) : x;
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
  // x = ma·2^ea and by = mb·2^eb with odd mantissas below 2^53, whose remainder is exact.
  const [ma, ea] = decompose(Math.abs(x));
  const [mb, eb] = decompose(by);
  return ma % mb === 0 && ea >= eb;
}
