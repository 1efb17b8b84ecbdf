/**
 * The schema registry: walks schema documents (iteratively) to find resources (`$id`), anchors
 * (`$anchor`, `$dynamicAnchor`) and the base URI and location of every subschema, and resolves
 * references against them. The draft 2020-12 metaschemas are loaded on first need.
 *
 * @module
 */

import { SchemaError } from "./schema_error.ts";
import { metaschemaDocuments } from "./_metaschema.ts";
import type { Resource } from "./_runtime.ts";
import { escapeToken as tok, fragmentTokens, resolveUri, splitFragment } from "./_uri.ts";

/** Keywords whose value is one subschema. */
export const SINGLE_SCHEMA_KEYWORDS: readonly string[] = [
  "additionalProperties",
  "propertyNames",
  "items",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
];
/** Keywords whose value is an array of subschemas. */
export const ARRAY_SCHEMA_KEYWORDS: readonly string[] = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value is an object of subschemas. */
export const MAP_SCHEMA_KEYWORDS: readonly string[] = [
  "properties",
  "patternProperties",
  "$defs",
  "dependentSchemas",
];

/** A schema resource as registered. */
export interface ResourceRecord {
  /** The resource's root schema. */
  schema: unknown;
  /** Its location (a JSON pointer from its document's root, prefixed for other documents). */
  loc: string;
  /** Its `$dynamicAnchor`s, by name. */
  dynamicAnchors: Map<string, unknown>;
  /** The runtime resource. */
  rt: Resource;
}

/** Where a walked subschema is. */
export interface SchemaInfo {
  /** Its base URI. */
  base: string;
  /** Its location, as a JSON pointer (prefixed by the document URI outside the root document). */
  loc: string;
  /** Its resource. */
  resource: ResourceRecord;
}

/**
 * The resources, anchors and subschema locations of the documents walked. (Its members' docs are
 * here: the bundler keeps a class member's docs, in the root's budget.)
 *
 * - `resources`: resources by absolute URI (no fragment); `anchors`: anchors by `uri#name`;
 *   `info`: the walked subschemas; `hasDynamicRef`: whether any walked schema uses `$dynamicRef`.
 * - `add(doc, base, loc)` walks a document and registers what it defines: `base` is the base URI
 *   for a root without an absolute `$id`, `loc` the location prefix for messages.
 * - `resolve(ref, base, at, keyword)` resolves the reference `ref` that appears under `base`:
 *   the target subschema and where it is. It throws a SchemaError naming `keyword` and `at` when
 *   the reference cannot be resolved.
 */
export class Registry {
  readonly resources: Map<string, ResourceRecord> = new Map();
  readonly anchors: Map<string, unknown> = new Map();
  readonly info: Map<object, SchemaInfo> = new Map();
  hasDynamicRef = false;
  #metaLoaded = false;

