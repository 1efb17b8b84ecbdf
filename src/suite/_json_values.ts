// What an object given in memory holds that no JSON file can: a file's golden, trace or catalog
// is parsed from JSON text, so its numbers are finite and everything in it is a plain object, an
// array, a string, a number, a boolean or null. One built in memory may hold NaN or an infinity
// (which a schema's `number` lets through, and a metric then compares as null or not at all),
// undefined, a function, a bigint, a symbol, a Date or a Map, or itself: each is named here by
// where it is, so that the in-memory checks refuse it as the readers would refuse the file.
// The walk keeps its own stack: a value nested deeper than the call stack goes is walked too, as
// the readers read a line nested that deep.

/** One value met on the walk: where it is (its key under its parent) and its parent. */
interface Place {
  value: unknown;
  key: string | number | undefined;
  parent: Place | undefined;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Where `place` is below the walk's root: `reference_values.v`, `tool_calls[0]["a b"]`. A path of
 * more than 200 characters keeps its first and last members, about 100 characters of each.
 */
function pathOf(place: Place): string {
  const keys: (string | number)[] = [];
  for (let p: Place | undefined = place; p?.key !== undefined; p = p.parent) keys.push(p.key);
  const parts = keys.reverse().map((k, i) =>
    typeof k === "number"
      ? `[${k}]`
      : IDENTIFIER.test(k)
      ? (i === 0 ? k : `.${k}`)
      : `[${JSON.stringify(k)}]`
  );
  const text = parts.join("");
  if (text.length <= 200) return text;
  let head = "";
  for (const p of parts) {
    if (head.length + p.length > 100) break;
    head += p;
  }
  let tail = "";
  for (const p of parts.reverse()) {
    if (tail.length + p.length > 100) break;
    tail = p + tail;
  }
  return `${head}\u2026${tail}`;
}

/** An object JSON holds: a plain one (of this realm or another), or an array. */
function plain(x: object): boolean {
  if (Array.isArray(x)) return true;
  const proto = Object.getPrototypeOf(x);
  return proto === null || proto === Object.prototype ||
    (Object.getPrototypeOf(proto) === null &&
      Object.prototype.toString.call(x) === "[object Object]");
}

/** What a value that JSON cannot hold is, or undefined when it can (an object: if plain). */
function kindOf(x: unknown): string | undefined {
  switch (typeof x) {
    case "number":
      return Number.isFinite(x) ? undefined : String(x);
    case "undefined":
      return "undefined";
    case "function":
    case "bigint":
    case "symbol":
      return `a ${typeof x}`;
    case "object": {
      if (x === null || plain(x)) return undefined;
      const name = (Object.getPrototypeOf(x) as { constructor?: { name?: unknown } } | null)
        ?.constructor?.name;
      return typeof name === "string" && name !== "" ? `a ${name}` : "an object that is not plain";
    }
    default:
      return undefined;
  }
}

/**
 * The first value in `root` (in document order) that a JSON text cannot hold, as `where is what`
 * (`reference_values.v is NaN`, `the golden is a Date`), or undefined: NaN, Infinity or -Infinity,
 * undefined (a member, an element or a hole), a function, a bigint, a symbol, an object that is
 * neither plain nor an array (a Date, a Map, a class's instance, a boxed number), or an object
 * inside itself (`args.self is a cycle back to args`). Keys that are symbols are not read, as
 * JSON.stringify does not read them.
 *
 * @param root The value.
 * @param rootName What to call the root itself in the phrase (`the golden`).
 */
export function nonJson(root: unknown, rootName: string): string | undefined {
  const where = (p: Place) => pathOf(p) || rootName;
  const open = new Set<object>();
  const stack: (Place | { leave: object })[] = [{ value: root, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if ("leave" in top) {
      open.delete(top.leave);
      continue;
    }
    const x = top.value;
    const what = kindOf(x);
    if (what !== undefined) return `${where(top)} is ${what}`;
    if (typeof x !== "object" || x === null) continue;
    if (open.has(x)) {
      let outer = top.parent!;
      while (outer.value !== x) outer = outer.parent!;
      return `${where(top)} is a cycle back to ${where(outer)}`;
    }
    open.add(x);
    stack.push({ leave: x });
    const row = x as Record<string | number, unknown>;
    const keys: (string | number)[] = Array.isArray(x) ? Array.from(x.keys()) : Object.keys(x);
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push({ value: row[keys[i]!], key: keys[i], parent: top });
    }
  }
  return undefined;
}
