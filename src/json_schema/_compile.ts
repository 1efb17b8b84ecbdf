/**
 * The JSON Schema compiler: turns every reachable subschema into a closure, iteratively (a work
 * list, so deep schemas cannot overflow the stack) and once per schema object (so `$ref` cycles
 * terminate). `unevaluated*` keywords wrap their node to collect annotations.
 *
 * @module
 */

import { buildCombinators, buildRefs } from "./_applicators.ts";
import { buildConstEnum, buildNumber, buildString, buildType, singleType } from "./_assertions.ts";
import { buildArray, buildObject } from "./_containers.ts";
import { SchemaError } from "./schema_error.ts";
import { Registry, type SchemaInfo } from "./_registry.ts";
import {
  type Builder,
  type Check,
  fail,
  MAX_DEPTH,
  mergeAnn,
  newAnn,
  type Node,
  type Resource,
  subschema,
  tooDeep,
} from "./_runtime.ts";
import { DEFAULT_BASE, escapeToken as tok } from "./_uri.ts";
import { isObject } from "./_values.ts";

/** The keywords of draft 2020-12 this validator knows (assertions, applicators, annotations). */
export const KEYWORDS: readonly string[] = [
  // core
  "$schema $id $ref $anchor $dynamicRef $dynamicAnchor $vocabulary $comment $defs",
  // applicator and unevaluated
  "prefixItems items contains additionalProperties properties patternProperties dependentSchemas",
  "propertyNames if then else allOf anyOf oneOf not unevaluatedItems unevaluatedProperties",
  // validation
  "type const enum multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength",
  "minLength pattern maxItems minItems uniqueItems maxContains minContains maxProperties",
  "minProperties required dependentRequired",
  // meta-data, format-annotation and content
  "title description default deprecated readOnly writeOnly examples format contentEncoding",
  "contentMediaType contentSchema",
].join(" ").split(" "); // one string a vocabulary: shorter in the root's bundle
const KNOWN = new Set(KEYWORDS);
const DIALECTS = new Set([
  "https://json-schema.org/draft/2020-12/schema",
  "https://json-schema.org/draft/2020-12/schema#",
]);

/** Compiler options. */
export interface CompileOptions {
  /** Assert `format` instead of treating it as an annotation. */
  formatAssertion: boolean;
  /** What an unknown keyword in a compiled subschema does. */
  unknownKeywords: "error" | "ignore";
}

const pass: Check = () => true;

function compose(checks: Check[]): Check {
  if (checks.length === 0) return pass;
  if (checks.length === 1) return checks[0]!;
  if (checks.length === 2) {
    const [k0, k1] = checks as [Check, Check];
    return (x, c, ip, kp, a, d) => {
      if (!k0(x, c, ip, kp, a, d)) {
        if (c.errs === null) return false;
        k1(x, c, ip, kp, a, d);
        return false;
      }
      return k1(x, c, ip, kp, a, d);
    };
  }
  return (x, c, ip, kp, a, d) => {
    let ok = true;
    for (let i = 0; i < checks.length; i++) {
      if (!checks[i]!(x, c, ip, kp, a, d)) {
        if (c.errs === null) return false;
        ok = false;
      }
    }
    return ok;
  };
}

/**
 * Compiles one root schema (and whatever it references): made with the options, its
 * `compile(schema)` gives the root node, or throws a SchemaError when the schema cannot be
 * compiled. (These docs are not on the members: the bundler keeps a class member's docs, in the
 * root's budget.)
 */
export class Compiler {
  readonly registry: Registry = new Registry();
  readonly state: { dynamic: boolean } = { dynamic: false };
  readonly #nodes = new Map<object, Node>();
  readonly #work: [Node, Record<string, unknown>, SchemaInfo][] = [];
  readonly #dynamicNames = new Set<string>();
  readonly #roots: Node[] = [];
  readonly #opts: CompileOptions;
  readonly #trueNode: Node;
  readonly #falseNode: Node;