  add(doc: unknown, base: string, loc: string): void {
    let rootUri = base;
    if (typeof doc === "object" && doc !== null && Object.hasOwn(doc, "$id")) {
      const id = (doc as Record<string, unknown>).$id;
      const r = typeof id === "string" ? resolveUri(id, base) : undefined;
      if (r !== undefined) rootUri = splitFragment(r)[0];
    }
    const root = this.#resource(doc, rootUri, loc);
    const stack: [unknown, string, string, ResourceRecord][] = [[doc, root.rt.uri, loc, root]];
    while (stack.length > 0) {
      const [s, b0, l, r0] = stack.pop()!;
      if (typeof s !== "object" || s === null || Array.isArray(s) || this.info.has(s)) continue;
      const o = s as Record<string, unknown>;
      let b = b0, r = r0;
      if (typeof o.$id === "string" && Object.hasOwn(o, "$id") && s !== doc) {
        const uri = resolveUri(o.$id, b0);
        if (uri !== undefined) {
          b = splitFragment(uri)[0];
          r = this.#resource(s, b, l);
        }
      }
      this.info.set(s, { base: b, loc: l, resource: r });
      if (Object.hasOwn(o, "$dynamicRef")) this.hasDynamicRef = true;
      if (Object.hasOwn(o, "$anchor") && typeof o.$anchor === "string") {
        this.anchors.set(`${b}#${o.$anchor}`, s);
      }
      if (Object.hasOwn(o, "$dynamicAnchor") && typeof o.$dynamicAnchor === "string") {
        this.anchors.set(`${b}#${o.$dynamicAnchor}`, s);
        r.dynamicAnchors.set(o.$dynamicAnchor, s);
      }
      for (const k of SINGLE_SCHEMA_KEYWORDS) {
        if (Object.hasOwn(o, k)) stack.push([o[k], b, `${l}/${k}`, r]);
      }
      for (const k of ARRAY_SCHEMA_KEYWORDS) {
        const v = Object.hasOwn(o, k) ? o[k] : undefined;
        if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, b, `${l}/${k}/${i}`, r]));
      }
      for (const k of MAP_SCHEMA_KEYWORDS) {
        const v = Object.hasOwn(o, k) ? o[k] : undefined;
        if (typeof v === "object" && v !== null && !Array.isArray(v)) {
          for (const [n, x] of Object.entries(v)) stack.push([x, b, `${l}/${k}/${tok(n)}`, r]);
        }
      }
    }
  }

  #resource(s: unknown, uri: string, loc: string): ResourceRecord {
    const existing = this.resources.get(uri);
    if (existing !== undefined) return existing;
    const rec: ResourceRecord = {
      schema: s,
      loc,
      dynamicAnchors: new Map(),
      rt: { uri, dynamic: new Map() },
    };
    this.resources.set(uri, rec);
    return rec;
  }

  resolve(ref: string, base: string, at: string, keyword: string): [unknown, SchemaInfo] {
    const uri = resolveUri(ref, base);
    const bad = (why: string) =>
      new SchemaError(`Cannot resolve ${keyword} ${JSON.stringify(ref)}: ${why}`, keyword, at);
    if (uri === undefined) throw bad("not a valid URI reference");
    const [key, frag] = splitFragment(uri);
    let res = this.resources.get(key);
    if (res === undefined && !this.#metaLoaded && key.startsWith("https://json-schema.org/")) {
      this.#metaLoaded = true;
      for (const d of metaschemaDocuments()) {
        this.add(
          d,
          "https://json-schema.org/draft/2020-12/schema",
          `${(d as { $id: string }).$id}#`,
        );
      }
      res = this.resources.get(key);
    }
    if (res === undefined) throw bad(`no schema resource ${JSON.stringify(key)} is known`);
    let target: unknown;
    let loc: string;
    if (frag === "" || frag.startsWith("/") || frag.startsWith("%2F") || frag.startsWith("%2f")) {
      const tokens = fragmentTokens(frag);
      if (tokens === undefined) throw bad("malformed percent-encoding");
      target = res.schema;
      loc = res.loc;
      for (const t of tokens) {
        if (Array.isArray(target) && /^(?:0|[1-9][0-9]*)$/.test(t) && Number(t) < target.length) {
          target = target[Number(t)];
        } else if (
          typeof target === "object" && target !== null && !Array.isArray(target) &&
          Object.hasOwn(target, t)
        ) target = (target as Record<string, unknown>)[t];
        else throw bad(`no value at pointer ${JSON.stringify(frag)}`);
        loc += "/" + tok(t);
      }
    } else {
      target = this.anchors.get(`${key}#${decodeURIComponentSafe(frag)}`);
      if (target === undefined) throw bad(`no anchor ${JSON.stringify(frag)}`);
      loc = "";
    }
    const known = typeof target === "object" && target !== null ? this.info.get(target) : undefined;
    if (known !== undefined) return [target, known];
    return [target, { base: key, loc, resource: res }];
  }
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
