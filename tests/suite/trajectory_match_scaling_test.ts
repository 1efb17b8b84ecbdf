// trajectoryMatch() in near-linear work: calls are bucketed by name and by the text that decides
// equality, so equal calls match without pairwise judging, and `closest` is looked up only for
// the reasons a metric lists. Before, every (reference, output) pair was judged and memoised in a
// Map: 2,048 calls a side took 5.7 s and 4,200 threw "RangeError: Map maximum size exceeded".
// Checked here: the results on 4,000 seeded random trajectories, every mode and argument mode,
// equal those of the old implementation kept below (pairwise judging, Dinic's flow over every
// pair, the in_order DP, `closest` for every missing call); the work, counted in pairs of calls
// looked at, grows linearly; and the documented bound on pairwise judging.
import { deepStrictEqual as assertEquals, ok, strictEqual } from "node:assert/strict";
import {
  MAX_TOOL_PAIRS,
  trajectoryMatch,
  type TrajectoryMatchOptions,
  type TrajectoryReason,
  type TrajectoryResult,
} from "../../src/suite/mod.ts";
import { judgeWork } from "../../src/suite/_trajectory_judge.ts";
import { maxFlowBipartite } from "../../src/structured/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";

type Call = { name: string; arguments?: unknown };
type Msg = { role: string; tool_calls?: Call[] };
type Opts = TrajectoryMatchOptions;

// ---- The old implementation, over a pairwise diff (null: names differ). ----
type Diff = (i: number, j: number) => string[] | null;

function oldMatching(n: number, m: number, compat: (i: number, j: number) => boolean) {
  const edges: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) if (compat(i, j)) edges.push([i, j]);
  const { flow, edgeFlow } = maxFlowBipartite(Array(n).fill(1), Array(m).fill(1), edges);
  const outOf = new Int32Array(n).fill(-1), refOf = new Int32Array(m).fill(-1);
  edges.forEach(([i, j], e) => {
    if (edgeFlow[e]! > 0) outOf[i] = j, refOf[j] = i;
  });
  return { size: flow, outOf, refOf };
}

function oldCovers(n: number, m: number, fits: (i: number, j: number) => boolean): boolean {
  const used = new Uint8Array(m);
  for (let i = 0; i < n; i++) {
    let j = 0;
    while (j < m && (used[j] || !fits(i, j))) j++;
    if (j === m) return false;
    used[j] = 1;
  }
  return true;
}

function oldEmbeds(n: number, m: number, compat: (i: number, j: number) => boolean): boolean {
  let reach = new Uint8Array(m + 1).fill(1);
  for (let i = 0; i < n; i++) {
    const next = new Uint8Array(m + 1);
    for (let j = 1; j <= m; j++) {
      next[j] = next[j - 1]! || (reach[j - 1]! && compat(i, j - 1)) ? 1 : 0;
    }
    reach = next;
  }
  return reach[m] === 1;
}

function oldDecide(mode: string, n: number, m: number, compat: (i: number, j: number) => boolean) {
  const range = (a: number, b: number) =>
    Array.from({ length: Math.max(0, b - a) }, (_, k) => a + k);
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
    return {
      pass,
      greedyPass: pass,
      missing,
      extra,
      refOf,
      order: undefined as number | undefined,
    };
  }
  if (mode === "in_order") {
    const refOf = new Int32Array(m).fill(-1);
    let j = 0, failed = -1;
    for (let i = 0; i < n && failed < 0; i++) {
      while (j < m && !compat(i, j)) j++;
      if (j === m) failed = i;
      else refOf[j++] = i;
    }
    const pass = oldEmbeds(n, m, compat);
    if (failed < 0) {
      return { pass, greedyPass: true, missing: [], extra: [], refOf, order: undefined };
    }
    const anywhere = range(0, m).some((k) => compat(failed, k));
    return {
      pass,
      greedyPass: false,
      missing: anywhere ? [] : [failed],
      extra: [],
      order: anywhere ? failed : undefined,
      refOf,
    };
  }
  const { size, outOf, refOf } = oldMatching(n, m, compat);
  const needRefs = mode !== "subset", needOuts = mode !== "superset";
  const missing = needRefs ? range(0, n).filter((i) => outOf[i] === -1) : [];
  const extra = needOuts ? range(0, m).filter((j) => refOf[j] === -1) : [];
  const pass = (!needRefs || size === n) && (!needOuts || size === m);
  const covers = () => oldCovers(n, m, compat);
  const back = () => oldCovers(m, n, (j, i) => compat(i, j));
  const greedyPass = mode === "superset"
    ? covers()
    : mode === "subset"
    ? back()
    : n === m && covers() && back();
  return { pass, greedyPass, missing, extra, refOf, order: undefined };
}

