// Optimal one-to-one assignment of expected to predicted tool calls.
//
// Three algorithms, all iterative (no recursion, so hostile input cannot blow the stack):
// - `maxWeightAssignment`: the Hungarian algorithm (Kuhn–Munkres with potentials, the
//   O(n²·m) shortest-augmenting-path form) on an n×m weight matrix, n, m ≤ ASSIGNMENT_CAP here.
// - `maxFlowBipartite`: Dinic's blocking flows on source → left (capacity) → right → sink
//   (capacity). With unit capacities it is Hopcroft–Karp, O(E·√V); with multiplicities it
//   matches classes of identical calls without expanding them.
// - `matchExample`: the per-example driver described in docs/tool_metrics.md.

/** How a predicted call may match an expected one. */
export type CallRelation = "exact" | "name" | "subset";

/** A valid call: its tool name and the index of its canonical arguments in a sorted table. */
export interface CallRef {
  /** The tool name. */
  name: string;
  /** Index into the sorted table of distinct canonical argument texts. */
  args: number;
}

/** The flattened argument pairs of every canonical argument text, by index. */
export interface PairTable {
  /** Number of flattened pairs of text `i`. */
  count(i: number): number;
  /** Number of pairs of text `e` that are also pairs of text `p`. */
  overlap(e: number, p: number): number;
  /** True when text `e` is `{}` or every pair of `e` is a pair of `p`. */
  subset(e: number, p: number): boolean;
}

/** What one example's matching yields. */
export interface MatchOutcome {
  /** Matched call pairs (a maximum matching). */
  matched: number;
  /** Σ argument-pair overlap over the matched call pairs. */
  overlap: number;
  /** Components too large for the Hungarian tie-break (overlap is then best-effort). */
  fallbacks: number;
}

/** Largest side of a component that gets the exact Hungarian tie-break. */
export const ASSIGNMENT_CAP = 64;

/**
 * Maximum-weight assignment of rows to columns (Hungarian algorithm, O(n²·m)).
 * Weights must be finite; every row is assigned when rows ≤ columns, and vice versa.
 * Returns, per row, its column or -1, and the total weight.
 */
