/**
 * Builders for the in-place JSON Schema applicators: `$ref`, `$dynamicRef`, `allOf`, `anyOf`,
 * `oneOf`, `not` and `if`/`then`/`else`. They pass the annotation set through so that
 * `unevaluated*` sees what their (successful) subschemas evaluated.
 *
 * @module
 */

import {
  type Ann,
  type Builder,
  type Check,
  fail,
  MAX_DEPTH,
  mergeAnn,
  newAnn,
  type Node,
  schemaArray,
  subschema,
  tooDeep,
  type ValidationError,
} from "./_runtime.ts";

function viaRef(target: Node, own: Node, kw: string, state: { dynamic: boolean }): Check {
  const crosses = target.resource !== own.resource && !target.isRoot;
  return (x, c, ip, kp, a, d) => {
    if (d > MAX_DEPTH) return tooDeep(ip, kp);
    const tkp = c.errs !== null ? kp + kw : "";
    if (crosses && state.dynamic) {
      c.scope.push(target.resource);
      const r = target.v(x, c, ip, tkp, a, d + 1);
      c.scope.pop();
      return r;
    }
    return target.v(x, c, ip, tkp, a, d + 1);
  };
}

/**
 * Builds the `$ref` and `$dynamicRef` checks.
 *
 * @param b The schema being compiled.
 * @returns The checks.
 */
export function buildRefs(b: Builder): Check[] {
  const out: Check[] = [];
  if (Object.hasOwn(b.schema, "$ref")) {
    const [target] = b.ref("$ref");
    out.push(viaRef(target, b.node, "/$ref", b.state));
  }
  if (Object.hasOwn(b.schema, "$dynamicRef")) {
    const ref = b.schema.$dynamicRef as string;
    const [target, targetSchema] = b.ref("$dynamicRef");
    const hash = ref.indexOf("#");
    const name = hash >= 0 ? ref.slice(hash + 1) : "";
    const anchor = typeof targetSchema === "object" && targetSchema !== null &&
        Object.hasOwn(targetSchema, "$dynamicAnchor")
      ? (targetSchema as Record<string, unknown>).$dynamicAnchor
      : undefined;
    if (name === "" || name.startsWith("/") || anchor !== name) {
      out.push(viaRef(target, b.node, "/$dynamicRef", b.state));
    } else {
      b.useDynamicAnchor(name);
      const fallback = viaRef(target, b.node, "/$dynamicRef", b.state);
      out.push((x, c, ip, kp, a, d) => {
        if (d > MAX_DEPTH) return tooDeep(ip, kp);
        for (const r of c.scope) {
          const n = r.dynamic.get(name);
          if (n !== undefined) {
            return n.v(x, c, ip, c.errs !== null ? kp + "/$dynamicRef" : "", a, d + 1);
          }
        }
        return fallback(x, c, ip, kp, a, d);
      });
    }
  }
  return out;
}

/**
 * Builds the `allOf`, `anyOf`, `oneOf`, `not` and `if`/`then`/`else` checks.
 *
 * @param b The schema being compiled.
 * @returns The checks.
 */
export function buildCombinators(b: Builder): Check[] {
  const out: Check[] = [];
  const allOf = schemaArray(b, "allOf");
  if (allOf !== undefined) {
    out.push((x, c, ip, kp, a, d) => {
      if (d > MAX_DEPTH) return tooDeep(ip, kp);
      let ok = true;
      for (let i = 0; i < allOf.length; i++) {
        if (!allOf[i]!.v(x, c, ip, c.errs !== null ? `${kp}/allOf/${i}` : "", a, d + 1)) {
          if (c.errs === null) return false;
          ok = false;
        }
      }
      return ok;
    });
  }
  const anyOf = schemaArray(b, "anyOf");
  if (anyOf !== undefined) {
    out.push((x, c, ip, kp, a, d) => {
      if (d > MAX_DEPTH) return tooDeep(ip, kp);
      const saved = c.errs;
      if (a === null && saved === null) {
        for (const n of anyOf) if (n.v(x, c, ip, "", null, d + 1)) return true;
        return false;
      }
      const tmp: ValidationError[] | null = saved === null ? null : [];
      c.errs = tmp;
      let any = false;
      for (let i = 0; i < anyOf.length; i++) {
        const la = a === null ? null : newAnn();
        if (anyOf[i]!.v(x, c, ip, tmp !== null ? `${kp}/anyOf/${i}` : "", la, d + 1)) {
          any = true;
          if (la === null) break;
          mergeAnn(a!, la);
        }
      }
      c.errs = saved;
      if (any) return true;
      append(saved, tmp);
      return fail(c, kp + "/anyOf", ip, "Value does not match any subschema of anyOf");
    });
  }
  const oneOf = schemaArray(b, "oneOf");
  if (oneOf !== undefined) {
    out.push((x, c, ip, kp, a, d) => {
      if (d > MAX_DEPTH) return tooDeep(ip, kp);
      const saved = c.errs;
      const tmp: ValidationError[] | null = saved === null ? null : [];
      c.errs = tmp;
      let hits = 0;
      let first = -1, second = -1;
      let kept: Ann | null = null;
      for (let i = 0; i < oneOf.length; i++) {
        const la = a === null ? null : newAnn();
        if (oneOf[i]!.v(x, c, ip, tmp !== null ? `${kp}/oneOf/${i}` : "", la, d + 1)) {
          hits++;
          if (hits === 1) {
            first = i;
            kept = la;
          } else {
            second = i;
            break;
          }
        }
      }
      c.errs = saved;
      if (hits === 1) {
        if (a !== null && kept !== null) mergeAnn(a, kept);
        return true;
      }
      if (hits === 0) {
        append(saved, tmp);
        return fail(c, kp + "/oneOf", ip, "Value does not match any subschema of oneOf");
      }
      return fail(c, kp + "/oneOf", ip, `Value matches both subschemas ${first} and ${second}`);
    });
  }
  if (Object.hasOwn(b.schema, "not")) {
    const not = b.child(b.schema.not, "not");
    out.push((x, c, ip, kp, _a, d) => {
      if (d > MAX_DEPTH) return tooDeep(ip, kp);
      const saved = c.errs;
      c.errs = null;
      const r = not.v(x, c, ip, "", null, d + 1);
      c.errs = saved;
      return !r || fail(c, kp + "/not", ip, "Value must not match the subschema of not");
    });
  }
  if (Object.hasOwn(b.schema, "if")) {
    const cond = b.child(b.schema.if, "if");
    const then = subschema(b, "then");
    const els = subschema(b, "else");
    out.push((x, c, ip, kp, a, d) => {
      if (d > MAX_DEPTH) return tooDeep(ip, kp);
      const saved = c.errs;
      c.errs = null;
      const la = a === null ? null : newAnn();
      const r = cond.v(x, c, ip, "", la, d + 1);
      c.errs = saved;
      const full = saved !== null;
      if (r) {
        if (la !== null) mergeAnn(a!, la);
        return then === undefined || then.v(x, c, ip, full ? kp + "/then" : "", a, d + 1);
      }
      return els === undefined || els.v(x, c, ip, full ? kp + "/else" : "", a, d + 1);
    });
  }
  return out;
}

/**
 * Appends a branch's errors to those kept, one by one: spread into `push`'s arguments, some
 * 125,000 errors overflowed the stack, which was then reported as too deep a schema.
 */
function append(to: ValidationError[] | null, from: ValidationError[] | null): void {
  if (to && from) { for (const e of from) to.push(e); }
}
