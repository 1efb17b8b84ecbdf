// A decoded Python value written as the Python oracles write theirs (tests/bfcl/
// _python_calls_oracle.py's typed()): each value tagged with its type, floats by their repr.
import {
  PyDict,
  PyFloat,
  PyInt,
  type PyOther,
  pyRepr,
  PyTuple,
  type PyValue,
} from "../../src/bfcl/mod.ts";

/** The value as `["int", "5"]`, `["float", "0.1"]`, `["list", [...]]` and so on. */
export function typed(v: PyValue): unknown {
  if (v === null) return ["none"];
  if (typeof v === "boolean") return ["bool", v];
  if (typeof v === "string") return ["str", v];
  if (v instanceof PyInt) return ["int", v.value.toString()];
  if (v instanceof PyFloat) return ["float", pyRepr(v)];
  if (Array.isArray(v)) return ["list", v.map(typed)];
  if (v instanceof PyTuple) return ["tuple", v.items.map(typed)];
  if (v instanceof PyDict) return ["dict", v.entries().map(([k, x]) => [typed(k), typed(x)])];
  return [(v as PyOther).typeName];
}
