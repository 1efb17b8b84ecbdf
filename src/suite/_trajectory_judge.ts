// How `trajectory_match` judges one list of reference calls against one list of output calls, in
// time near-linear in the calls wherever the argument rule allows. Calls are grouped by name (no
// other pair can match), and within a name by class: for an equivalence (`exact`, `ignore`, key
// lists) the class is the text that decides equality, so equal calls match without being
// compared, and the maximum matching is the one Dinic's flow over every pair finds (within each
// class, the last reference calls take the last output calls). Under `subset`/`superset`
// arguments, which are no equivalence, the classes of one name are compared pair by pair, at most
// MAX_TOOL_PAIRS calls' pairs a name. `closest` is looked up only for the reasons a metric lists.
import {
  type ArgNode,
  argumentDiff,
  equivalenceKey,
  nodeText,
  strip,
  type ToolRule,
} from "./_trajectory_args.ts";
import {
  decide,
  type Decision,
  type FlatMode,
  greedyCovers,
  maximumMatching,
  type Relation,
} from "./_trajectory_modes.ts";
import { MAX_LISTED } from "./_metric_args.ts";
import type { TrajectoryReason } from "./trajectory_match.ts";

/** A call as read: its name and argument tree. */
export interface Call {
  name: string;
  args: ArgNode;
}

/**
 * The most pairs (reference calls × output calls of one tool, within one message in `strict`)
 * that the unordered modes compare one by one under `subset`/`superset` arguments.
 */
export const MAX_TOOL_PAIRS = 1_000_000;

/** Thrown when a tool's calls would need more than {@linkcode MAX_TOOL_PAIRS} comparisons. */
export class PairLimit extends Error {
  constructor(readonly tool: string, readonly pairs: number, readonly at?: number) {
    super(`${tool}: ${pairs} pairs of calls to compare, over ${MAX_TOOL_PAIRS}`);
    this.name = "PairLimit";
  }
}

/** Pairs of calls looked at (compatibility tests and `closest` diffs): what tests count. */
export const judgeWork = { pairs: 0 };

interface Group {
  name: string;
  rule: ToolRule;
  /** Whether the rule is an equivalence (calls match when their classes are equal). */
  equiv: boolean;
  /** The group's calls, ascending. */
  refs: number[];
  outs: number[];
  /** For `subset`/`superset`: the class pairs judged (-1 unknown, 0, 1), by ref × out class. */
  memo?: Int8Array;
  refClasses: number;
  outClasses: number;
}

// Classes of one name's calls: one key space for both sides under an equivalence, one per side
// (deduplicating equal calls before pairwise judging) otherwise.
function classify(
  calls: Call[],
  idx: number[],
  rule: ToolRule,
  ids: Map<string, number>,
  out: Int32Array,
) {
  for (const k of idx) {
    const a = calls[k]!.args;
    const key = equivalenceKey(a, rule) ?? nodeText(strip(a, rule));
    let id = ids.get(key);
    if (id === undefined) ids.set(key, id = ids.size);
    out[k] = id;
  }
}