function oldJudge(
  mode: string,
  refs: Call[],
  outs: Call[],
  diff: Diff,
  reasons: TrajectoryReason[],
  message?: number,
) {
  const d = oldDecide(mode, refs.length, outs.length, (i, j) => diff(i, j)?.length === 0);
  const at = message === undefined ? {} : { message };
  for (const i of d.missing) {
    let closest: { output: number; paths: string[] } | undefined;
    outs.forEach((_, j) => {
      const paths = diff(i, j);
      if (paths === null) return;
      const better = !closest || (d.refOf[j] === -1 && d.refOf[closest.output] !== -1) ||
        ((d.refOf[j] === -1) === (d.refOf[closest.output] === -1) &&
          paths.length < closest.paths.length);
      if (better) closest = { output: j, paths };
    });
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

// The argument comparison of one pair, through the library on one call a side.
function pairDiff(options: Opts): (r: Call, o: Call) => string[] | null {
  const tools = Object.fromEntries(
    Object.entries(options.tools ?? {}).map(([k, v]) => {
      if (typeof v !== "object" || Array.isArray(v)) return [k, v];
      const { min: _min, max: _max, ...rest } = v;
      return [k, rest];
    }),
  );
  return (r, o) => {
    if (r.name !== o.name) return null;
    const res = trajectoryMatch([r], [o], { ...options, tools, trajectory: "exact" });
    if (res.pass) return [];
    const miss = res.reasons[0] as Extract<TrajectoryReason, { kind: "missing" }>;
    return miss.closest!.paths;
  };
}

function oldMatch(reference: unknown[], output: unknown[], options: Opts): TrajectoryResult {
  const pd = pairDiff(options);
  const reasons: TrajectoryReason[] = [];
  let pass = true, greedyPass = true;
  let counted: Call[];
  const call = (c: Call) => ("function" in c ? (c as unknown as { function: Call }).function : c);
  if (options.trajectory === "strict") {
    const refs = reference as Msg[], outs = output as Msg[];
    counted = outs.flatMap((m) => (m.tool_calls ?? []).map(call));
    if (refs.length !== outs.length) {
      reasons.push({ kind: "messages", reference: refs.length, output: outs.length });
      pass = greedyPass = false;
    }
    for (let k = 0; k < Math.min(refs.length, outs.length); k++) {
      const r = refs[k]!, o = outs[k]!;
      if (r.role !== o.role) {
        reasons.push({ kind: "role", message: k, reference: r.role, output: o.role });
        pass = greedyPass = false;
      }
      const rc = (r.tool_calls ?? []).map(call), oc = (o.tool_calls ?? []).map(call);
      const d = oldJudge("unordered", rc, oc, (i, j) => pd(rc[i]!, oc[j]!), reasons, k);
      pass &&= d.pass;
      greedyPass &&= d.greedyPass;
    }
  } else {
    const refs = (reference as Call[]).map(call);
    counted = (output as Call[]).map(call);
    const d = oldJudge(
      options.trajectory,
      refs,
      counted,
      (i, j) => pd(refs[i]!, counted[j]!),
      reasons,
    );
    pass = d.pass, greedyPass = d.greedyPass;
  }
  let countsOk = true;
  for (const [name, o] of Object.entries(options.tools ?? {})) {
    if (typeof o !== "object" || Array.isArray(o) || (o.min === undefined && o.max === undefined)) {
      continue;
    }
    const count = counted.filter((c) => c.name === name).length;
    if ((o.min !== undefined && count < o.min) || (o.max !== undefined && count > o.max)) {
      countsOk = false;
      reasons.push({
        kind: "count",
        name,
        count,
        ...(o.min !== undefined && { min: o.min }),
        ...(o.max !== undefined && { max: o.max }),
      });
    }
  }
  return { pass: pass && countsOk, reasons, greedyDisagrees: pass !== greedyPass };
}

// `closest` is given only among the first 50 reasons (the ones the metric lists).
function listedClosest(r: TrajectoryResult): TrajectoryResult {
  return {
    ...r,
    reasons: r.reasons.map((x, k) => {
      if (k < 50 || x.kind !== "missing") return x;
      const { closest: _c, ...rest } = x;
      return rest;
    }),
  };
}

// ---- Random trajectories. ----
function randomArgs(rng: Rng): unknown {
  const pick = rng.int(10);
  if (pick === 0) return undefined;
  if (pick === 1) return rng.pick(['{"a": 1.0}', '{"a": 1}', "not json", '{"b": [1, 2]}', "{}"]);
  const args: Record<string, unknown> = {};
  for (const k of ["a", "b", "c"]) {
    if (rng.chance(0.45)) args[k] = rng.chance(0.2) ? { x: rng.int(2) } : 1 + rng.int(2);
  }
  return args;
}

function randomCall(rng: Rng, names: string[]): Call {
  const c = { name: rng.pick(names), arguments: randomArgs(rng) };
  return rng.chance(0.1) ? ({ function: c } as unknown as Call) : c;
}

function randomCalls(rng: Rng, names: string[], max: number): Call[] {
  return Array.from({ length: rng.int(max + 1) }, () => randomCall(rng, names));
}

function randomOptions(rng: Rng, trajectory: Opts["trajectory"]): Opts {
  const tools: NonNullable<Opts["tools"]> = {};
  for (const name of ["f", "g"]) {
    if (!rng.chance(0.35)) continue;
    const kind = rng.int(6);
    if (kind === 0) tools[name] = [rng.pick(["a", "b", "a.x"])];
    else if (kind === 1) tools[name] = { ignore: [rng.pick(["a", "?", "*", "**"])] };
    else if (kind === 2) tools[name] = { defaults: { a: 1 } };
    else if (kind === 3) tools[name] = rng.pick(["exact", "ignore", "subset", "superset"] as const);
    else if (kind === 4) {
      tools[name] = { arguments: rng.pick(["subset", "superset"] as const), ignore: ["c"] };
    } else tools[name] = { min: rng.int(3), max: 2 + rng.int(4) };
  }
  return {
    trajectory,
    arguments: rng.pick(["exact", "ignore", "subset", "superset"] as const),
    numbers: rng.pick(["exact", "numeric"] as const),
    tools,
  };
}

Deno.test("trajectoryMatch() equals the old pairwise implementation on 4,000 seeded trajectories", () => {
  const rng = makeRng(4242);
  const modes = ["strict", "unordered", "subset", "superset", "in_order", "exact"] as const;
  let failing = 0, longest = 0;
  for (let t = 0; t < 4_000; t++) {
    const trajectory = modes[t % modes.length]!;
    const options = randomOptions(rng, trajectory);
    const names = rng.chance(0.5) ? ["f"] : ["f", "g", "h"];
    // Some long ones, past the 50 reasons that get a `closest`.
    const max = t % 50 === 0 ? 60 : 7;
    let ref: unknown[], out: unknown[];
    if (trajectory === "strict") {
      const msgs = () =>
        Array.from({ length: rng.int(4) }, () => ({
          role: rng.pick(["assistant", "user"]),
          ...(rng.chance(0.8) && { tool_calls: randomCalls(rng, names, max) }),
        }));
      ref = msgs();
      out = rng.chance(0.5) ? msgs() : ref.map((m) => ({
        ...(m as Msg),
        tool_calls: [...((m as Msg).tool_calls ?? [])].reverse(),
      }));
    } else {
      ref = randomCalls(rng, names, max);
      out = rng.chance(0.4)
        ? randomCalls(rng, names, max)
        : [...ref, ...randomCalls(rng, names, 2)].filter(() => rng.chance(0.85));
      if (rng.chance(0.3)) out.reverse();
    }
    const got = trajectoryMatch(ref as Call[], out as Call[], options);
    const want = listedClosest(oldMatch(ref, out, options));
    assertEquals(got, want, `trial ${t}: ${JSON.stringify({ ref, out, options })}`);
    failing += got.pass ? 0 : 1;
    longest = Math.max(longest, got.reasons.length);
  }
  ok(failing > 1_000 && failing < 3_900, `${failing} failing`);
  ok(longest > 50, `${longest} reasons at most`);
});

// ---- Work, counted. ----
const f = (k: string, i: number): Call => ({ name: "f", arguments: { [k]: i } });
const seq = <T = Call>(n: number, g: (i: number) => T): T[] =>
  Array.from({ length: n }, (_, i) => g(i));

function work(ref: Call[], out: Call[], options: Opts): number {
  judgeWork.pairs = 0;
  trajectoryMatch(ref, out, options);
  return judgeWork.pairs;
}

Deno.test("the pairs of calls looked at grow linearly with the trajectories", () => {
  const shapes: [string, (n: number) => [Call[], Call[]], Opts][] = [
    ["every call missing", (n) => [seq(n, (i) => f("a", i)), seq(n, (i) => f("b", i))], {
      trajectory: "unordered",
    }],
    ["reversed", (n) => [seq(n, (i) => f("a", i)), seq(n, (i) => f("a", n - 1 - i))], {
      trajectory: "unordered",
    }],
    ["identical", (n) => [seq(n, () => f("a", 1)), seq(n, () => f("a", 1))], {
      trajectory: "unordered",
    }],
    ["identical, ignore", (n) => [seq(n, (i) => f("a", i)), seq(n, (i) => f("b", i))], {
      trajectory: "superset",
      arguments: "ignore",
    }],
    ["key lists", (n) => [seq(n, (i) => f("a", i)), seq(n, (i) => f("a", i))], {
      trajectory: "subset",
      tools: { f: ["a"] },
    }],
    ["in_order, missing", (n) => [seq(n, (i) => f("a", i)), seq(n, (i) => f("b", i))], {
      trajectory: "in_order",
    }],
    ["in_order, superset args", (n) => [seq(n, (i) => f("a", i)), seq(n, (i) => f("a", i))], {
      trajectory: "in_order",
      arguments: "superset",
    }],
    ["exact", (n) => [seq(n, (i) => f("a", i)), seq(n, (i) => f("b", i))], { trajectory: "exact" }],
    ["strict", (n) => {
      const msgs = (k: string) =>
        seq(n, (i) => ({ role: "assistant", tool_calls: [f(k, i)] })) as unknown as Call[];
      return [msgs("a"), msgs("b")];
    }, { trajectory: "strict" }],
  ];
  for (const [what, make, options] of shapes) {
    const [r1, o1] = make(1_000), [r4, o4] = make(4_000);
    const w1 = work(r1, o1, options), w4 = work(r4, o4, options);
    // At most 50 `closest` scans of the calls, plus a few looks per call.
    ok(w4 <= 60 * 4_000, `${what}: ${w4} pairs for 4,000 calls`);
    ok(w4 <= 4 * w1 + 100, `${what}: ${w1} → ${w4} pairs`);
  }
  // 20,000 calls a side (the old code threw "Map maximum size exceeded" past 4,200).
  const big = trajectoryMatch(seq(20_000, (i) => f("a", i)), seq(20_000, (i) => f("b", i)), {
    trajectory: "unordered",
  });
  strictEqual(big.reasons.length, 40_000);
  ok(big.reasons.slice(0, 50).every((r) => r.kind === "missing" && r.closest !== undefined));
  ok(big.reasons.slice(50).every((r) => !("closest" in r)));
});

Deno.test("subset/superset arguments compare a tool's calls pairwise up to MAX_TOOL_PAIRS", () => {
  strictEqual(MAX_TOOL_PAIRS, 1_000_000);
  const ref = seq(1_000, (i) => f("a", i)),
    out = seq(1_000, (i) => ({ name: "f", arguments: { a: i, b: 1 } }));
  const options: Opts = { trajectory: "superset", arguments: "superset" };
  assertEquals(trajectoryMatch(ref, out, options), {
    pass: true,
    reasons: [],
    greedyDisagrees: false,
  });
  // One call more: 1,001,000 pairs. The verdict is a failure with the reason `limit`.
  assertEquals(trajectoryMatch([...ref, f("a", 0)], out, options), {
    pass: false,
    reasons: [{ kind: "limit", name: "f", pairs: 1_001_000, limit: 1_000_000 }],
    greedyDisagrees: false,
  });
  // Per message in strict; equivalences and the ordered modes have no limit.
  const m = (calls: Call[]) => [{ role: "assistant", tool_calls: calls }] as unknown as Call[];
  assertEquals(
    trajectoryMatch(m([...ref, f("a", 0)]), m(out), { ...options, trajectory: "strict" }).reasons,
    [
      { kind: "limit", name: "f", pairs: 1_001_000, limit: 1_000_000, message: 0 },
    ],
  );
  strictEqual(
    trajectoryMatch([...ref, f("a", 0)], out, { ...options, trajectory: "in_order" }).reasons
      .length,
    1,
  );
  strictEqual(
    trajectoryMatch(seq(2_000, (i) => f("a", i)), seq(2_000, (i) => f("a", i)), {
      trajectory: "unordered",
    }).pass,
    true,
  );
});
