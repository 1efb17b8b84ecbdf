// Namespaces in XML 1.0 (Third Edition) for one start tag: QName syntax (§3), the reserved
// `xml`/`xmlns` prefixes and names (§3), namespace names that are URI references (§2.2),
// declared prefixes (§5, "Namespace constraint: Prefix Declared") and attributes unique after
// expansion (§6.3, "Namespace constraint: Attributes Unique").
import { codePointAt, isNameStartChar } from "./_chars.ts";
import { excerpt } from "./_fault.ts";
import { isUriReference } from "./_uri.ts";

const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

/** A namespace violation found in a start tag. */
export interface NamespaceFault {
  /** `namespace`, or `duplicate-attribute` for two attributes with the same literal name. */
  code: "namespace" | "duplicate-attribute";
  /** Where the offending name starts, in UTF-16 units. */
  offset: number;
  /** What is wrong. */
  message: string;
}

/**
 * The in-scope prefix bindings, each tagged with the depth of the element that declared it:
 * `bind(prefix, uri, depth)` binds `prefix` to `uri` for the element at `depth` and its content,
 * `lookup(prefix)` is the namespace name bound to `prefix` (or undefined), and `leave(depth)`
 * drops the bindings of the element at `depth` once it has ended. (These docs are not on the
 * members: the bundler keeps a class member's docs, in the root's budget.)
 */
export class NamespaceScope {
  readonly #bindings = new Map<string, string[]>();
  readonly #declared: string[] = [];
  readonly #depths: number[] = [];

  bind(prefix: string, uri: string, depth: number): void {
    let stack = this.#bindings.get(prefix);
    if (stack === undefined) this.#bindings.set(prefix, stack = []);
    stack.push(uri);
    this.#declared.push(prefix);
    this.#depths.push(depth);
  }

  lookup(prefix: string): string | undefined {
    if (prefix === "xml") return XML_NS;
    const stack = this.#bindings.get(prefix);
    return stack === undefined ? undefined : stack[stack.length - 1];
  }

  leave(depth: number): void {
    const depths = this.#depths;
    while (depths.length > 0 && depths[depths.length - 1]! >= depth) {
      depths.pop();
      this.#bindings.get(this.#declared.pop()!)!.pop();
    }
  }
}

/** The colon of a QName (-1 for none), or -2 if `name` is not a QName. */
function qnameColon(name: string): number {
  const c = name.indexOf(":");
  if (c < 0) return -1;
  if (c === 0 || c === name.length - 1 || name.indexOf(":", c + 1) >= 0) return -2;
  return isNameStartChar(codePointAt(name, c + 1)) ? c : -2;
}

/**
 * Checks a start tag's names and namespace declarations, binding the declared prefixes.
 *
 * @param scope The prefix bindings.
 * @param depth The element's depth (0 for the root).
 * @param at Where the element name starts.
 * @param qname The element name.
 * @param names The attribute names, in order.
 * @param offsets Where each attribute starts.
 * @param values For a namespace declaration (`xmlns`, `xmlns:p`) its normalized value, else null.
 * @returns The first fault, or null.
 */
export function checkStartTagNamespaces(
  scope: NamespaceScope,
  depth: number,
  at: number,
  qname: string,
  names: readonly string[],
  offsets: readonly number[],
  values: readonly (string | null)[],
): NamespaceFault | null {
  const bad = (offset: number, message: string): NamespaceFault => ({
    code: "namespace",
    offset,
    message,
  });
  const k = names.length;
  for (let a = 0; a < k; a++) {
    const value = values[a];
    if (value === null || value === undefined) continue;
    const name = names[a]!;
    if (qnameColon(name) === -2) return bad(offsets[a]!, `${excerpt(name)} is not a QName`);
    const prefix = name === "xmlns" ? "" : name.slice(6);
    if (prefix === "xmlns") return bad(offsets[a]!, "The prefix xmlns may not be declared");
    if (value === XMLNS_NS) return bad(offsets[a]!, "The xmlns namespace name may not be declared");
    if (prefix === "xml") {
      if (value !== XML_NS) return bad(offsets[a]!, "The prefix xml is bound to the wrong name");
      continue;
    }
    if (value === XML_NS) return bad(offsets[a]!, "The xml namespace name needs the prefix xml");
    if (value === "") {
      if (prefix === "") continue;
      return bad(offsets[a]!, `Empty namespace name for the prefix ${excerpt(prefix)}`);
    }
    if (!isUriReference(value)) {
      return bad(
        offsets[a]!,
        `Namespace name ${JSON.stringify(excerpt(value))} is not a URI reference`,
      );
    }
    if (prefix !== "") scope.bind(prefix, value, depth);
  }
  // Attributes Unique (XML 1.0 §3.1) on the literal names.
  if (k > 1) {
    const seen = new Set<string>();
    for (let a = 0; a < k; a++) {
      if (seen.has(names[a]!)) {
        return {
          code: "duplicate-attribute",
          offset: offsets[a]!,
          message: `Duplicate attribute ${excerpt(names[a]!)}`,
        };
      }
      seen.add(names[a]!);
    }
  }
  const colon = qnameColon(qname);
  if (colon === -2) return bad(at, `${excerpt(qname)} is not a QName`);
  if (colon > 0) {
    const prefix = qname.slice(0, colon);
    if (prefix === "xmlns") return bad(at, "An element may not have the prefix xmlns");
    if (scope.lookup(prefix) === undefined) return bad(at, `Undeclared prefix ${excerpt(prefix)}`);
  }
  let expanded: Set<string> | undefined;
  for (let a = 0; a < k; a++) {
    if (values[a] !== null) continue;
    const name = names[a]!;
    const c = qnameColon(name);
    if (c === -2) return bad(offsets[a]!, `${excerpt(name)} is not a QName`);
    if (c < 0) continue;
    const uri = scope.lookup(name.slice(0, c));
    if (uri === undefined) {
      return bad(offsets[a]!, `Undeclared prefix ${excerpt(name.slice(0, c))}`);
    }
    const key = `${uri} ${name.slice(c + 1)}`; // a namespace name has no space
    expanded ??= new Set();
    if (expanded.has(key)) {
      return bad(
        offsets[a]!,
        `Attribute ${excerpt(name)} duplicates another after namespace expansion`,
      );
    }
    expanded.add(key);
  }
  return null;
}