  constructor(opts: CompileOptions) {
    this.#opts = opts;
    const none: Resource = { uri: "", dynamic: new Map() };
    this.#trueNode = { v: pass, resource: none, isRoot: false };
    this.#falseNode = {
      v: (_x, c, ip, kp) => fail(c, kp, ip, "The false schema rejects every value"),
      resource: none,
      isRoot: false,
    };
  }

  compile(schema: unknown): Node {
    this.registry.add(schema, DEFAULT_BASE, "");
    const info = typeof schema === "object" && schema !== null
      ? this.registry.info.get(schema)
      : undefined;
    const root = this.#node(schema, info ?? this.#rootInfo(), "");
    for (;;) {
      while (this.#work.length > 0) this.#build(...this.#work.pop()!);
      let more = false;
      for (const rec of this.registry.resources.values()) {
        for (const name of this.#dynamicNames) {
          const s = rec.dynamicAnchors.get(name);
          if (s === undefined || rec.rt.dynamic.has(name)) continue;
          const sInfo = typeof s === "object" && s !== null ? this.registry.info.get(s) : undefined;
          rec.rt.dynamic.set(name, this.#node(s, sInfo ?? this.#rootInfo(), ""));
          more = true;
        }
      }
      if (!more) break;
    }
    this.state.dynamic = this.registry.hasDynamicRef;
    if (this.state.dynamic) {
      // Resource roots enter the dynamic scope (only when some `$dynamicRef` needs it).
      for (const node of this.#roots) {
        const inner = node.v, res = node.resource;
        node.v = (x, c, ip, kp, a, d) => {
          c.scope.push(res);
          const r = inner(x, c, ip, kp, a, d);
          c.scope.pop();
          return r;
        };
      }
    }
    return root;
  }

  #rootInfo(): SchemaInfo {
    return this.registry.info.values().next().value ?? {
      base: DEFAULT_BASE,
      loc: "",
      resource: this.registry.resources.values().next().value!,
    };
  }

  #node(schema: unknown, info: SchemaInfo, loc: string, keyword?: string): Node {
    if (schema === true) return this.#trueNode;
    if (schema === false) return this.#falseNode;
    if (!isObject(schema)) {
      throw new SchemaError("A schema must be an object or a boolean", keyword, loc);
    }
    const known = this.#nodes.get(schema);
    if (known !== undefined) return known;
    const isRoot = info.resource.schema === schema;
    const node: Node = { v: pass, resource: info.resource.rt, isRoot };
    this.#nodes.set(schema, node);
    this.#work.push([node, schema, info]);
    return node;
  }

  #build(node: Node, s: Record<string, unknown>, info: SchemaInfo): void {
    const loc = info.loc;
    const error = (k: string, msg: string) => new SchemaError(msg, k, `${loc}/${tok(k)}`);
    for (const k of Object.keys(s)) {
      if (!KNOWN.has(k) && this.#opts.unknownKeywords === "error") {
        throw error(k, `Unknown keyword ${JSON.stringify(k)}`);
      }
    }
    if (Object.hasOwn(s, "$schema") && !DIALECTS.has(s.$schema as string)) {
      throw error(
        "$schema",
        `Unsupported $schema ${JSON.stringify(s.$schema)} (only draft 2020-12)`,
      );
    }
    for (const k of ["$ref", "$dynamicRef", "$id", "$anchor", "$dynamicAnchor", "$comment"]) {
      if (Object.hasOwn(s, k) && typeof s[k] !== "string") {
        throw error(k, `The value of ${k} must be a string`);
      }
    }
    const reg = this.registry;
    const b: Builder = {
      schema: s,
      formatAssertion: this.#opts.formatAssertion,
      state: this.state,
      node,
      child: (value, path) => {
        const childInfo = typeof value === "object" && value !== null
          ? reg.info.get(value)
          : undefined;
        const childLoc = `${loc}/${path}`;
        const kw = path.split("/")[0];
        return this.#node(value, childInfo ?? { ...info, loc: childLoc }, childLoc, kw);
      },
      ref: (keyword) => {
        const [target, tInfo] = reg.resolve(
          s[keyword] as string,
          info.base,
          `${loc}/${keyword}`,
          keyword,
        );
        return [this.#node(target, tInfo, tInfo.loc, keyword), target];
      },
      useDynamicAnchor: (name) => {
        this.#dynamicNames.add(name);
      },
      error,
    };
    const checks: Check[] = [];
    // A single `type` is fused into its keyword group when there is one (one call instead of two).
    const single = singleType(b);
    const [tn, tf] = single ?? ["", undefined];
    const num = buildNumber(
      b,
      tn === "number" || tn === "integer" ? tf : undefined,
      tn === "integer",
    );
    const str = buildString(b, tn === "string" ? tf : undefined);
    const arr = buildArray(b, tn === "array" ? tf : undefined);
    const obj = buildObject(b, tn === "object" ? tf : undefined);
    const fused = (tn === "number" || tn === "integer") && num !== null ||
      tn === "string" && str !== null || tn === "array" && arr !== null ||
      tn === "object" && obj !== null;
    const t = buildType(b);
    if (t !== null && !fused) checks.push(t);
    checks.push(...buildConstEnum(b));
    if (num !== null) checks.push(num);
    if (str !== null) checks.push(str);
    checks.push(...buildRefs(b));
    if (arr !== null) checks.push(arr);
    if (obj !== null) checks.push(obj);
    checks.push(...buildCombinators(b));
    node.v = withUnevaluated(b, compose(checks));
    if (node.isRoot) this.#roots.push(node);
  }
}

function withUnevaluated(b: Builder, body: Check): Check {
  const up = subschema(b, "unevaluatedProperties");
  const ui = subschema(b, "unevaluatedItems");
  if (up === undefined && ui === undefined) return body;
  return (x, c, ip, kp, a, d) => {
    if (d > MAX_DEPTH) return tooDeep(ip, kp);
    const isArr = Array.isArray(x);
    const isObj = !isArr && typeof x === "object" && x !== null;
    if (!(up !== undefined && isObj) && !(ui !== undefined && isArr)) {
      return body(x, c, ip, kp, a, d);
    }
    const la = newAnn();
    let ok = body(x, c, ip, kp, la, d);
    if (!ok && c.errs === null) return false;
    const full = c.errs !== null;
    if (isObj && up !== undefined) {
      const o = x as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        if (la.props.has(k)) continue;
        const t = tok(k);
        if (
          !up.v(
            o[k],
            c,
            full ? `${ip}/${t}` : "",
            full ? `${kp}/unevaluatedProperties` : "",
            null,
            d + 1,
          )
        ) {
          if (!full) return false;
          ok = false;
        }
        la.props.add(k);
      }
    }
    if (isArr && ui !== undefined) {
      const xs = x as unknown[];
      for (let i = la.items; i < xs.length; i++) {
        if (la.itemSet !== null && la.itemSet.has(i)) continue;
        if (
          !ui.v(
            xs[i],
            c,
            full ? `${ip}/${i}` : "",
            full ? `${kp}/unevaluatedItems` : "",
            null,
            d + 1,
          )
        ) {
          if (!full) return false;
          ok = false;
        }
      }
      la.items = Infinity;
    }
    if (a !== null && ok) mergeAnn(a, la);
    return ok;
  };
}
