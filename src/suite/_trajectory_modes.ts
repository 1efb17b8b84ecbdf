// The trajectory relations of `trajectory_match`, decided exactly from a compatibility relation
// between reference call i and output call j (same name, arguments match): a maximum bipartite
// matching for the unordered relations, the leftmost scan for `in_order` (it finds an embedding
// whenever one exists), position by position for `exact`. Beside each verdict, what greedy
// first-match (the peers' method) would decide.
import { maxFlowBipartite } from "../structured/mod.ts";

/** Whether reference call `i` may stand for output call `j`. */
export type Compat = (i: number, j: number) => boolean;

/** The relation, with the unordered modes' matching and greedy covers computed by its owner. */
export interface Relation {
  /** Whether reference call i may stand for output call j. */
  compat: Compat;
  /** A maximum matching (the one {@linkcode maximumMatching} finds over all pairs). */
  matching(): { size: number; outOf: Int32Array; refOf: Int32Array };
  /** Whether greedy first-match covers every reference call. */
  covers(): boolean;
  /** Whether greedy first-match, the other way round, covers every output call. */
  coversBack(): boolean;
}

/** The trajectory modes over a flat list of calls (`strict` works message by message). */
export type FlatMode = "unordered" | "subset" | "superset" | "in_order" | "exact";

/** A decision: the verdict, greedy's verdict, and what failed. */
export interface Decision {
  /** The exact verdict. */
  pass: boolean;
  /** Greedy first-match's verdict. */
  greedyPass: boolean;
  /** Reference calls left unmatched (reported only when the mode needs them). */
  missing: number[];
  /** Output calls left unmatched (reported only when the mode forbids them). */
  extra: number[];
  /** `in_order`: the first reference call that matches an output call, but none late enough. */
  order?: number;
  /** Per output call, the reference call matched to it, or -1. */
  refOf: Int32Array;
}

/** A maximum matching of reference to output calls (Dinic's flow, unit capacities). */
export function maximumMatching(
  n: number,
  m: number,
  compat: Compat,
): { size: number; outOf: Int32Array; refOf: Int32Array } {
  const edges: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) if (compat(i, j)) edges.push([i, j]);
  const { flow, edgeFlow } = maxFlowBipartite(
    new Array<number>(n).fill(1),
    new Array<number>(m).fill(1),
    edges,
  );
  const outOf = new Int32Array(n).fill(-1), refOf = new Int32Array(m).fill(-1);
  edges.forEach(([i, j], e) => {
    if (edgeFlow[e]! > 0) outOf[i] = j, refOf[j] = i;
  });
  return { size: flow, outOf, refOf };
}

/** Greedy first-match: each left item in order takes the first unused right item it fits. */
export function greedyCovers(n: number, m: number, fits: Compat): boolean {
  const used = new Uint8Array(m);
  for (let i = 0; i < n; i++) {
    let j = 0;
    while (j < m && (used[j] || !fits(i, j))) j++;
    if (j === m) return false;
    used[j] = 1;
  }
  return true;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let k = from; k < to; k++) out.push(k);
  return out;
}

/**
 * Decides one flat mode exactly, with greedy first-match's verdict beside it.
 *
 * @param mode The trajectory mode.
 * @param n Reference calls.
 * @param m Output calls.
 * @param relation Which reference call may stand for which output call.
 */
export function decide(mode: FlatMode, n: number, m: number, relation: Relation): Decision {
  const { compat } = relation;
  if (mode === "exact") {
    const refOf = new Int32Array(m).fill(-1);
    const missing: number[] = [], extra: number[] = [];
    for (let k = 0; k < Math.max(n, m); k++) {
      if (k < n && k < m && compat(k, k)) refOf[k] = k;
      else {
        if (k < n) missing.push(k);
        if (k < m) extra.push(k);
      }
    }
    const pass = missing.length === 0 && extra.length === 0;
    return { pass, greedyPass: pass, missing, extra, refOf };
  }
  if (mode === "in_order") {
    // The leftmost scan (greedy): each reference call takes the first fitting output call after
    // the previous one's. It is exact: by induction its i-th match is no later than that of any
    // embedding, so it fails only where no embedding exists.
    const refOf = new Int32Array(m).fill(-1);
    let j = 0, failed = -1;
    for (let i = 0; i < n && failed < 0; i++) {
      while (j < m && !compat(i, j)) j++;
      if (j === m) failed = i;
      else refOf[j++] = i;
    }
    if (failed < 0) return { pass: true, greedyPass: true, missing: [], extra: [], refOf };
    const anywhere = range(0, m).some((k) => compat(failed, k));
    return {
      pass: false,
      greedyPass: false,
      missing: anywhere ? [] : [failed],
      extra: [],
      ...(anywhere && { order: failed }),
      refOf,
    };
  }
  const { size, outOf, refOf } = relation.matching();
  const needRefs = mode !== "subset", needOuts = mode !== "superset";
  const missing = needRefs ? range(0, n).filter((i) => outOf[i] === -1) : [];
  const extra = needOuts ? range(0, m).filter((j) => refOf[j] === -1) : [];
  const pass = (!needRefs || size === n) && (!needOuts || size === m);
  const greedyPass = mode === "superset"
    ? relation.covers()
    : mode === "subset"
    ? relation.coversBack()
    : n === m && relation.covers() && relation.coversBack();
  return { pass, greedyPass, missing, extra, refOf };
}