function relation(
  mode: FlatMode,
  refs: Call[],
  outs: Call[],
  ruleOf: (name: string) => ToolRule,
  message: number | undefined,
) {
  const groups = new Map<string, Group>();
  const group = (name: string): Group => {
    let g = groups.get(name);
    if (!g) {
      const rule = ruleOf(name);
      const equiv = equivalenceKey({ kind: "leaf", text: "0" }, rule) !== undefined;
      g = { name, rule, equiv, refs: [], outs: [], refClasses: 0, outClasses: 0 };
      groups.set(name, g);
    }
    return g;
  };
  refs.forEach((c, i) => group(c.name).refs.push(i));
  outs.forEach((c, j) => group(c.name).outs.push(j));
  const refCls = new Int32Array(refs.length), outCls = new Int32Array(outs.length);
  const matching = mode !== "in_order" && mode !== "exact";
  for (const g of groups.values()) {
    const ids = new Map<string, number>();
    classify(refs, g.refs, g.rule, ids, refCls);
    g.refClasses = ids.size;
    if (!g.equiv) ids.clear();
    classify(outs, g.outs, g.rule, ids, outCls);
    g.outClasses = ids.size;
    if (g.equiv || !matching || g.refs.length === 0 || g.outs.length === 0) continue;
    const pairs = g.refs.length * g.outs.length;
    if (pairs > MAX_TOOL_PAIRS) throw new PairLimit(g.name, pairs, message);
    g.memo = new Int8Array(g.refClasses * g.outClasses).fill(-1);
  }
  const groupOf = (i: number) => groups.get(refs[i]!.name)!;
  const compat = (i: number, j: number): boolean => {
    judgeWork.pairs++;
    if (refs[i]!.name !== outs[j]!.name) return false;
    const g = groupOf(i);
    if (g.equiv) return refCls[i] === outCls[j];
    const at = refCls[i]! * g.outClasses + outCls[j]!;
    if (g.memo && g.memo[at] !== -1) return g.memo[at] === 1;
    const fits = argumentDiff(refs[i]!.args, outs[j]!.args, g.rule).length === 0;
    if (g.memo) g.memo[at] = fits ? 1 : 0;
    return fits;
  };
  // Per name, a class's reference calls against its output calls.
  const perClass = (g: Group) => {
    const r = new Map<number, number[]>(), o = new Map<number, number[]>();
    for (const i of g.refs) r.get(refCls[i]!)?.push(i) ?? r.set(refCls[i]!, [i]);
    for (const j of g.outs) o.get(outCls[j]!)?.push(j) ?? o.set(outCls[j]!, [j]);
    return { r, o };
  };
  const rel: Relation & { sameName: (i: number) => number[] } = {
    compat,
    sameName: (i) => groupOf(i).outs,
    matching() {
      const outOf = new Int32Array(refs.length).fill(-1);
      const refOf = new Int32Array(outs.length).fill(-1);
      let size = 0;
      for (const g of groups.values()) {
        if (!g.equiv) {
          const local = maximumMatching(
            g.refs.length,
            g.outs.length,
            (a, b) => compat(g.refs[a]!, g.outs[b]!),
          );
          size += local.size;
          local.outOf.forEach((b, a) => {
            if (b >= 0) outOf[g.refs[a]!] = g.outs[b]!, refOf[g.outs[b]!] = g.refs[a]!;
          });
          continue;
        }
        const { r, o } = perClass(g);
        for (const [c, rs] of r) {
          const os = o.get(c) ?? [];
          const k = Math.min(rs.length, os.length);
          for (let t = 1; t <= k; t++) {
            const i = rs[rs.length - t]!, j = os[os.length - t]!;
            outOf[i] = j, refOf[j] = i;
          }
          size += k;
        }
      }
      return { size, outOf, refOf };
    },
    covers: () => coverage(false),
    coversBack: () => coverage(true),
  };
  // Greedy first-match, name by name (no call takes one of another name).
  function coverage(back: boolean): boolean {
    for (const g of groups.values()) {
      if (!g.equiv) {
        const fit = (a: number, b: number) => compat(g.refs[a]!, g.outs[b]!);
        const ok = back
          ? greedyCovers(g.outs.length, g.refs.length, (b, a) => fit(a, b))
          : greedyCovers(g.refs.length, g.outs.length, fit);
        if (!ok) return false;
        continue;
      }
      const { r, o } = perClass(g);
      const [small, big] = back ? [o, r] : [r, o];
      for (const [c, xs] of small) if (xs.length > (big.get(c)?.length ?? 0)) return false;
    }
    return true;
  }
  return rel;
}

/**
 * Matches `refs` against `outs` in `mode`, adding the reasons for failure; a `missing` reason
 * among the first MAX_LISTED reasons names its closest output call.
 *
 * @throws {PairLimit} Past {@linkcode MAX_TOOL_PAIRS} for a tool in an unordered mode.
 */
export function judge(
  mode: FlatMode,
  refs: Call[],
  outs: Call[],
  ruleOf: (name: string) => ToolRule,
  reasons: TrajectoryReason[],
  message?: number,
): Decision {
  const rel = relation(mode, refs, outs, ruleOf, message);
  const d = decide(mode, refs.length, outs.length, rel);
  const at = message === undefined ? {} : { message };
  for (const i of d.missing) {
    let closest: { output: number; paths: string[] } | undefined;
    // Prefer the unmatched output calls of the same name, then the fewest differing paths.
    if (reasons.length < MAX_LISTED) {
      for (const j of rel.sameName(i)) {
        judgeWork.pairs++;
        const paths = argumentDiff(refs[i]!.args, outs[j]!.args, ruleOf(refs[i]!.name));
        const better = !closest ||
          (d.refOf[j] === -1 && d.refOf[closest.output] !== -1) ||
          ((d.refOf[j] === -1) === (d.refOf[closest.output] === -1) &&
            paths.length < closest.paths.length);
        if (better) closest = { output: j, paths };
      }
    }
    reasons.push({
      kind: "missing",
      reference: i,
      name: refs[i]!.name,
      ...at,
      ...(closest && { closest }),
    });
  }
  for (const j of d.extra) reasons.push({ kind: "extra", output: j, name: outs[j]!.name, ...at });
  if (d.order !== undefined) {
    reasons.push({ kind: "order", reference: d.order, name: refs[d.order]!.name });
  }
  return d;
}
