/**
 * Builders for the JSON Schema array and object keywords: `prefixItems`, `items`, `contains`,
 * `minItems`/`maxItems`/`uniqueItems`, `properties`, `patternProperties`, `additionalProperties`,
 * `propertyNames`, `required`, `dependentRequired`, `dependentSchemas`, `min/maxProperties`.
 *
 * @module
 */

import { compilePattern, patternMatches } from "./_assertions.ts";
import {
  type Builder,
  type Check,
  fail,
  MAX_DEPTH,
  type Node,
  schemaArray,
  subschema,
  tooDeep,
  type TypeFail,
} from "./_runtime.ts";
import { escapeToken as tok } from "./_uri.ts";
import { findDuplicate, isObject } from "./_values.ts";

function count(b: Builder, k: string): number | undefined {
  if (!Object.hasOwn(b.schema, k)) return undefined;
  const v = b.schema[k];
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    throw b.error(k, `The value of ${k} must be a non-negative integer`);
  }
  return v;
}

function schemaMap(b: Builder, k: string): [string, Node][] | undefined {
  if (!Object.hasOwn(b.schema, k)) return undefined;
  const v = b.schema[k];
  if (!isObject(v)) throw b.error(k, `The value of ${k} must be an object of schemas`);
  return Object.keys(v).map((n) => [n, b.child(v[n], `${k}/${tok(n)}`)]);
}

/**
 * Builds the array keywords as one check.
 *
 * @param b The schema being compiled.
 * @param typeFail When given, `type: "array"` is fused in: a non-array fails with it.
 * @returns The check, or `null` when there is none.
 */
export function buildArray(b: Builder, typeFail?: TypeFail): Check | null {
  const s = b.schema;
  const minI = count(b, "minItems"), maxI = count(b, "maxItems");
  const uniq = Object.hasOwn(s, "uniqueItems") ? s.uniqueItems : false;
  if (typeof uniq !== "boolean") throw b.error("uniqueItems", "uniqueItems must be a boolean");
  const prefix = schemaArray(b, "prefixItems") ?? [];
  const items = subschema(b, "items");
  const contains = subschema(b, "contains");
  const minC = count(b, "minContains") ?? 1, maxC = count(b, "maxContains");
  if (
    minI === undefined && maxI === undefined && !uniq && prefix.length === 0 &&
    items === undefined && contains === undefined
  ) return null;
  const np = prefix.length;
  return (x, c, ip, kp, a, d) => {
    if (!Array.isArray(x)) return typeFail === undefined || typeFail(x, c, ip, kp);
    if (d > MAX_DEPTH) return tooDeep(ip, kp);
    const full = c.errs !== null;
    let ok = true;
    const n = x.length;
    if (minI !== undefined && n < minI) {
      ok = fail(c, kp + "/minItems", ip, `Array has fewer than ${minI} items`);
      if (!full) return false;
    }
    if (maxI !== undefined && n > maxI) {
      ok = fail(c, kp + "/maxItems", ip, `Array has more than ${maxI} items`);
      if (!full) return false;
    }
    if (uniq && n > 1) {
      const dup = findDuplicate(x, c);
      if (dup !== undefined) {
        ok = fail(c, kp + "/uniqueItems", ip, `Items ${dup[0]} and ${dup[1]} are equal`);
        if (!full) return false;
      }
    }
    const m = np < n ? np : n;
    for (let i = 0; i < m; i++) {
      if (
        !prefix[i]!.v(
          x[i],
          c,
          full ? `${ip}/${i}` : "",
          full ? `${kp}/prefixItems/${i}` : "",
          null,
          d + 1,
        )
      ) {
        if (!full) return false;
        ok = false;
      }
    }
    if (a !== null && m > a.items) a.items = m;
    if (items !== undefined && n > np) {
      const ikp = full ? kp + "/items" : "";
      for (let i = np; i < n; i++) {
        if (!items.v(x[i], c, full ? `${ip}/${i}` : "", ikp, null, d + 1)) {
          if (!full) return false;
          ok = false;
        }
      }
      if (a !== null) a.items = Infinity;
    }
    if (contains !== undefined) {
      const saved = c.errs;
      c.errs = null;
      let hits = 0;
      const all = a !== null || maxC !== undefined;
      for (let i = 0; i < n; i++) {
        if (contains.v(x[i], c, "", "", null, d + 1)) {
          hits++;
          if (a !== null) (a.itemSet ??= new Set()).add(i);
          if (!all && hits >= minC) break;
        }
      }
      c.errs = saved;
      if (hits < minC) {
        ok = fail(
          c,
          kp + (Object.hasOwn(s, "minContains") ? "/minContains" : "/contains"),
          ip,
          `Array has fewer than ${minC} items matching contains`,
        );
        if (!full) return false;
      }
      if (maxC !== undefined && hits > maxC) {
        ok = fail(
          c,
          kp + "/maxContains",
          ip,
          `Array has more than ${maxC} items matching contains`,
        );
        if (!full) return false;
      }
    }
    return ok;
  };
}