export function maxWeightAssignment(
  rows: number,
  cols: number,
  weight: (row: number, col: number) => number,
): { assignment: Int32Array; total: number } {
  if (!(Number.isInteger(rows) && Number.isInteger(cols) && rows >= 0 && cols >= 0)) {
    throw new RangeError(`rows and cols must be counts, got ${rows} and ${cols}`);
  }
  const assignment = new Int32Array(rows).fill(-1);
  if (rows === 0 || cols === 0) return { assignment, total: 0 };
  const transposed = rows > cols;
  const n = transposed ? cols : rows;
  const m = transposed ? rows : cols;
  // cost[i][j] = -weight, 1-based, n ≤ m (e-maxx formulation).
  const cost = new Float64Array((n + 1) * (m + 1));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const w = transposed ? weight(j - 1, i - 1) : weight(i - 1, j - 1);
      // A weight that is not finite would keep the potentials from converging: it never ends.
      if (!Number.isFinite(w)) throw new RangeError(`A weight must be finite, got ${w}`);
      cost[i * (m + 1) + j] = -w;
    }
  }
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1); // p[j]: row matched to column j (0 = none)
  const way = new Int32Array(m + 1);
  const minv = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = cost[i0 * (m + 1) + j]! - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]!] = u[p[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else {
          minv[j] = minv[j]! - delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  let total = 0;
  for (let j = 1; j <= m; j++) {
    const i = p[j]!;
    if (i === 0) continue;
    const [row, col] = transposed ? [j - 1, i - 1] : [i - 1, j - 1];
    assignment[row] = col;
    total += weight(row, col);
  }
  return { assignment, total };
}

/**
 * Maximum flow from a source through left nodes (capacity `leftCap[i]`), the given
 * left→right edges (unbounded) and right nodes (capacity `rightCap[j]`) to a sink,
 * by Dinic's algorithm. Returns the flow and the flow on each edge, in input order.
 */
export function maxFlowBipartite(
  leftCap: readonly number[],
  rightCap: readonly number[],
  edges: readonly (readonly [number, number])[],
): { flow: number; edgeFlow: number[] } {
  const L = leftCap.length, R = rightCap.length;
  const s = 0, t = L + R + 1, nodes = L + R + 2;
  const head = new Int32Array(nodes).fill(-1);
  const to: number[] = [], cap: number[] = [], next: number[] = [];
  const add = (a: number, b: number, c: number): number => {
    to.push(b), cap.push(c), next.push(head[a]!), head[a] = to.length - 1;
    to.push(a), cap.push(0), next.push(head[b]!), head[b] = to.length - 1;
    return to.length - 2;
  };
  let unbounded = 1;
  for (let i = 0; i < L; i++) add(s, 1 + i, leftCap[i]!), unbounded += leftCap[i]!;
  for (let j = 0; j < R; j++) add(1 + L + j, t, rightCap[j]!);
  const edgeIds = edges.map(([a, b]) => add(1 + a, 1 + L + b, unbounded));
  const level = new Int32Array(nodes);
  const it = new Int32Array(nodes);
  const queue = new Int32Array(nodes);
  const path: number[] = [];
  let flow = 0;
  for (;;) {
    level.fill(-1);
    level[s] = 0;
    let qh = 0, qt = 0;
    queue[qt++] = s;
    while (qh < qt) {
      const x = queue[qh++]!;
      for (let e = head[x]!; e !== -1; e = next[e]!) {
        if (cap[e]! > 0 && level[to[e]!] === -1) {
          level[to[e]!] = level[x]! + 1;
          queue[qt++] = to[e]!;
        }
      }
    }
    if (level[t] === -1) break;
    it.set(head);
    path.length = 0;
    let x = s;
    for (;;) {
      if (x === t) {
        let push = Infinity;
        for (const e of path) push = Math.min(push, cap[e]!);
        for (const e of path) cap[e] = cap[e]! - push, cap[e ^ 1] = cap[e ^ 1]! + push;
        flow += push;
        path.length = 0;
        x = s;
        continue;
      }
      let e = it[x]!;
      while (e !== -1 && !(cap[e]! > 0 && level[to[e]!] === level[x]! + 1)) e = next[e]!;
      it[x] = e;
      if (e !== -1) {
        path.push(e);
        x = to[e]!;
        continue;
      }
      if (x === s) break;
      level[x] = -1; // dead end for this phase
      const back = path.pop()!;
      x = to[back ^ 1]!;
      it[x] = next[it[x]!]!;
    }
  }
  return { flow, edgeFlow: edgeIds.map((e) => cap[e ^ 1]!) };
}

interface Side {
  /** Distinct argument indices, ascending. */
  args: number[];
  /** Multiplicity of each. */
  counts: number[];
}

function countArgs(list: readonly number[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const a of list) m.set(a, (m.get(a) ?? 0) + 1);
  return m;
}

function sortedSide(m: Map<number, number>): Side {
  const args = [...m.keys()].filter((a) => m.get(a)! > 0).sort((a, b) => a - b);
  return { args, counts: args.map((a) => m.get(a)!) };
}

function expand(side: Side): number[] {
  const out: number[] = [];
  side.args.forEach((a, i) => {
    for (let k = 0; k < side.counts[i]!; k++) out.push(a);
  });
  return out;
}

/**
 * A maximum matching of one example's expected to predicted calls under `relation`,
 * and among maximum matchings one with the largest total argument-pair overlap (exact
 * when every component has at most ASSIGNMENT_CAP calls a side, else best-effort).
 * `pairs` is required for `subset` and for the overlap; without it overlap is 0.
 */
export function matchExample(
  expected: readonly CallRef[],
  predicted: readonly CallRef[],
  relation: CallRelation,
  pairs?: PairTable,
): MatchOutcome {
  const byName = new Map<string, { e: number[]; p: number[] }>();
  for (const c of expected) {
    let g = byName.get(c.name);
    if (g === undefined) byName.set(c.name, g = { e: [], p: [] });
    g.e.push(c.args);
  }
  for (const c of predicted) byName.get(c.name)?.p.push(c.args);
  const out: MatchOutcome = { matched: 0, overlap: 0, fallbacks: 0 };
  for (const g of byName.values()) {
    if (g.p.length === 0) continue;
    // Identical calls first: safe for all three relations (see the doc's exchange argument).
    const ce = countArgs(g.e), cp = countArgs(g.p);
    for (const [a, n] of ce) {
      const k = Math.min(n, cp.get(a) ?? 0);
      if (k === 0) continue;
      out.matched += k;
      if (pairs) out.overlap += k * pairs.count(a);
      ce.set(a, n - k), cp.set(a, cp.get(a)! - k);
    }
    if (relation === "exact") continue;
    const le = sortedSide(ce), lp = sortedSide(cp);
    if (relation === "name") matchByName(le, lp, out, pairs);
    else matchBySubset(le, lp, out, pairs!);
  }
  return out;
}

function matchByName(le: Side, lp: Side, out: MatchOutcome, pairs?: PairTable): void {
  const e = expand(le), p = expand(lp);
  const k = Math.min(e.length, p.length);
  out.matched += k;
  if (!pairs || k === 0) return;
  if (e.length <= ASSIGNMENT_CAP && p.length <= ASSIGNMENT_CAP) {
    out.overlap += maxWeightAssignment(e.length, p.length, (i, j) => pairs.overlap(e[i]!, p[j]!))
      .total;
  } else {
    // Fallback: pair in canonical order (deterministic and independent of input order).
    for (let i = 0; i < k; i++) out.overlap += pairs.overlap(e[i]!, p[i]!);
    out.fallbacks++;
  }
}

function matchBySubset(le: Side, lp: Side, out: MatchOutcome, pairs: PairTable): void {
  if (le.args.length === 0 || lp.args.length === 0) return;
  const edges: [number, number][] = [];
  for (let i = 0; i < le.args.length; i++) {
    for (let j = 0; j < lp.args.length; j++) {
      if (pairs.subset(le.args[i]!, lp.args[j]!)) edges.push([i, j]);
    }
  }
  if (edges.length === 0) return;
  const e = expand(le), p = expand(lp);
  if (e.length <= ASSIGNMENT_CAP && p.length <= ASSIGNMENT_CAP) {
    const edge = (i: number, j: number) => pairs.subset(e[i]!, p[j]!);
    let big = 1;
    for (const a of e) big += pairs.count(a);
    const { assignment } = maxWeightAssignment(
      e.length,
      p.length,
      (i, j) => edge(i, j) ? big + pairs.overlap(e[i]!, p[j]!) : 0,
    );
    assignment.forEach((j, i) => {
      if (j >= 0 && edge(i, j)) out.matched++, out.overlap += pairs.overlap(e[i]!, p[j]!);
    });
    return;
  }
  const { flow, edgeFlow } = maxFlowBipartite(le.counts, lp.counts, edges);
  out.matched += flow;
  edges.forEach(([i, j], k) => {
    out.overlap += edgeFlow[k]! * pairs.overlap(le.args[i]!, lp.args[j]!);
  });
  out.fallbacks++;
}
