// trajectoryMatch() on 10,000 seeded random trajectories: the relations between the modes, the
// invariance of the unordered modes under permutation, greedy first-match agreeing whenever every
// argument matcher is an equivalence, and each verdict against brute force over all injections.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  type ArgumentsMode,
  trajectoryMatch,
  type TrajectoryMatchOptions,
} from "../../src/suite/mod.ts";
import { makeRng, type Rng } from "../_corpus.ts";

type Call = { name: string; arguments: Record<string, number> };

function randomCall(rng: Rng): Call {
  const args: Record<string, number> = {};
  for (const k of ["a", "b", "c"]) if (rng.chance(0.5)) args[k] = 1 + rng.int(2);
  return { name: rng.pick(["f", "g"]), arguments: args };
}

function randomCalls(rng: Rng): Call[] {
  return Array.from({ length: rng.int(6) }, () => randomCall(rng));
}

function shuffled<T>(rng: Rng, xs: readonly T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

// Options whose matchers are equivalences (exact, ignore, key lists, ignore globs, defaults) or
// not (subset, superset).
function randomOptions(
  rng: Rng,
): { options: Omit<TrajectoryMatchOptions, "trajectory">; equivalence: boolean } {
  const mode = rng.pick<ArgumentsMode>(["exact", "ignore", "subset", "superset"]);
  const tools: NonNullable<TrajectoryMatchOptions["tools"]> = {};
  let equivalence = mode === "exact" || mode === "ignore";
  if (rng.chance(0.3)) {
    const kind = rng.int(4);
    if (kind === 0) tools.f = [rng.pick(["a", "b"])];
    else if (kind === 1) tools.f = { ignore: [rng.pick(["a", "?", "*"])] };
    else if (kind === 2) tools.g = { defaults: { a: 1 } };
    else {
      const m = rng.pick<ArgumentsMode>(["exact", "subset", "superset"]);
      tools.g = m;
      // g's matcher is now m; f keeps the base mode.
      equivalence = (mode === "exact" || mode === "ignore") && m === "exact";
    }
  }
  return { options: { arguments: mode, numbers: "exact", tools }, equivalence };
}

// The same relation, by brute force over every injection (n, m <= 5).
function argsFit(ref: Call, out: Call, options: Omit<TrajectoryMatchOptions, "trajectory">) {
  return trajectoryMatch([ref], [out], { ...options, trajectory: "exact" }).pass;
}

function injects(n: number, m: number, fit: (i: number, j: number) => boolean): boolean {
  const used = new Uint8Array(m);
  const go = (i: number): boolean => {
    if (i === n) return true;
    for (let j = 0; j < m; j++) {
      if (!used[j] && fit(i, j)) {
        used[j] = 1;
        if (go(i + 1)) return true;
        used[j] = 0;
      }
    }
    return false;
  };
  return go(0);
}

function inOrderBrute(n: number, m: number, fit: (i: number, j: number) => boolean): boolean {
  const go = (i: number, from: number): boolean => {
    if (i === n) return true;
    for (let j = from; j < m; j++) if (fit(i, j) && go(i + 1, j + 1)) return true;
    return false;
  };
  return go(0, 0);
}

Deno.test("trajectoryMatch() keeps the mode relations on 10,000 seeded random trajectories", () => {
  const rng = makeRng(17);
  let greedyDisagreements = 0, equivalenceDisagreements = 0, passes = 0;
  for (let t = 0; t < 10_000; t++) {
    const ref = randomCalls(rng);
    const out = rng.chance(0.5)
      ? randomCalls(rng)
      : shuffled(rng, [...ref, ...randomCalls(rng)].slice(0, 5));
    const { options, equivalence } = randomOptions(rng);
    const run = (trajectory: TrajectoryMatchOptions["trajectory"], r = ref, o = out) =>
      trajectoryMatch(r, o, { ...options, trajectory });
    const u = run("unordered"), sub = run("subset"), sup = run("superset");
    const ex = run("exact"), io = run("in_order");
    const at = `trial ${t}: ${JSON.stringify({ ref, out, options })}`;
    assertEquals(u.pass, sub.pass && sup.pass, `unordered <=> subset and superset, ${at}`);
    if (ex.pass) ok(io.pass, `exact => in_order, ${at}`);
    if (io.pass) ok(sup.pass, `in_order => superset, ${at}`);
    passes += u.pass ? 1 : 0;
    // Invariance under permuting either side in the unordered modes.
    const r2 = shuffled(rng, ref), o2 = shuffled(rng, out);
    assertEquals(run("unordered", r2, o2).pass, u.pass, `unordered permuted, ${at}`);
    assertEquals(run("subset", r2, o2).pass, sub.pass, `subset permuted, ${at}`);
    assertEquals(run("superset", r2, o2).pass, sup.pass, `superset permuted, ${at}`);
    // Brute force over every injection and every embedding.
    const fit = (i: number, j: number) =>
      ref[i]!.name === out[j]!.name && argsFit(ref[i]!, out[j]!, options);
    const back = (j: number, i: number) => fit(i, j);
    assertEquals(sup.pass, injects(ref.length, out.length, fit), `superset brute force, ${at}`);
    assertEquals(sub.pass, injects(out.length, ref.length, back), `subset brute force, ${at}`);
    assertEquals(io.pass, inOrderBrute(ref.length, out.length, fit), `in_order brute force, ${at}`);
    // Greedy: never wrong in_order or exact; never wrong under an equivalence.
    ok(!io.greedyDisagrees && !ex.greedyDisagrees, `in_order/exact greedy, ${at}`);
    const disagree = [u, sub, sup].filter((r) => r.greedyDisagrees).length;
    greedyDisagreements += disagree;
    if (equivalence) equivalenceDisagreements += disagree;
  }
  assertEquals(equivalenceDisagreements, 0);
  ok(greedyDisagreements > 0, "subset/superset matchers do mislead greedy first-match");
  ok(passes > 500 && passes < 9_500, `${passes} unordered passes`);
});