/**
 * Builds the object keywords as one check.
 *
 * @param b The schema being compiled.
 * @param typeFail When given, `type: "object"` is fused in: a non-object fails with it.
 * @returns The check, or `null` when there is none.
 */
export function buildObject(b: Builder, typeFail?: TypeFail): Check | null {
  const s = b.schema;
  const minP = count(b, "minProperties"), maxP = count(b, "maxProperties");
  let required: string[] | undefined;
  if (Object.hasOwn(s, "required")) {
    const r = s.required;
    if (!Array.isArray(r) || !r.every((x) => typeof x === "string")) {
      throw b.error("required", "The value of required must be an array of strings");
    }
    required = r.length > 0 ? r : undefined;
  }
  const propList = schemaMap(b, "properties");
  const props = propList && propList.length > 0 ? new Map(propList) : undefined;
  const patterns = schemaMap(b, "patternProperties")?.map(([p, n]) =>
    [compilePattern(b, "patternProperties", p), n, tok(p)] as const
  );
  const additional = subschema(b, "additionalProperties");
  const names = subschema(b, "propertyNames");
  let depReq: [string, string[]][] | undefined;
  if (Object.hasOwn(s, "dependentRequired")) {
    const v = s.dependentRequired;
    if (!isObject(v)) throw b.error("dependentRequired", "dependentRequired must be an object");
    depReq = Object.keys(v).map((k) => {
      const r = v[k];
      if (!Array.isArray(r) || !r.every((x) => typeof x === "string")) {
        throw b.error("dependentRequired", "dependentRequired values must be arrays of strings");
      }
      return [k, r];
    });
  }
  const depSchemas = schemaMap(b, "dependentSchemas");
  const perKey = props !== undefined || (patterns !== undefined && patterns.length > 0) ||
    additional !== undefined || names !== undefined;
  if (
    minP === undefined && maxP === undefined && required === undefined && !perKey &&
    depReq === undefined && depSchemas === undefined
  ) return null;
  return (x, c, ip, kp, a, d) => {
    if (typeof x !== "object" || x === null || Array.isArray(x)) {
      return typeFail === undefined || typeFail(x, c, ip, kp);
    }
    if (d > MAX_DEPTH) return tooDeep(ip, kp);
    const o = x as Record<string, unknown>;
    const full = c.errs !== null;
    let ok = true;
    if (required !== undefined) {
      for (const r of required) {
        if (!Object.hasOwn(o, r)) {
          ok = fail(c, kp + "/required", ip, `Missing required property ${JSON.stringify(r)}`);
          if (!full) return false;
        }
      }
    }
    if (perKey || minP !== undefined || maxP !== undefined || a !== null) {
      const keys = Object.keys(o);
      if (minP !== undefined && keys.length < minP) {
        ok = fail(c, kp + "/minProperties", ip, `Object has fewer than ${minP} properties`);
        if (!full) return false;
      }
      if (maxP !== undefined && keys.length > maxP) {
        ok = fail(c, kp + "/maxProperties", ip, `Object has more than ${maxP} properties`);
        if (!full) return false;
      }
      if (perKey) {
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i]!;
          const v = o[k];
          const kip = full ? `${ip}/${tok(k)}` : "";
          let matched = false;
          if (props !== undefined) {
            const n = props.get(k);
            if (n !== undefined) {
              matched = true;
              if (!n.v(v, c, kip, full ? `${kp}/properties/${tok(k)}` : "", null, d + 1)) {
                if (!full) return false;
                ok = false;
              }
            }
          }
          if (patterns !== undefined) {
            for (const [re, n, src] of patterns) {
              if (patternMatches(re, k)) {
                matched = true;
                if (!n.v(v, c, kip, full ? `${kp}/patternProperties/${src}` : "", null, d + 1)) {
                  if (!full) return false;
                  ok = false;
                }
              }
            }
          }
          if (!matched && additional !== undefined) {
            matched = true;
            if (!additional.v(v, c, kip, full ? `${kp}/additionalProperties` : "", null, d + 1)) {
              if (!full) return false;
              ok = false;
            }
          }
          if (
            names !== undefined &&
            !names.v(k, c, kip, full ? `${kp}/propertyNames` : "", null, d + 1)
          ) {
            if (!full) return false;
            ok = false;
          }
          if (matched && a !== null) a.props.add(k);
        }
      }
    }
    if (depReq !== undefined) {
      for (const [k, reqs] of depReq) {
        if (!Object.hasOwn(o, k)) continue;
        for (const r of reqs) {
          if (!Object.hasOwn(o, r)) {
            ok = fail(
              c,
              `${kp}/dependentRequired/${tok(k)}`,
              ip,
              `Property ${JSON.stringify(r)} is required when ${JSON.stringify(k)} is present`,
            );
            if (!full) return false;
          }
        }
      }
    }
    if (depSchemas !== undefined) {
      for (const [k, n] of depSchemas) {
        if (
          Object.hasOwn(o, k) &&
          !n.v(o, c, ip, full ? `${kp}/dependentSchemas/${tok(k)}` : "", a, d + 1)
        ) {
          if (!full) return false;
          ok = false;
        }
      }
    }
    return ok;
  };
}
